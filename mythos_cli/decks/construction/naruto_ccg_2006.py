"""The 2006 Naruto CCG (Bandai) deck construction, as seed 003 states it.

A list names its cards (they are not in the Mythos catalog) under card-type sections::

    name: Konoha Starter
    ninja:
    3 Naruto Uzumaki
    3 Sakura Haruno
    jutsu:
    3 Shadow Clone Jutsu
    mission:
    2 Chunin Exam Entry
    client:
    1 Tazuna

Readings we had to pick:
- "Each player needs a 50 card deck": the deck holds exactly 50 cards (not "at least").
- "No more than 3 copies of a card with the same name": copies count by name across every
  section; a ``name / subtitle`` line counts under its name, the part before the slash.
- The deck "will consist of" Ninja, Jutsu and Mission cards, plus the advanced Client
  cards the seed's card-type list names: every card sits under one of those sections, and
  no type is mandatory (a deck without Ninja only draws a warning).
"""

from __future__ import annotations

from collections import defaultdict

from mythos_cli.catalog.catalog import Catalog
from mythos_cli.catalog.names import fold, name_key
from mythos_cli.decks.construction import (
    Construction,
    Executable,
    Report,
    dropped_lines,
    line_list,
    lines_of,
    map_sections,
    plural,
    reject_mythos_ids,
    warn_colours,
)
from mythos_cli.decks.model import Deck, DeckEntry, Problem, error, warning

DECK_SIZE = 50
MAX_COPIES = 3
TYPES = ("ninja", "jutsu", "mission", "client")
SECTIONS = {
    "ninja": "ninja", "ninjas": "ninja",
    "jutsu": "jutsu", "jutsus": "jutsu",
    "mission": "mission", "missions": "mission",
    "client": "client", "clients": "client",
}


def card_name(ref: str) -> str:
    return " ".join(ref.partition("/")[0].split())


def check(deck: Deck, catalog: Catalog | None = None, executable: Executable | None = None,
          prior: list[Problem] | None = None) -> Report:
    problems: list[Problem] = []
    deck, found = map_sections(deck, FORMAT)
    problems += found
    problems += warn_colours(deck, FORMAT)
    deck, found = reject_mythos_ids(deck, FORMAT)
    problems += found

    size = sum(e.qty for e in deck.entries)
    if size != DECK_SIZE:
        note = " (lines with errors are not counted)" if dropped_lines(prior or [], problems) else ""
        fix = f"add {plural(DECK_SIZE - size, 'card')}" if size < DECK_SIZE else f"remove {plural(size - DECK_SIZE, 'card')}"
        problems.append(error("deck-size", f"the deck has {plural(size, 'card')}{note}: a 2006 Naruto CCG deck has exactly {DECK_SIZE}", fix))

    by_name: dict[str, list[DeckEntry]] = defaultdict(list)
    for e in deck.entries:
        by_name[name_key(card_name(e.ref)) or fold(e.ref)].append(e)
    for entries in by_name.values():
        total = sum(e.qty for e in entries)
        shown = card_name(entries[0].ref)
        if total > MAX_COPIES:
            problems.append(error(
                "too-many-copies",
                f"{total} copies of cards named {shown} ({line_list(lines_of(entries))}): at most {MAX_COPIES} copies of a card with the same name",
                f"remove {plural(total - MAX_COPIES, 'copy', 'copies')}", lines_of(entries)))
        elif len(entries) > 1 and len({fold(' '.join(e.ref.split())) for e in entries}) == 1:
            problems.append(warning("repeated-line", f"{shown} is listed on {line_list(lines_of(entries))}: counted together as {total}",
                                    "merge them into one line", lines_of(entries)))
        types = sorted({e.section for e in entries})
        if len(types) > 1:
            problems.append(warning("type-conflict", f"{shown} is listed as {' and as '.join(types)} ({line_list(lines_of(entries))})",
                                    "a card has one type: keep it under one section", lines_of(entries)))

    counts = {"deck": size} | {t: deck.count(t) for t in TYPES}
    if deck.entries and not counts["ninja"]:
        problems.append(warning("no-ninja", "the deck has no Ninja: nothing to deploy or to battle with",
                                "add Ninja cards under `ninja:`"))
    return Report(deck, problems, counts)


FORMAT = Construction(
    name="naruto-ccg-2006",
    summary="2006 Naruto CCG: exactly 50 cards, at most 3 with the same name, Ninja/Jutsu/Mission/Client sections",
    sections=SECTIONS,
    check=check,
)
