"""Plan a simulation run: matchups, seats, seeds and batches, independent of the workers.

Every game's seed derives from the run seed through ``numpy.random.SeedSequence`` keyed by
(matchup, game), so the stored results are the same whatever the number of workers, the
backend, or the order in which batches finish.

``seed_groups`` gives common random numbers: studied decks of one group play the very same
seeds (and seats) against each opponent, so their results are paired game by game. The
engine shuffles a deck by position, so two decks that differ in one slot then play the same
game until that slot is drawn (``mythos optimize`` compares a deck with its variants so).
"""

from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass, field

import numpy as np

# The default player of simulations (`mythos simulate`, `mythos optimize`): one home, so a
# stronger default changes every command at once.
DEFAULT_POLICY = "greedy"


@dataclass(frozen=True)
class DeckSpec:
    """A deck as the simulation needs it: a name, its card versions (with repeats), 3 missions."""

    name: str
    cards: tuple[str, ...]
    missions: tuple[str, ...]

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
    matchups: list[Matchup] = field(default_factory=list)

    def plan(self) -> list[Matchup]:
        out = []
        for d in self.studied:
            for o in self.opponents:
                if d == o and not self.mirrors:
                    continue
                if self.round_robin and o < d and o in self.studied and d in self.opponents:
                    continue  # played already as o vs d (seats alternate, so the pair is complete)
                out.append(Matchup(len(out), d, o, f"{self.decks[d].name} vs {self.decks[o].name}"))
        self.matchups = out
        return out

    def jobs(self) -> list[GameJob]:
        if not self.matchups:
            self.plan()
        jobs = []
        root = np.random.SeedSequence(self.seed)
        group = opponent = None
        if self.seed_groups is not None:
            if len(self.seed_groups) != len(self.studied):
                raise ValueError(f"seed_groups has {len(self.seed_groups)} entries for {len(self.studied)} studied decks")
            group = dict(zip(self.studied, self.seed_groups))
            opponent = {o: i for i, o in enumerate(self.opponents)}
        for m in self.matchups:
            # paired: keyed by (group, opponent) rather than by matchup, so a group shares its seeds
            key = (m.index,) if group is None else (group[m.deck], opponent[m.opponent])
            seeds = np.random.SeedSequence(root.entropy, spawn_key=key).generate_state(self.games, dtype=np.uint64)
            for k in range(self.games):
                jobs.append(GameJob(len(jobs), m.index, k % 2, int(seeds[k] % (2**63))))
        return jobs

    def batches(self) -> list[list[GameJob]]:
        jobs = self.jobs()
        return [jobs[i:i + self.batch_size] for i in range(0, len(jobs), self.batch_size)]

    def to_json(self) -> dict:
        d = asdict(self)
        d.pop("matchups", None)
        return d

    @classmethod
    def from_json(cls, d: dict) -> "RunConfig":
        d = dict(d)
        d["decks"] = [DeckSpec(x["name"], tuple(x["cards"]), tuple(x["missions"])) for x in d["decks"]]
        return cls(**d)
