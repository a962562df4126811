"""The default `mythos optimize DECK`: its wall time and games, and a known answer (issue 27).

    python benchmarks/bench_optimize.py                           # the known answer, the default run
    python benchmarks/bench_optimize.py --establish 100           # first: are the planted cards clearly worse?
    python benchmarks/bench_optimize.py --deck sand-village --weaken A>B,C>D --establish 30 --budgets ''  # only that
    python benchmarks/bench_optimize.py --workers 1,2             # the same proposal on 1 and 2 workers
    python benchmarks/bench_optimize.py --budgets 4000,8000 --seeds 1,2
    python benchmarks/bench_optimize.py --deck sand-village --weaken ''   # a sample deck as it is

The question: one deck, the 6 sample decks as the field (equal shares), the whole pool of
both sets, the default player (search) screening and judging, exactly what
`mythos optimize DECK` runs (the same library call as the CLI). The deck is a sample deck
weakened by swaps to cards that are clearly worse: by default the planted list
``known_answers/planted-two-swaps-sand.txt`` (Sand Village's One-Tail, 6 chakra and 9 Power,
out for a 2-cost 0-Power Tazuna, and a 5-cost 5-Power Temari out for a 2-cost 0-Power Gato:
each clearly worse alone under search, ``--establish``; its header names the sample deck and
the planted swaps, checked here against the list), or ``--deck SAMPLE --weaken OUT>IN,…``.
``--known known_answers/planted-two-swaps-sound.txt`` is a second (the Sound Four's Ukon and a
Tayuya out for a Tazuna and a Shinigami, each clearly worse alone). (``planted-two-swaps-leaf.txt``,
both Original Team 7 Kakashis out, is not a known answer for search: each of its swaps alone is
within noise of the deck.)

The known answer (issue 27): the default optimize takes every planted card out, with a gain
whose corrected interval excludes 0, within 10 minutes on 2 cores; the last line says PASS or
FAIL and why.

``--establish N`` first measures, with the default player, each planted swap alone and both
together against the original deck: N games per field deck and seat, paired (common random
numbers), with 95% intervals: "clearly worse" is an interval below 0.

For each budget and seed the script prints the wall time, the CPU-seconds (this process and
its finished workers: what the run costs whatever else runs on the machine), the load
average, the games of each player and stage, the rank correlation of the two players, the
verdict, the gain with its corrected interval, and whether every planted card was taken out.
``--check N`` then plays the proposal against the deck asked about on N fresh games per
field deck and seat; ``--check-planted N``, when a planted card stayed in, plays the proposal
with that card swapped back for the one the plant took out against the proposal itself (N games
per field deck and seat, paired): is the card left in still a drag in the deck proposed?
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

KNOWN = Path(__file__).resolve().parent / "known_answers" / "planted-two-swaps-sand.txt"
TEN_MINUTES = 600.0


def planted(path: Path):
    """The sample deck and the swaps a planted list's header names (``# original:``, ``# planted:``)."""
    head = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") and ":" in line:
            key, _, value = line[1:].partition(":")
            head[key.strip()] = value.strip()
    return head["original"], [V.Swap(*s.strip().split(">")) for s in head["planted"].split(",") if s.strip()]


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
    ap.add_argument("--known", default=str(KNOWN), help="a planted list (its header names the deck and the swaps)")
    ap.add_argument("--deck", default=None, help="instead: a sample deck's file name (with --weaken)")
    ap.add_argument("--weaken", default="", help="with --deck: swaps OUT>IN that weaken it ('' for none)")
    ap.add_argument("--budgets", default=str(DEFAULT_BUDGET))
    ap.add_argument("--seeds", default="1")
    ap.add_argument("--policy", default=DEFAULT_POLICY)
    ap.add_argument("--screen-policy", default=None)
    ap.add_argument("--workers", default="2", help="workers; several (1,2) check the same proposal on each")
    ap.add_argument("--establish", type=int, default=0, help="games per field deck and seat to check the planted swaps")
    ap.add_argument("--check", type=int, default=0, help="fresh games per field deck and seat to check a claim")
    ap.add_argument("--check-planted", type=int, default=0,
                    help="games per field deck and seat: a planted card left in, swapped back in the proposal")
    ap.add_argument("--db", default=None, help="keep the games in this database (default: a temporary one)")
    args = ap.parse_args()

    policy = make_policy(args.policy).spec
    if args.deck:
        deck, swaps = args.deck, [V.Swap(*s.split(">")) for s in args.weaken.split(",") if s.strip()]
    else:
        deck, swaps = planted(Path(args.known))
    path = next(p for p in sample_paths() if p.stem == deck)
    original = load_specs([str(path)])[0]
    asked = V.apply(original, swaps, original.name + (" (weakened)" if swaps else ""))
    if not args.deck:
        listed = load_specs([args.known])[0]
        if sorted(listed.cards) != sorted(asked.cards) or sorted(listed.missions) != sorted(asked.missions):
            sys.exit(f"{args.known}: the list is not {deck} with the swaps its header names")
        asked = listed  # as `mythos optimize FILE` reads it (its order of slots, its name)
    workers = [int(w) for w in args.workers.split(",")]
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
                                    2 * args.establish, policy, 900 + k, workers=workers[-1])
                    print(f"  {V.label(group):<32} {ci(g)} points on {g.games:,} pairs of games "
                          f"[{time.perf_counter() - t:.0f} s, {meter.seconds:.0f} CPU-s, load {load()}]", flush=True)
            results = []
            for budget in [int(b) for b in args.budgets.split(",") if b.strip()]:  # '': --establish only
                for seed in [int(s) for s in args.seeds.split(",")]:
                    runs = [one_run(store, args, asked, swaps, field, shares, pool, policy, budget, seed, w)
                            for w in workers]
                    same = len({repr(r["answer"]) for r in runs}) == 1
                    if len(runs) > 1:
                        print(f"  same proposal and confirmation on {args.workers} workers: {same}", flush=True)
                    results += [dict(r, same=same) for r in runs]
    for r in results:
        if r["removed"] is None:
            continue  # nothing planted: no known answer
        why = (["a planted card stayed in"] * (not r["removed"]) + ["the gain's interval includes 0"]
               * (not r["significant"]) + ["another proposal on another worker count"] * (not r["same"]))
        late = " (over 10: the machine's load?)" if r["wall"] > TEN_MINUTES else " (within 10)"
        print(f"known answer, budget {r['budget']:,} seed {r['seed']} on {r['workers']} worker(s): "
              f"{'FAIL: ' + '; '.join(why) if why else 'PASS'}; {r['wall'] / 60:.1f} minutes{late}; "
              f"load now {load()}")


