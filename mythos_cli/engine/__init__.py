"""The rules engine of Naruto Mythos (seed 000 and the FAQ rulings).

The public API has the OpenSpiel shape::

    from mythos_cli.engine import new_game, legal_actions, apply
    g = new_game(deck_a, deck_b, seed=1)
    while not g.is_terminal:
        apply(g, policy(g, legal_actions(g)))
    g.winner, scores(g)
"""

from __future__ import annotations

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

__all__ = [
    "EngineStall",
    "GameDeck",
    "GameState",
    "IllegalAction",
    "apply",
    "current_player",
    "deck_from_catalog",
    "legal_actions",
    "new_game",
    "play_random_game",
    "returns",
    "scores",
]
