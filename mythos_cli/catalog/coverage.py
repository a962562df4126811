"""How much of each set the tool can play: effect lines encoded and executable (the rules core
says which lines it plays, ``LineFacts.executable``)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Callable, Iterable

from mythos_cli.catalog.model import TIMINGS, Card, EffectLine


@dataclass(frozen=True, slots=True)
class CoverageRow:
    set: str
    timing: str
    lines: int
    encoded: int
    executable: int

    @property
    def percent(self) -> float:
        return 100.0 * self.executable / self.lines if self.lines else 100.0


def executable(line: EffectLine) -> bool:
    """Whether the engine can play this effect line (every line the rules core runs)."""
    return line.facts is not None and line.facts.executable


def coverage(cards: Iterable[Card], executable: Callable[[EffectLine], bool] | None = executable) -> list[CoverageRow]:
    """Count effect lines per set and timing; ``executable`` says whether the engine plays a line
    (None: count nothing as executable)."""
    lines: Counter = Counter()
    encoded: Counter = Counter()
    runnable: Counter = Counter()
    for card in cards:
        for line in card.effects:
            key = (card.set, line.timing)
            lines[key] += 1
            if line.encoded:
                encoded[key] += 1
                if executable is not None and executable(line):
                    runnable[key] += 1
    order = {t: i for i, t in enumerate(TIMINGS)}
    return [
        CoverageRow(s, t, lines[(s, t)], encoded[(s, t)], runnable[(s, t)])
        for s, t in sorted(lines, key=lambda k: (k[0], order[k[1]]))
    ]


def specials_of(line: EffectLine) -> list[str]:
    """The escape hatches (``{ special = "name" }`` steps) an effect line relies on."""
    return list(line.facts.specials) if line.facts is not None else []


@dataclass(frozen=True, slots=True)
class SpecialUse:
    set: str
    card: str
    timing: str
    name: str


def special_uses(cards: Iterable[Card]) -> list[SpecialUse]:
    """Every use of an escape hatch, card by card: the debts the language still owes."""
    out = []
    for card in cards:
        for line in card.effects:
            for name in specials_of(line):
                out.append(SpecialUse(card.set, card.id, line.timing, name))
    return sorted(out, key=lambda u: (u.set, u.card, u.timing))
