"""The three list formats, told apart automatically: text, deck code, JSON."""

from __future__ import annotations

from dataclasses import dataclass, field

from mythos_cli.decks.deckcode import looks_like_code, parse_code, write_code
from mythos_cli.decks.jsonlist import parse_json, write_json
from mythos_cli.decks.model import Deck, Problem
from mythos_cli.decks.textlist import LINE_BREAK, parse_text, write_text

LIST_FORMATS = ("text", "code", "json")
# Problems after which there is no list to judge: construction rules would only add noise.
FATAL = frozenset({"bad-json", "not-a-deck-list", "too-many-lines", "bad-character"})


@dataclass(slots=True)
class Parsed:
    """A list read from text: the deck, the format it was in, and what was wrong."""

    deck: Deck
    format: str
    problems: list[Problem] = field(default_factory=list)

    @property
    def fatal(self) -> bool:
        """Nothing list-like could be read: no construction check is worth running."""
        return any(p.code in FATAL for p in self.problems)


def _content_lines(text: str) -> list[tuple[int, str]]:
    return [(n, line.strip()) for n, line in enumerate(LINE_BREAK.split(text), start=1)
            if line.strip() and not line.strip().startswith("#")]


def detect(text: str) -> str:
    """``json`` if it starts with ``{`` or ``[``; ``code`` if its one line looks like a
    deck code (``…--2|…``); ``text`` otherwise."""
    stripped = text.lstrip("\ufeff \t\r\n")
    if stripped.startswith(("{", "[")):
        return "json"
    lines = _content_lines(text)
    if len(lines) == 1 and looks_like_code(lines[0][1]):
        return "code"
    return "text"


def parse(text: str, fmt: str | None = None) -> Parsed:
    """Parse a list in ``fmt`` (detected when None). Never raises."""
    fmt = fmt or detect(text)
    if fmt == "json":
        deck, problems = parse_json(text.lstrip("\ufeff"))
    elif fmt == "code":
        lines = _content_lines(text)
        line, code = lines[0] if lines else (1, "")
        deck, problems = parse_code(code, line)
    elif fmt == "text":
        deck, problems = parse_text(text)
    else:
        raise ValueError(f"unknown list format {fmt!r}; use one of {', '.join(LIST_FORMATS)}")
    return Parsed(deck, fmt, problems)


def write(deck: Deck, fmt: str) -> str:
    """Write a deck in a list format. Raises ValueError for what the format cannot say."""
    if fmt == "text":
        return write_text(deck)
    if fmt == "code":
        return write_code(deck)
    if fmt == "json":
        return write_json(deck)
    raise ValueError(f"unknown list format {fmt!r}; use one of {', '.join(LIST_FORMATS)}")
