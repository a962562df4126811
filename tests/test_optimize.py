"""mythos optimize on known answers: a weakened deck is repaired, an unimprovable one is left alone,
the same seed gives the same proposal (whatever the workers), and an interrupted search resumes to it.

Budgets are tiny (a field of one or two decks, a pool of a few cards) so that these play a few
thousand games of fast players in all: greedy alone, or ambush judging and greedy screening
(the two-player search of the default, with fast players).
"""

from __future__ import annotations

import json
import re
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
from mythos_cli.store import experiment as xstore
from mythos_cli.store import optimize as ostore

runner = CliRunner()
Swap = V.Swap
# Leaf Village Team 7 loses both Rasengan Narutos and both Original Team 7 Kakashis for two
# 0-power cards (a 2-cost look at a hidden card, a 4-cost summon that goes back to hand):
# measured -17 points against Sand Village and the Sound Four (greedy, 400 paired games).
WEAKEN = [Swap("KS-108", "SS-059"), Swap("KS-108", "SS-059"), Swap("KS-148", "KS-067"), Swap("KS-148", "KS-067")]


@pytest.fixture(autouse=True)
def cheap_screening(monkeypatch):
    """The cheap player's fixed games made fewer (a fifth of its calibration, half its games a game
    of the budget): these tests check how the search runs, resumes and reproduces, which needs
    every stage played, not the default's precision (the known answers are benchmarks')."""
    from mythos_cli.optimize import plan as P

    monkeypatch.setattr(P, "CHEAP_CALIBRATION_GAMES", 240)
    monkeypatch.setattr(P, "CHEAP_PER_GAME", 4)


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


def two_player_config(samples, tmp_path, budget=300, seed=3, **kw) -> OptimizeConfig:
    """Ambush judges, greedy screens: every stage of the default search (calibration, screen, short
    list, sample, race, confirmation) on a field of one deck and 90 possible single swaps."""
    field, shares = build_field("sound-four=1")
    pool = build_pool([pool_file(tmp_path, {"KS-108": 2, "SS-059": 2, "KS-067": 2, "KS-026": 2, "KS-122": 2,
                                            "SS-125": 2})])
    weak = V.apply(samples["Leaf Village Team 7"], WEAKEN[:2], "weak leaf")
    return OptimizeConfig(weak, field, shares, pool, budget=budget, policy="ambush", seed=seed,
                          screen_policy="greedy", **kw)


def comparable(o) -> dict:
    d = json.loads(json.dumps(outcome_json(o)))
    d.pop("timing")  # the speeds measured: the only numbers that depend on the machine
    return d


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
    assert o.screen is None and o.singles_possible == 20  # few enough for the short list to hold them all
    assert len(o.shortlist) == 20 and o.agreement is None  # one player: nothing to correlate
    # one player judged the whole short list (the race took some of it): the correction counts them all
    assert o.tried == len(o.shortlist) > len(o.races[0].arms)
    assert o.confirmation.z == pytest.approx(z_value(0.05, o.tried))
    assert not o.significant
    assert o.confirmation is not None and o.confirmation.low <= 0
    assert o.confirmation.high < 0.08  # and it says how small any gain could be
    assert result.numbers["verdict"] in ("no-significant-change", "worse")
    assert result.summary[0].startswith("**No change beats the deck")
    assert "keep" in result.summary[0].lower()
    assert "judged by greedy" in result.summary[1]  # the player and its budget, always named
    assert all("proposed" not in f["fate"] for f in result.numbers["candidates"])


def test_the_same_seed_gives_the_same_proposal_whatever_the_workers(samples, tmp_path):
    """The two-player search (a screen, a short list, a sample judged by both, races,
    confirmation): the same seed and budget, the same games and proposal on 1 or 2 workers."""
    with open_store(tmp_path / "a.duckdb") as a:
        one = optimize(a, two_player_config(samples, tmp_path), "same", workers=1)
    with open_store(tmp_path / "b.duckdb") as b:
        two = optimize(b, two_player_config(samples, tmp_path), "same", workers=2)
    assert [s.key for s in one.plan.stages] == ["calibration", "calibration", "screen", "shortlist", "sample",
                                                "race", "confirmation"]
    assert one.screen is not None and one.agreement is not None and one.races
    assert comparable(one) == comparable(two)
    assert one.proposal == two.proposal and one.spent == two.spent <= 300
    assert one.cheap_spent == two.cheap_spent > one.spent  # greedy screened: its games on top of the budget
    with open_store(tmp_path / "c.duckdb") as c:
        other = optimize(c, two_player_config(samples, tmp_path, seed=4), "same", workers=2)
    assert comparable(other)["candidates"] != comparable(one)["candidates"]  # another seed, other games


