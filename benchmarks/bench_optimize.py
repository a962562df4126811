"""The default `mythos optimize DECK`: its wall time and games, and a known answer (issue 27).

    python benchmarks/bench_optimize.py                           # the default run on the weakened deck
    python benchmarks/bench_optimize.py --establish 100           # first: are the planted cards clearly worse?
    python benchmarks/bench_optimize.py --budgets 4000,8000 --seeds 1,2
    python benchmarks/bench_optimize.py --weaken '' --deck sand-village   # a deck as it is

The question: one deck, the 6 sample decks as the field (equal shares), the whole pool of
both sets, the default player (search) judging and greedy screening, exactly what
`mythos optimize DECK` runs (the same library call as the CLI). The deck is a sample deck
weakened by swaps to cards that are clearly worse (``--weaken OUT>IN,…``; default: Leaf
Village Team 7's two Original Team 7 Kakashis, 4 chakra and 5 Power, for a 5-cost 0-Power
Shinigami and a 2-cost 0-Power Gato; benchmarks/README.md says how the search player judged
the candidates for planting, and these two).

``--establish N`` first measures, with the default player, each planted swap alone and both
together against the original deck: N games per field deck and seat, paired (common random
numbers), with 95% intervals: "clearly worse" is an interval below 0.

For each budget and seed the script prints the wall time, the CPU-seconds (this process and
its finished workers: what the run costs whatever else runs on the machine), the load
average, the games of each player and stage, the rank correlation of the two players, the
verdict, the gain with its corrected interval, and whether every planted card was taken out.
``--check N`` then plays the proposal against the deck asked about on N fresh games per
field deck and seat.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from cpu_meter import CpuMeter  # noqa: E402
from mythos_cli.cli.optimize import DEFAULT_BUDGET  # noqa: E402
from mythos_cli.decks import sample_paths  # noqa: E402
from mythos_cli.experiment.arms import compare  # noqa: E402
from mythos_cli.optimize import OptimizeConfig, Progress, build_field, build_pool, optimize  # noqa: E402
from mythos_cli.optimize import variants as V  # noqa: E402
from mythos_cli.policies import make_policy  # noqa: E402
from mythos_cli.sim import DEFAULT_POLICY, load_specs  # noqa: E402
from mythos_cli.store import open_store  # noqa: E402

WEAKEN = "KS-148>SS-057,KS-148>SS-075"


class Quiet(Progress):
    pass


def pts(x: float) -> str:
    return f"{100 * x:+.1f}"


def ci(g) -> str:
    return f"{pts(g.gain)} ({pts(g.low)} to {pts(g.high)})"


def load() -> str:
    return "/".join(f"{x:.1f}" for x in os.getloadavg())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deck", default="leaf-team7", help="a sample deck's file name")
    ap.add_argument("--weaken", default=WEAKEN, help="swaps OUT>IN that weaken it ('' for none)")
    ap.add_argument("--budgets", default=str(DEFAULT_BUDGET))
    ap.add_argument("--seeds", default="1")
    ap.add_argument("--policy", default=DEFAULT_POLICY)
    ap.add_argument("--screen-policy", default=None)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--establish", type=int, default=0, help="games per field deck and seat to check the planted swaps")
    ap.add_argument("--check", type=int, default=0, help="fresh games per field deck and seat to check a claim")
    ap.add_argument("--db", default=None, help="keep the games in this database (default: a temporary one)")
    args = ap.parse_args()

    policy = make_policy(args.policy).spec
    path = next(p for p in sample_paths() if p.stem == args.deck)
    original = load_specs([str(path)])[0]
    swaps = [V.Swap(*s.split(">")) for s in args.weaken.split(",") if s.strip()]
    asked = V.apply(original, swaps, original.name + (" (weakened)" if swaps else ""))
    field, shares = build_field(None)
    pool = build_pool(None)
    print(f"deck {asked.name}: {V.label(swaps) or 'as it is'}; field: {len(field)} sample decks, equal shares; "
          f"pool: {len(pool.cards)} cards; policy {policy}; {args.workers} workers; {os.cpu_count()} cores",
          flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(args.db) if args.db else Path(tmp) / "bench.duckdb"
        with open_store(db) as store:
            if args.establish and swaps:
                print(f"planted swaps, {policy}, paired against {original.name} ({args.establish} games per field deck "
                      "and seat, 95% intervals):", flush=True)
                for k, group in enumerate([[s] for s in swaps] + ([swaps] if len(swaps) > 1 else [])):
                    t = time.perf_counter()
                    with CpuMeter() as meter:
                        g = compare(store, f"establish-{k}", V.apply(original, group), original, field, shares,
                                    2 * args.establish, policy, 900 + k, workers=args.workers)
                    print(f"  {V.label(group):<32} {ci(g)} points on {g.games:,} pairs of games "
                          f"[{time.perf_counter() - t:.0f} s, {meter.seconds:.0f} CPU-s, load {load()}]", flush=True)
            for budget in [int(b) for b in args.budgets.split(",")]:
                for seed in [int(s) for s in args.seeds.split(",")]:
                    cfg = OptimizeConfig(asked, field, shares, pool, budget=budget, policy=policy, seed=seed,
                                         screen_policy=args.screen_policy)
                    before = load()
                    t = time.perf_counter()
                    with CpuMeter() as meter:
                        o = optimize(store, cfg, f"bench-{budget}-{seed}", workers=args.workers, progress=Quiet())
                    wall, used = time.perf_counter() - t, meter.seconds
                    conf = o.confirmation
                    verdict = "improvement" if o.significant else ("worse" if conf and conf.clearly_worse
                                                                    else "no significant change")
                    gone = [s.into for s in swaps]
                    out = [s.out for s in o.changes]
                    removed = all(out.count(card) >= gone.count(card) for card in set(gone)) if gone else None
                    a = o.agreement
                    print(f"budget {budget:,} seed {seed}: {wall / 60:.1f} min wall, {used / 60:.1f} CPU-min, load "
                          f"{before} -> {load()}", flush=True)
                    print(f"  games: {policy} {o.spent:,} {dict(o.stages)}; {o.plan.cheap} {o.cheap_spent:,} "
                          f"{dict(o.cheap_stages)}")
                    if a is not None:
                        print(f"  rank correlation {o.plan.cheap} vs {policy}: {a.rho:.2f} ({a.low:.2f} to {a.high:.2f}, "
                              f"{a.candidates} swaps; judge reliability {a.reliability:.2f}, corrected "
                              f"{a.corrected:.2f}); the race took {o.keep} of {len(o.shortlist)}")
                    print(f"  {verdict}: {V.label(o.changes)}; gain {ci(conf) if conf else '—'} points (corrected, "
                          f"m={o.tried}); every planted card out: {removed}", flush=True)
                    if args.check and o.proposal is not None:
                        g = compare(store, f"check-{budget}-{seed}", o.proposal, asked, field, shares, 2 * args.check,
                                    policy, seed + 5000, workers=args.workers)
                        print(f"  fresh check against the deck asked about: {ci(g)} points", flush=True)


if __name__ == "__main__":
    main()
