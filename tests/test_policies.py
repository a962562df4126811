"""Players from Python: specs, the built-in players driven one decision at a time, players written
in Python (the documented protocol, the slow path), their errors, and the ladder's statistics."""

from __future__ import annotations

import random
import textwrap

import pytest

from mythos_cli import _core
from mythos_cli.policies import (MULLIGANS, POLICY_NAMES, Observation, PlayerError, PolicySpecError, make_policy,
                                 play_match)
from mythos_cli.policies.ladder import bradley_terry, plan, run_ladder
from mythos_cli.sim.plan import DeckSpec

FAST = ["random", "greedy", "tempo", "ambush", "control"]


def mixed_deck(catalog, rng, i):
    """A deck drawn from the whole KS+SS pool: characters and attachments."""
    cards = [c.id for c in catalog if c.in_deck]
    missions = [c.id for c in catalog if c.type == "mission"]
    return DeckSpec(f"mixed-{i}", tuple(rng.sample(cards, 15)) * 2, tuple(rng.sample(missions, 3)))


@pytest.fixture(scope="module")
def decks(catalog):
    rng = random.Random(3)
    return [mixed_deck(catalog, rng, i) for i in range(10)]


def invariants(g) -> None:
    g.check_invariants()


@pytest.mark.parametrize("spec", FAST)
def test_players_play_whole_legal_games_keeping_every_invariant(spec, decks):
    """apply() refuses any illegal action, so a full game is the check; the invariants hold after
    every decision (both sets, attachments included)."""
    for i in range(12):
        r = play_match(decks[i % 10], decks[(i + 3) % 10], make_policy(spec), make_policy(FAST[i % 5]), seed=i,
                       check=invariants if i % 3 == 0 else None)
        assert r.winner in (0, 1) and r.game.is_terminal
        assert r.scores == tuple(r.game.scores())


def test_lookahead_plays_legal_games(decks):
    for i in range(3):
        r = play_match(decks[i], decks[i + 1], make_policy("lookahead:sims=6"), make_policy("greedy"), seed=i)
        assert r.winner in (0, 1)


@pytest.mark.parametrize("spec", FAST + ["lookahead:sims=4"])
def test_same_seed_same_game(spec, decks):
    a = play_match(decks[1], decks[2], make_policy(spec), make_policy("greedy"), seed=17)
    b = play_match(decks[1], decks[2], make_policy(spec), make_policy("greedy"), seed=17)
    assert a.game.history() == b.game.history()
    c = play_match(decks[1], decks[2], make_policy(spec), make_policy("greedy"), seed=18)
    assert c.game.history() != a.game.history()


def test_specs_and_their_errors():
    assert make_policy("lookahead:sims=50,time=0.5").spec.startswith("lookahead:")
    assert "sims=50" in make_policy("lookahead:sims=50").spec
    assert make_policy(" Greedy ").spec == "greedy"
    assert set(FAST) <= set(POLICY_NAMES) and {"keep", "heuristic", "always"} <= set(MULLIGANS)
    for bad, says in [("nope", "unknown policy 'nope'"), ("greedy:sims=3", "greedy"), ("lookahead:sims", "key=value"),
                      ("lookahead:sims=abc", "sims"), ("", "empty policy")]:
        with pytest.raises(PolicySpecError, match=says):
            make_policy(bad)
    with pytest.raises(PolicySpecError, match="unknown mulligan policy 'sometimes'"):
        make_policy("greedy", mulligan="sometimes")


def test_mulligan_rules(sample):
    g = _core.Game(list(sample[0].cards), list(sample[0].missions), list(sample[1].cards), list(sample[1].missions), 1)
    obs = Observation(g, g.current_player)
    assert obs.kind == "mulligan"
    assert make_policy("greedy", mulligan="keep").decide(obs) == ("choose", False)
    assert make_policy("greedy", mulligan="always").decide(obs) == ("choose", True)
    assert make_policy("greedy", mulligan="heuristic").decide(obs) in obs.legal
    assert make_policy("greedy").mulligan == "heuristic" and make_policy("random").mulligan == "keep"
    assert make_policy("tempo", mulligan="always").mulligan == "always"


# ---- players written in Python ---------------------------------------------------------------------
CHEAPEST = '''
import random


class Cheapest:
    """Plays its cheapest card face up wherever it can; otherwise the first legal answer."""

    name = "cheapest"

    def reset(self, seed):
        self.rng = random.Random(seed)

    def decide(self, obs):
        plays = [a for a in obs.legal if a[0] == "play" and not a[3]]
        if plays:
            low = min(obs.price(a) for a in plays)
            return self.rng.choice([a for a in plays if obs.price(a) == low])
        return obs.legal[0]


class Cheater:
    name = "cheater"

    def reset(self, seed):
        pass

    def decide(self, obs):
        return ("play", 9999, 0, False, -1)


class Crasher:
    def reset(self, seed):
        pass

    def decide(self, obs):
        raise KeyError("oops")


class NoDecide:
    def reset(self, seed):
        pass
'''


@pytest.fixture()
def player_file(tmp_path):
    path = tmp_path / "my_players.py"
    path.write_text(textwrap.dedent(CHEAPEST))
    return path


