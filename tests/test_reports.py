"""mythos report: every number checked on a synthetic database with known answers.

The expected values are counted here from the game specs (``reportkit.SPECS``) with plain
loops, independently of the reports' Polars code, and the intervals are asked of
scipy directly (tests/test_stats.py checks mythos' formulas against statsmodels' values).
"""

from __future__ import annotations

import base64
import json
import math
import re
import sys
from collections import Counter
from pathlib import Path

import pytest
from PIL import Image as PILImage
from scipy.stats import beta as beta_dist
from scipy.stats import binomtest, hypergeom
from typer.testing import CliRunner

sys.path.insert(0, str(Path(__file__).parent))
import reportkit as kit  # noqa: E402

from mythos_cli.catalog import default_catalog  # noqa: E402
from mythos_cli.cli import app  # noqa: E402
from mythos_cli.reports import ReportError, make_report, open_run  # noqa: E402
from mythos_cli.reports import cards as cards_report  # noqa: E402
from mythos_cli.reports import curve as curve_report  # noqa: E402
from mythos_cli.reports import mulligan as mulligan_report  # noqa: E402
from mythos_cli.reports import winrate as winrate_report  # noqa: E402
from mythos_cli.reports.data import card_facts, parse_field  # noqa: E402
from mythos_cli.reports.doc import Document, Image, Para, Table, to_html, to_markdown  # noqa: E402
from mythos_cli.reports.stats import field_interval  # noqa: E402

runner = CliRunner()
SPECS = kit.SPECS


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> Path:
    return kit.write_db(tmp_path_factory.mktemp("reports") / "syn.duckdb")


@pytest.fixture(scope="module")
def rd(db):
    with open_run(db) as r:
        yield r


def wilson(k, n, alpha=0.05):
    """scipy's Wilson interval: a reference independent of mythos' formula."""
    ci = binomtest(k, n).proportion_ci(1 - alpha, method="wilson")
    return ci.low, ci.high


def confint_proportions_2indep(k1, n1, k2, n2, method="newcomb", alpha=0.05):
    """Newcomb's hybrid score interval (1998, method 10) from scipy's Wilson intervals."""
    assert method == "newcomb"
    p1, p2 = k1 / n1, k2 / n2
    (l1, u1), (l2, u2) = wilson(k1, n1, alpha), wilson(k2, n2, alpha)
    d = p1 - p2
    return d - ((p1 - l1) ** 2 + (u2 - p2) ** 2) ** 0.5, d + ((u1 - p1) ** 2 + (p2 - l2) ** 2) ** 0.5


def seats_of(deck):
    """(game spec, seat index, seat) for every seat the deck played."""
    return [(g, s, st) for g in SPECS for s, st in enumerate(g.seats) if st.deck == deck]


# -- winrate -----------------------------------------------------------------------------------
def test_default_run_is_the_newest_finished_one(rd):
    assert rd.run_id == kit.RUN
    assert rd.games.height == len(SPECS) == 42


def test_matchup_matrix_is_complementary_with_wilson_intervals(rd):
    cells = winrate_report.matrix(rd)
    ab, ba = cells[("Alpha", "Beta")], cells[("Beta", "Alpha")]
    assert (ab.rate.wins, ab.rate.games) == (14, 20) and (ba.rate.wins, ba.rate.games) == (6, 20)
    assert ab.rate.rate == pytest.approx(0.7) and ab.rate.rate + ba.rate.rate == pytest.approx(1.0)
    assert (ab.rate.low, ab.rate.high) == pytest.approx(wilson(14, 20))
    assert (ba.rate.low, ba.rate.high) == pytest.approx((1 - ab.rate.high, 1 - ab.rate.low))
    assert (cells[("Alpha", "Gamma")].rate.wins, cells[("Alpha", "Gamma")].rate.games) == (3, 10)
    assert (cells[("Beta", "Gamma")].rate.wins, cells[("Beta", "Gamma")].rate.games) == (5, 10)
    mirror = cells[("Gamma", "Gamma")]
    assert mirror.mirror and mirror.to_dict()["win_rate"] == 0.5 and mirror.to_dict()["games"] == 2
    # a mirror that was never played is no 50% cell
    unplayed = cells[("Alpha", "Alpha")].to_dict()
    assert cells[("Alpha", "Alpha")].mirror and unplayed["win_rate"] is None and unplayed["games"] == 0
    # ties by Edge, counted per pair: games 0 and 15 are Alpha–Beta, game 33 is Beta–Gamma
    assert ab.ties_by_edge == ba.ties_by_edge == 2
    assert cells[("Beta", "Gamma")].ties_by_edge == 1


