"""The endgame audit (issue 17): how well a player finishes the last round once the opponent passed.

Real games on every ordered pair of the six sample decks, the audited player in both seats against
an opponent (lookahead by default). The first time the audited player decides in round 4 after
the opponent passed, the true position is kept; it is solved exactly afterwards (every decision of
the player, the opponent's remaining choices inside effects answered adversarially, within a budget
of positions), and the player's real result is compared with the best within reach:

- best line found: the game ended at least as well as the exact solution (a win above a loss,
  then the margin);
- points short: the best margin minus the margin reached, when it is short (mean over every case,
  and over the cases short of it);
- thrown win: a win was within reach and the player lost. The exact solution sees the true state;
  each thrown game is checked again on 16 deals of what the player could not see (its own deck's
  order, the opponent's hand and hidden cards): a win on every deal was a win the player could
  have been sure of; a win missing on some deal needed cards it could not see.

    python benchmarks/endgame_audit.py --players search lookahead --reps 10

Each share is given with its 95% interval and the number of endgames it is over.
"""

from __future__ import annotations

import argparse
import math
import os
import time
from concurrent.futures import ThreadPoolExecutor

from search_common import fmt, load, plan, sample_decks

from mythos_cli import _core

# deals of the unseen cards a thrown game is checked on (players/audit.rs)
DEALS = 16


def audit(decks, spec: str, opponent: str, reps: int, seed: int, budget: int, threads: int):
    games = plan(len(decks), reps, seed)
    tasks = []
    for (i, j, seat, _r, s) in games:
        if seat == 0:
            tasks.append((i, j, s, spec, opponent, 0))
        else:
            tasks.append((j, i, s, opponent, spec, 1))
    chunks = [tasks[k:k + 8] for k in range(0, len(tasks), 8)]
    t0 = time.perf_counter()
    with ThreadPoolExecutor(threads) as pool:
        parts = list(pool.map(lambda c: _core.audit_endgames(decks, c, budget), chunks))
    rows = [r for part in parts for r in part]
    return len(tasks), rows, time.perf_counter() - t0


def summary(spec: str, opponent: str, n_games: int, rows, dt: float) -> str:
    solved = [r for r in rows if r[2] is not None]
    found = thrown = winnable = sure = 0
    for (_seed, _seat, best, best_win, reached, won, _nodes, dealt_wins) in solved:
        if (won, reached) >= (best_win, best):
            found += 1
        if best_win:
            winnable += 1
            if not won:
                thrown += 1
                sure += dealt_wins == DEALS
    n = len(solved)
    # points short of the best margin (0 where the player reached it or did better)
    shorts = [max(0, r[2] - r[4]) for r in solved]
    mean_short = sum(shorts) / n if n else 0.0
    sd = math.sqrt(sum((x - mean_short) ** 2 for x in shorts) / max(1, n - 1)) if n else 0.0
    short_ones = [x for x in shorts if x > 0]
    mean_when_short = sum(short_ones) / len(short_ones) if short_ones else 0.0
    lines = [
        f"{spec} (against {opponent}): {n_games} games, {len(rows)} with a round-4 endgame after the opponent "
        f"passed, {n} solved exactly ({len(rows) - n} over the audit's budget); {dt:.0f} s",
        f"  best line found:   {fmt(found, n)}",
        f"  short of it:       {fmt(n - found, n)}",
        f"  points short:      {mean_short:.2f} ± {1.96 * sd / math.sqrt(max(1, n)):.2f} on average over every case, "
        f"{mean_when_short:.1f} over the {len(short_ones)} cases short of the best margin",
        f"  thrown won games:  {fmt(thrown, n)} of the endgames ({thrown} of {winnable} with a win within reach); "
        f"{sure} of them a win on every one of {DEALS} deals of what the player could not see, "
        f"{thrown - sure} a win that needed cards it could not see",
    ]
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", nargs="+", default=["search", "lookahead"], help="the players audited")
    ap.add_argument("--opponent", default="lookahead", help="who they play against")
    ap.add_argument("--reps", type=int, default=10, help="games per ordered deck pair and seat")
    ap.add_argument("--seed", type=int, default=17)
    ap.add_argument("--budget", type=int, default=500_000, help="positions the exact solution may take")
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args()
    _names, decks = sample_decks()
    print(f"endgame audit: 6 sample decks, every ordered pair, both seats, {args.reps} games each; {load()}")
    for spec in args.players:
        n, rows, dt = audit(decks, spec, args.opponent, args.reps, args.seed, args.budget, args.threads)
        print(summary(spec, args.opponent, n, rows, dt))


if __name__ == "__main__":
    main()
