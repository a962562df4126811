"""mythos optimize on known answers: a weakened deck is repaired, an unimprovable one is left alone,
the same seed gives the same proposal (whatever the workers), and an interrupted search resumes to it.

Budgets are tiny (a field of one or two decks, a pool of a few cards) so that these play a few
thousand greedy games in all.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mythos_cli.cli import app
from mythos_cli.optimize import OptimizeConfig, OptimizeInterrupted, Progress, build_field, build_pool, optimize
from mythos_cli.optimize import variants as V
from mythos_cli.optimize.report import build, outcome_json
from mythos_cli.experiment.arms import compare
from mythos_cli.experiment.stats import z_value
from mythos_cli.sim import load_specs
from mythos_cli.sim.decks import default_gauntlet
from mythos_cli.store import open_store
from mythos_cli.store import optimize as ostore

runner = CliRunner()
Swap = V.Swap
# Leaf Village Team 7 loses both Rasengan Narutos and both Original Team 7 Kakashis for two
# 0-power cards (a 2-cost look at a hidden card, a 4-cost summon that goes back to hand):
# measured -17 points against Sand Village and the Sound Four (greedy, 400 paired games).
WEAKEN = [Swap("KS-108", "SS-059"), Swap("KS-108", "SS-059"), Swap("KS-148", "KS-067"), Swap("KS-148", "KS-067")]


@pytest.fixture(scope="module")
def samples():
    return {s.name: s for s in load_specs(default_gauntlet())}


def pool_file(tmp_path: Path, cards: dict[str, int]) -> str:
    path = tmp_path / "pool.txt"
    path.write_text("".join(f"{n} {c}\n" for c, n in cards.items()), encoding="utf-8")
    return str(path)


def tiny_config(samples, tmp_path, budget=600, seed=3) -> OptimizeConfig:
    """One field deck, a pool of three cards: a search of a few hundred games."""
    field, shares = build_field("sound-four=1")
    pool = build_pool([pool_file(tmp_path, {"KS-108": 2, "SS-059": 2, "KS-067": 2})])
    weak = V.apply(samples["Leaf Village Team 7"], WEAKEN[:2], "weak leaf")
    return OptimizeConfig(weak, field, shares, pool, budget=budget, policy="greedy", seed=seed)


def comparable(o) -> dict:
    d = outcome_json(o)
    return json.loads(json.dumps(d))


def test_a_weakened_deck_is_repaired_with_a_significant_gain(samples, tmp_path):
    original = samples["Leaf Village Team 7"]
    weak = V.apply(original, WEAKEN, "Leaf Village Team 7 (weakened)")
    field, shares = build_field("Sand Village=50,sound-four=50")
    pool = build_pool([pool_file(tmp_path, {"KS-108": 2, "KS-148": 2, "SS-059": 2, "KS-067": 2})])
    cfg = OptimizeConfig(weak, field, shares, pool, budget=3000, policy="greedy", seed=1)
    with open_store(tmp_path / "w.duckdb") as store:
        o = optimize(store, cfg, "repair", workers=2)
        assert o.spent <= 3000 and o.stages["confirmation"] > 0
        assert o.significant, outcome_json(o)["confirmation"]
        assert o.confirmation.gain > 0.05
        assert o.validation == [] and V.validate(o.proposal).valid
        back = [s.into for s in o.changes]
        assert "KS-108" in back or "KS-148" in back, o.changes  # what was taken out comes back
        assert o.shared_seeds == 0  # the confirmation's seeds are fresh
        # at least as strong as the deck before it was weakened, on games nobody has seen
        check = compare(store, "check", o.proposal, original, field, shares, 150, "greedy", 777, workers=2)
        assert check.high > 0, check.to_json()
        # the claim holds on fresh games against the weakened deck too
        again = compare(store, "again", o.proposal, weak, field, shares, 100, "greedy", 778, workers=2)
        assert again.significant


def test_no_single_swap_from_a_tiny_pool_improves_the_deck(samples, tmp_path):
    """Team Guy Armoury with a pool of one card, Ninja Hound Corps (2 chakra, 0 Power): every one
    of its 20 single swaps was measured beforehand on 600 paired games against Sand Village and
    the Sound Four (greedy); none gains: the best, for SS-096, +0.8 points (-0.7 to +2.3), the
    others 0 or less. The search must not claim a gain."""
    base = samples["Team Guy Armoury"]
    field, shares = build_field("Sand Village=50,sound-four=50")
    pool = build_pool([pool_file(tmp_path, {"SS-059": 2})])
    cfg = OptimizeConfig(base, field, shares, pool, budget=2400, policy="greedy", seed=2)
    with open_store(tmp_path / "n.duckdb") as store:
        o = optimize(store, cfg, "none", workers=2)
        result = build(o, tmp_path / "reports", "n.duckdb")
    assert o.screen is None and o.singles_possible == 20  # few enough to race them all
    assert o.tried == 20 and o.confirmation.z == pytest.approx(z_value(0.05, 20))
    assert not o.significant
    assert o.confirmation is not None and o.confirmation.low <= 0
    assert o.confirmation.high < 0.08  # and it says how small any gain could be
    assert result.numbers["verdict"] in ("no-significant-change", "worse")
    assert result.summary[0].startswith(("**No change beats the deck beyond noise.**", "**Keep the deck as it is.**"))
    assert "keep" in result.summary[0].lower()


def test_the_same_seed_gives_the_same_proposal_whatever_the_workers(samples, tmp_path):
    with open_store(tmp_path / "a.duckdb") as a:
        one = optimize(a, tiny_config(samples, tmp_path), "same", workers=1)
    with open_store(tmp_path / "b.duckdb") as b:
        two = optimize(b, tiny_config(samples, tmp_path), "same", workers=2)
    assert comparable(one) == comparable(two)
    assert one.proposal == two.proposal and one.spent == two.spent <= 600
    with open_store(tmp_path / "c.duckdb") as c:
        other = optimize(c, tiny_config(samples, tmp_path, seed=4), "same", workers=2)
    assert comparable(other)["races"] != comparable(one)["races"]  # another seed, other games


class StopAfter(Progress):
    def __init__(self, n: int):
        self.n, self.played, self.stages = n, 0, []

    def stage(self, label, planned, stored):
        self.stages.append((label, planned, stored))

    def games(self, n):
        self.played += n
        if self.played >= self.n:
            raise KeyboardInterrupt


def test_an_interrupted_search_resumes_to_the_same_answer(samples, tmp_path):
    with open_store(tmp_path / "full.duckdb") as s:
        full = optimize(s, tiny_config(samples, tmp_path), "opt", workers=1)
    db = tmp_path / "part.duckdb"
    with open_store(db) as s:
        with pytest.raises(OptimizeInterrupted) as exc:
            optimize(s, tiny_config(samples, tmp_path), "opt", workers=1, progress=StopAfter(250))
        assert 0 < exc.value.spent < 600
        assert ostore.get(s, "opt")["status"] == "interrupted"
    with open_store(db) as s:
        seen = StopAfter(10 ** 9)
        resumed = optimize(s, tiny_config(samples, tmp_path), "opt", workers=1, progress=seen)
        assert ostore.get(s, "opt")["status"] == "finished"
        assert sum(stored for _, _, stored in seen.stages) >= 250 - 50  # what was stored is not played again
        runs = s.runs()
    assert comparable(resumed) == comparable(full)
    mine = runs.filter(runs["run_id"].str.starts_with("opt-"))
    assert set(mine["status"].to_list()) == {"finished"}
    assert mine["stored_games"].sum() == full.spent  # every game is a row of an ordinary run


def test_a_resumed_config_must_match(samples, tmp_path):
    from mythos_cli.optimize import OptimizeError

    with open_store(tmp_path / "x.duckdb") as s:
        with pytest.raises(OptimizeInterrupted):
            optimize(s, tiny_config(samples, tmp_path), "opt", workers=1, progress=StopAfter(50))
        with pytest.raises(OptimizeError, match="other settings"):
            optimize(s, tiny_config(samples, tmp_path, seed=9), "opt", workers=1)


def test_dask_gives_the_local_answer(samples, tmp_path):
    distributed = pytest.importorskip("distributed")
    with open_store(tmp_path / "local.duckdb") as s:
        local = optimize(s, tiny_config(samples, tmp_path, budget=300), "d", workers=1)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with open_store(tmp_path / "dask.duckdb") as s:
            remote = optimize(s, tiny_config(samples, tmp_path, budget=300), "d", backend="dask",
                              scheduler=cluster.scheduler_address)
    assert comparable(remote) == comparable(local)


# -- the command ------------------------------------------------------------------------------
def test_cli_optimize_writes_the_answer_and_a_valid_list(samples, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    weak = tmp_path / "weak.txt"
    weak.write_text(V.to_text(V.apply(samples["Leaf Village Team 7"], WEAKEN[:2]), "Weak Leaf"), encoding="utf-8")
    pool = pool_file(tmp_path, {"KS-108": 2, "SS-059": 2, "KS-067": 2})
    args = ["optimize", str(weak), "--field", "sound-four=1", "--pool", pool, "--budget", "500", "--seed", "3",
            "--workers", "1", "--db", "o.duckdb", "--name", "cli", "--out", "reps"]
    res = runner.invoke(app, args + ["--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["kind"] == "optimize" and data["games"]["spent"] <= 500
    assert data["verdict"] in ("improvement", "no-significant-change", "worse")
    conf = data["confirmation"]
    assert conf["corrected_for"] == data["variants_tried"] >= 1 and conf["ci"][0] < conf["ci"][1]
    assert conf["crn_variance_ratio"] > 1 and conf["seeds_shared_with_search"] == 0
    assert set(data["win_rates"]) == {"base", "proposal", "by_opponent"}
    folder = tmp_path / "reps" / "cli"
    for name in ("optimize.md", "optimize.html", "proposal.txt", "optimize-win-rates.png"):
        assert (folder / name).is_file(), name
    # the files it names are the published ones (issue 20 writes reports into a staging folder first)
    assert sorted(Path(f).name for f in data["files"]) == sorted(p.name for p in folder.iterdir())
    assert all((tmp_path / f).is_file() for f in data["files"])
    md = (folder / "optimize.md").read_text(encoding="utf-8")
    for part in ("## Summary", "## Against the field, on fresh games", "## Runners-up", "Games spent", "## Proof"):
        assert part in md
    assert "data:image/png;base64," in (folder / "optimize.html").read_text(encoding="utf-8")
    check = runner.invoke(app, ["validate", str(folder / "proposal.txt")])
    assert check.exit_code == 0, check.output
    # resuming a finished optimization replays it from the database: the same answer, no game played
    again = runner.invoke(app, ["optimize", "--resume", "cli", "--db", "o.duckdb", "--out", "reps", "--json"])
    assert again.exit_code == 0, again.output
    assert json.loads(again.stdout)["confirmation"] == conf
    text = runner.invoke(app, ["optimize", "--resume", "cli", "--db", "o.duckdb", "--out", "reps"])
    assert text.exit_code == 0 and "Common random numbers" in text.stdout
    runs = runner.invoke(app, ["db", "runs", "--db", "o.duckdb", "--json"])
    assert {r["run_id"] for r in json.loads(runs.stdout)} >= {"cli-confirm"}


@pytest.mark.parametrize("args, message", [
    ([], "give the deck"),
    (["DECK", "--resume", "x"], "one or the other"),
    (["DECK", "--pool", "group=nowhere"], "no card has it"),
    (["DECK", "--pool", "nothing.txt"], "no such file"),
    (["DECK", "--field", "nobody=1"], "no deck 'nobody'"),
    (["DECK", "--budget", "10"], "too small"),
    (["DECK", "--policy", "nonsense"], "nonsense"),
    (["--resume", "ghost"], "no optimization 'ghost'"),
    (["DECK", "--backend", "cloud"], "unknown backend"),
])
def test_cli_optimize_bad_input(samples, tmp_path, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    deck = tmp_path / "d.txt"
    deck.write_text(V.to_text(samples["Sand Village"]), encoding="utf-8")
    args = [str(deck) if a == "DECK" else a for a in args]
    if "--resume" in args:  # --resume never creates a database (issue 20): the id is unknown in an existing one
        open_store(tmp_path / "e.duckdb").close()
    res = runner.invoke(app, ["optimize", *args, "--db", "e.duckdb"])
    assert res.exit_code == 2, res.output
    assert message in res.output


def test_cli_optimize_refuses_an_illegal_deck(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    bad = tmp_path / "bad.txt"
    bad.write_text("3 KS-009\nmissions:\nKS-001-MMS\n", encoding="utf-8")
    res = runner.invoke(app, ["optimize", str(bad), "--db", "e.duckdb"])
    assert res.exit_code == 2 and "not a legal Mythos deck" in res.output
    assert not (tmp_path / "e.duckdb").exists()


def test_missions_are_searched_too(samples, tmp_path):
    field, shares = build_field("sound-four=1")
    pool = build_pool(["KS", "keyword=Team Baki"])  # a few Sand Village cards, and the KS missions
    cfg = OptimizeConfig(samples["Leaf Village Team 7"], field, shares, pool, budget=600, policy="greedy", seed=5,
                         missions=True)
    with open_store(tmp_path / "m.duckdb") as s:
        o = optimize(s, cfg, "m", workers=2)
    assert o.singles_possible > 24 and o.screen is not None
    assert any(k[2] for k in o.screen.fit.values)  # mission swaps were screened
    assert any(k[0] == "out" and k[2] for k in o.screen.fit.values)  # and missions taken out
    assert V.validate(o.proposal).valid and len(set(o.proposal.missions)) == 3
    assert set(o.proposal.missions) <= set(pool.missions) | set(cfg.base.missions)
