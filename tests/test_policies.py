"""Policies: only legal decisions, no peeking at hidden information, reproducible."""

from __future__ import annotations

import random

import pytest

from mythos_cli.engine import deck_from_catalog, new_game, legal_actions, apply
from mythos_cli.engine.invariants import check
from mythos_cli.policies import Observation, PolicySpecError, make_policy, play_match
from mythos_cli.policies.ladder import bradley_terry, plan

FAST = ["random", "greedy", "tempo", "ambush", "control"]


def random_deck(catalog, rng):
    chars = [c.id for c in catalog if c.set == "KS" and c.type == "character"]
    missions = [c.id for c in catalog if c.set == "KS" and c.type == "mission"]
    return deck_from_catalog(catalog, rng.sample(chars, 15) * 2, rng.sample(missions, 3))


@pytest.fixture(scope="module")
def decks(catalog):
    rng = random.Random(3)
    return [random_deck(catalog, rng) for _ in range(10)]


@pytest.mark.parametrize("spec", FAST)
def test_policies_only_make_legal_decisions(spec, decks):
    """apply() refuses any illegal action, so a full game is the check; invariants hold too."""
    opponents = FAST
    for i in range(40):
        a = make_policy(spec)
        b = make_policy(opponents[i % len(opponents)])
        r = play_match(decks[i % 10], decks[(i + 3) % 10], a, b, seed=i, check=check if i % 4 == 0 else None)
        assert r.winner in (0, 1)


def test_lookahead_plays_legal_games(decks):
    for i in range(3):
        r = play_match(decks[i], decks[i + 1], make_policy("lookahead:sims=6"), make_policy("greedy"), seed=i)
        assert r.winner in (0, 1)


@pytest.mark.parametrize("spec", FAST + ["lookahead:sims=4"])
def test_same_seed_same_decisions(spec, decks):
    a = play_match(decks[1], decks[2], make_policy(spec), make_policy("greedy"), seed=17)
    b = play_match(decks[1], decks[2], make_policy(spec), make_policy("greedy"), seed=17)
    assert a.state.history == b.state.history


def _shuffle_hidden_info(g, me, rng):
    """Swap the opponent's hand, hidden characters and deck order among themselves."""
    h = g.clone()
    opp = h.players[1 - me]
    pool_slots = [("hand", i) for i in range(len(opp.hand))] + [("deck", i) for i in range(len(opp.deck))]
    hidden = [u for u in h.all_units() if u.hidden and u.owner != me]
    cards = opp.hand + opp.deck + [u.stack[-1] for u in hidden]
    rng.shuffle(cards)
    k = 0
    for zone, i in pool_slots:
        getattr(opp, zone)[i] = cards[k]
        k += 1
    for u in hidden:
        u.stack[-1] = cards[k]
        k += 1
    # face-down attachments of the opponent trade places with attachment cards of their hand/deck
    for m in h.missions:
        for lst in [m.attachments[0], m.attachments[1]] + [u.attachments for side in m.sides for u in side]:
            for i, a in enumerate(lst):
                if a in h.att_hidden and h.owner[a] != me:
                    spare = [(z, j) for z in (opp.hand, opp.deck) for j, c in enumerate(z) if h.cards[c].type == "attachment"]
                    if spare:
                        z, j = rng.choice(spare)
                        z[j], lst[i] = lst[i], z[j]
                        h.att_hidden.discard(z[j])
                        h.att_hidden.add(lst[i])
                        if z[j] in h.att_power:
                            h.att_power[lst[i]] = h.att_power.pop(z[j])
    rng.shuffle(h.players[me].deck)
    h.board_version += 1
    return h


def _check_no_peek(spec, pair_for_seed, driver_spec, steps_range, seeds, at_least):
    """Drive games to random points, then compare a policy's choice with its choice on a copy whose
    hidden information (opponent's hand, hidden cards, face-down attachments, deck orders) differs."""
    rng = random.Random(11)
    tested = 0
    for seed in range(seeds):
        a, b = pair_for_seed(seed)
        g = new_game(a, b, seed)
        driver = make_policy(driver_spec)
        driver.reset(seed)
        for _ in range(rng.randrange(*steps_range)):
            if g.is_terminal:
                break
            apply(g, driver.decide(Observation(g, g.pending.player)))
        if g.is_terminal:
            continue
        me = g.pending.player
        p1, p2 = make_policy(spec), make_policy(spec)
        p1.reset(99)
        p2.reset(99)
        # every action names only my cards or public units, so the choices must be identical
        assert p2.decide(Observation(_shuffle_hidden_info(g, me, rng), me)) == p1.decide(Observation(g, me))
        tested += 1
    assert tested >= at_least


