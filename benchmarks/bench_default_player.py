"""The default player's speed in games per CPU-second, on the sample decks and on random legal decks.

    python benchmarks/bench_default_player.py --games 120
    python benchmarks/bench_default_player.py --games 120 --policy greedy
    python benchmarks/bench_default_player.py --games 60 --decks 6 --repeat 3 --policy "search;search:playouts=3"

Plays ``--games`` games of the player against itself inside the core (one thread,
``_core.play_matches``) on (a) the six sample decks, (b) ``--decks`` random legal decks drawn from
the whole catalog (``search_common.random_decks``: 15 different characters or attachments twice
and 3 different missions, each checked against the construction rules), and prints games per CPU-second (the process's
CPU time, so another program's load slows it less than a wall clock), decisions per game and
the mean cost of the decks, with the load average. Several players (``--policy "A;B"``) are
measured in turn, ``--repeat`` passes over all of them (each pass the same games), so that a
change of the machine's load falls on all of them alike; each figure is their CPU time summed. What the speed depends on: the decisions a
game takes (each one searched with playouts: effects with targets and choices add decisions),
and the players' playouts themselves, longer where more cards can be played.
"""

from __future__ import annotations

import argparse
import os
import time

from search_common import random_decks, sample_decks

from mythos_cli import _core
from mythos_cli.catalog import default_catalog


def measure(decks: list[tuple[list[str], list[str]]], policy: str, games: int) -> tuple[float, float, float]:
    """CPU seconds, wall seconds and decisions of `games` self-play games of `policy`."""
    n = len(decks)
    plan = [(i % n, (i * 5 + 1) % n if n > 1 else 0, 1000 + i) for i in range(games)]
    cpu, wall = time.process_time(), time.perf_counter()
    rows = _core.play_matches(decks, plan, policy, policy)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return cpu, wall, sum(r[3] for r in rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--policy", default="search")
    ap.add_argument("--games", type=int, default=120)
    ap.add_argument("--decks", type=int, default=12, help="random legal decks from the catalog")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=1, help="passes over the players, measured in turn")
    args = ap.parse_args()
    policies = [p for p in args.policy.split(";") if p]
    cat = default_catalog()
    samples = sample_decks()[1]
    randoms = random_decks(args.decks, args.seed)[1]
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for label, decks in (("sample decks", samples), (f"{args.decks} random legal decks", randoms)):
        cost = sum((cat.by_id[c].cost or 0) for d, _ in decks for c in d) / sum(len(d) for d, _ in decks)
        sums = {p: [0.0, 0.0, 0] for p in policies}
        for _ in range(args.repeat):
            for p in policies:
                for k, x in enumerate(measure(decks, p, args.games)):
                    sums[p][k] += x
        games = args.games * args.repeat
        for p in policies:
            cpu, wall, decisions = sums[p]
            print(f"{p:8} {label:24} {games / cpu:6.1f} games per CPU-second ({games / wall:5.1f} a wall-clock "
                  f"second), {decisions / games:5.0f} decisions a game, mean card cost {cost:.2f}")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
