"""The compiled core plays exactly the games of the Python engine (issue 15's differential test).

Games are played on the Python engine (random picks, and each built-in player) and followed in
the core decision by decision: the same decision, the same legal actions in the same order at
every step, and the same zones, units, missions and scores along the way and at the end.
``benchmarks/differential.py`` runs the same comparison on 100,000 games.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest.importorskip("mythos_cli._core", reason="the Rust core is not built (pip install -e . or maturin develop)")

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"
sys.path.insert(0, str(BENCH))

from bench_engine import make_decks  # noqa: E402
from differential import compare_game  # noqa: E402

from mythos_cli.decks import load_deck, sample_paths  # noqa: E402
from mythos_cli.policies import make_policy  # noqa: E402
from mythos_cli.sim.decks import deck_spec  # noqa: E402
from mythos_cli.sim.game import game_deck  # noqa: E402


@pytest.mark.parametrize("sets,seed", [(("KS", "SS"), 1), (("KS",), 7), (("SS",), 11)])
def test_random_games_are_identical(sets, seed):
    decks = make_decks(40, sets, "all", seed)
    diffs = [d for i in range(1000)
             if (d := compare_game(decks[i % 40], decks[(i * 7 + 3) % 40], seed * 1_000_003 + i))]
    assert diffs == [], diffs[:3]


@pytest.mark.parametrize("policy", ["greedy", "tempo", "ambush", "control", "lookahead:sims=2,width=2"])
def test_heuristic_players_games_are_identical(policy):
    decks = [game_deck(deck_spec(load_deck(p), Path(p).stem)) for p in sample_paths()]
    players = (make_policy(policy), make_policy(policy))
    diffs = [d for i in range(40) if (d := compare_game(decks[i % 6], decks[(i * 5 + 1) % 6], 500 + i, players))]
    assert diffs == [], diffs[:3]


def test_a_difference_is_reported(monkeypatch):
    """The comparison can fail: a core that answers a different decision is caught."""
    import differential

    decks = make_decks(4, ("KS",), "all", 3)
    real = differential._core_state
    monkeypatch.setattr(differential, "_core_state", lambda c: {**real(c), "edge": 1 - c.edge})
    assert compare_game(decks[0], decks[1], 42) is not None
