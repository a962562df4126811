"""The rules engine of Naruto Mythos (seed 000 and the FAQ rulings).

The public API has the OpenSpiel shape::

    from mythos_cli.engine import new_game, legal_actions, apply
    g = new_game(deck_a, deck_b, seed=1)
    while not g.is_terminal:
        apply(g, policy(g, legal_actions(g)))
    g.winner, scores(g)
"""

from __future__ import annotations

from mythos_cli.catalog.model import EffectLine
from mythos_cli.engine.game import (
    EngineStall,
    GameDeck,
    apply,
    current_player,
    deck_from_catalog,
    legal_actions,
    new_game,
    play_random_game,
    returns,
    scores,
)
from mythos_cli.engine.rules import IllegalAction
from mythos_cli.engine.state import GameState

# What the interpreter runs. A line is executable when every clause of its encoding is
# one of these (the parser already refuses anything it does not know).
_RUNNABLE_TIMINGS = {"main", "upgrade", "ambush", "score", "duel", "first_strike"}


def executable(line: EffectLine) -> bool:
    """Whether the engine can play this effect line."""
    if line.encoding is None:
        return False
    if line.kind == "condition":  # an attachment's ATTACH line: where it may go
        return line.timing == "attach" and line.encoding.host is not None
    if line.timing not in _RUNNABLE_TIMINGS and line.kind != "continuous":
        return False
    from mythos_cli.catalog.coverage import specials_of
    from mythos_cli.engine.specials import RUN

    return all(name in RUN for name in specials_of(line))


__all__ = [
    "EngineStall",
    "GameDeck",
    "GameState",
    "IllegalAction",
    "apply",
    "current_player",
    "deck_from_catalog",
    "executable",
    "legal_actions",
    "new_game",
    "play_random_game",
    "returns",
    "scores",
]
