"""The search: screen the pool, race swaps with successive halving, confirm on fresh seeds.

Every game is played by ``mythos_cli.sim`` as an ordinary run stored in the database, one
run per stage (``ID-screen``, ``ID-s1r1`` … for step 1 round 1, ``ID-confirm``). Every
decision of the search depends only on the settings and on games whose results depend only
on their seeds, so the whole search is reproducible from its seed, whatever the number of
workers or the backend, and resuming it replays the stored stages and plays what is missing.

1. **Screen** (when there are more single swaps than a race can take): random variants of
   the deck, each with a few random swaps from the pool, play the field in groups that share
   their seeds; a regression of the results on the swaps gives every card in and out a
   value (``stats.fit_screen``), which ranks the candidates.
2. **Local search.** From the current deck (at first the base deck), the best-ranked single
   swaps and pairs of swaps race: each round, every surviving variant and the current deck
   play the same fresh seeds against every deck of the field (common random numbers), and
   the better half by paired gain goes on (successive halving), minus any variant whose
   upper bound falls below the leader's lower bound (racing). The winner is taken when its
   gain is above 0 at ``accept_z``, and the search starts again from the new deck.
3. **Confirmation.** The base deck and the proposal play fresh seeds (none of the search's);
   the reported gain is this paired difference, its interval Bonferroni-corrected for every
   variant the search tried. When no step was taken, the best variant of the first race is
   confirmed in the same way, and most often found not to beat the base deck.
"""

from __future__ import annotations

import math
import signal
from collections import defaultdict
from dataclasses import asdict, dataclass, field, fields

import numpy as np

from mythos_cli import stops
from mythos_cli.optimize import variants as V
from mythos_cli.optimize.pool import Pool
from mythos_cli.experiment.arms import PREFIX, ExperimentError, Progress, compare, pair, play_arms, same_json
from mythos_cli.experiment.stats import Gain, Pairs, ScreenFit, fit_screen, gain
from mythos_cli.sim import Interrupted
from mythos_cli.sim.plan import DeckSpec
from mythos_cli.store import Store, StoreError
from mythos_cli.store import experiment as xstore
from mythos_cli.store import optimize as ostore

BASE = PREFIX + "base"


class OptimizeError(ExperimentError):
    """A problem the user can fix (bad settings, budget too small, a changed database)."""


class OptimizeInterrupted(Exception):
    """Ctrl-C or SIGTERM (``signal``, None for Ctrl-C) stopped the search; ``spent`` games are stored."""

    def __init__(self, opt_id: str, spent: int, budget: int, signal: int | None = None):
        super().__init__(opt_id)
        self.opt_id, self.spent, self.budget, self.signal = opt_id, spent, budget, signal


@dataclass
class OptimizeConfig:
    """Everything an optimization depends on (stored with it, so it can be resumed)."""

    base: DeckSpec
    field: list[DeckSpec]
    shares: list[float]  # of the field decks, summing to 1
    pool: Pool
    budget: int
    policy: str
    seed: int
    missions: bool = False
    mulligan: str | None = None
    batch_size: int = 50
    # how the budget is spent
    screen_share: float = 0.3  # of the budget, for the screen
    confirm_share: float = 0.2  # of the budget, kept for the confirmation (it also gets what the search leaves)
    step_share: float = 0.5  # of the search budget left, for each step
    screen_swaps: int = 3  # swaps per screen variant
    screen_group: int = 8  # screen variants sharing their seeds
    singles: int = 24  # single swaps in a race
    pairs: int = 16  # pairs of swaps in a race (from the screen's ranking)
    pair_from: int = 12  # the best single swaps that pairs are made of
    max_steps: int = 8
    eta: int = 2  # successive halving keeps 1/eta of the variants each round
    race_z: float = 2.0  # racing drops a variant whose upper bound is below the leader's lower bound
    accept_z: float = 1.645  # a step is taken when the winner's gain is above 0 at this z

    def to_json(self) -> dict:
        d = asdict(self)
        d["pool"] = self.pool.to_json()
        return d

    @classmethod
    def from_json(cls, d: dict) -> "OptimizeConfig":
        """The settings ``to_json`` stored; damaged ones raise ``ValueError`` naming what is wrong
        (an unknown key too: nothing but these settings is read from a database)."""
        if not isinstance(d, dict):
            raise ValueError(f"the settings are a JSON {type(d).__name__}, not an object")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(d) - known)
        if unknown:
            raise ValueError(f"unknown setting {unknown[0]!r}")
        d = dict(d)
        try:
            spec = lambda x: DeckSpec(str(x["name"]), tuple(map(str, x["cards"])), tuple(map(str, x["missions"])))  # noqa: E731
            d["base"] = spec(d["base"])
            d["field"] = [spec(x) for x in d["field"]]
            d["pool"] = Pool.from_json(d["pool"])
            cfg = cls(**d)
        except (KeyError, TypeError, AttributeError, IndexError) as exc:
            raise ValueError(f"{type(exc).__name__}: {exc}") from None
        if not isinstance(cfg.policy, str) or not isinstance(cfg.budget, int) or not isinstance(cfg.seed, int):
            raise ValueError("its policy, budget or seed is not what mythos stores")
        return cfg

    @property
    def shares_by_name(self) -> dict[str, float]:
        return {f.name: s for f, s in zip(self.field, self.shares)}

    def unit(self, decks: int) -> int:
        """Games for ``decks`` studied decks to play each field deck once in each seat."""
        return 2 * decks * len(self.field)


