"""The built-in players of the rules core (issue 16): they never look at what their seat cannot
see, the same seed gives the same decisions, and the batch functions play the games one
decision at a time would play.

(They were ported decision for decision from the Python players: 10,000 games of each on the
Python engine, every decision asked of both, none differed; that check retired with the Python
engine, see issue 16's closing note.)
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from mythos_cli import _core
from mythos_cli.policies import make_policy

from playerkit import core_game, decision_history, ids

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

PLAYERS = ["random", "greedy", "tempo", "ambush", "control"]
LOOKAHEAD = "lookahead:sims=4,width=3"


# ---- no peeking ----------------------------------------------------------------------------------
def redealt(c, me, seed):
    """The same game with what ``me`` cannot see dealt again: the opponent's hand, hidden
    characters and face-down attachments traded among themselves and the opponent's deck, both
    decks in a new order."""
    return c.determinize(me, seed)


def _check_no_peek(spec, decks, driver, steps_range, seeds, at_least):
    rng = random.Random(11)
    tested = 0
    for seed in range(seeds):
        a, b = decks(seed)
        c = core_game(a, b, seed)
        drive = _core.Player(driver)
        drive.reset(seed)
        for _ in range(rng.randrange(*steps_range)):
            if c.is_terminal:
                break
            c.apply(drive.decide(c))
        if c.is_terminal:
            continue
        me = c.pending()["player"]
        other = redealt(c, me, rng.getrandbits(32))
        assert other.legal_actions() == c.legal_actions()
        p1, p2 = _core.Player(spec), _core.Player(spec)
        p1.reset(99)
        p2.reset(99)
        # every action names only my cards or public units, so the choices must be identical
        assert p2.decide(other) == p1.decide(c)
        tested += 1
    assert tested >= at_least


@pytest.mark.parametrize("spec", PLAYERS[1:] + [LOOKAHEAD])
def test_core_players_do_not_peek(spec, sample):
    from bench_engine import make_decks

    decks = make_decks(10, ("KS", "SS"), "all", 3)
    _check_no_peek(spec, lambda seed: (decks[seed % 10], decks[(seed + 5) % 10]), "random", (10, 60), 30, 20)
    # the last sample deck plays attachments face down
    _check_no_peek(spec, lambda seed: (sample[seed % len(sample)], sample[-1]), "ambush", (20, 70), 30, 20)


def test_redealing_changes_what_the_player_cannot_see(sample):
    """The no-peek check is not vacuous: the opponent's hand or deck differs after a re-deal."""
    c = core_game(sample[0], sample[-1], 3)
    drive = _core.Player("greedy")
    for _ in range(30):
        c.apply(drive.decide(c))
    me = c.pending()["player"]
    other = redealt(c, me, 1)
    assert other.player(1 - me)["hand"] != c.player(1 - me)["hand"] or other.player(1 - me)["deck"] != c.player(1 - me)["deck"]
    assert other.player(me)["hand"] == c.player(me)["hand"]


# ---- reproducible ----------------------------------------------------------------------------------
@pytest.mark.parametrize("spec", PLAYERS + [LOOKAHEAD])
def test_same_seed_same_decisions(spec, sample):
    def history(seed):
        return decision_history(sample[1], sample[2], spec, seed)

    assert history(17) == history(17)
    assert history(17) != history(18)


def test_batches_play_the_games_of_play_match(sample):
    """``play_matches`` (whole games in the core, the GIL released) gives each game's result as
    ``play_match`` does, driving the same players one decision at a time from Python."""
    from mythos_cli.policies import play_match

    decks = [ids(d) for d in sample]
    games = [(i % 6, (i * 5 + 1) % 6, 50 + i) for i in range(8)]
    rows = _core.play_matches(decks, games, "tempo", "greedy")
    for (a, b, seed), (winner, sa, sb, decisions, _rounds) in zip(games, rows):
        r = play_match(sample[a], sample[b], make_policy("tempo"), make_policy("greedy"), seed)
        assert (winner, (sa, sb), decisions) == (r.winner, r.scores, r.game.decisions)
    assert _core.play_matches(decks, games, "tempo", "greedy") == rows
    with pytest.raises(ValueError):
        _core.play_matches(decks, games, "tempo", "nope")