def test_win_rate_against_the_field(rd):
    cells = winrate_report.matrix(rd)
    equal = parse_field(rd, None)
    assert equal == pytest.approx({"Alpha": 1 / 3, "Beta": 1 / 3, "Gamma": 1 / 3})
    # the default field leaves the deck itself out: Alpha against Beta 70% and Gamma 30%
    alpha_field = winrate_report.deck_field(equal, "Alpha", explicit=False)
    assert alpha_field == pytest.approx({"Beta": 0.5, "Gamma": 0.5})
    assert winrate_report.field_rate(cells, "Alpha", alpha_field).rate == pytest.approx((0.7 + 0.3) / 2)
    beta_field = winrate_report.deck_field(equal, "Beta", explicit=False)
    assert winrate_report.field_rate(cells, "Beta", beta_field).rate == pytest.approx((0.3 + 0.5) / 2)
    # a field that names the deck: its mirror share counts 50%
    assert winrate_report.field_rate(cells, "Alpha", equal).rate == pytest.approx((0.5 + 0.7 + 0.3) / 3)
    field = parse_field(rd, "beta=1, Gamma=3")
    assert field == pytest.approx({"Beta": 0.25, "Gamma": 0.75})
    fr = winrate_report.field_rate(cells, "Alpha", field)
    assert fr.rate == pytest.approx(0.25 * 0.7 + 0.75 * 0.3) and fr.games == 30
    assert fr.low < fr.rate < fr.high
    # one opponent: exactly that matchup's rate and Wilson interval (both directions agree)
    single = winrate_report.field_rate(cells, "Alpha", parse_field(rd, "Beta=1"))
    assert (single.rate, single.low, single.high) == pytest.approx((0.7, *wilson(14, 20)))
    # a mixed field: the sum of Jeffreys posteriors; one part of weight 1 is the Jeffreys interval
    jl, jh = beta_dist.ppf([0.025, 0.975], 14.5, 6.5)
    assert field_interval([(1.0, 14, 20)]) == pytest.approx((jl, jh), abs=0.01)
    # the mirror share counts exactly one half, with no uncertainty
    assert field_interval([], 0.5) == (0.5, 0.5)


def test_bad_fields_are_refused(rd):
    for spec, text in (("Alpha", "deck=share"), ("Alpha=x", "not a number"), ("Alpha=-1", "≥ 0"),
                       ("Alpha=0", "add up to 0"), ("Zed=1", "no deck")):
        with pytest.raises(ReportError, match=re.escape(text)):
            parse_field(rd, spec)


def test_splits_by_first_edge_policy_and_tiebreaks(rd):
    res = winrate_report.compute(rd, parse_field(rd, None))
    first_holder_wins = sum(1 for g in SPECS if g.winner == g.first_edge)
    fe = res["first_edge_holder"]
    assert (fe.wins, fe.games) == (first_holder_wins, 42)
    assert (fe.low, fe.high) == pytest.approx(wilson(first_holder_wins, 42))
    alpha_edge = [(g.winner == s) for g, s, _ in seats_of("Alpha") if g.first_edge == s]
    row = next(r for r in res["by_first_edge"] if r["deck"] == "Alpha" and r["first_edge"] is True)
    assert (row["wins"], row["games"]) == (sum(alpha_edge), len(alpha_edge))
    pol = {(r["deck"], r["policy"]): r for r in res["by_policy"]}
    assert (pol[("Alpha", "random")]["wins"], pol[("Alpha", "random")]["games"]) == (17, 30)
    pvp = {(r["policy"], r["opponent_policy"]): r for r in res["policy_vs_policy"]}
    assert (pvp[("random", "greedy")]["wins"], pvp[("random", "greedy")]["games"]) == (17, 30)
    tb = res["tiebreaks"]
    assert tb["decided_by_edge"] == 3 and tb["share"] == pytest.approx(3 / 42)
    by = {r["deck"]: r for r in tb["by_deck"]}
    alpha_tb_wins = sum(1 for g, s, _ in seats_of("Alpha") if g.tiebreak and g.winner == s)
    assert by["Alpha"]["won_by_edge"] == alpha_tb_wins
    assert by["Alpha"]["won_by_edge"] + by["Alpha"]["lost_by_edge"] == 2


