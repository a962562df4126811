"""Escape hatches: effects the effect language cannot say yet, one named function each.

A card line uses one with a step ``{ special = "name" }``. The name and the English the tool
prints for it are declared in ``mythos_cli.catalog.language.SPECIALS`` (so the catalog can
validate and render cards without the engine); the behaviour is registered here with
``@special("name")`` and the interpreter calls ``RUN[name](g, frame, step)``. Every entry is a debt: it needs its own
scenario test, ``mythos cards coverage`` lists the cards that use it, and the language should
grow instead as soon as a second card needs the same thing.

Neither set needs one: every Konoha Shidō and Shinobi Shiren line is said in the language itself.
"""

from __future__ import annotations

from typing import Callable

from mythos_cli.catalog.language import SPECIALS, Step
from mythos_cli.engine.state import Frame, GameState

RUN: dict[str, Callable[[GameState, Frame, Step], None]] = {}


def special(name: str):
    """Register the behaviour of an escape hatch declared (with its English) in ``SPECIALS``."""
    if name not in SPECIALS:
        raise KeyError(f"declare the special {name!r} and its English in language.SPECIALS first")

    def register(fn: Callable[[GameState, Frame, Step], None]):
        RUN[name] = fn
        return fn

    return register
