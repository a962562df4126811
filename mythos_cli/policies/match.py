"""Play one game between two policies."""

from __future__ import annotations

from dataclasses import dataclass

from mythos_cli.engine.game import GameDeck, apply, new_game
from mythos_cli.engine.state import GameState
from mythos_cli.policies.base import Observation


@dataclass(slots=True)
class MatchResult:
    winner: int
    scores: tuple[int, int]
    state: GameState


def play_match(deck_a: GameDeck, deck_b: GameDeck, policy_a, policy_b, seed: int, *, events: bool = False,
               first: int | None = None, check=None) -> MatchResult:
    """A complete game; seat 0 plays ``deck_a`` with ``policy_a``. Deterministic given ``seed``."""
    g = new_game(deck_a, deck_b, seed, events=events, first=first)
    policy_a.reset(seed * 2 + 1)
    policy_b.reset(seed * 2 + 2)
    policies = (policy_a, policy_b)
    while not g.is_terminal:
        player = g.pending.player
        apply(g, policies[player].decide(Observation(g, player)))
        if check is not None:
            check(g)
    return MatchResult(g.winner, (g.players[0].score, g.players[1].score), g)
