"""The statistics of experiments (``optimize`` and the others): paired gains, corrected intervals, the screen.

* **A paired gain.** A variant and its reference deck play the same seeds, seats and
  opponents, so each game gives a pair of results. Against one opponent, with ``n`` pairs of
  which ``b`` the variant won and the reference lost and ``c`` the other way round, the
  gain in win rate is ``(b − c)/n``; its interval is Agresti and Min's (2005) for matched
  proportions: the Wald interval after adding ½ to each of the four cells. Against a field
  the gain is the share-weighted sum over its decks, whose games are independent, so the
  variances add (normal interval).
* **How much common random numbers save.** The same games give each deck's own win rate;
  had the two decks played independent seeds, the variance of the difference would have been
  ``p₁(1−p₁)/n + p₂(1−p₂)/n``. Its ratio to the paired differences' own variance is how
  many times fewer games the paired comparison needs for the same precision.
* **Corrected for the variants tried.** A gain reported after trying ``m`` variants gets a
  Bonferroni interval: each side at ``α/(2m)``.
* **Two players' agreement.** A cheap player screens; the player whose verdict counts
  judges a sample of the same candidates. Spearman's rank correlation of the two judgements
  gets a Fisher interval (standard error √(1.06/(n − 3)), Fieller, Hartley and Pearson 1957);
  the expensive player's own noise lowers it, so it is also given corrected for attenuation
  (Spearman 1904: divided by the square root of the share of the judge's spread that is not
  noise). ``shortlist_size`` turns it into how many of the cheap ranking's best the race must
  take to hold the expensive player's best.
* **The screen.** Random variants of the deck (a few random swaps each) play in groups that
  share their seeds; a ridge regression of the results on the swaps, within each shared
  game (seed fixed effects), gives every card coming in and every card going out an
  additive value. It only ranks candidates: nothing reported as a gain comes from it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Mapping, Sequence

import numpy as np
from scipy.stats import norm, spearmanr

ALPHA = 0.05


def z_value(alpha: float = ALPHA, tests: int = 1) -> float:
    """The two-sided normal quantile for level ``alpha``, Bonferroni-corrected over ``tests``."""
    return float(norm.ppf(1 - alpha / (2 * max(1, tests))))


@dataclass
class Pairs:
    """Paired results of a deck and its reference against one opponent."""

    n: int = 0  # pairs of games
    wins: int = 0  # the deck's wins
    ref_wins: int = 0  # the reference's wins
    only: int = 0  # the deck won, the reference lost
    only_ref: int = 0  # the reference won, the deck lost

    def add(self, won: bool, ref_won: bool) -> None:
        self.n += 1
        self.wins += won
        self.ref_wins += ref_won
        self.only += won and not ref_won
        self.only_ref += ref_won and not won

    def merge(self, other: "Pairs") -> "Pairs":
        return Pairs(self.n + other.n, self.wins + other.wins, self.ref_wins + other.ref_wins,
                     self.only + other.only, self.only_ref + other.only_ref)

    @property
    def diff(self) -> float:
        return (self.only - self.only_ref) / self.n if self.n else math.nan

    @property
    def variance(self) -> float:
        """Agresti–Min: the variance of (b − c)/n after ½ is added to each of the four cells."""
        n = self.n + 2
        b, c = self.only + 0.5, self.only_ref + 0.5
        return ((b + c) - (b - c) ** 2 / n) / n ** 2

    @property
    def adjusted(self) -> float:
        return (self.only - self.only_ref) / (self.n + 2)

    @property
    def paired_sample_variance(self) -> float:
        """The plain variance of the mean of the paired differences (what the pairing measured)."""
        if not self.n:
            return math.nan
        d = (self.only - self.only_ref) / self.n
        return ((self.only + self.only_ref) / self.n - d * d) / self.n

    @property
    def unpaired_variance(self) -> float:
        """The variance of the difference had the two decks played independent games."""
        if not self.n:
            return math.nan
        p, q = self.wins / self.n, self.ref_wins / self.n
        return (p * (1 - p) + q * (1 - q)) / self.n

    def to_json(self) -> list[int]:
        return [self.n, self.wins, self.ref_wins, self.only, self.only_ref]

    @classmethod
    def from_json(cls, x) -> "Pairs":
        return cls(*x)


@dataclass
class Gain:
    """A deck's gain in win rate over its reference against a field, with its interval."""

    gain: float
    low: float
    high: float
    se: float
    games: int  # pairs of games
    z: float
    tests: int
    variance_ratio: float  # unpaired variance / paired variance (plain sample variances)
    by_opponent: dict[str, dict] = field(default_factory=dict)

    @property
    def significant(self) -> bool:
        return self.low > 0

    @property
    def clearly_worse(self) -> bool:
        return self.high < 0

    def to_json(self) -> dict:
        return {"gain": _num(self.gain), "ci": [_num(self.low), _num(self.high)], "se": _num(self.se),
                "pairs_of_games": self.games, "z": self.z, "corrected_for": self.tests,
                "confidence": 1 - ALPHA, "crn_variance_ratio": _num(self.variance_ratio),
                "by_opponent": self.by_opponent}


