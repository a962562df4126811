"""The plan of an optimization: which player judges how many candidates, with how many games.

The search has five stages (``Plan.stages``):

1. **calibration**: the deck as it is against the field, played by the player given (the
   judge) and by the cheap player that screens. It times both players (for ``--minutes`` and
   the time left) and its games give the per-card figures (``mythos report cards``'s) that
   weight the screen's draws. Its size never depends on the budget.
2. **screen** (cheap player): random variants over the whole pool, a regression of each game's
   result on the cards its deck held (when the pool offers more single swaps than the short
   list holds).
3. **short list** (cheap player): the best single swaps and pairs of the screen, each played
   on its own, paired with the deck: the cheap player's judgement of each.
4. **sample** (judge): some of the short list, spread over its ranking, judged by the judge
   too; the rank correlation of the two judgements sets how many of the short list race.
5. **race** (judge): successive halving and racing, step after step (local search).
6. **confirmation** (judge): the deck and the proposal on fresh seeds.

By default the judge screens itself (``cheap_player``): stages 2 and 3 are its own games, the
sample is left out (nothing to compare), and every game counts in the budget; the short list's
games go on in the first race, and the screen's values against the short list's gains give the
rank correlation shown. With ``--screen-policy`` a cheaper player screens, plays
``CHEAP_PER_GAME`` games per game of the budget on top (a greedy game costs about a hundredth
of a search game), and the budget counts the judge's games: calibration, sample, race and
confirmation.

The plan is a function of the settings and the budget only, never of measured time, so the
same seed and budget give the same games and proposal on any machine and with any number of
workers. ``--minutes`` chooses the budget from the calibration's speeds (``budget_for``),
rounded down to a ladder of round budgets so that the small differences of timing from run to
run most often give the same budget; the budget chosen is stored (a resume never measures
again) and printed, and ``--budget`` with it gives the same answer anywhere.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

from mythos_cli.sim.plan import FAST_BATCH, FAST_PLAYERS

DEFAULT_CHEAP = "greedy"  # a fast player to suggest for --screen-policy (never the default: see cheap_player)
CALIBRATION_GAMES = 72  # of the judge (about 3 s of search on 2 cores)
CHEAP_CALIBRATION_GAMES = 1_200  # of the cheap player (its per-card figures need games)
CHEAP_PER_GAME = 8  # cheap games per game of the budget, when the cheap player is not the judge
SHORT_SINGLES = 64  # single swaps in the short list (a cheap player judges it)
SHORT_PAIRS = 32  # pairs of swaps in the short list
# the short list when the judge screens and judges it too: fewer candidates, each with enough of
# its games to rank them (8 a field deck and seat at the default budget), carried into the race
ONE_SINGLES = 16
ONE_PAIRS = 16
SAMPLE = 16  # candidates of the short list the judge judges too
MAX_SCREEN_VARIANTS = 20_000  # beyond, the regression learns little more (each card in some 200 variants)
MAX_BUDGET = 10_000_000  # games of the player given: days of play on a small machine
STAGE_SECONDS = "stage"  # the key of a stage's fixed cost among the measured speeds
LADDER = (1.0, 1.25, 1.6, 2.0, 2.5, 3.15, 4.0, 5.0, 6.3, 8.0)  # Renard's R10: steps of about 25%

# shares of the budget (the judge's games) and of the cheap games
SHARES_TWO_PLAYERS = {"sample": 0.15, "confirmation": 0.30}  # the race gets the rest
CHEAP_SHARES = {"screen": 0.65, "shortlist": 0.35}
# one player: the screen's regression is where every game informs every card's value (issue 27)
SHARES_ONE_PLAYER = {"screen": 0.40, "shortlist": 0.20, "confirmation": 0.15}  # the race gets the rest
STEP_SHARE = 0.6  # of what is left for the races, for each step (the last: all of it)
# the confirmation's planned games are the most it holds back while the races run: once a step is
# taken, it keeps what proves the races' gain (stats.pairs_to_prove), never less than this share of
# them, and the rest goes to further steps (a race of 48 pairs a variant decides on ±23 points)
CONFIRM_LEAST = 1 / 3
MISSIONS_SHARE = 0.2  # of the budget, with --missions: the missions experiment (experiment.missions)


def is_fast(policy: str) -> bool:
    return policy.split(":", 1)[0] in FAST_PLAYERS


def cheap_player(policy: str, screen_policy: str | None) -> str:
    """The player that screens: the one asked for (``--screen-policy``), else the judge itself.

    Greedy screened for search until issue 27's measure: the two players' rank correlation of 16
    swaps of the planted Leaf deck was -0.04, so greedy's screen told search's ranking nothing.
    The judge's own screen is a regression over random variants' games (every game informs the
    value of every card its deck held), so its ranking is the judge's by construction."""
    if screen_policy:
        return screen_policy
    return policy


