"""The pool: which cards and missions may come into the deck, and how many copies of each.

A pool starts as every card of both sets. Each ``--pool`` value narrows it:

* ``KS`` or ``SS`` (or ``set=KS``): one set;
* ``group=Leaf Village`` (or a prefix, ``group=leaf``), ``keyword=Team 7``, ``type=attachment``;
* a file: a collection list (any list format, any number of copies, ``missions:`` for the
  missions owned): only the cards it names, at most as many copies as it holds.

Values of one kind widen each other (``group=leaf`` and ``group=sand``: either group), values
of different kinds narrow each other (``KS`` and ``group=leaf``: the Leaf cards of KS); two
collection files add up. Filters by group, keyword and type concern deck cards; missions are
narrowed by set and collection only. The deck's own cards count as owned: a collection never
forbids a card the deck already holds.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from mythos_cli.catalog import default_catalog
from mythos_cli.catalog.model import Card
from mythos_cli.catalog.names import fold

COPY_LIMIT = 2  # the mythos construction format: at most 2 copies of one version
KINDS = ("set", "group", "keyword", "type")


class PoolError(ValueError):
    """A ``--pool`` value that cannot be understood (with a hint)."""

    def __init__(self, message: str, hint: str | None = None):
        super().__init__(message)
        self.message, self.hint = message, hint


@dataclass
class Pool:
    """Card versions that may come in, each with the most copies a deck may hold."""

    cards: dict[str, int]  # deck cards (characters, attachments): version id -> copy limit
    missions: list[str]  # mission version ids
    described: str = "every card of both sets"
    left_out: list[str] = field(default_factory=list)  # cards the engine cannot play yet

    def limit(self, card: str, base_copies: int = 0) -> int:
        """How many copies of ``card`` a proposed deck may hold (the deck's own copies are owned)."""
        return max(self.cards.get(card, 0), min(base_copies, COPY_LIMIT))

    def to_json(self) -> dict:
        return {"cards": dict(sorted(self.cards.items())), "missions": sorted(self.missions),
                "described": self.described, "left_out": self.left_out}

    @classmethod
    def from_json(cls, d: dict) -> "Pool":
        return cls(dict(d["cards"]), list(d["missions"]), d.get("described", ""), list(d.get("left_out", [])))


def _collection(path: str) -> tuple[dict[str, int], dict[str, int]]:
    from mythos_cli.decks import check_input

    verdict = check_input(path, "mythos")
    if not verdict.readable or verdict.deck is None:
        first = verdict.problems[0] if verdict.problems else None
        raise PoolError(f"--pool {path}: cannot read this collection list" + (f" ({first.message})" if first else ""))
    if verdict.blocking:
        p = verdict.blocking[0]
        raise PoolError(f"--pool {path}:{p.line or ''} {p.message}", p.hint or "fix the line, or leave it out")
    return verdict.deck.counts("deck"), verdict.deck.counts("missions")


def _match(card: Card, kind: str, value: str) -> bool:
    if kind == "set":
        return card.set == value.upper()
    if card.type == "mission":  # groups, keywords and types describe deck cards
        return True
    if kind == "group":
        g = fold(card.group or "")
        return g == fold(value) or g.startswith(fold(value))
    if kind == "keyword":
        return fold(value) in {fold(k) for k in card.keywords}
    return card.type == value.lower()


def build_pool(values: list[str] | None) -> Pool:
    """The pool for ``--pool`` values (None or empty: every card of both sets)."""
    from mythos_cli.catalog.coverage import executable

    cat = default_catalog()
    filters: dict[str, list[str]] = {}
    owned: dict[str, int] | None = None
    owned_missions: dict[str, int] | None = None
    words = []
    for raw in values or []:
        v = raw.strip()
        if not v:
            continue
        kind, eq, value = v.partition("=")
        kind = kind.strip().lower()
        if eq and kind in KINDS:
            value = value.strip()
        elif v.upper() in ("KS", "SS"):
            kind, value = "set", v.upper()
        elif os.path.exists(v) or os.path.splitext(v)[1]:
            if not os.path.exists(v):  # (a FIFO or a device is refused by the list reader, saying what it is)
                raise PoolError(f"--pool {v}: no such file", "give a collection list, a set (KS, SS), "
                                "group=NAME, keyword=NAME or type=character|attachment")
            if os.path.isdir(v):
                raise PoolError(f"--pool {v}: a folder, not a collection list", "give the list's file")
            cards, missions = _collection(v)
            owned = owned or {}
            owned_missions = owned_missions or {}
            for c, n in cards.items():
                owned[c] = owned.get(c, 0) + n
            for m, n in missions.items():
                owned_missions[m] = owned_missions.get(m, 0) + n
            words.append(f"the cards of {os.path.basename(v)}")
            continue
        else:
            raise PoolError(f"--pool {v!r}: not a set, a filter or a file",
                            "e.g. --pool KS, --pool \"group=Leaf Village\", --pool \"keyword=Team 7\", "
                            "--pool type=attachment or --pool my-collection.txt")
        if not value:
            raise PoolError(f"--pool {v!r}: {kind}= needs a value")
        if kind == "set" and value.upper() not in ("KS", "SS"):
            raise PoolError(f"--pool {v!r}: unknown set", "the sets are KS and SS")
        if kind == "type" and value.lower() not in ("character", "attachment"):
            raise PoolError(f"--pool {v!r}: a deck card is a character or an attachment")
        filters.setdefault(kind, []).append(value)
        words.append(f"{kind} {value}")
    cards: dict[str, int] = {}
    missions: list[str] = []
    left_out: list[str] = []
    for card in cat:
        if not all(any(_match(card, k, v) for v in vs) for k, vs in filters.items()):
            continue
        if any(not executable(line) for line in card.effects):
            left_out.append(card.id)
            continue
        if card.type == "mission":
            if owned_missions is None or owned_missions.get(card.id, 0) > 0:
                missions.append(card.id)
            continue
        limit = COPY_LIMIT if owned is None else min(COPY_LIMIT, owned.get(card.id, 0))
        if limit > 0:
            cards[card.id] = limit
    for kind, vs in filters.items():
        known = {v for v in vs if any(_match(c, kind, v) for c in cat if c.type != "mission")}
        unknown = [v for v in vs if v not in known]
        if unknown:
            raise PoolError(f"--pool {kind}={unknown[0]}: no card has it",
                            f"`mythos cards list --{kind} …` shows what exists")
    described = ", ".join(words) if words else "every card of both sets"
    return Pool(cards, missions, described, left_out)


__all__ = ["COPY_LIMIT", "Pool", "PoolError", "build_pool"]
