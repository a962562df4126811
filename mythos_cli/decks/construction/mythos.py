"""Naruto Mythos deck construction (seed 000, the official rulebook and FAQ).

Rules (errors):
- at least 30 cards in the deck: characters and attachments; missions are apart;
- at most 2 copies of one version (set + number): every printing and art of a number
  counts together, while any number of cards may share a character name;
- exactly 3 missions, all different.

Advice (warnings, the deck stays legal); the thresholds are ours, not the rulebook's:
- more than 30 cards: each card is drawn less often;
- a heavy curve: an average cost above 4.0, or more than 6 cards costing 6 or more.
  A round gives 5 chakra plus 1 per character in play, so in the first rounds a hand of
  4- to 6-drops plays one card a round;
- few cheap plays: fewer than 6 cards costing 2 or less (a 30-card deck then opens with
  about one in a hand of 5, and round 1 has only 5 chakra to spend);
- cards with effect lines the engine cannot execute yet (asked of the engine, so the
  warning shrinks as the engine grows).
"""

from __future__ import annotations

from collections import defaultdict

from mythos_cli.catalog.catalog import Catalog
from mythos_cli.decks.construction import (
    Construction,
    Executable,
    Report,
    dropped_lines,
    line_list,
    lines_of,
    map_sections,
    plural,
    warn_colours,
)
from mythos_cli.decks.model import DECK, MISSIONS, Deck, DeckEntry, Problem, error, warning
from mythos_cli.decks.resolve import card_ref, resolve

MIN_DECK = 30
MAX_COPIES = 2
MISSION_COUNT = 3
HEAVY_AVERAGE = 4.0
HEAVY_COST = 6
HEAVY_COUNT = 6
CHEAP_COST = 2
CHEAP_MIN = 6

SECTIONS = {
    "deck": DECK, "main": DECK, "cards": DECK, "characters": DECK, "attachments": DECK,
    "missions": MISSIONS, "mission": MISSIONS,
}


def _copies(cards: list[DeckEntry]) -> list[Problem]:
    problems: list[Problem] = []
    by_version: dict[str, list[DeckEntry]] = defaultdict(list)
    for e in cards:
        if e.card is not None:
            by_version[e.card.id].append(e)
    for version, entries in by_version.items():
        total = sum(e.qty for e in entries)
        card = entries[0].card
        lines = lines_of(entries)
        if total > MAX_COPIES:
            printings = sorted({e.printing or version for e in entries})
            same = (f"; {' and '.join(printings)} are the same version" if len(printings) > 1 else "")
            where = f" ({line_list(lines)})" if lines else ""
            problems.append(error(
                "too-many-copies",
                f"{total} copies of {version} {card.full_name}{where}: at most {MAX_COPIES} copies of one version{same}",
                f"remove {total - MAX_COPIES} cop{'y' if total - MAX_COPIES == 1 else 'ies'}; every printing and art of "
                f"{version} counts together (other cards named {card.name} are fine)", lines))
            continue
        by_printing: dict[str | None, list[DeckEntry]] = defaultdict(list)
        for e in entries:
            by_printing[e.printing].append(e)
        for printing, same in by_printing.items():
            if len(same) > 1:
                problems.append(warning(
                    "repeated-line",
                    f"{printing or version} {card.name} is listed on {line_list(lines_of(same))}: counted together as {sum(e.qty for e in same)}",
                    "merge them into one line", lines_of(same)))
    return problems


def _missions(deck: Deck) -> list[Problem]:
    problems: list[Problem] = []
    missions = [e for e in deck.missions if e.card is None or e.card.type == "mission"]
    total = sum(e.qty for e in missions)
    if not deck.missions:
        return [error("mission-count", "no missions: a Mythos player brings exactly 3 different missions",
                      "add 3 different missions, e.g. KS-001-MMS, KS-005-MMS, SS-003-MMS (under `missions:` in a text list)",
                      [deck.section_lines.get(MISSIONS)])]
    by_version: dict[str, list[DeckEntry]] = defaultdict(list)
    for e in missions:
        if e.card is not None:
            by_version[e.card.id].append(e)
    for version, entries in by_version.items():
        copies = sum(e.qty for e in entries)
        if copies > 1:
            card = entries[0].card
            problems.append(error(
                "repeated-mission",
                f"mission {version} {card.name} is listed {copies} times ({line_list(lines_of(entries))}): the 3 missions must all be different",
                "replace the extra copy with another mission (`mythos cards list --type mission`)", lines_of(entries)))
    if total != MISSION_COUNT:
        fix = (f"add {plural(MISSION_COUNT - total, 'more mission')}" if total < MISSION_COUNT
               else f"remove {plural(total - MISSION_COUNT, 'mission')}")
        problems.append(error("mission-count", f"{plural(total, 'mission')}: a Mythos player brings exactly 3 different missions",
                              fix, [deck.section_lines.get(MISSIONS)] + lines_of(missions)))
    return problems


