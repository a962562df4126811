"""The missions experiment: which three missions to bring, tried on common random numbers.

One implementation for ``mythos experiment missions`` and ``mythos optimize --missions``:
given a deck, a field with its shares, a set of candidate missions, a player and a budget of
games, ``choose`` returns every selection it raced, ranked, with its paired gain over the
deck's own three missions and an interval corrected for the number of selections tried, and
the best one confirmed on fresh seeds.

* **Selections.** Every 3 of the candidates. A selection keeps each of the deck's own missions
  in its slot and puts the others in the free slots, so two selections that share a mission
  play it in the same slot: the engine draws a player's two missions in play by slot, so two
  decks that differ in one mission play the very same game whenever that slot is set aside.
* **Screen** (when there are more selections than a race takes): random selections play the
  field in groups that share their seeds; a ridge regression of the results on the missions
  coming in and going out (``experiment.stats.fit_screen``) ranks every selection by the sum
  of its missions' values. It only ranks: nothing reported comes from it.
* **Race.** The best-ranked selections and the deck's own play fresh seeds each round against
  every field deck (common random numbers: the same seeds, seats and opponents); the better
  half by paired gain goes on (successive halving) until one is left or the race's budget is
  spent.
* **Confirmation.** The race's winner and the deck's own missions play fresh seeds, none of
  the race's; the gain reported is that paired difference (Agresti–Min, the field's decks in
  their shares), its interval Bonferroni-corrected for every selection raced. A lower bound
  above 0 is advice to bring the selection; otherwise, keep the deck's own missions.

Every stage is an ordinary run (``ID-screen``, ``ID-r1`` …, ``ID-confirm``) played by
``experiment.arms.play_arms``: reproducible from the seed whatever the workers or backend, and
resumable (a stored stage is read back, not played again).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import asdict, dataclass, field

import numpy as np

from mythos_cli.experiment.arms import PREFIX, ExperimentError, ExperimentInterrupted, Progress, pair, play_arms, same_json
from mythos_cli.experiment.stats import Gain, Pairs, fit_screen, gain
from mythos_cli.sim import Interrupted
from mythos_cli.sim.plan import DeckSpec
from mythos_cli.store import Store, StoreError
from mythos_cli.store import experiment as xstore

KIND = "missions"
OWN = PREFIX + "own missions"
DEFAULT_BUDGET = 6000


class MissionsInterrupted(ExperimentInterrupted):
    """A missions experiment stopped: ``stored`` games of its budget (``planned``) are kept."""


@dataclass
class MissionsConfig:
    """Everything a missions experiment depends on (stored with it, so it can be resumed)."""

    deck: DeckSpec
    field: list[DeckSpec]
    shares: list[float]
    candidates: list[str]  # mission ids, the deck's own among them
    budget: int
    policy: str
    seed: int
    batch_size: int = 50
    race_size: int = 12  # selections that race at most
    screen_share: float = 0.3  # of the budget, for the screen (when there is one)
    confirm_share: float = 0.3  # of the budget, for the confirmation (it also gets what the race leaves)
    screen_group: int = 8

    @property
    def shares_by_name(self) -> dict[str, float]:
        return {f.name: s for f, s in zip(self.field, self.shares)}

    def unit(self, decks: int) -> int:
        """Games for ``decks`` studied decks to play each field deck once in each seat."""
        return 2 * decks * len(self.field)

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, d: dict) -> "MissionsConfig":
        d = dict(d)
        d["deck"] = DeckSpec.from_json(d["deck"])
        d["field"] = [DeckSpec.from_json(x) for x in d["field"]]
        return cls(**d)


def selections(own: tuple[str, ...], candidates: list[str]) -> list[tuple[str, str, str]]:
    """Every 3 of the candidates, slot-aligned with the deck's own missions (see the module doc)."""
    out = []
    for combo in itertools.combinations(sorted(set(candidates) | set(own)), 3):
        slots: list[str | None] = [m if m in combo else None for m in own]
        rest = iter(sorted(m for m in combo if m not in own))
        out.append(tuple(m if m is not None else next(rest) for m in slots))
    return out


def label(selection: tuple[str, ...]) -> str:
    return " ".join(sorted(selection))


