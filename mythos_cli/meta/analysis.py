"""Every answer of ``mythos meta`` from a matrix and a field's shares, each with its interval.

The point figure of an answer is computed on the observed matrix (``posterior.point``), its 95%
interval is the central range of the same answer computed on each posterior draw, and a
frequency ("how often is it the best response") is counted over the draws.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import numpy as np

from mythos_cli.experiment.matrix import Matrix
from mythos_cli.meta import drift as D
from mythos_cli.meta import game as G
from mythos_cli.meta import match as M
from mythos_cli.meta import posterior as P
from mythos_cli.meta import swiss as S

TOURNAMENTS = 10_000
PLAYERS = 64
TOP = 8
GENERATIONS = 50


@dataclass
class Settings:
    draws: int = P.DRAWS
    seed: int = 1
    players: int | None = None  # default: the field file's count of players, else PLAYERS
    rounds: int | None = None  # default: ⌈log2 players⌉
    top: int = TOP
    tournaments: int = TOURNAMENTS
    next_first: str = M.DEFAULT_NEXT_FIRST
    generations: int = GENERATIONS
    deck: int | None = None  # "my" list, in detail

    def resolved(self, counts: list[int] | None) -> "Settings":
        players = self.players or (sum(counts) if counts and sum(counts) >= 2 else PLAYERS)
        rounds = self.rounds or max(1, math.ceil(math.log2(players)))
        return Settings(self.draws, self.seed, players, rounds, self.top, self.tournaments, self.next_first,
                        self.generations, self.deck)


def _ci(x: np.ndarray) -> list[float]:
    lo, hi = np.quantile(x, [0.025, 0.975], axis=0)
    return [float(lo), float(hi)] if np.ndim(lo) == 0 else [lo, hi]


def _rate(point: float, draws: np.ndarray) -> dict:
    lo, hi = np.quantile(draws, [0.025, 0.975])
    return {"win_rate": float(point), "ci95": [float(lo), float(hi)]}


def analyse(m: Matrix, shares, settings: Settings | None = None, counts: list[int] | None = None) -> dict:
    """The answers as one JSON-able dict (see ``mythos meta --json``)."""
    st = (settings or Settings()).resolved(counts)
    n = m.size
    s = np.asarray(shares, dtype=float)
    names = m.names
    post = P.draw(m, st.draws, st.seed)
    F, A = post.first, post.games
    f0 = P.point(m)
    a0 = P.game_rates(f0)
    games = m.games()
    wins = m.wins()

    # against the field, tiers, best response
    e0 = G.field_rates(a0, s)
    e = G.field_rates(A, s)
    order = sorted(range(n), key=lambda i: (-e0[i], i))
    tier = G.tiers(e, order)
    br = G.best_response_odds(e)
    best = order[0]

    # the Nash equilibrium
    x0, v0 = G.nash(a0)
    xs, vs = G.nash_draws(A)
    support = (xs > G.SUPPORT).mean(axis=0)

    # match odds: P(row wins | row first) and P(row wins | column first)
    match = {}
    match0 = {}
    for k in M.BEST_OF:
        match[k] = M.match_win(F, 1 - np.swapaxes(F, 1, 2), k, st.next_first)
        match0[k] = M.match_win(f0, 1 - f0.T, k, st.next_first)
        idx = np.arange(n)
        match[k][:, idx, idx] = 0.5
        match0[k][idx, idx] = 0.5

    # the Swiss tournament
    rng = np.random.default_rng(np.random.SeedSequence(st.seed, spawn_key=(0x73776973,)))  # "swis"
    field_counts = counts if counts is not None and st.players == sum(counts) else None
    bo3 = match[3][:S.draws_for(st.tournaments, st.draws)]
    standing = S.play(bo3, s, st.players, st.rounds, st.top, st.tournaments, rng, counts=field_counts)
    swiss_lists = S.summary(standing, n, st.rounds)
    mine = None
    if st.deck is not None:
        mine_counts = None
        players = st.players
        if field_counts is not None:
            mine_counts = list(field_counts)
            if mine_counts[st.deck] > 0:
                mine_counts[st.deck] -= 1
            else:
                players += 1
        own = S.play(bo3, s, players, st.rounds, st.top, st.tournaments, rng, counts=mine_counts,
                     mine=st.deck)
        detail = S.summary(own, n, st.rounds, only_first=True)[st.deck]
        mine = {"list": names[st.deck], "players": players, "swiss": detail,
                "match": [{"opponent": names[j], "share": float(s[j]),
                           **{f"bo{k}": _rate(match0[k][st.deck, j], match[k][:, st.deck, j]) for k in M.BEST_OF}}
                          for j in order],
                "vs_field": {f"bo{k}": _rate(match0[k][st.deck] @ s, match[k][:, st.deck] @ s) for k in M.BEST_OF}}

    # the drift
    path0 = D.replicator(a0, s, st.generations)
    verdict, turns = D.verdict(path0)
    paths = D.replicator(A, s, st.generations)
    cycling = D.cycles(paths)
    final = paths[:, -1]

    # matchups, polarity
    pol0 = G.polarity(a0)
    pol = G.polarity(A)

    cells = []
    for i in range(n):
        for j in range(n):
            if i == j:
                continue
            lo, hi = np.quantile(A[:, i, j], [0.025, 0.975])
            cells.append({"list": names[i], "opponent": names[j], "games": int(games[i, j]), "wins": int(wins[i, j]),
                          "win_rate": float(a0[i, j]) if games[i, j] else None, "ci95": [float(lo), float(hi)],
                          "played": bool(games[i, j]), "clear": bool(games[i, j] and (lo > 0.5 or hi < 0.5)),
                          "first": {"games": int(m.first_games[i, j]),
                                    "win_rate": float(f0[i, j]) if m.first_games[i, j] else None},
                          "second": {"games": int(m.first_games[j, i]),
                                     "win_rate": float(1 - f0[j, i]) if m.first_games[j, i] else None},
                          "bo3": _rate(match0[3][i, j], match[3][:, i, j])})

    lists = []
    for i in range(n):
        others = [j for j in range(n) if j != i]
        hi_j = max(others, key=lambda j: (a0[i, j], -j)) if others else None
        lo_j = min(others, key=lambda j: (a0[i, j], j)) if others else None

        def matchup(j):
            return None if j is None else {"opponent": names[j], **_rate(a0[i, j], A[:, i, j]),
                                           "games": int(games[i, j])}

        lists.append({
            "name": names[i], "hash": m.lists[i].hash, "share": float(s[i]),
            "count": None if counts is None else int(counts[i]), "games": int(games[i].sum()),
            "vs_field": _rate(e0[i], e[:, i]), "tier": int(tier[i]), "rank": order.index(i) + 1,
            "best_response_chance": float(br[i]),
            "nash": {"weight": float(x0[i]), "ci95": _ci(xs[:, i]), "support_frequency": float(support[i])},
            "match_vs_field": {f"bo{k}": _rate(match0[k][i] @ s, match[k][:, i] @ s) for k in M.BEST_OF},
            "best_matchup": matchup(hi_j), "worst_matchup": matchup(lo_j),
            "polarity": {"sd": float(pol0[i]), "ci95": _ci(pol[:, i])},
            "swiss": swiss_lists[i],
            "drift": {"final_share": float(path0[-1, i]), "ci95": _ci(final[:, i])},
        })
    tiers: dict[int, list[str]] = {}
    for i in order:
        tiers.setdefault(tier[i], []).append(names[i])
    not_played = [[names[i], names[j]] for i, j in m.pairs() if games[i, j] == 0]
    return {
        "posterior": {"draws": st.draws, "model": P.DESCRIPTION, "seed": st.seed},
        "settings": asdict(st) | {"deck": names[st.deck] if st.deck is not None else None},
        "order": [names[i] for i in order],
        "lists": lists,
        "matrix": cells,
        "not_played": not_played,
        "best_response": {"list": names[best], "chance": float(br[best]),
                          "by_list": {names[i]: float(br[i]) for i in order}},
        "tiers": {str(k): v for k, v in sorted(tiers.items())},
        "nash": {"mix": {names[i]: float(x0[i]) for i in order if x0[i] > G.SUPPORT},
                 "value": v0, "value_ci95": _ci(vs),
                 "note": "the game is symmetric, so its value is 50% exactly; the solver's value is a check. "
                         "When several mixes are equilibria, the solver (SciPy's HiGHS) returns one of them."},
        "match": {"next_first": st.next_first, "game_1": "random (the Edge)",
                  "note": "the rules fix only game 1 (a random first player takes the Edge) and do not say who "
                          f"goes first in the later games: here --next-first {st.next_first}"
                          + (" (the default)" if st.next_first == M.DEFAULT_NEXT_FIRST
                             else f" (the default is {M.DEFAULT_NEXT_FIRST})")
                          + ". The loser, winner and alternate rules give the same "
                          "odds (checked in the tests); random differs a little."},
        "swiss": {"players": st.players, "rounds": st.rounds, "top": st.top, "tournaments": st.tournaments,
                  "field": "the field file's counts of players" if field_counts is not None
                  else "drawn from the shares", "matches": "best of 3", "pairing": "by record, rematches allowed",
                  "posterior_draws": int(bo3.shape[0]), "tournaments_per_draw": S.PER_DRAW,
                  "by_list": "lists[].swiss"},
        "mine": mine,
        "drift": {"generations": st.generations, "verdict": verdict, "lead_turns": [names[t] for t in turns],
                  "cycle_chance": float(cycling.mean()), "final": {names[i]: float(path0[-1, i]) for i in order},
                  "path": path0.tolist()},
    }


__all__ = ["Settings", "analyse"]
