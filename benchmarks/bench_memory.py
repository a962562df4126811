"""Peak memory and time of `db export` and every report, on databases of N stored games.

    python benchmarks/bench_memory.py --games 50000,200000 [--base 360] [--keep DIR]

How the games are made: ``--base`` real games are played once (greedy against greedy, the six
sample decks against each other, mirrors included, so every matchup and seat is there) and
recorded by the simulation's own worker code (``run_batch``); the database of N games then
holds copies of those games under new game numbers, in batches of 50, written by the store's
single writer (``Store.write_batches``, what ``simulate`` uses). Copies have the real
distribution of card events, rounds and decks, which is what the memory of a report depends
on; playing a million games for every measure would take an hour.

Each command then runs as its own process (``python -m mythos_cli …``, as a user runs it);
its peak resident memory is read from ``os.wait4`` (``ru_maxrss``: the whole process, Python,
Polars, DuckDB and matplotlib included) and its wall time from the clock. The figure per game
is the growth between the smallest and the largest database, divided by the games added.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import polars as pl  # noqa: E402

from mythos_cli.sim import RunConfig, load_specs, start_run  # noqa: E402
from mythos_cli.sim.decks import default_gauntlet  # noqa: E402
from mythos_cli.sim.worker import run_batch  # noqa: E402
from mythos_cli.store import open_store  # noqa: E402

RUN = "bench"
BATCH = 50


def base_games(n: int) -> tuple[RunConfig, pl.DataFrame]:
    specs = load_specs(default_gauntlet())
    k = len(specs)
    per = max(2, -(-n // (k * k)))
    cfg = RunConfig(decks=specs, opponents=list(range(k)), studied=list(range(k)), games=per, policy_a="greedy",
                    policy_b="greedy", mulligan=None, seed=1, mirrors=True, batch_size=BATCH)
    frames = [run_batch(RUN, cfg, i, b)["game_data"] for i, b in enumerate(cfg.batches())]
    return cfg, pl.concat(frames)


def write_db(path: Path, cfg: RunConfig, games: pl.DataFrame, n: int) -> None:
    """``n`` games: copies of ``games`` under new game numbers, 50 to a batch."""
    base = games.height
    with open_store(path) as store:
        start_run(store, cfg, RUN, RUN)
        store.con.execute("UPDATE runs SET planned_games = ?, planned_batches = ? WHERE run_id = ?",
                          [n, -(-n // BATCH), RUN]).fetchall()
        done = 0
        batch_no = 0
        group = []
        while done < n:
            take = min(BATCH, n - done)
            rows = games.slice(done % base, take) if done % base + take <= base else \
                pl.concat([games, games]).slice(done % base, take)
            group.append((batch_no, {"game_data": rows.with_columns(
                pl.int_range(done, done + take, dtype=pl.Int32).alias("game_no"),
                pl.lit(batch_no, pl.Int32).alias("batch_no"))}))
            done += take
            batch_no += 1
            if len(group) == 200:
                store.write_batches(RUN, group)
                group = []
        store.write_batches(RUN, group)
        store.set_status(RUN, "finished")


def measure(argv: list[str], cwd: Path) -> tuple[float, float, int, str]:
    """(peak RSS in MiB, seconds, exit code, last line of stderr) of one mythos command."""
    env = dict(os.environ, PYTHONPATH=str(REPO))
    t = time.perf_counter()
    p = subprocess.Popen([sys.executable, "-m", "mythos_cli", *argv], cwd=cwd, env=env,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    err = p.stderr.read()
    _, status, usage = os.wait4(p.pid, 0)
    secs = time.perf_counter() - t
    p.returncode = os.waitstatus_to_exitcode(status)
    last = err.strip().splitlines()[-1] if err.strip() else ""
    return usage.ru_maxrss / 1024, secs, p.returncode, last


COMMANDS = {
    "db export parquet": lambda db, out: ["db", "export", RUN, "--db", db, "--out", out + "/parquet"],
    "db export csv": lambda db, out: ["db", "export", RUN, "--db", db, "--format", "csv", "--out", out + "/csv"],
    "report winrate": lambda db, out: ["report", "winrate", "--db", db, "--out", out],
    "report mulligan": lambda db, out: ["report", "mulligan", "--db", db, "--out", out],
    "report curve": lambda db, out: ["report", "curve", "--db", db, "--out", out],
    "report cards": lambda db, out: ["report", "cards", "--db", db, "--out", out],
    "report prep": lambda db, out: ["report", "prep", "Leaf Village Team 7", "--db", db, "--out", out],
    "db runs": lambda db, out: ["db", "runs", "--db", db],
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", default="50000,200000", help="comma-separated database sizes (stored games)")
    ap.add_argument("--base", type=int, default=360, help="real games played once, then copied")
    ap.add_argument("--only", default="", help="comma-separated commands to measure (default: all)")
    ap.add_argument("--keep", type=Path, help="keep the databases in this folder (reused when present)")
    args = ap.parse_args()
    sizes = [int(s.replace("_", "")) for s in args.games.split(",")]
    only = [c.strip() for c in args.only.split(",") if c.strip()] or list(COMMANDS)
    tmp = Path(tempfile.mkdtemp(prefix="mythos-mem-"))
    where = args.keep or tmp
    where.mkdir(parents=True, exist_ok=True)
    cfg = games = None
    results: dict[str, dict[int, tuple]] = {c: {} for c in only}
    try:
        for n in sizes:
            db = where / f"games-{n}.duckdb"
            if not db.exists():
                if games is None:
                    t = time.perf_counter()
                    cfg, games = base_games(args.base)
                    print(f"played {games.height} base games in {time.perf_counter() - t:.0f} s", file=sys.stderr)
                t = time.perf_counter()
                write_db(db, cfg, games, n)
                print(f"wrote {n:,} games in {time.perf_counter() - t:.0f} s ({db.stat().st_size / 1e6:.0f} MB)",
                      file=sys.stderr)
            for c in only:
                out = tmp / f"out-{n}"
                shutil.rmtree(out, ignore_errors=True)
                out.mkdir()
                results[c][n] = measure(COMMANDS[c](str(db), str(out)), tmp)
                rss, secs, code, last = results[c][n]
                print(f"{n:>9,} {c:<18} {rss:8.0f} MiB {secs:7.1f} s  exit {code}"
                      + (f"  ({last[:100]})" if code else ""), file=sys.stderr)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    lo, hi = min(sizes), max(sizes)
    head = "| command | " + " | ".join(f"{n:,} games: peak RSS, time" for n in sizes) + " | growth a game |"
    print(head)
    print("|---" * (len(sizes) + 2) + "|")
    for c in only:
        cells = [f"{results[c][n][0]:,.0f} MiB, {results[c][n][1]:.1f} s"
                 + (f" (**exit {results[c][n][2]}**)" if results[c][n][2] else "") for n in sizes]
        growth = ((results[c][hi][0] - results[c][lo][0]) * 1024 * 1024 / (hi - lo)) if hi > lo else None
        print(f"| `{c}` | " + " | ".join(cells) + f" | {'—' if growth is None else f'{growth:,.0f} bytes'} |")


if __name__ == "__main__":
    main()
