"""The small grammar shared by the list formats: card id tokens, quantities, colours."""

from __future__ import annotations

import re

from mythos_cli.decks.model import MAX_QTY, Problem, error

# A card id at the start of a line, before a label: ``KS-009``, ``ks009``, ``KS-133_2``,
# ``KS-108-RA``, ``KS-108-R ART``, ``KS-131-SECRET``, ``SS-001_2-MMS``. A rarity is only
# read after a dash, so ``KS-009 Naruto`` is the id ``KS-009`` with the label ``Naruto``.
_ID = r"(?:KS|SS)[-\s]?0*\d{1,3}(?:_\d+)?(?:-(?:R[ -]ART|[A-Z]+(?:-V)?))?"
ID_TOKEN = re.compile(rf"^(?P<id>{_ID})(?=$|\s|\[|,)", re.I)
ID_FULL = re.compile(rf"^\s*{_ID}\s*$", re.I)
# Something that starts like an id but is not one (``KS-009-C-2``, ``KS-0x9``).
ID_LIKE = re.compile(r"^(?:KS|SS)[-\s]?\d", re.I)
ID_VERSION = re.compile(r"^(KS|SS)[-\s]?0*(\d{1,3})", re.I)

_INT = re.compile(r"^[+-]?\d+$")
QTY_HINT = f"write a whole number from 1 to {MAX_QTY} before the card, e.g. `2 KS-009-C`"


def is_id(text: str) -> bool:
    return bool(ID_FULL.match(text))


def parse_qty(text: str, what: str, line: int | None, example: str | None = None) -> tuple[int | None, Problem | None]:
    """A quantity as written (``2``, ``-1``, ``two``, ``2.5``, ``1000``) → a number or a problem.

    ``example`` shows the line written right, with ``{n}`` for the quantity.
    """
    raw = text.strip()
    if not _INT.match(raw):
        kind = "not a whole number" if re.match(r"^[+-]?[\d.,]+$", raw) else "not a number"
        hint = f"write a whole number from 1 to {MAX_QTY}, e.g. `{example.format(n=2)}`" if example else QTY_HINT
        return None, error("bad-quantity", f"quantity {raw!r} for {what} is {kind}", hint, [line])
    if len(raw.lstrip("+-")) > 6:
        return None, error("absurd-quantity", f"quantity {raw[:12]}{'…' if len(raw) > 12 else ''} for {what} is absurd",
                           f"at most {MAX_QTY} copies on one line; a Mythos deck allows 2 copies of a version", [line])
    qty = int(raw)
    if qty <= 0:
        reason = "zero" if qty == 0 else "negative"
        return None, error("bad-quantity", f"quantity {qty} for {what} is {reason}",
                           "remove the line, or write how many copies you play (at least 1)", [line])
    if qty > MAX_QTY:
        return None, error("absurd-quantity", f"quantity {qty} for {what} is absurd",
                           f"at most {MAX_QTY} copies on one line; a Mythos deck allows 2 copies of a version", [line])
    return qty, None


def split_colours(text: str) -> tuple[str, tuple[str, ...] | None]:
    """``"Some Card [red/blue]"`` → ``("Some Card", ("red", "blue"))``; no brackets → None."""
    m = re.search(r"\[([^\[\]]*)\]\s*$", text)
    if not m:
        return text, None
    colours = tuple(c.strip().lower() for c in re.split(r"[/,+]", m.group(1)) if c.strip())
    return text[: m.start()].rstrip(), colours


def version_of(text: str) -> str | None:
    """The ``KS-009`` a broken id starts with, to suggest the card it probably meant."""
    m = ID_VERSION.match(text.strip())
    return f"{m.group(1).upper()}-{int(m.group(2)):03d}" if m else None


# Every section word some construction format knows. A ``word: value`` line whose word
# is one of these is a section with one card on the same line (``leader: Naruto [orange]``,
# ``missions: KS-001-MMS, KS-005-MMS, SS-003-MMS``); any other is a header line.
SECTION_WORDS = frozenset({
    "deck", "main", "cards", "characters", "attachments", "missions", "mission",  # mythos
    "ninja", "ninjas", "jutsu", "jutsus", "client", "clients",  # naruto-ccg-2006
    "leader", "leaders", "chakra", "chakras", "summon", "summons",  # gencon-2027
})


def section_key(text: str) -> str:
    """``"  Missions "`` → ``"missions"``: section names compare case- and space-insensitively."""
    return re.sub(r"[\s_-]+", " ", text).strip().lower()
