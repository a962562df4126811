"""The cost of the writer's checkpoints: games/s stored one 50-game batch a transaction (a
writer that keeps up with its workers) with a checkpoint every N seconds.

    python benchmarks/bench_checkpoint.py [--games 120000]

The batch is one real 50-game batch (greedy, the sample decks) copied under new game numbers.
``inf`` is no checkpoint until the end (the log grows to DuckDB's 256 MB threshold); ``0`` is a
checkpoint after every transaction.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_simulate import copies  # noqa: E402

from mythos_cli.sim import RunConfig, load_specs, start_run  # noqa: E402
from mythos_cli.sim.decks import default_gauntlet  # noqa: E402
from mythos_cli.sim.worker import run_batch  # noqa: E402
from mythos_cli.store import db as store_db  # noqa: E402
from mythos_cli.store import open_store  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=120_000)
    args = ap.parse_args()
    specs = load_specs(default_gauntlet())
    cfg = RunConfig(decks=specs, opponents=list(range(len(specs))), studied=list(range(len(specs))), games=10,
                    policy_a="greedy", policy_b="greedy", mulligan=None, seed=1, batch_size=50)
    frames = run_batch("c", cfg, 0, cfg.batches()[0])["game_data"]
    n = max(1, args.games // frames.height)
    for secs in (float("inf"), store_db.CHECKPOINT_SECONDS, 1.0, 0.0):
        store_db.CHECKPOINT_SECONDS = secs
        with tempfile.TemporaryDirectory() as tmp:
            with open_store(Path(tmp) / "c.duckdb") as s:
                start_run(s, cfg, "c", "c")
                batches = copies(frames, n)
                t = time.perf_counter()
                for k, df in batches:
                    s.write_batch("c", k, {"game_data": df})
                s.checkpoint()
                dt = time.perf_counter() - t
        print(f"checkpoint every {secs:>4} s: {n * frames.height / dt:>8,.0f} games/s "
              f"({n * frames.height:,} games, {frames.height} a transaction, {dt:.1f} s)")


if __name__ == "__main__":
    main()