def short_sizes(two_players: bool) -> tuple[int, int]:
    """The most single swaps and pairs of the short list (a cheap player's, or the judge's own)."""
    return (SHORT_SINGLES, SHORT_PAIRS) if two_players else (ONE_SINGLES, ONE_PAIRS)


def calibration_games(field: int, cheap: bool = False) -> int:
    """Games per (deck, field deck) pair of the calibration (of the judge, or of the cheap player
    when it is not the judge): its size never depends on the budget (``--minutes`` measures the
    speeds before the budget is known)."""
    total = CHEAP_CALIBRATION_GAMES if cheap else CALIBRATION_GAMES
    return 2 * max(2, math.ceil(total / (2 * field)))


@dataclass
class Stage:
    key: str  # calibration, screen, shortlist, sample, race, confirmation
    player: str
    candidates: int  # the variants it judges (for the race: at most)
    least: int  # the fewest it may judge (the race: by the rank correlation)
    games: int  # games planned
    per_candidate: int  # games of each candidate (and of the reference deck)
    counted: bool  # whether its games count in the budget (the judge's)
    least_games: int = 0  # the confirmation: the fewest games it keeps back (it may get fewer than planned)

    @property
    def title(self) -> str:
        return TITLES[self.key]


TITLES = {"calibration": "calibration: the deck as it is", "screen": "screen: random variants over the whole pool",
          "shortlist": "short list: best swaps and pairs, each on its own", "sample": "sample: judged by both players",
          "race": "race: successive halving, step by step",
          "missions": "missions: the missions experiment on the deck found", "confirmation": "confirmation on fresh seeds"}


@dataclass
class Plan:
    budget: int
    policy: str
    cheap: str
    field: int
    singles: int  # possible single swaps
    stages: list[Stage]

    @property
    def two_players(self) -> bool:
        return self.cheap != self.policy

    def stage(self, key: str) -> Stage | None:
        return next((s for s in self.stages if s.key == key), None)

    def games_of(self, player: str) -> int:
        return sum(s.games for s in self.stages if s.player == player)

    @property
    def cheap_games(self) -> int:
        return sum(s.games for s in self.stages if not s.counted) if self.two_players else 0

    @property
    def runs(self) -> int:
        """How many runs (each with its fixed cost) the plan plays, about: a run per stage, and
        per race round (halving the variants of the first step, and a few later steps)."""
        race = self.stage("race")
        rounds = math.ceil(math.log2(max(2, race.candidates))) + 4 if race else 0
        missions = 5 if self.stage("missions") else 0  # its screen, race rounds and confirmation
        return len(self.stages) - 1 + rounds + missions

    def seconds(self, rates: dict[str, float]) -> float:
        """The plan's time at these speeds (games a second of each player, and a stage's fixed
        cost under ``STAGE_SECONDS``), calibration included."""
        games = sum(s.games / rates[s.player] for s in self.stages if rates.get(s.player))
        return games + self.runs * rates.get(STAGE_SECONDS, 0.0)

    def to_json(self) -> dict:
        return {"budget": self.budget, "policy": self.policy, "cheap_policy": self.cheap, "field_decks": self.field,
                "single_swaps": self.singles, "cheap_games": self.cheap_games,
                "stages": [asdict(s) | {"title": s.title} for s in self.stages]}


