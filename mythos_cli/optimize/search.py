"""The search: a screen of the whole pool (by the player given unless a cheaper one is named), races, a confirmation.

Every game is played by ``mythos_cli.sim`` as an ordinary run stored in the database, one run
per stage (``ID-base``, ``ID-base-cheap``, ``ID-screen``, ``ID-short``, ``ID-sample``,
``ID-s1r1`` … for step 1 round 1, ``ID-confirm``). Every decision of the search depends only
on the settings, the budget and games whose results depend only on their seeds, so the whole
search is reproducible from its seed and budget, whatever the number of workers or the
backend, and resuming it replays the stored stages and plays what is missing. The stages and
their sizes are ``optimize.plan``'s:

1. **Calibration.** The deck as it is plays the field, with each player: the speeds (for
   ``--minutes`` and the time left) and the per-card figures that weight the screen.
2. **Screen** (cheap player; when the pool offers more single swaps than the short list
   holds): random variants of the deck, each with a few swaps drawn from the whole pool (the
   cards going out weighted by how much they drag, half the cards coming in by how well they
   fit the slot: ``optimize.candidates``), then a second round of variants whose swaps are
   drawn among the likeliest by the first round's values; they play the field in groups that
   share their seeds; a
   regression of each game's result on the cards its deck held (its opening hand and every
   card it drew), over the screen's and the calibration's games, gives every card a value
   (``stats.fit_draws``), which ranks the single swaps and pairs.
3. **Short list** (cheap player): the best single swaps, pairs, and the best singles merged
   (2, 3, 4, 6 and 8 of them, ``candidates.combinations``) each play the field on common random
   numbers with the deck: the cheap player's paired gain of each.
4. **Sample** (the player given, when it is not the cheap one): some of the short list,
   spread over its ranking, judged by the player given too. The rank correlation of the two
   judgements (``stats.rank_agreement``) sets how many of the short list race
   (``stats.shortlist_size``): the less they agree, the more go on.
   With one player (the default: the player given screens itself) there is no sample: the
   short list's games go on in the first race, their reliability (the share of their spread
   that is not noise) sets how many race, and the rank correlation shown is the screen's
   values against them.
5. **Race** (the player given): from the current deck (at first the deck as it is), the
   short list's best race, and in the first race its merged candidates whatever their
   short-list gain (a deck weakened in several places is mended in one step): each round,
   every surviving variant and the current deck play the
   same fresh seeds against every deck of the field, and the better half by paired gain goes
   on (successive halving), minus any variant whose upper bound falls below the leader's lower
   bound (racing). The winner is taken when its gain is above 0 at ``accept_z``, and the
   search starts again from the new deck with the short list's swaps that still apply and
   new merges of the screen's ranked single swaps that still apply to it (``next_merged``).
   With ``--missions`` the cards are searched with the deck's own missions, then
   ``experiment.missions`` (the one implementation of "which 3 missions to bring", shared
   with ``mythos experiment missions``) chooses the missions of the deck found, with its own
   screen, race and confirmation (runs ``ID-missions-…``), the player given playing.
6. **Confirmation** (the player given). The deck as it is and the proposal play fresh seeds
   (none of the search's); the reported gain is this paired difference, its interval
   Bonferroni-corrected for every variant the player given judged. When no step was taken,
   the best variant of the first race is confirmed in the same way. Its planned games are held
   back only until a step is taken; then it keeps what proves the steps' gain
   (``confirm_reserve``, ``stats.pairs_to_prove``), and the races of later steps get the rest.
"""

from __future__ import annotations

import math
import signal
import time
from collections import Counter, defaultdict
from dataclasses import asdict, dataclass, field, fields
from typing import Callable

import numpy as np

from mythos_cli import stops
from mythos_cli.experiment.arms import PREFIX, ExperimentError, Progress, compare, pair, play_arms, same_json
from mythos_cli.experiment.stats import (Gain, Pairs, RankAgreement, ScreenFit, fit_draws, gain, pairs_to_prove,
                                         rank_agreement, reliability, shortlist_size)
from mythos_cli.optimize import candidates as C
from mythos_cli.optimize import plan as P
from mythos_cli.optimize import variants as V
from mythos_cli.optimize.pool import Pool
from mythos_cli.sim import Interrupted
from mythos_cli.sim.plan import DeckSpec
from mythos_cli.store import Store, StoreError
from mythos_cli.store import experiment as xstore
from mythos_cli.store import optimize as ostore

BASE = PREFIX + "base"
FOCUS_OUT = 8  # the screen's second round: the deck's cards most worth taking out it draws from
FOCUS_IN = 24  # and the cards most worth bringing in
CONFIG_VERSION = 5  # 5: judged by 0.3.0's default search (its fitted leaf); 4: the confirmation sized by the gain to prove; 3: the screen valued by the cards held (fit_draws); 2: by its swaps; 1: a one-player search
MAX_MINUTES = 7 * 24 * 60


class OptimizeError(ExperimentError):
    """A problem the user can fix (bad settings, budget too small, a changed database)."""


class OptimizeInterrupted(Exception):
    """Ctrl-C or SIGTERM (``signal``, None for Ctrl-C) stopped the search; ``spent`` games are stored."""

    def __init__(self, opt_id: str, spent: int, budget: int | None, signal: int | None = None):
        super().__init__(opt_id)
        self.opt_id, self.spent, self.budget, self.signal = opt_id, spent, budget, signal


class SearchProgress(Progress):
    """What the search tells besides its stages and games (the CLI prints it; the library never prints)."""

    def plan(self, plan: P.Plan, rates: dict[str, float], minutes: float | None) -> None:
        """The plan is known: stages, candidates, games (with --budget before any game, ``rates``
        empty; with --minutes after the calibration, which chose the budget)."""

    def timed(self, plan: P.Plan, rates: dict[str, float], minutes: float | None) -> None:
        """The calibration measured the players' speeds (``rates``): the plan's time is known."""

    def player(self, policy: str) -> None:
        """The games that follow are played by ``policy``."""