def _advice(cards: list[DeckEntry], size: int) -> list[Problem]:
    problems: list[Problem] = []
    if size > MIN_DECK:
        problems.append(warning("over-30", f"{size} cards: legal, but each card is drawn less often than in a 30-card deck",
                                f"cut {size - MIN_DECK} unless you mean it"))
    costed = [(e.card.cost, e.qty) for e in cards if e.card is not None and e.card.cost is not None]
    n = sum(q for _, q in costed)
    if not n:
        return problems
    average = sum(c * q for c, q in costed) / n
    top = sum(q for c, q in costed if c >= HEAVY_COST)
    if average > HEAVY_AVERAGE or top > HEAVY_COUNT:
        why = []
        if average > HEAVY_AVERAGE:
            why.append(f"average cost {average:.1f} (above {HEAVY_AVERAGE:.1f})")
        if top > HEAVY_COUNT:
            why.append(f"{top} cards cost {HEAVY_COST} or more (over {HEAVY_COUNT})")
        problems.append(warning("heavy-curve", f"heavy curve: {' and '.join(why)}",
                                "a round gives 5 chakra + 1 per character in play: swap some expensive cards for cheaper ones or plan to upgrade"))
    cheap = sum(q for c, q in costed if c <= CHEAP_COST)
    if cheap < CHEAP_MIN:
        have = f"only {plural(cheap, 'card')} cost" if cheap else "no card costs"
        problems.append(warning("few-cheap-plays", f"{have} {CHEAP_COST} or less (fewer than {CHEAP_MIN})",
                                "early rounds have 5 chakra: add cheap characters, or plan hidden plays (1 chakra each)"))
    return problems


def _engine(deck: Deck, executable: Executable | None) -> list[Problem]:
    if executable is None:
        return []
    seen: dict[str, object] = {}
    for e in deck.entries:
        if e.card is not None and e.card.id not in seen and any(not executable(line) for line in e.card.effects):
            seen[e.card.id] = e.card
    if not seen:
        return []
    total = len({e.card.id for e in deck.entries if e.card is not None})
    ids = list(seen)
    shown = ", ".join(ids[:10]) + (", …" if len(ids) > 10 else "")
    return [warning("engine-unsupported",
                    f"{len(ids)} of the {total} different cards and missions have effects the engine cannot execute yet ({shown})",
                    "this does not make the deck illegal; simulations cannot play those effects faithfully until the engine supports them "
                    "(`mythos cards coverage`)")]


def check(deck: Deck, catalog: Catalog | None, executable: Executable | None = None,
          prior: list[Problem] | None = None) -> Report:
    """Validate a parsed list; ``prior`` are the problems found while reading it."""
    if catalog is None:
        raise ValueError("the mythos format needs the card catalog")
    problems: list[Problem] = []
    deck, found = map_sections(deck, FORMAT)
    problems += found
    problems += warn_colours(deck, FORMAT)
    deck, found = resolve(deck, catalog)
    problems += found

    for e in deck.cards:
        if e.card is not None and e.card.type == "mission":
            problems.append(error("mission-in-deck", f"{card_ref(e.card)} is a mission: missions are not part of the deck",
                                  "move it under `missions:`", [e.line]))
    for e in deck.missions:
        if e.card is not None and e.card.type != "mission":
            problems.append(error("not-a-mission", f"{card_ref(e.card)} is a{'n' if e.card.type[0] in 'aeiou' else ''} {e.card.type}, not a mission",
                                  "move it above `missions:`, into the deck", [e.line]))
    cards = [e for e in deck.cards if e.card is None or e.card.type != "mission"]
    size = sum(e.qty for e in cards)
    if size < MIN_DECK:
        note = " (lines with errors are not counted)" if dropped_lines(prior or [], problems) else ""
        problems.append(error("too-few-cards", f"the deck has {plural(size, 'card')}{note}: a Mythos deck needs at least {MIN_DECK} (missions not counted)",
                              f"add {MIN_DECK - size} more character{'s' if MIN_DECK - size != 1 else ''} or attachment{'s' if MIN_DECK - size != 1 else ''}"))
    problems += _copies(cards)
    problems += _missions(deck)
    problems += _advice(cards, size)
    problems += _engine(deck, executable)
    missions = sum(e.qty for e in deck.missions if e.card is None or e.card.type == "mission")
    return Report(deck, problems, {"deck": size, "missions": missions})


FORMAT = Construction(
    name="mythos",
    summary="Naruto Mythos TCG: at least 30 cards, at most 2 copies of a version, 3 different missions",
    sections=SECTIONS,
    check=check,
    uses_catalog=True,
)