# -- mulligan ---------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def mull(rd):
    names = dict(card_facts(rd).select("card", "name").iter_rows())
    hands = mulligan_report.opening_hands(rd, rd.deck_names)
    return {d: mulligan_report.analyse_deck(rd, d, hands, names, min_games=5) for d in rd.deck_names}


def test_keep_vs_mulligan_and_hand_features(mull):
    beta = mull["Beta"]
    kept = [(g.winner == s) for g, s, st in seats_of("Beta") if not st.mulligan]
    mulled = [(g.winner == s) for g, s, st in seats_of("Beta") if st.mulligan]
    assert (beta["kept"]["wins"], beta["kept"]["games"]) == (sum(kept), len(kept)) and len(mulled) == 3
    assert (beta["mulliganed"]["wins"], beta["mulliganed"]["games"]) == (sum(mulled), 3)
    assert beta["kept"]["ci95"] == pytest.approx(list(wilson(sum(kept), len(kept))))
    lo, hi = confint_proportions_2indep(sum(kept), len(kept), sum(mulled), 3, method="newcomb")
    assert beta["kept_minus_mulliganed"]["ci95"] == pytest.approx([lo, hi])
    cat = default_catalog()
    alpha = mull["Alpha"]
    cheap = Counter()
    wins = Counter()
    for g, s, st in seats_of("Alpha"):
        k = sum(1 for c in st.opening if cat.by_id[c].cost <= 2)
        cheap[k] += 1
        wins[k] += g.winner == s
    got = {r["cheap_plays"]: (r["wins"], r["games"]) for r in alpha["by_cheap_plays"]}
    assert got == {k: (wins[k], cheap[k]) for k in cheap} == {2: (15, 17), 0: (2, 13)}
    assert sum(r["games"] for r in alpha["by_total_cost"]) == 30


def test_a_keep_rule_is_learned_from_random_hands(mull):
    rec = mull["Alpha"]["recommendation"]
    assert rec["status"] == "rule" and mull["Alpha"]["random_hand_games"] == 30
    rule = rec["rule"]
    # every rule that splits good from bad hands is the same partition: 17 kept (15 won), 13 thrown (2 won)
    assert (rule["kept_hands"]["wins"], rule["kept_hands"]["games"]) == (15, 17)
    assert (rule["mulliganed_hands"]["wins"], rule["mulliganed_hands"]["games"]) == (2, 13)
    p = 17 / 30
    assert rule["gain"] == pytest.approx(p * (1 - p) * (15 / 17 - 2 / 13))
    # value of the rule = P(keep)·W(keep) + P(mulligan)·V, with V the random-hand win rate 17/30
    assert 17 / 30 + rule["gain"] == pytest.approx(p * 15 / 17 + (1 - p) * 17 / 30)
    m = rec["rules_tested"]
    lo, hi = confint_proportions_2indep(15, 17, 2, 13, method="newcomb", alpha=0.05 / m)
    assert rule["gain_ci"] == pytest.approx([p * (1 - p) * lo, p * (1 - p) * hi])
    assert rule["gain_ci"][0] > 0


def test_no_rule_when_it_cannot_be_supported_or_does_not_help(mull):
    beta = mull["Beta"]["recommendation"]
    assert beta["status"] == "insufficient" and mull["Beta"]["random_hand_games"] == 3
    assert "--mulligan keep" in beta["text"] and "--mulligan always" in beta["text"]
    gamma = mull["Gamma"]["recommendation"]
    assert gamma["status"] == "keep_all"
    assert all(c["gain"] == pytest.approx(0.0) for c in gamma["candidates"])


# -- curve ------------------------------------------------------------------------------------
def test_hypergeometric_odds_on_a_tiny_deck():
    # 10 cards: two of cost 1, three of cost 2, five of cost 3; 2 in hand and 1 a round
    odds = curve_report.exact_odds([1, 1, 2, 2, 2, 3, 3, 3, 3, 3], rounds=2, hand=2, per_round=1)
    assert odds[1] == pytest.approx([1 - 28 / 45, 1 - 56 / 120, 1 - 70 / 210])
    assert odds[2] == pytest.approx([1 - math.comb(7, 2) / 45, 1 - math.comb(7, 3) / 120, 1 - math.comb(7, 4) / 210])
    assert odds[3][0] == pytest.approx(1 - 10 / 45)