def _num(x: float) -> float | None:
    return None if x is None or (isinstance(x, float) and not math.isfinite(x)) else float(x)


def gain(pairs: Mapping[str, Pairs], shares: Mapping[str, float], *, tests: int = 1, z: float | None = None,
         alpha: float = ALPHA) -> Gain:
    """The share-weighted paired gain against a field; an opponent without games counts nothing.

    The point estimate is the plain ``(b − c)/n`` per opponent; the interval is Agresti–Min's
    around the adjusted estimate, Bonferroni-corrected over ``tests`` (or at ``z``)."""
    z = z_value(alpha, tests) if z is None else z
    total = sum(shares[o] for o in shares if pairs.get(o) and pairs[o].n)
    point = centre = var = unpaired = plain = 0.0
    by: dict[str, dict] = {}
    games = 0
    z95 = z_value(alpha)
    for o, s in shares.items():
        p = pairs.get(o)
        if not p or not p.n or total <= 0:
            continue
        w = s / total
        point += w * p.diff
        centre += w * p.adjusted
        var += w * w * p.variance
        unpaired += w * w * p.unpaired_variance
        plain += w * w * p.paired_sample_variance
        games += p.n
        half = z95 * math.sqrt(p.variance)
        by[o] = {"share": w, "pairs_of_games": p.n, "gain": p.diff, "ci95": [max(-1.0, p.adjusted - half),
                                                                            min(1.0, p.adjusted + half)],
                 "win_rate": p.wins / p.n, "reference_win_rate": p.ref_wins / p.n,
                 "discordant": (p.only + p.only_ref) / p.n}
    if not games:
        return Gain(math.nan, math.nan, math.nan, math.nan, 0, z, tests, math.nan, by)
    se = math.sqrt(var)
    ratio = unpaired / plain if plain > 0 else math.nan
    return Gain(point, max(-1.0, centre - z * se), min(1.0, centre + z * se), se, games, z, tests, ratio, by)


# -- two players' agreement --------------------------------------------------------------------
@dataclass
class RankAgreement:
    """How alike two players rank the same candidates (a cheap one and the one that judges)."""

    rho: float  # Spearman's rank correlation of the two judgements
    low: float  # its 95% interval (Fisher)
    high: float
    candidates: int
    reliability: float  # the share of the judging player's spread over the sample that is not noise
    corrected: float  # rho corrected for the judging player's noise (rho when that noise swamps the spread)

    def to_json(self) -> dict:
        return {"spearman": _num(self.rho), "ci95": [_num(self.low), _num(self.high)], "candidates": self.candidates,
                "judge_reliability": _num(self.reliability), "corrected_for_judge_noise": _num(self.corrected)}

    @classmethod
    def from_json(cls, d: dict) -> "RankAgreement":
        nan = lambda x: math.nan if x is None else x  # noqa: E731
        return cls(nan(d["spearman"]), nan(d["ci95"][0]), nan(d["ci95"][1]), d["candidates"],
                   nan(d["judge_reliability"]), nan(d["corrected_for_judge_noise"]))


MIN_RELIABILITY = 0.3  # below it the correction for attenuation is too unstable to use


def reliability(values: Sequence[float], se: Sequence[float]) -> float:
    """The share of the spread of noisy ``values`` (standard errors ``se``) that is not their
    noise: 1 - mean(se²) / var(values), at least 0; 0 when there is no spread to share."""
    if len(values) < 2:
        return 0.0
    spread = float(np.var(values, ddof=1))
    noise = float(np.mean(np.square(se)))
    return max(0.0, 1.0 - noise / spread) if spread > 0 else 0.0


def rank_agreement(cheap: Sequence[float], judge: Sequence[float], judge_se: Sequence[float],
                   alpha: float = ALPHA) -> RankAgreement:
    """Spearman's rho between two judgements of the same candidates, with its interval, and
    rho corrected for the noise of ``judge`` (whose standard errors are ``judge_se``)."""
    n = len(cheap)
    if n < 4 or len(set(cheap)) < 2 or len(set(judge)) < 2:
        return RankAgreement(math.nan, math.nan, math.nan, n, math.nan, math.nan)
    rho = float(spearmanr(cheap, judge).statistic)
    half = z_value(alpha) * math.sqrt(1.06 / (n - 3))
    r = min(max(rho, -0.999999), 0.999999)
    low, high = math.tanh(math.atanh(r) - half), math.tanh(math.atanh(r) + half)
    share = reliability(judge, judge_se)
    corrected = min(1.0, max(-1.0, rho / math.sqrt(share))) if share >= MIN_RELIABILITY else rho
    return RankAgreement(rho, low, high, n, share, corrected)


