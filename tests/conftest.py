from __future__ import annotations

import os
from pathlib import Path

import pytest

from mythos_cli.catalog import default_catalog

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("MYTHOS_SHARED", REPO.parent / "shared"))


@pytest.fixture(scope="session")
def catalog():
    return default_catalog()


@pytest.fixture(scope="session")
def sample():
    """The six bundled sample decks (the default gauntlet), as deck specs."""
    from mythos_cli.sim.decks import default_gauntlet, load_specs

    return load_specs(default_gauntlet())


@pytest.fixture(scope="session")
def reference():
    """The public card database in ../shared/reference, for cross-checks only."""
    import json

    ref = SHARED / "reference"
    if not (ref / "KS-cards.json").is_file():
        pytest.skip("../shared/reference is absent: cross-checks skipped")
    cards = {}
    for s in ("KS", "SS"):
        cards.update(json.loads((ref / f"{s}-cards.json").read_text(encoding="utf-8"))["cards"])
    return cards
