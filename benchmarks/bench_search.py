"""The search player's strength and convergence (issue 17), on the six sample decks and on random
legal decks drawn from the whole catalog.

    python benchmarks/bench_search.py lookahead --reps 20     # default search vs lookahead
    python benchmarks/bench_search.py budget --reps 10        # default vs 4x its budget
    python benchmarks/bench_search.py reference --reps 3      # default vs the reference, search:strong
    python benchmarks/bench_search.py matrix --reps 100 --reps4 20
    python benchmarks/bench_search.py matrix --reps 100 --reps4 5 --stronger reference   # against search:strong
    python benchmarks/bench_search.py all
    python benchmarks/bench_search.py lookahead --decks random --random-decks 6 --deck-seed 3
    python benchmarks/bench_search.py budget --spec search:playouts=3 --reps 20   # any setting against 4x its budget
    python benchmarks/bench_search.py versus --spec search:playouts=3 --opponent search:playouts=4 --reps 20

Every game is played inside the core (``_core.play_search_games``, the GIL released, one thread
per core). ``lookahead``, ``budget``, ``reference`` (the default against ``search:strong``) and
``versus`` (against ``--opponent``) play every ordered deck pair with A in both seats, ``reps``
games each; ``matrix`` plays the 6x6 matchups of a deck set in self-play (each unordered pair in
both seats, ``reps`` games a seat) at the default budget and at 4x (``--reps4`` games a seat),
and prints both matrices, their cell-by-cell difference, the deck ranking under each, the first
Edge holder's win rate, and how often the search keeps its hand, per deck. Each figure carries
its 95% interval (normal approximation) and its game count. ``--spec`` measures another setting
than the default (its 4x: its playouts, endgame positions and mulligan playouts each times 4).
Every figure is printed once per deck set (``--decks both``, the default: the six sample decks,
then ``--random-decks`` random legal decks drawn from ``--deck-seed``,
``search_common.random_decks``).
"""

from __future__ import annotations

import argparse
import math
import os

from search_common import a_wins, add_deck_options, deck_sets, fmt, interval, load, play, plan

DEFAULT = "search"
# 4x the default budget: playouts per candidate, endgame positions and mulligan playouts
FOUR_X = "search:playouts=8,solve=1200,mulligan=32"
OPPONENT = "lookahead"
# the reference setting: the strongest the engine plays in about a second a game (spec.rs, PRESETS)
REFERENCE = "search:strong"


def four_x(spec: str) -> str:
    """4x the budget of a search spec: its playouts, endgame positions and mulligan playouts each
    times 4 (the default's 4x is FOUR_X)."""
    if spec == DEFAULT:
        return FOUR_X
    from mythos_cli.policies import make_policy

    full = make_policy(spec).spec  # every parameter written back
    name, _, rest = full.partition(":")
    parts = []
    for kv in rest.split(","):
        k, _, v = kv.partition("=")
        parts.append(f"{k}={int(v) * 4}" if k in ("playouts", "solve", "mulligan") else kv)
    return f"{name}:{','.join(parts)}"


def head_to_head(decks, a: str, b: str, reps: int, seed: int, threads: int) -> None:
    games = plan(len(decks), reps, seed)
    rows, dt = play(decks, games, a, b, threads)
    wins = a_wins(games, rows)
    n = len(decks)
    print(f"{a} vs {b}: {fmt(sum(wins), len(wins))}, {n * n} ordered deck pairs x 2 seats x {reps}; "
          f"{len(wins) / dt:.1f} games/s on {threads} threads ({load()})")


def matrix(decks, spec: str, reps: int, seed: int, threads: int):
    """Self-play matchups: per unordered pair (i, j), deck i in seat 0 and in seat 1, `reps` each.
    Returns wins[i][j] (games deck i won against j), games[i][j], the rows and the wall time."""
    n = len(decks)
    games = []
    for r in range(reps):
        for i in range(n):
            for j in range(i + 1, n):
                for seat in (0, 1):
                    games.append((i, j, seat, r, seed * 1_000_000 + ((i * n + j) * 2 + seat) * 1_000 + r))
    rows, dt = play(decks, games, spec, spec, threads)
    wins = [[0] * n for _ in range(n)]
    count = [[0] * n for _ in range(n)]
    for (i, j, seat, _r, _s), row in zip(games, rows):
        i_won = row[0] == seat
        wins[i][j] += i_won
        wins[j][i] += not i_won
        count[i][j] += 1
        count[j][i] += 1
    return wins, count, games, rows, dt


def print_matrix(names, wins, count, title: str) -> list[float]:
    n = len(names)
    short = [nm.split(":")[0][:12] for nm in names]
    print(title)
    print(" " * 14 + "".join(f"{s:>13}" for s in short))
    for i in range(n):
        cells = []
        for j in range(n):
            cells.append(f"{'—':>13}" if i == j else f"{100 * wins[i][j] / count[i][j]:12.1f}%")
        print(f"{short[i]:14}" + "".join(cells))
    h = 196 * math.sqrt(0.25 / count[0][1])
    print(f"  ({count[0][1]} games a cell, both seats; a cell's 95% interval is at most ±{h:.1f})")
    return [sum(wins[i][j] for j in range(n) if j != i) / sum(count[i][j] for j in range(n) if j != i)
            for i in range(n)]


