"""Plan a simulation run: matchups, seats, seeds and batches, independent of the workers.

Every game's seed derives from the run seed through ``numpy.random.SeedSequence`` keyed by
(matchup, game), so the stored results are the same whatever the number of workers, the
backend, or the order in which batches finish.
"""

from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass, field

import numpy as np


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
        for m in self.matchups:
            seeds = np.random.SeedSequence(root.entropy, spawn_key=(m.index,)).generate_state(self.games, dtype=np.uint64)
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