@dataclass
class Entry:
    """A selection in the race: its paired results against the deck's own missions."""

    missions: tuple[str, str, str]
    screen_value: float | None = None
    pairs: dict[str, Pairs] = field(default_factory=dict)
    rounds: int = 0
    estimate: Gain | None = None

    @property
    def name(self) -> str:
        return PREFIX + label(self.missions)


@dataclass
class Outcome:
    """What ``choose`` found: the race, ranked; the best selection's confirmation."""

    exp_id: str
    config: MissionsConfig
    selections: int  # every selection of the candidates
    tried: int  # selections raced (the Bonferroni count)
    ranked: list[Entry]  # the raced selections, best first (gains corrected for ``tried``)
    best: Entry | None
    confirmation: Gain | None
    spent: int
    runs: list[str]
    screened: int  # selections the screen played (0: no screen)

    @property
    def significant(self) -> bool:
        return self.confirmation is not None and self.confirmation.significant

    def to_json(self) -> dict:
        own = tuple(self.config.deck.missions)
        return {"experiment": self.exp_id, "deck": self.config.deck.name, "own_missions": list(own),
                "candidates": list(self.config.candidates), "selections": self.selections, "tried": self.tried,
                "screened": self.screened, "games": self.spent, "runs": self.runs, "policy": self.config.policy,
                "seed": self.config.seed, "shares": self.config.shares_by_name,
                "ranked": [{"missions": list(e.missions), "rounds": e.rounds,
                            "gain": e.estimate.to_json() if e.estimate else None} for e in self.ranked],
                "best": list(self.best.missions) if self.best else None,
                "confirmation": self.confirmation.to_json() if self.confirmation else None,
                "advice": "bring" if self.significant else "keep"}


def _stage_seed(seed: int, *key: int) -> int:
    return int(np.random.SeedSequence(seed, spawn_key=(7,) + key).generate_state(1, dtype=np.uint64)[0] % (2 ** 63))


