"""mythos simulate: reproducible whatever the workers, resumable, safe with bad databases."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import polars as pl
import pytest
from typer.testing import CliRunner

from mythos_cli.cli import app
from mythos_cli.sim import RunConfig, execute, load_specs, start_run
from mythos_cli.sim.decks import default_gauntlet
from mythos_cli.store import SCHEMA_VERSION, StoreError, open_store

runner = CliRunner()
ORDER = {"games": ["game_no"], "player_rounds": ["game_no", "seat", "round"],
         "card_events": ["game_no", "seat", "event", "round", "card", "how", "mission_rank", "won_mission"]}


@pytest.fixture(scope="module")
def specs():
    return load_specs(default_gauntlet()[:3])


def small_config(specs, games=6, seed=5, batch_size=4):
    return RunConfig(decks=specs, opponents=[0, 1, 2], studied=[0, 1], games=games, policy_a="greedy",
                     policy_b="greedy", mulligan=None, seed=seed, batch_size=batch_size)


def dump(db: Path, run: str) -> dict[str, pl.DataFrame]:
    with open_store(db, read_only=True) as s:
        out = {}
        for t, keys in ORDER.items():
            df = s.table(t, run).drop("run_id")
            if "batch_no" in df.columns:
                df = df.drop("batch_no")
            out[t] = df.sort(keys, nulls_last=True)
        return out


def run_to(db: Path, config: RunConfig, run: str, workers: int) -> None:
    with open_store(db) as s:
        start_run(s, config, run, run)
        execute(s, run, config, workers=workers)


def test_results_do_not_depend_on_workers(tmp_path, specs):
    cfg = small_config(specs)
    run_to(tmp_path / "one.duckdb", cfg, "r", 1)
    run_to(tmp_path / "two.duckdb", small_config(specs), "r", 2)
    a, b = dump(tmp_path / "one.duckdb", "r"), dump(tmp_path / "two.duckdb", "r")
    assert a["games"].height == len(cfg.jobs()) == 4 * 6
    for t in ORDER:
        assert a[t].equals(b[t]), t
    assert a["player_rounds"].height == a["games"].height * 2 * 4
    assert a["card_events"].filter(pl.col("event") == "opening").height == a["games"].height * 10


def test_interrupted_run_resumes_to_the_same_rows(tmp_path, specs):
    full = tmp_path / "full.duckdb"
    run_to(full, small_config(specs), "r", 1)
    part = tmp_path / "part.duckdb"
    cfg = small_config(specs)
    with open_store(part) as s:
        start_run(s, cfg, "r", "r")
        calls = [0]

        def stop_after_two(n):
            calls[0] += 1
            if calls[0] == 2:
                raise KeyboardInterrupt

        from mythos_cli.sim import Interrupted

        with pytest.raises(Interrupted) as exc:
            execute(s, "r", cfg, workers=1, progress=stop_after_two)
        assert exc.value.stored == 8 and s.run("r")["status"] == "interrupted"
        assert s.done_batches("r") == {0, 1}
    res = runner.invoke(app, ["simulate", "--resume", "r", "--db", str(part), "--workers", "1"])
    assert res.exit_code == 0, res.output
    a, b = dump(full, "r"), dump(part, "r")
    for t in ORDER:
        assert a[t].equals(b[t]), t


def test_a_run_of_another_mythos_is_not_resumed(tmp_path, specs):
    """A run stored by another version is refused with what to do, and nothing stored is lost: its
    players may play the same settings differently, so a resumed run would mix two players."""
    db = tmp_path / "old.duckdb"
    cfg = small_config(specs)
    with open_store(db) as s:
        start_run(s, cfg, "r", "r")
        s.con.execute("UPDATE runs SET engine_version = '0.1.0' WHERE run_id = 'r'")
    res = runner.invoke(app, ["simulate", "--resume", "r", "--db", str(db), "--workers", "1"])
    assert res.exit_code != 0 and "Traceback" not in res.output
    assert "played by mythos 0.1.0" in res.output and "start a new run" in res.output
    with open_store(db) as s:
        assert s.run("r")["engine_version"] == "0.1.0" and s.done_batches("r") == set()


def test_kill_9_loses_only_unfinished_batches(tmp_path):
    db = tmp_path / "k.duckdb"
    deck = default_gauntlet()[0]
    # the search player at 4x its default budget (some 10-20 games a second on a core), killed as soon
    # as a few batches are stored, whatever the machine's speed: a fixed sleep let a fast machine finish
    # the whole run first (CI: 400 games of the default player in under 8 s)
    cmd = [sys.executable, "-m", "mythos_cli", "simulate", deck, "--vs", default_gauntlet()[1], "--games", "120",
           "--db", str(db), "--workers", "1", "--run-name", "k", "--batch-size", "5", "--policy",
           "search:playouts=8"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    stored = 0
    while stored < 2 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.2)
        if db.exists():
            try:  # a reader gets the writer's last checkpoint (or a copy of it) while the run goes on
                with open_store(db, read_only=True) as s:
                    stored = len(s.done_batches("k")) if s.run("k") is not None else 0
            except StoreError:
                pass  # the file is being made, or the run not stored yet
    assert proc.poll() is None, "the run finished before it could be killed"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    with open_store(db, read_only=True) as s:
        games = s.table("games", "k").height
        batches = len(s.done_batches("k"))
        assert games == 5 * batches and 10 <= games < 120
        assert s.run("k")["status"] == "running"  # nobody could mark it: the process died
    res = subprocess.run([sys.executable, "-m", "mythos_cli", "simulate", "--resume", "k", "--db", str(db),
                          "--workers", "2"], capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    with open_store(db, read_only=True) as s:
        assert s.table("games", "k").height == 120 and s.run("k")["status"] == "finished"
        assert s.table("games", "k")["game_no"].n_unique() == 120


def test_illegal_deck_is_refused_before_anything_runs(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("2 KS-009\nmissions:\nKS-001-MMS\n", encoding="utf-8")
    res = runner.invoke(app, ["simulate", str(bad), "--games", "2", "--db", str(tmp_path / "x.duckdb")])
    assert res.exit_code == 1
    assert "not a legal" in res.output and "Traceback" not in res.output
    assert not (tmp_path / "x.duckdb").exists()  # validated before the database is touched: none is left behind


def test_not_a_duckdb_file(tmp_path):
    f = tmp_path / "notes.duckdb"
    f.write_text("hello, this is not a database\n" * 100)
    with pytest.raises(StoreError) as exc:
        open_store(f)
    assert "not a DuckDB" in str(exc.value)
    assert f.read_text().startswith("hello")  # untouched
    res = runner.invoke(app, ["db", "runs", "--db", str(f)])
    assert res.exit_code == 2 and "Traceback" not in res.output


def test_foreign_and_newer_databases(tmp_path):
    foreign = tmp_path / "foreign.duckdb"
    con = duckdb.connect(str(foreign))
    con.execute("create table customers (id int)")
    con.close()
    with pytest.raises(StoreError, match="not written by mythos"):
        open_store(foreign)
    newer = tmp_path / "newer.duckdb"
    open_store(newer).close()
    con = duckdb.connect(str(newer))
    con.execute("update meta set value = ? where key = 'schema_version'", [str(SCHEMA_VERSION + 1)])
    con.close()
    with pytest.raises(StoreError, match="newer mythos"):
        open_store(newer)


def test_locked_database_gets_a_clear_message(tmp_path):
    db = tmp_path / "locked.duckdb"
    open_store(db).close()
    holder = subprocess.Popen([sys.executable, "-c",
                               f"import duckdb,time; c=duckdb.connect({str(db)!r}); print('ready', flush=True); time.sleep(30)"],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "ready"
        with pytest.raises(StoreError, match="in use"):
            open_store(db)
    finally:
        holder.kill()
        holder.wait()


def test_unwritable_paths(tmp_path):
    with pytest.raises(StoreError, match="does not exist"):
        open_store(tmp_path / "no" / "such" / "dir.duckdb")
    with pytest.raises(StoreError, match="folder"):
        open_store(tmp_path)


def test_db_commands(tmp_path, specs):
    db = tmp_path / "c.duckdb"
    run_to(db, small_config(specs, games=2), "r1", 1)
    res = runner.invoke(app, ["db", "runs", "--db", str(db), "--json"])
    assert res.exit_code == 0 and json.loads(res.stdout)[0]["run_id"] == "r1"
    res = runner.invoke(app, ["db", "show", "r1", "--db", str(db)])
    assert res.exit_code == 0 and "greedy" in res.stdout
    for fmt in ("parquet", "csv"):
        res = runner.invoke(app, ["db", "export", "r1", "--format", fmt, "--out", str(tmp_path / fmt), "--db", str(db)])
        assert res.exit_code == 0, res.output
        assert (tmp_path / fmt / f"games.{fmt}").stat().st_size > 0
    assert pl.read_parquet(tmp_path / "parquet" / "games.parquet").height == 8
    res = runner.invoke(app, ["db", "delete", "r1", "--yes", "--db", str(db)])
    assert res.exit_code == 0
    res = runner.invoke(app, ["db", "show", "r1", "--db", str(db)])
    assert res.exit_code == 2  # an unknown run is bad input, in `db` as in `report`


def test_dask_local_cluster_equals_local_run(tmp_path, specs):
    distributed = pytest.importorskip("distributed")
    cfg = small_config(specs, games=4)
    run_to(tmp_path / "local.duckdb", cfg, "r", 1)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        db = tmp_path / "dask.duckdb"
        with open_store(db) as s:
            start_run(s, small_config(specs, games=4), "r", "r")
            execute(s, "r", small_config(specs, games=4), backend="dask", scheduler=cluster.scheduler_address)
    a, b = dump(tmp_path / "local.duckdb", "r"), dump(tmp_path / "dask.duckdb", "r")
    for t in ORDER:
        assert a[t].equals(b[t]), t


def test_reports_read_a_run_while_it_writes(tmp_path):
    """From another terminal: `db runs` and a report read what is stored so far; a second writer is refused."""
    db = tmp_path / "live.duckdb"
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    decks = default_gauntlet()
    cmd = [sys.executable, "-m", "mythos_cli", "simulate", decks[0], "--vs", decks[1], "--games", "1200", "--workers",
           "2", "--batch-size", "20", "--db", str(db), "--run-name", "live", "--quiet", "--policy", "lookahead:sims=20"]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        seen = []
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None:
            if db.exists():
                res = runner.invoke(app, ["db", "runs", "--db", str(db), "--json"])
                if res.exit_code == 0:
                    run = json.loads(res.stdout)[0]
                    if run["status"] == "running" and 0 < run["stored_games"] < run["planned_games"]:
                        seen.append(run["stored_games"])
                        rep = runner.invoke(app, ["report", "winrate", "--db", str(db), "--run", "live", "--out",
                                                  str(tmp_path / "rep"), "--json"])
                        assert rep.exit_code == 0, rep.output
                        assert "running" in json.loads(rep.stdout)["warnings"][0]
                        second = runner.invoke(app, ["db", "delete", "live", "--yes", "--db", str(db)])
                        assert second.exit_code == 2 and "in use" in second.output
                        break
            time.sleep(0.2)
        assert seen, "the running simulation's database could not be read"
    finally:
        out = proc.communicate(timeout=300)[1]
    assert proc.returncode == 0, out
    with open_store(db, read_only=True) as s:
        assert s.run("live")["status"] == "finished" and s.table("games", "live").height == 1200


def test_ctrl_c_while_duckdb_reads_a_batch_is_an_interruption(tmp_path, specs, monkeypatch):
    """DuckDB turns a KeyboardInterrupt raised while it reads the Arrow stream into its own error;
    the writer must give back the Ctrl-C (the run is then interrupted and resumable), not a
    "database error"."""
    from mythos_cli.sim import Interrupted
    from mythos_cli.store.db import Store

    cfg = small_config(specs)
    db = tmp_path / "c.duckdb"
    with open_store(db) as s:
        start_run(s, cfg, "r", "r")
        real = Store.write_batches

        def interrupted_read(self, run_id, batches):
            con = self.con

            class Con:
                def __getattr__(self, name):
                    return getattr(con, name)

                def from_arrow(self, data):
                    raise duckdb.InvalidInputException("reading the Arrow source as Arrow data failed: KeyboardInterrupt: ")

            self._con = Con()  # (Store.con hands out the open connection, reopening a released one)
            try:
                return real(self, run_id, batches)
            finally:
                self._con = con

        monkeypatch.setattr(Store, "write_batches", interrupted_read)
        with pytest.raises(Interrupted):
            execute(s, "r", cfg, workers=1)
        assert s.run("r")["status"] == "interrupted"
        monkeypatch.setattr(Store, "write_batches", real)
        execute(s, "r", cfg, workers=1)
        assert s.run("r")["status"] == "finished"


def test_one_planned_game_is_derived_alone(specs):
    """``RunConfig.job`` (what `mythos replay` plays again) is the plan's game without deriving the
    others: the same job as ``jobs()``, paired seeds included, and numpy's seed at any index."""
    import numpy as np

    cfg = RunConfig(decks=specs, opponents=[1, 2], studied=[0, 1], games=5, policy_a="greedy", policy_b="greedy",
                    mulligan=None, seed=4, batch_size=3, seed_groups=[0, 0])
    jobs = cfg.jobs()
    assert [cfg.job(i) for i in range(len(jobs))] == jobs
    assert cfg.job(len(jobs)) is None and cfg.job(-1) is None
    big = RunConfig(decks=specs, opponents=[1, 2], studied=[0], games=1_000_000, policy_a="greedy", policy_b="greedy",
                    mulligan=None, seed=11, batch_size=50)
    big.plan()
    k = 999_999
    want = np.random.SeedSequence(np.random.SeedSequence(11).entropy, spawn_key=(1,)).generate_state(
        k + 1, dtype=np.uint64)[k]
    job = big.job(1_000_000 + k)  # the last game of the second matchup
    assert (job.matchup, job.seat_of_deck, job.seed) == (1, k % 2, int(want % 2**63))