@dataclass
class Arm:
    """A variant in a race: its swaps from the race's reference deck, and its results."""

    swaps: tuple[V.Swap, ...]
    deck: DeckSpec
    screen_value: float | None = None
    pairs: dict[str, Pairs] = field(default_factory=dict)
    rounds: int = 0  # how many rounds it played
    estimate: Gain | None = None

    @property
    def name(self) -> str:
        return self.deck.name


@dataclass
class Race:
    step: int
    reference: DeckSpec
    arms: list[Arm]
    rounds: list[dict] = field(default_factory=list)  # per round: run, games, variants
    best: Arm | None = None
    accepted: bool = False
    games: int = 0
    stopped: str = ""


@dataclass
class Screen:
    run_id: str
    variants: int
    games: int
    fit: ScreenFit


@dataclass
class Outcome:
    """What an optimization found; ``report.build`` turns it into tables and pages."""

    opt_id: str
    config: OptimizeConfig
    base: DeckSpec
    proposal: DeckSpec | None
    changes: tuple[V.Swap, ...]
    path: list[tuple[V.Swap, ...]]  # the swaps of each step taken
    screen: Screen | None
    races: list[Race]
    tried: int  # variants raced (the Bonferroni count)
    confirm_run: str | None
    confirmation: Gain | None
    base_pairs: dict[str, Pairs]  # confirmation: the proposal (deck) against the base (reference)
    shared_seeds: int  # seeds of the confirmation that the search played too (0 expected)
    spent: int
    runs: list[str]
    stages: dict[str, int]  # games per kind of stage
    validation: list[str]  # problems of the proposal, per `mythos validate` (empty: legal)
    singles_possible: int

    @property
    def significant(self) -> bool:
        return self.confirmation is not None and self.confirmation.significant


# at most this many variants in the screen (each variant's games grow with the budget instead)
MAX_SCREEN_VARIANTS = 8192


def _stage_seed(seed: int, *key: int) -> int:
    return int(np.random.SeedSequence(seed, spawn_key=key).generate_state(1, dtype=np.uint64)[0] % (2 ** 63))


def _name(swaps: tuple[V.Swap, ...]) -> str:
    return PREFIX + " ".join(s.label for s in swaps)