def one_run(store, args, asked, swaps, field, shares, pool, policy: str, budget: int, seed: int, w: int) -> dict:
    """The default optimize of ``asked`` on ``w`` workers: printed, and what the known answer needs."""
    cfg = OptimizeConfig(asked, field, shares, pool, budget=budget, policy=policy, seed=seed,
                         screen_policy=args.screen_policy)
    before = load()
    t = time.perf_counter()
    with CpuMeter() as meter:
        o = optimize(store, cfg, f"bench-{budget}-{seed}-w{w}", workers=w, progress=Quiet())
    wall, used = time.perf_counter() - t, meter.seconds
    conf = o.confirmation
    verdict = "improvement" if o.significant else ("worse" if conf and conf.clearly_worse else "no significant change")
    gone = [s.into for s in swaps]
    out = [s.out for s in o.changes]
    removed = all(out.count(card) >= gone.count(card) for card in set(gone)) if gone else None
    print(f"budget {budget:,} seed {seed}, {w} worker(s): {wall / 60:.1f} min wall ({wall:.0f} s), "
          f"{used / 60:.1f} CPU-min ({used:.0f} CPU-s), load {before} -> {load()}", flush=True)
    cheap = f"; {o.plan.cheap} {o.cheap_spent:,} {dict(o.cheap_stages)}" if o.plan.two_players else " (it screened too)"
    print(f"  games: {policy} {o.spent:,} {dict(o.stages)}{cheap}")
    a = o.agreement
    if a is not None:
        what = f"{o.plan.cheap} vs {policy}" if o.plan.two_players else "screen values vs short-list gains (judge)"
        print(f"  rank correlation {what}: {a.rho:.2f} ({a.low:.2f} to {a.high:.2f}, "
              f"{a.candidates} swaps; judge reliability {a.reliability:.2f}, corrected {a.corrected:.2f}); "
              f"the race took {o.keep} of {len(o.shortlist)}")
    print(f"  {verdict}: {V.label(o.changes)}; gain {ci(conf) if conf else '—'} points (corrected, m={o.tried}); "
          f"every planted card out: {removed}", flush=True)
    if args.check and o.proposal is not None:
        g = compare(store, f"check-{budget}-{seed}-w{w}", o.proposal, asked, field, shares, 2 * args.check,
                    policy, seed + 5000, workers=w)
        print(f"  fresh check against the deck asked about: {ci(g)} points", flush=True)
    if args.check_planted and o.proposal is not None and removed is False:
        # is a planted card the proposal kept still a drag there? the proposal with one copy swapped
        # back for the card the plant took out, paired with the proposal on fresh seeds
        for k, s in enumerate(p for p in swaps if p.into in o.proposal.cards):
            back = V.apply(o.proposal, [V.Swap(s.into, s.out)])
            g = compare(store, f"planted-{budget}-{seed}-w{w}-{k}", back, o.proposal, field, shares,
                        2 * args.check_planted, policy, seed + 7000 + k, workers=w)
            print(f"  the plant undone in the proposal, {V.label([V.Swap(s.into, s.out)])}: {ci(g)} points "
                  f"on {g.games:,} pairs of games (95%)", flush=True)
    return {"answer": (o.changes, conf.to_json() if conf else None), "removed": removed,
            "significant": o.significant, "wall": wall, "budget": budget, "seed": seed, "workers": w}

if __name__ == "__main__":
    main()
