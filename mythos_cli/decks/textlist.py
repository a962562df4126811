"""The text list, mythos' canonical deck format.

::

    # comment
    name: Leaf Village Rush              # header lines: `key: value`
    2 KS-009-C                           # quantity + printing id
    2x KS-001  Hiruzen Sarutobi          # "x" allowed; a version id; text after the id is a label
    1 kakashi hatake / teacher of team 7 # a name; "name / title" when the name is ambiguous
    KS-010-C x2                          # a quantity after the card works too
    missions:                            # a section header (case-insensitive)
    KS-001-MMS                           # no quantity means 1
    KS-005-MMS
    SS-003-MMS

Cards before the first section header are in the ``deck`` section. A colour in brackets
at the end of a line (``3 Some Card [red/blue]``) is read for the gencon-2027 format.
"""

from __future__ import annotations

import re

from mythos_cli.decks.model import DECK, MAX_QTY, Deck, DeckEntry, Problem, error, warning
from mythos_cli.decks.syntax import (
    ID_LIKE,
    ID_TOKEN,
    SECTION_WORDS,
    is_id,
    parse_qty,
    section_key,
    split_colours,
)

# More card lines than this is not a deck list; stopping keeps a huge file fast.
MAX_ENTRIES = 500

_SECTION = re.compile(r"^([A-Za-z][A-Za-z0-9 _-]*?)\s*:\s*$")
_HEADER = re.compile(r"^([A-Za-z][A-Za-z0-9_-]*)\s*:\s*(.*?)\s*$")
_QTY = re.compile(r"^(?P<q>[+-]?\d[\d.,]*)(?:(?P<x>[xX×])\s*|\s+|$)(?P<rest>.*)$")
_XQTY = re.compile(r"^[xX×](?P<q>[+-]?\d[\d.,]*)\s+(?P<rest>.+)$")
# A comment is '#' at the start of a line, or after a space and followed by a space or the
# end: "Deck #2" keeps its '#'.
_COMMENT = re.compile(r"(?:^|\s)#(?:\s.*)?$")
LINE_BREAK = re.compile(r"\r\n|\r|\n")


def _strip_comment(text: str) -> str:
    return _COMMENT.sub("", text).strip()


def parse_entry(text: str, line: int | None, section: str) -> tuple[list[DeckEntry], list[Problem]]:
    """One card line (comment already removed) → entries, or the problems that stop it."""
    qty_text = None
    m = _QTY.match(text) or _XQTY.match(text)
    if m:
        qty_text, rest = m.group("q"), m.group("rest").strip()
        # "2 x KS-009": an "x" standing alone before an id.
        xm = re.match(r"^[xX×]\s+(.*)$", rest)
        if xm and ID_TOKEN.match(xm.group(1)):
            rest = xm.group(1)
    else:
        rest = text
        first, after = (text.split(None, 1) + [""])[:2]
        if after.strip() and ID_TOKEN.match(after.strip()) and not ID_LIKE.match(first) and "/" not in first:
            return [], [error("bad-quantity", f"quantity {first!r} is not a number",
                              f"write a whole number from 1 to {MAX_QTY} before the card, e.g. `2 {after.strip()}`", [line])]
    rest, colours = split_colours(rest)
    # "KS-009-C x2", "Rashomon x2": a quantity written after the card.
    tail = re.match(r"^(?P<card>.*\S)\s+[xX×]\s?(?P<q>[+-]?\d[\d.,]*)$", rest)
    if tail:
        if qty_text is not None:
            return [], [error("bad-quantity", f"two quantities on one line ({qty_text} and x{tail.group('q')})",
                              f"keep one: `{tail.group('q')} {tail.group('card')}`", [line])]
        qty_text, rest = tail.group("q"), tail.group("card")
    if colours is not None and not colours:
        return [], [error("bad-colour", "empty colour brackets []", "write the card's colour, e.g. `3 Some Card [red]`, or drop the brackets", [line])]
    if not rest:
        what = f"quantity {qty_text}" if qty_text else "this line"
        return [], [error("missing-card", f"{what} names no card", "write the card after the quantity, e.g. `2 KS-009-C`", [line])]
    qty = 1
    if qty_text is not None:
        parsed, problem = parse_qty(qty_text, rest, line, "{n} " + rest.replace("{", "{{").replace("}", "}}"))
        if problem:
            return [], [problem]
        qty = parsed
    # "KS-001-MMS, KS-005-MMS, SS-003-MMS": several ids on one line, one copy each.
    if qty_text is None and "," in rest and all(is_id(p) for p in rest.split(",")):
        return [DeckEntry(p.strip(), 1, section, line=line, colours=colours or ()) for p in rest.split(",")], []
    idm = ID_TOKEN.match(rest)
    if idm:
        ref, label = idm.group("id"), rest[idm.end():].strip()
    elif ID_LIKE.match(rest):
        token = rest.split()[0]
        return [], [error("bad-id", f"{token!r} is not a card id",
                          "ids look like KS-009, KS-009-C, KS-108-RA or SS-001-MMS", [line])]
    else:
        ref, label = rest, ""
        # Only words that cannot be card names: "Chakra" or "Summon" may well be cards.
        if qty_text is None and section_key(rest) in {"deck", "main", "cards", "characters", "attachments", "missions", "mission"}:
            return [], [error("bad-section", f"{rest!r} looks like a section header without its colon",
                              f"write `{section_key(rest)}:` to start the section", [line])]
    return [DeckEntry(ref, qty, section, label=label, colours=colours or (), line=line)], []


