"""One planned game: who sits where with which deck and player, and playing it.

``run_batch`` plays a run's games inside the core (``_core.play_batch``) when both players are
built in, and through ``play_game`` when one is written in Python; ``mythos replay`` replays a
stored game through ``play_game`` from the game's seed. The two paths play the same game
(checked in the tests), so a replay is the stored game, and is checked against it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from mythos_cli.policies import play_match
from mythos_cli.policies.players import stored_policy
from mythos_cli.sim.plan import DeckSpec, GameJob, RunConfig
from mythos_cli.store.layout import setup_key


@dataclass(frozen=True)
class Setup:
    """Seat 0 and seat 1 of a planned game: decks, player specs, and the stored setup key."""

    decks: tuple[DeckSpec, DeckSpec]
    policies: tuple[str, str]
    key: str
    matchup: str
    builtin: bool = True  # both players are the core's own: the batch plays inside the core
    mulligans: tuple[bool | None, bool | None] = (None, None)  # per seat, a forced mulligan answer


def player(config: RunConfig, spec: str):
    """The player of a spec of the run's plan: a built-in one rebuilt from it, a Python one only
    from the file the user named on this command line (``config.python_players``): a plan may
    come from a database, and a stored spec is never imported (``StoredPythonPlayer``)."""
    return stored_policy(spec, config.mulligan, config.python_players)


def check_players(config: RunConfig) -> None:
    """Make the run's two players once, before any game: ``PolicySpecError`` (a stored spec the
    core does not know, ``StoredPythonPlayer`` for a Python one nobody named) says why not."""
    for spec in dict.fromkeys((config.policy_a, config.policy_b)):
        player(config, spec)


def game_setup(config: RunConfig, job: GameJob) -> Setup:
    if not config.matchups:
        config.plan()
    m = config.matchups[job.matchup]
    studied, opp = config.decks[m.deck], config.decks[m.opponent]
    if job.seat_of_deck == 0:
        decks, pols = (studied, opp), (config.policy_a, config.policy_b)
    else:
        decks, pols = (opp, studied), (config.policy_b, config.policy_a)
    players = (player(config, pols[0]), player(config, pols[1]))
    key = setup_key([m.label, decks[0].name, decks[0].hash, decks[1].name, decks[1].hash,
                     players[0].spec, players[1].spec])
    return Setup(decks, pols, key, m.label, all(p.builtin for p in players),
                 config.forced_mulligan(job.matchup, job.seat_of_deck))


def play_game(config: RunConfig, job: GameJob, setup: Setup | None = None, *,
              watch: Callable[[Any], None] | None = None):
    """Play one planned game from its seed, with the event stream, one decision at a time (a
    ``_core.Game``); ``watch`` (read-only) sees the game after every decision (what ``mythos
    replay`` uses to name units)."""
    setup = setup or game_setup(config, job)
    pa, pb = player(config, setup.policies[0]), player(config, setup.policies[1])
    return play_match(setup.decks[0], setup.decks[1], pa, pb, job.seed, events=True, check=watch,
                      mulligans=setup.mulligans).game