class StopAfter(Progress):
    """Ctrl-C after ``n`` games played (not read back), or at the first games of a stage named ``at``."""

    def __init__(self, n: int, at: str | None = None):
        self.n, self.at, self.played, self.stages = n, at, 0, []

    def stage(self, label, planned, stored):
        self.stages.append((label, planned, stored))

    def games(self, n):
        self.played += n
        if self.played >= self.n or (self.at and self.stages[-1][0].startswith(self.at)):
            raise KeyboardInterrupt


def test_an_interrupted_search_resumes_to_the_same_answer(samples, tmp_path):
    with open_store(tmp_path / "full.duckdb") as s:
        full = optimize(s, two_player_config(samples, tmp_path), "opt", workers=1)
    db = tmp_path / "part.duckdb"
    with open_store(db) as s:  # stopped in the screen (greedy's games), then after it (ambush's)
        for stage in ("screen", "race"):
            with pytest.raises(OptimizeInterrupted) as exc:
                optimize(s, two_player_config(samples, tmp_path), "opt", workers=1,
                         progress=StopAfter(10 ** 9, at=stage))
            assert 0 < exc.value.spent < 300
            assert ostore.get(s, "opt")["status"] == "interrupted"
    with open_store(db) as s:
        seen = StopAfter(10 ** 9)
        resumed = optimize(s, two_player_config(samples, tmp_path), "opt", workers=1, progress=seen)
        assert ostore.get(s, "opt")["status"] == "finished"
        assert sum(stored for _, _, stored in seen.stages) >= full.cheap_spent  # what was stored is not played again
        runs = s.runs()
    assert comparable(resumed) == comparable(full)
    mine = runs.filter(runs["run_id"].str.starts_with("opt-"))
    assert set(mine["status"].to_list()) == {"finished"}
    assert mine["stored_games"].sum() == full.spent + full.cheap_spent  # every game is a row of an ordinary run