def test_default_batch_size_follows_the_players(tmp_path):
    """Fast built-in players get large batches (a batch's hand-over and storing dominate 50 greedy
    games); slow players, or a Python one, keep small batches; a given --batch-size wins; the
    games are the same whatever the batch size."""
    from mythos_cli.sim.plan import FAST_BATCH, SLOW_BATCH, default_batch_size

    assert default_batch_size("greedy", "control") == FAST_BATCH > SLOW_BATCH
    assert default_batch_size("greedy", "lookahead:sims=4") == SLOW_BATCH
    assert default_batch_size("cheapest.py:Cheapest", "greedy") == SLOW_BATCH
    decks = default_gauntlet()
    rows = {}
    for name, extra in (("auto", []), ("small", ["--batch-size", "7"])):
        db = tmp_path / f"{name}.duckdb"
        res = runner.invoke(app, ["simulate", decks[0], "--vs", decks[1], "--games", "1100", "--db", str(db),
                                  "--run-name", name, "--workers", "1", "--quiet", "--policy", "greedy", *extra])
        assert res.exit_code == 0, res.output
        with open_store(db, read_only=True) as s:
            assert s.done_batches(name) == set(range(3 if name == "auto" else 158))
            rows[name] = s.table("games", name).drop("run_id", "batch_no").sort("game_no")
    assert rows["auto"].equals(rows["small"])


