"""The deck model: a list as the player wrote it, and the problems found in it.

A :class:`Deck` is format-neutral: the text list, the community deck code and JSON all
parse into it and are written from it. Each :class:`DeckEntry` keeps what the player
wrote (the reference, a label, colours, the source line) and, once a Mythos list has been
resolved against the catalog, the card version and the printing the player named.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any, Iterable

from mythos_cli.catalog.model import Card
from mythos_cli.catalog.names import fold

ERROR = "error"
WARNING = "warning"
SEVERITIES = (ERROR, WARNING)

# A single line of a list may hold a few copies; more is a typo or a joke, and bounding
# it keeps absurd numbers ("10**5000") out of every later sum.
MAX_QTY = 99

DECK = "deck"
MISSIONS = "missions"


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong (error) or worth a look (warning) in a deck list.

    ``code`` is a stable machine name (``too-many-copies``); ``message`` says what is wrong
    and ``hint`` how to fix it. ``lines`` are 1-based source lines, the first one being the
    main location; a problem about the whole list has none.
    """

    severity: str
    code: str
    message: str
    hint: str | None = None
    lines: tuple[int, ...] = ()
    file: str | None = None

    def __post_init__(self) -> None:
        if self.severity not in SEVERITIES:
            raise ValueError(f"severity must be one of {SEVERITIES}, not {self.severity!r}")

    @property
    def line(self) -> int | None:
        return self.lines[0] if self.lines else None

    @property
    def is_error(self) -> bool:
        return self.severity == ERROR

    @property
    def location(self) -> str:
        """``file:line`` as editors and linters print it (either part may be missing)."""
        where = self.file or ""
        if self.line is not None:
            where = f"{where}:{self.line}" if where else f"line {self.line}"
        return where

    def at(self, file: str | None) -> Problem:
        return replace(self, file=file)

    def to_dict(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "line": self.line,
            "lines": list(self.lines),
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
            "hint": self.hint,
        }


def error(code: str, message: str, hint: str | None = None, lines: Iterable[int | None] = ()) -> Problem:
    return Problem(ERROR, code, message, hint, tuple(n for n in lines if n is not None))


def warning(code: str, message: str, hint: str | None = None, lines: Iterable[int | None] = ()) -> Problem:
    return Problem(WARNING, code, message, hint, tuple(n for n in lines if n is not None))


class DeckError(Exception):
    """A deck list that cannot be used; ``problems`` says why, line by line."""

    def __init__(self, problems: list[Problem], source: str | None = None):
        self.problems = problems
        self.source = source
        self.unreadable = False  # True: the input held no deck list at all (exit 2, not 1)
        errors = [p for p in problems if p.is_error] or problems
        first = errors[0] if errors else None
        text = f"{first.location}: {first.message}" if first else "invalid deck list"
        if len(errors) > 1:
            text += f" (and {len(errors) - 1} more error(s))"
        super().__init__(text)


def _clean(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


@dataclass(frozen=True, slots=True)
class DeckEntry:
    """One line of a list: a quantity of one card, in one section.

    ``ref`` is the card as written: a printing id (``KS-108-RA``), a version id
    (``KS-108``) or a name (``"kakashi hatake / teacher of team 7"``). ``card`` and
    ``printing`` are filled in when a Mythos list is resolved against the catalog.
    """

    ref: str
    qty: int
    section: str = DECK
    label: str = ""
    colours: tuple[str, ...] = ()
    line: int | None = None
    card: Card | None = None
    printing: str | None = None

    def __post_init__(self) -> None:
        if isinstance(self.qty, bool) or not isinstance(self.qty, int) or not 1 <= self.qty <= MAX_QTY:
            raise ValueError(f"quantity must be a whole number from 1 to {MAX_QTY}, not {self.qty!r}")
        if not _clean(self.ref):
            raise ValueError("a deck entry needs a card reference")

    @property
    def version(self) -> str | None:
        """The version id (set + number) once resolved: what the copy limit counts."""
        return self.card.id if self.card else None

    @property
    def written_id(self) -> str:
        """The id a writer puts down: the printing if the player named one, else the version."""
        if self.card is not None:
            return self.printing or self.card.id
        return _clean(self.ref)

    @property
    def identity(self) -> tuple:
        """What the entry *means*, for comparing decks: labels and line numbers aside."""
        if self.card is not None:
            return (self.section, "card", self.card.id, self.printing, self.qty)
        return (self.section, "ref", fold(_clean(self.ref)), tuple(fold(c) for c in self.colours), self.qty)


@dataclass(frozen=True, slots=True)
class Deck:
    """A deck list: its name, ``key: value`` header, and entries in section order.

    Mythos lists have two sections, ``deck`` (characters and attachments) and
    ``missions``; the other construction formats name their own (``ninja``, ``leader``…).
    ``section_lines`` and ``header_lines`` remember where each section header and header
    line was written, for messages.
    """

    name: str | None = None
    header: dict[str, str] = field(default_factory=dict)
    entries: tuple[DeckEntry, ...] = ()
    section_lines: dict[str, int] = field(default_factory=dict)
    header_lines: dict[str, int] = field(default_factory=dict)

    # ---- views ------------------------------------------------------------------------
    def section(self, name: str) -> list[DeckEntry]:
        return [e for e in self.entries if e.section == name]

    @property
    def cards(self) -> list[DeckEntry]:
        """The entries of the ``deck`` section (a Mythos deck: characters and attachments)."""
        return self.section(DECK)

    @property
    def missions(self) -> list[DeckEntry]:
        return self.section(MISSIONS)

    @property
    def sections(self) -> list[str]:
        """Section names in the order they first appear."""
        seen: dict[str, None] = {}
        for e in self.entries:
            seen.setdefault(e.section, None)
        return list(seen)

    def count(self, section: str = DECK) -> int:
        return sum(e.qty for e in self.entries if e.section == section)

    @property
    def resolved(self) -> bool:
        return all(e.card is not None for e in self.entries)

    def counts(self, section: str = DECK) -> dict[str, int]:
        """Copies per version id (resolved entries of one section), in list order."""
        out: dict[str, int] = {}
        for e in self.section(section):
            if e.card is not None:
                out[e.card.id] = out.get(e.card.id, 0) + e.qty
        return out

    def card_list(self, section: str = DECK) -> list[Card]:
        """Every copy of every resolved card of a section, e.g. to shuffle a deck."""
        return [e.card for e in self.section(section) if e.card is not None for _ in range(e.qty)]

    @property
    def content(self) -> tuple:
        """What the list means: equal for two lists that say the same thing.

        Round trips (text → code → text …) keep ``content``; labels, comments, line
        numbers and the order of sections are presentation.
        """
        by_section = tuple((s, tuple(e.identity for e in self.section(s))) for s in sorted(self.sections))
        return (self.name or None, tuple(sorted(self.header.items())), by_section)

    def with_entries(self, entries: Iterable[DeckEntry]) -> Deck:
        return replace(self, entries=tuple(entries))
