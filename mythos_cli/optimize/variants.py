"""Changes to a deck: one card (or mission) out, one in; a variant is one or two of them.

A swap keeps the slot: the card coming in takes the position of the card going out in the
deck's card list. The engine shuffles a deck by position, so the variant and its reference
deck, given the same seed, draw the same cards in the same order except for that slot: the
two games are the same game until the slot is drawn (common random numbers at their best).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Iterable

from mythos_cli.optimize.pool import COPY_LIMIT, Pool
from mythos_cli.sim.plan import DeckSpec


@dataclass(frozen=True, order=True)
class Swap:
    """One copy of ``out`` leaves, one copy of ``into`` comes in (a mission for a mission when ``mission``)."""

    out: str
    into: str
    mission: bool = False

    @property
    def label(self) -> str:
        return f"-{self.out} +{self.into}"

    def to_json(self) -> list:
        return [self.out, self.into, self.mission]

    @classmethod
    def from_json(cls, x) -> "Swap":
        return cls(x[0], x[1], bool(x[2]))


def canonical(swaps: Iterable[Swap]) -> tuple[Swap, ...]:
    """One way to write a set of swaps: the cards out sorted, matched with the cards in sorted.

    ``-A +C, -B +D`` and ``-A +D, -B +C`` make the same deck: both become the first."""
    swaps = list(swaps)
    out: list[Swap] = []
    for mission in (False, True):
        part = [s for s in swaps if s.mission == mission]
        outs = sorted(s.out for s in part)
        ins = sorted(s.into for s in part)
        out.extend(Swap(o, i, mission) for o, i in zip(outs, ins))
    return tuple(out)


def label(swaps: Iterable[Swap]) -> str:
    return ", ".join(s.label for s in swaps) or "no change"


def apply(deck: DeckSpec, swaps: Iterable[Swap], name: str | None = None) -> DeckSpec:
    """The deck with the swaps made, each card coming in at the slot of the card going out.

    Raises ``ValueError`` if a card to take out is not there."""
    cards = list(deck.cards)
    missions = list(deck.missions)
    taken: set[int] = set()
    for s in canonical(swaps):
        slots = missions if s.mission else cards
        for i, c in enumerate(slots):
            key = (s.mission, i)
            if c == s.out and key not in taken:
                slots[i] = s.into
                taken.add(key)  # type: ignore[arg-type]
                break
        else:
            raise ValueError(f"{s.out} is not in the deck ({'missions' if s.mission else 'cards'})")
    return DeckSpec(name or deck.name, tuple(cards), tuple(missions))


def legal(deck: DeckSpec, base: DeckSpec, pool: Pool) -> bool:
    """Copies within the pool's limits (the base deck's own copies are owned), 3 different missions."""
    base_counts = Counter(base.cards)
    for card, n in Counter(deck.cards).items():
        if n > COPY_LIMIT or n > max(base_counts.get(card, 0), pool.cards.get(card, 0)):
            return False
    if len(set(deck.missions)) != len(deck.missions):
        return False
    allowed = set(pool.missions) | set(base.missions)
    return all(m in allowed for m in deck.missions)


def difference(base: DeckSpec, deck: DeckSpec) -> tuple[Swap, ...]:
    """The swaps that turn ``base`` into ``deck`` as multisets (what a player changes)."""
    out: list[Swap] = []
    for mission, a, b in ((False, base.cards, deck.cards), (True, base.missions, deck.missions)):
        gone = sorted((Counter(a) - Counter(b)).elements())
        came = sorted((Counter(b) - Counter(a)).elements())
        out.extend(Swap(o, i, mission) for o, i in zip(gone, came))
    return tuple(out)


def single_swaps(deck: DeckSpec, base: DeckSpec, pool: Pool, missions: bool) -> list[Swap]:
    """Every legal one-for-one swap of ``deck`` from the pool."""
    out: list[Swap] = []
    outs = sorted(set(deck.cards))
    for o in outs:
        for i in sorted(pool.cards):
            if i != o and legal(apply(deck, [Swap(o, i)]), base, pool):
                out.append(Swap(o, i))
    if missions:
        for o in sorted(set(deck.missions)):
            for i in sorted(pool.missions):
                if i not in deck.missions:
                    out.append(Swap(o, i, True))
    return out


def to_text(deck: DeckSpec, name: str | None = None, comment: str | None = None) -> str:
    """The deck as a canonical text list (ids with names), e.g. to save a proposal."""
    from mythos_cli.catalog import default_catalog
    from mythos_cli.decks import Deck, DeckEntry, write
    from mythos_cli.decks.model import DECK, MISSIONS

    cat = default_catalog()
    counts = Counter(deck.cards)
    order = list(dict.fromkeys(deck.cards))
    entries = [DeckEntry(c, counts[c], DECK, cat.by_id[c].full_name, card=cat.by_id[c]) for c in order]
    entries += [DeckEntry(m, 1, MISSIONS, cat.by_id[m].full_name, card=cat.by_id[m]) for m in deck.missions]
    text = write(Deck(name or deck.name, {}, tuple(entries)), "text")
    if comment:
        text = "".join(f"# {line}\n" for line in comment.splitlines()) + text
    return text


def validate(deck: DeckSpec, name: str | None = None):
    """``mythos validate`` on the deck's text list: the Verdict (``.valid``, ``.errors``)."""
    from mythos_cli.decks import Source, check_source

    return check_source(Source(f"<{name or deck.name}>", to_text(deck, name)), "mythos")


__all__ = ["Swap", "apply", "canonical", "difference", "label", "legal", "single_swaps", "to_text", "validate"]