@dataclass
class OptimizeConfig:
    """Everything an optimization depends on (stored with it, so it can be resumed)."""

    base: DeckSpec
    field: list[DeckSpec]
    shares: list[float]  # of the field decks, summing to 1
    pool: Pool
    budget: int | None  # games of the player given; None until --minutes has chosen it
    policy: str
    seed: int
    missions: bool = False
    mulligan: str | None = None
    batch_size: int = 50
    screen_policy: str | None = None  # the cheap player (None: plan.cheap_player's choice)
    minutes: float | None = None  # --minutes: the budget is chosen from the calibration's speeds
    rates: dict[str, float] | None = None  # the speeds --minutes measured (games a second), stored
    screen_swaps: int = 3  # swaps per screen variant
    max_steps: int = 8
    eta: int = 2  # successive halving keeps 1/eta of the variants each round
    race_z: float = 2.0  # racing drops a variant whose upper bound is below the leader's lower bound
    accept_z: float = 1.645  # a step is taken when the winner's gain is above 0 at this z
    confidence: float = 0.8  # the race holds the best of the short list with this chance (stats.shortlist_size)
    version: int = CONFIG_VERSION

    @property
    def cheap(self) -> str:
        return P.cheap_player(self.policy, self.screen_policy)

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
        if d.get("version") != CONFIG_VERSION:
            raise OptimizeError("this optimization was stored by an older mythos, whose search played other stages",
                                "start it anew (its games stay in the database as runs)")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(d) - known)
        if unknown:
            raise ValueError(f"unknown setting {unknown[0]!r}")
        d = dict(d)
        try:
            d["base"] = DeckSpec.from_json(d["base"])
            d["field"] = [DeckSpec.from_json(x) for x in d["field"]]
            d["pool"] = Pool.from_json(d["pool"])
            cfg = cls(**d)
        except (KeyError, TypeError, AttributeError, IndexError) as exc:
            raise ValueError(f"{type(exc).__name__}: {exc}") from None
        budget_ok = isinstance(cfg.budget, int) or (cfg.budget is None and isinstance(cfg.minutes, (int, float)))
        if not isinstance(cfg.policy, str) or not budget_ok or not isinstance(cfg.seed, int):
            raise ValueError("its policy, budget or seed is not what mythos stores")
        return cfg

    @property
    def shares_by_name(self) -> dict[str, float]:
        return {f.name: s for f, s in zip(self.field, self.shares)}

    def unit(self, decks: int) -> int:
        """Games for ``decks`` studied decks to play each field deck once in each seat."""
        return 2 * decks * len(self.field)


@dataclass
class Candidate:
    """A swap (or pair) of the short list: the cheap player's judgement of it, and its fate."""

    swaps: tuple[V.Swap, ...]
    screen_value: float | None
    cheap: Gain | None = None  # its paired gain over the deck, by the cheap player
    rank: int = 0  # in the short list, by ``cheap`` (1 is the best)
    judge: Gain | None = None  # by the player given, in the sample
    judge_pairs: dict[str, Pairs] = field(default_factory=dict)
    sampled: bool = False
    short_pairs: dict[str, Pairs] = field(default_factory=dict)  # its short list games (the judge's, one player)
    merged: bool = False  # the screen's best single swaps made together (candidates.combinations)

    @property
    def label(self) -> str:
        return V.label(self.swaps)


@dataclass
class Arm:
    """A variant in a race: its swaps from the race's reference deck, and its results."""

    swaps: tuple[V.Swap, ...]
    deck: DeckSpec
    screen_value: float | None = None
    pairs: dict[str, Pairs] = field(default_factory=dict)
    rounds: int = 0  # how many rounds it played
    estimate: Gain | None = None
    cheap: Gain | None = None  # the cheap player's gain (over the deck as it is)
    carried: int = 0  # pairs of games it brought from the sample

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
    reserve: int = 0  # the games the confirmation held back when this step was sized


@dataclass
class Screen:
    run_id: str  # its first round's run
    variants: int
    games: int
    fit: ScreenFit
    runs: list[str] = field(default_factory=list)  # its rounds' runs


@dataclass
class Outcome:
    """What an optimization found; ``report.build`` turns it into tables and pages."""

    opt_id: str
    config: OptimizeConfig
    plan: P.Plan
    base: DeckSpec
    proposal: DeckSpec | None
    changes: tuple[V.Swap, ...]
    path: list[tuple[V.Swap, ...]]  # the swaps of each step taken
    figures: list[C.CardFigure]  # the deck's cards in the calibration (the cheap player's games)
    screen: Screen | None
    shortlist: list[Candidate]
    agreement: RankAgreement | None  # the two players on the sample (None: one player)
    keep: int  # how many of the short list the first race took
    races: list[Race]
    tried: int  # variants the player given judged (the Bonferroni count)
    confirm_run: str | None
    confirmation: Gain | None
    base_pairs: dict[str, Pairs]  # confirmation: the proposal (deck) against the base (reference)
    shared_seeds: int  # seeds of the confirmation that the search played too (0 expected)
    spent: int  # games of the player given
    cheap_spent: int  # games of the cheap player (when it is not the player given)
    runs: list[str]
    stages: dict[str, int]  # games per kind of stage (the player given's)
    cheap_stages: dict[str, int]  # games per kind of stage (the cheap player's)
    validation: list[str]  # problems of the proposal, per `mythos validate` (empty: legal)
    singles_possible: int
    rates: dict[str, float]  # games a second measured in the calibration (this session; empty on a replay)
    missions: object | None = None  # experiment.missions.Outcome, with --missions

    @property
    def significant(self) -> bool:
        return self.confirmation is not None and self.confirmation.significant


