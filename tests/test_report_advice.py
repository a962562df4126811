"""Advice only where the games support it (issue 18, item 2)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import polars as pl
import pytest

sys.path.insert(0, str(Path(__file__).parent))
import reportkit as kit  # noqa: E402

from mythos_cli.reports import make_report, open_run  # noqa: E402
from mythos_cli.reports import cards as cards_report  # noqa: E402
from mythos_cli.reports import mulligan as mulligan_report  # noqa: E402
from mythos_cli.reports import plots  # noqa: E402
from mythos_cli.reports import prep as prep_report  # noqa: E402
from mythos_cli.reports.data import card_facts  # noqa: E402
from mythos_cli.reports.plots import LOSS, MUTED, WIN, clear_colors  # noqa: E402


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> Path:
    return kit.write_db(tmp_path_factory.mktemp("advice") / "syn.duckdb")


def test_mission_picks_need_games_and_an_interval_clear_of_zero(db, tmp_path):
    with open_run(db) as rd:
        thin = prep_report.mission_picks(rd, "Alpha", min_games=30)  # 30 games: no mission has 30 on both sides
        assert not any(m["enough_games"] for m in thin) and all(m["difference"]["verdict"] is None for m in thin)
        judged = prep_report.mission_picks(rd, "Alpha", min_games=5)
        assert all(m["difference"]["family_size"] == 3 for m in judged)
        for m in judged:
            lo, hi = m["difference"]["ci_family"]
            assert (lo, hi) != tuple(m["difference"]["ci95"]) and lo <= m["difference"]["ci95"][0]
            assert m["difference"]["verdict"] == ("better" if lo > 0 else "worse" if hi < 0 else "unclear")
    res = make_report("prep", db, deck="Alpha", out=tmp_path)
    line = next(s for s in res.summary if s.startswith("Missions in play (observed):"))
    assert "too few games" in line and "best" not in line
    res = make_report("prep", db, deck="Alpha", out=tmp_path, min_games=5)
    line = next(s for s in res.summary if s.startswith("Missions in play (observed):"))
    verdicts = {m["difference"]["verdict"] for m in res.numbers["missions"]}
    assert ("clearly better" in line or "clearly worse" in line) == bool(verdicts & {"better", "worse"})
    assert "best with" not in line


def test_card_lists_are_judged_all_at_once(db):
    with open_run(db) as rd:
        names = dict(card_facts(rd).select("card", "name").iter_rows())
        a = cards_report.analyse_deck(rd, "Alpha", cards_report.load(rd, ["Alpha"]), names, min_games=5)
        judged = [c for c in a["cards"] if c["enough_games"]]
        assert len(judged) > 1
        for c in judged:
            iwd = c["improvement_when_drawn"]
            assert iwd["family_size"] == len(judged)
            assert iwd["ci_family"][0] <= iwd["ci95"][0] and iwd["ci_family"][1] >= iwd["ci95"][1]
        hands = mulligan_report.opening_hands(rd, ["Alpha"])
        m = mulligan_report.analyse_deck(rd, "Alpha", hands, names, min_games=5)
        keyed = [k for k in m["all_cards_in_opening_hand"] if k["enough_games"]]
        assert all(k["difference"]["family_size"] == len(keyed) for k in keyed)


def test_a_rule_that_mulligans_most_hands_for_a_gain_inside_the_noise_is_not_offered():
    rng = np.random.default_rng(3)
    n = 1_000_000
    keep = rng.random(n) < 0.3  # the rule keeps 30% of hands
    won = rng.random(n) < np.where(keep, 0.52, 0.50)
    frame = pl.DataFrame({"won": won, "cheap": np.where(keep, 3, 0).astype(np.int32),
                          "total_cost": np.full(n, 10, dtype=np.int32), "hand": [[]] * n},
                         schema_overrides={"hand": pl.List(pl.String)})
    deck = type("Deck", (), {"cards": ()})()  # no key-card rules: the cheap-play rules alone
    rec = mulligan_report.recommend(frame, deck, {}, 30)
    best = rec["candidates"][0]
    assert best["gain_ci"][0] > 0 and best["gain_ci"][0] < mulligan_report.MOSTLY_MULLIGAN_GAIN
    assert best["mulligans_share"] > 0.5
    assert rec["status"] == "keep_all" and "inside the noise" in rec["short"]


def test_the_mulligan_chart_draws_no_random_hand_line_on_few_games(db, tmp_path, monkeypatch):
    seen = {}
    real = plots.mulligan_panel

    def spy(deck, keep_mull, cheap, total, value, path, note=None, rule=None):
        seen[deck] = (value, note)
        return real(deck, keep_mull, cheap, total, value, path, note=note, rule=rule)

    monkeypatch.setattr(plots, "mulligan_panel", spy)
    make_report("mulligan", db, out=tmp_path, min_games=10)  # Beta: 3 random-hand games; Alpha: 30 (all kept)
    value, note = seen["Beta"]
    assert value is None and "3 random-hand games" in note
    value, note = seen["Alpha"]
    assert value is not None and len(value) == 4 and note is None


def test_red_and_green_only_for_clear_intervals():
    assert clear_colors([0.55, 0.2, 0.4, float("nan")], [0.7, 0.45, 0.6, float("nan")], 0.5) == [WIN, LOSS, MUTED,
                                                                                                  MUTED]


def test_compare_two_lists_side_by_side(db, tmp_path):
    from scipy.stats import binomtest

    res = make_report("compare", db, deck="Alpha", deck_b="Beta", out=tmp_path)
    n = res.numbers
    assert n["common_opponents"] == ["Gamma"]
    m = n["matchups"][0]
    assert (m["a"]["wins"], m["a"]["games"], m["b"]["wins"], m["b"]["games"]) == (3, 10, 5, 10)
    assert m["a_minus_b"]["diff"] == pytest.approx(-0.2)
    # Newcomb from scipy's Wilson intervals (one comparison: no correction)
    (l1, u1), (l2, u2) = [(c.low, c.high) for c in (binomtest(3, 10).proportion_ci(method="wilson"),
                                                     binomtest(5, 10).proportion_ci(method="wilson"))]
    lo = -0.2 - ((0.3 - l1) ** 2 + (u2 - 0.5) ** 2) ** 0.5
    hi = -0.2 + ((u1 - 0.3) ** 2 + (0.5 - l2) ** 2) ** 0.5
    assert m["a_minus_b"]["ci95"] == pytest.approx([lo, hi]) and m["a_minus_b"]["verdict"] == "unclear"
    assert res.summary[0].startswith("Players:") and "not clearly apart" in res.summary[1]
    assert any(f.suffix == ".html" for f in res.files)
    # the same deck in two runs
    res = make_report("compare", db, deck="Alpha", deck_b="Alpha", run_b="partial", out=tmp_path)
    assert res.numbers["b"]["run"] == "partial" and "The two lists hold the same cards." in res.summary


@pytest.fixture
def figures(monkeypatch):
    """The figures the reports draw, by file name (each is still saved)."""
    drawn = {}
    real = plots.save_figure

    def keep(fig, path):
        drawn[Path(path).name] = fig
        return real(fig, path)

    monkeypatch.setattr(plots, "save_figure", keep)
    return drawn


def _texts(fig) -> str:
    found = [t.get_text() for t in fig.findobj(lambda o: hasattr(o, "get_text"))]
    for ax in fig.axes:
        legend = ax.get_legend()
        if legend is not None:
            found += [t.get_text() for t in legend.get_texts()]
    return " ".join(found)


def test_the_mulligan_chart_draws_its_keep_rule(db, tmp_path, figures):
    res = make_report("mulligan", db, out=tmp_path, min_games=5)
    alpha = next(d for d in res.numbers["decks"] if d["deck"] == "Alpha")
    assert alpha["recommendation"]["status"] == "rule"
    text = _texts(figures["mulligan-alpha.png"])
    assert alpha["recommendation"]["rule"]["rule"] in " ".join(text.split()).replace("\n", " ") or \
        "rule from random hands" in text


def test_the_compare_chart_says_which_side_is_better(db, tmp_path, figures):
    make_report("compare", db, deck="Alpha", deck_b="Beta", out=tmp_path)
    text = _texts(figures["compare-alpha-vs-beta.png"])
    assert "Beta better" in text and "Alpha better" in text


def test_the_curve_chart_gives_each_cost_its_own_panel(db, tmp_path, figures):
    res = make_report("curve", db, deck="Alpha", out=tmp_path)
    fig = figures["curve-alpha.png"]
    costs = [o for o in res.numbers["decks"][0]["odds"] if o["copies"]]
    odds_axes = [ax for ax in fig.axes if ax.get_visible() and ax.get_title().startswith("cost ")
                 and ax.get_title() != "cost curve"]
    assert len(odds_axes) == len(costs) > 1
    assert all(len(ax.get_lines()) == 2 for ax in odds_axes)  # one exact line, one simulated series


def test_the_panel_colours_of_a_field_weighted_mulligan_table_are_weighted_too(db):
    """The bars' colour intervals (all bars at once) come from the same field weighting as the
    table's rates, not from the raw counts (Alpha won 14 of 20 against Beta, 3 of 10 against Gamma:
    equal shares weigh the two alike, the raw counts do not)."""
    from mythos_cli.reports.stats import ALPHA, weighted, wilson

    field = {"Beta": 0.5, "Gamma": 0.5}
    with open_run(db) as rd:
        names = dict(card_facts(rd).select("card", "name").iter_rows())
        hands = mulligan_report.opening_hands(rd, ["Alpha"])
        m = mulligan_report.analyse_deck(rd, "Alpha", hands, names, min_games=5, field=field)
        seats = (rd.seats.filter(pl.col("deck") == "Alpha").select("game_no", "seat", "won",
                                                                   pl.col("opponent").cast(pl.String))
                 .join(hands.select("game_no", "seat", "cheap"), on=["game_no", "seat"]))
    rows = m["by_cheap_plays"]
    k = sum(1 for r in rows if r["games"])
    assert k >= 2
    for r in rows:
        part = seats.filter(pl.col("cheap") == r["cheap_plays"])
        per = [(field[o], int(g["won"].sum()), g.height) for (o,), g in part.group_by("opponent")]
        want = weighted(per, ALPHA / k)
        assert r["ci_family"] == pytest.approx([want.low, want.high])
        raw = wilson(sum(w for _, w, _ in per), sum(n for _, _, n in per), ALPHA / k)
        if len(per) > 1:
            assert r["ci_family"] != pytest.approx([raw.low, raw.high])
    series = mulligan_report._panel_series(rows, "cheap_plays")
    assert list(series["family"][0]) == [r["ci_family"][0] for r in rows]
