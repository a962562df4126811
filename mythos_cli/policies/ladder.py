"""A round-robin ladder between policies, rated with a Bradley-Terry model.

Every pair of policies plays every ordered pair of decks from both seats, so seat and deck
advantages cancel. Ratings come from a binomial GLM (logit link, fitted by IRLS) on the pairwise results,
with half a win and half a loss added to every pair so that a clean sweep still has a finite
rating; they are shown on the Elo scale (400 / ln 10 per logit) with 95% intervals.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from typing import Callable, Sequence

import numpy as np

from mythos_cli import _core, stops
from mythos_cli.policies.match import Deck
from mythos_cli.policies.players import make_policy

ELO = 400.0 / math.log(10.0)


@dataclass(frozen=True, slots=True)
class Pairing:
    a: str  # policy spec in seat 0
    b: str
    deck_a: int
    deck_b: int
    seed: int


@dataclass
class Rating:
    policy: str
    elo: float
    low: float
    high: float
    games: int
    wins: int


@dataclass
class LadderResult:
    ratings: list[Rating]
    pairwise: dict[tuple[str, str], tuple[int, int]]  # (p, q) -> (wins of p over q, games)
    games: int
    errors: list[str] = field(default_factory=list)

    def win_rate(self, p: str, q: str) -> float:
        w, n = self.pairwise.get((p, q), (0, 0))
        return w / n if n else float("nan")


def plan(specs: Sequence[str], n_decks: int, games: int, seed: int) -> list[Pairing]:
    """``games`` games per policy pair, cycling through deck pairs and alternating seats."""
    seq = np.random.SeedSequence(seed)
    pairs = list(itertools.combinations(specs, 2))
    deck_pairs = [(i, j) for i in range(n_decks) for j in range(n_decks)]
    out = []
    for (p, q), child in zip(pairs, seq.spawn(len(pairs))):
        seeds = child.generate_state(games, dtype=np.uint32)
        for k in range(games):
            da, db = deck_pairs[(k // 2) % len(deck_pairs)]
            if k % 2 == 0:
                out.append(Pairing(p, q, da, db, int(seeds[k])))
            else:  # mirrored: same decks, seats swapped
                out.append(Pairing(q, p, db, da, int(seeds[k])))
    return out


def _play(args) -> list[tuple[str, str, int]]:
    """A chunk of pairings of the same two players, played inside the core: (a, b, winner) each."""
    chunk, decks = args
    a, b = chunk[0].a, chunk[0].b
    from mythos_cli import _core

    rows = _core.play_matches([(list(d.cards), list(d.missions)) for d in decks],
                              [(j.deck_a, j.deck_b, j.seed) for j in chunk], a, b)
    return [(a, b, row[0]) for row in rows]


def _chunks(jobs: list[Pairing], size: int = 25) -> list[list[Pairing]]:
    """Consecutive pairings with the same players in seat 0 and seat 1, at most ``size`` a chunk."""
    out: list[list[Pairing]] = []
    for j in jobs:
        if out and len(out[-1]) < size and (out[-1][0].a, out[-1][0].b) == (j.a, j.b):
            out[-1].append(j)
        else:
            out.append([j])
    return out


def run_ladder(decks: Sequence[Deck], specs: Sequence[str], games: int, seed: int, *, workers: int = 1,
               progress: Callable[[int], None] | None = None) -> LadderResult:
    """Every pair of players ``games`` times over the decks (seats and decks mirrored), rated.

    The built-in players play inside the core (a player written in Python is refused here: the
    ladder rates the built-in ones). Raises ``stops.Stopped`` on Ctrl-C or SIGTERM."""
    for s in specs:
        if not make_policy(s).builtin:  # refuses a bad spec before playing anything
            from mythos_cli.policies.players import PolicySpecError

            raise PolicySpecError(f"{s}: the ladder rates the built-in players; play a Python player with "
                                  "mythos simulate --policy-a")
    jobs = plan(specs, len(decks), games, seed)
    by_pair = sorted(range(len(jobs)), key=lambda k: (specs.index(jobs[k].a), specs.index(jobs[k].b), k))
    chunks = _chunks([jobs[k] for k in by_pair])
    tally: dict[tuple[str, str], list[int]] = {}
    results = []
    try:
        if workers > 1:
            pool = stops.pool(workers)  # its workers stop with the command, and none is left behind
            failed = True
            try:
                for res in pool.map(_play, [(c, list(decks)) for c in chunks]):
                    results.extend(res)
                    if progress:
                        progress(len(res))
                failed = False
            finally:
                stops.close(pool, stopping=failed)
        else:
            for c in chunks:
                res = _play((c, list(decks)))
                results.extend(res)
                if progress:
                    progress(len(res))
    except (KeyboardInterrupt, _core.Cancelled):  # Ctrl-C or SIGTERM (``stops``): nothing is rated
        raise stops.current().stopped(len(results), len(jobs)) from None
    for a, b, winner in results:
        w, l = (a, b) if winner == 0 else (b, a)
        tally.setdefault((w, l), [0, 0])[0] += 1
        for key in ((a, b), (b, a)):
            tally.setdefault(key, [0, 0])[1] += 1
    pairwise = {k: (v[0], v[1]) for k, v in tally.items()}
    return LadderResult(bradley_terry(list(specs), pairwise), pairwise, len(jobs))


def bradley_terry(players: list[str], pairwise: dict[tuple[str, str], tuple[int, int]]) -> list[Rating]:
    """Fit strengths with a binomial GLM; the first player is the anchor (rating 0)."""
    from mythos_cli.stats import logistic_fit

    rows, wins, trials = [], [], []
    for i, j in itertools.combinations(range(len(players)), 2):
        p, q = players[i], players[j]
        w, n = pairwise.get((p, q), (0, 0))
        if n == 0:
            continue
        x = np.zeros(len(players) - 1)
        if i > 0:
            x[i - 1] = 1.0
        if j > 0:
            x[j - 1] = -1.0
        rows.append(x)
        wins.append(w + 0.5)  # half a win and half a loss: a clean sweep keeps a finite rating
        trials.append(n + 1.0)
    totals = {p: [0, 0] for p in players}
    for (p, q), (w, n) in pairwise.items():
        totals[p][0] += w
        totals[p][1] += n
    if not rows:
        return [Rating(p, 0.0, float("nan"), float("nan"), totals[p][1], totals[p][0]) for p in players]
    params, ci = logistic_fit(np.array(rows), np.array(wins), np.array(trials))
    out = [Rating(players[0], 0.0, 0.0, 0.0, totals[players[0]][1], totals[players[0]][0])]
    for k, p in enumerate(players[1:]):
        out.append(Rating(p, float(params[k] * ELO), float(ci[k][0] * ELO), float(ci[k][1] * ELO), totals[p][1],
                          totals[p][0]))
    return sorted(out, key=lambda r: -r.elo)
