"""Helpers for the tests of the core's players: a sample deck as the core takes it, a game of two."""

from __future__ import annotations

from mythos_cli import _core


def ids(deck):
    """A deck spec as the core takes it: (card version ids, mission version ids)."""
    return list(deck.cards), list(deck.missions)


def core_game(a, b, seed):
    """A new core game of deck `a` (seat 0) against deck `b` from `seed`."""
    return _core.Game(*ids(a), *ids(b), seed)
