"""Plain-English descriptions of effect lines, derived from their encoding.

The text is the tool's own: the rules core renders it from the very effect-language trees it
plays (``core/src/language/render.rs``), so it can never disagree with what the engine does. A
line not yet encoded says so.
"""

from __future__ import annotations

from mythos_cli.catalog.model import Card, EffectLine

NOT_ENCODED = "(not yet encoded: the engine cannot play this line)"


def describe(line: EffectLine, card: Card) -> str:
    """The tool's wording of one effect line of ``card`` (an attachment's "this character" is its
    host, "the attached character"), rendered by the rules core from the very trees it plays."""
    from mythos_cli import _core

    return _core.describe(card.id)[card.effects.index(line)]
