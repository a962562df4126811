"""The built-in players play the same games as the version that recorded their fingerprints
(``benchmarks/fingerprints.json``, ``test`` counts): a change meant to make the engine faster, or
to touch no player, must keep every one of them. A change that means to change games records
them again (``python benchmarks/fingerprint.py --set test --record`` and ``--set full --record``)
and says why in its commit."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from fingerprint import PLAYERS, RECORDED, TEST, fingerprint  # noqa: E402

RECORD = json.loads(RECORDED.read_text())["test"]


@pytest.mark.parametrize("spec", PLAYERS)
def test_the_games_are_the_recorded_ones(spec):
    assert RECORD[spec]["games"] == TEST[spec]
    assert fingerprint(spec, TEST[spec]) == RECORD[spec]["digest"], f"{spec} plays other games than recorded"


def test_a_changed_game_changes_the_fingerprint():
    # the same player on other seeds, or one game fewer, gives another digest
    assert fingerprint("greedy", 300) != fingerprint("greedy", 299)
    assert fingerprint("greedy", 300) != fingerprint("tempo", 300)
