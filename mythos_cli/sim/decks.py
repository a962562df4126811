"""From deck files to what a simulation plays (validated first: an illegal deck never runs)."""

from __future__ import annotations

from pathlib import Path

from mythos_cli.decks import Deck, DeckError, load_deck, sample_paths
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


def random_specs(n: int, seed: int) -> list[DeckSpec]:
    """``n`` random legal decks drawn from the whole catalog, the same for the same seed: 15
    different versions of characters and attachments, two copies each (30 cards), and 3
    different missions. Each is checked against the Mythos construction rules."""
    import random

    from mythos_cli.catalog import default_catalog
    from mythos_cli.decks import check_source
    from mythos_cli.decks.source import Source

    cat = default_catalog()
    pool = sorted(c.id for c in cat.by_id.values() if c.type != "mission")
    missions = sorted(c.id for c in cat.by_id.values() if c.type == "mission")
    rng = random.Random(f"random-decks:{seed}")
    specs = []
    for k in range(n):
        chosen = rng.sample(pool, 15)
        aside = rng.sample(missions, 3)
        text = "\n".join([f"2 {c}" for c in chosen] + ["missions:"] + [f"1 {m}" for m in aside]) + "\n"
        verdict = check_source(Source(f"random-{k + 1}", text), "mythos", cat)
        if not verdict.valid:
            raise DeckError(verdict.errors, f"random-{k + 1}")
        specs.append(DeckSpec(f"random-{k + 1}", tuple(c for c in chosen for _ in range(2)), tuple(aside)))
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
