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
  share their seeds. For missions, a ridge regression of the results on the swaps, within each
  shared game (seed fixed effects), gives every mission coming in and going out an additive
  value (``fit_screen``). For cards, each game's result is regressed on the cards its deck held
  (``fit_draws``): the shuffle decides them, so every game is a trial of every card it held,
  and the deck's own cards are valued from all the games rather than from the few variants
  that swap them. Either only ranks candidates: nothing reported as a gain comes from it.
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


def pairs_to_prove(least_gain: float, sd: float, *, tests: int = 1, power: float = 0.9,
                   alpha: float = ALPHA) -> int:
    """Pairs of games a fresh paired comparison needs so that a true gain of ``least_gain`` gets a
    corrected interval (``tests``, as ``gain`` corrects) above 0 with probability ``power``, when
    one pair's difference has standard deviation ``sd``: n = ((z + z_power)·sd / gain)².

    Chosen before those games are played, from earlier games only, the confirmation is an
    ordinary fixed-size test: sizing it so does not bias its interval. A gain of 0 or less (or
    any figure not finite) has no size that proves it: returns 0 (the caller's floor decides)."""
    if not (math.isfinite(least_gain) and math.isfinite(sd)) or least_gain <= 0 or sd <= 0:
        return 0
    z = z_value(alpha, tests) + float(norm.ppf(power))
    return math.ceil((z * sd / least_gain) ** 2)


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


DRAWS_BASE_RIDGE = 1.0  # game-weights: the deck's own cards are held in thousands of games
DRAWS_FIRST_RIDGE = 1.0  # the first fit's pull, light: its spread of the other cards sets the second's
# the least spread assumed of the others' values (win rate a copy held): most cards from outside are
# held in a few dozen games, whose noise can hide a spread that is there (a few strong cards among many
# alike); without this floor every one of them came out at their mean and ranked by name
DRAWS_PRIOR_SD = 0.05


