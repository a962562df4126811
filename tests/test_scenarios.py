"""Every scenario file under tests/scenarios/ must pass (rules and card effects)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mythos_cli.engine.scenario import run_file

FILES = sorted((Path(__file__).parent / "scenarios").rglob("*.toml"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(p.parents[1])))
def test_scenario(path, catalog):
    res = run_file(path, catalog)
    assert res.error is None, res.error
    failed = [f"{c.what}: {c.detail}" for c in res.checks if not c.ok]
    assert not failed, "\n".join(failed)
    assert res.checks, "a scenario must expect something"


def test_there_are_scenarios():
    assert len(FILES) >= 15


def test_bad_board_round_is_a_clear_error_shown_as_written(tmp_path, monkeypatch):
    """A round outside 1-4 is refused, and the CLI shows the message's "[board]" as text
    (rich would otherwise read it as markup and drop it)."""
    from typer.testing import CliRunner

    from mythos_cli.cli import app

    monkeypatch.chdir(tmp_path)
    (tmp_path / "l.toml").write_text('name = "late"\nsteps = []\n[board]\nround = 9\n[expect]\nround = 9\n')
    res = CliRunner().invoke(app, ["scenario", "run", "l.toml"])
    assert res.exit_code == 1
    assert "l.toml [board] round: a game has rounds 1 to 4, not 9" in res.stdout


def _doc(path: str) -> dict:
    import tomllib

    return tomllib.loads((Path(__file__).parent / "scenarios" / path).read_text(encoding="utf-8"))


def test_a_step_answered_by_the_wrong_player_fails_clearly(catalog):
    from mythos_cli.engine.scenario import run_doc

    doc = _doc("rules/trigger_order_by_card_id.toml")
    doc["steps"][1] = "p1: choose KS-037"  # p2, the turn player, orders the triggers
    res = run_doc(doc, catalog, "t.toml")
    assert res.error == ("t.toml step 2 ('p1: choose KS-037'): the step is p1's, but p2 is deciding now: "
                         "an order decision (which effect resolves first)")
    doc = _doc("rules/setup_whole_game_stated_order.toml")
    doc["steps"][0] = "p2: mulligan no"  # the Edge player (p1) decides first
    res = run_doc(doc, catalog, "s.toml")
    assert res.error is not None and "the step is p2's, but p1 is deciding now: a mulligan decision" in res.error
    doc["steps"] = ["p1: mulligan no", "p2: mulligan no", "p2: pass"]  # p1 has the Edge: p1 acts first
    res = run_doc(doc, catalog, "s.toml")
    assert res.error is not None and "p1 is deciding now: an action decision" in res.error


def test_order_prompts_by_card_id_and_their_errors(catalog):
    from mythos_cli.engine.scenario import run_doc

    doc = _doc("rules/trigger_order_by_card_id.toml")
    for answer, ok in (("choose p1:KS-037", True), ("choose Neji Hyuga", True), ("choose 2", True),
                       ("choose KS-017", False), ("choose p2:KS-037", False)):
        doc["steps"][1] = answer
        res = run_doc(doc, catalog, "t.toml")
        assert (res.error is None and res.passed) == ok, (answer, res.error)
        if not ok:
            assert "is not one of the effects to order: ['p1:KS-031', 'p1:KS-037']" in res.error


def test_units_stack_is_compared_in_stack_order(catalog):
    from mythos_cli.engine.scenario import run_doc

    doc = _doc("rules/upgrade_rules.toml")
    assert run_doc(doc, catalog, "u.toml").passed
    doc["expect"]["units"]["KS-043"]["stack"].reverse()  # top → bottom is wrong
    res = run_doc(doc, catalog, "u.toml")
    assert res.error is None and not res.passed
    assert any("stack" in c.what and "got ['KS-042', 'KS-043']" in c.detail for c in res.checks if not c.ok)


def test_setup_and_mulligan_boards_refuse_what_does_not_exist_before_round_1(catalog):
    from mythos_cli.engine.scenario import run_doc

    doc = _doc("rules/setup_whole_game_stated_order.toml")
    doc["hand"] = {"p1": ["KS-009"]}
    assert "a setup board deals from the decks" in run_doc(doc, catalog, "s.toml").error
    doc = _doc("rules/setup_whole_game_stated_order.toml")
    doc["board"]["missions"]["p2"] = ["KS-004-MMS", "KS-005-MMS"]
    assert "a player brings exactly 3 missions" in run_doc(doc, catalog, "s.toml").error
    doc = _doc("rules/setup_whole_game_stated_order.toml")
    doc["board"]["round"] = 1
    assert "a setup board takes only" in run_doc(doc, catalog, "s.toml").error
    doc = _doc("rules/mulligan_board_is_round_0.toml")
    doc["board"]["round"] = 1
    assert "the mulligans come before round 1 (round 0), not 1" in run_doc(doc, catalog, "m.toml").error
    doc = _doc("rules/mulligan_board_is_round_0.toml")
    doc["mission"] = [{"card": "KS-001-MMS"}]
    assert "no mission is in play before round 1" in run_doc(doc, catalog, "m.toml").error
