"""The catalog: every card version, found by printing id, version id or (fuzzy) name."""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Iterable, Sequence

from rapidfuzz import fuzz

from mythos_cli.catalog.model import Card
from mythos_cli.catalog.names import fold, name_key

# Forms seen in community deck codes and typed by players, normalised to the catalog's
# rarity suffixes.
RARITY_ALIASES = {
    "RART": "RA",
    "R-ART": "RA",
    "RAREART": "RA",
    "SECRET": "S",
    "SECRETV": "SV",
    "MYTHOS": "M",
    "MYTHOSV": "MV",
    "LEGENDARY": "L",
    "COMMON": "C",
    "UNCOMMON": "UC",
    "RARE": "R",
    "MISSION": "MMS",
    "MSS": "MMS",
    "M-V": "MV",
    "S-V": "SV",
}
ID_RE = re.compile(r"^\s*(KS|SS)[\s-]*0*(\d{1,3})(?:_(\d+))?(?:[\s-]+([A-Z][A-Z \-]*?))?\s*$", re.I)


@dataclass(frozen=True, slots=True)
class CardId:
    """A parsed card reference: set, number, alternate-art index and rarity (if given)."""

    set: str
    number: int
    alt: int | None
    rarity: str | None

    @property
    def version(self) -> str:
        return f"{self.set}-{self.number:03d}"

    @property
    def printing(self) -> str | None:
        if not self.rarity:
            return None
        alt = f"_{self.alt}" if self.alt and self.alt > 1 else ""
        return f"{self.set}-{self.number:03d}{alt}-{self.rarity}"


def parse_card_id(text: str) -> CardId | None:
    """Parse ``KS-108-RA``, ``ks108``, ``KS-133_2``, ``KS-108-R ART`` … or return None."""
    m = ID_RE.match(text)
    if not m:
        return None
    set_code, number, alt, rarity = m.group(1).upper(), int(m.group(2)), m.group(3), m.group(4)
    if rarity:
        rarity = rarity.upper().strip()
        squashed = re.sub(r"[\s]+", "", rarity)
        rarity = RARITY_ALIASES.get(squashed, RARITY_ALIASES.get(rarity, squashed))
    return CardId(set_code, number, int(alt) if alt else None, rarity or None)


@dataclass(slots=True)
class Lookup:
    """The answer to "which card is this?": one card, several candidates, or suggestions."""

    query: str
    cards: list[Card] = field(default_factory=list)
    suggestions: list[Card] = field(default_factory=list)
    printing: str | None = None  # the printing named by the query, when it named one
    problem: str | None = None  # why nothing matched exactly

    @property
    def found(self) -> bool:
        return len(self.cards) == 1

    @property
    def ambiguous(self) -> bool:
        return len(self.cards) > 1

    @property
    def card(self) -> Card:
        if len(self.cards) != 1:
            raise LookupError(self.query)
        return self.cards[0]


