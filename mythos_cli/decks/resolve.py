"""Resolving a Mythos list against the catalog: each reference to one card version."""

from __future__ import annotations

from dataclasses import replace
from typing import Iterable

from mythos_cli.catalog.catalog import Catalog, Lookup, parse_card_id
from mythos_cli.catalog.model import Card
from mythos_cli.catalog.names import fold, name_key
from mythos_cli.decks.model import MISSIONS, Deck, DeckEntry, Problem, error, warning
from mythos_cli.decks.syntax import is_id


def card_ref(card: Card) -> str:
    """How a suggestion names a card: its only printing or its version, then its name."""
    ident = card.printings[0] if len(card.printings) == 1 else card.id
    return f"{ident} {card.full_name}"


def did_you_mean(cards: Iterable[Card], limit: int = 3) -> str | None:
    cards = list(cards)
    if not cards:
        return None
    shown = ", ".join(card_ref(c) for c in cards[:limit])
    return f"did you mean {shown}{', …' if len(cards) > limit else ''}?"


def _suggestions(found: Lookup, catalog: Catalog, ref: str, section: str) -> list[Card]:
    """The catalog's suggestions, kept to the kind of card the section holds."""
    want_mission = section == MISSIONS
    kept = [c for c in found.suggestions if (c.type == "mission") == want_mission]
    if kept:
        return kept
    parsed = parse_card_id(ref)
    if parsed is not None:
        same_set = [c for c in catalog if c.set == parsed.set and (c.type == "mission") == want_mission]
        same_set.sort(key=lambda c: (abs(c.number - parsed.number), c.number))
        return same_set[:3]
    return found.suggestions


def _refine_printing(card: Card, ref: str, printing: str | None) -> str | None:
    """``KS-133_2`` names an alternate art without its rarity: find it if only one fits.

    A printing id that is also the version id (a mission's ``KS-001-MMS``) names no
    particular printing.
    """
    if printing is not None:
        return None if printing == card.id else printing
    parsed = parse_card_id(ref) if is_id(ref) else None
    if parsed is None or not parsed.alt:
        return None
    fits = [p for p in card.printings if f"_{parsed.alt}-" in p]
    return fits[0] if len(fits) == 1 else None


def _name_matches(ref: str, card: Card) -> bool:
    name, _, title = ref.partition("/")
    return name_key(name) == card.name_key and (not title.strip() or fold(title.strip()) == fold(card.title))


def resolve_entry(entry: DeckEntry, catalog: Catalog, found: Lookup) -> tuple[DeckEntry | None, list[Problem]]:
    """One entry and its catalog lookup → the resolved entry, or the problem."""
    line = [entry.line]
    if found.found:
        card = found.card
        printing = _refine_printing(card, entry.ref, found.printing)
        problems: list[Problem] = []
        if not is_id(entry.ref) and not _name_matches(entry.ref, card):
            problems.append(warning("guessed-card", f"{entry.ref!r} read as {card_ref(card)}",
                                    f"write the id {card.id} to be sure", line))
        label_name = entry.label.partition("/")[0]
        other = catalog.by_name.get(name_key(label_name)) if label_name.strip() else None
        if other and name_key(label_name) != card.name_key:
            problems.append(warning("label-mismatch", f"{entry.ref} is {card.full_name}, but the line says {entry.label!r}",
                                    f"check the id: {other[0].name} is {', '.join(c.id for c in other[:4])}", line))
        return replace(entry, card=card, printing=printing), problems
    if found.ambiguous:
        names = ", ".join(f"{c.id} {c.full_name}" for c in found.cards[:8])
        more = f" and {len(found.cards) - 8} more" if len(found.cards) > 8 else ""
        example = found.cards[0]
        return None, [error("ambiguous-card", f"{entry.ref!r} matches {len(found.cards)} cards: {names}{more}",
                            f"write the id, or the name and title, e.g. `{entry.qty} {example.name} / {example.title}`"
                            if example.title else f"write the id, e.g. `{entry.qty} {example.id}`", line)]
    detail = found.problem or f"no card matches {entry.ref!r}"
    prefix = f"{found.query}: "
    if detail.startswith(prefix):
        detail = detail[len(prefix):]
    shown = entry.ref if is_id(entry.ref) else repr(entry.ref)
    message = f"unknown card: {detail}" if detail.startswith("no card named") else f"unknown card {shown}: {detail}"
    hint = did_you_mean(_suggestions(found, catalog, entry.ref, entry.section))
    if not is_id(entry.ref):
        hint = (hint + " " if hint else "") + "(`mythos cards list --name PART` searches the catalog)"
    return None, [error("unknown-card", message, hint, line)]


def resolve(deck: Deck, catalog: Catalog) -> tuple[Deck, list[Problem]]:
    """Resolve every entry; unresolvable entries are left out and reported.

    In the missions section a bare number (``KS-001``) means the mission, since missions
    share their numbers 1–10 with characters.
    """
    problems: list[Problem] = []
    entries: list[DeckEntry] = []
    cache: dict[tuple[str, str | None], Lookup] = {}
    for entry in deck.entries:
        if entry.card is not None:
            entries.append(entry)
            continue
        prefer = "mission" if entry.section == MISSIONS else None
        key = (entry.ref.strip(), prefer)
        if key not in cache:
            cache[key] = catalog.lookup(entry.ref, prefer=prefer)
        resolved, trouble = resolve_entry(entry, catalog, cache[key])
        problems.extend(trouble)
        if resolved is not None:
            entries.append(resolved)
    return deck.with_entries(entries), problems
