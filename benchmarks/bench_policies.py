"""Player speed on one core: full games between two copies of a player on the sample decks.

    python benchmarks/bench_policies.py --games 5000
    python benchmarks/bench_policies.py --policies "lookahead;lookahead:sims=50" --games 500
    python benchmarks/bench_policies.py --policies lookahead --vs greedy --games 500
    python benchmarks/bench_policies.py --loop python --games 500     # the slow path: decisions driven from Python

Prints games/s and decisions/s per player (each against itself unless --vs is given). The games
are played inside the rules core (``_core.play_matches``: the players of ``core/src/players``,
one thread, the GIL released), or with ``--loop python`` one decision at a time from Python
(``mythos_cli.policies.play_match``, what a player written in Python goes through): the same
games, seeds and decisions either way.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mythos_cli import _core  # noqa: E402
from mythos_cli.policies import make_policy, play_match  # noqa: E402
from mythos_cli.sim.decks import default_gauntlet, load_specs  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--policies", default="random,greedy,tempo,ambush,control")
    ap.add_argument("--vs", default=None, help="opponent player (default: the same player)")
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--loop", choices=("core", "python"), default="core",
                    help="core: whole games inside the core; python: one decision at a time from Python")
    args = ap.parse_args()
    decks = load_specs(default_gauntlet())
    n = len(decks)
    sep = ";" if ";" in args.policies else ","
    for spec in [p for p in args.policies.split(sep) if p]:
        vs = args.vs or spec
        plan = [(i % n, (i * 5 + 1) % n, i) for i in range(args.games)]
        t = time.perf_counter()
        if args.loop == "core":
            rows = _core.play_matches([(list(d.cards), list(d.missions)) for d in decks], plan, spec, vs)
            decisions = sum(r[3] for r in rows)
        else:
            a, b = make_policy(spec), make_policy(vs)
            decisions = sum(play_match(decks[x], decks[y], a, b, seed).game.decisions for x, y, seed in plan)
        dt = time.perf_counter() - t
        print(f"{spec:28} vs {vs:12} {args.games / dt:8.1f} games/s  {decisions / dt:9,.0f} decisions/s  ({args.loop})")


if __name__ == "__main__":
    main()
