"""The matchup matrix of a field: every pair of lists, both seats, played until its answers are known.

Each unordered pair of different lists plays under one player (both sides) through the one way an
experiment plays games (``arms.play_run``: an ordinary ``sim`` run, stored in DuckDB, on all
cores or Dask, resumable). A list against itself wins 50% by construction and plays no game.

**A pair's games are a sequence of its own.** Game k of the pair {A, B} under seed s is the
same game in any field: its seed is spawned from s by the pair's *contents* (the two lists'
hashes, the lower first) and the block ``k // BLOCK`` of ``BLOCK`` games, and the lower-hash
list sits in seat 0 in the even games of a block. A run of the matrix is a list of such blocks
(``RunConfig.blocks``).

**Reuse.** Before playing, the matrix reads every stored game between two of its lists (by
content hash) with the same player spec for both sides, this engine version and card catalog
and each player's own mulligan rule, in any run (``store.experiment.pair_games``): a ``simulate``
round robin, an earlier ``meta``, … Those games count; a block of the pair's sequence whose
games are all stored already is never played again, and a game stored twice counts once. So an
interrupted ``meta`` continues where it stopped when the same command is run again, and gives
the answers an uninterrupted one gives.

**How many games.** A ``Target`` says, round by round, how many games each pair still needs:
``GamesTarget(n)`` plays every pair to n games; ``meta`` brings an adaptive one (the pairs whose
uncertainty still changes an answer). ``play_matrix`` plays round after round until the target
is met or the budget (new games) is spent, and says which stopped it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from mythos_cli import __version__
from mythos_cli.experiment.arms import ExperimentError, Progress, play_run
from mythos_cli.policies import make_policy
from mythos_cli.policies.players import is_python_spec
from mythos_cli.sim.plan import DeckSpec, RunConfig, default_batch_size, game_seeds
from mythos_cli.sim.runner import catalog_hash
from mythos_cli.store import Store
from mythos_cli.store import experiment as xstore

BLOCK = 10  # games of a pair's block: 5 with each list in seat 0
KEY_TAG = 0x6D657461  # "meta": a pair's seeds never share a spawn key with a simulate run's
MAX_BLOCKS = 1_000_000  # blocks a pair may look through for unplayed ones (10 million games)


@dataclass
class Matrix:
    """Stored games between the lists, by who had the first Edge (the seat that matters: it is
    random in every game, and its holder takes the first turn and wins ties).

    ``first_games[i, j]``: games of i against j in which i had the first Edge; ``first_wins[i, j]``
    those i won. (The games of i against j in which j had it are ``first_games[j, i]``, and i won
    ``first_games[j, i] − first_wins[j, i]`` of them.)"""

    lists: list[DeckSpec]
    first_games: np.ndarray
    first_wins: np.ndarray
    runs: list[str] = field(default_factory=list)  # the runs the games come from
    keys: dict[tuple[int, int], set[tuple[int, str]]] = field(default_factory=dict)  # pair -> (seed, seat-0 hash)

    @property
    def names(self) -> list[str]:
        return [d.name for d in self.lists]

    @property
    def size(self) -> int:
        return len(self.lists)

    def games(self) -> np.ndarray:
        """Games of each pair (symmetric; 0 on the diagonal)."""
        return self.first_games + self.first_games.T

    def wins(self) -> np.ndarray:
        """Wins of the row list against the column list, whoever had the Edge."""
        return self.first_wins + (self.first_games.T - self.first_wins.T)

    def pairs(self) -> list[tuple[int, int]]:
        return [(i, j) for i in range(self.size) for j in range(i + 1, self.size)]

    def total_games(self) -> int:
        return int(self.first_games.sum())

    def to_json(self) -> dict:
        g, w = self.games(), self.wins()
        return {"lists": [{"name": d.name, "hash": d.hash} for d in self.lists],
                "pairs": [{"a": self.lists[i].name, "b": self.lists[j].name, "games": int(g[i, j]),
                           "a_wins": int(w[i, j]), "a_first": {"games": int(self.first_games[i, j]),
                                                                "a_wins": int(self.first_wins[i, j])},
                           "b_first": {"games": int(self.first_games[j, i]),
                                       "a_wins": int(self.first_games[j, i] - self.first_wins[j, i])}}
                          for i, j in self.pairs()],
                "runs": self.runs}


def from_counts(lists: list[DeckSpec], first_games, first_wins) -> Matrix:
    """A matrix from counts (tests, benchmarks, a matrix kept elsewhere)."""
    fg, fw = np.asarray(first_games, dtype=np.int64), np.asarray(first_wins, dtype=np.int64)
    n = len(lists)
    if fg.shape != (n, n) or fw.shape != (n, n) or (fw > fg).any() or (fw < 0).any():
        raise ValueError("first_games and first_wins must be n × n counts with wins ≤ games")
    return Matrix(list(lists), fg, fw)


def read_matrix(store: Store, lists: list[DeckSpec], policy: str) -> Matrix:
    """Every stored game between two of the lists under ``policy`` (see the module's docstring)."""
    policy = player_spec(policy)
    n = len(lists)
    index = {d.hash: i for i, d in enumerate(lists)}
    if len(index) != n:
        raise ExperimentError("two lists of the field are the same list (the same cards and missions)",
                              "give each list once")
    fg = np.zeros((n, n), dtype=np.int64)
    fw = np.zeros((n, n), dtype=np.int64)
    keys: dict[tuple[int, int], set[tuple[int, str]]] = {}
    rows = xstore.pair_games(store, list(index), policy, __version__, catalog_hash())
    runs: set[str] = set()
    if rows.height:
        for h0, h1, seed, first, winner, run in rows.select("deck_0_hash", "deck_1_hash", "seed", "first_edge",
                                                             "winner", "run_id").iter_rows():
            a, b = index[h0], index[h1]
            holder, other = (a, b) if first == 0 else (b, a)
            fg[holder, other] += 1
            fw[holder, other] += int(winner == first)
            keys.setdefault((min(a, b), max(a, b)), set()).add((int(seed), h0))
            runs.add(run)
    return Matrix(list(lists), fg, fw, sorted(runs), keys)


def player_spec(policy: str) -> str:
    """A built-in player's spec as the games store it (``search`` is ``search:playouts=2,…``); a
    Python player's as given (it is the caller's own file: nothing is imported here)."""
    return policy if is_python_spec(policy) else make_policy(policy).spec


# -- a pair's sequence of games ---------------------------------------------------------------
def pair_order(lists: list[DeckSpec], i: int, j: int) -> tuple[int, int]:
    """The pair's lists in the order of their sequence: the lower content hash first."""
    return (i, j) if lists[i].hash <= lists[j].hash else (j, i)


def block_key(lists: list[DeckSpec], lo: int, hi: int, block: int) -> list[int]:
    return [KEY_TAG, int(lists[lo].hash, 16), int(lists[hi].hash, 16), block]


def block_games(seed: int, lists: list[DeckSpec], lo: int, hi: int, block: int) -> list[tuple[int, str]]:
    """The games of block ``block`` of the pair's sequence as (seed, hash of the seat-0 list)."""
    seeds = game_seeds(seed, tuple(block_key(lists, lo, hi, block)), 0, BLOCK)
    return [(s, lists[lo].hash if k % 2 == 0 else lists[hi].hash) for k, s in enumerate(seeds)]


def new_blocks(m: Matrix, seed: int, i: int, j: int, games: int) -> tuple[list[list[int]], int]:
    """Blocks of the pair's sequence to play for ``games`` more distinct games (each block not
    wholly stored, in order), as ``RunConfig.blocks`` rows, and the new games they hold."""
    lo, hi = pair_order(m.lists, i, j)
    stored = m.keys.get((min(i, j), max(i, j)), set())
    out: list[list[int]] = []
    new = 0
    b = 0
    while new < games and b < MAX_BLOCKS:
        fresh = sum(1 for g in block_games(seed, m.lists, lo, hi, b) if g not in stored) if stored else BLOCK
        if fresh:
            out.append([lo, hi, *block_key(m.lists, lo, hi, b)])
            new += fresh
        b += 1
    return out, new


# -- how many games ------------------------------------------------------------------------------
class Target(Protocol):
    """How many more games each pair needs, given the matrix so far and the games this round may take."""

    def wanted(self, m: Matrix, room: int | None) -> dict[tuple[int, int], int]:
        """Games to add per pair (i < j); empty when the target is met."""


@dataclass
class GamesTarget:
    """Every pair to ``games`` games (counting the stored ones)."""

    games: int

    def wanted(self, m: Matrix, room: int | None) -> dict[tuple[int, int], int]:
        g = m.games()
        return {(i, j): self.games - int(g[i, j]) for i, j in m.pairs() if g[i, j] < self.games}


@dataclass
class MatrixOutcome:
    matrix: Matrix
    played: int  # new games this call stored (a game it played again, stored before, is not new)
    reused: int  # games that were stored before it
    stopped: str  # "games" (every pair has them), "precision" (answers stable), "budget", "rounds" (cap)
    rounds: list[dict]
    runs: list[str]  # the runs this call played (or finished)
    budget: int | None

    def to_json(self) -> dict:
        return {"played": self.played, "reused": self.reused, "stopped": self.stopped, "rounds": self.rounds,
                "runs": self.runs, "budget": self.budget}


def round_config(m: Matrix, policy: str, seed: int, blocks: list[list[int]]) -> RunConfig:
    """The run that plays these blocks of the matrix (every list in its decks)."""
    used = sorted({b[0] for b in blocks}), sorted({b[1] for b in blocks})
    return RunConfig(decks=list(m.lists), opponents=used[1], studied=used[0], games=BLOCK, policy_a=policy,
                     policy_b=policy, mulligan=None, seed=seed, batch_size=default_batch_size(policy),
                     blocks=blocks,
                     # the caller named the player: a Python one is its own file (never one read from a run)
                     python_players={policy: policy} if is_python_spec(policy) else {})


def play_matrix(store: Store, lists: list[DeckSpec], policy: str, seed: int, target: Target, run_id: str, *,
                budget: int | None = None, max_rounds: int = 100, workers: int = 1, backend: str = "local",
                scheduler: str | None = None, progress: Progress | None = None) -> MatrixOutcome:
    """Play the matrix round by round until ``target`` wants nothing more, or ``budget`` games are
    played (a round's last blocks are cut to fit it, taken in turn from each pair). Round k is run
    ``RUN_ID-rk`` (numbered on from the rounds of ``RUN_ID`` stored already). Raises ``sim.Interrupted`` on Ctrl-C (what is stored stays, and the same call
    again continues) and ``ExperimentError`` for a field it cannot play."""
    if len(lists) < 2:
        raise ExperimentError("a field needs at least two different lists", "add lists to the field")
    policy = player_spec(policy)
    m = read_matrix(store, lists, policy)
    reused = m.total_games()
    spent = played = 0
    rounds: list[dict] = []
    runs: list[str] = []
    met = "games" if isinstance(target, GamesTarget) else "precision"
    stopped = "rounds"
    first = _next_round(store, run_id)
    for k in range(first, first + max_rounds):
        room = None if budget is None else budget - spent
        wanted = target.wanted(m, room)
        if not wanted:
            stopped = met
            break
        if room is not None and room < BLOCK:
            stopped = "budget"
            break
        blocks: list[list[int]] = []
        for (i, j), n in sorted(wanted.items()):
            blocks += new_blocks(m, seed, i, j, n)[0]
        if room is not None and len(blocks) * BLOCK > room:
            blocks = _cut(blocks, room // BLOCK)
        if not blocks:  # every block of the wanted pairs is stored (cannot happen short of MAX_BLOCKS)
            stopped = met
            break
        rid = f"{run_id}-r{k}"
        pairs = len({(b[0], b[1]) for b in blocks})
        play_run(store, rid, f"meta {run_id}: round {k}", round_config(m, policy, seed, blocks), workers=workers,
                 backend=backend, scheduler=scheduler, progress=progress, label=f"round {k}: {pairs} pair{'' if pairs == 1 else 's'}")
        runs.append(rid)
        before = m.total_games()
        m = read_matrix(store, lists, policy)
        spent += len(blocks) * BLOCK
        played += m.total_games() - before
        rounds.append({"round": k, "run": rid, "pairs": pairs, "games": len(blocks) * BLOCK,
                       "new_games": m.total_games() - before})
    return MatrixOutcome(m, played, reused, stopped, rounds, runs, budget)


def _next_round(store: Store, run_id: str) -> int:
    """The first round number free for ``run_id``: a matrix run again under its id goes on from its
    last round (whose games it reuses)."""
    prefix = f"{run_id}-r"
    taken = [int(r[len(prefix):]) for r in store.runs()["run_id"].to_list()
             if r.startswith(prefix) and r[len(prefix):].isdigit()]
    return max(taken, default=0) + 1


def _cut(blocks: list[list[int]], keep: int) -> list[list[int]]:
    """``keep`` of the blocks, taken in turn from each pair (its first blocks first)."""
    by_pair: dict[tuple[int, int], list[list[int]]] = {}
    for b in blocks:
        by_pair.setdefault((b[0], b[1]), []).append(b)
    out: list[list[int]] = []
    depth = 0
    while len(out) < keep and any(depth < len(v) for v in by_pair.values()):
        for v in by_pair.values():
            if depth < len(v) and len(out) < keep:
                out.append(v[depth])
        depth += 1
    return out


def seat_rates(m: Matrix) -> tuple[np.ndarray, np.ndarray]:
    """Observed win rates of the row list with the first Edge and without it (NaN: no game)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        first = m.first_wins / m.first_games
        second = (m.first_games.T - m.first_wins.T) / m.first_games.T
    return first, second


__all__ = ["BLOCK", "GamesTarget", "Matrix", "MatrixOutcome", "Target", "block_games", "from_counts", "new_blocks",
           "pair_order", "play_matrix", "read_matrix", "round_config", "seat_rates"]
