"""Win rate of one policy against another over every pair of sample decks, both seats.

    python benchmarks/head_to_head.py lookahead tempo --seed 990 --reps 9

Plays REPS games for each of the 36 (deck, deck) pairs in each seat (72 × REPS games) on a
process pool and prints the first policy's win rate with a 95% interval. Game seeds depend
only on --seed, the pair, the seat and the repetition, so the figure does not depend on
--workers. The ladder's head-to-head figures (benchmarks/ladder.md) come from this script.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mythos_cli.policies import make_policy, play_match  # noqa: E402
from mythos_cli.sim.decks import default_gauntlet, load_specs  # noqa: E402

_DECKS: list = []


def _game(task: tuple) -> bool:
    """One game; True when policy A wins."""
    a, b, seed, i, j, seat, rep = task
    if not _DECKS:
        _DECKS.extend(load_specs(default_gauntlet()))
    n = len(_DECKS)
    game_seed = seed * 100_000 + ((i * n + j) * 2 + seat) * 1_000 + rep
    pa, pb = make_policy(a), make_policy(b)
    if seat == 0:
        return play_match(_DECKS[i], _DECKS[j], pa, pb, game_seed).winner == 0
    return play_match(_DECKS[j], _DECKS[i], pb, pa, game_seed).winner == 1


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("a", help="policy spec, e.g. lookahead or lookahead:sims=20")
    ap.add_argument("b", help="opponent policy spec")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--reps", type=int, default=3, help="games per deck pair and seat")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args()
    make_policy(args.a), make_policy(args.b)  # a bad spec fails here, before the pool starts
    n = len(load_specs(default_gauntlet()))
    tasks = [(args.a, args.b, args.seed, i, j, s, r) for r in range(args.reps) for i in range(n) for j in range(n)
             for s in (0, 1)]
    t0 = time.perf_counter()
    with Pool(args.workers) as pool:
        wins = sum(pool.map(_game, tasks, chunksize=4))
    games = len(tasks)
    p = wins / games
    half = 196 * math.sqrt(p * (1 - p) / games)
    print(f"{args.a} vs {args.b}, seed {args.seed}: {wins}/{games} = {100 * p:.1f}% ± {half:.1f} "
          f"({time.perf_counter() - t0:.0f} s, {args.workers} workers)")


if __name__ == "__main__":
    main()
