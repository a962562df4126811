"""A scenario file's text and shape, checked before a board is built from it.

``read_scenario`` reads a regular file of at most ``MAX_BYTES`` and parses its TOML (deep
nesting is refused, not a RecursionError); ``check_shape`` checks that every key is one the
scenario language knows and every value has the type it needs, naming the key and what it
should be. The engine then only meets well-formed documents: what remains for it to refuse
is what the cards and the rules refuse.
"""

from __future__ import annotations

import difflib
import tomllib
from pathlib import Path
from typing import Any

from mythos_cli.files import FileProblem, read_regular

# The largest scenario of the test suite is about 1.3 KB: this leaves room for any real one.
MAX_BYTES = 256_000


class ScenarioInputError(ValueError):
    """The file cannot be read or parsed (exit 2), or its document has the wrong shape."""

    def __init__(self, message: str, unreadable: bool = False):
        super().__init__(message)
        self.unreadable = unreadable


def read_scenario(path: str | Path) -> dict:
    where = str(path)
    try:
        data = read_regular(path, MAX_BYTES, "scenario file")
    except FileProblem as exc:
        raise ScenarioInputError(f"{where}: cannot read: {exc.message}", unreadable=True) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ScenarioInputError(f"{where}: cannot read: not UTF-8 text (byte 0x{data[exc.start]:02X} at offset "
                                 f"{exc.start}); save it as UTF-8", unreadable=True) from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioInputError(f"{where}: not valid TOML: {exc}", unreadable=True) from None
    except RecursionError:
        raise ScenarioInputError(f"{where}: not valid TOML for a scenario: arrays or tables nested too deeply",
                                 unreadable=True) from None


# -- the shape of a document ------------------------------------------------------------------
# A type is a Python type, a tuple of them, ("list", T) or ("table", T) (any keys, values T),
# or a dict (a table with exactly those keys; a key ending in "!" is required).
STR, INT, BOOL = str, int, bool
PLAYER_INTS = ("table", INT)
PLAYER_CARDS = ("table", ("list", STR))
UNIT = (STR, {"card!": STR, "tokens": INT, "hidden": BOOL, "under": ("list", STR), "owner": STR,
              "controlled_by": STR, "attached": ("list", STR), "hidden_attached": ("list", STR)})
EXPECT = {
    "error": STR, "power": ("table", INT), "tokens": ("table", INT), "hidden": ("list", STR),
    "face_up": ("list", STR), "in_play": ("list", STR), "not_in_play": ("list", STR),
    "units": ("table", ("table", (STR, INT, BOOL, ("list", STR)))), "mission_power": ("list", ("list", INT)),
    "score": PLAYER_INTS, "chakra": PLAYER_INTS, "hand": PLAYER_CARDS, "discard": PLAYER_CARDS, "deck": PLAYER_CARDS,
    "discard_order": PLAYER_CARDS, "hand_size": PLAYER_INTS, "deck_size": PLAYER_INTS, "discard_size": PLAYER_INTS,
    "edge": STR, "winner": STR, "round": INT, "phase": STR, "round_scores": ("list", ("list", INT)),
    "mission_winners": ("list", STR), "decision": {"player": STR, "kind": STR, "options": ("list", STR)},
    "attached": ("table", ("list", STR)), "can_play": ("table", BOOL),
    "missions": ("list", STR), "mission_deck": ("list", STR),  # the missions in play, and still to come
}
MISSION = {"card!": STR, "rank": STR, "p1": ("list", UNIT), "p2": ("list", UNIT), "p1_attached": ("list", STR),
           "p2_attached": ("list", STR), "p1_hidden_attached": ("list", STR), "p2_hidden_attached": ("list", STR)}
BOARD = {"round": INT, "edge": STR, "turn": STR, "chakra": PLAYER_INTS, "score": PLAYER_INTS, "phase": STR,
         "passed": ("list", STR), "plays_this_round": PLAYER_INTS,
         "missions": PLAYER_CARDS, "shuffle": BOOL}  # the last two: a setup board (phase = "setup")
DOCUMENT = {"name": STR, "seed": INT, "steps": ("list", STR), "board": BOARD, "mission": ("list", MISSION),
            "hand": PLAYER_CARDS, "deck": PLAYER_CARDS, "discard": PLAYER_CARDS, "missions_left": PLAYER_CARDS,
            "mission_deck": ("list", STR), "expect": EXPECT, "checkpoints": ("table", EXPECT)}


