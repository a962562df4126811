"""Player speed on one core: full games between two copies of a player, on the sample decks and
on random legal decks drawn from the whole catalog.

    python benchmarks/bench_policies.py --games 5000
    python benchmarks/bench_policies.py --policies "lookahead;lookahead:sims=50" --games 500
    python benchmarks/bench_policies.py --policies lookahead --vs greedy --games 500
    python benchmarks/bench_policies.py --policies search --games 200 --decks random --random-decks 12
    python benchmarks/bench_policies.py --loop python --games 500     # the slow path: decisions driven from Python

Prints games/s and decisions/s per player (each against itself unless --vs is given), once per
deck set (``--decks both``, the default: the six sample decks, then ``--random-decks`` random
legal decks drawn from ``--deck-seed``; ``search_common.random_decks``), with the load average.
The games are played inside the rules core (``_core.play_matches``: the players of
``core/src/players``, one thread, the GIL released), or with ``--loop python`` one decision at a
time from Python (``mythos_cli.policies.play_match``, what a player written in Python goes
through): the same games, seeds and decisions either way.
"""

from __future__ import annotations

import argparse
import time

from search_common import add_deck_options, deck_sets, load

from mythos_cli import _core
from mythos_cli.policies import make_policy, play_match
from mythos_cli.sim.plan import DeckSpec


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--policies", default="random,greedy,tempo,ambush,control")
    ap.add_argument("--vs", default=None, help="opponent player (default: the same player)")
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--loop", choices=("core", "python"), default="core",
                    help="core: whole games inside the core; python: one decision at a time from Python")
    add_deck_options(ap)
    args = ap.parse_args()
    sep = ";" if ";" in args.policies else ","
    print(f"{load()} before")
    for label, names, decks in deck_sets(args.decks, args.random_decks, args.deck_seed):
        n = len(decks)
        print(label)
        for spec in [p for p in args.policies.split(sep) if p]:
            vs = args.vs or spec
            plan = [(i % n, (i * 5 + 1) % n, i) for i in range(args.games)]
            t = time.perf_counter()
            if args.loop == "core":
                rows = _core.play_matches(decks, plan, spec, vs)
                decisions = sum(r[3] for r in rows)
            else:
                a, b = make_policy(spec), make_policy(vs)
                specs = [DeckSpec(nm, tuple(c), tuple(m)) for nm, (c, m) in zip(names, decks)]
                decisions = sum(play_match(specs[x], specs[y], a, b, seed).game.decisions for x, y, seed in plan)
            dt = time.perf_counter() - t
            print(f"  {spec:28} vs {vs:12} {args.games / dt:8.1f} games/s  {decisions / dt:9,.0f} decisions/s  "
                  f"({args.loop})")
    print(f"{load()} after")


if __name__ == "__main__":
    main()
