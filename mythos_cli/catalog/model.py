"""The card model: plain, immutable facts about one card version.

A *version* is a set plus a collector number (``KS-009``); every printing of that
number (``KS-009-C``, an ``RA`` art, a ``_2`` alternate) is the same version for the
copy limit and for the engine. Missions share numbers with characters, so a mission's
version id keeps its ``MMS`` suffix (``KS-001-MMS``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

SETS = ("KS", "SS")
SET_NAMES = {"KS": "Konoha Shidō", "SS": "Shinobi Shiren"}
CARD_TYPES = ("character", "attachment", "mission")
TIMINGS = ("main", "upgrade", "ambush", "score", "duel", "first_strike", "attach")
TIMING_LABELS = {
    "main": "MAIN",
    "upgrade": "UPGRADE",
    "ambush": "AMBUSH",
    "score": "SCORE",
    "duel": "DUEL",
    "first_strike": "FIRST STRIKE",
    "attach": "ATTACH",
}
# instant (↯) resolves once when its timing happens; continuous (⧗) holds while the
# card is face-up in play; a modifier changes another line of the same card
# ("MAIN effect: instead …"); a condition says where an attachment may go.
# (the groups, rarities and kinds a card file may use are the core's to check: core/src/cards.rs)
KIND_ICONS = {"instant": "↯", "continuous": "⧗", "modifier": "", "condition": ""}


@dataclass(frozen=True, slots=True)
class LineFacts:
    """What the rules core reads in one effect line's encoding (``_core.read_card_file``): the
    Python side asks these, never the encoding itself."""

    steps: tuple[str, ...] = ()  # the verbs of its instant steps, in order
    verbs: tuple[str, ...] = ()  # every verb of those steps, nested ones included
    modifier_verbs: tuple[str, ...] = ()  # the same for a modifier's steps ("MAIN effect: instead …")
    triggers: tuple[str, ...] = ()  # the events its triggers wait for ("defeated", "end_of_round" …)
    host: str | None = None  # ATTACH lines: "mission" or "character", where the attachment goes
    # per gate, the line's steps first, then each trigger's: the engine will not offer to decline it
    mandatory: tuple[bool, ...] = ()
    specials: tuple[str, ...] = ()  # escape hatches ({ special = "name" } steps)
    executable: bool = False  # the engine plays this line


@dataclass(frozen=True, slots=True)
class EffectLine:
    """One effect line of a card: when it applies, how, and (once encoded) what it does."""

    timing: str
    kind: str
    duel: str | None = None  # DUEL lines: the character name that must be in the mission
    modifies: str | None = None  # modifier lines: the timing of the line they change
    do: str | None = None  # the encoding as the card file writes it (JSON text); None until encoded
    facts: LineFacts | None = None  # what the core reads in the encoding; None until encoded

    @property
    def encoded(self) -> bool:
        return self.do is not None

    @property
    def label(self) -> str:
        label = TIMING_LABELS[self.timing]
        if self.duel:
            label += f" {self.duel}"
        icon = KIND_ICONS[self.kind]
        return f"{label} {icon}".strip()


@dataclass(frozen=True, slots=True)
class Card:
    """One card version (set + number) with every printing that shares it."""

    id: str
    set: str
    number: int
    type: str
    name: str
    name_key: str
    title: str
    rarity: str
    printings: tuple[str, ...]
    cost: int | None = None
    power: int | None = None
    group: str | None = None
    keywords: tuple[str, ...] = ()
    points: int | None = None  # missions: base points
    attach_to: str | None = None  # attachments: "character" or "mission"
    effects: tuple[EffectLine, ...] = field(default=())

    @property
    def full_name(self) -> str:
        return f"{self.name} / {self.title}" if self.title else self.name

    @property
    def in_deck(self) -> bool:
        """Characters and attachments go in the deck; missions stay apart."""
        return self.type != "mission"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "set": self.set,
            "number": self.number,
            "type": self.type,
            "name": self.name,
            "name_key": self.name_key,
            "title": self.title,
            "rarity": self.rarity,
            "printings": list(self.printings),
        }
        if self.type == "mission":
            out["points"] = self.points
        else:
            out.update(cost=self.cost, power=self.power, group=self.group, keywords=list(self.keywords))
        if self.attach_to:
            out["attach_to"] = self.attach_to
        out["effects"] = [
            {k: v for k, v in (("timing", e.timing), ("kind", e.kind), ("duel", e.duel), ("modifies", e.modifies)) if v}
            | {"encoded": e.encoded}
            for e in self.effects
        ]
        return out