class _Chooser:
    def __init__(self, store: Store, exp_id: str, cfg: MissionsConfig, shares: dict[str, float], *, workers: int,
                 backend: str, scheduler: str | None, progress: Progress | None):
        # the race's path follows the experiment's own shares (so that a stored experiment reads back
        # the same runs); ``shares`` weighs only the gains reported
        self.store, self.exp_id, self.cfg, self.shares = store, exp_id, cfg, shares
        self.path_shares = cfg.shares_by_name
        self.workers, self.backend, self.scheduler = workers, backend, scheduler
        self.progress = progress or Progress()
        self.spent = 0
        self.runs: list[str] = []

    def deck(self, name: str, missions) -> DeckSpec:
        return DeckSpec(name, self.cfg.deck.cards, tuple(missions))

    def play(self, run_id: str, label_: str, studied: list[DeckSpec], games: int, seed: int,
             groups: list[int]) -> dict[str, list[tuple]]:
        cfg = self.cfg
        planned = games * len(studied) * len(cfg.field)
        if self.spent + planned > cfg.budget:
            raise AssertionError(f"stage {label_} would exceed the budget")  # the planning is wrong: a bug
        try:
            out = play_arms(self.store, run_id, f"missions {self.exp_id}: {label_}", studied, cfg.field, games,
                            cfg.policy, seed, groups, batch_size=max(10, min(cfg.batch_size, math.ceil(planned / 8))),
                            workers=self.workers, backend=self.backend, scheduler=self.scheduler,
                            progress=self.progress, label=label_)
        except Interrupted as exc:
            raise MissionsInterrupted(self.exp_id, self.spent + xstore.stored_games(self.store, run_id), cfg.budget,
                                      exc.signal) from None
        self.spent += planned
        self.runs.append(run_id)
        return out

    def screen(self, others: list[tuple], budget: int) -> dict[tuple, float]:
        cfg = self.cfg
        own = tuple(cfg.deck.missions)
        per = cfg.unit(1)
        n_groups = budget // (per * cfg.screen_group)
        n = min(len(others), n_groups * cfg.screen_group)
        rng = np.random.default_rng(np.random.SeedSequence(cfg.seed, spawn_key=(7, 1)))
        picked = [others[i] for i in sorted(rng.choice(len(others), size=n, replace=False))]
        rng.shuffle(picked)
        groups = [i // cfg.screen_group for i in range(len(picked))]
        specs = [self.deck(f"{PREFIX}screen {label(s)}", s) for s in picked]
        results = self.play(f"{self.exp_id}-screen", f"screen: {len(specs)} selections", specs, 2,
                            _stage_seed(cfg.seed, 1), groups)
        cells: dict[tuple, int] = {}
        rows = []
        for spec in specs:
            rows.append([(cells.setdefault((o, seat, s), len(cells)), float(won), self.path_shares.get(o, 0.0))
                         for o, seat, s, won in results[spec.name]])
        feats = [[("in", m, True) for m in s if m not in own] + [("out", m, True) for m in own if m not in s]
                 for s in picked]
        fit = fit_screen(feats, groups, rows)
        return {s: sum(fit.values.get(("in", m, True), 0.0) for m in s if m not in own)
                + sum(fit.values.get(("out", m, True), 0.0) for m in own if m not in s) for s in others}

    def race(self, entries: list[Entry], budget: int) -> None:
        own = self.deck(OWN, self.cfg.deck.missions)
        alive, left, rnd = list(entries), budget, 0
        while alive:
            rounds_left = max(1, math.ceil(math.log2(len(alive)))) if len(alive) > 1 else 1
            g = 2 * ((left // rounds_left) // self.cfg.unit(len(alive) + 1))
            if g < 2:
                break
            rnd += 1
            results = self.play(f"{self.exp_id}-r{rnd}", f"race round {rnd}: {len(alive)} selection(s)",
                                [own] + [self.deck(e.name, e.missions) for e in alive], g,
                                _stage_seed(self.cfg.seed, 2, rnd), [0] * (len(alive) + 1))
            left -= g * (len(alive) + 1) * len(self.cfg.field)
            for e in alive:
                new = pair(results, e.name, own.name)
                e.pairs = {o: e.pairs.get(o, Pairs()).merge(p) for o, p in new.items()}
                e.rounds = rnd
            if len(alive) == 1:
                break
            for e in alive:
                e.estimate = gain(e.pairs, self.path_shares)
            alive = sorted(alive, key=lambda e: (-e.estimate.gain, e.name))[:max(1, math.ceil(len(alive) / 2))]
            if len(alive) == 1:
                break

    def run(self) -> Outcome:
        cfg = self.cfg
        own = tuple(cfg.deck.missions)
        every = selections(own, cfg.candidates)
        others = [s for s in every if set(s) != set(own)]
        if not others:
            raise ExperimentError("the candidates give no selection other than the deck's own missions",
                                  "give more candidates (--missions all, or a list of mission ids)")
        reserve = math.ceil(cfg.budget * cfg.confirm_share)
        screened = 0
        if len(others) > cfg.race_size:
            values = self.screen(others, int(cfg.budget * cfg.screen_share))
            screened = min(len(others), (int(cfg.budget * cfg.screen_share) // (cfg.unit(1) * cfg.screen_group))
                           * cfg.screen_group)
            ranked = sorted(others, key=lambda s: (-values[s], label(s)))[:cfg.race_size]
            entries = [Entry(s, values[s]) for s in ranked]
        else:
            entries = [Entry(s) for s in others]
        self.race(entries, cfg.budget - reserve - self.spent)
        m = len(entries)
        played = [e for e in entries if e.pairs]
        # the best: the last round's leader by the experiment's own shares (the path it played)
        best = min(played, key=lambda e: (-e.rounds, -gain(e.pairs, self.path_shares).gain, e.name)) \
            if played else None
        for e in played:
            e.estimate = gain(e.pairs, self.shares, tests=m)
        ranked = sorted(played, key=lambda e: (e is not best, -e.rounds, -e.estimate.gain, e.name))
        confirmation = None
        if best is not None:
            g = 2 * ((cfg.budget - self.spent) // cfg.unit(2))
            if g >= 2:
                own_deck, best_deck = self.deck(OWN, own), self.deck(PREFIX + "best", best.missions)
                results = self.play(f"{self.exp_id}-confirm", "confirmation on fresh seeds", [own_deck, best_deck], g,
                                    _stage_seed(cfg.seed, 3), [0, 0])
                confirmation = gain(pair(results, best_deck.name, own_deck.name), self.shares, tests=m)
        return Outcome(self.exp_id, cfg, len(every), m, ranked, best, confirmation, self.spent, list(self.runs),
                       screened)


def minimum_budget(config: MissionsConfig) -> int:
    """The least budget that races two selections (and the deck's own) and confirms."""
    return math.ceil((2 * config.unit(3) + config.unit(2)) / (1 - config.confirm_share)) + config.unit(2)


def check(config: MissionsConfig) -> None:
    if not config.field:
        raise ExperimentError("the field has no deck", "give --field or --gauntlet")
    if len(set(config.candidates) | set(config.deck.missions)) < 4:
        raise ExperimentError("fewer than 4 missions to choose from: the deck's own 3 are the only selection",
                              "give more candidates (--missions all, or mission ids)")
    need = minimum_budget(config)
    if len(selections(tuple(config.deck.missions), config.candidates)) - 1 > config.race_size:
        need = max(need, math.ceil(2 * config.screen_group * config.unit(1) / config.screen_share))
    if config.budget < need:
        raise ExperimentError(f"a budget of {config.budget:,} games is too small for a field of {len(config.field)} "
                              f"deck(s) and {len(config.candidates)} candidate missions: at least {need:,} are needed",
                              f"e.g. --budget {2 * need:,}")


def choose(store: Store, exp_id: str, config: MissionsConfig, *, shares: dict[str, float] | None = None,
           name: str | None = None, workers: int = 1, backend: str = "local", scheduler: str | None = None,
           progress: Progress | None = None) -> Outcome:
    """Which 3 missions to bring: run (or resume, or read back) the experiment ``exp_id``.

    ``shares`` weighs the field's decks (by name) in the gains; by default the config's. Raises
    ``ExperimentError`` for settings the user can fix and ``MissionsInterrupted`` on Ctrl-C."""
    check(config)
    row = xstore.get(store, exp_id)
    stored = config.to_json()
    if row is None:
        xstore.create(store, exp_id, KIND, name or exp_id, stored)
    elif row["kind"] != KIND or not same_json(row["config"], stored):
        raise ExperimentError(f"an experiment {exp_id!r} with other settings is stored in {store.path}",
                              f"resume it with `mythos experiment missions --resume {exp_id}`, or choose another --name")
    else:
        xstore.set_status(store, exp_id, "running")
    chooser = _Chooser(store, exp_id, config, shares or config.shares_by_name, workers=workers, backend=backend,
                       scheduler=scheduler, progress=progress)
    try:
        outcome = chooser.run()
    except BaseException:
        try:
            xstore.set_status(store, exp_id, "interrupted", chooser.runs)
        except StoreError:
            pass
        raise
    xstore.set_status(store, exp_id, "finished", outcome.runs)
    return outcome


def read(store: Store, exp_id: str, shares: dict[str, float] | None = None) -> Outcome:
    """A stored missions experiment, read back from its runs (no game is played if it is finished)."""
    row = xstore.get(store, exp_id)
    if row is None or row["kind"] != KIND:
        known = [r["exp_id"] for r in xstore.listing(store, KIND)]
        raise ExperimentError(f"no missions experiment {exp_id!r} in {store.path}",
                              ("stored: " + ", ".join(known[-5:])) if known else
                              "play one with `mythos experiment missions DECK`")
    config = MissionsConfig.from_json(row["config"])
    if row["status"] != "finished":
        raise ExperimentError(f"missions experiment {exp_id} is {row['status']}",
                              f"finish it with: mythos experiment missions --resume {exp_id}")
    return _Chooser(store, exp_id, config, shares or config.shares_by_name, workers=1, backend="local",
                    scheduler=None, progress=None).run()


def find(store: Store, deck: DeckSpec) -> list[str]:
    """The finished missions experiments of this list (same cards and own missions), oldest first."""
    out = []
    for r in xstore.listing(store, KIND):
        d = r["config"]["deck"]
        if r["status"] == "finished" and DeckSpec.from_json(d).hash == deck.hash:
            out.append(r["exp_id"])
    return out


__all__ = ["DEFAULT_BUDGET", "KIND", "Entry", "MissionsConfig", "MissionsInterrupted", "Outcome", "check", "choose",
           "find", "minimum_budget", "read", "selections"]