class _Clock(Progress):
    """Passes a stage's progress on, and times it: the players' speed once the stage is under way,
    and its fixed cost (the time to the first stored batch beyond what its games took)."""

    def __init__(self, progress: Progress, start: float):
        self.progress, self.start = progress, start
        self.ticks: list[tuple[float, int]] = []

    def stage(self, label: str, planned: int, stored: int) -> None:
        self.progress.stage(label, planned, stored)

    def games(self, n: int) -> None:
        self.ticks.append((time.perf_counter(), n))
        self.progress.games(n)

    def speed(self, seconds: float) -> tuple[float | None, float]:
        """Games a second after the first stored batch, and the fixed cost of the stage."""
        if len(self.ticks) < 2 or self.ticks[-1][0] <= self.ticks[0][0]:
            played = sum(n for _, n in self.ticks)
            return (played / seconds if played and seconds > 0 else None), 0.0
        rate = sum(n for _, n in self.ticks[1:]) / (self.ticks[-1][0] - self.ticks[0][0])
        fixed = max(0.0, self.ticks[0][0] - self.start - self.ticks[0][1] / rate)
        return rate, fixed


def _reliability(short: list[Candidate]) -> float:
    """The share of the spread of the short list's gains that is not their noise (0 when noise swamps it)."""
    judged = [c.cheap for c in short if c.cheap is not None and math.isfinite(c.cheap.gain) and math.isfinite(c.cheap.se)]
    if len(judged) < 3:
        return 0.0
    return reliability([g.gain for g in judged], [g.se for g in judged])


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
        self.cheap_spent = 0
        self.runs: list[str] = []
        self.stages: dict[str, int] = defaultdict(int)
        self.cheap_stages: dict[str, int] = defaultdict(int)
        self.base = DeckSpec(BASE, config.base.cards, config.base.missions)
        self.shares = config.shares_by_name
        self.cheap = config.cheap
        self.two = self.cheap != config.policy
        self.rates: dict[str, float] = {}
        self.stage_seconds = 0.0  # a stage's fixed cost (workers starting, the run stored and read back)
        self.clocks: dict[tuple[str, str], _Clock] = {}
        # the single swaps best first, and their value (the screen's, or the short list's gains)
        self.ranking: tuple[list[V.Swap], Callable[[V.Swap], float]] | None = None
        self.t0 = time.perf_counter()

    def _tell(self, method: str, *args) -> None:
        fn = getattr(self.progress, method, None)
        if fn is not None:
            fn(*args)

    # -- playing a stage ------------------------------------------------------------------
    def _play(self, run_id: str, label: str, kind: str, policy: str, studied: list[DeckSpec], games: int, seed: int,
              seed_groups: list[int] | None) -> tuple[dict[str, list[tuple]], int, float]:
        """Play a stage; returns its games, how many were played now (not read back) and the seconds."""
        cfg = self.cfg
        planned = games * len(studied) * len(cfg.field)
        counted = policy == cfg.policy
        if counted and cfg.budget is not None and self.spent + planned > cfg.budget:
            raise AssertionError(f"stage {label} would exceed the budget")  # the planning is wrong: a bug
        cap = P.FAST_BATCH if P.is_fast(policy) else cfg.batch_size
        before = xstore.stored_games(self.store, run_id)
        self._tell("player", policy)
        t = time.perf_counter()
        clock = _Clock(self.progress, t)
        try:
            # small stages in small batches, so that every worker gets some (never by the worker count:
            # the batch size is part of the stored run, which a resume with other workers must match)
            out = play_arms(self.store, run_id, f"optimize {self.opt_id}: {label}", studied, cfg.field, games,
                            policy, seed, seed_groups, mulligan=cfg.mulligan,
                            batch_size=max(10, min(cap, math.ceil(planned / 8))),
                            workers=self.workers, backend=self.backend, scheduler=self.scheduler,
                            progress=clock, label=label, python_players=self.python_players)
        except Interrupted as exc:
            # counted from the database: what the runner commits is what a resume keeps
            stored = xstore.stored_games(self.store, run_id)
            raise OptimizeInterrupted(self.opt_id, self.spent + (stored if counted else 0), cfg.budget,
                                      exc.signal) from None
        seconds = time.perf_counter() - t
        if counted:
            self.spent += planned
            self.stages[kind] += planned
        else:
            self.cheap_spent += planned
            self.cheap_stages[kind] += planned
        self.runs.append(run_id)
        self.clocks[kind, policy] = clock
        return out, planned - before, seconds

    # -- 1. calibration ---------------------------------------------------------------------
    def calibrate(self) -> list[C.CardFigure]:
        """The deck as it is against the field, with each player: speeds and per-card figures."""
        from mythos_cli.reports.cards import analyse_deck, load
        from mythos_cli.reports.data import ReportError, card_facts, run_data

        cfg = self.cfg
        nf = len(cfg.field)
        players = [(cfg.policy, f"{self.opt_id}-base", P.calibration_games(nf))]
        if self.two:
            players.append((self.cheap, f"{self.opt_id}-base-cheap", P.calibration_games(nf, cheap=True)))
        for k, (policy, run_id, games) in enumerate(players):
            _, played, seconds = self._play(run_id, f"calibration: the deck as it is, {policy}", "calibration", policy,
                                            [self.base], games, _stage_seed(cfg.seed, 5, k), None)
            rate, fixed = self.clocks["calibration", policy].speed(seconds)
            if played >= games * nf // 2 and rate:
                self.rates[policy] = rate
                self.stage_seconds = max(self.stage_seconds, fixed)
        figures_run = players[-1][1]
        try:
            rd = run_data(self.store, figures_run)
            names = dict(card_facts(rd).select("card", "name").iter_rows())
            analysis = analyse_deck(rd, BASE, load(rd, [BASE]), names)
        except ReportError:  # a run without card events (cannot happen for a run just played)
            return []
        return C.card_figures(analysis)

    def _measure(self, policy: str) -> float:
        """A speed measured afresh (a resumed calibration played too few games to time): one batch
        of the calibration played again here, not stored, times the workers."""
        from mythos_cli.sim import load_config
        from mythos_cli.sim.worker import run_batch

        run_id = f"{self.opt_id}-base" if policy == self.cfg.policy else f"{self.opt_id}-base-cheap"
        config = load_config(self.store, run_id)
        batch = config.batch(0)
        t = time.perf_counter()
        run_batch(run_id, config, 0, batch)
        return len(batch) / max(1e-6, time.perf_counter() - t) * max(1, self.workers)

    def choose_budget(self, singles: int) -> None:
        """--minutes: the budget whose plan fits in the minutes left at the speeds measured (stored)."""
        cfg = self.cfg
        for policy in {cfg.policy, self.cheap}:
            if policy not in self.rates:
                self.rates[policy] = self._measure(policy)
        budget = P.budget_for(cfg.minutes, self.rates, cfg.policy, self.cheap, len(cfg.field), singles,
                              spent_seconds=time.perf_counter() - self.t0, stage_seconds=self.stage_seconds,
                              missions=self.missions_least() if cfg.missions else 0)
        cfg.budget = min(budget, P.MAX_BUDGET)
        cfg.rates = dict(self.rates) | {P.STAGE_SECONDS: self.stage_seconds}
        ostore.set_config(self.store, self.opt_id, cfg.to_json())

    # -- 2. the screen ----------------------------------------------------------------------
    def screen(self, stage: P.Stage, figures: list[C.CardFigure]) -> Screen | None:
        """Two rounds of random variants. The first draws the cards going out by how much they drag
        in the calibration and the cards coming in half from the whole pool, half by how well they
        fit; the second, with the values the first gave, draws them among the ``FOCUS_OUT`` cards
        of the deck most worth taking out and the ``FOCUS_IN`` cards most worth bringing in (by
        value plus one standard error: a card held in few games still gets its chance). A card from
        outside is held in a few dozen games of the first round, too few to tell the good ones
        from the lucky; the second gives the likely ones hundreds."""
        cfg = self.cfg
        group = P.SCREEN_GROUP
        first = max(2 * group, stage.candidates // 2 // group * group)
        rng = np.random.default_rng(np.random.SeedSequence(cfg.seed, spawn_key=(4,)))
        weights = np.array(C.out_weights(self.base, figures))
        affinity = C.Affinity(self.base)
        pool_cards = sorted(cfg.pool.cards)
        fit_in = {o: np.array([affinity.weight(o, c) for c in pool_cards]) for o in set(self.base.cards)}

        def broad(o: str, ok: np.ndarray) -> np.ndarray:
            if rng.random() < 0.5:  # half uniform over the pool: every card is screened
                return ok.astype(float)
            return ok * fit_in[o]  # half by how well the card fits the slot and the deck

        names: set[str] = set()
        specs = self._variants(first, rng, weights / weights.sum(), pool_cards, broad, names)
        if len(specs) < 2 * group:
            return None
        runs = [f"{self.opt_id}-base" if not self.two else f"{self.opt_id}-base-cheap", f"{self.opt_id}-screen"]
        self._play(runs[1], f"screen: {len(specs):,} random variants ({self.cheap})", "screen", self.cheap, specs, 2,
                   _stage_seed(cfg.seed, 1), [k // group for k in range(len(specs))])
        # the screener's calibration games hold the deck's own cards too: every game of the deck or a
        # variant of it is a trial of the cards it drew (stats.fit_draws)
        fit = fit_draws(*self._draws(runs), Counter(self.base.cards), pool_cards)
        variants = len(specs)
        second = (stage.candidates - variants) // group * group
        if second >= 2 * group:
            def ucb(key: tuple[str, str, bool]) -> float:
                return fit.values[key] + fit.se.get(key, 0.0)

            outs = sorted({c for c in self.base.cards if ("out", c, False) in fit.values},
                          key=lambda c: (-ucb(("out", c, False)), c))[:FOCUS_OUT]
            copies = Counter(self.base.cards)
            ins = sorted({c for c in pool_cards if ("in", c, False) in fit.values and copies[c] < cfg.pool.limit(c, 0)},
                         key=lambda c: (-ucb(("in", c, False)), c))[:FOCUS_IN]
            focus_out = np.array([1.0 if c in outs else 0.0 for c in self.base.cards])
            focus_in = np.array([1.0 if c in ins else 0.0 for c in pool_cards])
            rng2 = np.random.default_rng(np.random.SeedSequence(cfg.seed, spawn_key=(4, 2)))
            more = self._variants(second, rng2, focus_out / focus_out.sum(), pool_cards,
                                  lambda o, ok: ok * focus_in, names)
            more = more[:len(more) // group * group]
            if len(more) >= 2 * group:
                runs.append(f"{self.opt_id}-screen2")
                self._play(runs[2], f"screen, second round: {len(more):,} variants of the likeliest swaps "
                           f"({self.cheap})", "screen", self.cheap, more, 2, _stage_seed(cfg.seed, 1, 2),
                           [k // group for k in range(len(more))])
                fit = fit_draws(*self._draws(runs), Counter(self.base.cards), pool_cards)
                variants += len(more)
        return Screen(runs[1], variants, variants * 2 * len(cfg.field), fit, runs[1:])

    def _variants(self, n: int, rng, p_out: np.ndarray, pool_cards: list[str], draw_in, names: set[str]) -> list[DeckSpec]:
        """Up to ``n`` different random variants of the deck (in whole groups of ``SCREEN_GROUP``),
        none named in ``names`` (which gains theirs)."""
        specs: list[DeckSpec] = []
        attempts = 0
        while len(specs) < n:
            attempts += 1
            if attempts > 50 * n:
                break  # the pool is too small for this many different variants
            swaps = self._random_swaps(rng, p_out, pool_cards, draw_in)
            if not swaps:
                continue
            swaps = V.canonical(swaps)
            name = f"{PREFIX}screen " + " ".join(s.label for s in swaps)
            if name in names:
                continue
            names.add(name)
            specs.append(V.apply(self.base, swaps, name))
        return specs[:len(specs) // P.SCREEN_GROUP * P.SCREEN_GROUP]

    def _draws(self, runs: list[str]) -> tuple[list[tuple], list[list[tuple[str, int]]]]:
        """The games of ``runs`` as ``fit_draws`` reads them: (opponent and seat, won, the opponent's
        share) and the cards the studied deck held in each."""
        held = xstore.cards_held(self.store, runs)
        by_game: dict[tuple[str, int], list[tuple[str, int]]] = defaultdict(list)
        for run, game, card, copies in held.select("run_id", "game_no", "card", "copies").iter_rows():
            by_game[run, game].append((card, copies))
        games, hands = [], []
        for run in runs:
            rows = xstore.results(self.store, run)
            for game, opponent, seat, won in rows.select("game_no", "opponent", "seat", "won").iter_rows():
                games.append(((opponent, seat), float(won), self.shares[opponent] * len(self.shares)))
                hands.append(by_game.get((run, game), []))
        return games, hands

    def _random_swaps(self, rng, p_out, pool_cards: list[str], draw_in) -> list[V.Swap]:
        """A few swaps of the deck: the slots going out drawn by ``p_out``, each card coming in by
        ``draw_in(card going out, which pool cards may come in)``, a weight per pool card."""
        cfg = self.cfg
        deck = self.base
        k = min(cfg.screen_swaps, len(deck.cards), int(np.count_nonzero(p_out)))
        slots = rng.choice(len(deck.cards), size=k, replace=False, p=p_out)
        counts: dict[str, int] = defaultdict(int)
        for c in deck.cards:
            counts[c] += 1
        outs = [deck.cards[i] for i in sorted(slots)]
        for o in outs:
            counts[o] -= 1
        swaps = []
        for o in outs:
            ok = np.array([c not in outs and counts[c] < cfg.pool.limit(c, 0) for c in pool_cards])
            w = draw_in(o, ok) if ok.any() else ok
            if not w.any():
                continue
            c = pool_cards[int(rng.choice(len(pool_cards), p=w / w.sum()))]
            counts[c] += 1
            swaps.append(V.Swap(o, c))
        # the base deck's own copies are owned: a pool limit never forbids them
        spec = V.apply(deck, swaps) if swaps else deck
        return swaps if V.legal(spec, self.base, cfg.pool) else []

    # -- 3. the short list ------------------------------------------------------------------
    def shortlist(self, stage: P.Stage, screen: Screen | None, singles: list[V.Swap]) -> list[Candidate]:
        cfg = self.cfg
        n = stage.candidates
        if screen is None:
            ranked = [Candidate((s,), None) for s in singles[:n]]
        else:
            fit = screen.fit

            def out_value(card: str, mission: bool) -> float:
                key = ("out", card, mission)
                return fit.values[key] if key in fit.values else -fit.values.get(("in", card, mission), 0.0)

            def value(s: V.Swap) -> float:
                return fit.values.get(("in", s.into, s.mission), 0.0) + out_value(s.out, s.mission)

            scored = sorted(singles, key=lambda s: (-value(s), s))
            self.ranking = (scored, value)
            most_singles, most_pairs = P.short_sizes(self.two)
            n_pairs = round(n * most_pairs / (most_singles + most_pairs))
            pairs = C.pairs_of(scored, value, self.base, self.base, cfg.pool, C.Affinity(self.base), n_pairs)
            merged = [(v, sw) for v, sw in C.combinations(scored, value, self.base, cfg.pool)
                      if sw not in {p for _, p in pairs}]
            n_singles = n - len(pairs) - len(merged)
            ranked = [Candidate((s,), value(s)) for s in C.spread(scored, n_singles)] + \
                [Candidate(sw, v) for v, sw in pairs] + [Candidate(sw, v, merged=True) for v, sw in merged]
        if not ranked:
            return []
        arms = [V.apply(self.base, c.swaps, _name(c.swaps)) for c in ranked]
        per = stage.per_candidate // len(cfg.field)
        results, _, _ = self._play(f"{self.opt_id}-short", f"short list: {len(ranked)} swaps and pairs ({self.cheap})",
                                   "shortlist", self.cheap, [self.base] + arms, per, _stage_seed(cfg.seed, 6),
                                   [0] * (len(arms) + 1))
        for c, a in zip(ranked, arms):
            c.short_pairs = pair(results, a.name, BASE)
            c.cheap = gain(c.short_pairs, self.shares)
        ranked.sort(key=lambda c: (-c.cheap.gain, c.swaps))
        for i, c in enumerate(ranked):
            c.rank = i + 1
        return ranked

    # -- 4. the sample ----------------------------------------------------------------------
    def sample(self, stage: P.Stage, short: list[Candidate]) -> tuple[RankAgreement, dict[str, dict[str, Pairs]]]:
        """Judge a sample of the short list, spread over its ranking, with the player given too."""
        cfg = self.cfg
        k = min(stage.candidates, len(short))
        picks = sorted({round(i * (len(short) - 1) / max(1, k - 1)) for i in range(k)})
        chosen = [short[i] for i in picks]
        arms = [V.apply(self.base, c.swaps, _name(c.swaps)) for c in chosen]
        per = stage.per_candidate // len(cfg.field)
        results, _, _ = self._play(f"{self.opt_id}-sample", f"sample: {len(chosen)} of the short list ({cfg.policy})",
                                   "sample", cfg.policy, [self.base] + arms, per, _stage_seed(cfg.seed, 7),
                                   [0] * (len(arms) + 1))
        carried: dict[str, dict[str, Pairs]] = {}
        for c, a in zip(chosen, arms):
            p = pair(results, a.name, BASE)
            c.judge, c.judge_pairs, c.sampled = gain(p, self.shares), p, True
            carried[a.name] = p
        agreement = rank_agreement([c.cheap.gain for c in chosen], [c.judge.gain for c in chosen],
                                   [c.judge.se for c in chosen])
        return agreement, carried

    # -- 5. a race ----------------------------------------------------------------------------
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
                    raise AssertionError("the race was sized for the budget")
                race.stopped = "budget"
                break
            rnd += 1
            run_id = f"{self.opt_id}-s{step}r{rnd}"
            results, _, _ = self._play(run_id, f"race, step {step} round {rnd}: {len(alive)} variant(s) ({cfg.policy})",
                                       "race", cfg.policy, [ref] + [a.deck for a in alive], g,
                                       _stage_seed(cfg.seed, 2, step, rnd), [0] * (len(alive) + 1))
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

    def confirm_reserve(self, stage: P.Stage, taken: list[Race], tested: int) -> int:
        """The games the confirmation holds back while the races run: all it planned until a step
        is taken; then what proves the steps' gain on fresh seeds, never less than its least.

        The gain to prove is the races' own lower bound of the steps taken (their gains summed, at
        ``accept_z`` on their standard errors together, so a lucky race's winner is discounted),
        its noise the largest of theirs a pair of games; the correction counts twice the variants
        judged so far (the steps to come judge more). Every figure comes from stored games, so a
        resumed search keeps back the same."""
        cfg = self.cfg
        if not taken:
            return stage.games
        est = [r.best.estimate for r in taken]
        least_gain = sum(e.gain for e in est) - cfg.accept_z * math.sqrt(sum(e.se ** 2 for e in est))
        sd = max(e.se * math.sqrt(e.games) for e in est)
        pairs = pairs_to_prove(least_gain, sd, tests=2 * max(1, tested))
        if pairs <= 0:
            return stage.games
        per = 2 * math.ceil(pairs / cfg.unit(1))  # games per (deck, field deck), each seat alike
        return min(stage.games, max(stage.least_games, per * 2 * len(cfg.field)))

    def next_merged(self, current: DeckSpec, path: list[tuple[V.Swap, ...]]) -> list[Candidate]:
        """The ranked single swaps that still apply to ``current`` (none undoing a step taken),
        merged as ``candidates.combinations`` merges them."""
        singles, value = self.ranking
        taken_in = {s.into for step in path for s in step}
        taken_out = {s.out for step in path for s in step}
        left = [s for s in singles if s.out not in taken_in and s.into not in taken_out]
        made = C.combinations(left, value, current, self.cfg.pool, owned=self.base)
        return [Candidate(sw, v, merged=True) for v, sw in made]

    def arms_for(self, current: DeckSpec, short: list[Candidate], path: list[tuple[V.Swap, ...]], n: int,
                 carried: dict[str, dict[str, Pairs]] | None, forced: set[tuple[V.Swap, ...]]) -> list[Arm]:
        """The race's variants of ``current``: the short list's best ``n`` (by the cheap player) that
        still apply, and the ``forced`` ones (the sample's best by the player given)."""
        cfg = self.cfg
        taken_in = {s.into for step in path for s in step}
        taken_out = {s.out for step in path for s in step}
        arms: list[Arm] = []
        names: set[str] = set()
        extra: list[Arm] = []
        for c in short:
            if {s.out for s in c.swaps} & taken_in or {s.into for s in c.swaps} & taken_out:
                continue  # it would undo a step taken
            try:
                deck = V.apply(current, c.swaps, _name(c.swaps))
            except ValueError:  # a card it takes out is gone
                continue
            if deck.name in names or not V.legal(deck, self.base, cfg.pool) or \
                    (deck.cards, deck.missions) == (current.cards, current.missions):
                continue
            arm = Arm(c.swaps, deck, c.screen_value, cheap=c.cheap)
            if carried and deck.name in carried:
                arm.pairs = dict(carried[deck.name])
                arm.carried = sum(p.n for p in arm.pairs.values())
            if c.swaps in forced:
                extra.append(arm)
                names.add(deck.name)
            elif len(arms) < n:
                arms.append(arm)
                names.add(deck.name)
        return extra + arms  # the forced first: a race too large for the budget drops the last

    # -- the whole search ---------------------------------------------------------------------
    def preflight(self) -> list[V.Swap]:
        """Check the settings before any game: the possible single swaps, or ``OptimizeError``."""
        cfg = self.cfg
        if not cfg.field:
            raise OptimizeError("the field has no deck", "give --field or --gauntlet")
        # the cards only: the missions are the missions experiment's to choose (--missions)
        singles = V.single_swaps(self.base, self.base, cfg.pool, False)
        if not singles:
            raise OptimizeError("the pool offers no card that could come into this deck",
                                "widen --pool (every card the deck could take is in it already, or none is owned)")
        need = self.missions_least() if cfg.missions else 0
        least = P.least_budget(cfg.policy, self.cheap, len(cfg.field), len(singles), need)
        if cfg.budget is not None and cfg.budget < least:
            what = " and the missions experiment" if cfg.missions else ""
            raise OptimizeError(f"a budget of {cfg.budget:,} games is too small for a field of {len(cfg.field)} "
                                f"deck(s) and {len(singles):,} possible swaps{what}: at least {least:,} are needed",
                                f"e.g. --budget {4 * least:,}, or narrow --pool")
        if cfg.minutes is not None and not 0 < cfg.minutes <= MAX_MINUTES:
            raise OptimizeError(f"--minutes {cfg.minutes:g}: give a number of minutes above 0, at most {MAX_MINUTES:,}")
        return singles

    # -- missions: the missions experiment's -----------------------------------------------------
    def missions_config(self, deck: DeckSpec, budget: int):
        from mythos_cli.experiment import missions as M

        cfg = self.cfg
        candidates = sorted(set(cfg.pool.missions) | set(cfg.base.missions))
        return M.MissionsConfig(DeckSpec(cfg.base.name, deck.cards, cfg.base.missions), cfg.field, cfg.shares,
                                candidates, budget, cfg.policy, _stage_seed(cfg.seed, 8), batch_size=cfg.batch_size)

    def missions_least(self) -> int:
        """The least games the missions experiment needs for this deck, field and pool of missions."""
        from mythos_cli.experiment import missions as M

        mcfg = self.missions_config(self.base, 1)
        if len(set(mcfg.candidates)) < 4:
            raise OptimizeError("--missions: the pool holds no mission the deck could bring instead of its own",
                                "widen --pool (a collection list names the missions owned under missions:)")
        lo, hi = 1, 1
        while True:
            mcfg.budget = hi
            try:
                M.check(mcfg)
                break
            except ExperimentError:
                lo, hi = hi, hi * 2
        while lo + 1 < hi:  # the least budget it accepts
            mcfg.budget = (lo + hi) // 2
            try:
                M.check(mcfg)
                hi = mcfg.budget
            except ExperimentError:
                lo = mcfg.budget
        # and enough for its race to start with all the selections it takes (check() asks for two)
        n = min(mcfg.race_size, len(M.selections(tuple(mcfg.deck.missions), mcfg.candidates)) - 1)
        race = mcfg.unit(n + 1) * max(1, math.ceil(math.log2(max(2, n))))
        return max(hi, math.ceil(race / (1 - mcfg.screen_share - mcfg.confirm_share)))

    def choose_missions(self, stage: P.Stage, deck: DeckSpec):
        from mythos_cli.experiment import missions as M

        mcfg = self.missions_config(deck, stage.games)
        self._tell("player", self.cfg.policy)
        try:
            out = M.choose(self.store, f"{self.opt_id}-missions", mcfg, name=f"{self.opt_id}: missions",
                           workers=self.workers, backend=self.backend, scheduler=self.scheduler,
                           progress=self.progress)
        except M.MissionsInterrupted as exc:
            raise OptimizeInterrupted(self.opt_id, self.spent + exc.stored, self.cfg.budget, exc.signal) from None
        self.spent += out.spent
        self.stages["missions"] += out.spent
        self.runs.extend(out.runs)
        return out

    def make_plan(self, singles: int) -> P.Plan:
        cfg = self.cfg
        plan = P.make_plan(cfg.budget, cfg.policy, self.cheap, len(cfg.field), singles, missions=cfg.missions)
        if P.problems(plan):  # a bug: the least budget was checked
            raise AssertionError(f"unplayable plan: {P.problems(plan)}")
        return plan

    def run(self) -> Outcome:
        cfg = self.cfg
        singles = self.preflight()
        told = cfg.budget is not None
        if told:  # the plan before any game (--minutes: the calibration's speeds choose the budget first)
            self._tell("plan", self.make_plan(len(singles)), {}, None)
        figures = self.calibrate()
        if cfg.budget is None:
            self.choose_budget(len(singles))
        plan = self.make_plan(len(singles))
        rates = dict(cfg.rates or self.rates)
        rates.setdefault(P.STAGE_SECONDS, self.stage_seconds)
        if not told:
            self._tell("plan", plan, rates, cfg.minutes)
        self._tell("timed", plan, rates, cfg.minutes)
        screen = None
        if plan.stage("screen") is not None:
            screen = self.screen(plan.stage("screen"), figures)
            if screen is None:
                raise OptimizeError(f"the pool is too small to screen {len(singles):,} possible swaps with random "
                                    "variants", "narrow --pool, or widen it")
        short = self.shortlist(plan.stage("shortlist"), screen, singles)
        agreement, carried, forced = None, None, set()
        if plan.stage("sample") is not None and short:
            agreement, carried = self.sample(plan.stage("sample"), short)
            sampled = sorted((c for c in short if c.sampled), key=lambda c: (-c.judge.gain, c.swaps))
            forced = {c.swaps for c in sampled[:max(1, len(sampled) // 4)] if c.judge.gain > 0}
        elif not self.two and short:
            # one player: its short list games are the race's first games, and the screen's values
            # against them say how well the regression ranked (both the judge's, on other seeds)
            carried = {_name(c.swaps): c.short_pairs for c in short}
            if screen is not None:
                agreement = rank_agreement([c.screen_value for c in short], [c.cheap.gain for c in short],
                                           [c.cheap.se for c in short])
        race_list = short
        if screen is None and short:
            # no screen to rank them: the short list's best singles by their paired gains, made together
            gains = {c.swaps[0]: c.cheap.gain for c in short if len(c.swaps) == 1 and c.cheap is not None}
            ranked = sorted(gains, key=lambda sw: (-gains[sw], sw))
            race_list = short + [Candidate(sw, None, rank=len(short) + k + 1, merged=True) for k, (_, sw) in
                                 enumerate(C.combinations(ranked, gains.get, self.base, cfg.pool))
                                 if sw not in {c.swaps for c in short}]
            self.ranking = (ranked, lambda sw: gains.get(sw, 0.0))
        # the best swaps made together race in the first step whatever their short-list gain
        forced |= {c.swaps for c in race_list if c.merged}
        missions_stage = plan.stage("missions")
        missions_games = missions_stage.games if missions_stage else 0
        current = self.base
        path: list[tuple[V.Swap, ...]] = []
        races: list[Race] = []
        # the variants the judge judged: the sample, or (one player) the whole short list, then the races'
        tried: set[tuple] = {c.swaps for c in short if c.sampled or not self.two}
        keep = 0
        for step in range(1, cfg.max_steps + 1):
            reserve = self.confirm_reserve(plan.stage("confirmation"), [r for r in races if r.accepted], len(tried))
            left = cfg.budget - reserve - missions_games - self.spent
            if left < 2 * cfg.unit(3):  # not even a round of 2 variants and the reference
                break
            step_budget = left if step == cfg.max_steps else int(left * P.STEP_SHARE)
            if step_budget < 2 * cfg.unit(3):
                step_budget = left
            most = P.affordable(len(short), step_budget, cfg.unit(1), cfg.eta)
            if self.two:
                n = min(most, shortlist_size(agreement.corrected if agreement else math.nan, len(short),
                                             cfg.confidence))
            elif step == 1 and short and short[0].cheap is not None:
                # the race takes the short list's best by the judge's own noisy gains: as many as hold
                # its true best with ``confidence``, their correlation with the truth being √reliability
                n = min(most, shortlist_size(math.sqrt(_reliability(short)), len(short), cfg.confidence))
            else:
                n = most
            step_forced = forced if step == 1 else set()
            if step > 1 and self.ranking is not None:
                # the next best swaps made together, from the deck of this step: a step that took the
                # weakest cards out leaves few of the short list's swaps, and the ones next in line
                more = [c for c in self.next_merged(current, path) if c.swaps not in {x.swaps for x in race_list}]
                for k, c in enumerate(more):
                    c.rank = len(race_list) + k + 1
                race_list = race_list + more
                step_forced = {c.swaps for c in more}
            arms = self.arms_for(current, race_list, path, n, carried if step == 1 else None, step_forced)
            if step == 1:
                keep = len(arms)
            while len(arms) > 1 and P.affordable(len(arms), step_budget, cfg.unit(1), cfg.eta) < len(arms):
                arms.pop()  # the forced ones made it too many
            if not arms:
                break
            race = self.race(step, current, arms, step_budget)
            race.reserve = reserve
            races.append(race)
            tried.update(V.difference(self.base, a.deck) for a in arms)
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
        missions = None
        if missions_stage is not None:
            # the missions for the deck the races found (the deck as it is when no step was taken)
            missions = self.choose_missions(missions_stage, current)
            tried.update(("missions",) + tuple(e.missions) for e in missions.ranked)
            if missions.significant:
                mission_swaps = V.difference(current, DeckSpec("", current.cards, missions.best.missions))
                path.append(mission_swaps)
                current = DeckSpec(f"{PREFIX}missions", current.cards, tuple(missions.best.missions))
                proposal = current
            elif proposal is not None:
                proposal = DeckSpec(proposal.name, proposal.cards, cfg.base.missions)
        confirmation = None
        pairs: dict[str, Pairs] = {}
        confirm_run = None
        shared = 0
        m = max(1, len(tried))
        if proposal is not None:
            proposal = DeckSpec(f"{PREFIX}proposal", proposal.cards, proposal.missions)
            g = 2 * ((cfg.budget - self.spent) // cfg.unit(2))
            confirm_run = f"{self.opt_id}-confirm"
            results, _, _ = self._play(confirm_run, f"confirmation on fresh seeds ({cfg.policy})", "confirmation",
                                       cfg.policy, [self.base, proposal], g, _stage_seed(cfg.seed, 3), [0, 0])
            pairs = pair(results, proposal.name, self.base.name)
            confirmation = gain(pairs, self.shares, tests=m)
            shared = xstore.shared_seeds(self.store, confirm_run, [r for r in self.runs if r != confirm_run])
        problems: list[str] = []
        changes: tuple[V.Swap, ...] = ()
        if proposal is not None:
            changes = V.difference(self.base, proposal)
            verdict = V.validate(proposal, cfg.base.name)
            problems = [f"{p.code}: {p.message}" for p in verdict.errors]
        return Outcome(self.opt_id, cfg, plan, cfg.base, proposal, changes, path, figures, screen, race_list, agreement,
                       keep, races, m, confirm_run, confirmation, pairs, shared, self.spent, self.cheap_spent,
                       list(self.runs), dict(self.stages), dict(self.cheap_stages), problems, len(singles),
                       dict(self.rates), missions)


def optimize(store: Store, config: OptimizeConfig, opt_id: str, *, name: str | None = None, workers: int = 1,
             backend: str = "local", scheduler: str | None = None, progress: Progress | None = None,
             python_players: dict[str, str] | None = None) -> Outcome:
    """Run (or resume) an optimization stored under ``opt_id``; its games are runs ``opt_id-…``.

    ``python_players``: for a policy written in Python, the spec the user named for it on this
    command line (``policies.stand_ins``); a stored one is never imported.

    Raises ``OptimizeError`` for settings the user can fix and ``OptimizeInterrupted`` on
    Ctrl-C (the stored games are kept: call again with the same id and config to resume)."""
    with stops.stopping() as stop:  # one stop for every stage (each stage's run shares it)
        row = ostore.get(store, opt_id)
        stored_config = config.to_json()
        if row is not None and config.minutes is not None and config.budget is None:
            # the same --minutes again: the budget it chose then is the optimization's
            chosen = {k: v for k, v in row["config"].items() if k not in ("budget", "rates")}
            if same_json(chosen, {k: v for k, v in stored_config.items() if k not in ("budget", "rates")}):
                config = OptimizeConfig.from_json(row["config"])
                stored_config = row["config"]
        search = Search(store, opt_id, config, workers=workers, backend=backend, scheduler=scheduler,
                        progress=progress, python_players=python_players)
        search.preflight()
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


def least_budget(config: OptimizeConfig) -> int:
    """The smallest budget an optimization of these settings can be played with."""
    search = Search(None, "", config)  # type: ignore[arg-type]
    singles = V.single_swaps(config.base, config.base, config.pool, False)
    return P.least_budget(config.policy, config.cheap, len(config.field), len(singles),
                          search.missions_least() if config.missions else 0)


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


__all__ = ["BASE", "Arm", "Candidate", "check", "compare", "least_budget", "OptimizeConfig", "OptimizeError",
           "OptimizeInterrupted", "Outcome", "Progress", "Race", "Screen", "Search", "SearchProgress", "optimize",
           "resume_config"]