def test_curve_numbers(rd):
    facts, seen, rounds = curve_report.load(rd, ["Alpha"])
    a = curve_report.analyse_deck(rd, "Alpha", facts, seen, rounds)
    cat = default_catalog()
    cards, _ = kit.deck_lists()["Alpha"]
    costs = Counter(cat.by_id[c].cost for c in cards)
    assert a["deck_size"] == 30 and {int(k): v for k, v in a["curve"].items() if v} == dict(costs)
    seats = seats_of("Alpha")
    for o in a["odds"]:
        c = o["cost"]
        for p in o["by_round"]:
            r = p["round"]
            assert p["exact"] == pytest.approx(hypergeom.sf(0, 30, costs[c], 5 + 2 * r))
            seen = sum(1 for _, _, st in seats
                       if any(cat.by_id[x].cost == c for x in st.opening + [y for rr, ys in st.drawn.items()
                                                                           if rr <= r for y in ys]))
            assert p["simulated"] == pytest.approx(seen / len(seats)), (c, r)
            assert p["simulated_ci95"] == pytest.approx(list(wilson(seen, len(seats))))
    for row in a["chakra"]:
        r = row["round"]
        vals = [kit.chakra(g.no, s, r) for g, s, _ in seats]
        assert row["gained"]["mean"] == pytest.approx(sum(v[0] for v in vals) / len(vals))
        assert row["spent"]["mean"] == pytest.approx(sum(v[1] for v in vals) / len(vals))
        assert row["wasted"]["mean"] == pytest.approx(sum(v[0] - v[1] for v in vals) / len(vals))
        assert row["wasted"]["ci95"][0] < row["wasted"]["mean"] < row["wasted"]["ci95"][1]


# -- cards ------------------------------------------------------------------------------------
def test_card_metrics_17lands_style(rd):
    names = dict(card_facts(rd).select("card", "name").iter_rows())
    a = cards_report.analyse_deck(rd, "Alpha", cards_report.load(rd, ["Alpha"]), names, min_games=5)
    seats = seats_of("Alpha")
    by = {c["card"]: c for c in a["cards"]}
    cards, _ = kit.deck_lists()["Alpha"]
    assert set(by) == set(cards)
    for card in set(cards):
        oh = [(g.winner == s) for g, s, st in seats if card in st.opening]
        gd = [(g.winner == s) for g, s, st in seats
              if card not in st.opening and any(card in ys for ys in st.drawn.values())]
        gns = [(g.winner == s) for g, s, st in seats
               if card not in st.opening and not any(card in ys for ys in st.drawn.values())]
        c = by[card]
        assert (c["opening_hand"]["wins"], c["opening_hand"]["games"]) == (sum(oh), len(oh)), card
        assert (c["drawn_later"]["wins"], c["drawn_later"]["games"]) == (sum(gd), len(gd)), card
        assert (c["in_hand"]["wins"], c["in_hand"]["games"]) == (sum(oh) + sum(gd), len(oh) + len(gd)), card
        assert (c["never_seen"]["wins"], c["never_seen"]["games"]) == (sum(gns), len(gns)), card
        assert c["games_in_deck"] == 30 and c["copies"] == cards.count(card)
        if oh + gd and gns:
            k1, n1, k2, n2 = sum(oh) + sum(gd), len(oh) + len(gd), sum(gns), len(gns)
            assert c["improvement_when_drawn"]["diff"] == pytest.approx(k1 / n1 - k2 / n2)
            assert c["improvement_when_drawn"]["ci95"] == pytest.approx(
                list(confint_proportions_2indep(k1, n1, k2, n2, method="newcomb")))
        assert c["enough_games"] == (len(oh) + len(gd) >= 5 and len(gns) >= 5)
    # a good-hand card: in the opening hand in 17 games (15 won)
    good, _ = kit.hands(cards)
    assert (by[good[0]]["opening_hand"]["wins"], by[good[0]]["opening_hand"]["games"]) == (15, 17)
    ranked = [by[c]["in_hand"]["win_rate"] for c in a["ranked"]]
    assert ranked == sorted(ranked, reverse=True) and all(by[c]["enough_games"] for c in a["ranked"])


