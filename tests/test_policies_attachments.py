"""The Python players play games with both sets, attachments included, keeping every invariant.

The Python players still run on the Python engine: this test retires with them (issue 16), when
the built-in players play in the rules core (moved here from ``test_ss_cards.py``, which tests
the catalog and the core only).
"""

from __future__ import annotations

import random

import pytest

from mythos_cli.engine import deck_from_catalog
from mythos_cli.engine.invariants import check
from mythos_cli.policies import make_policy, play_match


def mixed_deck(catalog, rng):
    """A deck drawn from the whole KS+SS pool: characters and attachments."""
    cards = [c.id for c in catalog if c.in_deck]
    missions = [c.id for c in catalog if c.type == "mission"]
    return deck_from_catalog(catalog, rng.sample(cards, 15) * 2, rng.sample(missions, 3))


@pytest.mark.parametrize("spec", ["greedy", "tempo", "ambush", "control"])
def test_policies_play_games_with_attachments(spec, catalog):
    rng = random.Random(7)
    decks = [mixed_deck(catalog, rng) for _ in range(6)]
    for i in range(8):
        r = play_match(decks[i % 6], decks[(i + 2) % 6], make_policy(spec), make_policy("random"), seed=i,
                       check=check if i % 2 == 0 else None)
        assert r.winner in (0, 1)
