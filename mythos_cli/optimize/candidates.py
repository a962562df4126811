"""Candidates from what the games already say: the cards that drag, the curve, groups and keywords.

* **Cards going out.** The calibration's games of the deck as it is give every card of the
  deck its improvement when drawn (IWD: win rate with the card in hand minus never seen, with
  its interval), the figures of ``mythos report cards`` (``reports.cards.analyse_deck``). A
  card that drags (IWD probably below 0) is drawn more often as the card going out of the
  screen's variants: weight ``1 + 2·P(IWD < 0)`` (normal approximation of its interval), so
  that the screen spends its games where they can change the answer; every card keeps a chance.
* **Cards coming in.** Half of the screen's draws are uniform over the whole pool (every
  card is screened); the other half are weighted by how well the card fits the slot and the
  deck: a cost near the one of the card going out keeps the deck's curve (weight halves with
  each chakra of difference), a group of the deck doubles it, and each keyword it shares with
  the deck's cards (up to two) adds half.
* **Merged.** The best single swaps of the screen taken together, 2, 3, 4, 6 and 8 of them, while
  each adds value and the deck stays legal: one race step can mend several weak places.
* **Pairs.** From the best single swaps of the screen (at most three for one card going out,
  so that two cards that drag meet in a pair), pairs with two different cards going out: half
  of them the best by the sum of their values, half those whose two cards coming in work
  together (the same group, a keyword in common, or two copies of one card).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import Callable, Iterable

from scipy.stats import norm

from mythos_cli.catalog import default_catalog
from mythos_cli.optimize import variants as V
from mythos_cli.optimize.pool import Pool
from mythos_cli.sim.plan import DeckSpec

DRAG_WEIGHT = 2.0  # a card surely dragging is drawn out (1 + 2) = 3 times as often as one surely not
PER_OUT = 3  # singles of one card going out among those pairs are made of


@dataclass
class CardFigure:
    """A card of the deck in the calibration's games: its improvement when drawn, with its interval."""

    card: str
    name: str
    copies: int
    in_hand: int  # game-seats with the card in hand
    never_seen: int
    iwd: float | None
    low: float | None  # 95% interval, and the interval for every card of the deck at once (Bonferroni)
    high: float | None
    family_low: float | None
    family_high: float | None
    verdict: str | None  # better, worse, unclear (family interval); None: too few games

    @property
    def drags(self) -> float:
        """P(IWD < 0) under the normal approximation of its 95% interval (½ without games)."""
        if self.iwd is None or self.low is None or self.high is None or self.high <= self.low:
            return 0.5
        se = (self.high - self.low) / (2 * 1.959964)
        return float(norm.cdf(-self.iwd / se)) if se > 0 else (1.0 if self.iwd < 0 else 0.0)

    def to_json(self) -> dict:
        return {"card": self.card, "name": self.name, "copies": self.copies, "in_hand": self.in_hand,
                "never_seen": self.never_seen, "iwd": self.iwd, "ci95": [self.low, self.high],
                "ci_family": [self.family_low, self.family_high], "verdict": self.verdict,
                "p_drags": self.drags}

    @classmethod
    def from_json(cls, d: dict) -> "CardFigure":
        return cls(d["card"], d["name"], d["copies"], d["in_hand"], d["never_seen"], d["iwd"], d["ci95"][0],
                   d["ci95"][1], d["ci_family"][0], d["ci_family"][1], d["verdict"])


def card_figures(analysis: dict) -> list[CardFigure]:
    """The card report's per-card figures of one deck (``reports.cards.analyse_deck``) as candidates see them."""
    out = []
    for c in analysis["cards"]:
        iwd = c["improvement_when_drawn"]
        fam = iwd.get("ci_family") or [None, None]
        out.append(CardFigure(c["card"], c["name"], c["copies"], c["in_hand"]["games"], c["never_seen"]["games"],
                              iwd["diff"], iwd["ci95"][0], iwd["ci95"][1], fam[0], fam[1], iwd.get("verdict")))
    return sorted(out, key=lambda f: (f.iwd if f.iwd is not None else math.inf, f.card))


def out_weights(deck: DeckSpec, figures: Iterable[CardFigure]) -> list[float]:
    """A weight for each slot of the deck's card list, as the card going out of a screen variant."""
    by = {f.card: f for f in figures}
    return [1.0 + DRAG_WEIGHT * (by[c].drags if c in by else 0.5) for c in deck.cards]