def parse_text(text: str) -> tuple[Deck, list[Problem]]:
    """Parse a text list. Never raises: what cannot be read becomes a problem."""
    problems: list[Problem] = []
    name: str | None = None
    name_line: int | None = None
    header: dict[str, str] = {}
    header_lines: dict[str, int] = {}
    section_lines: dict[str, int] = {}
    entries: list[DeckEntry] = []
    section = DECK
    for number, raw in enumerate(LINE_BREAK.split(text), start=1):
        stripped = raw.strip().lstrip("\ufeff")
        if not stripped or stripped.startswith("#"):
            continue
        if len(entries) + len(problems) >= MAX_ENTRIES:
            problems.append(error("too-many-lines", f"more than {MAX_ENTRIES} card lines: this is not a deck list",
                                  "a deck list has a few dozen lines; check that this is the right file", [number]))
            break
        bare = _strip_comment(stripped)
        if not bare:
            continue
        sm = _SECTION.match(bare)
        if sm:
            section = section_key(sm.group(1))
            section_lines.setdefault(section, number)
            continue
        hm = _HEADER.match(bare)
        if hm and not ID_LIKE.match(bare):
            key, value = hm.group(1).lower(), hm.group(2)
            if section_key(key) in SECTION_WORDS:
                section = section_key(key)
                section_lines.setdefault(section, number)
                found, trouble = parse_entry(_strip_comment(value), number, section)
                entries.extend(found)
                problems.extend(trouble)
                continue
            if key == "name":
                if name is not None:
                    problems.append(warning("repeated-header", f"the deck name is given twice (lines {name_line} and {number}); the last one counts",
                                            "keep one `name:` line", [number, name_line]))
                name, name_line = value, number
            else:
                if key in header:
                    problems.append(warning("repeated-header", f"header {key!r} is given twice (lines {header_lines[key]} and {number}); the last one counts",
                                            f"keep one `{key}:` line", [number, header_lines[key]]))
                header[key], header_lines[key] = value, number
            if ID_TOKEN.match(value) or re.match(r"^\d+\s*[xX×]?\s+(KS|SS)", value, re.I):
                problems.append(warning("header-looks-like-card", f"`{key}: {value}` is read as a header line, not as a card",
                                        f"to start a section, write `{key}:` alone on its line and the cards below it", [number]))
            continue
        found, trouble = parse_entry(bare, number, section)
        entries.extend(found)
        problems.extend(trouble)
    if name_line is not None:
        header_lines["name"] = name_line
    return Deck(name=name, header=header, entries=tuple(entries), section_lines=section_lines,
                header_lines=header_lines), problems


# ---- writing -----------------------------------------------------------------------------
def _safe(text: str, what: str) -> str:
    text = re.sub(r"\s+", " ", text).strip()
    if _COMMENT.search(text) or "[" in text or "]" in text:
        raise ValueError(f"{what} {text!r} cannot be written in a text list (it holds a ' # ' comment, '[' or ']')")
    return text


def _entry_line(e: DeckEntry, bare_single: bool) -> str:
    if e.card is not None:
        ref, label = e.written_id, e.card.full_name if e.card.type != "mission" else e.card.name
    else:
        ref, label = _safe(e.ref, "card reference"), _safe(e.label, "label") if e.label else ""
    for c in e.colours:
        if not c.strip() or re.search(r"[/,+\[\]]", c) or _COMMENT.search(c):
            raise ValueError(f"colour {c!r} cannot be written in a text list")
    text = ref if bare_single and e.qty == 1 else f"{e.qty} {ref}"
    if label:
        text += f"  {label}"
    if e.colours:
        text += " [" + "/".join(" ".join(c.split()) for c in e.colours) + "]"
    # Whatever a name looks like, the line must read back as the same entry.
    back, trouble = parse_entry(_strip_comment(text), None, e.section)
    if trouble or len(back) != 1 or (back[0].ref, back[0].qty, back[0].label, back[0].colours) != (
            ref, e.qty, label, tuple(" ".join(c.split()).lower() for c in e.colours)):
        raise ValueError(f"{ref!r} cannot be written unambiguously in a text list")
    return text


def write_text(deck: Deck) -> str:
    """The canonical text list: header, the deck section, then the other sections."""
    lines: list[str] = []
    for key in deck.header:
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_-]*", key) or section_key(key) in SECTION_WORDS or key.lower() == "name":
            raise ValueError(f"header key {key!r} cannot be written in a text list")
    header = ({"name": deck.name} if deck.name else {}) | deck.header
    for key, value in header.items():
        value = re.sub(r"\s+", " ", value).strip()
        if _COMMENT.search(value):
            raise ValueError(f"header {key!r} holds a ' # ' comment and cannot be written in a text list")
        if not value:
            raise ValueError(f"header {key!r} has no value")
        lines.append(f"{key}: {value}")
    sections = deck.sections
    if DECK in sections:
        sections.remove(DECK)
        sections.insert(0, DECK)
    for i, section in enumerate(sections):
        if lines:
            lines.append("")
        if i > 0 or section != DECK:
            lines.append(f"{section}:")
        # Missions are one copy each: written bare, as players write them.
        bare = section == "missions"
        lines.extend(_entry_line(e, bare) for e in deck.section(section))
    return "\n".join(lines) + "\n"
