"""Construction formats: which lists are legal decks, and why not.

Each format is a :class:`Construction`: the section words its lists use and a ``check``
that turns a parsed :class:`~mythos_cli.decks.model.Deck` into a :class:`Report`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Callable, Optional

from mythos_cli.catalog.catalog import Catalog
from mythos_cli.catalog.model import EffectLine
from mythos_cli.decks.model import DECK, Deck, DeckEntry, Problem, error, warning
from mythos_cli.decks.syntax import is_id, section_key

Executable = Callable[[EffectLine], bool]


@dataclass(slots=True)
class Report:
    """What a construction format says about a list."""

    deck: Deck  # sections renamed to the format's own, cards resolved where it can
    problems: list[Problem] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)  # cards per section


@dataclass(frozen=True, slots=True)
class Construction:
    name: str
    summary: str
    sections: dict[str, str]  # every accepted section word → the format's section
    # check(deck, catalog, executable, prior problems) → Report
    check: Callable[[Deck, Optional[Catalog], Optional[Executable], Optional[list[Problem]]], Report]
    uses_catalog: bool = False

    @property
    def section_names(self) -> list[str]:
        return list(dict.fromkeys(self.sections.values()))


def lines_of(entries: list[DeckEntry]) -> list[int]:
    return sorted({e.line for e in entries if e.line is not None})


def plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else (many or word + 's')}"


def line_list(lines: list[int], limit: int = 8) -> str:
    """``lines 3, 7`` for messages; a deck built in code has no lines to name."""
    if not lines:
        return "several entries without line numbers"
    shown = ", ".join(str(n) for n in lines[:limit])
    return f"line{'s' if len(lines) > 1 else ''} {shown}{', …' if len(lines) > limit else ''}"


# Problems that leave a line out of the deck: the counts then say so.
DROPPING = frozenset({"bad-quantity", "absurd-quantity", "missing-card", "bad-id", "bad-colour", "bad-section", "unknown-card",
                      "ambiguous-card", "unknown-section", "no-section", "malformed-code", "json-shape", "mythos-card"})


def dropped_lines(*problem_lists: list[Problem]) -> bool:
    return any(p.code in DROPPING for problems in problem_lists for p in problems)


def map_sections(deck: Deck, fmt: Construction) -> tuple[Deck, list[Problem]]:
    """Rename sections to the format's own; report and drop unknown ones."""
    problems: list[Problem] = []
    kept: list[DeckEntry] = []
    unknown: dict[str, list[DeckEntry]] = {}
    for e in deck.entries:
        target = fmt.sections.get(section_key(e.section))
        if target is None:
            unknown.setdefault(e.section, []).append(e)
        else:
            kept.append(e if target == e.section else DeckEntry(e.ref, e.qty, target, e.label, e.colours, e.line, e.card, e.printing))
    wanted = ", ".join(f"{s}:" for s in fmt.section_names)
    for section, entries in unknown.items():
        cards = plural(sum(e.qty for e in entries), "card")
        header_line = deck.section_lines.get(section)
        if section == DECK and header_line is None:
            problems.append(error(
                "no-section", f"{cards} on {line_list(lines_of(entries))} stand before any section header",
                f"a {fmt.name} list puts each card under a section: {wanted}", [entries[0].line]))
            continue
        others = [c.name for c in CONSTRUCTIONS.values() if c is not fmt and section_key(section) in c.sections]
        hint = f"a {fmt.name} list has the sections {wanted}"
        if others:
            hint += f"; `{section}:` belongs to {' and '.join(others)} lists (validate with --format {others[0]})"
        elif section in ("name", "format", "author", "event"):
            hint += f"; a header line needs its value on the same line, e.g. `{section}: …`"
        problems.append(error("unknown-section", f"unknown section `{section}:` ({cards} in it are not counted)",
                              hint, [header_line or entries[0].line]))
    lines: dict[str, int] = {}
    for section, line in deck.section_lines.items():
        target = fmt.sections.get(section_key(section))
        if target is not None:
            lines[target] = min(line, lines.get(target, line))
        elif section not in unknown:
            hint = f"a {fmt.name} list has the sections {wanted}"
            if section in ("name", "format", "author", "event"):
                hint = f"a header line needs its value on the same line, e.g. `{section}: …`"
            problems.append(warning("unknown-section", f"unknown section `{section}:` (empty, so it changes nothing)", hint, [line]))
    return replace(deck, entries=tuple(kept), section_lines=lines), problems


def warn_colours(deck: Deck, fmt: Construction) -> list[Problem]:
    coloured = [e for e in deck.entries if e.colours]
    if not coloured:
        return []
    return [warning("ignored-colour", f"colours are not part of a {fmt.name} list; they are ignored on {line_list(lines_of(coloured))}",
                    "colours matter for gencon-2027 lists (--format gencon-2027)", [coloured[0].line])]


def reject_mythos_ids(deck: Deck, fmt: Construction) -> tuple[Deck, list[Problem]]:
    """The non-Mythos formats name their cards; Mythos ids there mean the wrong format.

    One error names every such line, and those lines are left out of the other checks.
    """
    mythos_ids = [e for e in deck.entries if is_id(e.ref)]
    if not mythos_ids:
        return deck, []
    shown = ", ".join(e.ref for e in mythos_ids[:5]) + (", …" if len(mythos_ids) > 5 else "")
    lines = lines_of(mythos_ids)
    problem = error("mythos-card",
                    f"{plural(len(mythos_ids), 'line names a Naruto Mythos card', 'lines name Naruto Mythos cards')} ({shown}) "
                    f"on {line_list(lines)}: {fmt.name} cards are not in the Mythos catalog",
                    "write each card's name as printed, or validate this list with --format mythos", lines)
    return deck.with_entries(e for e in deck.entries if not is_id(e.ref)), [problem]


from mythos_cli.decks.construction import gencon_2027, mythos, naruto_ccg_2006  # noqa: E402

CONSTRUCTIONS: dict[str, Construction] = {c.name: c for c in (mythos.FORMAT, naruto_ccg_2006.FORMAT, gencon_2027.FORMAT)}
DEFAULT = "mythos"
# Names a `format:` header may use for each format.
ALIASES = {
    "mythos": "mythos", "naruto-mythos": "mythos", "naruto-mythos-tcg": "mythos",
    "naruto-ccg-2006": "naruto-ccg-2006", "naruto-ccg": "naruto-ccg-2006", "ccg-2006": "naruto-ccg-2006", "2006": "naruto-ccg-2006",
    "gencon-2027": "gencon-2027", "gencon": "gencon-2027", "gencon2027": "gencon-2027",
}


def construction_named(name: str) -> Construction | None:
    key = "-".join(name.strip().lower().replace("_", " ").split())
    return CONSTRUCTIONS.get(ALIASES.get(key, key))


def guess(deck: Deck) -> str | None:
    """The one non-Mythos format whose own section words the list uses, if exactly one."""
    sections = {section_key(s) for s in deck.sections} | {section_key(s) for s in deck.section_lines}
    mythos_words = set(CONSTRUCTIONS[DEFAULT].sections)
    hits = [c.name for c in CONSTRUCTIONS.values()
            if c.name != DEFAULT and sections & (set(c.sections) - mythos_words)]
    return hits[0] if len(hits) == 1 else None