class Affinity:
    """How well a card fits a slot of the deck: the curve, the deck's groups and keywords."""

    def __init__(self, deck: DeckSpec):
        cat = default_catalog().by_id
        self.cat = cat
        self.groups = {cat[c].group for c in deck.cards if c in cat and cat[c].group}
        kw: Counter = Counter()
        for c in set(deck.cards):
            if c in cat:
                kw.update(cat[c].keywords)
        self.keywords = set(kw)

    def weight(self, out: str, into: str) -> float:
        a, b = self.cat.get(out), self.cat.get(into)
        if a is None or b is None:
            return 1.0
        w = 0.5 ** abs((a.cost or 0) - (b.cost or 0))
        if b.group and b.group in self.groups:
            w *= 2.0
        w *= 1.0 + 0.5 * min(2, len(set(b.keywords) & self.keywords))
        return w

    def together(self, a: str, b: str) -> bool:
        """Whether two cards coming in work together: one group, or a keyword in common."""
        x, y = self.cat.get(a), self.cat.get(b)
        if x is None or y is None:
            return False
        return a == b or bool(x.group and x.group == y.group) or bool(set(x.keywords) & set(y.keywords))


def spread(singles: list[V.Swap], k: int) -> list[V.Swap]:
    """The first ``k`` of the ranked single swaps with at most ``PER_OUT`` for one card going out:
    the best singles would otherwise all take out the same card, and two cards that both drag
    make the best pairs."""
    out, per = [], Counter()
    for sw in singles:
        if per[sw.out] < PER_OUT:
            out.append(sw)
            per[sw.out] += 1
            if len(out) == k:
                break
    return out


def pairs_of(singles: list[V.Swap], value: Callable[[V.Swap], float], current: DeckSpec, base: DeckSpec, pool: Pool,
             affinity: Affinity, n: int, best: int = 12, wide: int = 32) -> list[tuple[float, tuple[V.Swap, ...]]]:
    """``n`` pairs of the ranked single swaps ``singles``: half of them the best pairs of the
    ``best`` first singles (at most ``PER_OUT`` for one card going out) by the sum of their
    values, the other half the best pairs of the ``wide`` first whose two cards coming in work
    together (the same group, a keyword in common, or two copies of one card). Only legal
    decks, each once."""
    def candidates(top: list[V.Swap], together: bool) -> list[tuple[float, tuple[V.Swap, ...]]]:
        out = []
        for i, a in enumerate(top):
            for b in top[i + 1:]:
                if {a.into, b.into} & {a.out, b.out} or a.mission != b.mission:
                    continue
                if together and not affinity.together(a.into, b.into):
                    continue
                swaps = V.canonical((a, b))
                try:
                    deck = V.apply(current, swaps)
                except ValueError:  # the same card out twice, with one copy only
                    continue
                if V.legal(deck, base, pool):
                    out.append((value(a) + value(b), swaps))
        return sorted(out, key=lambda p: (-p[0], p[1]))

    chosen: list[tuple[float, tuple[V.Swap, ...]]] = []
    seen: set[tuple[V.Swap, ...]] = set()
    for pool_of, quota in ((candidates(spread(singles, wide), True), n // 2),
                          (candidates(spread(singles, best), False), n)):
        taken = 0
        for v, sw in pool_of:
            if len(chosen) >= n or taken >= quota:
                break
            if sw not in seen:
                seen.add(sw)
                chosen.append((v, sw))
                taken += 1
    return sorted(chosen, key=lambda p: (-p[0], p[1]))


COMBINED = (2, 3, 4, 6, 8)  # how many of the best single swaps are made together (each a candidate)
MOST_SWAPS = max(COMBINED)


def combinations(singles: list[V.Swap], value: Callable[[V.Swap], float], base: DeckSpec,
                 pool: Pool, owned: DeckSpec | None = None) -> list[tuple[float, tuple[V.Swap, ...]]]:
    """Candidates made of the ranked single swaps ``singles`` (best first by ``value``, the
    screen's), merged one by one while their value is above 0, a swap brings in no card a merged
    one takes out (nor the other way round) and the deck stays legal: the first 2, 3, 4, 6 and 8
    merged, each with the sum of its swaps' values. A race step takes one candidate; a deck
    weakened in several places needs several swaps, which the singles and pairs each judge apart:
    the merged ones let one step take them together. The swaps apply to ``base``; ``owned`` is
    the deck as the user gave it, whose copies are owned whatever the pool (``base`` itself by
    default)."""
    out: list[tuple[float, tuple[V.Swap, ...]]] = []
    merged: list[V.Swap] = []
    for sw in singles:
        if value(sw) <= 0 or len(merged) >= MOST_SWAPS:
            break
        trial = merged + [sw]
        outs, ins = Counter(s.out for s in trial), Counter(s.into for s in trial)
        if set(outs) & set(ins):
            continue
        try:
            deck = V.apply(base, trial)
        except ValueError:  # a card out once more than the deck holds
            continue
        if not V.legal(deck, owned or base, pool):
            continue
        merged = trial
        if len(merged) in COMBINED:
            out.append((sum(value(x) for x in merged), V.canonical(merged)))
    return out


__all__ = ["Affinity", "CardFigure", "card_figures", "combinations", "out_weights", "pairs_of", "spread"]