def test_minutes_choose_a_budget_that_is_stored_and_never_measured_again(samples, tmp_path, monkeypatch):
    from mythos_cli.optimize import plan as P
    from mythos_cli.optimize.search import Search

    # less time than any calibration takes, on any machine: the least budget (the unit tests check
    # the budget the speeds give for more; 0.02 minutes bought 250 games on a fast idle machine)
    cfg = two_player_config(samples, tmp_path, budget=None, minutes=0.0001)
    with open_store(tmp_path / "m.duckdb") as s:
        first = optimize(s, cfg, "mins", workers=1)
        stored = ostore.get(s, "mins")["config"]
    assert stored["budget"] == first.config.budget == P.least_budget("ambush", "greedy", 1, 90)
    assert set(stored["rates"]) == {"ambush", "greedy", P.STAGE_SECONDS}
    assert first.plan.budget == first.config.budget and first.spent <= first.config.budget

    def never(self, policy):
        raise AssertionError("measured again")

    monkeypatch.setattr(Search, "_measure", never)
    monkeypatch.setattr(P, "budget_for", lambda *a, **k: pytest.fail("chose the budget again"))
    with open_store(tmp_path / "m.duckdb") as s:  # the same command again: the budget it chose then
        again = optimize(s, two_player_config(samples, tmp_path, budget=None, minutes=0.0001), "mins", workers=2)
    assert comparable(again) == comparable(first)
    # the budget printed reproduces the answer anywhere, without --minutes
    with open_store(tmp_path / "b.duckdb") as s:
        by_budget = optimize(s, two_player_config(samples, tmp_path, budget=first.config.budget), "mins", workers=2)
    assert by_budget.changes == first.changes and by_budget.confirmation.gain == first.confirmation.gain


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
            "--policy", "greedy", "--workers", "1", "--db", "o.duckdb", "--name", "cli", "--out", "reps"]
    res = runner.invoke(app, args + ["--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["kind"] == "optimize" and data["games"]["spent"] <= 500
    assert data["player"] == {"policy": "greedy", "budget": 500, "minutes": None, "games": data["games"]["spent"],
                              "screen_policy": "greedy", "screen_games": 0}
    assert [s["key"] for s in data["plan"]["stages"]] == ["calibration", "shortlist", "race", "confirmation"]
    fates = [c["fate"] for c in data["candidates"]]
    assert fates and all(f.startswith(("proposed", "taken at step", "best of step", "kept to the last round",
                                       "dropped at stage")) for f in fates)
    assert data["confirmation"]["player"] == "greedy"
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
    for part in ("## Summary", "## Against the field, on fresh games", "## The plan and the games", "## Candidates",
                 "what became of each candidate", "## Proof"):
        assert part in md
    # every table's columns say different things (one player's two gains were both "gain (greedy)")
    headers = [[c.strip() for c in line.strip("|").split("|") if c.strip()] for line in md.splitlines()
               if line.startswith("| ") and "what became of it" in line]
    assert headers
    for names in headers:
        assert len(names) == len(set(names)), names
        assert any(n.startswith("short-list gain (greedy)") for n in names)
        assert any(n.startswith("race gain (greedy)") for n in names)
    assert "data:image/png;base64," in (folder / "optimize.html").read_text(encoding="utf-8")
    check = runner.invoke(app, ["validate", str(folder / "proposal.txt")])
    assert check.exit_code == 0, check.output
    # resuming a finished optimization replays it from the database: the same answer, no game played
    again = runner.invoke(app, ["optimize", "--resume", "cli", "--db", "o.duckdb", "--out", "reps", "--json"])
    assert again.exit_code == 0, again.output
    assert json.loads(again.stdout)["confirmation"] == conf
    text = runner.invoke(app, ["optimize", "--resume", "cli", "--db", "o.duckdb", "--out", "reps"])
    assert text.exit_code == 0 and "Common random numbers" in text.stdout
    said = re.search(r"judged by greedy \(([\d,]+) games of a budget of 500\)", " ".join(text.stdout.split()))
    assert said and int(said.group(1).replace(",", "")) == data["games"]["spent"]
    runs = runner.invoke(app, ["db", "runs", "--db", "o.duckdb", "--json"])
    stages = json.loads(runs.stdout)
    assert {r["run_id"] for r in stages} >= {"cli-confirm"} and {r["optimization"] for r in stages} == {"cli"}
    # one optimization, one entry (issue 26: its stage runs once filled 1,551 lines)
    table = runner.invoke(app, ["db", "runs", "--db", "o.duckdb"], env={"COLUMNS": "100"})
    assert table.exit_code == 0 and table.stdout.count("│ cli ") == 1 and "cli-confirm" not in table.stdout
    assert len(table.stdout.splitlines()) < 12
    every = runner.invoke(app, ["db", "runs", "--db", "o.duckdb", "--stages"], env={"COLUMNS": "100"})
    assert "cli-confirm" in every.stdout and "cli-short" in every.stdout


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
    (["DECK", "--budget", "9000", "--minutes", "5"], "not both"),
    (["DECK", "--minutes", "0.1"], "--minutes"),
    (["DECK", "--screen-policy", "nonsense"], "--screen-policy"),
    (["--resume", "x", "--minutes", "5"], "leave out --budget and --minutes"),
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
    assert res.exit_code == 1 and "not a legal Mythos deck" in res.output  # as validate and simulate say it
    assert not (tmp_path / "e.duckdb").exists()


def test_missions_are_chosen_by_the_missions_experiment(samples, tmp_path):
    """--missions: the cards are searched with the deck's own missions, then the missions
    experiment (experiment.missions, the one of `mythos experiment missions`) chooses them for
    the deck found, and the confirmation proves cards and missions together."""
    field, shares = build_field("sound-four=1")
    pool = build_pool(["KS", "keyword=Team Baki"])  # a few Sand Village cards, and the KS missions
    cfg = OptimizeConfig(samples["Leaf Village Team 7"], field, shares, pool, budget=1500, policy="greedy", seed=5,
                         missions=True)
    with open_store(tmp_path / "m.duckdb") as s:
        o = optimize(s, cfg, "m", workers=2)
        experiment = xstore.get(s, "m-missions")
        result = build(o, tmp_path / "reports", "m.duckdb")
    assert not any(k[2] for k in (o.screen.fit.values if o.screen else {}))  # no mission in the card search
    assert o.missions is not None and o.missions.tried >= 2 and experiment["status"] == "finished"
    assert any(r.startswith("m-missions-") for r in o.runs) and o.stages["missions"] == o.missions.spent
    assert o.spent <= 1500
    assert V.validate(o.proposal).valid and len(set(o.proposal.missions)) == 3
    expect = o.missions.best.missions if o.missions.significant else cfg.base.missions
    assert sorted(o.proposal.missions) == sorted(expect)
    assert o.confirmation.tests >= o.missions.tried  # corrected for the selections raced too
    assert result.numbers["missions_experiment"]["tried"] == o.missions.tried
    assert "## Missions" in (tmp_path / "reports" / "m" / "optimize.md").read_text(encoding="utf-8")


def test_help_keeps_its_sentences_whole_at_80_columns():
    """Issue 26: `optimize --help` broke its own sentences at 80 columns (the docstring's line
    breaks were kept): each paragraph is now one line that the terminal fills, and each example
    fits on its line."""
    import inspect
    import re

    from mythos_cli.cli.optimize import optimize_cmd

    res = runner.invoke(app, ["optimize", "--help"], env={"COLUMNS": "80", "TERM": "dumb"})
    assert res.exit_code == 0, res.output
    assert max(len(line) for line in res.stdout.splitlines()) <= 80  # the whole help, its option boxes too
    text = res.stdout.split("╭")[0]
    flat = " ".join(text.split())
    paragraphs = [" ".join(p.split()) for p in inspect.getdoc(optimize_cmd).split("\n\n")]
    for p in paragraphs:
        if p.startswith("mythos optimize"):  # an example: on one line of the help, whole
            assert any(" ".join(line.split()) == p for line in text.splitlines()), p
        elif p != "Examples:":
            assert p in flat, p
    lines = [line.rstrip() for line in text.splitlines()]
    for a, b in zip(lines, lines[1:]):  # a line broken early, then the sentence going on
        if a.strip() and b.strip() and re.match(r"\s*[a-z(]", b) and not b.strip().startswith("mythos"):
            assert len(a) > 60, (a, b)


def test_the_chart_reads_in_percent_and_its_legend_covers_no_bar(samples, tmp_path):
    """Issue 26: the optimize chart's axis went from 0 to 1 and its legend sat on a bar."""
    from matplotlib.ticker import PercentFormatter

    from mythos_cli.optimize.report import _rates, win_rate_figure

    from mythos_cli.sim.plan import DeckSpec

    cfg = tiny_config(samples, tmp_path, budget=400)
    cfg.base = DeckSpec("Planted Leaf Team 7 (two Kakashi out) for the regionals", cfg.base.cards, cfg.base.missions)
    with open_store(tmp_path / "c.duckdb") as s:
        o = optimize(s, cfg, "chart", workers=1)
    fig = win_rate_figure(o, _rates(o))
    fig.canvas.draw()
    title, page = fig._suptitle.get_window_extent(), fig.bbox
    assert page.x0 <= title.x0 and title.x1 <= page.x1  # a long deck name is wrapped, not cut at the edges
    ax = fig.axes[0]
    assert isinstance(ax.yaxis.get_major_formatter(), PercentFormatter)
    assert [t.get_text() for t in ax.get_yticklabels()][-1] == "100%"
    legend = fig.legends[0] if fig.legends else ax.get_legend()
    box = legend.get_window_extent()
    assert box.y1 <= ax.get_window_extent().y0 + 1  # below the plot, where no bar reaches


class Told(Progress):
    """What the search tells, in order."""

    def __init__(self):
        self.events = []

    def plan(self, plan, rates, minutes):
        self.events.append(("plan", plan.budget, dict(rates)))

    def timed(self, plan, rates, minutes):
        self.events.append(("timed", plan.budget, dict(rates)))

    def stage(self, label, planned, stored):
        self.events.append(("stage", label))

    def games(self, n):
        if self.events[-1][0] != "games":
            self.events.append(("games", n))


def test_the_plan_is_told_before_any_game_then_its_time(samples, tmp_path):
    """Issue 27: with --budget the plan (stages, candidates, games) comes before the first game;
    once the calibration has measured the players' speeds, the plan's time."""
    told = Told()
    with open_store(tmp_path / "t.duckdb") as s:
        optimize(s, tiny_config(samples, tmp_path, budget=400), "told", workers=1, progress=told)
    kinds = [e[0] for e in told.events]
    assert kinds[0] == "plan" and told.events[0][1] == 400 and told.events[0][2] == {}  # no speed known yet
    timed = kinds.index("timed")
    assert all(k != "stage" or "calibration" in e[1] for k, e in zip(kinds[:timed], told.events[:timed]))
    assert told.events[timed][2]["greedy"] > 0 and kinds.count("plan") == 1


def test_one_player_screens_carries_its_short_list_into_the_race_and_measures_the_screen(samples, tmp_path):
    """The default shape (the judge screens itself; here greedy, to be quick): a screen of random
    variants, a short list judged by the same player whose games the first race carries on,
    and the rank correlation of the screen's values with the short list's gains."""
    cfg = two_player_config(samples, tmp_path, budget=1200)
    cfg.screen_policy = None
    cfg.policy = "greedy"
    with open_store(tmp_path / "one.duckdb") as s:
        o = optimize(s, cfg, "one", workers=2)
        result = build(o, tmp_path / "reports", "one.duckdb")
    assert [st.key for st in o.plan.stages] == ["calibration", "screen", "shortlist", "race", "confirmation"]
    assert o.screen is not None and o.cheap_spent == 0 and o.spent <= 1200
    judged = [c for c in o.shortlist if c.cheap is not None]  # (later steps' merges race without a short-list gain)
    assert o.agreement is not None and o.agreement.candidates == len(judged)
    assert result.numbers["rank_agreement"]["between"] == ["screen values", "short list gains"]
    assert any(c.merged for c in judged)  # the screen's best made together are judged there too
    assert all(a.carried > 0 for a in o.races[0].arms)  # the short list's games went on in the race
    assert o.tried >= len(o.shortlist)  # the judge judged the whole short list: the correction counts it
    assert any("rank correlation" in line for line in result.summary)