class Search:
    def __init__(self, store: Store, opt_id: str, config: OptimizeConfig, *, workers: int = 1,
                 backend: str = "local", scheduler: str | None = None, progress: Progress | None = None,
                 python_players: dict[str, str] | None = None):
        self.store, self.opt_id, self.cfg = store, opt_id, config
        self.python_players = dict(python_players or {})  # named on the command line, never stored
        self.workers, self.backend, self.scheduler = workers, backend, scheduler
        self.progress = progress or Progress()
        self.spent = 0
        self.runs: list[str] = []
        self.stages: dict[str, int] = defaultdict(int)
        self.base = DeckSpec(BASE, config.base.cards, config.base.missions)
        self.shares = config.shares_by_name

    # -- playing a stage ------------------------------------------------------------------
    def _play(self, run_id: str, label: str, kind: str, studied: list[DeckSpec], games: int, seed: int,
              seed_groups: list[int]) -> dict[str, list[tuple]]:
        cfg = self.cfg
        planned = games * len(studied) * len(cfg.field)
        if self.spent + planned > cfg.budget:
            raise AssertionError(f"stage {label} would exceed the budget")  # the planning is wrong: a bug
        try:
            out = play_arms(self.store, run_id, f"optimize {self.opt_id}: {label}", studied, cfg.field, games,
                             cfg.policy, seed, seed_groups, mulligan=cfg.mulligan,
                             # small stages in small batches, so that every worker gets some
                             batch_size=max(10, min(cfg.batch_size, math.ceil(planned / 8))),
                             workers=self.workers, backend=self.backend, scheduler=self.scheduler,
                             progress=self.progress, label=label, python_players=self.python_players)
        except Interrupted as exc:
            # counted from the database: what the runner commits is what a resume keeps
            raise OptimizeInterrupted(self.opt_id, self.spent + xstore.stored_games(self.store, run_id),
                                      cfg.budget, exc.signal) from None
        self.spent += planned
        self.stages[kind] += planned
        self.runs.append(run_id)
        return out

    # -- the screen -----------------------------------------------------------------------
    def screen(self, budget: int) -> Screen | None:
        cfg = self.cfg
        per = cfg.unit(1)  # one variant, each field deck once in each seat
        group = cfg.screen_group
        n_groups = min(budget // (per * group), MAX_SCREEN_VARIANTS // group)
        if n_groups < 2:
            return None
        # a large budget plays each variant more often, not more variants: a plan, and the run's
        # stored configuration, hold every variant (10,000,000 games made 250,000 of them: 1.6 GB)
        rounds = max(1, budget // (per * group * n_groups))
        rng = np.random.default_rng(np.random.SeedSequence(cfg.seed, spawn_key=(4,)))
        specs: list[DeckSpec] = []
        features: list[list[tuple[str, str, bool]]] = []
        groups: list[int] = []
        seen_names: set[str] = set()
        pool_cards = sorted(cfg.pool.cards)
        pool_missions = sorted(cfg.pool.missions)
        attempts = 0
        while len(specs) < n_groups * group:
            attempts += 1
            if attempts > 50 * n_groups * group:
                break  # the pool is too small for this many different variants
            swaps = self._random_swaps(rng, pool_cards, pool_missions)
            if not swaps:
                continue
            swaps = V.canonical(swaps)
            name = f"{PREFIX}screen " + " ".join(s.label for s in swaps)
            if name in seen_names:
                continue
            seen_names.add(name)
            specs.append(V.apply(self.base, swaps, name))
            features.append([("in", s.into, s.mission) for s in swaps] + [("out", s.out, s.mission) for s in swaps])
            groups.append((len(specs) - 1) // group)
        n_groups = len(specs) // group
        if n_groups < 2:
            return None
        specs, features, groups = specs[:n_groups * group], features[:n_groups * group], groups[:n_groups * group]
        run_id = f"{self.opt_id}-screen"
        results = self._play(run_id, f"screen: {len(specs)} random variants", "screen", specs, 2 * rounds,
                             _stage_seed(cfg.seed, 1), groups)
        cells: dict[tuple, int] = {}
        per_variant = []
        for spec in specs:
            rows = []
            for o, seat, s, won in results[spec.name]:
                cell = cells.setdefault((o, seat, s), len(cells))
                rows.append((cell, float(won), self.shares[o]))
            per_variant.append(rows)
        fit = fit_screen(features, groups, per_variant)
        return Screen(run_id, len(specs), self.spent_in("screen"), fit)

    def spent_in(self, kind: str) -> int:
        return self.stages.get(kind, 0)

    def _random_swaps(self, rng, pool_cards: list[str], pool_missions: list[str]) -> list[V.Swap]:
        cfg = self.cfg
        deck = self.base
        k = min(cfg.screen_swaps, len(deck.cards))
        slots = rng.choice(len(deck.cards), size=k, replace=False)
        counts: dict[str, int] = defaultdict(int)
        for c in deck.cards:
            counts[c] += 1
        outs = [deck.cards[i] for i in sorted(slots)]
        for o in outs:
            counts[o] -= 1
        swaps = []
        for o in outs:
            options = [c for c in pool_cards if c not in outs and counts[c] < cfg.pool.limit(c, 0)]
            if not options:
                continue
            c = options[int(rng.integers(len(options)))]
            counts[c] += 1
            swaps.append(V.Swap(o, c))
        if cfg.missions and pool_missions and rng.random() < 0.5:
            o = deck.missions[int(rng.integers(len(deck.missions)))]
            options = [m for m in pool_missions if m not in deck.missions]
            if options:
                swaps.append(V.Swap(o, options[int(rng.integers(len(options)))], True))
        # the base deck's own copies are owned: a pool limit never forbids them
        spec = V.apply(deck, swaps) if swaps else deck
        return swaps if V.legal(spec, self.base, cfg.pool) else []

    # -- candidates -------------------------------------------------------------------------
    def neighbourhood(self, current: DeckSpec, fit: ScreenFit | None, budget: int) -> list[Arm]:
        cfg = self.cfg
        singles = V.single_swaps(current, self.base, cfg.pool, cfg.missions)
        if not singles:
            return []
        if fit is None:
            ranked = [(None, (s,)) for s in singles]
        else:
            def out_value(card: str, mission: bool) -> float:
                key = ("out", card, mission)
                return fit.values[key] if key in fit.values else -fit.values.get(("in", card, mission), 0.0)

            def value(s: V.Swap) -> float:
                return fit.values.get(("in", s.into, s.mission), 0.0) + out_value(s.out, s.mission)

            scored = sorted(singles, key=lambda s: (-value(s), s))
            ranked = [(value(s), (s,)) for s in scored[:cfg.singles]]
            pairs = []
            top = scored[:cfg.pair_from]
            for i, a in enumerate(top):
                for b in top[i + 1:]:
                    if {a.into, b.into} & {a.out, b.out}:
                        continue
                    swaps = V.canonical((a, b))
                    try:
                        deck = V.apply(current, swaps)
                    except ValueError:  # the same card out twice, with one copy only
                        continue
                    if V.legal(deck, self.base, cfg.pool):
                        pairs.append((value(a) + value(b), swaps))
            seen: set[tuple] = set()
            unique = []
            for v, sw in sorted(pairs, key=lambda p: (-p[0], p[1])):
                if sw not in seen:
                    seen.add(sw)
                    unique.append((v, sw))
            ranked += unique[:cfg.pairs]
        ranked = ranked[:self.affordable(len(ranked), budget)]
        return [Arm(sw, V.apply(current, sw, _name(sw)), v) for v, sw in ranked]

    def affordable(self, n: int, budget: int) -> int:
        """How many of ``n`` variants a race of ``budget`` games can start with: successive
        halving over them must give each, and the reference, every field deck in each seat in
        its first round."""
        cfg = self.cfg
        while n > 0 and cfg.unit(n + 1) * (math.ceil(math.log(n, cfg.eta)) if n > 1 else 1) > budget:
            n -= 1
        return n

    # -- a race -------------------------------------------------------------------------------
    def race(self, step: int, reference: DeckSpec, arms: list[Arm], budget: int) -> Race:
        cfg = self.cfg
        ref = DeckSpec(reference.name, reference.cards, reference.missions)
        race = Race(step, ref, arms)
        alive = list(arms)
        left = budget
        rnd = 0
        while alive:
            rounds_left = max(1, math.ceil(math.log(len(alive), cfg.eta))) if len(alive) > 1 else 1
            per_round = left // rounds_left
            unit = cfg.unit(len(alive) + 1)
            g = 2 * (per_round // unit)
            if g < 2:
                if rnd == 0:
                    raise AssertionError("the neighbourhood was sized for the budget")
                race.stopped = "budget"
                break
            rnd += 1
            run_id = f"{self.opt_id}-s{step}r{rnd}"
            results = self._play(run_id, f"step {step} round {rnd}: {len(alive)} variant(s)", "search",
                                 [ref] + [a.deck for a in alive], g, _stage_seed(cfg.seed, 2, step, rnd),
                                 [0] * (len(alive) + 1))
            left -= g * (len(alive) + 1) * len(cfg.field)
            race.games += g * (len(alive) + 1) * len(cfg.field)
            race.rounds.append({"run": run_id, "variants": len(alive), "games_per_deck": g * len(cfg.field)})
            for a in alive:
                new = pair(results, a.name, ref.name)
                a.pairs = {o: a.pairs.get(o, Pairs()).merge(p) for o, p in new.items()}
                a.rounds = rnd
                a.estimate = gain(a.pairs, self.shares, z=cfg.race_z)
            if len(alive) == 1:
                race.stopped = "one left"
                break
            ranked = sorted(alive, key=lambda a: (-a.estimate.gain, a.name))
            if all(a.estimate.high < 0 for a in alive):
                alive = ranked[:1]
                race.stopped = "every variant clearly worse"
                break
            leader_low = max(a.estimate.low for a in alive)
            keep = max(1, math.ceil(len(alive) / cfg.eta))
            alive = [a for a in ranked[:keep] if a.estimate.high >= leader_low] or ranked[:1]
            if len(alive) == 1:
                race.stopped = "one left"
                break
        finalists = [a for a in arms if a.rounds == rnd and a.estimate is not None]
        if finalists:
            race.best = max(finalists, key=lambda a: (a.estimate.gain, a.name))
            accept = gain(race.best.pairs, self.shares, z=cfg.accept_z)
            race.accepted = accept.low > 0
        return race

    # -- the whole search ---------------------------------------------------------------------
    def preflight(self) -> list[V.Swap]:
        """Check the settings before any game: the possible single swaps, or ``OptimizeError``."""
        cfg = self.cfg
        if not cfg.field:
            raise OptimizeError("the field has no deck", "give --field or --gauntlet")
        singles = V.single_swaps(self.base, self.base, cfg.pool, cfg.missions)
        if not singles:
            raise OptimizeError("the pool offers no card that could come into this deck",
                                "widen --pool (every card the deck could take is in it already, or none is owned)")
        minimum = self.minimum_budget()
        if cfg.budget < minimum:
            raise OptimizeError(f"a budget of {cfg.budget:,} games is too small for a field of {len(cfg.field)} "
                                f"deck(s): at least {minimum:,} are needed", f"e.g. --budget {4 * minimum:,}")
        if len(singles) > cfg.singles and int(cfg.budget * cfg.screen_share) < 2 * cfg.screen_group * cfg.unit(1):
            need = math.ceil(2 * cfg.screen_group * cfg.unit(1) / cfg.screen_share)
            raise OptimizeError(f"a budget of {cfg.budget:,} games cannot screen {len(singles):,} possible swaps "
                                f"against {len(cfg.field)} deck(s): at least {need:,} are needed",
                                f"raise --budget (e.g. {4 * need:,}) or narrow --pool")
        return singles

    def run(self) -> Outcome:
        cfg = self.cfg
        singles = self.preflight()
        reserve = math.ceil(cfg.budget * cfg.confirm_share)
        screen = None
        if len(singles) > cfg.singles:
            screen = self.screen(int(cfg.budget * cfg.screen_share))
            if screen is None:
                raise OptimizeError(f"a budget of {cfg.budget:,} games cannot screen {len(singles):,} possible swaps",
                                    "raise --budget or narrow --pool")
        search_end = cfg.budget - reserve
        current = self.base
        path: list[tuple[V.Swap, ...]] = []
        races: list[Race] = []
        tried: set[tuple] = set()
        for step in range(1, cfg.max_steps + 1):
            left = search_end - self.spent
            step_budget = left if step == cfg.max_steps else max(int(left * cfg.step_share), 0)
            if step_budget < 2 * cfg.unit(3):  # not even a round of 2 variants and the reference
                step_budget = left
            if left < 2 * cfg.unit(3):
                break
            arms = self.neighbourhood(current, screen.fit if screen else None, step_budget)
            if not arms:
                break
            race = self.race(step, current, arms, step_budget)
            races.append(race)
            tried.update(V.canonical(path_swaps(self.base, a.deck)) for a in arms)
            if race.best is None or not race.accepted:
                break
            path.append(race.best.swaps)
            current = DeckSpec(f"{PREFIX}step {step + 1}", race.best.deck.cards, race.best.deck.missions)
        if path:
            proposal = current
        elif races and races[0].best is not None:
            proposal = races[0].best.deck
        else:
            proposal = None
        confirmation = None
        pairs: dict[str, Pairs] = {}
        confirm_run = None
        shared = 0
        m = max(1, len(tried))
        if proposal is not None:
            proposal = DeckSpec(f"{PREFIX}proposal", proposal.cards, proposal.missions)
            g = 2 * ((cfg.budget - self.spent) // cfg.unit(2))
            confirm_run = f"{self.opt_id}-confirm"
            results = self._play(confirm_run, "confirmation on fresh seeds", "confirmation", [self.base, proposal], g,
                                 _stage_seed(cfg.seed, 3), [0, 0])
            pairs = pair(results, proposal.name, self.base.name)
            confirmation = gain(pairs, self.shares, tests=m)
            shared = xstore.shared_seeds(self.store, confirm_run, [r for r in self.runs if r != confirm_run])
        problems: list[str] = []
        changes: tuple[V.Swap, ...] = ()
        if proposal is not None:
            changes = V.difference(self.base, proposal)
            verdict = V.validate(proposal, cfg.base.name)
            problems = [f"{p.code}: {p.message}" for p in verdict.errors]
        return Outcome(self.opt_id, cfg, cfg.base, proposal, changes, path, screen, races, m, confirm_run,
                       confirmation, pairs, shared, self.spent, list(self.runs), dict(self.stages), problems,
                       len(singles))

    def minimum_budget(self) -> int:
        """The least budget that screens (when needed), races 2 variants and confirms."""
        cfg = self.cfg
        race = 2 * cfg.unit(3)
        confirm = cfg.unit(2)
        need = race + confirm
        return math.ceil(max(need / (1 - cfg.screen_share - cfg.confirm_share) if cfg.screen_share < 1 else need,
                             confirm / cfg.confirm_share if cfg.confirm_share else 0))


def path_swaps(base: DeckSpec, deck: DeckSpec) -> tuple[V.Swap, ...]:
    return V.difference(base, deck)


def optimize(store: Store, config: OptimizeConfig, opt_id: str, *, name: str | None = None, workers: int = 1,
             backend: str = "local", scheduler: str | None = None, progress: Progress | None = None,
             python_players: dict[str, str] | None = None) -> Outcome:
    """Run (or resume) an optimization stored under ``opt_id``; its games are runs ``opt_id-…``.

    ``python_players``: for a policy written in Python, the spec the user named for it on this
    command line (``policies.stand_ins``); a stored one is never imported.

    Raises ``OptimizeError`` for settings the user can fix and ``OptimizeInterrupted`` on
    Ctrl-C (the stored games are kept: call again with the same id and config to resume)."""
    with stops.stopping() as stop:  # one stop for every stage (each stage's run shares it)
        search = Search(store, opt_id, config, workers=workers, backend=backend, scheduler=scheduler, progress=progress,
                        python_players=python_players)
        search.preflight()
        row = ostore.get(store, opt_id)
        stored_config = config.to_json()
        if row is None:
            ostore.create(store, opt_id, name or opt_id, stored_config)
        elif not same_json(row["config"], stored_config):
            raise OptimizeError(f"an optimization {opt_id!r} with other settings is stored in {store.path}",
                                f"resume it with `mythos optimize --resume {opt_id}`, or choose another --name")
        else:
            ostore.set_status(store, opt_id, "running")
        try:
            outcome = search.run()
        except KeyboardInterrupt:  # a stop while planning a stage: the stages played are stored
            ostore.set_status(store, opt_id, "interrupted")
            raise OptimizeInterrupted(opt_id, search.spent, config.budget,
                                      None if stop.signal in (None, signal.SIGINT) else stop.signal) from None
        except OptimizeInterrupted:
            ostore.set_status(store, opt_id, "interrupted")
            raise
        except StoreError:
            ostore.set_status(store, opt_id, "interrupted")
            raise
        except BaseException:
            try:
                ostore.set_status(store, opt_id, "interrupted")
            except StoreError:
                pass
            raise
        from mythos_cli.optimize.report import outcome_json

        ostore.set_status(store, opt_id, "finished", outcome_json(outcome))
        return outcome


def check(config: OptimizeConfig) -> int:
    """Check an optimization's settings before any database or game: the number of possible
    single swaps, or ``OptimizeError`` (no field, a pool with nothing to bring in, a budget too small)."""
    return len(Search(None, "", config).preflight())  # type: ignore[arg-type]


def resume_config(store: Store, opt_id: str) -> OptimizeConfig:
    row = ostore.get(store, opt_id)
    if row is None:
        known = ostore.listing(store)["opt_id"].to_list()
        raise OptimizeError(f"no optimization {opt_id!r} in {store.path}",
                            ("stored: " + ", ".join(known[-5:])) if known else "start one with `mythos optimize DECK`")
    try:
        return OptimizeConfig.from_json(row["config"])
    except ValueError as exc:
        raise OptimizeError(f"the stored settings of optimization {opt_id} in {store.path} are damaged ({exc}), so "
                            "it cannot be resumed", "start a new optimization (its stored runs can still be reported)"
                            ) from None


__all__ = ["BASE", "Arm", "check", "compare", "OptimizeConfig", "OptimizeError", "OptimizeInterrupted", "Outcome", "Progress", "Race",
           "Screen", "Search", "optimize", "resume_config"]
