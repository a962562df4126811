"""The matrix as posterior draws: a Beta posterior per pair and seat.

For lists i and j, ``F[i, j]`` is the chance that i wins when i has the first Edge (it moves
first and wins ties), given Jeffreys' prior Beta(½, ½) and the stored games: Beta(w + ½, l + ½).
The Edge of game 1 is a coin toss, so the game win rate is ``A[i, j] = (F[i, j] + 1 − F[j, i]) / 2``.
A list against itself is ½ in every draw (the mirror needs no game); so is its every seat rate,
since a mirror match is won half the time whatever the seats.

The point figures are the plug-in ones, on the observed seat rates (a seat without games takes
the pair's overall rate, a pair without games ½, and is flagged): what anyone recomputes from
the stored games. The intervals and frequencies come from the draws.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mythos_cli.experiment.matrix import Matrix
from mythos_cli.stats import JEFFREYS, beta_draws, beta_moments

DRAWS = 1000  # the least the answers are drawn from
DESCRIPTION = ("a Beta(wins + ½, losses + ½) posterior (Jeffreys' prior) for each pair and seat (who had the "
               "first Edge)")


@dataclass
class Posterior:
    first: np.ndarray  # (D, n, n): P(row wins | row has the first Edge)
    seed: int

    @property
    def draws(self) -> int:
        return self.first.shape[0]

    @property
    def games(self) -> np.ndarray:
        """(D, n, n): the game win rate of the row list (the first Edge a coin toss)."""
        return game_rates(self.first)


def game_rates(first: np.ndarray) -> np.ndarray:
    """Game win rates from seat rates (the last two axes are the matrix)."""
    return (first + 1 - np.swapaxes(first, -1, -2)) / 2


def draw(m: Matrix, draws: int, seed: int) -> Posterior:
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(0x706F7374,)))  # "post"
    f = beta_draws(m.first_wins, m.first_games, draws, rng, JEFFREYS)
    n = m.size
    f[:, np.arange(n), np.arange(n)] = 0.5
    return Posterior(f, seed)


def point(m: Matrix) -> np.ndarray:
    """The plug-in seat rates ``F`` (n, n) from the observed games."""
    g, w = m.games(), m.wins()
    with np.errstate(invalid="ignore", divide="ignore"):
        overall = np.where(g > 0, w / np.maximum(g, 1), 0.5)
        f = np.where(m.first_games > 0, m.first_wins / np.maximum(m.first_games, 1), overall)
    np.fill_diagonal(f, 0.5)
    return f


def moments(m: Matrix) -> tuple[np.ndarray, np.ndarray]:
    """The posterior mean and variance of each game win rate ``A[i, j]`` (the seats independent)."""
    mean_f, var_f = beta_moments(m.first_wins, m.first_games, JEFFREYS)
    n = m.size
    mean_f[np.arange(n), np.arange(n)] = 0.5
    var_f[np.arange(n), np.arange(n)] = 0.0
    return game_rates(mean_f), (var_f + var_f.T) / 4


__all__ = ["DESCRIPTION", "DRAWS", "Posterior", "draw", "game_rates", "moments", "point"]
