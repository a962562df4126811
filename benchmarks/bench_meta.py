"""`mythos meta`'s two costs: playing a field's matrix, and answering from it.

    python benchmarks/bench_meta.py --workers 2                 # both parts
    python benchmarks/bench_meta.py --analysis-only             # the 20-list analysis alone

1. **The matrix**: a nine-list field (the six sample decks and three variants of them, each two
   copies of one card swapped for two of a card from another sample deck) at the default player,
   ``--precision 0.03`` (budget 20,000 games), on ``--workers`` cores, into a fresh database:
   wall time, games played, games/s, and what stopped it.
2. **The analysis alone** on a 20-list matrix (400 games a pair, rates drawn at random): 1,000
   posterior draws, the Nash mix on each, match odds, a 64-player Swiss of 6 rounds (10,000
   tournaments, and as many again for one "my" list), the drift: wall time of each part.

The load average is printed with each timing: on a shared machine wall time is a low bound.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

from mythos_cli.decks import sample_paths  # noqa: E402
from mythos_cli.experiment.field import Field  # noqa: E402
from mythos_cli.experiment.matrix import from_counts  # noqa: E402
from mythos_cli.meta import Settings, analyse  # noqa: E402
from mythos_cli.meta import drift, game, match, posterior, swiss  # noqa: E402
from mythos_cli.meta.run import run_meta  # noqa: E402
from mythos_cli.sim import DEFAULT_POLICY, load_specs  # noqa: E402
from mythos_cli.sim.plan import DeckSpec  # noqa: E402
from mythos_cli.store import open_store  # noqa: E402


def load() -> str:
    return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


def variants(decks: list[DeckSpec], k: int = 3) -> list[DeckSpec]:
    """Legal variants: two copies of a card of deck i out, two copies of a card of deck i+1 in."""
    out = []
    for i in range(k):
        base, donor = decks[i], decks[(i + 1) % len(decks)]
        twice = next(c for c in dict.fromkeys(base.cards) if base.cards.count(c) == 2)
        new = next(c for c in dict.fromkeys(donor.cards) if c not in base.cards and donor.cards.count(c) == 2)
        cards = [c for c in base.cards if c != twice] + [new, new]
        out.append(DeckSpec(f"{base.name} ({twice}→{new})", tuple(cards), base.missions))
    return out


def matrix_part(workers: int, precision: float, budget: int, policy: str) -> None:
    decks = load_specs([str(p) for p in sample_paths()])
    field = decks + variants(decks)
    shares = [1 / len(field)] * len(field)
    f = Field(field, shares, "bench", None, [None] * len(field))
    with tempfile.TemporaryDirectory() as tmp, open_store(Path(tmp) / "bench.duckdb") as store:
        print(f"matrix: {len(field)} lists, {policy}, --precision {precision}, budget {budget:,}, {workers} workers; "
              f"{load()}", flush=True)
        t0 = time.perf_counter()
        o = run_meta(store, f, policy, 1, "bench", precision=precision, budget=budget, workers=workers)
        wall = time.perf_counter() - t0
        m = o.matrix.matrix
        g = m.games()
        per = [int(g[i, j]) for i, j in m.pairs()]
        print(f"  {wall:.0f} s wall for {o.matrix.played:,} games ({o.matrix.played / wall:.1f} games/s) in "
              f"{len(o.matrix.rounds)} rounds; stopped: {o.matrix.stopped}; {min(per)}–{max(per)} games a pair; "
              f"widest half-widths {100 * o.precision_check['widest_field_half_width']:.1f} (field) and "
              f"{100 * o.precision_check['widest_nash_half_width']:.1f} (Nash) points; {load()}", flush=True)
        a = o.answers
        print(f"  best response {a['best_response']['list']} ({100 * a['best_response']['chance']:.0f}%), "
              f"tier 1: {', '.join(a['tiers']['1'])}; Nash: "
              + ", ".join(f"{k} {100 * v:.0f}%" for k, v in a["nash"]["mix"].items()), flush=True)


def analysis_part(lists: int, draws: int, tournaments: int) -> None:
    rng = np.random.default_rng(1)
    rates = rng.uniform(0.3, 0.7, (lists, lists))
    fg = np.full((lists, lists), 200)
    np.fill_diagonal(fg, 0)
    fw = rng.binomial(fg, (rates + 1 - rates.T) / 2)
    np.fill_diagonal(fw, 0)
    m = from_counts([DeckSpec(f"L{i}", (f"KS-{i:03d}",), ()) for i in range(lists)], fg, fw)
    shares = rng.dirichlet(np.ones(lists))
    print(f"analysis: {lists} lists, {draws:,} draws, {tournaments:,} tournaments of 64 players, 6 rounds; {load()}")
    t = time.perf_counter()
    post = posterior.draw(m, draws, 1)
    A = post.games
    t_post = time.perf_counter() - t
    t = time.perf_counter()
    game.nash_draws(A)
    t_nash = time.perf_counter() - t
    t = time.perf_counter()
    bo3 = match.match_win(post.first, 1 - np.swapaxes(post.first, 1, 2), 3)
    t_match = time.perf_counter() - t
    t = time.perf_counter()
    st = swiss.play(bo3[:swiss.draws_for(tournaments, draws)], shares, 64, 6, 8, tournaments,
                    np.random.default_rng(2))
    swiss.summary(st, lists, 6)
    t_swiss = time.perf_counter() - t
    t = time.perf_counter()
    drift.cycles(drift.replicator(A, shares, 50))
    t_drift = time.perf_counter() - t
    t = time.perf_counter()
    analyse(m, shares, Settings(draws=draws, tournaments=tournaments, deck=0))
    t_all = time.perf_counter() - t
    print(f"  posterior {t_post:.2f} s, Nash on every draw {t_nash:.2f} s, match odds {t_match:.2f} s, "
          f"Swiss {t_swiss:.2f} s, drift {t_drift:.2f} s; the whole analysis (with a Swiss for my list too) "
          f"{t_all:.1f} s; {load()}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--precision", type=float, default=0.03)
    ap.add_argument("--budget", type=int, default=20_000)
    ap.add_argument("--policy", default=DEFAULT_POLICY)
    ap.add_argument("--lists", type=int, default=20)
    ap.add_argument("--draws", type=int, default=1000)
    ap.add_argument("--tournaments", type=int, default=10_000)
    ap.add_argument("--analysis-only", action="store_true")
    args = ap.parse_args()
    analysis_part(args.lists, args.draws, args.tournaments)
    if not args.analysis_only:
        matrix_part(args.workers, args.precision, args.budget, args.policy)


if __name__ == "__main__":
    main()
