"""``mythos meta`` as a user runs it: the summary, --json with every figure, the page, a second run
reusing every game; and each bad input refused with its exit code and no traceback."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mythos_cli.cli import app

runner = CliRunner()
FAST = ["--policy", "greedy", "--tournaments", "200", "--generations", "20"]


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """One small meta: three sample lists, 10 greedy games a pair, a candidate of no share."""
    tmp = tmp_path_factory.mktemp("meta")
    field = tmp / "field.txt"
    field.write_text("# three lists\n50% leaf-team7 Leaf\n30% sand-village\n20% sound-four\n0% hidden-ambush Mine\n",
                     encoding="utf-8")
    db, out = tmp / "m.duckdb", tmp / "reports"
    args = ["meta", str(field), "--games", "10", "--db", str(db), "--out", str(out), "--deck", "Mine", "--name", "t",
            *FAST]
    text = runner.invoke(app, args, env={"COLUMNS": "80"})
    js = runner.invoke(app, [*args[:-len(FAST) - 2], "--name", "t2", *FAST, "--json"])
    return tmp, text, js


def test_the_summary_fits_80_columns_and_names_the_player(played):
    _, r, _ = played
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert max(len(x) for x in lines) <= 80, [x for x in lines if len(x) > 80]
    assert "greedy" in r.stdout and "1,000 posterior draws" in r.stdout
    for word in ("Best response", "Tier 1", "Nash mix", "Drift", "Your list Mine", "top 8"):
        assert word in r.stdout, word


def test_json_has_every_figure_and_a_second_run_reuses_every_game(played):
    _, _, r = played
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["plan"]["played"] == 0 and out["plan"]["reused"] == 60  # (4 lists, 6 pairs) × 10: all stored
    for key in ("lists", "matrix", "nash", "best_response", "tiers", "swiss", "mine", "drift", "posterior", "match"):
        assert key in out, key
    assert out["posterior"]["draws"] == 1000 and out["match"]["next_first"] == "loser"
    one = out["lists"][0]
    for key in ("vs_field", "tier", "best_response_chance", "nash", "match_vs_field", "best_matchup",
                "worst_matchup", "polarity", "swiss", "drift"):
        assert key in one, key
    assert set(one["match_vs_field"]) == {"bo1", "bo3", "bo5"}
    mine = out["mine"]
    assert mine["list"] == "Mine" and len(mine["swiss"]["record"]) == out["swiss"]["rounds"] + 1
    assert {c["list"] for c in out["matrix"]} == {x["name"] for x in out["lists"]}
    assert out["engine_version"] and out["catalog_hash"] and out["player"] == "greedy"


def test_the_page_is_self_contained_and_names_the_player_and_games(played):
    tmp, _, _ = played
    html = (tmp / "reports" / "t" / "meta.html").read_text(encoding="utf-8")
    assert "<img" in html and 'src="http' not in html and "data:image/png;base64," in html
    assert 'class="sortable"' in html and "viewport" in html
    assert "Player: greedy" in html and "10 games a pair" in html and "card catalog" in html
    for png in ("matrix", "tiers", "nash", "topcut", "drift", "record"):
        assert (tmp / "reports" / "t" / f"{png}.png").is_file(), png
    md = (tmp / "reports" / "t" / "meta.md").read_text(encoding="utf-8")
    assert "## Nash equilibrium" in md and "## Swiss tournament" in md
    # every list's whole record distribution, not only its undefeated chance; the default --next-first named
    assert "final record of a player of each list" in md and re.search(r"\| list \| 0-(\d+) \| 1-\d+ \|", md)
    assert "--next-first loser (the default)" in md and "do not say who goes first" in md


def _field(tmp_path: Path, text: str) -> str:
    p = tmp_path / "f.txt"
    p.write_text(text, encoding="utf-8")
    return str(p)


BAD = [
    (lambda t: [], 2, "give the field"),
    (lambda t: [str(t / "nope.txt")], 2, "no such field file"),
    (lambda t: [_field(t, "30% leaf-team7\n30% sand-village\n")], 2, "add up to 60%"),
    (lambda t: [_field(t, "lots leaf-team7\n")], 2, "f.txt:1"),
    (lambda t: [_field(t, "50% leaf-team7\n50% no-list.txt\n")], 2, "f.txt:2"),
    (lambda t: [_field(t, "")], 2, "empty field file"),
    (lambda t: [_field(t, "100% leaf-team7\n")], 2, "one list"),
    (lambda t: [_field(t, "50% leaf-team7\n50% sand-village\n"), "--games", "5", "--precision", "0.05"], 2,
     "not both"),
    (lambda t: [_field(t, "50% leaf-team7\n50% sand-village\n"), "--next-first", "coin"], 2, "--next-first"),
    (lambda t: [_field(t, "50% leaf-team7\n50% sand-village\n"), "--players", "4", "--top", "8"], 2, "--top 8"),
    (lambda t: [_field(t, "50% leaf-team7\n50% sand-village\n"), "--policy", "nobody"], 2, "nobody"),
    (lambda t: [_field(t, "50% leaf-team7\n50% sand-village\n"), "--deck", "zzz"], 2, "--deck 'zzz'"),
    (lambda t: [_field(t, "50% leaf-team7\n50% sand-village\n"), "--run", "rr"], 2, "not both"),
    (lambda t: ["--run", "rr"], 2, "no such database"),
]


@pytest.mark.parametrize("argv, code, says", BAD)
def test_bad_inputs_get_a_clean_error(tmp_path, argv, code, says):
    r = runner.invoke(app, ["meta", *FAST, "--db", str(tmp_path / "x.duckdb"), "--out", str(tmp_path / "rep"),
                            *argv(tmp_path)])
    assert r.exit_code == code, r.output
    assert "Traceback" not in r.output and r.exception is None or isinstance(r.exception, SystemExit)
    assert says in r.output, r.output
    assert not (tmp_path / "rep").exists() and not (tmp_path / "x.duckdb").exists()  # nothing written


def test_an_illegal_list_in_the_field_is_named_with_its_problems(tmp_path):
    (tmp_path / "bad.txt").write_text("2 KS-009-C\nmissions:\nKS-001-MMS\n", encoding="utf-8")
    r = runner.invoke(app, ["meta", _field(tmp_path, "50% leaf-team7\n50% bad.txt\n"), "--db",
                            str(tmp_path / "x.duckdb"), *FAST])
    assert r.exit_code == 2 and "f.txt:2" in r.output and "not a legal Mythos deck" in r.output
    assert "bad.txt" in r.output and not (tmp_path / "x.duckdb").exists()


def test_a_name_given_again_goes_on_from_its_last_round(played):
    tmp, _, _ = played
    r = runner.invoke(app, ["meta", str(tmp / "field.txt"), "--db", str(tmp / "m.duckdb"), "--out", str(tmp / "reports"),
                            "--name", "t", "--games", "20", "--json", *FAST])
    assert r.exit_code == 0, r.output
    plan = json.loads(r.stdout)["plan"]
    assert plan["reused"] == 60 and plan["played"] == 60 and plan["runs"] == ["t-r2"]  # t-r1 is the first run's


def test_games_with_a_budget_say_which_stopped_them_and_the_blocks(tmp_path):
    """--games N with --budget: the budget stops it before the games asked for (no precision was
    asked, so none is named); N not a multiple of the block says what is played."""
    r = runner.invoke(app, ["meta", _field(tmp_path, "50% leaf-team7\n50% sand-village\n"), "--games", "25",
                            "--budget", "10", "--workers", "1", "--db", str(tmp_path / "b.duckdb"),
                            "--out", str(tmp_path / "r"), *FAST])
    assert r.exit_code == 0, r.output
    text = " ".join(r.stdout.split())  # the summary wraps at the terminal's width
    assert "25 games a pair (played in blocks of 10: 30)" in text
    assert "stopped: the budget was spent before every pair had the games asked for." in text
    assert "precision" not in text.split("stopped:")[1].split(".")[0]


def test_a_run_played_by_a_python_player_is_never_imported(tmp_path):
    """--run takes the run's player, but a stored spec is data: a Python one is refused until the
    user names its file (issue 30); a built-in --policy plays the lists afresh."""
    import shutil

    import duckdb
    from test_hostile_runs import EVIL, LEAF, RUN, SAND

    base = tmp_path / "base.duckdb"
    r = runner.invoke(app, ["simulate", LEAF, "--vs", SAND, "--games", "4", "--batch-size", "2", "--policy", "greedy",
                            "--run-name", RUN, "--workers", "1", "--db", str(base), "--quiet"])
    assert r.exit_code == 0, r.output
    marker = tmp_path / "MARKER"
    evil = tmp_path / "evil.py"
    evil.write_text(EVIL.format(marker=str(marker)), encoding="utf-8")
    spec = f"{evil}:Evil"
    db = tmp_path / "received.duckdb"  # a copy whose run says both players were that file
    shutil.copy(base, db)
    con = duckdb.connect(str(db))
    try:
        cfg = json.loads(con.execute("SELECT config FROM runs WHERE run_id = ?", [RUN]).fetchone()[0])
        cfg.update(policy_a=spec, policy_b=spec, python_players={spec: spec})
        con.execute("UPDATE runs SET config = ?, policy_a = ?, policy_b = ? WHERE run_id = ?",
                    [json.dumps(cfg), spec, spec, RUN])
        con.execute("UPDATE run_setups SET policy_0 = ?, policy_1 = ? WHERE run_id = ?", [spec, spec, RUN])
    finally:
        con.close()
    r = runner.invoke(app, ["meta", "--run", RUN, "--games", "10", "--db", str(db), "--out", str(tmp_path / "rep"),
                            *FAST[2:]])
    assert r.exit_code == 2 and "never imports" in r.output and f"--policy {spec}" in r.output, r.output
    assert not marker.exists()
    r = runner.invoke(app, ["meta", "--run", RUN, "--games", "10", "--db", str(db), "--out", str(tmp_path / "rep"),
                            *FAST])
    assert r.exit_code == 0, r.output
    assert not marker.exists()
