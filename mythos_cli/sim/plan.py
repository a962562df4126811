"""Plan a simulation run: matchups, seats, seeds and batches, independent of the workers.

Every game's seed derives from the run seed through ``numpy.random.SeedSequence`` keyed by
(matchup, game), so the stored results are the same whatever the number of workers, the
backend, or the order in which batches finish.

``seed_groups`` gives common random numbers: studied decks of one group play the very same
seeds (and seats) against each opponent, so their results are paired game by game. The
engine shuffles a deck by position, so two decks that differ in one slot then play the same
game until that slot is drawn (``mythos optimize`` compares a deck with its variants so).

Nothing is planned up front but the matchups: a batch's games and seeds are derived when the
batch is played (``RunConfig.batch``), so a run's size costs no memory. Game k of a matchup
(of a seed group against an opponent, when paired) takes words 2k and 2k+1 of its
``SeedSequence``'s ``generate_state`` stream; ``_words``
computes any word of that stream directly (the stream's hash has a closed form), checked
against numpy itself at import, so the seeds are those of ``generate_state(games)[k]``.
"""

from __future__ import annotations

import hashlib
import math
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

# The default player of simulations (`mythos simulate`, `mythos optimize`): one home, so a
# stronger default changes every command at once. The search player at its default budget (it
# beats lookahead 67.8% of the time, benchmarks/ladder.md; about 25 games per CPU-second on an idle
# core, benchmarks/bench_default_player.py).
DEFAULT_POLICY = "search"

# Bounds of a run. A run's game numbers are 32-bit integers in the database, and a batch is
# held in a worker's memory (about 1 KB a game), so both are capped with room to spare.
MAX_GAMES = 10_000_000  # games per matchup (--games)
MAX_RUN_GAMES = 1_000_000_000  # games of a whole run (matchups × games)
MAX_BATCH = 100_000  # games per stored batch (--batch-size)
MAX_SEED = 2**64 - 1  # seeds are stored as UBIGINT
# A batch is what a worker plays in one call, what the writer stores in one go and what a resume
# redoes at most. The fast built-in players make thousands of games a second, where 50-game
# batches leave the time to the hand-over and the writer (a million greedy games: 168 s with
# 50-game batches, 83 s with 500; benchmarks/README.md); the slow ones keep small batches so
# that the progress bar moves and an interruption loses little.
FAST_PLAYERS = ("random", "greedy", "tempo", "ambush", "control")
FAST_BATCH, SLOW_BATCH = 500, 50


def default_batch_size(*policies: str) -> int:
    """Games per batch when ``--batch-size`` is not given: large when every player is fast."""
    fast = all(p.split(":", 1)[0] in FAST_PLAYERS for p in policies)
    return FAST_BATCH if fast else SLOW_BATCH


def max_workers() -> int:
    """The most local worker processes a run starts on this machine: one a core (a game is
    CPU-bound: more processes only add memory and switching)."""
    return os.cpu_count() or 1


# the forced mulligan answers a plan may give a studied deck (``RunConfig.forced_mulligans``)
FORCED_ANSWERS = {"keep": False, "mulligan": True, None: None}


class PlanError(ValueError):
    """A run that cannot be planned (out of bounds), said with the valid range."""