def edge_and_mulligans(names, games, rows, label: str) -> None:
    first = sum(1 for row in rows if row[0] == row[3])
    print(f"  first Edge holder wins ({label}): {fmt(first, len(rows))}")
    keeps = {}
    for (i, j, seat, _r, _s), row in zip(games, rows):
        deck0, deck1 = (i, j) if seat == 0 else (j, i)
        for deck, mull in ((deck0, row[4]), (deck1, row[5])):
            k = keeps.setdefault(deck, [0, 0])
            k[0] += not mull
            k[1] += 1
    print(f"  the search keeps its opening hand ({label}), per deck:")
    for d in sorted(keeps):
        print(f"    {names[d]:34} {fmt(*keeps[d])}")


def run_matrix(names, decks, reps: int, reps4: int, seed: int, threads: int, stronger: str = FOUR_X,
               spec: str = DEFAULT) -> None:
    w1, c1, g1, r1, dt1 = matrix(decks, spec, reps, seed, threads)
    rate1 = print_matrix(names, w1, c1, f"\n{spec}: row deck's win rate against the column deck "
                         f"({len(r1)} games, {len(r1) / dt1:.1f} games/s on {threads} threads)")
    edge_and_mulligans(names, g1, r1, spec)
    if reps4 <= 0:
        return
    w4, c4, g4, r4, dt4 = matrix(decks, stronger, reps4, seed, threads)
    rate4 = print_matrix(names, w4, c4, f"\n{stronger}: row deck's win rate against the column deck "
                         f"({len(r4)} games, {len(r4) / dt4:.1f} games/s on {threads} threads)")
    edge_and_mulligans(names, g4, r4, stronger)
    n = len(names)
    print(f"\ncell by cell, the stronger player minus {spec} (points; the 95% interval of the difference in brackets):")
    worst = 0.0
    outside = 0
    for i in range(n):
        for j in range(i + 1, n):
            p1, p4 = w1[i][j] / c1[i][j], w4[i][j] / c4[i][j]
            h = 196 * math.sqrt(p1 * (1 - p1) / c1[i][j] + p4 * (1 - p4) / c4[i][j])
            d = 100 * (p4 - p1)
            worst = max(worst, abs(d))
            outside += abs(d) > 4
            print(f"  {names[i][:26]:26} vs {names[j][:26]:26} {100 * p1:5.1f}% -> {100 * p4:5.1f}%  "
                  f"{d:+5.1f} [±{h:.1f}]")
    print(f"  largest difference {worst:.1f} points; {outside} of {n * (n - 1) // 2} cells differ by more than 4")
    order1 = sorted(range(n), key=lambda i: -rate1[i])
    order4 = sorted(range(n), key=lambda i: -rate4[i])
    for label, order, rate, count in ((spec, order1, rate1, len(r1)), (stronger, order4, rate4, len(r4))):
        per = count * 2 // n  # games each deck played
        print(f"deck ranking, {label}: " + ", ".join(
            f"{names[i].split(':')[0]} {100 * rate[i]:.1f}% ±{interval(int(rate[i] * per), per)[1]:.1f}" for i in order))
    print("same deck ranking" if order1 == order4 else "the deck ranking differs")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("what", choices=("lookahead", "budget", "reference", "versus", "matrix", "all"))
    ap.add_argument("--spec", default=DEFAULT, help="the setting measured (default: the default player, search)")
    ap.add_argument("--opponent", default=OPPONENT, help="versus: the other player (default lookahead)")
    ap.add_argument("--reps", type=int, default=10, help="games per deck pair and seat")
    ap.add_argument("--reps4", type=int, default=10, help="the same with the stronger player (matrix)")
    ap.add_argument("--stronger", choices=("4x", "reference"), default="4x",
                    help="the matrix's stronger player: 4x the default's budget, or the reference search:strong "
                         "(how far a verdict could still move; about a second a game)")
    ap.add_argument("--seed", type=int, default=17)
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    add_deck_options(ap)
    args = ap.parse_args()
    spec, spec4 = args.spec, four_x(args.spec)
    print(f"{load()}; measured {spec}, 4x {spec4}")
    for label, names, decks in deck_sets(args.decks, args.random_decks, args.deck_seed):
        print(f"\n== {label}: {', '.join(names)}")
        if args.what in ("lookahead", "all"):
            head_to_head(decks, spec, OPPONENT, args.reps, args.seed, args.threads)
        if args.what in ("budget", "all"):
            head_to_head(decks, spec, spec4, args.reps, args.seed, args.threads)
        if args.what in ("reference", "all"):
            head_to_head(decks, spec, REFERENCE, args.reps, args.seed, args.threads)
        if args.what == "versus":
            head_to_head(decks, spec, args.opponent, args.reps, args.seed, args.threads)
        if args.what in ("matrix", "all"):
            run_matrix(names, decks, args.reps, args.reps4, args.seed, args.threads,
                       spec4 if args.stronger == "4x" else REFERENCE, spec)
    print(f"\n{load()} after")


if __name__ == "__main__":
    main()
