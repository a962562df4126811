"""Load and validate the card catalog from ``data/cards/*.toml``.

The rules core reads the files (``_core.read_card_file``): the same validation as the catalog it
plays, so an unknown field, timing, kind or verb, a duplicated id or printing, or a missing fact
fails loudly with the file, the line, the card and the fix, and the Python side only turns the
core's answer into :class:`Card` facts.
"""

from __future__ import annotations

import functools
from pathlib import Path

from mythos_cli.catalog.model import SETS, Card, EffectLine, LineFacts
from mythos_cli.catalog.names import name_key


class CatalogError(Exception):
    """The card data is malformed. The message names the file, the line and the fix."""


def data_dir() -> Path:
    """Where the card files are: inside the installed package, or in the repo checkout."""
    here = Path(__file__).resolve().parent
    for candidate in (here.parent / "data" / "cards", here.parents[1] / "data" / "cards"):
        if candidate.is_dir():
            return candidate
    raise CatalogError(f"card data not found (looked in {here.parent / 'data' / 'cards'}); reinstall mythos")


def _effect(raw: dict) -> EffectLine:
    facts = raw["facts"]
    return EffectLine(
        timing=raw["timing"],
        kind=raw["kind"],
        duel=raw["duel"],
        modifies=raw["modifies"],
        do=raw["do"],
        facts=None if facts is None else LineFacts(**{k: v if isinstance(v, (bool, str)) or v is None else tuple(v)
                                                         for k, v in facts.items()}),
    )


def load_file(path: Path) -> list[Card]:
    """Parse one set file (``KS.toml``); the set is the file's stem."""
    from mythos_cli import _core

    set_code = path.stem
    if set_code not in SETS:
        raise CatalogError(f"{path}: card files are named after their set ({', '.join(SETS)})")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CatalogError(f"{path}: cannot read: {exc}") from None
    try:
        raw_cards = _core.read_card_file(str(path), text)
    except ValueError as exc:
        raise CatalogError(str(exc)) from None
    return [
        Card(
            id=raw["id"],
            set=set_code,
            number=raw["number"],
            type=raw["type"],
            name=raw["name"],
            name_key=name_key(raw["name"]),
            title=raw["title"],
            rarity=raw["rarity"],
            printings=tuple(raw["printings"]),
            cost=raw["cost"],
            power=raw["power"],
            group=raw["group"],
            keywords=tuple(raw["keywords"]),
            points=raw["points"],
            attach_to=raw["attach_to"],
            effects=tuple(_effect(e) for e in raw["effects"]),
        )
        for raw in raw_cards
    ]


def load_cards(directory: Path | None = None) -> list[Card]:
    directory = directory or data_dir()
    files = sorted(directory.glob("*.toml"))
    if not files:
        raise CatalogError(f"{directory}: no card files (*.toml)")
    cards: list[Card] = []
    for f in files:
        cards.extend(load_file(f))
    return cards


@functools.cache
def default_catalog():
    """The bundled catalog, loaded and validated once per process."""
    from mythos_cli.catalog.catalog import Catalog

    return Catalog(load_cards())
