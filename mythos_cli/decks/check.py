"""From an input (a file, standard input, a deck code) to a verdict, and deck loading.

This is what the CLI calls: one function per input, every outcome a value. Nothing here
prints, and nothing raises for bad input: unreadable input is a verdict too.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from mythos_cli.catalog.catalog import Catalog
from mythos_cli.catalog.coverage import executable as engine_executable
from mythos_cli.decks.construction import (
    CONSTRUCTIONS,
    DEFAULT,
    Construction,
    Executable,
    Report,
    construction_named,
    guess,
)
from mythos_cli.decks.deckcode import looks_like_code
from mythos_cli.decks.listformats import LIST_FORMATS, parse, write
from mythos_cli.decks.model import Deck, DeckError, Problem, error, warning
from mythos_cli.decks.source import Source, Unreadable, decode, read_file, read_stream

CODE_SOURCE = "<deck code>"
# Problems after which a list cannot be converted faithfully: a line was left out, or a
# card could not be identified.
_UNCONVERTIBLE = frozenset({"unknown-card", "ambiguous-card", "unknown-section", "no-section"})


@dataclass(slots=True)
class Verdict:
    """Whether one input is a legal deck, and every problem found in it."""

    source: str
    readable: bool
    construction: str | None = None
    construction_from: str | None = None  # "option", "header", "sections" or "default"
    list_format: str | None = None
    deck: Deck | None = None
    problems: list[Problem] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    blocking: list[Problem] = field(default_factory=list)  # what stops a faithful conversion

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.is_error]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if not p.is_error]

    @property
    def valid(self) -> bool:
        return self.readable and not self.errors

    @property
    def exit_code(self) -> int:
        """0 legal, 1 not legal, 2 no deck list could be read."""
        return 0 if self.valid else (1 if self.readable else 2)

    def to_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "valid": self.valid,
            "readable": self.readable,
            "format": self.construction,
            "format_from": self.construction_from,
            "list_format": self.list_format,
            "name": self.deck.name if self.deck else None,
            "counts": self.counts,
            "errors": len(self.errors),
            "warnings": len(self.warnings),
            "problems": [p.to_dict() for p in self.problems],
        }


def exit_code(verdicts: list[Verdict]) -> int:
    """One code for several inputs: the worst of them (2 over 1 over 0)."""
    return max((v.exit_code for v in verdicts), default=2)


def _choose(deck: Deck, construction: str | None) -> tuple[Construction, str, list[Problem]]:
    problems: list[Problem] = []
    declared = deck.header.get("format")
    where = [deck.header_lines.get("format")]
    if construction is not None:
        fmt = construction_named(construction)
        if fmt is None:
            raise ValueError(f"unknown construction format {construction!r}; use one of {', '.join(CONSTRUCTIONS)}")
        if declared and construction_named(declared) is not fmt:
            problems.append(warning("format-override", f"the list says `format: {declared}`; validating as {fmt.name} as asked",
                                    "drop --format to use the list's own format", where))
        return fmt, "option", problems
    if declared:
        fmt = construction_named(declared)
        if fmt is not None:
            return fmt, "header", problems
        problems.append(error("unknown-format", f"the list says `format: {declared}`, which mythos does not know",
                              f"use one of {', '.join(CONSTRUCTIONS)} (validated as {DEFAULT} meanwhile)", where))
        return CONSTRUCTIONS[DEFAULT], "default", problems
    guessed = guess(deck)
    if guessed:
        return CONSTRUCTIONS[guessed], "sections", problems
    return CONSTRUCTIONS[DEFAULT], "default", problems


def check_source(source: Source, construction: str | None = None, catalog: Catalog | None = None,
                 executable: Executable | None = None) -> Verdict:
    """Parse and validate decoded text. ``construction`` None: the list's ``format:``
    header, else the sections it uses, else mythos."""
    parsed = parse(source.text)
    fmt, chosen_by, problems = _choose(parsed.deck, construction)
    if fmt.uses_catalog and catalog is None:
        from mythos_cli.catalog import default_catalog

        catalog = default_catalog()
    if executable is None and fmt.uses_catalog:
        executable = engine_executable  # the warning follows whatever the rules core runs today
    if parsed.fatal:
        report = Report(parsed.deck)
    else:
        report = fmt.check(parsed.deck, catalog, executable, parsed.problems)
    everything = [p.at(source.name) for p in parsed.problems + problems + report.problems]
    everything.sort(key=lambda p: (not p.is_error, p.line is None, p.line or 0))
    blocking = [p.at(source.name) for p in parsed.problems + report.problems
                if p.is_error and (p in parsed.problems or p.code in _UNCONVERTIBLE)]
    return Verdict(source.name, True, fmt.name, chosen_by, parsed.format, report.deck, everything, report.counts, blocking)


def _unreadable(exc: Unreadable) -> Verdict:
    return Verdict(exc.problem.file or "?", False, problems=[exc.problem], blocking=[exc.problem])


def check_path(path: str | os.PathLike, construction: str | None = None, catalog: Catalog | None = None,
               executable: Executable | None = None) -> Verdict:
    try:
        source = read_file(path)
    except Unreadable as exc:
        return _unreadable(exc)
    return check_source(source, construction, catalog, executable)


def check_stream(stream: BinaryIO, name: str = "<stdin>", construction: str | None = None,
                 catalog: Catalog | None = None, executable: Executable | None = None) -> Verdict:
    try:
        source = read_stream(stream, name)
    except Unreadable as exc:
        return _unreadable(exc)
    return check_source(source, construction, catalog, executable)


def check_input(arg: str, construction: str | None = None, catalog: Catalog | None = None,
                executable: Executable | None = None, stdin: BinaryIO | None = None) -> Verdict:
    """A command-line argument: ``-`` (standard input), a path, or a deck code itself."""
    if arg == "-":
        if stdin is None:  # a closed standard input leaves sys.stdin None: read_stream says so
            stdin = getattr(sys.stdin, "buffer", None)
        return check_stream(stdin, "<stdin>", construction, catalog, executable)
    if not os.path.lexists(arg) and looks_like_code(arg) and "\x00" not in arg:
        try:  # the same checks as a file's text: no control or invisible characters, UTF-8
            source = decode(os.fsencode(arg), CODE_SOURCE)
        except Unreadable as exc:
            return _unreadable(exc)
        return check_source(source, construction, catalog, executable)
    return check_path(arg, construction, catalog, executable)


def load_deck(arg: str | os.PathLike, construction: str | None = None, catalog: Catalog | None = None) -> Deck:
    """A legal deck from a file or a deck code, resolved against the catalog.

    Raises :class:`DeckError` (with every problem) when the input is unreadable or the
    list is not a legal deck; warnings do not stop it.
    """
    verdict = check_input(os.fspath(arg), construction, catalog)
    if not verdict.valid or verdict.deck is None:
        exc = DeckError(verdict.errors or verdict.problems, verdict.source)
        exc.unreadable = not verdict.readable  # no list in it at all (missing, a FIFO, binary …)
        raise exc
    return verdict.deck


@dataclass(slots=True)
class Conversion:
    verdict: Verdict
    text: str | None = None
    problems: list[Problem] = field(default_factory=list)  # why it failed, or what was lost

    @property
    def ok(self) -> bool:
        return self.text is not None


def convert(arg: str, to: str, construction: str | None = None, catalog: Catalog | None = None) -> Conversion:
    """Read a list in any format and write it in ``to``. A list that is not a legal deck
    converts too, as long as every line was understood."""
    if to not in LIST_FORMATS:
        raise ValueError(f"unknown list format {to!r}; use one of {', '.join(LIST_FORMATS)}")
    verdict = check_input(arg, construction, catalog)
    if not verdict.readable or verdict.blocking or verdict.deck is None:
        return Conversion(verdict, None, verdict.blocking or verdict.errors)
    deck = verdict.deck
    try:
        text = write(deck, to)
    except ValueError as exc:
        return Conversion(verdict, None, [error("cannot-convert", f"cannot write this list as {to}: {exc}",
                                                "convert to text or json instead").at(verdict.source)])
    lost: list[Problem] = []
    if to == "code":
        dropped = [k for k in deck.header]
        if dropped:
            lost.append(warning("lossy", f"the deck code has no header: {', '.join(dropped)} left out",
                                "convert to text or json to keep them").at(verdict.source))
    return Conversion(verdict, text, lost)