@pytest.mark.parametrize("spec", FAST[1:] + ["lookahead:sims=4"])
def test_policies_do_not_peek(spec, decks):
    """Changing what a player cannot see must not change that player's choice."""
    _check_no_peek(spec, lambda seed: (decks[seed % 10], decks[(seed + 5) % 10]), "random", (10, 60), 12, 8)


def test_policy_specs():
    assert make_policy("lookahead:sims=50,time=0.5").sims == 50
    for bad in ("nope", "greedy:sims=3", "lookahead:sims", "lookahead:sims=abc"):
        with pytest.raises(PolicySpecError):
            make_policy(bad)
    with pytest.raises(PolicySpecError):
        make_policy("greedy", mulligan="sometimes")


def test_mulligan_policies(decks):
    g = new_game(decks[0], decks[1], 1)
    obs = Observation(g, g.pending.player)
    assert make_policy("greedy", mulligan="keep").decide(obs) == ("choose", False)
    assert make_policy("greedy", mulligan="always").decide(obs) == ("choose", True)
    assert make_policy("greedy", mulligan="heuristic").decide(obs) in legal_actions(g)


def test_ladder_plan_mirrors_seats():
    jobs = plan(["a", "b"], 2, 4, seed=1)
    assert len(jobs) == 4
    assert (jobs[0].a, jobs[0].b) == ("a", "b") and (jobs[1].a, jobs[1].b) == ("b", "a")
    assert (jobs[0].deck_a, jobs[0].deck_b) == (jobs[1].deck_b, jobs[1].deck_a)
    assert plan(["a", "b"], 2, 4, seed=1) == jobs


def test_bradley_terry_orders_known_strengths():
    pw = {("s", "m"): (70, 100), ("m", "s"): (30, 100), ("m", "w"): (70, 100), ("w", "m"): (30, 100),
          ("s", "w"): (85, 100), ("w", "s"): (15, 100)}
    ratings = bradley_terry(["w", "m", "s"], pw)
    assert [r.policy for r in ratings] == ["s", "m", "w"]
    s = next(r for r in ratings if r.policy == "s")
    assert s.low < s.elo < s.high and s.elo > 200


@pytest.mark.parametrize("spec", ["greedy", "ambush", "lookahead:sims=4"])
def test_policies_do_not_peek_with_attachments(spec):
    """The same check on the sample decks, whose Shinobi Shiren list plays attachments face down."""
    from mythos_cli.sim.decks import default_gauntlet, load_specs
    from mythos_cli.sim.worker import _game_deck

    sample = [_game_deck(s) for s in load_specs(default_gauntlet())]
    # the last sample deck (ss-attachments) plays attachments
    _check_no_peek(spec, lambda seed: (sample[seed % len(sample)], sample[-1]), "ambush", (20, 70), 16, 8)


def test_lookahead_values_the_board_left_in_play(catalog):
    """A playout ends with the round, but the characters stay: with ``leaf`` the lookahead adds
    what the board is worth in the rounds to come, so a board where I lead every mission is
    worth more than the score margin alone, and one where I trail is worth less."""
    from mythos_cli.engine.scenario import build

    def board(mine: str, theirs: str):
        doc = {"board": {"round": 2, "edge": "p1", "turn": "p1", "chakra": {"p1": 0, "p2": 0}},
               "mission": [{"card": "KS-006-MMS", mine: ["KS-015", "KS-009"], theirs: ["KS-014"]},
                           {"card": "KS-006-MMS", mine: ["KS-054"]}],
               "deck": {"p1": ["KS-013"] * 6, "p2": ["KS-013"] * 6}}
        g = build(doc, catalog, "test")
        from mythos_cli.engine.game import advance
        advance(g)
        assert g.pending is not None and g.pending.player == 0
        return Observation(g, 0)

    plain, leaf = make_policy("lookahead:leaf=0"), make_policy("lookahead:leaf=1")
    for p in (plain, leaf):
        p.reset(5)
    ahead, behind = board("p1", "p2"), board("p2", "p1")
    assert leaf._playout(ahead, ("pass",), 99) > plain._playout(ahead, ("pass",), 99)
    assert leaf._playout(behind, ("pass",), 99) < plain._playout(behind, ("pass",), 99)
