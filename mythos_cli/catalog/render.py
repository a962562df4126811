"""Plain-English descriptions of effect lines, derived from their encoding.

The text is the tool's own: it is generated from the effect-language tree, so it can
never disagree with what the engine does. A line not yet encoded says so.
"""

from __future__ import annotations

from mythos_cli.catalog.model import TIMING_LABELS, Card, EffectLine

NOT_ENCODED = "(not yet encoded: the engine cannot play this line)"


def describe(line: EffectLine, card: Card) -> str:
    """The tool's wording of one effect line of ``card`` (an attachment's "this character" is its
    host, "the attached character"), rendered by the rules core from the very trees it plays."""
    from mythos_cli import _core

    return _core.describe(card.id)[card.effects.index(line)]


def python_describe(line: EffectLine, card: Card | None = None) -> str:
    """The Python renderer's wording: the reference the core's golden renderings were made from
    (``core/tests/make_renderings.py``), kept until the Python engine retires."""
    if line.encoding is None:
        if line.kind == "modifier" and line.modifies:
            return f"changes the {TIMING_LABELS[line.modifies]} line {NOT_ENCODED}"
        return NOT_ENCODED
    source = "attachment" if card is not None and card.type == "attachment" and card.attach_to == "character" else None
    return line.encoding.render(line.modifies, source)


def core_describe(card: Card) -> list[str]:
    """The Rust core's wording of every effect line of ``card``, in card order (what ``describe``
    gives line by line). Raises ImportError when the core (``mythos_cli._core``) is not built."""
    from mythos_cli import _core

    return list(_core.describe(card.id))
