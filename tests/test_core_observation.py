"""A Python player's window on a core game: ``_core.Game.view`` and ``determinize``, and
``mythos_cli.policies.observation.Observation`` over them, show a player only what they may know."""

from __future__ import annotations

import pytest

_core = pytest.importorskip("mythos_cli._core", reason="the Rust core is not built (pip install -e .)")

from mythos_cli.policies.observation import Observation  # noqa: E402
from mythos_cli.sim.decks import default_gauntlet, load_specs  # noqa: E402


def _games(n: int = 6, every: int = 7):
    """Positions of random games of the sample decks: every ``every``-th decision."""
    specs = load_specs(default_gauntlet())
    for k in range(n):
        a, b = specs[k % len(specs)], specs[(k * 5 + 1) % len(specs)]
        g = _core.Game(list(a.cards), list(a.missions), list(b.cards), list(b.missions), 300 + k)
        step = 0
        while not g.is_terminal:
            if step % every == 0:
                yield g
            g.apply_index((step * 7919 + k) % g.num_actions())
            step += 1


def test_a_view_does_not_change_with_what_the_player_cannot_see():
    checked = 0
    for g in _games():
        for player in (0, 1):
            view = g.view(player)
            for seed in (1, 2, 3):
                # the opponent's hand, hidden characters, face-down attachments and both deck orders redealt
                other = g.determinize(player, seed)
                assert other.view(player) == view
                checked += 1
    assert checked > 100


def test_determinize_really_redeals_the_unseen_cards():
    moved = 0
    for g in _games(3):
        opp = g.player(1)
        d = g.determinize(0, 9)
        moved += d.player(1)["hand"] != opp["hand"] or d.player(0)["deck"] != g.player(0)["deck"]
    assert moved > 10


def test_observation_reads_the_view():
    for g in _games(2):
        player = g.current_player
        if player < 0:
            continue
        obs = Observation(g, player)
        view = g.view(player)
        assert obs.legal == [tuple(a) for a in g.legal_actions()]
        assert obs.kind == g.pending()["kind"]
        assert obs.scores == tuple(view["scores"]) and obs.round == g.round
        assert obs.hand == g.player(player)["hand"]
        assert len(obs.units) == len(g.units())
        for u in obs.units:
            if not u.mine and u.hidden:
                assert u.card is None  # an opponent's hidden character has no name
        for inst in obs.hand:
            assert obs.card_of(inst).id == g.card_id(inst)
        for inst in g.player(1 - player)["hand"]:
            with pytest.raises(ValueError, match="can see"):
                obs.card_of(inst)
        if obs.kind == "action":
            assert obs.price(("pass",)) == 0


def test_the_observation_of_the_other_player_has_no_decision():
    g = next(_games(1))
    waiting = 1 - g.current_player
    assert g.view(waiting)["decision"] is None
    with pytest.raises(ValueError, match="no decision"):
        Observation(g, waiting).kind