def fit_draws(games: Sequence[tuple[object, float, float]], held: Sequence[Sequence[tuple[str, int]]],
              base: Mapping[str, int], candidates: Sequence[str] = ()) -> ScreenFit:
    """Card values from the cards each game's deck held (its opening hand and every card it drew).

    ``games[g]`` is ``(cell, won, weight)`` of game g: its cell (its opponent and seat, a fixed
    effect each), whether the studied deck won (1.0 or 0.0), and its weight (the opponent's
    share); ``held[g]`` lists ``(card, copies)``; ``base`` is the deck as it is (card → copies).
    The model: a game's result is its cell's rate plus ``θ_c`` for each copy of card c the deck
    held. Which cards a deck holds is the shuffle's doing, not the player's (but for its
    mulligan), so every game is a randomised trial of every card it held: the deck's own cards,
    held in thousands of games, get a precise ``θ``, where a regression on the variants' swaps
    (``fit_screen``) knows a card only through the few variants that swap it.

    The cards from outside the deck are held in few games: their ``θ`` is their mean plus a
    deviation pulled towards it by a ridge whose weight comes from the data (empirical Bayes: a
    game's noise over the spread of the deviations, both measured by a first, lightly pulled fit),
    the spread taken at least ``DRAWS_PRIOR_SD``.

    Values are win-rate points of one copy on the swap's scale (``θ`` times ``q``, the chance a
    given copy of the deck is held in a game), against the deck's average card: ``("in", c)`` is
    the gain of a copy of c in place of an average card of the deck, ``("out", c)`` (the deck's
    cards) the gain of taking a copy of c out for one, and ``swap_value(out, into)`` their sum. ``seen`` counts the
    games that held the card. A card of ``candidates`` that no game held gets the mean of the
    cards from outside the deck (seen 0).
    """
    from scipy import sparse

    n = len(games)
    if n == 0:
        return ScreenFit({}, {}, {})
    cells = sorted({g[0] for g in games}, key=repr)
    cell_col = {c: j for j, c in enumerate(cells)}
    cards = sorted({c for h in held for c, _ in h})
    own = [c for c in cards if c in base]
    other = [c for c in cards if c not in base]
    # columns: the cells | the deck's cards | the others' mean (a copy of any of them) | their deviations
    k, b, o = len(cells), len(own), len(other)
    col = {c: k + j for j, c in enumerate(own)} | {c: k + b + 1 + j for j, c in enumerate(other)}
    mean_col = k + b
    p = k + b + 1 + o
    rows: list[int] = []
    cols: list[int] = []
    vals: list[float] = []
    y = np.empty(n)
    w = np.empty(n)
    seen = dict.fromkeys(cards, 0)
    copies_held = 0.0
    for g, ((cell, won, weight), h) in enumerate(zip(games, held)):
        y[g], w[g] = won, weight
        rows.append(g), cols.append(cell_col[cell]), vals.append(1.0)
        others = 0.0
        for card, copies in h:
            rows.append(g), cols.append(col[card]), vals.append(float(copies))
            seen[card] += 1
            copies_held += copies
            if card not in base:
                others += copies
        if others:
            rows.append(g), cols.append(mean_col), vals.append(others)
    x = sparse.csr_matrix((vals, (rows, cols)), shape=(n, p))
    xtw = x.T.multiply(w).tocsr()
    xtx = (xtw @ x).toarray()
    xty = xtw @ y

    def solve(pull: float) -> tuple[np.ndarray, np.ndarray, float]:
        penalty = np.zeros(p)
        penalty[k:k + b] = DRAWS_BASE_RIDGE
        penalty[k + b + 1:] = pull
        if not o:
            penalty[mean_col] = 1.0  # no other card: its mean's column is empty
        a = xtx + np.diag(penalty)
        beta = np.linalg.solve(a, xty)
        resid = y - x @ beta
        sigma2 = float(np.sum(w * resid * resid) / max(1.0, float(np.sum(w)) - p))
        return beta, sigma2 * np.linalg.inv(a), sigma2

    beta, cov, sigma2 = solve(DRAWS_FIRST_RIDGE)
    if o >= 3:
        dev = beta[k + b + 1:]
        spread = float(np.var(dev, ddof=1) - np.mean(np.diag(cov)[k + b + 1:]))
        beta, cov, _ = solve(max(DRAWS_FIRST_RIDGE, sigma2 / max(spread, DRAWS_PRIOR_SD ** 2)))
    # each card's θ against the deck's average card, and its standard error (a contrast: the cells
    # and the cards held share a near-constant total, so a θ alone is much less sure than a difference)
    slots = sum(base[c] for c in own)
    contrast = np.zeros((len(cards), p))
    for i, c in enumerate(cards):
        contrast[i, col[c]] = 1.0
        if c not in base:
            contrast[i, mean_col] = 1.0
        for d in own:
            contrast[i, col[d]] -= base[d] / slots if slots else 0.0
    rel = contrast @ beta
    rel_se = np.sqrt(np.maximum(np.einsum("ij,jk,ik->i", contrast, cov, contrast), 0.0))
    q = copies_held / (n * slots) if slots else 0.0  # the chance a given copy of a deck is held in a game
    values: dict[tuple[str, str, bool], float] = {}
    ses: dict[tuple[str, str, bool], float] = {}
    counts: dict[tuple[str, str, bool], int] = {}
    rows_of = [(c, i) for i, c in enumerate(cards)]
    unseen = sorted(set(candidates) - set(cards))
    if unseen:  # the others' mean, against the deck's average card
        mean = np.zeros(p)
        mean[mean_col] = 1.0
        for d in own:
            mean[col[d]] -= base[d] / slots if slots else 0.0
        rel = np.append(rel, mean @ beta)
        rel_se = np.append(rel_se, math.sqrt(max(float(mean @ cov @ mean), 0.0)))
        rows_of += [(c, len(cards)) for c in unseen]
        seen |= dict.fromkeys(unseen, 0)
    for c, i in rows_of:
        for kind, sign in (("in", 1.0), ("out", -1.0)) if c in base else (("in", 1.0),):
            values[(kind, c, False)] = sign * q * float(rel[i])
            ses[(kind, c, False)] = q * float(rel_se[i])
            counts[(kind, c, False)] = seen[c]
    return ScreenFit(values, ses, counts)


__all__ = ["ALPHA", "Gain", "Pairs", "RankAgreement", "ScreenFit", "fit_draws", "fit_screen", "gain", "pairs_to_prove", "rank_agreement",
           "shortlist_size", "z_value"]
