"""The Gencon 2027 Naruto card game, from the provisional community report (seed 004).

A list names its cards with their colours in brackets, in four sections::

    name: Orange Rush
    leader:
    1 Naruto Uzumaki [orange]
    chakra:
    5 Chakra [orange]
    summon:
    1 Gamabunta
    deck:                       (cards before any section are in the deck too)
    3 Shadow Clone [orange]
    3 Rasengan [orange/blue]    a card of two colours

Readings we had to pick (the report is provisional and says little):
- "A deck contains 50 cards": exactly 50, not counting the leader, Chakra and Summon cards,
  which the report lists as used *also*.
- "up to three copies of each card": a card is its name, or ``name / title`` when a title is
  written; colours do not make two cards different.
- "every card in the deck must share a colour with the leader": the 50 deck cards, each
  with at least one colour in brackets; the leader must have one. Chakra and Summon cards
  need no colour. Colour names are free words, compared case-insensitively.
- Five Chakra cards may be copies of one card: the report sets no limit on them.
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
)
from mythos_cli.decks.model import DECK, Deck, DeckEntry, Problem, error, warning

DECK_SIZE = 50
MAX_COPIES = 3
EXACT = {"leader": 1, "chakra": 5, "summon": 1}
SECTIONS = {
    "leader": "leader", "leaders": "leader",
    "chakra": "chakra", "chakras": "chakra",
    "summon": "summon", "summons": "summon",
    "deck": DECK, "main": DECK, "cards": DECK,
}


def card_key(ref: str) -> tuple[str, str]:
    name, _, title = ref.partition("/")
    return name_key(name) or fold(name.strip()), fold(" ".join(title.split()))


def _shown(e: DeckEntry) -> str:
    return " ".join(e.ref.split())


def _colours(colours: tuple[str, ...]) -> str:
    return "[" + "/".join(colours) + "]"


def check(deck: Deck, catalog: Catalog | None = None, executable: Executable | None = None,
          prior: list[Problem] | None = None) -> Report:
    problems: list[Problem] = []
    deck, found = map_sections(deck, FORMAT)
    problems += found
    deck, found = reject_mythos_ids(deck, FORMAT)
    problems += found

    counts = {"deck": deck.count(DECK)} | {s: deck.count(s) for s in EXACT}
    dropped = dropped_lines(prior or [], problems)
    note = " (lines with errors are not counted)" if dropped else ""
    for section, wanted in EXACT.items():
        have = counts[section]
        if have != wanted:
            entries = deck.section(section)
            what = {"leader": "leader card", "chakra": "Chakra card", "summon": "Summon card"}[section]
            fix = (f"list {plural(wanted, what)} under `{section}:`" if not have
                   else f"keep {plural(wanted, what)} under `{section}:`")
            problems.append(error(f"{section}-count", f"{plural(have, what)}{note}: a Gencon 2027 player uses exactly {wanted}",
                                  fix, [deck.section_lines.get(section)] + lines_of(entries)))
    if counts["deck"] != DECK_SIZE:
        size = counts["deck"]
        fix = f"add {plural(DECK_SIZE - size, 'card')}" if size < DECK_SIZE else f"remove {plural(size - DECK_SIZE, 'card')}"
        problems.append(error("deck-size", f"the deck has {plural(size, 'card')}{note}: a Gencon 2027 deck has exactly {DECK_SIZE} "
                              "(leader, Chakra and Summon cards apart)", fix))

    by_card: dict[tuple[str, str], list[DeckEntry]] = defaultdict(list)
    for e in deck.section(DECK):
        by_card[card_key(e.ref)].append(e)
    for entries in by_card.values():
        total = sum(e.qty for e in entries)
        if total > MAX_COPIES:
            problems.append(error("too-many-copies",
                                  f"{total} copies of {_shown(entries[0])} ({line_list(lines_of(entries))}): at most {MAX_COPIES} copies of each card",
                                  f"remove {plural(total - MAX_COPIES, 'copy', 'copies')}", lines_of(entries)))
        elif len(entries) > 1:
            problems.append(warning("repeated-line", f"{_shown(entries[0])} is listed on {line_list(lines_of(entries))}: counted together as {total}",
                                    "merge them into one line", lines_of(entries)))

    leaders = deck.section("leader")
    leader = leaders[0] if len(leaders) == 1 and leaders[0].qty == 1 else None
    if leader is not None and not leader.colours:
        problems.append(error("missing-colour", f"the leader {_shown(leader)} has no colour",
                              f"write its colour in brackets: `1 {_shown(leader)} [red]`", [leader.line]))
    for e in deck.section(DECK):
        if not e.colours:
            problems.append(error("missing-colour", f"{_shown(e)} has no colour: every deck card must share a colour with the leader",
                                  f"write its colour in brackets: `{e.qty} {_shown(e)} [red]`", [e.line]))
        elif leader is not None and leader.colours and not set(e.colours) & set(leader.colours):
            problems.append(error("off-colour", f"{_shown(e)} {_colours(e.colours)} shares no colour with the leader "
                                  f"{_shown(leader)} {_colours(leader.colours)}",
                                  f"every deck card must share a colour with the leader: replace it with a {'/'.join(leader.colours)} card",
                                  [e.line, leader.line]))
    return Report(deck, problems, counts)


FORMAT = Construction(
    name="gencon-2027",
    summary="Gencon 2027 (provisional): 50 cards up to 3 copies, 1 leader, 5 Chakra, 1 Summon, colours shared with the leader",
    sections=SECTIONS,
    check=check,
)
