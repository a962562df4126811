"""The budget a typical `mythos optimize` question needs, and whether its claims hold on fresh games.

    python benchmarks/bench_optimize.py --budgets 10000,20000,40000 --workers 2
    python benchmarks/bench_optimize.py --policy lookahead --budgets 40000 --rate-only 600

The question: one deck, the 6 sample decks as the field (equal shares), the whole pool of
both sets. The deck is a sample deck weakened by swapping some of its cards for cards
the search must find weaker (``--weaken OUT>IN,…``; ``--weaken ''`` asks about the deck as
it is). For each budget the script runs the optimization through the library (the same
code as the CLI, written against ``mythos_cli.sim`` and ``mythos_cli.store`` only) and
prints the games, the minutes, the verdict and the claimed gain with its corrected
interval; then it checks the claim on ``--check`` fresh games per field deck (new seeds,
the same for both decks): the proposal against the deck it was asked about, and against
the sample deck before it was weakened.

``--rate-only N`` plays only the first N games of the optimization (its screen) and
extrapolates the minutes of the whole budget from that rate: for slow players
(lookahead) on this machine, until the compiled core lands.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mythos_cli.decks import sample_paths  # noqa: E402
from mythos_cli.optimize import OptimizeConfig, Progress, build_field, build_pool, optimize  # noqa: E402
from mythos_cli.optimize import variants as V  # noqa: E402
from mythos_cli.optimize.report import race_crn  # noqa: E402
from mythos_cli.experiment.arms import compare  # noqa: E402
from mythos_cli.policies import make_policy  # noqa: E402
from mythos_cli.sim import DEFAULT_POLICY, load_specs  # noqa: E402
from mythos_cli.store import open_store  # noqa: E402

WEAKEN = "KS-108>KS-020,KS-108>SS-057,KS-148>KS-067,KS-148>SS-059"


class Quiet(Progress):
    def __init__(self, stop_after: int | None = None):
        self.played, self.stop_after = 0, stop_after

    def games(self, n: int) -> None:
        self.played += n
        if self.stop_after is not None and self.played >= self.stop_after:
            raise KeyboardInterrupt


def pct(x: float) -> str:
    return f"{100 * x:+.1f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deck", default="leaf-team7", help="a sample deck's file name")
    ap.add_argument("--weaken", default=WEAKEN, help="swaps OUT>IN that weaken it ('' for none)")
    ap.add_argument("--budgets", default="10000,20000,40000")
    ap.add_argument("--policy", default=DEFAULT_POLICY)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--missions", action="store_true")
    ap.add_argument("--check", type=int, default=400, help="fresh games per field deck to check a claim")
    ap.add_argument("--rate-only", type=int, default=0, help="play this many games and extrapolate")
    args = ap.parse_args()

    policy = make_policy(args.policy).spec
    path = next(p for p in sample_paths() if p.stem == args.deck)
    original = load_specs([str(path)])[0]
    swaps = [V.Swap(*s.split(">")) for s in args.weaken.split(",") if s.strip()]
    asked = V.apply(original, swaps, original.name + (" (weakened)" if swaps else ""))
    field, shares = build_field(None)
    pool = build_pool(None)
    print(f"deck {asked.name}: {V.label(swaps)}; field: {len(field)} sample decks, equal shares; pool: "
          f"{len(pool.cards)} cards; policy {policy}; {args.workers} workers")
    print(f"{'budget':>7} {'games':>7} {'minutes':>8} {'games/s':>8}  {'verdict':<22} {'claimed gain (corrected CI)':<30} "
          f"{'fresh: vs asked':<22} {'fresh: vs original':<22} changes")
    for budget in [int(b) for b in args.budgets.split(",")]:
        cfg = OptimizeConfig(asked, field, shares, pool, budget=budget, policy=policy, seed=args.seed,
                             missions=args.missions)
        with tempfile.TemporaryDirectory() as tmp, open_store(Path(tmp) / "bench.duckdb") as store:
            t = time.perf_counter()
            if args.rate_only:
                progress = Quiet(args.rate_only)
                try:
                    optimize(store, cfg, "bench", workers=args.workers, progress=progress)
                except Exception as exc:  # the interruption we asked for
                    if type(exc).__name__ != "OptimizeInterrupted":
                        raise
                dt = time.perf_counter() - t
                rate = progress.played / dt
                print(f"{budget:>7} {progress.played:>7} {dt / 60:>8.2f} {rate:>8.1f}  played {progress.played} games: "
                      f"the whole budget would take {budget / rate / 60:.1f} minutes at this rate")
                continue
            o = optimize(store, cfg, "bench", workers=args.workers, progress=Quiet())
            dt = time.perf_counter() - t
            c = o.confirmation
            verdict = "improvement" if o.significant else ("worse" if c and c.clearly_worse else "no significant change")
            claim = f"{pct(c.gain)} ({pct(c.low)} to {pct(c.high)}, m={o.tried})" if c else "—"
            fresh = fresh_o = "—"
            if o.proposal is not None and args.check:
                g = compare(store, "check-asked", o.proposal, asked, field, shares, args.check, policy, args.seed + 1000,
                            workers=args.workers)
                fresh = f"{pct(g.gain)} ({pct(g.low)} to {pct(g.high)})"
                if swaps:
                    h = compare(store, "check-original", o.proposal, original, field, shares, args.check, policy,
                                args.seed + 2000, workers=args.workers)
                    fresh_o = f"{pct(h.gain)} ({pct(h.low)} to {pct(h.high)})"
            print(f"{budget:>7} {o.spent:>7} {dt / 60:>8.2f} {o.spent / dt:>8.1f}  {verdict:<22} {claim:<30} "
                  f"{fresh:<22} {fresh_o:<22} {V.label(o.changes)}", flush=True)
            crn = race_crn(o) or {}
            print("        common random numbers, variance unpaired / paired: confirmation "
                  f"{c.variance_ratio:.1f}x" if c else "", "; ".join(
                      f"races, {k}: {v['ratio']:.1f}x over {v['variants']} variants" for k, v in crn.items()), flush=True)


if __name__ == "__main__":
    main()
