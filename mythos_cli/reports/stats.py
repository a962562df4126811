"""The statistics of the reports, on scipy's distributions.

* A win rate (k wins of n games) gets a Wilson 95% interval: good coverage even for small
  n or rates near 0 and 1, and symmetric under complement (B vs A is 1 − A vs B, exactly).
* A difference of two independent win rates (card drawn vs not, keep vs mulligan) gets
  Newcomb's hybrid score interval, the Wilson-based interval for a difference (Newcomb 1998,
  method 10: the two Wilson intervals combined in quadrature).
* Both are closed formulas on the normal quantile (scipy's ``norm.ppf``); the tests check
  them against statsmodels' ``proportion_confint`` and ``confint_proportions_2indep``, the
  implementations mythos used before it dropped that dependency, to 1e-9.
* A weighted mix of matchups (the win rate against a field) gets the 95% interval of the
  sum of independent Jeffreys (Beta(k+½, n−k+½)) posteriors, by Monte Carlo with a fixed
  seed: it needs no normal approximation and stays inside [0, 1] near 0% and 100%.
* Odds of drawing a card are exact hypergeometric tail probabilities.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np
from scipy.stats import beta as beta_dist
from scipy.stats import hypergeom
from scipy.stats import t as t_dist

from mythos_cli.stats import wilson_interval

ALPHA = 0.05
FIELD_DRAWS = 20_000
FIELD_SEED = 9  # fixed: the same database always gives the same report


@dataclass(frozen=True)
class Rate:
    """k wins of n games, with a Wilson interval (NaN when n is 0). A rate weighted by a field
    (``weighted``) is Σ share·(wins/games) over the field's decks, ``parts`` its (share, wins,
    games) per deck, and its interval the field's (``field_interval``)."""

    wins: int
    games: int
    low: float
    high: float
    value: float | None = None  # the weighted rate, when the games are weighted by a field
    parts: tuple = ()

    @property
    def rate(self) -> float:
        if self.value is not None:
            return self.value
        return self.wins / self.games if self.games else math.nan

    def to_dict(self) -> dict:
        d = {"wins": self.wins, "games": self.games, "win_rate": _num(self.rate),
             "ci95": [_num(self.low), _num(self.high)]}
        if self.value is not None:
            d["weighted_by_field"] = True
        return d


def weighted(parts, alpha: float = ALPHA) -> Rate:
    """A rate over a field: ``parts`` are (share, wins, games) per deck of it; the decks without
    games are left out and the others' shares renormalised. The interval is that of the sum of
    the decks' Jeffreys posteriors (``field_interval``)."""
    parts = tuple((float(w), int(k), int(n)) for w, k, n in parts if n > 0 and w > 0)
    wins, games = sum(k for _, k, _ in parts), sum(n for _, _, n in parts)
    if not parts:
        return Rate(wins, games, math.nan, math.nan)
    total = sum(w for w, _, _ in parts)
    parts = tuple((w / total, k, n) for w, k, n in parts)
    value = sum(w * k / n for w, k, n in parts)
    if len(parts) == 1:
        r = wilson(wins, games, alpha)
        return Rate(wins, games, r.low, r.high, value, parts)
    low, high = field_interval(parts, alpha=alpha)
    return Rate(wins, games, low, high, value, parts)


def interval_at(r: Rate, alpha: float) -> tuple[float, float]:
    """``r``'s interval at level ``alpha``: weighted by its field's parts where it has them."""
    if r.parts:
        return (r.low, r.high) if alpha == ALPHA else (weighted(r.parts, alpha).low, weighted(r.parts, alpha).high)
    return wilson_interval(r.wins, r.games, alpha)


def _num(x: float) -> float | None:
    """JSON has no NaN: an undefined number is null."""
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else float(x)


def wilson(wins: int, games: int, alpha: float = ALPHA) -> Rate:
    wins, games = int(wins), int(games)
    if games == 0:
        return Rate(0, 0, math.nan, math.nan)
    low, high = wilson_interval(wins, games, alpha)
    return Rate(wins, games, low, high)


@dataclass(frozen=True)
class Diff:
    """Win rate of group 1 minus group 2, with Newcomb's interval."""

    value: float
    low: float
    high: float

    def to_dict(self) -> dict:
        return {"diff": _num(self.value), "ci95": [_num(self.low), _num(self.high)]}


NO_DIFF = Diff(math.nan, math.nan, math.nan)