def test_the_summary_has_one_row_per_pair_and_names_the_player(tmp_path, specs):
    from mythos_cli.sim import summarize

    db = tmp_path / "pairs.duckdb"
    cfg = small_config(specs, games=4)  # studied 0, 1 against 0, 1, 2: Leaf–Sand is played both ways
    run_to(db, cfg, "p", 1)
    with open_store(db, read_only=True) as s:
        rows = summarize(s, "p")
        pairs = [frozenset(r.matchup.split(" vs ")) for r in rows]
        assert len(pairs) == len(set(pairs)) == 3  # A–B once (8 games), A–C and B–C
        a, b = specs[0].name, specs[1].name
        ab = next(r for r in rows if frozenset((a, b)) == frozenset(r.matchup.split(" vs ")))
        assert ab.games == 8
        wins_a = s.con.sql(f"SELECT count(*) FROM games WHERE run_id = 'p' AND ((deck_0 = '{a}' AND deck_1 = '{b}' "
                           f"AND winner = 0) OR (deck_1 = '{a}' AND deck_0 = '{b}' AND winner = 1))").fetchall()[0][0]
        assert ab.wins == (wins_a if ab.matchup.startswith(a) else 8 - wins_a)
    res = runner.invoke(app, ["db", "show", "p", "--db", str(db)])
    assert res.exit_code == 0 and "greedy" in res.stdout


def test_a_reader_reads_while_another_process_holds_the_file(tmp_path, specs, monkeypatch):
    from mythos_cli.store import db as store_db

    db = tmp_path / "held.duckdb"
    run_to(db, small_config(specs, games=2), "r1", 1)
    monkeypatch.setattr(store_db, "READ_WAIT", 0.3)  # a writer that keeps the file past a reader's wait
    holder = subprocess.Popen([sys.executable, "-c",
                               f"import duckdb,time; c=duckdb.connect({str(db)!r}); print('ready', flush=True); "
                               "time.sleep(30)"], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "ready"
        with open_store(db, read_only=True, create=False) as s:
            assert s.snapshot is not None and s.run("r1")["status"] == "finished"
            folder = s.snapshot
        assert not folder.exists()  # the private copy goes with the store
        res = runner.invoke(app, ["db", "runs", "--db", str(db)])
        assert res.exit_code == 0 and "r1" in res.stdout
    finally:
        holder.kill()
        holder.wait()
