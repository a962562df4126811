"""A Swiss tournament, simulated many times at once (numpy, every tournament a row).

* **Players**: each tournament draws its players' lists from the field's shares (a field file of
  counts of players gives that exact field instead, in a random order). ``mine`` puts one more
  list in the first seat of every tournament: a player who brings it (the others still drawn).
* **Rounds**: every round pairs the players by record: sorted by match points, at random within
  the same points, first against second, third against fourth, … (rematches are not avoided;
  with an odd number of players the last one gets a bye, a match win). A match is won with the
  best-of-three odds of its two lists (``match``), drawn fresh for every match.
* **Standings**: match points (3 a win, 0 a loss), then the opponents' match-win percentage
  (each opponent's wins over its rounds, at least 1/3; byes left out), then at random. The top
  ``top`` make the cut.
* **Uncertainty**: tournament t plays on posterior draw ``t mod D`` of the matrix (``D`` is chosen
  so that each draw has ``PER_DRAW`` tournaments), so the figures carry both the matrix's
  uncertainty and the simulation's. A figure's interval is its spread across the draws (its
  variance across draws, less each draw's own binomial variance, estimated without bias), plus
  the simulation error of the mean: a normal 95% interval.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

Z95 = 1.959963984540054
PER_DRAW = 20  # tournaments on each posterior draw


def draws_for(tournaments: int, available: int) -> int:
    """How many posterior draws the tournaments play on: ``PER_DRAW`` tournaments each, at least 2."""
    return max(1, min(available, max(2, tournaments // PER_DRAW)))


@dataclass
class Standing:
    """Per tournament and player: its list, its match wins and whether it made the cut."""

    lists: np.ndarray  # (T, P) list index
    wins: np.ndarray  # (T, P) match wins (a bye counts)
    top: np.ndarray  # (T, P) bool
    draw: np.ndarray  # (T,) the posterior draw each tournament played on


def play(bo3: np.ndarray, shares, players: int, rounds: int, top: int, tournaments: int,
         rng: np.random.Generator, *, counts=None, mine: int | None = None) -> Standing:
    """Play ``tournaments`` Swiss tournaments. ``bo3``: the match odds of the row list against the
    column list, one matrix ``(n, n)`` or posterior draws ``(D, n, n)``."""
    probs = bo3 if bo3.ndim == 3 else bo3[None]
    n_draws, n = probs.shape[0], probs.shape[1]
    T, P = tournaments, players
    if counts is not None:
        field = np.repeat(np.arange(n), np.asarray(counts, dtype=int))
        if len(field) != P - (mine is not None):
            raise ValueError(f"the counts make {len(field)} players, not {P - (mine is not None)}")
        lists = np.tile(field, (T, 1))
        lists = np.take_along_axis(lists, rng.random(lists.shape).argsort(axis=1), axis=1)
    else:
        p = np.asarray(shares, dtype=float)
        lists = rng.choice(n, size=(T, P - (mine is not None)), p=p / p.sum())
    if mine is not None:
        lists = np.hstack([np.full((T, 1), mine), lists])
    draw = np.arange(T) % n_draws
    points = np.zeros((T, P), dtype=np.int64)
    wins = np.zeros((T, P), dtype=np.int64)
    opponents = np.full((T, P, rounds), -1, dtype=np.int64)
    rows = np.arange(T)[:, None]
    half = P // 2
    for r in range(rounds):
        order = np.argsort(rng.random((T, P)) - points, axis=1)  # points step by 3: the noise only breaks ties
        a, b = order[:, 0:2 * half:2], order[:, 1:2 * half:2]
        la, lb = lists[rows, a], lists[rows, b]
        a_wins = rng.random((T, half)) < probs[draw[:, None], la, lb]
        winner = np.where(a_wins, a, b)
        points[rows, winner] += 3
        wins[rows, winner] += 1
        opponents[rows, a, r] = b
        opponents[rows, b, r] = a
        if P % 2:
            bye = order[:, -1]
            points[np.arange(T), bye] += 3
            wins[np.arange(T), bye] += 1
    # opponents' match-win percentage: each opponent's wins over the rounds, at least 1/3
    owp = np.maximum(wins / rounds, 1 / 3)
    met = opponents >= 0
    seen = np.take_along_axis(owp, np.clip(opponents, 0, None).reshape(T, P * rounds), axis=1)
    opp_owp = np.where(met, seen.reshape(T, P, rounds), 0.0)
    omw = opp_owp.sum(axis=2) / np.maximum(met.sum(axis=2), 1)
    # points (steps of 3), then omw (in [1/3, 1], steps of at least 1/rounds²), then at random
    rank = np.argsort(-(points + 0.9 * omw) + 1e-6 / rounds ** 2 * rng.random((T, P)), axis=1)
    made = np.zeros((T, P), dtype=bool)
    made[rows, rank[:, :top]] = True
    return Standing(lists, wins, made, draw)


def _ci(per_draw_hits: np.ndarray, per_draw_n: np.ndarray) -> tuple[float, float, float]:
    """A rate over players (hits/n per posterior draw): its mean and normal 95% interval, the
    between-draw variance less each draw's binomial variance, plus the error of the mean."""
    keep = per_draw_n > 0
    hits, n = per_draw_hits[keep].astype(float), per_draw_n[keep].astype(float)
    if not n.size:
        return math.nan, math.nan, math.nan
    total = hits.sum() / n.sum()
    rates = hits / n
    w = n / n.sum()
    spread = float(np.sum(w * (rates - total) ** 2))
    # each draw's own binomial variance, estimated without bias (a draw of one player tells none)
    noise = float(np.sum(w * np.where(n > 1, rates * (1 - rates) / np.maximum(n - 1, 1), 0.0)))
    between = max(0.0, spread - noise)
    sim = total * (1 - total) / n.sum()
    half = Z95 * math.sqrt(between + sim)
    return total, max(0.0, total - half), min(1.0, total + half)


