"""One planned game: who sits where with which deck and player, and playing it.

``run_batch`` plays a run's games through ``play_game``, and ``mythos replay`` replays a
stored game through the same function from the game's seed, so a replay is the stored game
by construction (and is checked against it). The engine behind it may change (the Rust core);
this function and the engine's event stream are the contract.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from mythos_cli.catalog import default_catalog
from mythos_cli.engine.game import GameDeck
from mythos_cli.engine.state import GameState
from mythos_cli.policies import make_policy, play_match
from mythos_cli.sim.plan import DeckSpec, GameJob, RunConfig
from mythos_cli.store.layout import setup_key

_DECK_CACHE: dict = {}


def game_deck(spec: DeckSpec) -> GameDeck:
    """The engine's deck for a spec (cached: a batch plays the same decks again and again)."""
    key = (spec.name, spec.cards, spec.missions)
    deck = _DECK_CACHE.get(key)
    if deck is None:
        cat = default_catalog()
        deck = GameDeck(tuple(cat.by_id[c] for c in spec.cards), tuple(cat.by_id[m] for m in spec.missions), spec.name)
        _DECK_CACHE[key] = deck
    return deck


@dataclass(frozen=True)
class Setup:
    """Seat 0 and seat 1 of a planned game: decks, player specs, and the stored setup key."""

    decks: tuple[DeckSpec, DeckSpec]
    policies: tuple[str, str]
    key: str
    matchup: str


def game_setup(config: RunConfig, job: GameJob) -> Setup:
    if not config.matchups:
        config.plan()
    m = config.matchups[job.matchup]
    studied, opp = config.decks[m.deck], config.decks[m.opponent]
    if job.seat_of_deck == 0:
        decks, pols = (studied, opp), (config.policy_a, config.policy_b)
    else:
        decks, pols = (opp, studied), (config.policy_b, config.policy_a)
    specs = (make_policy(pols[0], config.mulligan).spec, make_policy(pols[1], config.mulligan).spec)
    key = setup_key([m.label, decks[0].name, decks[0].hash, decks[1].name, decks[1].hash, *specs])
    return Setup(decks, pols, key, m.label)


def play_game(config: RunConfig, job: GameJob, setup: Setup | None = None, *,
              watch: Callable[[GameState], None] | None = None) -> GameState:
    """Play one planned game from its seed, with the event stream; ``watch`` (read-only) sees
    the state after every decision (the slow path ``mythos replay`` uses to name units)."""
    setup = setup or game_setup(config, job)
    pa = make_policy(setup.policies[0], config.mulligan)
    pb = make_policy(setup.policies[1], config.mulligan)
    return play_match(game_deck(setup.decks[0]), game_deck(setup.decks[1]), pa, pb, job.seed, events=True,
                      check=watch).state


def planned_job(config: RunConfig, game_no: int) -> GameJob | None:
    """The plan's game ``game_no`` (its matchup, seats and seed), or None if the plan has none."""
    jobs = config.jobs()
    return jobs[game_no] if 0 <= game_no < len(jobs) else None
