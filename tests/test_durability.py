"""Durable on crash: checkpoints as the writer goes, SIGTERM as Ctrl-C, reports written whole."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest

import reportkit as kit
from mythos_cli.reports import ReportError, make_report, plots
from mythos_cli.reports.base import STAGING
from mythos_cli.sim.decks import default_gauntlet
from mythos_cli.store import db as store_db
from mythos_cli.store import open_store

REPO = Path(__file__).resolve().parents[1]


def test_the_file_alone_holds_the_checkpointed_games(tmp_path, monkeypatch):
    """What a crash leaves: the .duckdb as it is on disk, copied without its .wal."""
    monkeypatch.setattr(store_db, "CHECKPOINT_SECONDS", 0.0)
    frames = kit.frames(kit.SPECS)["game_data"]
    live = tmp_path / "live.duckdb"
    with open_store(live) as s:
        s.create_run(kit.RUN, kit.RUN, kit.config(kit.deck_lists()), seed=1, policy_a="greedy", policy_b="greedy",
                     mulligan="", engine_version="t", catalog_hash="t", planned_games=2 * frames.height,
                     planned_batches=2)
        s.write_batch(kit.RUN, 0, {"game_data": frames})
        s.write_batch(kit.RUN, 1, {"game_data": frames.with_columns(pl.col("game_no") + frames.height,
                                                                     pl.lit(1, pl.Int32).alias("batch_no"))})
        shutil.copy(live, tmp_path / "alone.duckdb")  # the process is still running: nothing was closed
    with open_store(tmp_path / "alone.duckdb", read_only=True) as s:
        assert s.stored_games(kit.RUN) == 2 * frames.height
        assert s.table("games", kit.RUN).height == 2 * frames.height


def test_sigterm_stops_a_run_like_ctrl_c(tmp_path):
    db = tmp_path / "t.duckdb"
    gauntlet = default_gauntlet()
    cmd = [sys.executable, "-m", "mythos_cli", "simulate", gauntlet[0], "--vs", gauntlet[1], "--games", "50000",
           "--db", str(db), "--workers", "2", "--run-name", "t", "--batch-size", "10"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=REPO,
                            start_new_session=True)
    wal = Path(f"{db}.wal")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (wal.exists() and wal.stat().st_size > 50_000):
        time.sleep(0.2)  # some batches are stored (in the log until the next checkpoint)
    assert proc.poll() is None, "the run finished before it could be stopped"
    os.killpg(proc.pid, signal.SIGTERM)  # as a service manager does: the whole group, workers included
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 143, err
    assert "Traceback" not in err and "stopped by SIGTERM" in err and "--resume t" in err
    assert not Path(f"{db}.wal").exists()  # closed cleanly
    with open_store(db, read_only=True) as s:
        stored = s.stored_games("t")
        assert s.run("t")["status"] == "interrupted" and 0 < stored < 50000
        assert f"{stored} of 50000 games are stored" in " ".join(err.split())


def test_a_report_that_fails_half_way_leaves_nothing(tmp_path, monkeypatch):
    db = kit.write_db(tmp_path / "r.duckdb")
    out = tmp_path / "reports"
    make_report("curve", db, out=out)  # a first, complete report
    before = {p.name: p.read_bytes() for p in (out / kit.RUN).iterdir()}
    calls = []
    real = plots.curve_panel

    def second_plot_fails(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        return real(*args, **kwargs)

    monkeypatch.setattr(plots, "curve_panel", second_plot_fails)
    with pytest.raises(ReportError, match="No space left"):
        make_report("curve", db, out=out)
    assert {p.name: p.read_bytes() for p in (out / kit.RUN).iterdir()} == before  # the old report, untouched
    assert not list(out.glob(f"{STAGING}*"))


def test_a_killed_report_staging_folder_is_swept(tmp_path):
    db = kit.write_db(tmp_path / "r.duckdb")
    out = tmp_path / "reports"
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    stale = out / f"{STAGING}{dead.pid}-abc"
    stale.mkdir(parents=True)
    (stale / "curve.md").write_text("half", encoding="utf-8")
    res = make_report("curve", db, out=out)
    assert not stale.exists() and all(f.parent == out / kit.RUN for f in res.files)
