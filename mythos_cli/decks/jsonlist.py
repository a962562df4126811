"""The JSON deck list.

::

    {
      "name": "Leaf Village Rush",
      "format": "mythos",                 optional construction format
      "header": {"author": "…"},          optional, string values
      "cards": [{"id": "KS-009-C", "qty": 2}, {"id": "KS-015", "qty": 1, "name": "Kakashi Hatake"}],
      "missions": ["KS-001-MMS", "KS-005-MMS", "SS-003-MMS"]
    }

A card's ``id`` may be any reference a text list accepts (an id or a name); without an
``id``, its ``name`` is the reference, otherwise ``name`` is a label. The other
construction formats add ``"section"`` (``"ninja"``, ``"leader"`` …) and ``"colours"``
to card objects. Problems name the JSON path and the line it starts on.
"""

from __future__ import annotations

import bisect
import json
import json.scanner
from typing import Any

from mythos_cli.decks.model import DECK, MAX_QTY, MISSIONS, Deck, DeckEntry, Problem, error, warning
from mythos_cli.decks.source import bad_char, char_name
from mythos_cli.decks.syntax import SECTION_WORDS, is_id, section_key
from mythos_cli.decks.textlist import MAX_ENTRIES

SHAPE_HINT = 'a JSON list looks like {"name": "…", "cards": [{"id": "KS-009-C", "qty": 2}], "missions": ["KS-001-MMS", …]}'
_TOP_KEYS = {"name", "format", "header", "cards", "missions"}
_CARD_KEYS = {"id", "qty", "name", "label", "section", "colours", "colors"}


class _Obj(dict):
    line: int = 0


class _Str(str):
    line: int = 0


class _List(list):
    lines: list[int] = []  # the line of each element


def _loads(text: str) -> Any:
    """``json.loads`` that remembers the line where each object and string starts."""
    breaks = [i for i, ch in enumerate(text) if ch == "\n"]

    def line_of(pos: int) -> int:
        return bisect.bisect_left(breaks, pos) + 1

    # Integers of thousands of digits would hit Python's int-parsing limit; any number
    # this long is absurd as a quantity anyway.
    decoder = json.JSONDecoder(parse_int=lambda s: int(s) if len(s) <= 30 else 10**31)
    parse_object, parse_array = decoder.parse_object, decoder.parse_array

    def locating(scan_once):
        def scan(s, idx):
            value, end = scan_once(s, idx)
            if type(value) is str:
                value = _Str(value)
                value.line = line_of(idx)
            return value, end
        return scan

    def located_object(s_and_end, strict, scan_once, *rest):
        obj, end = parse_object(s_and_end, strict, locating(scan_once), *rest)
        out = _Obj(obj)
        out.line = line_of(s_and_end[1] - 1)
        return out, end

    def located_array(s_and_end, scan_once):
        starts: list[int] = []
        inner = locating(scan_once)

        def scan(s, idx):
            starts.append(line_of(idx))
            return inner(s, idx)

        values, end = parse_array(s_and_end, scan)
        out = _List(values)
        out.lines = starts
        return out, end

    decoder.parse_object = located_object
    decoder.parse_array = located_array
    decoder.scan_once = json.scanner.py_make_scanner(decoder)
    return decoder.decode(text)


def _odd_text(value: Any, where: str, line: int | None = 1) -> tuple[str, str, int, int | None] | None:
    """The first string (key or value) holding a character no deck list needs."""
    if isinstance(value, str):
        i = bad_char(value)
        return None if i is None else (where or "the document", value, i, _line(value, line))
    if isinstance(value, dict):
        for k, v in value.items():
            i = bad_char(k)
            if i is not None:
                return (f"the key {where + '.' if where else ''}{k!r}", k, i, _line(value, line))
            found = _odd_text(v, f"{where}.{k}" if where else f'"{k}"', _line(value, line))
            if found:
                return found
    elif isinstance(value, list):
        for j, v in enumerate(value):
            found = _odd_text(v, f"{where}[{j}]", _item_line(value, j, line))
            if found:
                return found
    return None


def _line(value: Any, default: int | None) -> int | None:
    return getattr(value, "line", None) or default


def _item_line(array: list, i: int, default: int | None) -> int | None:
    """The line of ``array[i]``: its own, or where the array's scan found it."""
    lines = getattr(array, "lines", [])
    return _line(array[i], lines[i] if i < len(lines) else default)


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    for kind, name in ((dict, "an object"), (list, "a list"), (str, "a string"), ((int, float), "a number")):
        if isinstance(value, kind):
            return name
    return type(value).__name__


