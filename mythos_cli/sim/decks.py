"""From deck files to what a simulation plays (validated first: an illegal deck never runs)."""

from __future__ import annotations

from pathlib import Path

from mythos_cli.decks import Deck, load_deck, sample_paths
from mythos_cli.catalog.coverage import executable
from mythos_cli.sim.plan import DeckSpec


def deck_spec(deck: Deck, fallback_name: str) -> DeckSpec:
    cards: list[str] = []
    for e in deck.cards:
        cards.extend([e.card.id] * e.qty)
    missions = tuple(e.card.id for e in deck.missions)
    return DeckSpec(deck.name or fallback_name, tuple(cards), missions)


def load_specs(refs: list[str]) -> list[DeckSpec]:
    """Load and validate decks (files, folders of ``*.txt``/``*.json`` lists, or deck codes).

    Raises ``DeckError`` for the first illegal deck. Names are made unique."""
    paths: list[str] = []
    for r in refs:
        p = Path(r)
        if p.is_dir():
            found = sorted(x for x in p.iterdir() if x.suffix in (".txt", ".json", ".code"))
            paths.extend(str(x) for x in found)
        else:
            paths.append(r)
    specs: list[DeckSpec] = []
    seen: dict[str, int] = {}
    for ref in paths:
        deck = load_deck(ref)
        spec = deck_spec(deck, Path(ref).stem if Path(ref).exists() else "deck")
        n = seen.get(spec.name, 0)
        seen[spec.name] = n + 1
        if n:
            spec = DeckSpec(f"{spec.name} ({n + 1})", spec.cards, spec.missions)
        specs.append(spec)
    return specs


def default_gauntlet() -> list[str]:
    return [str(p) for p in sample_paths()]


def unplayable_cards(specs: list[DeckSpec]) -> dict[str, list[str]]:
    """Per deck, the cards with effect lines the engine cannot execute yet."""
    from mythos_cli.catalog import default_catalog

    cat = default_catalog()
    out: dict[str, list[str]] = {}
    for s in specs:
        bad = sorted({c for c in s.cards + s.missions if any(not executable(l) for l in cat.by_id[c].effects)})
        if bad:
            out[s.name] = bad
    return out
