"""Stops that stop (issue 30, point 4): SIGTERM and Ctrl-C end every long command promptly.

Each case starts a real ``mythos`` process (in a session of its own, so that its workers can be
found) with a slow player whose decisions take many seconds (``search:time=10``), waits until
its workers are playing, sends the signal, and checks: the exit code (143 for SIGTERM, 130 for
Ctrl-C), the message saying what was kept, the stored state (``interrupted``, not ``running``),
and that no process of the command is left. Before the fix these ran on for minutes (the core's
searches never looked at a signal), and ``ladder`` and ``report --check-policy`` died without a
word, their workers living on.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest

from mythos_cli.decks import sample_paths

REPO = Path(__file__).resolve().parents[1]
SAMPLES = {p.stem: str(p) for p in sample_paths()}
LEAF, SAND = SAMPLES["leaf-team7"], SAMPLES["sand-village"]
SLOW = "search:time=10"  # 10 s a decision: a game takes minutes
STOP_WITHIN = 10.0  # seconds from the signal to the exit, generously (the machine may be loaded)

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="reads /proc for the command's processes")


def _group(pgid: int) -> list[int]:
    """The processes of a process group (the command and its workers)."""
    out = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                fields = (d / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == pgid and fields[0] != "Z":
                out.append(int(d.name))
    return out


def _cpu(pid: int) -> float:
    """Seconds of CPU a process has used (user + system)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _start(args, cwd: Path) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(REPO), COLUMNS="200")
    return subprocess.Popen([sys.executable, "-m", "mythos_cli", *map(str, args)], cwd=cwd, env=env,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)