def shortlist_size(rho: float, n: int, confidence: float = 0.8, least: int = 4) -> int:
    """How many of ``n`` candidates, ranked by a cheap judgement, must go on so that the best by
    the expensive judgement is among them with probability ``confidence``, if the two
    judgements are jointly normal with correlation ``rho``.

    The expensive player's best sits at the top order statistic of n, z* = Φ⁻¹(1 − 1/(n + 1));
    its cheap score is ρz* + √(1 − ρ²)ε, and the top k of the cheap ranking are those above
    Φ⁻¹(1 − k/n). So k = n(1 − Φ(ρz* − Φ⁻¹(confidence)√(1 − ρ²))): 1 candidate or so when the
    players agree, most of them when they do not (rho ≤ 0 counts as 0, NaN as no agreement)."""
    if n <= least:
        return n
    rho = 0.0 if not math.isfinite(rho) else min(max(rho, 0.0), 1.0)
    top = float(norm.ppf(1 - 1 / (n + 1)))
    threshold = rho * top - float(norm.ppf(confidence)) * math.sqrt(1 - rho * rho)
    k = math.ceil(n * (1 - float(norm.cdf(threshold))))
    return min(n, max(least, k))


# -- the screen ------------------------------------------------------------------------------
@dataclass
class ScreenFit:
    """Additive values from the screen: the gain of each card coming in, of each card going out."""

    values: dict[tuple[str, str, bool], float]  # ("in"|"out", card, mission) -> value
    se: dict[tuple[str, str, bool], float]
    seen: dict[tuple[str, str, bool], int]  # in how many screen variants

    def swap_value(self, out: str, into: str, mission: bool = False) -> float:
        return self.values.get(("in", into, mission), 0.0) + self.values.get(("out", out, mission), 0.0)

    def to_json(self) -> list:
        return [[k[0], k[1], k[2], self.values[k], self.se.get(k), self.seen.get(k, 0)] for k in sorted(self.values)]

    @classmethod
    def from_json(cls, rows) -> "ScreenFit":
        v, s, n = {}, {}, {}
        for kind, card, mission, value, se, seen in rows:
            key = (kind, card, bool(mission))
            v[key], s[key], n[key] = value, se, seen
        return cls(v, s, n)


def fit_screen(variants: Sequence[Sequence[tuple[str, str, bool]]], groups: Sequence[int],
               results: Sequence[Sequence[tuple[int, float, float]]], ridge: float = 10.0) -> ScreenFit:
    """Fit additive swap values from a screen.

    ``variants[v]`` lists the features of variant v: ``("in", card, mission)`` and
    ``("out", card, mission)``. ``groups[v]`` is its seed group; ``results[v]`` its games as
    ``(cell, won, weight)``, where a cell is a game shared by the whole group (same seed, seat
    and opponent) and the weight is the opponent's share. Within a cell the results are
    centred (the seed's fixed effect), so only the differences between the variants of a group
    speak; a ridge penalty of ``ridge`` game-weights pulls rarely seen cards towards 0.
    """
    keys = sorted({f for feats in variants for f in feats})
    col = {k: j for j, k in enumerate(keys)}
    n_v, p = len(variants), len(keys)
    x = np.zeros((n_v, p))
    for v, feats in enumerate(variants):
        for f in feats:
            x[v, col[f]] += 1.0
    # each cell's mean result, over the variants of its group
    cell_sum: dict[tuple[int, int], float] = {}
    cell_n: dict[tuple[int, int], int] = {}
    for v, games in enumerate(results):
        for cell, won, _ in games:
            k = (groups[v], cell)
            cell_sum[k] = cell_sum.get(k, 0.0) + won
            cell_n[k] = cell_n.get(k, 0) + 1
    xtx = np.zeros((p, p))
    xty = np.zeros(p)
    sse = wsum = 0.0
    members: dict[int, list[int]] = {}
    for v, g in enumerate(groups):
        members.setdefault(g, []).append(v)
    for g, vs in members.items():
        xg = x[vs]
        centred = xg - xg.mean(axis=0)
        for row, v in zip(centred, vs):
            ysum = wtot = 0.0
            for cell, won, w in results[v]:
                k = (g, cell)
                if cell_n[k] < 2:
                    continue
                y = won - cell_sum[k] / cell_n[k]
                ysum += w * y
                wtot += w
                sse += w * y * y
                wsum += w
            if wtot:
                xtx += wtot * np.outer(row, row)
                xty += ysum * row
    if p == 0:
        return ScreenFit({}, {}, {})
    a = xtx + ridge * np.eye(p)
    beta = np.linalg.solve(a, xty)
    sigma2 = sse / wsum if wsum else 0.25
    cov = sigma2 * np.linalg.inv(a)
    seen = x.astype(bool).sum(axis=0)
    values = {k: float(beta[j]) for k, j in col.items()}
    ses = {k: float(math.sqrt(max(cov[j, j], 0.0))) for k, j in col.items()}
    return ScreenFit(values, ses, {k: int(seen[j]) for k, j in col.items()})


__all__ = ["ALPHA", "Gain", "Pairs", "RankAgreement", "ScreenFit", "fit_screen", "gain", "rank_agreement",
           "shortlist_size", "z_value"]