def _fit(total: int, arms: int, unit: int) -> int:
    """Games per (candidate, field deck) pair that ``arms`` candidates can play in ``total``
    games, each field deck as often in each seat (0 when not even one game per seat fits)."""
    return 2 * (total // (unit * arms)) if arms and total > 0 else 0


def affordable(n: int, budget: int, unit: int, eta: int = 2) -> int:
    """How many of ``n`` variants a race of ``budget`` games can start with: successive halving
    over them must give each, and the reference, every field deck in each seat in its first round."""
    while n > 0 and unit * (n + 1) * (math.ceil(math.log(n, eta)) if n > 1 else 1) > budget:
        n -= 1
    return n


def make_plan(budget: int, policy: str, cheap: str, field: int, singles: int, pairs: int | None = None,
              missions: bool = False) -> Plan:
    """The stages for a budget of ``budget`` games of ``policy`` against ``field`` decks, with
    ``singles`` possible single swaps of cards (``pairs``: the pairs the short list can hold, by
    default ``SHORT_PAIRS`` when there is a screen, else none); with ``missions``, the missions
    experiment chooses the 3 missions after the races."""
    unit = 2 * field
    two = cheap != policy
    screened = singles > SHORT_SINGLES  # fewer: the short list holds every single swap, no screen
    most_singles, most_pairs = short_sizes(two)
    short = min(singles, most_singles) + min(most_pairs, pairs if pairs is not None else most_pairs) \
        if screened else singles
    stages = []
    g = calibration_games(field)
    stages.append(Stage("calibration", policy, 1, 1, g * field, g * field, True))
    if two:
        gc = calibration_games(field, cheap=True)
        stages.append(Stage("calibration", cheap, 1, 1, gc * field, gc * field, False))
        cheap_total = CHEAP_PER_GAME * budget
        screen_games = int(cheap_total * CHEAP_SHARES["screen"]) if screened else 0
        short_games = int(cheap_total * CHEAP_SHARES["shortlist"])
        sample_games = int(budget * SHARES_TWO_PLAYERS["sample"])
        confirm_games = int(budget * SHARES_TWO_PLAYERS["confirmation"])
    else:  # with --missions, the missions experiment's share comes out of every stage's
        cards = budget * (1 - MISSIONS_SHARE) if missions else budget
        screen_games = int(cards * SHARES_ONE_PLAYER["screen"]) if screened else 0
        short_games = int(cards * SHARES_ONE_PLAYER["shortlist"])
        sample_games = 0
        confirm_games = int(cards * SHARES_ONE_PLAYER["confirmation"])
    if screened:
        variants = min(MAX_SCREEN_VARIANTS, screen_games // unit)  # each plays each field deck once in each seat
        variants -= variants % SCREEN_GROUP
        stages.append(Stage("screen", cheap, variants, variants, variants * unit, unit, not two))
    # a small budget shortens the short list (each candidate plays each field deck once in each seat)
    short = max(min(short, 8), min(short, short_games // unit - 1))
    per = _fit(short_games, short + 1, unit)
    stages.append(Stage("shortlist", cheap, short, short, per * field * (short + 1), per * field, not two))
    if two:
        k = min(SAMPLE, short)
        per = _fit(sample_games, k + 1, unit)
        stages.append(Stage("sample", policy, k, k, per * field * (k + 1), per * field, True))
    spent = sum(s.games for s in stages if s.counted)
    missions_games = int(budget * MISSIONS_SHARE) if missions else 0
    race_games = max(0, budget - spent - confirm_games - missions_games)
    most = affordable(short, int(race_games * STEP_SHARE), unit)
    stages.append(Stage("race", policy, most, min(most, 4), race_games, 0, True))
    if missions:  # the selections it races are its own business (experiment.missions.MissionsConfig.race_size)
        stages.append(Stage("missions", policy, 0, 0, missions_games, 0, True))
    # the confirmation also gets whatever the race leaves (known when the race is over)
    per = _fit(budget - spent - race_games - missions_games, 2, unit)
    least = max(2, 2 * math.ceil(per * CONFIRM_LEAST / 2))
    stages.append(Stage("confirmation", policy, 1, 1, per * field * 2, per * field, True, least * field * 2))
    return Plan(budget, policy, cheap, field, singles, stages)


SCREEN_GROUP = 8  # screen variants sharing their seeds


def problems(plan: Plan) -> list[str]:
    """What makes the plan unplayable (empty: it can be played)."""
    out = []
    for s in plan.stages:
        if s.key in ("screen",) and s.candidates < 2 * SCREEN_GROUP:
            out.append("the screen cannot play two groups of variants")
        elif s.key in ("shortlist", "sample", "confirmation") and s.per_candidate <= 0:
            out.append(f"the {s.key} cannot play each field deck once in each seat")
        elif s.key == "race" and s.candidates < 2:
            out.append("the race cannot start with two variants")
    return out


def least_budget(policy: str, cheap: str, field: int, singles: int, missions: int = 0) -> int:
    """The smallest budget whose plan can be played (found by bisection: the plan grows with it);
    ``missions``: the least games of the missions experiment, when there is one."""
    def bad(budget: int) -> bool:
        plan = make_plan(budget, policy, cheap, field, singles, missions=bool(missions))
        return bool(problems(plan)) or (missions and plan.stage("missions").games < missions)

    lo, hi = 0, 1_000
    while bad(hi):
        lo, hi = hi, hi * 2
        if hi > 10**9:
            return hi
    while lo + 1 < hi:
        mid = (lo + hi) // 2
        if bad(mid):
            lo = mid
        else:
            hi = mid
    return hi


def ladder_down(x: float) -> int:
    """The largest round budget of the ladder (1, 1.25, 1.6, 2, 2.5, 3.15, 4, 5, 6.3, 8 × 10ᵏ) not above ``x``."""
    if x < 1:
        return 0
    k = 10 ** math.floor(math.log10(x))
    best = 0
    for scale in (k / 10, k):
        for step in LADDER:
            v = int(round(step * scale))
            if v <= x:
                best = max(best, v)
    return best


def budget_for(minutes: float, rates: dict[str, float], policy: str, cheap: str, field: int, singles: int,
               spent_seconds: float = 0.0, stage_seconds: float = 0.0, missions: int = 0) -> int:
    """The largest round budget whose plan, at the measured speeds, fits in ``minutes`` (less what
    the calibration took already); never below the least budget."""
    rates = dict(rates) | {STAGE_SECONDS: stage_seconds}
    left = minutes * 60 - spent_seconds

    def rest(budget: int) -> float:  # seconds of the plan beyond its calibration
        plan = make_plan(budget, policy, cheap, field, singles, missions=bool(missions))
        return plan.seconds(rates) - sum(s.games / rates[s.player] for s in plan.stages if s.key == "calibration")

    least = least_budget(policy, cheap, field, singles, missions)
    if rest(least) >= left:
        return least
    hi = least
    while rest(hi * 2) < left and hi < MAX_BUDGET:
        hi *= 2
    lo, hi = hi, min(hi * 2, MAX_BUDGET)
    while lo + 1 < hi:  # the time grows with the budget: bisect, then round down to the ladder
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if rest(mid) < left else (lo, mid)
    return max(least, ladder_down(lo))


__all__ = ["CHEAP_PER_GAME", "DEFAULT_CHEAP", "FAST_BATCH", "LADDER", "MAX_BUDGET", "STAGE_SECONDS", "Plan", "SCREEN_GROUP", "Stage", "affordable", "budget_for",
           "calibration_games", "cheap_player", "is_fast", "ladder_down", "least_budget", "make_plan", "problems", "short_sizes"]