def difference(a: Rate, b: Rate, alpha: float = ALPHA) -> Diff:
    """``a − b`` with Newcomb's hybrid score interval (from the two Wilson intervals at ``alpha``)."""
    if a.games == 0 or b.games == 0:
        return NO_DIFF
    p1, p2 = a.rate, b.rate
    l1, u1 = interval_at(a, alpha)
    l2, u2 = interval_at(b, alpha)
    d = p1 - p2
    low = d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    high = d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return Diff(d, max(-1.0, low), min(1.0, high))


def field_interval(parts: Sequence[tuple[float, int, int]], constant: float = 0.0,
                   alpha: float = ALPHA) -> tuple[float, float]:
    """Interval of ``constant + Σ weight·p`` for independent matchups ``(weight, wins, games)``.

    Each p is drawn from its Jeffreys posterior Beta(wins+½, losses+½); the interval is the
    central 1−alpha range of the weighted sums. With one matchup of weight 1 it is the
    Jeffreys interval of that win rate.
    """
    if not parts:
        return constant, constant
    # the draws follow the parts' order: sorted, the same parts give the same interval whatever
    # order a group-by handed them in
    parts = sorted((float(w), int(k), int(n)) for w, k, n in parts)
    rng = np.random.default_rng(FIELD_SEED)
    total = np.full(FIELD_DRAWS, constant, dtype=float)
    for weight, wins, games in parts:
        draws = beta_dist.rvs(wins + 0.5, games - wins + 0.5, size=FIELD_DRAWS, random_state=rng)
        total += weight * draws
    low, high = np.quantile(total, [alpha / 2, 1 - alpha / 2])
    return float(low), float(high)


def at_least_one(deck_size: int, copies: int, seen: int) -> float:
    """Exact chance that ``seen`` cards from a shuffled deck hold at least one of ``copies``."""
    seen = min(seen, deck_size)
    return float(hypergeom.sf(0, deck_size, copies, seen))


@dataclass(frozen=True)
class Mean:
    mean: float
    low: float
    high: float
    n: int

    def to_dict(self) -> dict:
        return {"mean": _num(self.mean), "ci95": [_num(self.low), _num(self.high)], "n": self.n}


def mean_interval(values: Sequence[float] | np.ndarray, alpha: float = ALPHA) -> Mean:
    """A mean with its t interval (a constant sample gets a zero-width interval)."""
    x = np.asarray(values, dtype=float)
    if x.size == 0:
        return Mean(math.nan, math.nan, math.nan, 0)
    m = float(x.mean())
    if x.size == 1 or float(x.std()) == 0.0:
        return Mean(m, m, m, int(x.size))
    sem = float(x.std(ddof=1)) / math.sqrt(x.size)
    low, high = t_dist.interval(1 - alpha, x.size - 1, loc=m, scale=sem)
    return Mean(m, float(low), float(high), int(x.size))


def family(diffs: list[tuple[Rate, Rate]], alpha: float = ALPHA) -> list[Diff]:
    """Differences judged together: each gets Newcomb's interval at ``alpha / m`` (Bonferroni over
    the m comparisons), so that "clearly better" holds for the whole list at 95%, not each line."""
    m = max(1, len(diffs))
    return [difference(a, b, alpha / m) for a, b in diffs]


def verdict(low: float | None, high: float | None, at: float = 0.0) -> str:
    """``better`` (interval above ``at``), ``worse`` (below) or ``unclear`` (it spans ``at``)."""
    if low is None or high is None or (isinstance(low, float) and math.isnan(low)):
        return "unclear"
    return "better" if low > at else "worse" if high < at else "unclear"


def mean_interval_from_moments(n: int, total: int, squares: int, alpha: float = ALPHA) -> Mean:
    """``mean_interval`` of n whole numbers given their sum and sum of squares (no rows needed).

    The variance is computed exactly in integers, then the same t interval as
    ``mean_interval``: mean ± t(n−1) · sqrt(var / (n − 1)), var with divisor n."""
    if n <= 0:
        return Mean(math.nan, math.nan, math.nan, 0)
    m = total / n
    spread = n * squares - total * total  # n² times the variance: exact for integers
    if n == 1 or spread <= 0:
        return Mean(m, m, m, n)
    half = float(t_dist.ppf(1 - alpha / 2, n - 1)) * math.sqrt(spread / (n * n) / (n - 1))
    return Mean(m, m - half, m + half, n)
