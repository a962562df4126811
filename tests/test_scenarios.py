"""Every scenario file under tests/scenarios/ must pass (rules and card effects)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mythos_cli.engine.scenario import run_file

FILES = sorted((Path(__file__).parent / "scenarios").rglob("*.toml"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(p.parents[1])))
def test_scenario(path, catalog):
    res = run_file(path, catalog)
    assert res.error is None, res.error
    failed = [f"{c.what}: {c.detail}" for c in res.checks if not c.ok]
    assert not failed, "\n".join(failed)
    assert res.checks, "a scenario must expect something"


def test_there_are_scenarios():
    assert len(FILES) >= 15


def test_bad_board_round_is_a_clear_error_shown_as_written(tmp_path, monkeypatch):
    """A round outside 1-4 is refused, and the CLI shows the message's "[board]" as text
    (rich would otherwise read it as markup and drop it)."""
    from typer.testing import CliRunner

    from mythos_cli.cli import app

    monkeypatch.chdir(tmp_path)
    (tmp_path / "l.toml").write_text('name = "late"\nsteps = []\n[board]\nround = 9\n[expect]\nround = 9\n')
    res = CliRunner().invoke(app, ["scenario", "run", "l.toml"])
    assert res.exit_code == 1
    assert "l.toml [board] round: a game has rounds 1 to 4, not 9" in res.stdout
