"""Which cheap player judges swaps most like the default player, per unit of time (issue 27).

    python benchmarks/bench_screen_players.py --judge-games 25 --workers 2
    python benchmarks/bench_screen_players.py --cheap "greedy=300,lookahead=10" --swaps 24

A set of single swaps of one deck (half drawn at random from every legal swap, half
"plausible": a card of the deck's group at about the same cost) is judged by the default
player: each swap and the deck itself play the same seeds against the 6 sample decks
(common random numbers), ``--judge-games`` games per field deck and seat. Each cheap
player judges the same swaps on other seeds with its own number of games. The script prints,
per cheap player, its CPU-seconds (this process and its workers: ``cpu_meter``), the Spearman rank correlation of its
gains with the default player's, and the default player's own split-half agreement (its
noise ceiling: two halves of its games, corrected to the whole by Spearman–Brown).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np
from scipy.stats import spearmanr

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from cpu_meter import CpuMeter  # noqa: E402
from mythos_cli.catalog import default_catalog  # noqa: E402
from mythos_cli.decks import sample_paths  # noqa: E402
from mythos_cli.experiment.arms import pair, play_arms  # noqa: E402
from mythos_cli.experiment.field import build_field  # noqa: E402
from mythos_cli.experiment.stats import Pairs, gain  # noqa: E402
from mythos_cli.optimize import build_pool  # noqa: E402
from mythos_cli.optimize import variants as V  # noqa: E402
from mythos_cli.sim import DEFAULT_POLICY, load_specs  # noqa: E402
from mythos_cli.sim.plan import DeckSpec  # noqa: E402
from mythos_cli.store import open_store  # noqa: E402


def pick_swaps(deck: DeckSpec, n: int, seed: int) -> list[V.Swap]:
    cat = default_catalog().by_id
    pool = build_pool(None)
    singles = V.single_swaps(deck, deck, pool, False)
    groups = {cat[c].group for c in deck.cards}
    plausible = [s for s in singles if cat[s.into].group in groups and abs((cat[s.into].cost or 0) - (cat[s.out].cost or 0)) <= 1]
    rng = np.random.default_rng(seed)
    a = [plausible[i] for i in rng.choice(len(plausible), size=n // 2, replace=False)]
    rest = [s for s in singles if s not in a]
    b = [rest[i] for i in rng.choice(len(rest), size=n - n // 2, replace=False)]
    return sorted(a + b)


def judge(store, run_id, deck, swaps, field, shares, policy, games, seed, workers):
    arms = [DeckSpec("opt:base", deck.cards, deck.missions)] + [V.apply(deck, [s], "opt:" + s.label) for s in swaps]
    with CpuMeter() as meter:
        res = play_arms(store, run_id, run_id, arms, field, 2 * games, policy, seed, [0] * len(arms),
                        batch_size=max(10, min(50, 2 * games * len(field) * len(arms) // (4 * workers))),
                        workers=workers)
    dt = meter.seconds
    gains, halves = [], ([], [])
    for s in swaps:
        p = pair(res, "opt:" + s.label, "opt:base")
        gains.append(gain(p, shares).gain)
        # split half by seed parity, for the judge's noise ceiling
        for h in (0, 1):
            ph: dict[str, Pairs] = {}
            ref = {(o, seat, sd): w for o, seat, sd, w in res["opt:base"]}
            for o, seat, sd, w in res["opt:" + s.label]:
                if sd % 2 == h:
                    ph.setdefault(o, Pairs()).add(w, ref[(o, seat, sd)])
            halves[h].append(gain(ph, shares).gain)
    return np.array(gains), dt, halves


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deck", default="leaf-team7")
    ap.add_argument("--swaps", type=int, default=32)
    ap.add_argument("--judge", default=DEFAULT_POLICY)
    ap.add_argument("--judge-games", type=int, default=25, help="games per field deck and seat, per swap")
    ap.add_argument("--cheap", default="greedy=300,greedy=50,tempo=300,ambush=300,control=300,lookahead=8",
                    help="PLAYER=GAMES per field deck and seat, per swap")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=11)
    args = ap.parse_args()
    path = next(p for p in sample_paths() if p.stem == args.deck)
    deck = load_specs([str(path)])[0]
    field, share_list = build_field(None)
    shares = {f.name: s for f, s in zip(field, share_list)}
    swaps = pick_swaps(deck, args.swaps, args.seed)
    print(f"deck {deck.name}; {len(swaps)} single swaps; field: the 6 sample decks; {args.workers} workers")
    with tempfile.TemporaryDirectory() as tmp, open_store(Path(tmp) / "b.duckdb") as store:
        truth, dt, halves = judge(store, "judge", deck, swaps, field, shares, args.judge, args.judge_games, args.seed,
                                  args.workers)
        half = spearmanr(halves[0], halves[1]).statistic
        ceiling = 2 * half / (1 + half) if half > -1 else float("nan")
        n = len(swaps) + 1
        print(f"judge {args.judge}: {n * 2 * args.judge_games * len(field):,} games, {dt:.0f} CPU-s; gains from {100 * truth.min():+.1f} to {100 * truth.max():+.1f} points; "
              f"split-half rank agreement {half:.2f} (whole, Spearman-Brown: {ceiling:.2f})")
        print(f"{'cheap player':<16} {'games/swap':>10} {'CPU-s':>7} {'x judge':>8} {'Spearman':>9} {'top-8 overlap':>14}")
        top = set(np.argsort(-truth)[:8])
        for k, item in enumerate(args.cheap.split(",")):
            player, games = item.split("=")
            g, dt_c, _ = judge(store, f"cheap{k}", deck, swaps, field, shares, player, int(games), args.seed + 1 + k,
                               args.workers)
            rho = spearmanr(g, truth).statistic
            overlap = len(top & set(np.argsort(-g)[:8]))
            print(f"{player:<16} {2 * int(games) * len(field):>10} {dt_c:>7.0f} "
                  f"{dt_c / dt:>8.2f} {rho:>9.2f} {overlap:>11}/8", flush=True)


if __name__ == "__main__":
    main()