def _qty(value: Any, where: str, line: int | None) -> tuple[int | None, Problem | None]:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None, error("bad-quantity", f"{where}.qty is {_kind(value)}, not a whole number",
                           f'write "qty": 2 (a whole number from 1 to {MAX_QTY})', [line])
    if isinstance(value, float) and not value.is_integer():
        return None, error("bad-quantity", f"{where}.qty {value} is not a whole number", 'write "qty": 2', [line])
    qty = int(value) if value == value and abs(value) != float("inf") else 10**31
    if qty <= 0:
        return None, error("bad-quantity", f"{where}.qty {qty} is {'zero' if qty == 0 else 'negative'}",
                           "remove the card, or give how many copies you play (at least 1)", [line])
    if qty > MAX_QTY:
        shown = str(qty) if qty < 10**12 else "huge"
        return None, error("absurd-quantity", f"{where}.qty {shown} is absurd",
                           f"at most {MAX_QTY} copies of one card; a Mythos deck allows 2 copies of a version", [line])
    return qty, None


def _colours(value: Any, where: str, line: int | None) -> tuple[tuple[str, ...] | None, Problem | None]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(c, str) and c.strip() for c in value):
        return None, error("json-shape", f"{where}.colours must be a list of colour names", 'write "colours": ["red"]', [line])
    return tuple(c.strip().lower() for c in value), None