@dataclass(frozen=True)
class DeckSpec:
    """A deck as the simulation needs it: a name, its card versions (with repeats), 3 missions."""

    name: str
    cards: tuple[str, ...]
    missions: tuple[str, ...]

    @classmethod
    def from_json(cls, x: dict) -> "DeckSpec":
        """The deck a stored config holds (``dataclasses.asdict`` of one); a damaged one raises
        ``KeyError`` or ``TypeError``."""
        return cls(str(x["name"]), tuple(map(str, x["cards"])), tuple(map(str, x["missions"])))

    @property
    def hash(self) -> str:
        text = "|".join(sorted(self.cards)) + "#" + "|".join(sorted(self.missions))
        return hashlib.sha256(text.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class Matchup:
    index: int
    deck: int  # index into the run's deck list: the deck under study
    opponent: int
    label: str


@dataclass(frozen=True)
class GameJob:
    game_no: int
    matchup: int
    seat_of_deck: int  # 0: the studied deck sits in seat 0
    seed: int


@dataclass
class RunConfig:
    decks: list[DeckSpec]
    opponents: list[int]  # indices into decks
    studied: list[int]
    games: int  # per matchup (seats alternate)
    policy_a: str  # the studied deck's policy
    policy_b: str  # the opponents' policy
    mulligan: str | None
    seed: int
    mirrors: bool = False
    batch_size: int = 50
    round_robin: bool = False  # each pair of decks once (not A vs B and B vs A)
    # per studied deck (in ``studied`` order) its seed group, or None: every matchup its own seeds
    seed_groups: list[int] | None = None
    # explicit matchups instead of studied × opponents: each ``[deck, opponent, *key]`` plays
    # ``games`` games whose seeds are spawned by ``key`` (``meta``'s matrix keys a pair's blocks of
    # games by the two lists' contents, so that a pair's games are the same in any field)
    blocks: list[list[int]] | None = None
    # per studied deck (in ``studied`` order) its forced mulligan answer: "keep", "mulligan", or
    # None (its player decides); the mulligan experiment plays each deal kept and mulliganed
    forced_mulligans: list[str | None] | None = None
    matchups: list[Matchup] = field(default_factory=list)
    # Never stored, never read from a database: for each Python player of the run (its spec as
    # stored), the spec the user named for it on this command line; the only way a Python player
    # is imported (``policies.stored_policy``). A run's stored spec is data.
    python_players: dict[str, str] = field(default_factory=dict, compare=False)

    def plan(self) -> list[Matchup]:
        out = []
        if self.blocks is not None:
            for d, o, *_ in self.blocks:
                out.append(Matchup(len(out), d, o, f"{self.decks[d].name} vs {self.decks[o].name}"))
            self.matchups = out
            return out
        for d in self.studied:
            for o in self.opponents:
                if d == o and not self.mirrors:
                    continue
                if self.round_robin and o < d and o in self.studied and d in self.opponents:
                    continue  # played already as o vs d (seats alternate, so the pair is complete)
                out.append(Matchup(len(out), d, o, f"{self.decks[d].name} vs {self.decks[o].name}"))
        self.matchups = out
        return out

    def check(self) -> None:
        """Raise ``PlanError`` when the run is out of bounds (games, batch size, seed, its size)."""
        if isinstance(self.games, bool) or not isinstance(self.games, int) or not 1 <= self.games <= MAX_GAMES:
            raise PlanError(f"games per matchup must be a whole number from 1 to {MAX_GAMES:,}, not {self.games!r}")
        if isinstance(self.batch_size, bool) or not isinstance(self.batch_size, int) \
                or not 1 <= self.batch_size <= MAX_BATCH:
            raise PlanError(f"the batch size must be a whole number from 1 to {MAX_BATCH:,}, not {self.batch_size!r}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or not 0 <= self.seed <= MAX_SEED:
            raise PlanError(f"the seed must be a whole number from 0 to 2^64 - 1 ({MAX_SEED}), not {self.seed!r}")
        if self.seed_groups is not None and (
                not isinstance(self.seed_groups, list) or len(self.seed_groups) != len(self.studied)
                or not all(isinstance(g, int) and not isinstance(g, bool) and g >= 0 for g in self.seed_groups)):
            raise PlanError(f"seed_groups must list a whole number from 0 for each of the {len(self.studied)} "
                            "studied decks")
        if self.blocks is not None:
            if self.seed_groups is not None:
                raise PlanError("a run has either seed_groups or blocks, not both")
            if not isinstance(self.blocks, list) or not all(
                    isinstance(b, list) and len(b) >= 3
                    and all(isinstance(k, int) and not isinstance(k, bool) and k >= 0 for k in b)
                    and b[0] < len(self.decks) and b[1] < len(self.decks) for b in self.blocks):
                raise PlanError(f"blocks must list [deck, opponent, key…] of whole numbers from 0, decks below "
                                f"{len(self.decks)}")
        if self.forced_mulligans is not None and (
                not isinstance(self.forced_mulligans, list) or len(self.forced_mulligans) != len(self.studied)
                or not all((f is None or isinstance(f, str)) and f in FORCED_ANSWERS for f in self.forced_mulligans)):
            raise PlanError(f"forced_mulligans must give keep, mulligan or null for each of the {len(self.studied)} "
                            "studied decks")
        if not self.matchups:
            self.plan()
        total = self.planned_games()
        if total > MAX_RUN_GAMES:
            raise PlanError(f"{len(self.matchups)} matchups × {self.games:,} games = {total:,} games, more than a run "
                            f"holds ({MAX_RUN_GAMES:,}); lower --games, or split the decks over several runs")

    def planned_games(self) -> int:
        if not self.matchups:
            self.plan()
        return len(self.matchups) * self.games

    def batch_count(self) -> int:
        return math.ceil(self.planned_games() / self.batch_size)

    def batch(self, i: int) -> list["GameJob"]:
        """The games of batch ``i`` with their seeds, derived now (the run's batch ``i`` always)."""
        total = self.planned_games()
        first, stop = i * self.batch_size, min((i + 1) * self.batch_size, total)
        if not 0 <= first < total:
            raise IndexError(f"batch {i} of a run of {self.batch_count()} batches")
        jobs = []
        keys = self._seed_keys()
        j = first
        while j < stop:
            m, k0 = divmod(j, self.games)
            k1 = min(self.games, k0 + (stop - j))
            for k, seed in zip(range(k0, k1), game_seeds(self.seed, keys[m], k0, k1)):
                jobs.append(GameJob(m * self.games + k, m, k % 2, seed))
            j += k1 - k0
        return jobs

    def job(self, game_no: int) -> "GameJob | None":
        """The plan's game ``game_no`` (its matchup, seat and seed), derived alone, or None."""
        if isinstance(game_no, bool) or not isinstance(game_no, int) or not 0 <= game_no < self.planned_games():
            return None
        return self.batch(game_no // self.batch_size)[game_no % self.batch_size]

    def _seed_keys(self) -> list[tuple[int, ...]]:
        """Per matchup the ``spawn_key`` of its seeds: its index, or when paired (``seed_groups``)
        (group, opponent), so that the studied decks of a group share their seeds."""
        if self.blocks is not None:
            return [tuple(b[2:]) for b in self.blocks]
        if self.seed_groups is None:
            return [(m.index,) for m in self.matchups]
        if len(self.seed_groups) != len(self.studied):
            raise ValueError(f"seed_groups has {len(self.seed_groups)} entries for {len(self.studied)} studied decks")
        group = dict(zip(self.studied, self.seed_groups))
        opponent = {o: i for i, o in enumerate(self.opponents)}
        return [(group[m.deck], opponent[m.opponent]) for m in self.matchups]

    def forced_mulligan(self, matchup: int, seat_of_deck: int) -> tuple[bool | None, bool | None]:
        """Per seat, the mulligan answer the plan forces in a game of ``matchup`` (True: mulligan;
        None: the seat's player decides). Only a studied deck's seat is ever forced."""
        if self.forced_mulligans is None:
            return (None, None)
        if not self.matchups:
            self.plan()
        m = self.matchups[matchup]
        answer = FORCED_ANSWERS[self.forced_mulligans[self.studied.index(m.deck)]]
        return (answer, None) if seat_of_deck == 0 else (None, answer)

    def jobs(self) -> list[GameJob]:
        """Every game of the run (for small runs and tests: ``batch`` derives one batch at a time)."""
        return [job for b in self.batches() for job in b]

    def batches(self) -> "Batches":
        """The run's batches as a lazy sequence: each is derived when it is read."""
        if not self.matchups:
            self.plan()
        return Batches(self)

    def to_json(self) -> dict:
        # by hand, not dataclasses.asdict (which deep-copies every string): an experiment's run
        # holds thousands of decks, and its configuration is written and compared a few times
        skip = ("decks", "matchups", "python_players")
        d = {f: getattr(self, f) for f in self.__dataclass_fields__ if f not in skip}
        d["decks"] = [{"name": x.name, "cards": x.cards, "missions": x.missions} for x in self.decks]
        for key in ("opponents", "studied", "seed_groups", "forced_mulligans"):
            if d[key] is not None:
                d[key] = list(d[key])
        if d["blocks"] is not None:  # meta's blocks: [deck, opponent, key…] lists, as JSON keeps them
            d["blocks"] = [list(b) for b in d["blocks"]]
        out = {f: d[f] for f in self.__dataclass_fields__ if f not in ("matchups", "python_players")}
        if out.get("forced_mulligans") is None:  # the runs stored before it existed read the same
            out.pop("forced_mulligans", None)
        if out["blocks"] is None:  # the runs stored before blocks existed read the same
            out.pop("blocks")
        return out

    @classmethod
    def from_json(cls, d) -> "RunConfig":
        """The config ``to_json`` wrote; a damaged one raises ``PlanError`` naming what is wrong."""
        if not isinstance(d, dict):
            raise PlanError(f"the configuration is a JSON {type(d).__name__}, not an object")

        def field_(key: str, kinds: tuple, default=...):
            if key not in d:
                if default is ...:
                    raise PlanError(f"the configuration has no {key!r}")
                return default
            v = d[key]
            if isinstance(v, bool) and bool not in kinds or not isinstance(v, kinds):
                raise PlanError(f"{key!r} is {json_type(v)}, not {' or '.join(json_type(k) for k in kinds)}")
            return v

        decks = []
        for i, x in enumerate(field_("decks", (list,))):
            if not isinstance(x, dict):
                raise PlanError(f"decks[{i}] is {json_type(x)}, not an object")
            name, cards, missions = x.get("name"), x.get("cards"), x.get("missions")
            # lists as JSON gives them back; tuples as ``to_json`` (``asdict``) leaves them
            if not isinstance(name, str) or not isinstance(cards, (list, tuple)) \
                    or not isinstance(missions, (list, tuple)) or not all(isinstance(c, str) for c in (*cards, *missions)):
                raise PlanError(f"decks[{i}] needs a name and lists of card ids (cards, missions)")
            decks.append(DeckSpec(name, tuple(cards), tuple(missions)))
        lists = {}
        for key in ("opponents", "studied"):
            v = field_(key, (list,))
            if not all(isinstance(k, int) and not isinstance(k, bool) and 0 <= k < len(decks) for k in v):
                raise PlanError(f"{key!r} must list deck numbers from 0 to {len(decks) - 1}")
            lists[key] = list(v)
        mulligan = field_("mulligan", (str, type(None)), None)
        cfg = cls(decks=decks, opponents=lists["opponents"], studied=lists["studied"], games=field_("games", (int,)),
                  policy_a=field_("policy_a", (str,)), policy_b=field_("policy_b", (str,)), mulligan=mulligan,
                  seed=field_("seed", (int,)), mirrors=field_("mirrors", (bool,), False),
                  batch_size=field_("batch_size", (int,), 50), round_robin=field_("round_robin", (bool,), False),
                  seed_groups=field_("seed_groups", (list, type(None)), None),
                  blocks=field_("blocks", (list, type(None)), None),
                  forced_mulligans=field_("forced_mulligans", (list, type(None)), None))
        cfg.check()
        return cfg


def json_type(v) -> str:
    kind = v if isinstance(v, type) else type(v)
    return {bool: "a boolean", int: "a whole number", float: "a number", str: "a string", list: "a list",
            dict: "an object", type(None): "null"}.get(kind, kind.__name__)


class Batches(Sequence):
    """``RunConfig.batches()``: indexable and iterable like a list, each batch derived on access."""

    def __init__(self, config: RunConfig):
        self.config = config
        self._n = config.batch_count()

    def __len__(self) -> int:
        return self._n

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self.config.batch(k) for k in range(*i.indices(self._n))]
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError(i)
        return self.config.batch(i)


def game_seeds(seed: int, key: tuple[int, ...], start: int, stop: int) -> list[int]:
    """The seeds of games ``start``..``stop`` of the matchup whose seeds ``key`` spawns from the
    run seed: game k takes words 2k and 2k+1 of the stream (what ``RunConfig.batch`` plays)."""
    w = _words(_pool(seed, tuple(key)), 2 * start, 2 * stop)
    return [(w[2 * i] | w[2 * i + 1] << 32) % (2**63) for i in range(stop - start)]


# -- the seeds: SeedSequence.generate_state, any word of it ------------------------------------
_M32 = (1 << 32) - 1
_INIT_B, _MULT_B, _XSHIFT = 0x8B51F9DD, 0x58F38DED, 16  # numpy's SeedSequence output hash


@lru_cache(maxsize=4096)
def _pool(seed: int, key: tuple[int, ...]) -> tuple[int, ...]:
    root = np.random.SeedSequence(seed)
    return tuple(int(v) for v in np.random.SeedSequence(root.entropy, spawn_key=key).pool)


def _words_direct(pool: tuple[int, ...], start: int, stop: int) -> list[int]:
    """Words ``start``..``stop`` of ``generate_state`` (uint32): word i mixes pool[i mod n] with
    INIT_B·MULT_B^i and INIT_B·MULT_B^(i+1), so it needs no earlier word."""
    n = len(pool)
    h = _INIT_B * pow(_MULT_B, start, 1 << 32) & _M32
    out = []
    for i in range(start, stop):
        v = pool[i % n] ^ h
        h = h * _MULT_B & _M32
        v = v * h & _M32
        out.append(v ^ v >> _XSHIFT)
    return out


def _numpy_agrees() -> bool:
    ss = np.random.SeedSequence(np.random.SeedSequence(20261129).entropy, spawn_key=(3,))
    pool = tuple(int(v) for v in ss.pool)
    ref = [int(v) for v in ss.generate_state(40, dtype=np.uint32)]
    ref64 = [int(v) for v in ss.generate_state(20, dtype=np.uint64)]
    w = _words_direct(pool, 0, 40)
    return w == ref and _words_direct(pool, 17, 33) == ref[17:33] and \
        [w[2 * k] | w[2 * k + 1] << 32 for k in range(20)] == ref64


if _numpy_agrees():
    _words = _words_direct
else:  # pragma: no cover - a numpy whose SeedSequence hash changed: derive from numpy, slower
    def _words(pool: tuple[int, ...], start: int, stop: int) -> list[int]:
        raise PlanError("numpy's SeedSequence no longer matches the seeds mythos plans with; "
                        "install numpy < 3 or report this to mythos")