def _describe(t) -> str:
    if isinstance(t, dict):
        return "a table"
    if isinstance(t, tuple) and t and t[0] == "list":
        return f"a list of {_plural(t[1])}"
    if isinstance(t, tuple) and t and t[0] == "table":
        return "a table"
    if isinstance(t, tuple):
        return " or ".join(_describe(x) for x in t)
    return {str: "a string", int: "a whole number", bool: "true or false"}.get(t, t.__name__)


def _plural(t) -> str:
    text = _describe(t)
    for one, many in (("a string", "strings"), ("a whole number", "whole numbers"), ("true or false", "booleans"),
                      ("a table", "tables"), ("a list of", "lists of")):
        text = text.replace(one, many)
    return text


def _found(v: Any) -> str:
    return {str: "a string", int: "a number", float: "a number", bool: "a boolean", list: "a list",
            dict: "a table"}.get(type(v), type(v).__name__)


def _at(where: str) -> str:
    return f"{where}: " if where else ""


def _check(v: Any, t, where: str) -> None:
    if isinstance(t, dict):
        if not isinstance(v, dict):
            raise ScenarioInputError(f"{_at(where)}{_found(v)}, but it must be a table")
        known = {k.rstrip("!"): k.endswith("!") for k in t}
        for k, sub in v.items():
            if k not in known:
                close = difflib.get_close_matches(k, list(known), n=1, cutoff=0.6)
                raise ScenarioInputError(f"{_at(where)}unknown key {k!r}"
                                         + (f" (did you mean {close[0]!r}?)" if close else "")
                                         + f"; known keys: {', '.join(known)}")
            _check(sub, t[k + "!" if known[k] else k], f"{where}.{k}" if where else k)
        missing = [k for k, req in known.items() if req and k not in v]
        if missing:
            raise ScenarioInputError(f"{_at(where)}{missing[0]!r} is missing")
        return
    if isinstance(t, tuple) and t and t[0] in ("list", "table"):
        kind, sub = t
        if kind == "list":
            if not isinstance(v, list):
                raise ScenarioInputError(f"{where}: {_found(v)}, but it must be {_describe(t)}")
            for i, x in enumerate(v):
                _check(x, sub, f"{where}[{i + 1}]")
        else:
            if not isinstance(v, dict):
                raise ScenarioInputError(f"{where}: {_found(v)}, but it must be a table")
            for k, x in v.items():
                _check(x, sub, f"{where}.{k}")
        return
    if isinstance(t, tuple):
        errors = []
        for option in t:
            try:
                _check(v, option, where)
                return
            except ScenarioInputError as exc:
                errors.append((option, exc))
        for option, exc in errors:  # the value has the shape of one option: say what is wrong inside it
            if isinstance(option, dict) and isinstance(v, dict) or isinstance(option, tuple) and \
                    option and option[0] == "list" and isinstance(v, list):
                raise exc
        raise ScenarioInputError(f"{_at(where)}{_found(v)}, but it must be {_describe(t)}")
    if t is int and (isinstance(v, bool) or not isinstance(v, int)) or t is not int and not isinstance(v, t):
        raise ScenarioInputError(f"{where}: {_found(v)} ({_short(v)}), but it must be {_describe(t)}")


def _short(v: Any) -> str:
    text = repr(v)
    return text if len(text) <= 40 else text[:37] + "..."


def check_shape(doc: dict, where: str) -> None:
    """Every key known and every value of its type; ``ScenarioInputError`` names the key."""
    try:
        _check(doc, DOCUMENT, "")
    except ScenarioInputError as exc:
        raise ScenarioInputError(f"{where}: {exc}") from None
    for k in doc.get("checkpoints", {}):
        if not k.isdigit():
            raise ScenarioInputError(f"{where}: checkpoints.{k}: a checkpoint is a step number ([checkpoints.2])")
    if not doc.get("expect") and not any(doc.get("checkpoints", {}).values()):
        raise ScenarioInputError(f"{where}: no expectation: a scenario checks something after its steps "
                                 "([expect] with e.g. power, hidden, score) or at a step ([checkpoints.N])")