def test_a_python_player_plays_legal_reproducible_games(player_file, sample):
    spec = f"{player_file}:Cheapest"
    p = make_policy(spec)
    assert not p.builtin and p.name == "cheapest" and p.spec == spec
    results = [play_match(sample[i], sample[(i + 1) % 6], make_policy(spec), make_policy("greedy"), seed=i,
                          check=invariants) for i in range(6)]
    assert all(r.winner in (0, 1) for r in results)
    again = play_match(sample[0], sample[1], make_policy(spec), make_policy("greedy"), seed=0)
    assert again.game.history() == results[0].game.history()
    # it really plays: cards face up from round 1
    assert any(a[0] == "play" for a in results[0].game.history())


def test_a_run_imposes_its_mulligan_rule_on_a_python_player(player_file, sample):
    g = _core.Game(list(sample[0].cards), list(sample[0].missions), list(sample[1].cards), list(sample[1].missions), 1)
    obs = Observation(g, g.current_player)
    assert make_policy(f"{player_file}:Cheapest", "always").decide(obs) == ("choose", True)
    assert make_policy(f"{player_file}:Cheapest", "keep").decide(obs) == ("choose", False)


def test_a_python_players_mistakes_are_named(player_file, sample):
    with pytest.raises(PlayerError, match="Cheater answered .*which is not legal: .* is not a legal action"):
        play_match(sample[0], sample[1], make_policy(f"{player_file}:Cheater", "keep"), make_policy("greedy"), seed=1)
    with pytest.raises(PlayerError, match="Crasher failed in round 0 .*KeyError: 'oops'"):
        play_match(sample[0], sample[1], make_policy(f"{player_file}:Crasher"), make_policy("greedy"), seed=1)


@pytest.mark.parametrize("spec,says", [
    ("{dir}/missing.py:X", "no such file"),
    ("{file}:Nobody", "has no class 'Nobody'"),
    ("{file}:NoDecide", "has no decide"),
    ("no_such_module_here.players:X", "importing no_such_module_here.players failed"),
])
def test_python_player_spec_errors(spec, says, player_file):
    with pytest.raises(PolicySpecError, match=says):
        make_policy(spec.format(dir=player_file.parent, file=player_file))


def test_a_broken_player_file_is_an_error_not_a_traceback(tmp_path):
    bad = tmp_path / "broken.py"
    bad.write_text("def oops(:\n")
    with pytest.raises(PolicySpecError, match="importing .*broken.py failed: SyntaxError"):
        make_policy(f"{bad}:X")


# ---- the ladder --------------------------------------------------------------------------------------
def test_ladder_plan_mirrors_seats():
    jobs = plan(["a", "b"], 2, 4, seed=1)
    assert len(jobs) == 4
    assert (jobs[0].a, jobs[0].b) == ("a", "b") and (jobs[1].a, jobs[1].b) == ("b", "a")
    assert (jobs[0].deck_a, jobs[0].deck_b) == (jobs[1].deck_b, jobs[1].deck_a)
    assert plan(["a", "b"], 2, 4, seed=1) == jobs


def test_ladder_plays_in_the_core_and_refuses_python_players(sample, player_file):
    res = run_ladder(sample[:2], ["random", "greedy"], 8, seed=2)
    assert res.games == 8 and res.pairwise[("greedy", "random")][1] == 8
    again = run_ladder(sample[:2], ["random", "greedy"], 8, seed=2, workers=2)
    assert again.pairwise == res.pairwise  # the same games whatever the workers
    with pytest.raises(PolicySpecError, match="built-in players"):
        run_ladder(sample[:2], ["greedy", f"{player_file}:Cheapest"], 4, seed=1)


def test_bradley_terry_orders_known_strengths():
    pw = {("s", "m"): (70, 100), ("m", "s"): (30, 100), ("m", "w"): (70, 100), ("w", "m"): (30, 100),
          ("s", "w"): (85, 100), ("w", "s"): (15, 100)}
    ratings = bradley_terry(["w", "m", "s"], pw)
    assert [r.policy for r in ratings] == ["s", "m", "w"]
    s = next(r for r in ratings if r.policy == "s")
    assert s.low < s.elo < s.high and s.elo > 200


@pytest.mark.parametrize("spec", ["search:strong", "search:tree=1"])
def test_the_reference_and_the_tree_parse_play_reproducibly_and_keep_to_their_budget(spec, decks):
    """search:strong (the reference, about a second of CPU a self-play game) and search:tree=1 (the
    information-set search): the spec is written back in full, the same seed plays the same game,
    another seed another one, and a game against greedy stays within a loose multiple of its budget."""
    import time

    from mythos_cli.policies import REFERENCE_POLICY

    player = make_policy(spec)
    assert player.spec.startswith("search:clear=") and make_policy(player.spec).spec == player.spec
    if spec == REFERENCE_POLICY:
        assert "playouts=128" in player.spec and "solve=19200" in player.spec
    lists = [(list(d.cards), list(d.missions)) for d in decks[:2]]
    t = time.process_time()
    rows = [_core.play_matches(lists, [(0, 1, seed)], spec, "greedy")[0] for seed in (4, 4, 5)]
    assert rows[0] == rows[1] and rows[0] != rows[2]
    # three games with one seat searching: the reference is about half a second a game there
    assert time.process_time() - t < 20
