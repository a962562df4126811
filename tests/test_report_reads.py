"""The reports' reads aggregate in DuckDB: straight from the dense game rows, they count what
the card-event rows count; the statistics from moments equal those from the rows."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

import reportkit as kit
from mythos_cli.reports.data import CHEAP_COST, open_run, register_slugs, slug
from mythos_cli.reports.stats import mean_interval, mean_interval_from_moments
from mythos_cli.sim import RunConfig, execute, load_specs, start_run
from mythos_cli.sim.decks import default_gauntlet
from mythos_cli.store import open_store, read


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory):
    return kit.write_db(tmp_path_factory.mktemp("reads") / "syn.duckdb"), kit.RUN


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A small real run: games of the engine, mulligans and draws as they happen."""
    db = tmp_path_factory.mktemp("reads") / "real.duckdb"
    specs = load_specs(default_gauntlet()[:3])
    cfg = RunConfig(decks=specs, opponents=[0, 1, 2], studied=[0, 1, 2], games=6, policy_a="greedy",
                    policy_b="random", mulligan="heuristic", seed=3, mirrors=True, batch_size=10)
    with open_store(db) as s:
        start_run(s, cfg, "real", "real")
        execute(s, "real", cfg, workers=1)
    return db, "real"


def _plain(df: pl.DataFrame) -> pl.DataFrame:
    df = df.with_columns([pl.col(c).cast(pl.String) for c, t in df.schema.items() if t == pl.Categorical])
    if "hand" in df.columns:
        df = df.with_columns(pl.col("hand").cast(pl.List(pl.String)).list.sort())
    return df.sort(df.columns[:3])


@pytest.mark.parametrize("which", ["synthetic", "played"])
def test_dense_reads_count_what_the_event_rows_count(which, request):
    db, run = request.getfixturevalue(which)
    with open_run(db, run) as rd:
        costs, s = rd.costs(), rd.store
        for decks in (None, rd.deck_names[:1]):
            assert _plain(read._card_counts_dense(s, run, decks)).equals(_plain(read.card_counts_rows(s, run, decks)))
            for a, b in zip(read._first_seen_dense(s, run, costs, CHEAP_COST, decks),
                            read.first_seen_rows(s, run, costs, CHEAP_COST, decks)):
                assert a.height and _plain(a).equals(_plain(b))
            a = read._opening_hands_dense(s, run, costs, CHEAP_COST, decks)
            b = read.opening_hands_rows(s, run, costs, CHEAP_COST, decks)
            assert a.height == b.height > 0 and _plain(a).equals(_plain(b))
            assert a.schema["hand"] == pl.List(pl.Categorical)


def test_games_arrive_compact_and_complete(played):
    db, run = played
    with open_run(db, run) as rd:
        g = rd.games
        assert g.height == 9 * 6 and sorted(g["game_no"].to_list()) == list(range(54))
        for c in ("deck_0", "deck_1", "policy_0", "matchup"):
            assert g.schema[c] == pl.Categorical
        assert g.schema["missions"] == pl.List(pl.Categorical)
        with open_store(db, read_only=True) as s:
            want = s.table("games", run).sort("game_no")
        got = g.sort("game_no")
        for c in ("deck_0", "deck_1", "winner", "missions", "score_0"):
            left = got[c].cast(pl.List(pl.String)) if c == "missions" else got[c]
            if left.dtype == pl.Categorical:
                left = left.cast(pl.String)
            assert left.to_list() == want[c].to_list(), c


def test_a_mean_from_moments_is_the_mean_from_the_rows():
    rng = np.random.default_rng(5)
    for n in (1, 2, 3, 17, 400):
        for x in (rng.integers(-3, 12, n), np.full(n, 4)):
            a = mean_interval(x)
            b = mean_interval_from_moments(n, int(x.sum()), int((x * x).sum()))
            assert (b.mean, b.n) == pytest.approx((a.mean, a.n))
            assert (b.low, b.high) == pytest.approx((a.low, a.high), rel=1e-9, abs=1e-12)
    assert mean_interval_from_moments(0, 0, 0).n == 0


def test_report_file_names_never_collide():
    names = ["Leaf Village", "leaf-village", "LEAF VILLAGE!", "Sand", "x" * 300]
    register_slugs(names)
    slugs = [slug(n) for n in names]
    assert len(set(slugs)) == len(names)
    assert slug("Sand") == "sand"  # a name alone keeps its plain slug
    assert all(len(s) <= 70 for s in slugs)


@pytest.mark.parametrize("which", ["synthetic", "played"])
def test_played_and_mission_counts_are_those_of_the_rows(which, request):
    """Issue 18's "win rate when played" and mission picks, counted in DuckDB (no row per event
    or per game reaches Python), give what issue 18 counted from the rows with Polars."""
    db, run = request.getfixturevalue(which)
    with open_run(db, run) as rd:
        s = rd.store
        for deck in rd.deck_names:
            seats = rd.seats.filter(pl.col("deck") == deck).select("game_no", "seat", "won")
            want = (read.run_card_events(s, run, ("played",), [deck]).filter(pl.col("how") != "reveal")
                    .group_by("game_no", "seat", "card").agg(pl.col("round").min().alias("first"))
                    .join(seats, on=["game_no", "seat"], how="inner")
                    .group_by("card").agg(pl.len().cast(pl.Int32).alias("n"),
                                          pl.col("won").sum().cast(pl.Int32).alias("w"),
                                          pl.col("first").cast(pl.Int64).sum().alias("rounds")))
            for got in (read._played_counts_dense(s, run, [deck]), read.played_counts_rows(s, run, [deck])):
                got = _plain(got).select("card", "n", "w", "rounds").sort("card")
                assert got.equals(want.sort("card")), deck
            if which == "played":
                assert want.height > 0
            games = pl.concat([rd.games.filter(pl.col(f"deck_{x}") == deck)
                               .select("game_no", pl.lit(x, dtype=pl.Int8).alias("seat"), "missions",
                                       "mission_owners") for x in (0, 1)])
            own = (games.explode("missions", "mission_owners").filter(pl.col("mission_owners") == pl.col("seat"))
                   .select("game_no", "seat", pl.col("missions").cast(pl.String).alias("mission")).unique()
                   .join(seats, on=["game_no", "seat"])
                   .group_by("mission").agg(pl.len().cast(pl.Int32).alias("n"),
                                            pl.col("won").sum().cast(pl.Int32).alias("w")))
            got = _plain(read.mission_counts(s, run, [deck])).select("mission", "n", "w").sort("mission")
            assert got.height > 0 and got.equals(own.sort("mission")), deck


def test_deck_names_sort_ignoring_case():
    from mythos_cli.reports.data import name_order

    assert name_order(["Sand", "akatsuki", "Beta", "alpha"]) == ["akatsuki", "alpha", "Beta", "Sand"]
