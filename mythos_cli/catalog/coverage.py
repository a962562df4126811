"""How much of each set the tool can play: effect lines encoded and executable."""

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


def coverage(cards: Iterable[Card], executable: Callable[[EffectLine], bool] | None = None) -> list[CoverageRow]:
    """Count effect lines per set and timing; ``executable`` asks the engine about a line.

    Without an engine, nothing is executable: the count says so honestly.
    """
    lines: Counter = Counter()
    encoded: Counter = Counter()
    runnable: Counter = Counter()
    for card in cards:
        for line in card.effects:
            key = (card.set, line.timing)
            lines[key] += 1
            if line.encoding is not None:
                encoded[key] += 1
                if executable is not None and executable(line):
                    runnable[key] += 1
    order = {t: i for i, t in enumerate(TIMINGS)}
    return [
        CoverageRow(s, t, lines[(s, t)], encoded[(s, t)], runnable[(s, t)])
        for s, t in sorted(lines, key=lambda k: (k[0], order[k[1]]))
    ]


def _steps_of(encoding) -> Iterable:
    """Every instant step inside an encoding: its own, its triggers' and its modifier's."""
    yield from encoding.steps
    for t in encoding.triggers:
        yield from t.steps
    if encoding.modifier is not None:
        yield from encoding.modifier.steps


def specials_of(line: EffectLine) -> list[str]:
    """The escape hatches (``{ special = "name" }`` steps) an effect line relies on."""
    if line.encoding is None:
        return []
    return [s.arg for s in _steps_of(line.encoding) if s.verb == "special"]


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