# -- files, pictures, HTML --------------------------------------------------------------------
def _check_png(path: Path) -> None:
    assert path.stat().st_size > 5000, path
    with PILImage.open(path) as im:
        im.verify()
    with PILImage.open(path) as im:
        assert im.format == "PNG" and im.width > 300 and im.height > 150
        assert sum(1 for h in im.convert("L").histogram() if h) > 10  # something is drawn, not a blank canvas


def test_every_report_writes_markdown_and_readable_pictures(db, tmp_path):
    out = tmp_path / "reports"
    seen = {}
    for kind in ("winrate", "mulligan", "curve", "cards"):
        res = make_report(kind, db, deck="Alpha", out=out, min_games=5)
        md = [f for f in res.files if f.suffix == ".md"]
        pngs = [f for f in res.files if f.suffix == ".png"]
        assert len(md) == 1 and md[0].parent == out / kit.RUN and pngs, kind
        text = md[0].read_text(encoding="utf-8")
        for p in pngs:
            _check_png(p)
            assert f"]({p.name})" in text  # the Markdown links its images relatively
        seen[kind] = text
        json.dumps(res.to_json(), allow_nan=False)
    assert "70.0%" in seen["winrate"] and "Alpha" in seen["winrate"]
    assert "Keep hands with at least" in seen["mulligan"]


