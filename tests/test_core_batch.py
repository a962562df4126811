"""Batches: ``_core.play_batch`` plays and packs a batch inside the core; the slow path (a game driven
from Python one decision at a time, ``policies.play_match``, packed by ``_core.Recorder``) gives the
very same rows, and ``record.core_frame`` turns either into the frame the writer stores."""

from __future__ import annotations

import polars as pl
import pytest

from mythos_cli import _core
from mythos_cli.policies import make_policy, play_match
from mythos_cli.sim import RunConfig
from mythos_cli.sim.decks import default_gauntlet, load_specs
from mythos_cli.sim.record import core_frame
from mythos_cli.sim.worker import run_batch
from mythos_cli.store.db import card_list

META = ("run_id", "game_no", "batch_no", "setup_key", "seed")
PLAYER_FILE = '''
from mythos_cli.policies import make_policy


class LikeGreedy:
    """greedy, decided from Python: the slow path must play the very games the core plays."""

    name = "like-greedy"

    def reset(self, seed):
        self.inner = make_policy("greedy")
        self.inner.reset(seed)

    def decide(self, obs):
        return self.inner.decide(obs)
'''


@pytest.fixture(scope="module")
def specs():
    return load_specs(default_gauntlet())


def _plan(specs, pairs, players):
    decks = [(list(s.cards), list(s.missions), s.name) for s in specs]
    games = [(a, b, pa, pb, 9000 + k, k % 2) for k, (a, b, pa, pb) in enumerate(pairs)]
    meta = {"run_id": ["r"] * len(games), "game_no": list(range(len(games))), "batch_no": [0] * len(games),
            "setup_key": [f"k{k % 3}" for k in range(len(games))], "seed": [g[4] for g in games]}
    return decks, games, meta


@pytest.mark.parametrize("players,mulligan", [(["random", "greedy"], None), (["tempo", "ambush"], "always"),
                                              (["control", "lookahead:sims=3,width=2"], "keep")])
def test_a_core_batch_is_the_games_played_from_python(specs, players, mulligan):
    cards = card_list({"decks": [{"cards": s.cards, "missions": s.missions} for s in specs]})
    n = len(specs)
    pairs = [(i % n, (i * 5 + 1) % n, i % 2, 1 - i % 2) for i in range(12)]
    decks, games, meta = _plan(specs, pairs, players)
    batch = core_frame(_core.play_batch(decks, games, players, cards, mulligan=mulligan), meta)
    rec = _core.Recorder(cards)
    for a, b, pa, pb, seed, seat in games:
        r = play_match(specs[a], specs[b], make_policy(players[pa], mulligan), make_policy(players[pb], mulligan),
                       seed, events=True)
        rec.add(r.game, seat)
    slow = core_frame(rec.columns(), meta)
    assert batch.schema == slow.schema
    assert [c for c in batch.columns if not batch[c].equals(slow[c])] == []
    assert batch.height == 12 and batch["decisions"].min() > 20


def test_a_python_player_plays_the_same_games_on_the_slow_path(specs, tmp_path, monkeypatch):
    (tmp_path / "like_greedy.py").write_text(PLAYER_FILE)
    monkeypatch.chdir(tmp_path)
    base = dict(decks=specs[:3], opponents=[0, 1, 2], studied=[0, 1, 2], games=4, policy_b="greedy",
                mulligan=None, seed=3, batch_size=50)
    core = RunConfig(policy_a="greedy", **base)
    # a Python player plays only from the file named on this command line (issue 30): named here
    mine = RunConfig(policy_a="like_greedy.py:LikeGreedy", python_players={"like_greedy.py:LikeGreedy":
                                                                           "like_greedy.py:LikeGreedy"}, **base)
    a = run_batch("r", core, 0, core.batches()[0])["game_data"]
    b = run_batch("r", mine, 0, mine.batches()[0])["game_data"]
    # the same games; only the setup key differs (it names the players)
    assert a.drop("setup_key").equals(b.drop("setup_key"))
    assert set(a["setup_key"]) != set(b["setup_key"])


def test_recorder_refuses_what_it_cannot_store(specs):
    spec = specs[0]
    cards = sorted({*spec.cards, *spec.missions})
    with pytest.raises(ValueError, match="unknown card"):
        _core.Recorder(cards + ["XX-999"])
    g = _core.Game(list(spec.cards), list(spec.missions), list(spec.cards), list(spec.missions), 1, events=True)
    with pytest.raises(ValueError, match="not finished"):
        _core.Recorder(cards).add(g, 0)
    while not g.is_terminal:
        g.apply_index(0)
    # a card list that lacks the game's cards: a layout error, not a crash
    with pytest.raises(_core.LayoutMismatch, match="not in the run's card list"):
        _core.Recorder(cards[:3]).add(g, 0)
    # a game played without its event stream cannot give its card events
    bare = _core.Game(list(spec.cards), list(spec.missions), list(spec.cards), list(spec.missions), 1)
    while not bare.is_terminal:
        bare.apply_index(0)
    with pytest.raises(_core.LayoutMismatch, match="event stream"):
        _core.Recorder(cards).add(bare, 0)


def test_play_batch_checks_its_plan(specs):
    spec = specs[0]
    deck = (list(spec.cards), list(spec.missions), spec.name)
    cards = sorted({*spec.cards, *spec.missions})
    with pytest.raises(ValueError, match="unknown policy 'nobody'"):
        _core.play_batch([deck], [(0, 0, 0, 0, 1, 0)], ["nobody"], cards)
    with pytest.raises(ValueError, match="deck the batch does not have"):
        _core.play_batch([deck], [(0, 1, 0, 0, 1, 0)], ["random"], cards)
    with pytest.raises(ValueError, match="player the batch does not have"):
        _core.play_batch([deck], [(0, 0, 0, 3, 1, 0)], ["random"], cards)
    empty = core_frame(_core.play_batch([deck], [], ["random"], cards), {k: [] for k in META})
    assert empty.height == 0 and isinstance(empty, pl.DataFrame)