def _mean_ci(values: np.ndarray, draws: np.ndarray) -> tuple[float, float, float]:
    """The mean of per-player values grouped by draw, with the same kind of interval."""
    if not values.size:
        return math.nan, math.nan, math.nan
    ids, inv = np.unique(draws, return_inverse=True)
    n = np.bincount(inv).astype(float)
    s = np.bincount(inv, weights=values)
    s2 = np.bincount(inv, weights=values * values)
    total = s.sum() / n.sum()
    means = s / n
    var_within = np.maximum(s2 / n - means ** 2, 0.0) * np.where(n > 1, n / np.maximum(n - 1, 1), 0.0)
    w = n / n.sum()
    spread = float(np.sum(w * (means - total) ** 2))
    noise = float(np.sum(w * var_within / n))
    between = max(0.0, spread - noise)
    sim = float(values.var()) / values.size
    half = Z95 * math.sqrt(between + sim)
    return float(total), float(total - half), float(total + half)


def summary(st: Standing, lists: int, rounds: int, *, only_first: bool = False) -> list[dict]:
    """Per list: players, the top-cut chance, its share of the cut, the record distribution and the
    expected match points, each with its interval (``only_first``: the first seat's player only)."""
    L = st.lists[:, :1] if only_first else st.lists
    W = st.wins[:, :1] if only_first else st.wins
    C = st.top[:, :1] if only_first else st.top
    D = np.broadcast_to(st.draw[:, None], L.shape)
    n_draws = int(st.draw.max()) + 1
    cut_slots = st.top.sum()
    out = []
    for i in range(lists):
        sel = L == i
        players = int(sel.sum())
        if not players:
            out.append({"players": 0})
            continue
        dr = D[sel]
        per_n = np.bincount(dr, minlength=n_draws)
        made = np.bincount(dr, weights=C[sel], minlength=n_draws)
        cut = _ci(made, per_n)
        record = []
        for w in range(rounds + 1):
            hits = np.bincount(dr, weights=(W[sel] == w), minlength=n_draws)
            rate, lo, hi = _ci(hits, per_n)
            record.append({"wins": w, "losses": rounds - w, "chance": rate, "ci95": [lo, hi]})
        hits = np.bincount(dr, weights=(2 * W[sel] > rounds), minlength=n_draws)
        winning = _ci(hits, per_n)
        pts = _mean_ci(3.0 * W[sel], dr)
        in_cut = int((st.top & (st.lists == i)).sum())
        out.append({"players": players, "top_cut": {"chance": cut[0], "ci95": [cut[1], cut[2]]},
                    "share_of_cut": in_cut / cut_slots if cut_slots else None,
                    "share_of_players": players / L.size,
                    "match_points": {"mean": pts[0], "ci95": [pts[1], pts[2]]}, "record": record,
                    "winning_record": {"chance": winning[0], "ci95": [winning[1], winning[2]]}})
    return out


__all__ = ["PER_DRAW", "Standing", "draws_for", "play", "summary"]
