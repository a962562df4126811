"""Helpers for the tests of the core's players: a sample deck as the core takes it, a game of two."""

from __future__ import annotations

from mythos_cli import _core


def ids(deck):
    """A deck spec as the core takes it: (card version ids, mission version ids)."""
    return list(deck.cards), list(deck.missions)


def core_game(a, b, seed):
    """A new core game of deck `a` (seat 0) against deck `b` from `seed`."""
    return _core.Game(*ids(a), *ids(b), seed)


def decision_history(a, b, spec, seed):
    """Every action of a game: deck `a` played by `spec` against deck `b` played by greedy,
    the players reset as ``play_match`` resets them."""
    c = core_game(a, b, seed)
    p = [_core.Player(spec), _core.Player("greedy")]
    p[0].reset(seed * 2 + 1)
    p[1].reset(seed * 2 + 2)
    out = []
    while not c.is_terminal:
        action = p[c.pending()["player"]].decide(c)
        out.append(action)
        c.apply(action)
    return out
