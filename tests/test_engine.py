"""The rules core's game (``mythos_cli._core.Game``): setup, mulligans, determinism, illegal
actions, clones, the invariant run and the event stream.

(The core's own tests check the rest: ``core/tests/actions.rs``, the fast action generator against
the placement rules; ``core/tests/hidden.rs``, what a player may know.)
"""

from __future__ import annotations

import random

import pytest

from mythos_cli import _core


def random_deck(catalog, rng, sets=("KS",)) -> tuple[list[str], list[str]]:
    chars = [c.id for c in catalog if c.set in sets and c.type == "character"]
    missions = [c.id for c in catalog if c.set in sets and c.type == "mission"]
    return rng.sample(chars, 15) * 2, rng.sample(missions, 3)


def new_game(a, b, seed, **kw) -> _core.Game:
    return _core.Game(*a, *b, seed, **kw)


def play_randomly(g: _core.Game, rng: random.Random) -> None:
    while not g.is_terminal:
        acts = g.legal_actions()
        g.apply(acts[rng.randrange(len(acts))])


@pytest.fixture(scope="module")
def decks(catalog):
    rng = random.Random(42)
    return [random_deck(catalog, rng) for _ in range(8)]


def test_setup_mission_deck_alternates(decks):
    for seed in range(20):
        g = new_game(decks[0], decks[1], seed)
        edge = g.edge
        top_first = list(reversed(g.mission_deck()))
        assert [g.owner(c) for c in top_first] == [edge, 1 - edge, edge, 1 - edge]
        for p in (0, 1):
            pl = g.player(p)
            assert len(pl["hand"]) == 5 and len(pl["deck"]) == 25
            assert pl["set_aside"] in pl["missions"] and pl["set_aside"] not in g.mission_deck()
        d = g.pending()
        assert d["kind"] == "mulligan" and d["player"] == edge


def test_mulligan_once_each_edge_first(decks):
    g = new_game(decks[0], decks[1], 3)
    first = g.pending()["player"]
    before = g.player(first)
    g.apply(("choose", True))
    after = g.player(first)
    assert after["mulliganed"] and len(after["hand"]) == 5
    assert sorted(after["hand"] + after["deck"]) == sorted(before["hand"] + before["deck"])  # the same cards, reshuffled
    assert g.pending()["kind"] == "mulligan" and g.pending()["player"] == 1 - first
    g.apply(("choose", False))
    assert g.round == 1 and g.pending()["kind"] == "action" and g.pending()["player"] == g.edge
    assert all(len(g.player(p)["hand"]) == 7 for p in (0, 1))  # 5 + 2 drawn in the Start phase


def test_same_seed_same_game(decks):
    a = _core.play_random_game(*decks[0], *decks[1], 11)
    b = _core.play_random_game(*decks[0], *decks[1], 11)
    assert a.history() == b.history() and a.scores() == b.scores() and a.winner == b.winner
    c = _core.play_random_game(*decks[0], *decks[1], 12)
    assert c.history() != a.history()


def test_illegal_action_leaves_state_untouched(decks):
    g = new_game(decks[2], decks[3], 5)
    before = g.clone()
    with pytest.raises(_core.IllegalAction):
        g.apply(("play", 999, 0, False, -1))
    with pytest.raises(_core.IllegalAction):
        g.apply(("choose", "maybe"))
    assert g.history() == before.history() and g.pending() == before.pending()
    assert [g.player(p)["hand"] for p in (0, 1)] == [before.player(p)["hand"] for p in (0, 1)]


def test_clone_is_independent(decks):
    g = new_game(decks[0], decks[1], 9)
    c = g.clone()
    play_randomly(c, random.Random(1))
    assert c.is_terminal and not g.is_terminal and g.round == 0 and g.history() == []


def test_random_games_keep_invariants(catalog):
    """The invariant run, small in the suite (the benchmark script runs the large one): every
    invariant after every decision."""
    rng = random.Random(7)
    decks = [random_deck(catalog, rng) for _ in range(40)]
    pairs = [(i % 40, (i * 7 + 3) % 40) for i in range(300)]
    games, decisions, failures = _core.play_random_games(decks, pairs, list(range(300)), check=True)
    assert failures == [] and games == 300 and decisions > 300 * 50
    for seed in range(20):
        g = _core.play_random_game(*decks[seed], *decks[seed + 1], seed)
        assert g.is_terminal and g.winner in (0, 1)
        assert sum(sum(r) for r in g.round_scores()) == sum(g.scores())
        g.check_invariants()


def test_game_deck_needs_three_missions(catalog):
    cards, missions = ["KS-009"] * 30, ["KS-001-MMS", "KS-002-MMS", "KS-003-MMS"]
    with pytest.raises(ValueError, match="exactly 3 missions"):
        new_game((cards, missions), (cards, missions[:2]), 1)
    with pytest.raises(ValueError, match="unknown card"):
        new_game((cards, missions), (["KS-999"] * 30, missions), 1)


def test_event_stream(decks):
    g = new_game(decks[0], decks[1], 4, events=True)
    play_randomly(g, random.Random(2))
    kinds = {e[1] for e in g.events()}
    assert {"setup", "mission", "chakra", "draw", "play", "mission_result", "game_over"} <= kinds
    quiet = new_game(decks[0], decks[1], 4)
    play_randomly(quiet, random.Random(2))
    assert quiet.events() == [] and quiet.history() == g.history()  # off by default, same game
