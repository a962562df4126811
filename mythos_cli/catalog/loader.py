"""Load and validate the card catalog from ``data/cards/*.toml``.

The catalog is validated as a whole when it loads: an unknown field, timing or kind,
a duplicated id or printing, or a missing fact fails loudly with the file and line.
"""

from __future__ import annotations

import functools
import re
import tomllib
from pathlib import Path
from typing import Any

from mythos_cli.catalog.language import LanguageError, parse_encoding
from mythos_cli.catalog.model import (
    ATTACH_TARGETS,
    CARD_TYPES,
    GROUPS,
    KINDS,
    RARITIES,
    SETS,
    TIMINGS,
    Card,
    EffectLine,
)
from mythos_cli.catalog.names import name_key


class CatalogError(Exception):
    """The card data is malformed. The message names the file, the line and the fix."""


_FIELDS = {
    "character": {"id", "number", "name", "title", "cost", "power", "group", "keywords", "rarity", "printings", "effects"},
    "attachment": {"id", "number", "name", "cost", "power", "group", "keywords", "rarity", "printings", "effects", "attach_to"},
    "mission": {"id", "number", "name", "points", "rarity", "printings", "effects"},
}
_REQUIRED = {
    "character": {"id", "number", "name", "title", "cost", "power", "group", "keywords", "rarity", "printings"},
    "attachment": {"id", "number", "name", "cost", "power", "group", "keywords", "rarity", "printings", "attach_to"},
    "mission": {"id", "number", "name", "points", "rarity", "printings"},
}
_EFFECT_FIELDS = {"timing", "kind", "duel", "modifies", "do"}
PRINTING_RE = re.compile(r"^(KS|SS)-(\d{3})(?:_(\d))?-([A-Z]+)$")


def data_dir() -> Path:
    """Where the card files are: inside the installed package, or in the repo checkout."""
    here = Path(__file__).resolve().parent
    for candidate in (here.parent / "data" / "cards", here.parents[1] / "data" / "cards"):
        if candidate.is_dir():
            return candidate
    raise CatalogError(f"card data not found (looked in {here.parent / 'data' / 'cards'}); reinstall mythos")


def _line_of(text: str, card_id: str) -> int:
    m = re.search(rf'^id = "{re.escape(card_id)}"', text, re.M)
    return text.count("\n", 0, m.start()) + 1 if m else 0


def _parse_effect(raw: Any, where: str) -> EffectLine:
    if not isinstance(raw, dict):
        raise CatalogError(f"{where}: an effect line must be a table like {{ timing = \"main\", kind = \"instant\" }}")
    unknown = set(raw) - _EFFECT_FIELDS
    if unknown:
        raise CatalogError(f"{where}: unknown effect field(s) {sorted(unknown)}; allowed: {sorted(_EFFECT_FIELDS)}")
    timing, kind = raw.get("timing"), raw.get("kind")
    if timing not in TIMINGS:
        raise CatalogError(f"{where}: timing {timing!r} is not one of {', '.join(TIMINGS)}")
    if kind not in KINDS:
        raise CatalogError(f"{where}: kind {kind!r} is not one of {', '.join(KINDS)}")
    if timing == "duel" and not raw.get("duel"):
        raise CatalogError(f"{where}: a DUEL line needs duel = \"<character name>\"")
    if kind == "modifier" and raw.get("modifies") not in TIMINGS:
        raise CatalogError(f"{where}: a modifier line needs modifies = one of {', '.join(TIMINGS)}")
    encoding = None
    if "do" in raw:
        try:
            encoding = parse_encoding(raw["do"], where, kind)
        except LanguageError as exc:
            raise CatalogError(str(exc)) from None
    return EffectLine(timing=timing, kind=kind, duel=raw.get("duel"), modifies=raw.get("modifies"), encoding=encoding)


def _parse_card(ctype: str, raw: dict[str, Any], set_code: str, where: str) -> Card:
    unknown = set(raw) - _FIELDS[ctype]
    if unknown:
        raise CatalogError(f"{where}: unknown field(s) {sorted(unknown)} for a {ctype}; allowed: {sorted(_FIELDS[ctype])}")
    missing = _REQUIRED[ctype] - set(raw)
    if missing:
        raise CatalogError(f"{where}: missing field(s) {sorted(missing)}")
    number = raw["number"]
    expected_id = f"{set_code}-{number:03d}" + ("-MMS" if ctype == "mission" else "")
    if raw["id"] != expected_id:
        raise CatalogError(f"{where}: id {raw['id']!r} does not match set and number; expected {expected_id!r}")
    for key in ("cost", "power", "points"):
        # An attachment's power may be negative: it is subtracted from its host.
        negative_ok = key == "power" and ctype == "attachment"
        if key in raw and (not isinstance(raw[key], int) or isinstance(raw[key], bool) or (raw[key] < 0 and not negative_ok)):
            raise CatalogError(f"{where}: {key} must be a whole number{'' if negative_ok else ' ≥ 0'}, not {raw[key]!r}")
    if "group" in raw and raw["group"] not in GROUPS:
        raise CatalogError(f"{where}: group {raw['group']!r} is not one of {', '.join(GROUPS)}")
    if raw["rarity"] not in RARITIES:
        raise CatalogError(f"{where}: rarity {raw['rarity']!r} is not one of {', '.join(RARITIES)}")
    if ctype == "attachment" and raw["attach_to"] not in ATTACH_TARGETS:
        raise CatalogError(f"{where}: attach_to must be one of {ATTACH_TARGETS}")
    printings = tuple(raw["printings"])
    if not printings:
        raise CatalogError(f"{where}: a card needs at least one printing")
    for p in printings:
        m = PRINTING_RE.match(p)
        if not m or m.group(1) != set_code or m.group(4) not in RARITIES:
            raise CatalogError(f"{where}: printing {p!r} is not of the form {set_code}-NNN[_n]-RARITY")
    effects = tuple(_parse_effect(e, f"{where}, effect {i + 1}") for i, e in enumerate(raw.get("effects", [])))
    return Card(
        id=raw["id"],
        set=set_code,
        number=number,
        type=ctype,
        name=raw["name"],
        name_key=name_key(raw["name"]),
        title=raw.get("title", ""),
        rarity=raw["rarity"],
        printings=printings,
        cost=raw.get("cost"),
        power=raw.get("power"),
        group=raw.get("group"),
        keywords=tuple(raw.get("keywords", ())),
        points=raw.get("points"),
        attach_to=raw.get("attach_to"),
        effects=effects,
    )


def load_file(path: Path) -> list[Card]:
    """Parse one set file (``KS.toml``); the set is the file's stem."""
    set_code = path.stem
    if set_code not in SETS:
        raise CatalogError(f"{path}: card files are named after their set ({', '.join(SETS)})")
    try:
        text = path.read_text(encoding="utf-8")
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise CatalogError(f"{path}: not valid TOML: {exc}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CatalogError(f"{path}: cannot read: {exc}") from None
    unknown = set(doc) - set(CARD_TYPES)
    if unknown:
        raise CatalogError(f"{path}: unknown table(s) {sorted(unknown)}; use [[character]], [[attachment]] or [[mission]]")
    cards = []
    for ctype in CARD_TYPES:
        for raw in doc.get(ctype, []):
            card_id = raw.get("id", "?")
            where = f"{path}:{_line_of(text, str(card_id))} ({card_id})"
            cards.append(_parse_card(ctype, raw, set_code, where))
    return cards


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
