"""The core's game rows: ``_core.Recorder`` and ``_core.play_batch`` pack a finished game exactly as
``mythos_cli.sim.record.BatchRecorder`` does (the columns the store's views decode), and
``record.core_frame`` turns them into the very frame the writer stores."""

from __future__ import annotations

import polars as pl
import pytest

_core = pytest.importorskip("mythos_cli._core", reason="the Rust core is not built (pip install -e .)")

from mythos_cli.engine import apply, new_game  # noqa: E402
from mythos_cli.policies import make_policy  # noqa: E402
from mythos_cli.policies.base import Observation  # noqa: E402
from mythos_cli.sim.decks import default_gauntlet, load_specs  # noqa: E402
from mythos_cli.sim.game import game_deck  # noqa: E402
from mythos_cli.sim.record import BatchRecorder, core_frame  # noqa: E402

META = ("run_id", "game_no", "batch_no", "setup_key", "seed")


def _mirrored_games(policies: tuple[str, ...]):
    """Games of the sample decks played on the Python engine, followed in the core."""
    specs = load_specs(default_gauntlet())
    n = 0
    for a in specs:
        for b in specs:
            pol = policies[n % len(policies)]
            seed = 7000 + n
            g = new_game(game_deck(a), game_deck(b), seed, events=True)
            c = _core.Game(list(a.cards), list(a.missions), list(b.cards), list(b.missions), seed, events=True)
            ps = (make_policy(pol, None), make_policy(pol, None))
            ps[0].reset(seed * 2 + 1)
            ps[1].reset(seed * 2 + 2)
            while g.phase != "over":
                act = tuple(ps[g.pending.player].decide(Observation(g, g.pending.player)))
                apply(g, act)
                c.apply(act)
            yield n, seed, g, c
            n += 1


def test_core_rows_are_the_python_rows():
    specs = load_specs(default_gauntlet())
    cards = sorted({c for d in specs for c in (*d.cards, *d.missions)})
    rec, crec = BatchRecorder(cards), _core.Recorder(cards)
    meta: dict[str, list] = {k: [] for k in META}
    for n, seed, g, c in _mirrored_games(("random", "greedy", "ambush")):
        m = {"run_id": "r", "game_no": n, "batch_no": 3, "setup_key": f"k{n % 4}", "seed": seed,
             "studied_seat": n % 2}
        rec.add_game(g, m)
        crec.add(c, n % 2)
        for k in META:
            meta[k].append(m[k])
    assert len(crec) == 36
    py = rec.frames()["game_data"]
    core = core_frame(crec.columns(), meta)
    assert core.schema == py.schema
    differing = [col for col in py.columns if not core[col].equals(py[col])]
    assert differing == []
    assert core.equals(py)


def test_recorder_refuses_what_it_cannot_store():
    spec = load_specs(default_gauntlet())[0]
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


def test_play_batch_checks_its_plan():
    spec = load_specs(default_gauntlet())[0]
    deck = (list(spec.cards), list(spec.missions), spec.name)
    cards = sorted({*spec.cards, *spec.missions})
    with pytest.raises(ValueError, match="unknown policy .nobody."):
        _core.play_batch([deck], [(0, 0, 0, 0, 1, 0)], ["nobody"], cards)
    with pytest.raises(ValueError, match="deck the batch does not have"):
        _core.play_batch([deck], [(0, 1, 0, 0, 1, 0)], ["random"], cards)
    empty = core_frame(_core.play_batch([deck], [], ["random"], cards), {k: [] for k in META})
    assert empty.height == 0 and isinstance(empty, pl.DataFrame)
