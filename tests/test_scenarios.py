"""Every scenario file under tests/scenarios/ must pass on the rules core (rules and card effects),
and the runner's own messages stay clear."""

from __future__ import annotations

from pathlib import Path

import pytest

from mythos_cli.scenario import run_doc, run_file

FILES = sorted((Path(__file__).parent / "scenarios").rglob("*.toml"))


def _file_id(p: Path) -> str:
    return str(p.relative_to(p.parents[1]))


def _assert_passes(res) -> None:
    assert res.error is None, res.error
    failed = [f"{c.what}: {c.detail}" for c in res.checks if not c.ok]
    assert not failed, "\n".join(failed)
    assert res.checks, "a scenario must expect something"


@pytest.mark.parametrize("path", FILES, ids=_file_id)
def test_scenario(path, catalog):
    _assert_passes(run_file(path, catalog))


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
    doc = _doc("rules/trigger_order_by_card_id.toml")
    for answer, ok in (("choose p1:KS-037", True), ("choose Neji Hyuga", True), ("choose 2", True),
                       ("choose KS-017", False), ("choose p2:KS-037", False)):
        doc["steps"][1] = answer
        res = run_doc(doc, catalog, "t.toml")
        assert (res.error is None and res.passed) == ok, (answer, res.error)
        if not ok:
            assert "is not one of the effects to order: ['p1:KS-031', 'p1:KS-037']" in res.error


def test_units_stack_is_compared_in_stack_order(catalog):
    doc = _doc("rules/upgrade_rules.toml")
    assert run_doc(doc, catalog, "u.toml").passed
    doc["expect"]["units"]["KS-043"]["stack"].reverse()  # top → bottom is wrong
    res = run_doc(doc, catalog, "u.toml")
    assert res.error is None and not res.passed
    assert any("stack" in c.what and "got ['KS-042', 'KS-043']" in c.detail for c in res.checks if not c.ok)


def test_setup_and_mulligan_boards_refuse_what_does_not_exist_before_round_1(catalog):
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


def test_the_cli_plays_on_the_core_and_says_the_python_engine_is_gone():
    from typer.testing import CliRunner

    from mythos_cli.cli import app

    path = str(Path(__file__).parent / "scenarios" / "rules" / "upgrade_rules.toml")
    for extra in ([], ["--engine", "core"]):
        res = CliRunner().invoke(app, ["scenario", "run", path, *extra])
        assert res.exit_code == 0 and "1 passed, 0 failed" in res.stderr, extra
    res = CliRunner().invoke(app, ["scenario", "run", path, "--engine", "python"])
    assert res.exit_code == 2 and "the Python engine is retired" in res.stderr and "leave out --engine" in res.stderr
    res = CliRunner().invoke(app, ["scenario", "run", path, "--engine", "rust"])
    assert res.exit_code == 2 and "unknown engine 'rust'" in res.stderr


def test_a_malformed_board_spec_is_refused(catalog):
    from mythos_cli.scenario import board

    for spec in ({"cards": ["KS-009"], "owner": [0], "bogus": 1},
                 {"cards": ["KS-009"], "owner": [0, 1]},
                 {"cards": ["KS-009"], "owner": [0], "setup": {"decks": [[], []], "missions": [[], []]}}):
        with pytest.raises(ValueError):
            board.load(spec, catalog)
    with pytest.raises((KeyError, ValueError)):
        board.load({"cards": ["KS-999"], "owner": [0]}, catalog)