def test_prep_report_with_embedded_images(db, tmp_path):
    res = make_report("prep", db, deck="alpha", out=tmp_path, field="Beta=1,Gamma=3", min_games=5)
    n = res.numbers
    assert n["deck"] == "Alpha" and n["vs_field"]["win_rate"] == pytest.approx(0.4)
    assert [m["opponent"] for m in n["matchups"]] == ["Beta", "Gamma"]
    assert n["best_matchups"][0]["opponent"] == "Beta" and n["worst_matchups"][0]["opponent"] == "Gamma"
    assert n["mulligan"]["kept"]["weighted_by_field"]  # what the player did, weighted by the field
    # missions: each of Alpha's three, in play when it brought it
    _, missions = kit.deck_lists()["Alpha"]
    for m in n["missions"]:
        inp = [(g.winner == s) for g, s, st in seats_of("Alpha") if m["mission"] in st.missions]
        out = [(g.winner == s) for g, s, st in seats_of("Alpha") if m["mission"] not in st.missions]
        assert (m["in_play"]["wins"], m["in_play"]["games"]) == (sum(inp), len(inp))
        assert (m["not_in_play"]["wins"], m["not_in_play"]["games"]) == (sum(out), len(out))
    assert [m["mission"] for m in n["missions"]] == list(missions)
    html = next(f for f in res.files if f.suffix == ".html").read_text(encoding="utf-8")
    pngs = [f for f in res.files if f.suffix == ".png"]
    embedded = re.findall(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"', html)
    assert len(embedded) == len(pngs) >= 4
    assert sorted(base64.b64decode(e) for e in embedded) == sorted(p.read_bytes() for p in pngs)
    assert "<img" in html and 'src="prep' not in html  # no image is linked: the page travels alone
    assert res.summary[0].startswith("Players: ")  # every summary names the players first
    expected = next(s for s in res.summary if s.startswith("Against this field"))
    assert len(res.summary) >= 5 and "40.0%" in expected


def test_document_rendering():
    doc = Document("T")
    doc.add(Para("a **b** `c`"), Table("t", ["x", "y"], [["a|b", "1"]]))
    md = to_markdown(doc, Path("."))
    assert "| a\\|b | 1 |" in md and "|:---|---:|" in md
    html = to_html(doc)
    assert "<strong>b</strong>" in html and "<code>c</code>" in html and "a|b" in html


def test_image_paths_in_markdown_are_relative(tmp_path):
    img = tmp_path / "x.png"
    img.write_bytes(b"png")
    doc = Document("T", [Image(img, "alt")])
    assert "![alt](x.png)" in to_markdown(doc, tmp_path)


# -- the command line --------------------------------------------------------------------------
def test_cli_reports_and_json(db, tmp_path):
    res = runner.invoke(app, ["report", "winrate", "--db", str(db), "--out", str(tmp_path), "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    cell = next(c for c in data["matrix"] if c["deck"] == "Alpha" and c["opponent"] == "Beta")
    assert cell["win_rate"] == pytest.approx(0.7) and cell["games"] == 20
    assert cell["ci95"] == pytest.approx(list(wilson(14, 20)))
    res = runner.invoke(app, ["report", "curve", "--db", str(db), "--deck", "gamma", "--out", str(tmp_path)])
    assert res.exit_code == 0, res.output
    assert "Gamma" in res.stdout and (tmp_path / kit.RUN / "curve-gamma.md").is_file()


def test_cli_unfinished_run_warns(db, tmp_path):
    res = runner.invoke(app, ["report", "winrate", "--db", str(db), "--run", "partial", "--out", str(tmp_path),
                              "--json"])
    assert res.exit_code == 0
    assert "interrupted" in res.stderr and json.loads(res.stdout)["run"] == "partial"


@pytest.mark.parametrize("args, code, text", [
    (["winrate", "--db", "{missing}"], 2, "no such database"),
    (["winrate", "--db", "{notdb}"], 2, "not a DuckDB database"),
    (["winrate", "--db", "{db}", "--run", "sin"], 2, "no run 'sin'"),
    (["winrate", "--db", "{db}", "--run", "empty"], 1, "no stored games"),
    (["curve", "--db", "{db}", "--deck", "Delta"], 2, "no deck 'Delta'"),
    (["prep", "--db", "{db}"], 2, "about one deck"),
    (["prep", "alpha", "--db", "{db}", "--field", "Beta=lots"], 2, "not a number"),
    (["cards", "--db", "{db}", "--out", "{file}"], 2, "cannot"),
])
def test_cli_errors_are_clear(db, tmp_path, args, code, text):
    notdb = tmp_path / "not.duckdb"
    notdb.write_text("hello")
    afile = tmp_path / "a-file"
    afile.write_text("x")
    args = [a.format(db=db, missing=tmp_path / "none.duckdb", notdb=notdb, file=afile) for a in args]
    res = runner.invoke(app, ["report", *args])
    assert res.exit_code == code, res.output
    assert text in res.stderr
    assert "Traceback" not in res.output
    assert res.exception is None or isinstance(res.exception, SystemExit)  # a clean exit, not a crash


def test_unknown_deck_suggests_the_known_ones(rd):
    with pytest.raises(ReportError) as exc:
        winrate_report.report(rd, Path("unused"), deck="alfa")
    assert "did you mean 'Alpha'" in exc.value.hint and "Beta" in exc.value.hint


def test_a_database_in_use_by_a_simulation_is_read_from_a_copy(db, tmp_path):
    import shutil
    import subprocess

    locked = tmp_path / "locked.duckdb"
    shutil.copy(db, locked)
    holder = subprocess.Popen([sys.executable, "-c", "import duckdb,time; c=duckdb.connect("
                               f"{str(locked)!r}); print('ready', flush=True); time.sleep(30)"],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "ready"
        res = runner.invoke(app, ["report", "winrate", "--db", str(locked), "--out", str(tmp_path)])
        # reading while another process writes always works: from a private copy, said in a warning
        assert res.exit_code == 0 and "being written by another process" in " ".join(res.stderr.split())
    finally:
        holder.kill()
        holder.wait()


def test_every_section_of_the_prep_page_moves_with_the_field(db, tmp_path):
    a = make_report("prep", db, deck="alpha", out=tmp_path, field="Beta=1,Gamma=3", min_games=5).numbers
    b = make_report("prep", db, deck="alpha", out=tmp_path, field="Beta=3,Gamma=1", min_games=5).numbers
    pick = {
        "against the field": lambda n: n["vs_field"]["win_rate"],
        "going first": lambda n: n["going_first_and_second"]["first"]["win_rate"],
        "mulligans": lambda n: n["mulligan"]["kept"]["win_rate"],
        "mulligans by cheap plays": lambda n: [r["win_rate"] for r in n["mulligan"]["by_cheap_plays"]],
        "cards": lambda n: [c["in_hand"]["win_rate"] for c in n["cards"]["cards"]],
        "curve": lambda n: [c["wasted"]["mean"] for c in n["curve"]["chakra"]],
        "missions": lambda n: [m["in_play"]["win_rate"] for m in n["missions"]],
    }
    for section, get in pick.items():
        assert get(a) != pytest.approx(get(b)), section
    assert a["weights"] == pytest.approx({"Beta": 0.25, "Gamma": 0.75})
