"""Every report names the players that made its games, and says how much the figures move with them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mythos_cli.cli import app
from mythos_cli.reports import KINDS, make_report
from mythos_cli.reports.players import policy_label
from mythos_cli.sim.decks import default_gauntlet

runner = CliRunner()
DECKS = {Path(p).stem: p for p in default_gauntlet()}


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args])


@pytest.fixture(scope="module")
def mixed(tmp_path_factory) -> Path:
    """A round robin of three decks, each both studied and opponent, with two different players."""
    db = tmp_path_factory.mktemp("mixed") / "m.duckdb"
    decks = [DECKS["leaf-team7"], DECKS["sand-village"], DECKS["sound-four"]]
    res = invoke("simulate", *decks, "--vs", decks[0], "--vs", decks[1], "--vs", decks[2], "--games", 12,
                 "--policy-a", "greedy", "--policy-b", "random", "--workers", 2, "--db", db, "--run-name", "m",
                 "--quiet")
    assert res.exit_code == 0, res.output
    return db


def test_policy_labels_name_the_budget():
    assert policy_label("greedy").startswith("greedy (") and "no search" in policy_label("greedy")
    label = policy_label("lookahead:clear=3.0,leaf=1.0,sims=24,time=0.0,width=5")
    assert "24 playouts over 5 candidates" in label and "s a decision" not in label
    from mythos_cli.policies import make_policy

    label = policy_label(make_policy("search").spec)
    assert label == ("search (2 playouts a candidate, at most 64 candidates, endgame solver 300 positions, "
                     "mulligan by 8 playouts)")
    assert policy_label(make_policy("search:time=0.05").spec).startswith("search (0.05 s a decision,")
    # a spec as a person types it (bare, a preset, a few settings) reads as the full one it stands for
    for typed in ("search", "lookahead", "search:strong", "search:playouts=8", "search:tree=1"):
        assert policy_label(typed) == policy_label(make_policy(typed).spec)
    assert "plans its round" not in policy_label("search") and "tree" in policy_label("search:tree=1")
    # the default's fitted leaf is not named; the hand-tuned one of before is
    assert "leaf" not in policy_label("search") and "hand-tuned leaf" in policy_label(make_policy("search:leaf=0").spec)
    assert policy_label("search:strong").startswith("search:strong, the reference (128 playouts")


@pytest.mark.parametrize("kind", KINDS)
def test_every_report_names_the_players(mixed, tmp_path, kind):
    deck = "Leaf Village Team 7" if kind in ("prep", "compare") else None
    res = make_report(kind, mixed, deck=deck, deck_b="Sand Village" if kind == "compare" else None, out=tmp_path)
    assert res.summary[0].startswith("Players: greedy (one step ahead, no search) for the studied decks, "
                                     "random (uniform choices) for the opponents")
    doc = next(f for f in res.files if f.suffix == ".md").read_text(encoding="utf-8")
    assert "Players: greedy (one step ahead, no search) for the studied decks" in doc.split("\n\n")[1]


def test_a_mixed_run_gets_a_sensitivity_line(mixed, tmp_path):
    res = make_report("winrate", mixed, out=tmp_path)
    line = next(s for s in res.summary if s.startswith("Policy sensitivity"))
    # every deck played under both players here, and greedy beats random by far: intervals apart
    assert "Intervals apart" in line and "with greedy vs" in line
    rows = res.numbers["players"]["by_policy"]
    assert {(r["deck"], r["policy"]) for r in rows} >= {("Sand Village", "greedy"), ("Sand Village", "random")}


def test_check_policy_on_the_runs_own_player_moves_nothing(tmp_path):
    """Same seeds, same seats, same player: the check replays the stored games exactly."""
    db = tmp_path / "g.duckdb"
    assert invoke("simulate", DECKS["leaf-team7"], "--vs", DECKS["sand-village"], "--vs", DECKS["sound-four"],
                  "--games", 8, "--workers", 1, "--db", db, "--quiet", "--policy", "greedy").exit_code == 0
    res = make_report("prep", db, deck="leaf", out=tmp_path, check_policy="greedy", check_games=6, workers=1)
    checks = res.numbers["policy_check"]
    assert len(checks) == 2 and all(c["games"] == 6 for c in checks)
    for c in checks:
        assert c["with_check_policy"]["wins"] == c["stored_same_games"]["wins"] and c["moved"]["diff"] == 0
    assert any("Policy check, greedy" in s for s in res.summary)
    # another player: the same games, another result, with its interval, and the table in the page
    res = invoke("report", "winrate", "--db", db, "--out", tmp_path, "--check-policy", "random", "--check-games", 4,
                 "--workers", 1, "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert all(c["check_policy"] == "random" and c["games"] == 4 for c in data["policy_check"])
    assert invoke("report", "winrate", "--db", db, "--out", tmp_path, "--check-policy", "nosuch").exit_code == 2
    assert invoke("report", "curve", "--db", db, "--out", tmp_path, "--check-policy", "greedy").exit_code == 2
