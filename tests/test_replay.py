"""mythos replay: a stored game played again from its seed, told turn by turn, and checked."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from mythos_cli.cli import app
from mythos_cli.sim.decks import default_gauntlet
from mythos_cli.sim.replay import ReplayMismatch, replay_stored
from mythos_cli.store import open_store

runner = CliRunner()
DECKS = {Path(p).stem: p for p in default_gauntlet()}


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args])


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    db = tmp_path_factory.mktemp("replay") / "r.duckdb"
    res = invoke("simulate", DECKS["hidden-ambush"], "--vs", DECKS["ss-attachments"], "--vs", DECKS["sound-four"],
                 "--games", 6, "--workers", 2, "--db", db, "--run-name", "r", "--quiet")
    assert res.exit_code == 0, res.output
    return db


def test_every_stored_game_replays_to_itself(run):
    with open_store(run, read_only=True) as s:
        games = s.table("games", "r").sort("game_no")
        for g in games.iter_rows(named=True):
            r = replay_stored(s, "r", g["game_no"])
            assert r.checked and r.winner == g["winner"] and list(r.scores) == [g["score_0"], g["score_1"]]
            assert r.seats[0]["deck"] == g["deck_0"] and r.seed == g["seed"]
            kinds = {st.kind for st in r.steps}
            assert {"dealt", "mulligan", "mission", "chakra", "play", "pass", "mission_result", "score",
                    "game_over"} <= kinds
            plays = [st for st in r.steps if st.kind == "play"]
            assert all("chakra" in st.text and st.data["cost"] >= 0 for st in plays)
            assert sum(1 for st in r.steps if st.kind == "mission") == len(g["missions"])
            final = [st for st in r.steps if st.kind == "score"][-1]
            assert final.data["total"] == [g["score_0"], g["score_1"]]


def test_replay_cli_text_and_json(run):
    res = invoke("replay", "r", 1, "--db", run)
    assert res.exit_code == 0, res.output
    assert "round 1" in res.stdout and "passes" in res.stdout and "Game over" in res.stdout
    assert "the same game as stored" in res.stderr
    data = json.loads(invoke("replay", "r", 1, "--db", run, "--json").stdout)
    assert data["checked_against_stored_game"] is True and data["game"] == 1
    assert any(s["kind"] == "mission_result" and len(s["power"]) == 2 for s in data["steps"])


def test_a_replay_that_does_not_reproduce_the_stored_game_is_an_error(run, tmp_path):
    db = tmp_path / "tampered.duckdb"
    db.write_bytes(run.read_bytes())
    con = duckdb.connect(str(db))
    con.execute("UPDATE game_data SET score_0 = score_0 + 1 WHERE run_id = 'r' AND game_no = 2")
    con.close()
    with open_store(db, read_only=True) as s:
        with pytest.raises(ReplayMismatch, match="score_0"):
            replay_stored(s, "r", 2)
        assert replay_stored(s, "r", 3).checked  # the untouched games still replay
    res = invoke("replay", "r", 2, "--db", db)
    assert res.exit_code == 1 and "does not give the stored game back" in res.stderr


def test_replay_errors_and_a_new_game_from_a_seed(run):
    assert invoke("replay", "r", 999, "--db", run).exit_code == 2
    assert invoke("replay", "nope", 0, "--db", run).exit_code == 2
    assert invoke("replay", "r", "--db", run).exit_code == 2
    res = invoke("replay", "--seed", 7, DECKS["leaf-team7"], DECKS["sand-village"], "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["seats"][0]["deck"] == "Leaf Village Team 7" and data["seed"] == 7 and data["run"] is None
    again = json.loads(invoke("replay", "--seed", 7, DECKS["leaf-team7"], DECKS["sand-village"], "--json").stdout)
    assert again == data  # the seed decides everything
    assert invoke("replay", "--seed", 7, DECKS["leaf-team7"], "missing.txt").exit_code == 2


def test_report_examples_list_losses_that_replay_as_losses(run, tmp_path):
    res = invoke("report", "prep", "Hidden Ambush", "--db", run, "--out", tmp_path, "--examples", "--json")
    assert res.exit_code == 0, res.output
    examples = json.loads(res.stdout)["examples"]
    assert {e["opponent"] for e in examples} == {"Team Guy Armoury", "Sound Village: the Sound Four"}
    with open_store(run, read_only=True) as s:
        for e in examples:
            for no in e["lost_games"]:
                r = replay_stored(s, "r", no)
                seat = [x["deck"] for x in r.seats].index("Hidden Ambush")
                assert r.winner == 1 - seat and e["opponent"] in [x["deck"] for x in r.seats]
    text = invoke("report", "winrate", "--db", run, "--out", tmp_path, "--examples")
    assert "Games to look at" in text.stdout and "mythos replay r" in text.stdout
