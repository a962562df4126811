"""Match odds: best of 1, 3 or 5, from the game win rates by who goes first.

Who goes first in a game is who holds the Edge at its start. In game 1 it is random (the rules:
"randomly determine the first player … that player receives the Edge token"). The rules say
nothing of the later games of a match, so ``next_first`` chooses:

* ``loser`` (the default: the custom of most card-game tournaments, the loser chooses and goes first);
* ``winner`` (the winner of the last game goes first);
* ``alternate`` (who went second goes first);
* ``random`` (a coin toss every game).

``first`` is P(A wins | A goes first), ``second`` P(A wins | B goes first); both may be arrays
(posterior draws), and every operation is element-wise. When the seat does not matter
(first = second = p), a best of 3 is won with p²(3 − 2p) whatever the rule.
"""

from __future__ import annotations

import numpy as np

NEXT_FIRST = ("loser", "winner", "alternate", "random")
DEFAULT_NEXT_FIRST = "loser"
BEST_OF = (1, 3, 5)


def match_win(first, second, best_of: int = 3, next_first: str = DEFAULT_NEXT_FIRST) -> np.ndarray:
    """The chance that A wins a best-of-``best_of`` match (the first to ⌈best_of/2⌉ game wins)."""
    if next_first not in NEXT_FIRST:
        raise ValueError(f"next_first must be one of {', '.join(NEXT_FIRST)}, not {next_first!r}")
    if best_of < 1 or best_of % 2 == 0:
        raise ValueError(f"a match is a best of an odd number of games, not {best_of}")
    pf, ps = np.broadcast_arrays(np.asarray(first, dtype=float), np.asarray(second, dtype=float))
    need = best_of // 2 + 1
    # state[(a, b)] = (P(score a–b and A goes first next), P(score a–b and B goes first next))
    state = {(0, 0): (np.full(pf.shape, 0.5), np.full(pf.shape, 0.5))}
    won = np.zeros(pf.shape)
    for _ in range(best_of):
        nxt: dict[tuple[int, int], list[np.ndarray]] = {}

        def add(key, a_first, b_first):
            cur = nxt.setdefault(key, [np.zeros(pf.shape), np.zeros(pf.shape)])
            cur[0] += a_first
            cur[1] += b_first

        for (a, b), (fa, fb) in state.items():
            a_wins = fa * pf + fb * ps  # A wins this game
            b_wins = fa * (1 - pf) + fb * (1 - ps)
            if next_first == "loser":
                split_a, split_b = (0.0 * a_wins, a_wins), (b_wins, 0.0 * b_wins)
            elif next_first == "winner":
                split_a, split_b = (a_wins, 0.0 * a_wins), (0.0 * b_wins, b_wins)
            elif next_first == "alternate":  # who went second goes first: from fa, B next; from fb, A next
                split_a = (fb * ps, fa * pf)
                split_b = (fb * (1 - ps), fa * (1 - pf))
            else:
                split_a, split_b = (a_wins / 2, a_wins / 2), (b_wins / 2, b_wins / 2)
            if a + 1 == need:
                won += a_wins
            else:
                add((a + 1, b), *split_a)
            if b + 1 < need:
                add((a, b + 1), *split_b)
        state = {k: (v[0], v[1]) for k, v in nxt.items()}
        if not state:
            break
    return won


__all__ = ["BEST_OF", "DEFAULT_NEXT_FIRST", "NEXT_FIRST", "match_win"]
