"""What a deck is made of: cost curve, groups, keywords, timings, averages."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from mythos_cli.catalog.model import TIMING_LABELS
from mythos_cli.decks.model import DECK, MISSIONS, Deck


def _ranked(counter: Counter) -> dict[str, int]:
    return dict(sorted(counter.items(), key=lambda kv: (-kv[1], kv[0])))


@dataclass(slots=True)
class DeckStats:
    name: str | None
    cards: int
    curve: dict[int, int] = field(default_factory=dict)  # cost → copies, every cost from 0 to the top
    types: dict[str, int] = field(default_factory=dict)
    groups: dict[str, int] = field(default_factory=dict)
    keywords: dict[str, int] = field(default_factory=dict)
    timings: dict[str, int] = field(default_factory=dict)  # copies with at least one line of a timing
    average_cost: float | None = None
    average_power: float | None = None  # characters only: an attachment's power modifies its host
    missions: list[dict[str, Any]] = field(default_factory=list)
    sections: dict[str, int] = field(default_factory=dict)
    colours: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "cards": self.cards,
            "curve": {str(k): v for k, v in self.curve.items()},
            "types": self.types,
            "groups": self.groups,
            "keywords": self.keywords,
            "timings": self.timings,
            "average_cost": None if self.average_cost is None else round(self.average_cost, 2),
            "average_power": None if self.average_power is None else round(self.average_power, 2),
            "missions": self.missions,
            "sections": self.sections,
            "colours": self.colours,
        }


def deck_stats(deck: Deck) -> DeckStats:
    """Statistics of the deck section (copies counted) and the missions.

    For lists of the other formats, whose cards are not in the catalog, only sections
    and colours are known.
    """
    stats = DeckStats(deck.name, deck.count(DECK))
    stats.sections = {s: deck.count(s) for s in deck.sections}
    colours: Counter = Counter()
    for e in deck.entries:
        for c in set(e.colours):
            colours[c] += e.qty
    stats.colours = _ranked(colours)
    cards = [(e.card, e.qty) for e in deck.cards if e.card is not None and e.card.type != "mission"]
    if cards:
        costs: Counter = Counter()
        types: Counter = Counter()
        groups: Counter = Counter()
        keywords: Counter = Counter()
        timings: Counter = Counter()
        for card, qty in cards:
            costs[card.cost or 0] += qty
            types[card.type] += qty
            groups[card.group or "—"] += qty
            for k in card.keywords:
                keywords[k] += qty
            for t in {line.timing for line in card.effects}:
                timings[TIMING_LABELS[t]] += qty
        stats.curve = {c: costs.get(c, 0) for c in range(0, max(costs) + 1)}
        stats.types = _ranked(types)
        stats.groups = _ranked(groups)
        stats.keywords = _ranked(keywords)
        stats.timings = _ranked(timings)
        n = sum(q for _, q in cards)
        stats.average_cost = sum((c.cost or 0) * q for c, q in cards) / n
        characters = [(c, q) for c, q in cards if c.type == "character"]
        if characters:
            stats.average_power = sum((c.power or 0) * q for c, q in characters) / sum(q for _, q in characters)
    stats.missions = [
        {"id": e.card.id, "name": e.card.name, "points": e.card.points, "qty": e.qty}
        for e in deck.section(MISSIONS) if e.card is not None
    ]
    return stats
