"""Reports a tournament player can trust, on real simulated runs (issue 18, item 1).

A two-deck run (``simulate A --vs B``) with a strong and a weak player, so B loses most games,
and the default field and the two directions of the pair are checked figure by figure.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mythos_cli.cli import app
from mythos_cli.reports import make_report
from mythos_cli.sim.decks import default_gauntlet

runner = CliRunner()
DECKS = {Path(p).stem: p for p in default_gauntlet()}
A, B = "Leaf Village Team 7", "Sand Village"


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args])


@pytest.fixture(scope="module")
def two(tmp_path_factory) -> Path:
    db = tmp_path_factory.mktemp("two") / "two.duckdb"
    res = invoke("simulate", DECKS["leaf-team7"], "--vs", DECKS["sand-village"], "--games", 40, "--policy-a",
                 "greedy", "--policy-b", "random", "--workers", 1, "--db", db, "--run-name", "two", "--quiet")
    assert res.exit_code == 0, res.output
    return db


def test_the_weak_deck_is_not_shown_at_50_percent(two, tmp_path):
    res = invoke("report", "winrate", "--db", two, "--out", tmp_path, "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    cells = {(c["deck"], c["opponent"]): c for c in data["matrix"]}
    ab, ba = cells[(A, B)], cells[(B, A)]
    assert ab["win_rate"] > 0.8 and ba["win_rate"] == pytest.approx(1 - ab["win_rate"])
    # B is the whole default field: it is not rated against itself as a never-played 50% mirror
    field = {r["deck"]: r for r in data["vs_field"]}
    assert field[B]["win_rate"] is None
    assert field[A]["win_rate"] == pytest.approx(ab["win_rate"]) and field[A]["ci95"] == pytest.approx(ab["ci95"])
    # never-played mirrors are no 50% cells
    assert cells[(A, A)]["win_rate"] is None and cells[(B, B)]["games"] == 0
    assert not any("worst" in line and "50.0%" in line for line in data["summary"])
    text = invoke("report", "winrate", "--db", two, "--out", tmp_path)
    assert "50.0–50.0%" not in text.stdout and "worst: Sand Village 50" not in text.stdout


def test_the_two_directions_of_a_pair_print_the_same_games(two, tmp_path):
    a = make_report("prep", two, deck=A, out=tmp_path).numbers
    b = make_report("prep", two, deck=B, field=f"{A}=1", out=tmp_path).numbers
    # B is the whole default field: by default it is prepared against the deck it met, with a warning
    default_b = make_report("prep", two, deck=B, out=tmp_path)
    assert default_b.numbers["vs_field"] == b["vs_field"] and "whole default field" in default_b.warnings[0]
    ma, mb = a["matchups"][0], b["matchups"][0]
    assert (ma["games"], ma["wins"] + mb["wins"]) == (mb["games"], ma["games"])
    assert mb["win_rate"] == pytest.approx(1 - ma["win_rate"])
    assert mb["ci95"] == pytest.approx([1 - ma["ci95"][1], 1 - ma["ci95"][0]])
    for x, y in ((a["vs_field"], b["vs_field"]),):
        assert y["win_rate"] == pytest.approx(1 - x["win_rate"])
        assert y["ci95"] == pytest.approx([1 - x["ci95"][1], 1 - x["ci95"][0]])
    w = make_report("winrate", two, field=f"{A}=1,{B}=1", out=tmp_path).numbers
    cells = {(c["deck"], c["opponent"]): c for c in w["matrix"]}
    assert cells[(A, B)]["ci95"] == pytest.approx(ma["ci95"])


def test_prep_with_one_opponent_does_not_say_best_and_worst(two, tmp_path):
    res = make_report("prep", two, deck=A, out=tmp_path)
    text = " ".join(res.summary)
    assert "Only matchup: Sand Village" in text and "worst" not in text.split("Mulligan")[0]


def test_a_deck_named_in_the_field_keeps_its_mirror_row(two, tmp_path):
    res = make_report("prep", two, deck=A, field=f"{A}=30,{B}=70", out=tmp_path)
    n = res.numbers
    assert n["mirror"]["field_share"] == pytest.approx(0.3) and n["mirror"]["win_rate"] == 0.5
    shares = [m["field_share"] for m in n["matchups"]] + [n["mirror"]["field_share"]]
    assert sum(shares) == pytest.approx(1.0)
    page = next(f for f in res.files if f.suffix == ".md").read_text(encoding="utf-8")
    assert "Leaf Village Team 7 (mirror) | 30%" in page
    ab = n["matchups"][0]
    assert n["vs_field"]["win_rate"] == pytest.approx(0.3 * 0.5 + 0.7 * ab["win_rate"])


def test_the_default_field_leaves_the_deck_itself_out(tmp_path):
    """In a gauntlet run that holds the studied deck, its expected rate is its observed one."""
    db = tmp_path / "g.duckdb"
    res = invoke("simulate", DECKS["leaf-team7"], "--vs", DECKS["leaf-team7"], "--vs", DECKS["sand-village"],
                 "--vs", DECKS["sound-four"], "--games", 10, "--policy", "random", "--workers", 1, "--db", db, "--quiet")
    assert res.exit_code == 0, res.output
    n = make_report("prep", db, deck=A, out=tmp_path).numbers
    assert set(n["vs_field"]["field"]) == {B, "Sound Village: the Sound Four"} and n["mirror"] is None
    assert n["vs_field"]["win_rate"] == pytest.approx(n["overall"]["win_rate"])  # equal games per matchup
    assert sum(m["field_share"] for m in n["matchups"]) == pytest.approx(1.0)
