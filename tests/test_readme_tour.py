"""README.md's tour, line by line, as a user pastes it on a fresh clone (issue 18, item 7).

Each line of the ```bash block under "## A short tour" runs in a folder holding only the
clone's ``data`` and ``tests/scenarios`` (so ``mythos.duckdb``, ``reports/`` and the files the
tour writes start absent), in order, and must exit 0. The shell's part is done here as a
shell would: the line is split with shlex, a ``*`` pattern is expanded and the comment dropped.
"""

from __future__ import annotations

import glob
import os
import re
import shlex
from pathlib import Path

from typer.testing import CliRunner

from mythos_cli.cli import app

REPO = Path(__file__).resolve().parents[1]


def tour_lines() -> list[str]:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text.split("## A short tour", 1)[1]
    block = re.search(r"```bash\n(.*?)```", section, re.S).group(1)
    return [line for line in block.splitlines() if line.strip()]


def test_the_tour_has_no_placeholders_or_pipes():
    lines = tour_lines()
    assert len(lines) >= 25
    for line in lines:
        command = shlex.split(line, comments=True)
        assert command[0] == "mythos", line
        assert "|" not in command and "…" not in line.split("#")[0] and "RUN" not in command, line
        assert not any(w in line for w in ("my-deck", "rival.txt", "konoha.txt")), line


def test_every_tour_line_runs(tmp_path, monkeypatch):
    (tmp_path / "tests").mkdir()
    os.symlink(REPO / "data", tmp_path / "data")
    os.symlink(REPO / "tests" / "scenarios", tmp_path / "tests" / "scenarios")
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    for line in tour_lines():
        words = shlex.split(line, comments=True)[1:]
        args = [m for w in words for m in (sorted(glob.glob(w)) if "*" in w else [w])]
        res = runner.invoke(app, args)
        assert res.exit_code == 0, f"{line}\n{res.output}"
        assert "Traceback" not in res.output, line
        # a run as played is never taken for a changed one (a deck's events name the cards of
        # its opponent that it reveals: the run's lists together bound them)
        assert "were changed after they were stored" not in res.output, f"{line}\n{res.output}"
    assert (tmp_path / "exports" / "games.parquet").is_file() and (tmp_path / "leaf.code").is_file()
    assert any(Path("reports/tour").glob("prep-*.html"))
