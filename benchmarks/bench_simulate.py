"""End-to-end simulation speed: games/s with storage, versus the bare engine, and DuckDB ingest.

    python benchmarks/bench_simulate.py --games 2000 --workers 2

Prints: bare greedy-vs-greedy games/s on one core (no storage), end-to-end games/s of
`simulate` with W workers writing to DuckDB, their ratio, and DuckDB ingest rows/s (game
rows written per second by the single writer, measured on synthetic batches).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import polars as pl  # noqa: E402

from mythos_cli.policies import make_policy, play_match  # noqa: E402
from mythos_cli.sim import RunConfig, execute, load_specs, start_run  # noqa: E402
from mythos_cli.sim.decks import default_gauntlet  # noqa: E402
from mythos_cli.sim.worker import _game_deck, run_batch  # noqa: E402
from mythos_cli.store import open_store  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=1200)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--policy", default="greedy")
    args = ap.parse_args()
    specs = load_specs(default_gauntlet())
    decks = [_game_deck(s) for s in specs]

    n_bare = max(100, args.games // 4)
    t = time.perf_counter()
    for i in range(n_bare):
        play_match(decks[i % len(decks)], decks[(i + 1) % len(decks)], make_policy(args.policy), make_policy(args.policy), i)
    bare = n_bare / (time.perf_counter() - t)

    per = max(2, args.games // (len(specs) * (len(specs) - 1)))
    cfg = RunConfig(decks=specs, opponents=list(range(len(specs))), studied=list(range(len(specs))), games=per,
                    policy_a=args.policy, policy_b=args.policy, mulligan=None, seed=1, batch_size=50)
    total = len(cfg.jobs())
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.duckdb"
        with open_store(db) as store:
            start_run(store, cfg, "bench", "bench")
            t = time.perf_counter()
            execute(store, "bench", cfg, workers=args.workers)
            e2e = total / (time.perf_counter() - t)
        # ingest: the writer alone, on copies of one real batch
        frames = run_batch("ingest", cfg, 0, cfg.batches()[0][:50])
        with open_store(Path(tmp) / "ingest.duckdb") as store:
            reps = 200
            t = time.perf_counter()
            for k in range(reps):
                batch = {name: df.with_columns(pl.lit(f"ingest-{k}").alias("run_id")) for name, df in frames.items()}
                store.write_batch(f"ingest-{k}", 0, batch)
            dt = time.perf_counter() - t
        game_rows = reps * frames["games"].height
        all_rows = reps * sum(df.height for df in frames.values())
    print(f"policy                    {args.policy}")
    print(f"bare engine, 1 core       {bare:,.0f} games/s  ({n_bare} games, no storage)")
    print(f"simulate, {args.workers} workers       {e2e:,.0f} games/s  ({total} games stored)")
    print(f"ratio                     {e2e / bare:.2f} of one bare core ({e2e / (bare * args.workers):.2f} per worker)")
    print(f"DuckDB ingest             {game_rows / dt:,.0f} game rows/s  ({all_rows / dt:,.0f} rows/s, all tables)")
    print(f"1,000,000 games would take about {1_000_000 / e2e / 60:,.0f} minutes at this rate")


if __name__ == "__main__":
    main()
