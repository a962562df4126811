"""The Rust core renders every effect line exactly as the Python renderer does.

``mythos_cli._core.describe(card_id)`` (core/src/language/render.rs) against
``mythos_cli.catalog.render.describe(line, card)`` for every card of the catalog. Skipped when
the core is not built (``maturin develop``, or ``pip install .``).
"""

from __future__ import annotations

import pytest

from mythos_cli.catalog.render import core_describe, python_describe as describe

_core = pytest.importorskip("mythos_cli._core", reason="the Rust core (mythos_cli._core) is not built")


def test_every_card_reads_the_same(catalog):
    mismatches = []
    for card in catalog:
        want = [describe(line, card) for line in card.effects]
        got = core_describe(card)
        if len(got) != len(want):
            mismatches.append(f"{card.id}: {len(got)} lines from the core, {len(want)} from Python")
            continue
        for i, (w, g) in enumerate(zip(want, got)):
            if w != g:
                mismatches.append(f"{card.id} line {i}:\n  python: {w}\n  core:   {g}")
    assert not mismatches, f"{len(mismatches)} line(s) differ:\n" + "\n".join(mismatches)


def test_a_printing_names_its_version(catalog):
    card = catalog["KS-108-RA"]
    assert _core.describe("KS-108-RA") == _core.describe(card.id) == [describe(x, card) for x in card.effects]


def test_an_unknown_card_is_a_value_error():
    with pytest.raises(ValueError, match="unknown card"):
        _core.describe("KS-999")
