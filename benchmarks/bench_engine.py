"""Engine speed: full random-vs-random games on one core.

Prints games/s, decisions/s and peak memory. Decks are drawn at random from the pool of
cards with encoded effects (``--pool all`` for every card of the chosen sets), seeded.

    python benchmarks/bench_engine.py --games 2000
    python benchmarks/bench_engine.py --games 20000 --check   # the invariant run
    python benchmarks/bench_engine.py --games 100000 --sets KS,SS

The games are played in the rules core, the whole batch in one call with the GIL released
(``_core.play_random_games``); the random picks are ``random.Random(seed ^ 0x5EED)``'s.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mythos_cli import _core  # noqa: E402
from mythos_cli.catalog import default_catalog  # noqa: E402
from mythos_cli.sim.plan import DeckSpec  # noqa: E402


def make_decks(n: int, sets: tuple[str, ...], pool: str, seed: int) -> list[DeckSpec]:
    """``n`` random decks of the sets: 15 cards twice and 3 missions each, seeded."""
    cat = default_catalog()
    chars = [c for c in cat if c.set in sets and c.in_deck]  # characters and attachments
    if pool == "encoded":
        chars = [c for c in chars if all(e.encoded for e in c.effects)]
    missions = [c.id for c in cat if c.set in sets and c.type == "mission"]
    rng = random.Random(seed)
    return [DeckSpec(f"random-{i}", tuple(c.id for c in rng.sample(chars, 15)) * 2, tuple(rng.sample(missions, 3)))
            for i in range(n)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--sets", default="KS", help="comma-separated: KS, SS or KS,SS")
    ap.add_argument("--pool", choices=("encoded", "all"), default="all")
    ap.add_argument("--decks", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--check", action="store_true", help="check every invariant after every decision")
    ap.add_argument("--memory", action="store_true", help="trace peak memory (slows the run)")
    ap.add_argument("--clone", action="store_true", help="core: also time one clone() of the state, every state")
    args = ap.parse_args()
    decks = make_decks(args.decks, tuple(args.sets.split(",")), args.pool, args.seed)
    if args.memory:
        tracemalloc.start()
    t0 = time.perf_counter()
    specs = [(list(d.cards), list(d.missions)) for d in decks]
    pairs = [(i % len(decks), (i * 7 + 3) % len(decks)) for i in range(args.games)]
    seeds = [args.seed * 1_000_003 + i for i in range(args.games)]
    _, decisions, failures = _core.play_random_games(specs, pairs, seeds, args.check)
    crashes = len(failures)  # a crash is a bug to fix: shown
    for i, msg in failures[:3]:
        print(f"game {i}: {msg}", file=sys.stderr)
    if args.clone:
        clones, ns = _core.clone_cost(specs, min(args.games, 2000))
        print(f"clone            {ns:,.0f} ns a state ({clones:,} clones of the states of random games)")
    dt = time.perf_counter() - t0
    peak = tracemalloc.get_traced_memory()[1] / 2**20 if args.memory else float("nan")
    import resource

    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"games            {args.games}  (sets {args.sets}, pool {args.pool}, {len(decks)} decks, check={args.check})")
    print(f"crashes          {crashes}")
    print(f"games/s          {args.games / dt:,.0f}")
    print(f"decisions/s      {decisions / dt:,.0f}  ({decisions / max(1, args.games):.1f} per game)")
    print(f"peak RSS         {rss:,.0f} MiB" + (f"; traced peak {peak:,.1f} MiB" if args.memory else ""))
    sys.exit(1 if crashes else 0)


if __name__ == "__main__":
    main()
