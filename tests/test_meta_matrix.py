"""The meta matrix on real games (greedy, a few hundred games): the same figures whatever the
workers, reused pairs giving the answers replayed ones give, a round robin's games reused, an
interrupted matrix finished to the same games, and the --precision rule saying what stopped it.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from mythos_cli.cli import app
from mythos_cli.experiment.arms import Progress
from mythos_cli.experiment.matrix import GamesTarget, play_matrix, read_matrix
from mythos_cli.meta import PrecisionTarget, Settings, analyse
from mythos_cli.sim import Interrupted
from mythos_cli.store import open_store

runner = CliRunner()
POLICY = "greedy"
QUICK = Settings(tournaments=200, seed=2)


def counts(m) -> tuple:
    return m.first_games.tolist(), m.first_wins.tolist()


def play(path, decks, games, run_id, workers=1, **kw):
    with open_store(path) as store:
        return play_matrix(store, decks, POLICY, 7, GamesTarget(games), run_id, workers=workers, **kw)


def test_the_same_seed_gives_the_same_matrix_and_answers_whatever_the_workers(sample, tmp_path):
    decks = sample[:3]
    one = play(tmp_path / "one.duckdb", decks, 20, "m", workers=1)
    two = play(tmp_path / "two.duckdb", decks, 20, "m", workers=2)
    assert one.played == two.played == 60 and one.stopped == "games"
    assert counts(one.matrix) == counts(two.matrix)
    shares = [0.5, 0.3, 0.2]
    assert analyse(one.matrix, shares, QUICK) == analyse(two.matrix, shares, QUICK)


def test_reused_pairs_give_the_answers_replayed_ones_give(sample, tmp_path):
    small, big = sample[:3], sample[:4]
    play(tmp_path / "a.duckdb", small, 20, "first")
    reused = play(tmp_path / "a.duckdb", big, 20, "second")
    assert reused.reused == 60 and reused.played == 60  # only the three pairs with the fourth list
    fresh = play(tmp_path / "b.duckdb", big, 20, "fresh")
    assert fresh.reused == 0 and fresh.played == 120
    assert counts(reused.matrix) == counts(fresh.matrix)  # a pair's games are the same in any field
    shares = [0.25] * 4
    assert analyse(reused.matrix, shares, QUICK) == analyse(fresh.matrix, shares, QUICK)
    again = play(tmp_path / "a.duckdb", big, 20, "third")
    assert again.played == 0 and again.rounds == [] and counts(again.matrix) == counts(fresh.matrix)


class _StopAfterFirstBatch(Progress):
    def games(self, n: int) -> None:
        raise KeyboardInterrupt


def test_an_interrupted_matrix_is_finished_by_the_same_call_to_the_same_games(sample, tmp_path):
    decks = sample[:3]
    whole = play(tmp_path / "whole.duckdb", decks, 200, "w")  # 600 games: two batches of greedy games
    with pytest.raises(Interrupted) as exc:
        play(tmp_path / "cut.duckdb", decks, 200, "c", progress=_StopAfterFirstBatch())
    assert 0 < exc.value.stored < 600
    resumed = play(tmp_path / "cut.duckdb", decks, 200, "c2")
    assert resumed.reused == exc.value.stored and resumed.played == 600 - exc.value.stored
    assert counts(resumed.matrix) == counts(whole.matrix)


def test_a_round_robin_run_is_reused_and_can_be_the_input(sample, tmp_path):
    db = tmp_path / "rr.duckdb"
    files = [str(p) for p in __import__("mythos_cli.decks", fromlist=["sample_paths"]).sample_paths()[:3]]
    r = runner.invoke(app, ["simulate", "--round-robin", *files, "--games", "20", "--policy", POLICY, "--db", str(db),
                            "--run-name", "rr", "--quiet"])
    assert r.exit_code == 0, r.output
    with open_store(db) as store:
        decks = [d for d in __import__("mythos_cli.sim", fromlist=["load_config"]).load_config(store, "rr").decks]
        m = read_matrix(store, decks, POLICY)
    assert m.total_games() == 60 and m.runs == ["rr"]
    r = runner.invoke(app, ["meta", "--run", "rr", "--games", "20", "--db", str(db), "--out", str(tmp_path / "rep"),
                            "--tournaments", "200", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["plan"]["played"] == 0 and out["plan"]["reused"] == 60 and out["player"] == POLICY
    assert out["games"]["per_pair"] == {"min": 20, "max": 20, "median": 20}
    # the reports' --field takes a field file too: its lists found in the run by their contents
    field = tmp_path / "field.txt"
    field.write_text(f"25% {files[1]}  Renamed\n75% {files[2]}\n", encoding="utf-8")
    r = runner.invoke(app, ["report", "winrate", "--run", "rr", "--db", str(db), "--out", str(tmp_path / "rep"),
                            "--field", str(field), "--json"])
    assert r.exit_code == 0, r.output
    shares = json.loads(r.stdout)["field"]
    assert sorted(shares.values()) == pytest.approx([0.25, 0.75]) and len(shares) == 2
    field.write_text(f"50% {files[1]}\n50% sand-village\n", encoding="utf-8")  # sand-village did not play
    r = runner.invoke(app, ["report", "winrate", "--run", "rr", "--db", str(db), "--field", str(field)])
    assert r.exit_code == 2 and "did not play in run rr" in r.output and "field.txt:2" in r.output


def test_precision_says_what_stopped_it(sample, tmp_path):
    decks = sample[:3]
    with open_store(tmp_path / "p.duckdb") as store:
        tight = play_matrix(store, decks, POLICY, 7, PrecisionTarget([0.4, 0.3, 0.3], 0.01), "tight", budget=200)
        assert tight.stopped == "budget" and tight.played <= 200
        loose = play_matrix(store, decks, POLICY, 7, PrecisionTarget([0.4, 0.3, 0.3], 0.2), "loose", budget=5000)
        assert loose.stopped == "precision"
        assert loose.matrix.games()[0, 1] >= 40  # every pair gets its first games before any answer is judged


def test_the_pair_read_on_game_data_is_the_games_view_read(sample, tmp_path):
    from mythos_cli import __version__
    from mythos_cli.sim.runner import catalog_hash
    from mythos_cli.store import experiment as xstore

    play(tmp_path / "v.duckdb", sample[:3], 20, "v")
    with open_store(tmp_path / "v.duckdb", read_only=True, create=False) as store:
        hashes = [d.hash for d in sample[:3]]
        direct = xstore.pair_games(store, hashes, POLICY, __version__, catalog_hash())
        store.version = 1  # what a schema-1 file is read through: its games table (here, the view)
        through_view = xstore.pair_games(store, hashes, POLICY, __version__, catalog_hash())
    assert direct.height == 60 and direct.equals(through_view)