class Catalog:
    """Every card version of the bundled sets.

    >>> cat = default_catalog()
    >>> cat["KS-108-RA"].name
    'Naruto Uzumaki'
    >>> [c.id for c in cat.lookup("kakashi hatake / leader of team 7").cards]
    ['KS-...']
    """

    def __init__(self, cards: Iterable[Card]):
        self.cards: list[Card] = list(cards)
        self.by_id: dict[str, Card] = {}
        self.by_printing: dict[str, Card] = {}
        self.by_name: dict[str, list[Card]] = defaultdict(list)
        for card in self.cards:
            if card.id in self.by_id:
                raise ValueError(f"duplicate card version {card.id}")
            self.by_id[card.id] = card
            for p in card.printings:
                if p in self.by_printing:
                    raise ValueError(f"printing {p} belongs to {self.by_printing[p].id} and {card.id}")
                self.by_printing[p] = card
            self.by_name[card.name_key].append(card)
        self._names = sorted(self.by_name)

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self):
        return iter(self.cards)

    def __getitem__(self, ref: str) -> Card:
        found = self.lookup(ref)
        if not found.found:
            raise KeyError(ref)
        return found.card

    def get(self, ref: str) -> Card | None:
        found = self.lookup(ref)
        return found.card if found.found else None

    # ---- lookups ---------------------------------------------------------------------
    def lookup(self, query: str, *, prefer: str | None = None) -> Lookup:
        """Resolve a printing id, a version id or a name (``"name / title"`` narrows it).

        ``prefer="mission"`` resolves a bare number shared by a character and a mission
        (``KS-001``) to the mission, as a deck list's missions section means it.
        """
        query = query.strip()
        ref = parse_card_id(query)
        if ref is not None:
            return self._lookup_id(query, ref, prefer)
        return self._lookup_name(query)

    def _lookup_id(self, query: str, ref: CardId, prefer: str | None) -> Lookup:
        out = Lookup(query)
        if ref.rarity:
            printing = ref.printing
            card = self.by_printing.get(printing)
            if card is None and ref.alt is None:
                card = self.by_printing.get(printing.replace(f"-{ref.rarity}", f"_1-{ref.rarity}"))
            if card is not None:
                out.cards, out.printing = [card], printing
                return out
            version = self.by_id.get(ref.version) or self.by_id.get(ref.version + "-MMS")
            if ref.rarity == "MMS":
                version = self.by_id.get(ref.version + "-MMS")
            if version is not None:
                out.problem = f"{query}: {version.id} {version.name} has no {ref.rarity} printing (printings: {', '.join(version.printings)})"
                out.suggestions = [version]
            else:
                out.problem = f"{query}: no card {ref.version} in the catalog"
                out.suggestions = self._near_numbers(ref)
            return out
        ids = [ref.version, ref.version + "-MMS"]
        if prefer == "mission":
            ids.reverse()
        for vid in ids:
            if vid in self.by_id:
                out.cards = [self.by_id[vid]]
                return out
        out.problem = f"{query}: no card {ref.version} in the catalog"
        out.suggestions = self._near_numbers(ref)
        return out

    def _near_numbers(self, ref: CardId) -> list[Card]:
        in_set = [c for c in self.cards if c.set == ref.set]
        in_set.sort(key=lambda c: abs(c.number - ref.number))
        return in_set[:3]

    def _lookup_name(self, query: str) -> Lookup:
        out = Lookup(query)
        name_part, _, title_part = query.partition("/")
        key = name_key(name_part)
        if not key:
            out.problem = "empty card name"
            return out
        candidates = self.by_name.get(key)
        if candidates is None:
            candidates = self._fuzzy_names(key)
        if candidates and title_part.strip():
            named = candidates
            candidates = self._narrow_by_title(named, title_part.strip())
            if not candidates:
                out.problem = f"no {named[0].name} has the title {title_part.strip()!r}"
                out.suggestions = sorted(named, key=lambda c: (c.set, c.number))
                return out
        if candidates:
            out.cards = sorted(candidates, key=lambda c: (c.set, c.number))
            return out
        out.problem = f"no card named {query!r}"
        out.suggestions = self.suggest(query)
        return out

    def _word_score(self, words: list[str], name: str) -> float:
        """How well every query word matches some word of a name (0-100, the weakest word)."""
        name_words = name.split("-")
        scores = []
        for w in words:
            if any(nw.startswith(w) for nw in name_words):
                scores.append(100.0)
            else:
                scores.append(max(fuzz.ratio(w, nw) for nw in name_words))
        return min(scores)

    def _fuzzy_names(self, key: str, cutoff: float = 80) -> list[Card]:
        """Names whose words all match the query's words, by prefix ("naruto") or closely ("narto")."""
        words = key.split("-")
        scored = [(self._word_score(words, n), n) for n in self._names]
        best = max(s for s, _ in scored)
        if best < cutoff:
            return []
        return [c for s, n in scored if s == best for c in self.by_name[n]]

    def suggest(self, query: str, limit: int = 3) -> list[Card]:
        """The closest cards to a query that matched nothing, one per name, best first."""
        words = name_key(query.partition("/")[0]).split("-")
        scored = sorted(((self._word_score(words, n), n) for n in self._names), reverse=True)
        return [self.by_name[n][0] for s, n in scored[:limit] if s >= 40]

    @staticmethod
    def _narrow_by_title(cards: Sequence[Card], title: str) -> list[Card]:
        wanted = fold(title)
        exact = [c for c in cards if fold(c.title) == wanted]
        if exact:
            return exact
        # Whole-title similarity first ("furry of the rasengan" is Fury of the Rasengan, not
        # Rasengan, although every word of "rasengan" appears in it), word overlap second.
        scored = [((fuzz.ratio(wanted, fold(c.title)), fuzz.token_set_ratio(wanted, fold(c.title))), c) for c in cards]
        top = max(s for s, _ in scored)
        if max(top) < 70:
            return []
        return [c for s, c in scored if s == top]

    # ---- listing -----------------------------------------------------------------------
    def filter(
        self,
        *,
        set: str | None = None,
        type: str | None = None,
        group: str | None = None,
        keyword: str | None = None,
        cost: int | None = None,
        name: str | None = None,
    ) -> list[Card]:
        """Cards matching every given filter (case-insensitive; name matches a part)."""
        out = []
        for c in self.cards:
            if set and c.set != set.upper():
                continue
            if type and c.type != type.lower():
                continue
            if group and fold(c.group or "") != fold(group) and not fold(c.group or "").startswith(fold(group)):
                continue
            if keyword and fold(keyword) not in {fold(k) for k in c.keywords}:
                continue
            if cost is not None and c.cost != cost:
                continue
            if name and fold(name) not in fold(f"{c.name} {c.title}") and name_key(name) != c.name_key:
                continue
            out.append(c)
        return out
