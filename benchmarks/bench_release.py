"""What letting go of the database between writes costs the writer (issue 18: reports read a running run).

    python benchmarks/bench_release.py --games 3000 --workers 2

Runs the same greedy run (two sample decks) twice through the runner, once with the writer
releasing the file every ``RELEASE_EVERY`` seconds (the default) and once holding it throughout,
and prints games/s of each and the number of releases.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mythos_cli.sim import RunConfig, execute, load_specs, start_run  # noqa: E402
from mythos_cli.sim.decks import default_gauntlet  # noqa: E402
from mythos_cli.store import db as store_db  # noqa: E402
from mythos_cli.store import open_store  # noqa: E402


def one(folder: Path, games: int, workers: int, release_every: float, k: int) -> tuple[float, int]:
    store_db.RELEASE_EVERY = release_every
    specs = load_specs(default_gauntlet()[:2])
    cfg = RunConfig(decks=specs, opponents=[1], studied=[0], games=games, policy_a="greedy", policy_b="greedy",
                    mulligan=None, seed=3, batch_size=50)
    releases = [0]
    real = store_db.Store.release

    def counted(self, force=False):
        done = real(self, force)
        releases[0] += done
        return done

    store_db.Store.release = counted
    try:
        with open_store(folder / f"r{k}.duckdb") as s:
            start_run(s, cfg, "r", "r")
            t = time.perf_counter()
            execute(s, "r", cfg, workers=workers)
            return games / (time.perf_counter() - t), releases[0]
    finally:
        store_db.Store.release = real


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--workers", type=int, default=2)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        default = store_db.RELEASE_EVERY
        for k, every in enumerate((1e9, default, 1e9, default, 1e9, default)):  # interleaved: the load drifts
            rate, n = one(Path(d), a.games, a.workers, every, k)
            label = "held throughout" if every > 1e6 else f"released every {every:g} s"
            print(f"{label:>24}: {rate:,.0f} games/s ({n} releases)")


if __name__ == "__main__":
    main()
