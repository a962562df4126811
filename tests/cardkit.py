"""Card files for the catalog tests: one card with one effect line, its encoding as given."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mythos_cli.catalog import CatalogError
from mythos_cli.catalog.loader import load_file


def toml_value(v: Any) -> str:
    """``v`` (dicts, lists, strings, numbers, booleans) written as a TOML inline value."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)  # (a JSON string is a TOML basic string)
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{json.dumps(k)} = {toml_value(x)}" for k, x in v.items()) + " }"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    raise TypeError(f"no TOML for {v!r}")


def card_file(directory: Path, do: Any, kind: str = "instant", timing: str = "main") -> Path:
    """``KS.toml`` in ``directory`` with one character (KS-001, on line 2) whose one effect line
    has this ``do``."""
    line = {"timing": timing, "kind": kind} | ({"modifies": "main"} if kind == "modifier" else {}) | {"do": do}
    path = directory / "KS.toml"
    path.write_text('[[character]]\nid = "KS-001"\nnumber = 1\nname = "Test"\ntitle = "T"\ncost = 1\npower = 1\n'
                    'group = "Leaf Village"\nkeywords = []\nrarity = "C"\nprintings = ["KS-001-C"]\n'
                    f"effects = [{toml_value(line)}]\n", encoding="utf-8")
    return path


def encoding_error(directory: Path, do: Any, kind: str = "instant") -> str:
    """The message that refuses a card file whose one line has this ``do``."""
    with pytest.raises(CatalogError) as exc:
        load_file(card_file(directory, do, kind))
    return str(exc.value)
