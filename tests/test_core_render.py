"""Every effect line reads as the golden renderings say (``core/tests/renderings.tsv``).

The golden files were written once by the Python renderer, the reference the core's renderer was
made to match, and are now fixed: a change of wording is a deliberate edit of the file, reviewed
like the code (``core/tests/render.rs`` checks the core's renderer against them too, with the
target prompts of ``selectors.tsv``). Here the check goes through what the tool shows,
``catalog.render.describe(line, card)``, for every card of the catalog.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from mythos_cli import _core
from mythos_cli.catalog.render import describe

GOLDEN = Path(__file__).resolve().parents[1] / "core" / "tests" / "renderings.tsv"


def _unescape(text: str) -> str:
    out, chars = [], iter(text)
    for c in chars:
        if c != "\\":
            out.append(c)
            continue
        nxt = next(chars, "\\")
        out.append({"t": "\t", "n": "\n"}.get(nxt, nxt))
    return "".join(out)


def golden() -> dict[tuple[str, int], str]:
    rows = {}
    for line in GOLDEN.read_text(encoding="utf-8").splitlines():
        if line:
            card, index, text = line.split("\t", 2)
            rows[(card, int(index))] = _unescape(text)
    return rows


def test_every_card_reads_as_the_golden_file(catalog):
    want = golden()
    got = {(card.id, i): describe(line, card) for card in catalog for i, line in enumerate(card.effects)}
    assert len(got) > 400 and set(got) == set(want), sorted(set(got) ^ set(want))[:10]
    mismatches = [f"{k[0]} line {k[1]}:\n  golden: {want[k]}\n  now:    {got[k]}" for k in sorted(got) if got[k] != want[k]]
    assert not mismatches, f"{len(mismatches)} line(s) differ:\n" + "\n".join(mismatches)


def test_a_printing_names_its_version(catalog):
    card = catalog["KS-108-RA"]
    assert _core.describe("KS-108-RA") == _core.describe(card.id) == [describe(x, card) for x in card.effects]


def test_an_unknown_card_is_a_value_error():
    with pytest.raises(ValueError, match="unknown card"):
        _core.describe("KS-999")