def parse_json(text: str) -> tuple[Deck, list[Problem]]:
    """Parse a JSON list. Never raises: bad JSON and a wrong shape become problems."""
    try:
        doc = _loads(text)
    except json.JSONDecodeError as exc:
        return Deck(), [error("bad-json", f"not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})",
                              "fix the JSON syntax (a missing comma or quote?); " + SHAPE_HINT, [exc.lineno])]
    except RecursionError:
        return Deck(), [error("bad-json", "the JSON is nested too deeply to be a deck list", SHAPE_HINT)]
    if not isinstance(doc, dict):
        return Deck(), [error("not-a-deck-list", f"the JSON holds {_kind(doc)}, not an object", SHAPE_HINT, [1])]
    odd = _odd_text(doc, "")
    if odd is not None:  # an escape such as \u001b: a control character the text check never saw
        where, text, i, line = odd
        return Deck(), [error("bad-character", f"{where} holds {char_name(text[i])}: a deck list is plain text, and "
                                               "this character would reach the terminal or break a report",
                              "delete it from the JSON (look for a \\u escape)", [line])]
    problems: list[Problem] = []
    top = _line(doc, 1)
    for key in doc:
        if key not in _TOP_KEYS:
            problems.append(warning("json-unknown-key", f"unknown key {key!r} is ignored",
                                    f"a JSON list has the keys {', '.join(sorted(_TOP_KEYS))}", [top]))

    name = doc.get("name")
    if name is not None and not isinstance(name, str):
        problems.append(error("json-shape", f'"name" is {_kind(name)}, not a string', 'write "name": "My Deck"', [top]))
        name = None
    header: dict[str, str] = {}
    header_lines: dict[str, int | None] = {}
    raw_header = doc.get("header", {})
    if not isinstance(raw_header, dict):
        problems.append(error("json-shape", f'"header" is {_kind(raw_header)}, not an object', 'write "header": {"author": "…"}', [_line(raw_header, top)]))
    else:
        for key, value in raw_header.items():
            if not isinstance(value, str) or not value.strip():
                problems.append(error("json-shape", f'header {key!r} must be a non-empty string', None, [_line(raw_header, top)]))
            elif key.lower() == "name" or section_key(key) in SECTION_WORDS or not key.replace("-", "").replace("_", "").isalnum():
                problems.append(error("json-shape", f"header key {key!r} is not allowed",
                                      'header keys are words such as "author" or "event"; the name goes in "name"', [_line(raw_header, top)]))
            else:
                header[key.lower()] = str(value)
    if "format" in doc:
        fmt = doc["format"]
        if isinstance(fmt, str) and fmt.strip():
            header["format"] = str(fmt)
            header_lines["format"] = _line(fmt, top)
        else:
            problems.append(error("json-shape", f'"format" is {_kind(fmt)}, not a format name', 'write "format": "mythos"', [top]))

    entries: list[DeckEntry] = []
    cards = doc.get("cards")
    if cards is None:
        problems.append(error("json-shape", 'the JSON list has no "cards"', SHAPE_HINT, [top]))
        cards = []
    elif not isinstance(cards, list):
        problems.append(error("json-shape", f'"cards" is {_kind(cards)}, not a list', SHAPE_HINT, [_line(cards, top)]))
        cards = []
    missions = doc.get("missions", [])
    if not isinstance(missions, list):
        problems.append(error("json-shape", f'"missions" is {_kind(missions)}, not a list',
                              'write "missions": ["KS-001-MMS", "KS-005-MMS", "SS-003-MMS"]', [_line(missions, top)]))
        missions = []
    if len(cards) + len(missions) > MAX_ENTRIES:
        return Deck(name=name, header=header), problems + [
            error("too-many-lines", f"the JSON list has {len(cards) + len(missions)} cards and missions: this is not a deck list",
                  "check that this is the right file", [top])]

    for i, obj in enumerate(cards):
        where = f"cards[{i}]"
        line = _item_line(cards, i, top)
        if not isinstance(obj, dict):
            problems.append(error("json-shape", f"{where} is {_kind(obj)}, not a card object",
                                  '{"id": "KS-009-C", "qty": 2}', [line]))
            continue
        for key in obj:
            if key not in _CARD_KEYS:
                problems.append(warning("json-unknown-key", f"{where}: unknown key {key!r} is ignored",
                                        f"a card object has the keys {', '.join(sorted(_CARD_KEYS - {'colors'}))}", [line]))
        ref = obj.get("id", obj.get("name"))
        if not isinstance(ref, str) or not ref.strip():
            what = "no card id" if ref is None else f'an "id" that is {_kind(ref)}'
            problems.append(error("json-shape", f"{where} has {what}", '{"id": "KS-009-C", "qty": 2}', [line]))
            continue
        if "qty" not in obj:
            problems.append(error("bad-quantity", f"{where} ({ref}) has no qty", f'add "qty": 1 (a whole number from 1 to {MAX_QTY})', [line]))
            continue
        qty, problem = _qty(obj["qty"], f"{where} ({ref})", line)
        if problem:
            problems.append(problem)
            continue
        section = obj.get("section", DECK)
        if not isinstance(section, str) or not section.strip():
            problems.append(error("json-shape", f"{where}.section must be a section name", '"section": "deck"', [line]))
            continue
        colours: tuple[str, ...] = ()
        raw_colours = obj.get("colours", obj.get("colors"))
        if raw_colours is not None:
            parsed, problem = _colours(raw_colours, where, line)
            if problem:
                problems.append(problem)
                continue
            colours = parsed
        label = obj.get("label") if "id" in obj else None
        if label is None and "id" in obj:
            label = obj.get("name")
        entries.append(DeckEntry(str(ref), qty, section_key(section), label=str(label or ""), colours=colours, line=line))

    for i, item in enumerate(missions):
        where = f"missions[{i}]"
        line = _item_line(missions, i, top)
        qty = 1
        if isinstance(item, dict):
            ref = item.get("id", item.get("name"))
            if "qty" in item:
                qty, problem = _qty(item["qty"], where, line)
                if problem:
                    problems.append(problem)
                    continue
        else:
            ref = item
        if not isinstance(ref, str) or not ref.strip():
            problems.append(error("json-shape", f"{where} is {_kind(ref)}, not a mission id",
                                  '"missions": ["KS-001-MMS", "KS-005-MMS", "SS-003-MMS"]', [line]))
            continue
        entries.append(DeckEntry(str(ref), qty, MISSIONS, line=line))
    return Deck(name=name, header=header, entries=tuple(entries), header_lines=header_lines), problems


def deck_to_json(deck: Deck) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if deck.name:
        out["name"] = deck.name
    header = dict(deck.header)
    fmt = header.pop("format", None)
    if fmt:
        out["format"] = fmt
    if header:
        out["header"] = header
    cards = []
    missions: list[Any] = []
    for e in deck.entries:
        if e.section == MISSIONS and not e.colours:
            missions.append(e.written_id if e.qty == 1 else {"id": e.written_id, "qty": e.qty})
            continue
        # A card the catalog does not know (the other formats) is named, not identified.
        key = "id" if e.card is not None or is_id(e.ref) else "name"
        obj: dict[str, Any] = {key: e.written_id, "qty": e.qty}
        if e.card is not None:
            obj["name"] = e.card.full_name
        elif e.label:
            obj["label"] = e.label
        if e.section != DECK:
            obj["section"] = e.section
        if e.colours:
            obj["colours"] = list(e.colours)
        cards.append(obj)
    out["cards"] = cards
    out["missions"] = missions
    return out


def write_json(deck: Deck) -> str:
    return json.dumps(deck_to_json(deck), ensure_ascii=False, indent=2) + "\n"
