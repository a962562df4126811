"""Engine API, setup, determinism, views and the invariant run."""

from __future__ import annotations

import random

import pytest

from mythos_cli.engine import (
    GameDeck,
    IllegalAction,
    apply,
    deck_from_catalog,
    legal_actions,
    new_game,
    play_random_game,
    scores,
)
from mythos_cli.engine.invariants import check

from enginekit import placement_options


def random_deck(catalog, rng, sets=("KS",)):
    chars = [c.id for c in catalog if c.set in sets and c.type == "character"]
    missions = [c.id for c in catalog if c.set in sets and c.type == "mission"]
    return deck_from_catalog(catalog, rng.sample(chars, 15) * 2, rng.sample(missions, 3))


@pytest.fixture(scope="module")
def decks(catalog):
    rng = random.Random(42)
    return [random_deck(catalog, rng) for _ in range(8)]


def test_setup_mission_deck_alternates(decks):
    for seed in range(20):
        g = new_game(decks[0], decks[1], seed)
        edge = g.edge
        top_first = list(reversed(g.mission_deck))
        owners = [g.owner[c] for c in top_first]
        assert owners == [edge, 1 - edge, edge, 1 - edge]
        for p in g.players:
            assert len(p.hand) == 5 and len(p.deck) == 25
            assert p.set_aside in p.missions and p.set_aside not in g.mission_deck
        assert g.pending.kind == "mulligan" and g.pending.player == edge


def test_mulligan_once_each_edge_first(decks):
    g = new_game(decks[0], decks[1], 3)
    first = g.pending.player
    hand_before = sorted(g.players[first].hand)
    apply(g, ("choose", True))
    assert g.players[first].mulliganed and len(g.players[first].hand) == 5
    assert sorted(g.players[first].hand + g.players[first].deck) == sorted(
        hand_before + [c for c in g.players[first].deck + g.players[first].hand if c not in hand_before])
    assert g.pending.kind == "mulligan" and g.pending.player == 1 - first
    apply(g, ("choose", False))
    assert g.round == 1 and g.pending.kind == "action" and g.pending.player == g.edge
    assert all(len(p.hand) == 7 for p in g.players)  # 5 + 2 drawn in the Start phase


def test_same_seed_same_game(decks):
    a = play_random_game(decks[0], decks[1], 11)
    b = play_random_game(decks[0], decks[1], 11)
    assert a.history == b.history and scores(a) == scores(b) and a.winner == b.winner


def test_illegal_action_leaves_state_untouched(decks):
    g = new_game(decks[2], decks[3], 5)
    before = g.clone()
    with pytest.raises(IllegalAction):
        apply(g, ("play", 999, 0, False, -1))
    with pytest.raises(IllegalAction):
        apply(g, ("choose", "maybe"))
    assert g.history == before.history and g.pending == before.pending
    assert [p.hand for p in g.players] == [p.hand for p in before.players]


def test_clone_is_independent(decks):
    g = new_game(decks[0], decks[1], 9)
    c = g.clone()
    rng = random.Random(1)
    while not c.is_terminal:
        acts = legal_actions(c)
        apply(c, acts[rng.randrange(len(acts))])
    assert not g.is_terminal and g.round == 0 and c.cards is g.cards


def test_random_games_keep_invariants(catalog):
    """The invariant run, small in the suite (the benchmark script runs the large one)."""
    rng = random.Random(7)
    for seed in range(300):
        a, b = random_deck(catalog, rng), random_deck(catalog, rng)
        g = play_random_game(a, b, seed, check=check)
        assert g.is_terminal and g.winner in (0, 1)
        assert sum(sum(r) for r in g.round_scores) == sum(scores(g))


def test_game_deck_needs_three_missions(catalog):
    d = deck_from_catalog(catalog, ["KS-009"] * 30, ["KS-001-MMS", "KS-002-MMS", "KS-003-MMS"])
    bad = GameDeck(d.cards, d.missions[:2])
    with pytest.raises(ValueError):
        new_game(d, bad, 1)


def test_main_options_agree_with_place_options(catalog):
    """The fast main-action generator offers exactly what the general placement rules allow."""
    rng = random.Random(5)
    checked = 0
    for seed in range(60):
        g = new_game(random_deck(catalog, rng), random_deck(catalog, rng), seed)
        while not g.is_terminal:
            if g.pending.kind == "action":
                got = {a for a in legal_actions(g) if a[0] != "reveal"}
                assert got == placement_options(g, g.pending.player)
                checked += 1
            acts = legal_actions(g)
            apply(g, acts[rng.randrange(len(acts))])
    assert checked > 500


def test_view_hides_what_a_player_cannot_know(catalog):
    """Changing the opponent's hand, hidden cards or any deck order leaves my view unchanged."""
    from mythos_cli.engine.view import observe

    rng = random.Random(8)
    tested = 0
    for seed in range(40):
        g = new_game(random_deck(catalog, rng), random_deck(catalog, rng), seed)
        while not g.is_terminal and g.round < 3:
            acts = legal_actions(g)
            apply(g, acts[rng.randrange(len(acts))])
        if g.is_terminal:
            continue
        me = 0
        before = observe(g, me).key()
        h = g.clone()
        opp = h.players[1]
        # swap the identities of the opponent's hand cards and hidden characters with deck cards
        # (not those on my side: a hidden card of theirs I control is mine to look at, KS-052)
        hidden = [u for u in h.all_units() if u.hidden and u.owner == 1 and u.controller == 1]
        pool = opp.deck
        for i in range(min(len(opp.hand), len(pool))):
            opp.hand[i], pool[i] = pool[i], opp.hand[i]
        for u in hidden:
            if pool:
                u.stack[-1], pool[-1] = pool[-1], u.stack[-1]
        rng.shuffle(h.players[0].deck)
        rng.shuffle(opp.deck)
        h.board_version += 1
        assert observe(h, me).key() == before
        tested += 1
    assert tested > 10


def test_event_stream(decks):
    g = new_game(decks[0], decks[1], 4, events=True)
    rng = random.Random(2)
    while not g.is_terminal:
        acts = legal_actions(g)
        apply(g, acts[rng.randrange(len(acts))])
    kinds = {e[1] for e in g.events}
    assert {"setup", "mission", "chakra", "draw", "play", "mission_result", "game_over"} <= kinds
    assert new_game(decks[0], decks[1], 4).events is None  # off by default
