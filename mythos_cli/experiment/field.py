"""The field an optimization plays against: decks and their shares.

``--field "deck=share,…"`` names each deck by a deck file or code, or by the name (or a
unique part of it, or the file name) of a deck of the gauntlet (``--gauntlet DIR``, else the
sample decks). Without ``--field`` the gauntlet's decks come in equal shares.
"""

from __future__ import annotations

import math
import os
import re
from pathlib import Path

from mythos_cli.sim.decks import default_gauntlet, load_specs
from mythos_cli.sim.plan import DeckSpec


class FieldError(ValueError):
    def __init__(self, message: str, hint: str | None = None):
        super().__init__(message)
        self.message, self.hint = message, hint


def _squash(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", text.lower())


def _find(ref: str, decks: list[DeckSpec], paths: list[str]) -> DeckSpec | None:
    want = ref.strip()
    for d, p in zip(decks, paths):
        if d.name.casefold() == want.casefold() or Path(p).stem.casefold() == want.casefold():
            return d
    partial = [d for d in decks if _squash(want) and _squash(want) in _squash(d.name)]
    if len(partial) == 1:
        return partial[0]
    if len(partial) > 1:
        raise FieldError(f"--field: {ref!r} matches several decks: {', '.join(d.name for d in partial)}",
                         "give more of the name")
    return None


def build_field(spec: str | None, gauntlet: str | None = None) -> tuple[list[DeckSpec], list[float]]:
    """The field's decks and shares (summing to 1). Raises ``FieldError`` or ``DeckError``."""
    if gauntlet is not None:
        if not os.path.isdir(gauntlet):
            raise FieldError(f"--gauntlet {gauntlet}: not a folder of deck lists")
        paths = sorted(str(p) for p in Path(gauntlet).iterdir() if p.suffix in (".txt", ".json", ".code"))
        if not paths:
            raise FieldError(f"--gauntlet {gauntlet}: no deck lists (*.txt, *.json, *.code) in it")
    else:
        paths = default_gauntlet()
    decks = load_specs(paths)
    if not spec or not spec.strip():
        if not decks:
            raise FieldError("no field: the sample decks are missing", "give --field or --gauntlet DIR")
        return decks, [1 / len(decks)] * len(decks)
    chosen: list[DeckSpec] = []
    weights: list[float] = []
    for item in spec.split(","):
        item = item.strip()
        if not item:
            continue
        ref, eq, share = item.rpartition("=")
        if not eq or not ref.strip():
            raise FieldError(f"--field: {item!r} is not deck=share", "e.g. --field \"Sand Village=40,sound-four=60\"")
        try:
            w = float(share.strip().rstrip("%"))
        except ValueError:
            raise FieldError(f"--field: the share {share.strip()!r} of {ref.strip()!r} is not a number",
                             "shares are numbers such as 30 or 0.3 (normalised to sum to 1)") from None
        if not math.isfinite(w) or w < 0:
            raise FieldError(f"--field: the share of {ref.strip()!r} must be a number ≥ 0, not {share.strip()}")
        deck = _find(ref, decks, paths)
        if deck is None:
            if os.path.exists(ref.strip()) or "|" in ref:
                deck = load_specs([ref.strip()])[0]
            else:
                raise FieldError(f"--field: no deck {ref.strip()!r}",
                                 "name a deck file, or a deck of the gauntlet: " + ", ".join(d.name for d in decks))
        names = [d.name for d in chosen]
        if deck in chosen:
            weights[chosen.index(deck)] += w
            continue
        if deck.name in names:  # another list of the same name
            k = 2
            while f"{deck.name} ({k})" in names:
                k += 1
            deck = DeckSpec(f"{deck.name} ({k})", deck.cards, deck.missions)
        chosen.append(deck)
        weights.append(w)
    total = sum(weights)
    if total <= 0:
        raise FieldError("--field: the shares add up to 0", "give at least one deck a positive share")
    kept = [(d, w / total) for d, w in zip(chosen, weights) if w > 0]
    return [d for d, _ in kept], [w for _, w in kept]


def match_field(played: list[DeckSpec], wanted: dict[str, tuple[tuple[str, ...], tuple[str, ...]]],
                shares: dict[str, float]) -> tuple[dict[str, float], list[str]]:
    """An experiment's field decks (``played``) in the shares of another field: ``wanted`` names
    each deck of that field with its list (cards, missions), ``shares`` gives its share. A deck
    is the same when its list is (whatever its name), else when its name is. Returns the shares
    by the experiment's deck names (renormalised over the decks it played) and the decks of the
    wanted field it never played."""
    by_hash = {d.hash: d.name for d in played}
    by_name = {d.name: d.name for d in played}
    out: dict[str, float] = {}
    missing = []
    for name, share in shares.items():
        cards, missions = wanted.get(name, ((), ()))
        found = by_hash.get(DeckSpec(name, tuple(cards), tuple(missions)).hash) or by_name.get(name)
        if found is None:
            missing.append(name)
        elif share > 0:
            out[found] = out.get(found, 0.0) + share
    total = sum(out.values())
    return ({d: s / total for d, s in out.items()} if total > 0 else {}), missing


__all__ = ["FieldError", "build_field", "match_field"]