def _stop(proc: subprocess.Popen, sig: int, *, workers: int, cpu: float = 5.0,
          timeout: float = 60.0) -> tuple[int, str, float]:
    """Wait until the command plays (``workers`` worker processes, one of them busy; without workers, the
    command itself has used ``cpu`` seconds: far more than starting takes), send ``sig``, and
    return (exit code, output, seconds from the signal to the exit)."""
    t0 = time.monotonic()

    def playing() -> bool:
        group = _group(proc.pid)
        if workers:
            kids = [p for p in group if p != proc.pid]
            return len(kids) >= workers and any(_cpu(p) > 1.0 for p in kids)
        return _cpu(proc.pid) >= cpu

    while proc.poll() is None and not playing():
        assert time.monotonic() - t0 < timeout, "the command never started playing"
        time.sleep(0.1)
    assert proc.poll() is None, proc.communicate()
    if sig == signal.SIGINT:
        os.killpg(proc.pid, sig)  # Ctrl-C in a terminal reaches the whole foreground group
    else:
        os.kill(proc.pid, sig)  # a service manager signals the command
    sent = time.monotonic()
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        pytest.fail(f"the command ran on for {timeout} s after the signal\n{err}")
    took = time.monotonic() - sent
    deadline = time.monotonic() + 5
    while _group(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = _group(proc.pid)
    if left:
        os.killpg(proc.pid, signal.SIGKILL)
    assert not left, f"processes left behind: {left}"
    return proc.returncode, " ".join((out + err).split()), took


def _status(db: Path, table: str = "runs", key: str = "run_id") -> dict[str, str]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return dict(con.execute(f"SELECT {key}, status FROM {table}").fetchall())
    finally:
        con.close()


def _clean(text: str) -> None:
    assert "Traceback" not in text and "panicked" not in text, text


@pytest.mark.parametrize("sig,code,how,workers", [
    (signal.SIGTERM, 143, "stopped by SIGTERM", 2),
    (signal.SIGINT, 130, "interrupted", 1),
])
def test_simulate_stops(tmp_path, sig, code, how, workers):
    db = tmp_path / "s.duckdb"
    proc = _start(["simulate", LEAF, "--vs", SAND, "--games", "4", "--policy", SLOW, "--workers", workers,
                   "--db", db, "--run-name", "slow", "--quiet"], tmp_path)
    got, text, took = _stop(proc, sig, workers=workers if workers > 1 else 0)
    _clean(text)
    assert got == code, text
    assert f"run slow {how}: 0 of 4 games are stored" in text and "mythos simulate --resume slow" in text, text
    assert took < STOP_WITHIN, f"{took:.1f} s from the signal to the exit"
    assert _status(db) == {"slow": "interrupted"}


def test_optimize_stops(tmp_path):
    db = tmp_path / "o.duckdb"
    proc = _start(["optimize", LEAF, "--field", f"{SAND}=1", "--budget", "2000", "--policy", SLOW, "--workers", 2,
                   "--db", db, "--name", "opt", "--out", tmp_path / "rep"], tmp_path)
    got, text, took = _stop(proc, signal.SIGTERM, workers=2)
    _clean(text)
    assert got == 143, text
    # (the games counted are the judging player's, named since the multi-fidelity search)
    assert re.search(r"optimization opt stopped by sigterm: 0 of 2,000 games (of \S+ )?are stored", text.lower()), text
    assert "mythos optimize --resume opt" in text, text
    assert took < STOP_WITHIN, f"{took:.1f} s from the signal to the exit"
    assert _status(db) == {"opt-base": "interrupted"}  # the calibration of the player given comes first
    assert _status(db, "optimizations", "opt_id") == {"opt": "interrupted"}


def test_optimize_at_the_largest_budget_plans_quickly_and_stops(tmp_path):
    """--budget 10,000,000 (the documented maximum) used to plan for minutes with no game played,
    its memory rising to 1.6 GB, and die on SIGTERM without a word; now its first games start
    within seconds and the stop says what was kept."""
    db = tmp_path / "o.duckdb"
    proc = _start(["optimize", LEAF, "--budget", "10000000", "--policy", SLOW, "--workers", 2, "--db", db,
                   "--name", "big", "--out", tmp_path / "rep"], tmp_path)
    t0 = time.monotonic()
    got, text, took = _stop(proc, signal.SIGTERM, workers=2, timeout=60)
    _clean(text)
    assert got == 143, text
    assert re.search(r"optimization big stopped by SIGTERM: 0 of 10,000,000 games (of \S+ )?are stored", text), text
    assert took < STOP_WITHIN and time.monotonic() - t0 < 60, text


def test_ladder_stops(tmp_path):
    proc = _start(["ladder", "--games", "4", "--policies", f"greedy;{SLOW}", "--workers", 2, "--quiet"], tmp_path)
    got, text, took = _stop(proc, signal.SIGTERM, workers=2)
    _clean(text)
    assert got == 143, text
    assert "ladder stopped by SIGTERM: 0 of 4 games were played, and nothing is kept" in text, text
    assert took < STOP_WITHIN, f"{took:.1f} s from the signal to the exit"


@pytest.fixture(scope="module")
def greedy_db(tmp_path_factory) -> Path:
    from typer.testing import CliRunner

    from mythos_cli.cli import app

    db = tmp_path_factory.mktemp("stops") / "g.duckdb"
    res = CliRunner().invoke(app, ["simulate", LEAF, "--vs", SAND, "--games", "4", "--policy", "greedy",
                                   "--run-name", "g", "--workers", "1", "--db", str(db), "--quiet"])
    assert res.exit_code == 0, res.output
    return db


def test_report_prep_check_policy_stops(tmp_path, greedy_db):
    proc = _start(["report", "prep", "Leaf", "--run", "g", "--db", greedy_db, "--out", tmp_path / "rep",
                   "--check-policy", SLOW, "--check-games", "2", "--workers", 2], tmp_path)
    got, text, took = _stop(proc, signal.SIGTERM, workers=2)
    _clean(text)
    assert got == 143, text
    assert "report prep stopped by SIGTERM while checking with search:time=10: 0 of 2 games played again, no " \
           "report written" in text, text
    assert took < STOP_WITHIN, f"{took:.1f} s from the signal to the exit"
    assert not (tmp_path / "rep" / "g").exists()
    assert _status(greedy_db) == {"g": "finished"}


def test_replay_seed_stops(tmp_path):
    proc = _start(["replay", "--seed", "3", LEAF, SAND, "--policy", SLOW], tmp_path)
    got, text, took = _stop(proc, signal.SIGTERM, workers=0)
    _clean(text)
    assert got == 143 and "replay stopped by SIGTERM: nothing is stored by a replay" in text, text
    assert took < STOP_WITHIN, f"{took:.1f} s from the signal to the exit"


@pytest.mark.parametrize("kind,extra", [
    ("mulligan", ["--hands", "4"]),
    ("missions", ["--budget", "2000"]),
])
def test_experiments_stop(tmp_path, kind, extra):
    """The experiments run under one stop for all their stages: a SIGTERM ends them with 143,
    saying what is kept and how to resume, and leaves no worker."""
    db = tmp_path / "x.duckdb"
    proc = _start(["experiment", kind, LEAF, "--field", "Sand Village=100", *extra, "--policy", SLOW,
                   "--workers", 2, "--db", db, "--name", "exp", "--out", tmp_path / "rep", "--quiet"], tmp_path)
    got, text, took = _stop(proc, signal.SIGTERM, workers=2)
    _clean(text)
    assert got == 143, text
    assert f"{kind} experiment exp stopped by SIGTERM" in text and f"mythos experiment {kind} --resume exp" in text
    assert took < STOP_WITHIN, f"{took:.1f} s from the signal to the exit"
