"""End-to-end simulation speed: games/s with storage, versus the bare engine, and DuckDB ingest.

    python benchmarks/bench_simulate.py --games 1200 --workers 2

Prints: bare greedy-vs-greedy games/s on one core (no storage), the same games on a pool of
W processes (no storage: what the machine gives W workers right now, other jobs included),
end-to-end games/s of `simulate` with W workers writing to DuckDB, their ratios (to W bare
cores: the issue's target; to the bare pool: the cost of recording and storing), and the
single writer's ingest rate, measured on copies of one real 50-game batch (`--batch-size`: the
batches of the runs; by default simulate's own for the policy):

* ``DuckDB ingest``: the writer when batches wait for it (a saturated writer: every batch
  that is ready goes into one transaction, at most ``MAX_GROUP_GAMES`` games), through the
  runner's own code path, until everything is checkpointed into the database file;
* ``one batch per transaction``: the writer when it keeps up (each batch alone).

A game row is a row of the ``games`` view; it comes with its ``player_rounds`` and
``card_events`` rows (counted in "rows/s, all tables": rows as the views show them).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import polars as pl  # noqa: E402

from mythos_cli import _core  # noqa: E402
from mythos_cli.sim import RunConfig, execute, load_specs, start_run  # noqa: E402
from mythos_cli.sim.decks import default_gauntlet  # noqa: E402
from mythos_cli.sim.plan import default_batch_size  # noqa: E402
from mythos_cli.sim.runner import MAX_GROUP_GAMES, store_ready  # noqa: E402
from mythos_cli.sim.worker import run_batch  # noqa: E402
from mythos_cli.store import open_store  # noqa: E402
from mythos_cli.store.db import TABLES  # noqa: E402


def copies(frames: pl.DataFrame, n: int, first: int = 0) -> list[tuple[int, pl.DataFrame]]:
    """``n`` copies of a batch as further batches of the same run (their own batch and game numbers)."""
    h = frames.height
    return [(first + k, frames.with_columns(pl.col("game_no") + (first + k) * h, pl.lit(first + k, pl.Int32).alias("batch_no")))
            for k in range(n)]


def done(frames: pl.DataFrame) -> Future:
    f: Future = Future()
    f.set_result({"game_data": frames})
    return f


def bare_batch(cfg: RunConfig, policy: str, batch: list) -> int:
    """A batch's games inside the core without events or storage (what `simulate` plays, minus
    the recording)."""
    if not cfg.matchups:
        cfg.plan()
    games = []
    for job in batch:
        m = cfg.matchups[job.matchup]
        a, b = (m.deck, m.opponent) if job.seat_of_deck == 0 else (m.opponent, m.deck)
        games.append((a, b, job.seed))
    _core.play_matches([(list(d.cards), list(d.missions)) for d in cfg.decks], games, policy, policy)
    return len(batch)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=1200)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--policy", default="greedy")
    ap.add_argument("--batch-size", type=int, default=None,
                    help="games per batch (default: simulate's own for the policy, 500 for a fast player)")
    ap.add_argument("--ingest-games", type=int, default=120_000, help="games written in the ingest measure")
    args = ap.parse_args()
    specs = load_specs(default_gauntlet())
    decks = [(list(d.cards), list(d.missions)) for d in specs]

    n_bare = max(100, args.games // 4)
    t = time.perf_counter()
    _core.play_matches(decks, [(i % len(decks), (i + 1) % len(decks), i) for i in range(n_bare)], args.policy, args.policy)
    bare = n_bare / (time.perf_counter() - t)

    per = max(2, args.games // (len(specs) * (len(specs) - 1)))
    cfg = RunConfig(decks=specs, opponents=list(range(len(specs))), studied=list(range(len(specs))), games=per,
                    policy_a=args.policy, policy_b=args.policy, mulligan=None, seed=1,
                    batch_size=args.batch_size or default_batch_size(args.policy))
    total = len(cfg.jobs())
    t = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        played = sum(pool.map(bare_batch, [cfg] * len(cfg.batches()), [args.policy] * len(cfg.batches()), cfg.batches()))
    bare_pool = played / (time.perf_counter() - t)
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.duckdb"
        with open_store(db) as store:
            start_run(store, cfg, "bench", "bench")
            t = time.perf_counter()
            execute(store, "bench", cfg, workers=args.workers)
            e2e = total / (time.perf_counter() - t)
            stored = {name: store.table(name, "bench").height for name in TABLES}
        rows_per_game = sum(stored.values()) / stored["games"]

        # ingest: the writer alone, on copies of one real batch (prepared beforehand, as workers hand them over)
        frames = run_batch("ingest", cfg, 0, cfg.batches()[0][:50])["game_data"]
        n_batches = max(1, args.ingest_games // frames.height)
        with open_store(Path(tmp) / "ingest.duckdb") as store:
            start_run(store, cfg, "ingest", "ingest")
            ready = [(k, [None] * df.height, done(df)) for k, df in copies(frames, n_batches)]
            t = time.perf_counter()
            store_ready(store, "ingest", ready, None)
            store.con.execute("CHECKPOINT").fetchall()  # everything in the database file, not only in the log
            saturated = n_batches * frames.height / (time.perf_counter() - t)
            singles = copies(frames, 200, first=n_batches)
            t = time.perf_counter()
            for k, df in singles:
                store.write_batch("ingest", k, {"game_data": df})
            single = len(singles) * frames.height / (time.perf_counter() - t)
            bytes_per_game = (Path(tmp) / "ingest.duckdb").stat().st_size / ((n_batches + len(singles)) * frames.height)
    lines = [
        ("policy", args.policy),
        ("bare engine, 1 core", f"{bare:,.0f} games/s  ({n_bare} games, no storage)"),
        (f"bare, {args.workers} processes", f"{bare_pool:,.0f} games/s  ({played} games, no events, no storage)"),
        (f"simulate, {args.workers} workers", f"{e2e:,.0f} games/s  ({total} games stored, {cfg.batch_size} a batch)"),
        ("ratio", f"{e2e / bare:.2f} of one bare core ({e2e / (bare * args.workers):.2f} per worker); "
                  f"{e2e / bare_pool:.2f} of the bare pool"),
        ("DuckDB ingest", f"{saturated:,.0f} game rows/s  ({saturated * rows_per_game:,.0f} rows/s, all tables; "
                          f"{n_batches * frames.height:,} games, at most {MAX_GROUP_GAMES:,} a transaction, checkpointed)"),
        ("one batch per transaction", f"{single:,.0f} game rows/s  ({frames.height} games a transaction)"),
        ("rows per game", ", ".join(f"{name} {n / stored['games']:.1f}" for name, n in stored.items())
         + f"; stored as 1 row of game_data, {bytes_per_game:,.0f} bytes a game in the file"),
    ]
    for label, text in lines:
        print(f"{label:<26}{text}")
    print(f"1,000,000 games would take about {1_000_000 / e2e / 60:,.0f} minutes at this rate")

if __name__ == "__main__":
    main()
