"""``--precision P``: play, batch by batch, the pairs whose uncertainty still changes an answer.

The answers the matrix must pin down are each list's win rate against the declared field,
``E_i = Σ_j s_j A_ij``, and against the Nash mix x of the matrix so far, ``N_i = Σ_j x_j A_ij``
(the best response, the tiers, the Nash mix and the match and tournament odds follow from
them). From the posterior's variance (pairs independent), each has a 95% half-width
``1.96 · sqrt(Σ_j c_j² Var A_ij)``; it is *open* while that exceeds P.

Each round first brings every pair to ``MIN_GAMES``; then it hands out blocks of games one at
a time to the pair that most lowers the variance of the open answers (a pair between two lists
that no open answer weighs, e.g. two lists nobody plays and the Nash mix leaves out, gets none),
until the round's games are spent or every answer would be within ±P. A round is half the
games stored so far (at least ``MIN_ROUND``), so the rounds grow as the answers sharpen.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mythos_cli.experiment.matrix import BLOCK, Matrix
from mythos_cli.meta.game import nash
from mythos_cli.meta.posterior import moments

MIN_GAMES = 40  # every pair, before any answer is judged
MIN_ROUND = 20 * BLOCK
Z95 = 1.959963984540054


@dataclass
class PrecisionTarget:
    shares: list[float]
    precision: float
    min_games: int = MIN_GAMES

    def open_answers(self, m: Matrix) -> dict:
        """The half-widths of the answers, and which are still wider than the precision."""
        mean, var = moments(m)
        x = nash(mean)[0]
        s = np.asarray(self.shares, dtype=float)
        half_e = Z95 * np.sqrt(var @ (s * s))
        half_n = Z95 * np.sqrt(var @ (x * x))
        return {"field": half_e, "nash": half_n, "mix": x, "var": var}

    def wanted(self, m: Matrix, room: int | None) -> dict[tuple[int, int], int]:
        g = m.games()
        short = {(i, j): self.min_games - int(g[i, j]) for i, j in m.pairs() if g[i, j] < self.min_games}
        if short:
            return short
        a = self.open_answers(m)
        limit = (self.precision / Z95) ** 2
        s = np.asarray(self.shares, dtype=float)
        x = a["mix"]
        var = a["var"].copy()
        var_e, var_n = var @ (s * s), var @ (x * x)
        if not ((var_e > limit).any() or (var_n > limit).any()):
            return {}
        total = m.total_games()
        games = max(MIN_ROUND, total // 2)
        if room is not None:  # (at least a block: the matrix says when the budget cannot pay for it)
            games = max(BLOCK, min(games, room))
        n = g.astype(float)
        extra = np.zeros_like(n)
        upper = np.triu(np.ones_like(n, dtype=bool), 1)
        s2, x2 = s * s, x * x
        for _ in range(games // BLOCK):
            oe, on = var_e > limit, var_n > limit
            if not (oe.any() or on.any()):
                break
            # the variance a block takes off each pair: Var ∝ 1 / (n + 1) under the Jeffreys prior
            cut = var * (1 - (n + extra + 1) / (n + extra + 1 + BLOCK))
            weight = (oe[:, None] * s2[None, :] + oe[None, :] * s2[:, None]
                      + on[:, None] * x2[None, :] + on[None, :] * x2[:, None])
            score = np.where(upper, cut * weight, 0.0)
            i, j = np.unravel_index(int(score.argmax()), score.shape)
            if score[i, j] <= 0:
                break
            extra[i, j] += BLOCK
            var_e[i] -= s2[j] * cut[i, j]
            var_e[j] -= s2[i] * cut[i, j]
            var_n[i] -= x2[j] * cut[i, j]
            var_n[j] -= x2[i] * cut[i, j]
            var[i, j] -= cut[i, j]
            var[j, i] = var[i, j]
        return {(int(i), int(j)): int(extra[i, j]) for i, j in zip(*np.nonzero(extra))}


def reached(target: PrecisionTarget, m: Matrix) -> dict:
    """What the precision rule says of a matrix: the widest answers, and whether all are within."""
    a = target.open_answers(m)
    worst_e, worst_n = float(a["field"].max()), float(a["nash"].max())
    return {"precision": target.precision, "widest_field_half_width": worst_e, "widest_nash_half_width": worst_n,
            "reached": bool(worst_e <= target.precision and worst_n <= target.precision)}


__all__ = ["MIN_GAMES", "PrecisionTarget", "reached"]
