"""Policy speed on one core: full games between two copies of a policy on the sample decks.

    python benchmarks/bench_policies.py --games 200
    python benchmarks/bench_policies.py --policies "lookahead" --games 20 --vs greedy
    python benchmarks/bench_policies.py --engine core --games 5000      # the core's built-in players
    python benchmarks/bench_policies.py --engine core --policies "lookahead;lookahead:sims=50" --games 500

Prints games/s and decisions/s per policy (each policy against itself unless --vs is given).
``--engine core`` plays the whole games inside the compiled core (``_core.play_matches``, the
players of ``core/src/players``, one thread, the GIL released): the same games, seeds and
decisions as the Python players on the Python engine.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mythos_cli.policies import make_policy, play_match  # noqa: E402
from mythos_cli.sim.decks import default_gauntlet, load_specs  # noqa: E402
from mythos_cli.sim.worker import _game_deck  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--policies", default="random,greedy,tempo,ambush,control")
    ap.add_argument("--vs", default=None, help="opponent policy (default: the same policy)")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--engine", choices=("python", "core"), default="python",
                    help="python: the Python players on the Python engine; core: the core's players in the core")
    args = ap.parse_args()
    decks = [_game_deck(s) for s in load_specs(default_gauntlet())]
    n = len(decks)
    sep = ";" if ";" in args.policies else ","
    for spec in [p for p in args.policies.split(sep) if p]:
        if args.engine == "core":
            _bench_core(decks, spec, args.vs or spec, args.games)
            continue
        a, b = make_policy(spec), make_policy(args.vs or spec)
        decisions = 0
        t = time.perf_counter()
        for i in range(args.games):
            r = play_match(decks[i % n], decks[(i * 5 + 1) % n], a, b, i)
            decisions += r.state.decisions
        dt = time.perf_counter() - t
        print(f"{spec:28} vs {args.vs or spec:12} {args.games / dt:8.1f} games/s  {decisions / dt:9,.0f} decisions/s")


def _bench_core(decks, spec: str, vs: str, games: int) -> None:
    from mythos_cli import _core

    ids = [([c.id for c in d.cards], [m.id for m in d.missions]) for d in decks]
    n = len(ids)
    plan = [(i % n, (i * 5 + 1) % n, i) for i in range(games)]
    t = time.perf_counter()
    rows = _core.play_matches(ids, plan, spec, vs)
    dt = time.perf_counter() - t
    decisions = sum(r[3] for r in rows)
    print(f"{spec:28} vs {vs:12} {games / dt:8.1f} games/s  {decisions / dt:9,.0f} decisions/s  (core)")


if __name__ == "__main__":
    main()
