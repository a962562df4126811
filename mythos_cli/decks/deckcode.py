"""The community deck code of the public Naruto Mythos deck builders.

``CARDID--QTY|CARDID--QTY|…|Deck_Name`` on one line: each segment a card id, two dashes
and a quantity, the deck's name last with underscores for spaces. Mission ids (``-MMS``)
are the missions; every other card is in the deck. Variant id forms (``KS-133_2``,
``KS-108-R ART``, ``KS-131-SECRET``) are read as the catalog reads them.
"""

from __future__ import annotations

import re

from mythos_cli.catalog.catalog import parse_card_id
from mythos_cli.decks.model import DECK, MISSIONS, Deck, DeckEntry, Problem, error
from mythos_cli.decks.syntax import ID_LIKE, is_id, parse_qty
from mythos_cli.decks.textlist import MAX_ENTRIES

_SEGMENT = re.compile(r"^(?P<id>.+?)--(?P<q>.*)$")
CODE_HINT = "a deck code reads CARDID--QTY|CARDID--QTY|…|Deck_Name, e.g. KS-009-C--2|KS-001-MMS--1|My_Deck"


def looks_like_code(text: str) -> bool:
    """One line with ``|`` between parts, or a lone ``ID--QTY``: never a text list."""
    line = text.strip()
    if "\n" in line or "\r" in line:
        return False
    return "|" in line or bool(re.match(r"^(?:KS|SS)\S*--", line, re.I))


def parse_code(code: str, line: int | None = 1) -> tuple[Deck, list[Problem]]:
    """Parse a deck code; ``line`` is where it sits in its file. Never raises."""
    problems: list[Problem] = []
    segments = [s.strip() for s in code.strip().split("|")]
    while segments and not segments[-1]:
        segments.pop()  # a trailing "|" is harmless
    name = None
    if segments and "--" not in segments[-1] and not is_id(segments[-1]) and not ID_LIKE.match(segments[-1]):
        name = segments.pop().replace("_", " ").strip() or None
    if len(segments) > MAX_ENTRIES:
        return Deck(name=name), [error("too-many-lines", f"the deck code has {len(segments)} cards: this is not a deck",
                                       "check that this is the right code", [line])]
    if not segments:
        problems.append(error("not-a-deck-list", "the deck code holds no card", CODE_HINT, [line]))
    entries: list[DeckEntry] = []
    for i, seg in enumerate(segments, start=1):
        where = f"segment {i} {seg!r}" if seg else f"segment {i}"
        if not seg:
            problems.append(error("malformed-code", f"{where} of the deck code is empty (two '|' in a row)", CODE_HINT, [line]))
            continue
        m = _SEGMENT.match(seg)
        if not m:
            single = re.match(r"^(?P<id>.+)-(?P<q>\d+)$", seg)
            if is_id(seg):
                why, fix = "has no quantity", f"write {seg}--1"
            elif single and is_id(single.group("id")):
                why, fix = "is not CARDID--QTY", f"two dashes before the quantity: {single.group('id')}--{single.group('q')}"
            else:
                why, fix = "is not CARDID--QTY", CODE_HINT + " (the name goes last)"
            problems.append(error("malformed-code", f"{where} of the deck code {why}", fix, [line]))
            continue
        card_id, qty_text = m.group("id").strip(), m.group("q").strip()
        if not is_id(card_id):
            problems.append(error("bad-id", f"{where} of the deck code: {card_id!r} is not a card id",
                                  "ids look like KS-009-C, KS-108-RA or SS-001-MMS", [line]))
            continue
        qty, problem = parse_qty(qty_text, f"{card_id} (segment {i})", line, card_id + "--{n}")
        if problem:
            problems.append(problem)
            continue
        ref = parse_card_id(card_id)
        section = MISSIONS if ref is not None and ref.rarity == "MMS" else DECK
        entries.append(DeckEntry(card_id, qty, section, line=line))
    return Deck(name=name, entries=tuple(entries)), problems


def write_code(deck: Deck) -> str:
    """The deck code of a Mythos list: cards, missions, then the name."""
    other = [s for s in deck.sections if s not in (DECK, MISSIONS)]
    if other:
        raise ValueError(f"a deck code has no sections: {', '.join(other)} cannot be written")
    if any(e.colours for e in deck.entries):
        raise ValueError("a deck code has no colours")
    if not deck.entries:
        raise ValueError("a deck code needs at least one card")
    parts = []
    for section in (DECK, MISSIONS):
        for e in deck.section(section):
            ref = e.written_id
            if e.card is not None and (section == MISSIONS) != (e.card.type == "mission"):
                place = "the missions" if section == MISSIONS else "the deck"
                raise ValueError(f"{e.card.id} {e.card.name} is in {place}: a deck code cannot say that (it places cards by their id)")
            if not is_id(ref):
                raise ValueError(f"{ref!r} is not a card id: a deck code lists ids (resolve the list first)")
            parts.append(f"{ref}--{e.qty}")
    name = code_name(deck.name)
    if name:
        parts.append(name)
    return "|".join(parts) + "\n"


def code_name(name: str | None) -> str | None:
    """A deck name as the code writes it: underscores for spaces, no ``|`` or ``--``.

    A name that would read back as a card (``KS 9``) is left out.
    """
    if not name:
        return None
    coded = re.sub(r"-{2,}", "-", re.sub(r"\s+", "_", name.strip()).replace("|", "/"))
    return coded if coded and not is_id(coded) and not ID_LIKE.match(coded) else None
