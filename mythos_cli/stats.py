"""Small statistical tools shared by several layers (simulation summaries, the ladder, reports).

Closed formulas on scipy's distributions and numpy; the tests check each one against
statsmodels' implementation (the dependency mythos dropped) on recorded values.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.stats import norm


def wilson_interval(wins: int, games: int, alpha: float = 0.05) -> tuple[float, float]:
    """Wilson's score interval of ``wins / games`` (NaN when there are no games)."""
    if games <= 0:
        return math.nan, math.nan
    z = float(norm.ppf(1 - alpha / 2))
    p = wins / games
    z2n = z * z / games
    centre = (p + z2n / 2) / (1 + z2n)
    half = z * math.sqrt(p * (1 - p) / games + z2n / (4 * games)) / (1 + z2n)
    # exactly 0 and 1 at the ends (the formula reaches them only up to rounding)
    low = 0.0 if wins == 0 else max(0.0, centre - half)
    high = 1.0 if wins == games else min(1.0, centre + half)
    return low, high


def logistic_fit(X: np.ndarray, successes: np.ndarray, trials: np.ndarray, alpha: float = 0.05,
                 max_iter: int = 100) -> tuple[np.ndarray, np.ndarray]:
    """A binomial GLM with the logit link and no intercept, fitted by iteratively reweighted
    least squares: the coefficients and their Wald ``1 − alpha`` intervals, shape (k, 2)."""
    X = np.asarray(X, dtype=float)
    y = np.asarray(successes, dtype=float) / np.asarray(trials, dtype=float)
    n = np.asarray(trials, dtype=float)
    beta = np.zeros(X.shape[1])
    for _ in range(max_iter):
        eta = X @ beta
        mu = 1.0 / (1.0 + np.exp(-eta))
        w = n * mu * (1 - mu)
        z = eta + (y - mu) / (mu * (1 - mu))
        xtw = X.T * w
        new = np.linalg.solve(xtw @ X, xtw @ z)
        if np.max(np.abs(new - beta)) < 1e-12:
            beta = new
            break
        beta = new
    mu = 1.0 / (1.0 + np.exp(-(X @ beta)))
    cov = np.linalg.inv((X.T * (n * mu * (1 - mu))) @ X)
    se = np.sqrt(np.diag(cov))
    q = float(norm.ppf(1 - alpha / 2))
    return beta, np.column_stack([beta - q * se, beta + q * se])


JEFFREYS = 0.5  # the Beta(½, ½) prior of a win rate: the reports' field intervals use it too


def beta_posterior(wins, games, prior: float = JEFFREYS) -> tuple[np.ndarray, np.ndarray]:
    """The Beta posterior of win rates (``wins`` of ``games``, arrays or numbers): its two parameters."""
    w = np.asarray(wins, dtype=float)
    n = np.asarray(games, dtype=float)
    return w + prior, n - w + prior


def beta_moments(wins, games, prior: float = JEFFREYS) -> tuple[np.ndarray, np.ndarray]:
    """The mean and variance of the Beta posterior of each win rate."""
    a, b = beta_posterior(wins, games, prior)
    mean = a / (a + b)
    return mean, a * b / ((a + b) ** 2 * (a + b + 1))


def beta_draws(wins, games, size: int, rng: np.random.Generator, prior: float = JEFFREYS) -> np.ndarray:
    """``size`` draws of each win rate from its Beta posterior: shape ``(size, *wins.shape)``."""
    a, b = beta_posterior(wins, games, prior)
    return rng.beta(a, b, size=(size, *a.shape))
