"""``mythos report prep DECK``: one tournament-prep page for one deck against a field.

It puts together the expected win rate against the field, the best and worst matchups,
the mulligan advice, the curve, the card table and the mission picks (the win rate with each
of the deck's 3 missions in play: 2 of the 3 are drawn at random each game, so each is in
play in about two games of three and the others are the comparison), and opens with a
short summary in plain words.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from mythos_cli.reports import cards as cards_report
from mythos_cli.reports import curve as curve_report
from mythos_cli.reports import mulligan as mulligan_report
from mythos_cli.reports import missions as missions_report
from mythos_cli.reports import plots
from mythos_cli.reports.base import ReportResult, examples_table, run_folder, run_preamble, write_document
from mythos_cli.reports.data import (CHEAP_COST, MIN_GAMES, ReportError, RunData, card_facts, games_by_opponent,
                                     mission_name, parse_field, resolve_deck, slug)
from mythos_cli.reports.doc import Bullets, Document, Heading, Image, Para, Table, interval, num, pct, pp
from mythos_cli.reports.stats import difference, family, verdict, weighted, wilson
from mythos_cli.reports.winrate import deck_field, field_rate, field_text, matrix, missing_field_error


def mission_picks(rd: RunData, deck: str, min_games: int = MIN_GAMES,
                  field: dict[str, float] | None = None) -> list[dict]:
    """Win rate of the deck with each of its own missions in play, and without it (observed:
    2 of the 3 are drawn at random each game); ``field``: weighted by its shares.

    A mission is judged only with ``min_games`` games on each side, and the judged missions
    together (Bonferroni): "better" or "worse" means the interval of the difference is clear of 0."""
    seats = rd.seats.filter(pl.col("deck") == deck)
    total, wins = seats.height, int(seats["won"].sum())
    totals = games_by_opponent(rd, deck)
    # the seats with each mission in play, counted in DuckDB (a row per mission and opponent)
    counts: dict[str, dict[str, tuple[int, int]]] = {}
    for r in rd.mission_counts([deck], by_opponent=True).filter(pl.col("deck") == deck).iter_rows(named=True):
        counts.setdefault(str(r["mission"]), {})[str(r["opponent"])] = (int(r["n"]), int(r["w"]))
    out = []
    for m in rd.decks[deck].missions:
        per = counts.get(m, {})
        n, w = sum(x[0] for x in per.values()), sum(x[1] for x in per.values())
        a = wilson(int(w), int(n))
        b = wilson(wins - int(w), total - int(n))
        if field is not None:
            a = weighted([(field.get(o, 0), per.get(o, (0, 0))[1], per.get(o, (0, 0))[0]) for o in totals])
            b = weighted([(field.get(o, 0), tw - per.get(o, (0, 0))[1], tn - per.get(o, (0, 0))[0])
                          for o, (tn, tw) in totals.items()])
        out.append({"mission": m, "name": mission_name(m), "in_play": a.to_dict(), "not_in_play": b.to_dict(),
                    "difference": difference(a, b).to_dict(),
                    "enough_games": a.games >= min_games and b.games >= min_games, "_rates": (a, b)})
    judged = [m for m in out if m["enough_games"]]
    for m, d in zip(judged, family([m["_rates"] for m in judged])):
        m["difference"].update(ci_family=[d.low, d.high], family_size=len(judged), verdict=verdict(d.low, d.high))
    for m in out:
        m.pop("_rates")
        m["difference"].setdefault("verdict", None)
    return out


def _experiment(rd: RunData, kind: str, deck: str, given: str | None, field: dict[str, float]) -> dict | None:
    """The mulligan or missions experiment of this deck's list (``given``, or the newest finished one in
    the run's database), weighted by the prep page's field; None when there is none."""
    from mythos_cli.experiment import mulligan as mx
    from mythos_cli.experiment import missions as mis
    from mythos_cli.reports import missions as missions_report
    from mythos_cli.sim.plan import DeckSpec

    lst = rd.decks[deck]
    spec = DeckSpec(deck, lst.cards, lst.missions)
    module = mx if kind == "mulligan" else mis
    exp_id = given or next(iter(reversed(module.find(rd.store, spec))), None)
    if exp_id is None:
        return None
    lists = {d: (v.cards, v.missions) for d, v in rd.decks.items()}
    if kind == "mulligan":
        return mulligan_report.experiment_analysis(rd.store, exp_id, field, lists)
    return missions_report.experiment_analysis(rd.store, exp_id, field, lists)


def first_and_second(rd: RunData, deck: str, field: dict[str, float]) -> dict:
    """Going first (the deck held the Edge first, so it played first in round 1) and second, each
    weighted by the field, and the difference."""
    seats = rd.seats.filter(pl.col("deck") == deck)
    agg = (seats.group_by(pl.col("opponent").cast(pl.String), "first_edge")
           .agg(pl.len().alias("n"), pl.col("won").sum().alias("w")))
    parts: dict[bool, list] = {True: [], False: []}
    for o, first, n, w in agg.select("opponent", "first_edge", "n", "w").iter_rows():
        if o in field:
            parts[bool(first)].append((field[o], int(w), int(n)))
    a, b = weighted(parts[True]), weighted(parts[False])
    return {"first": a.to_dict(), "second": b.to_dict(), "first_minus_second": difference(a, b).to_dict()}


def report(rd: RunData, out: Path, deck: str, *, field_spec: str | None = None,
           min_games: int = MIN_GAMES, examples: bool = False, players: tuple | None = None,
           mulligan_run: str | None = None, missions_run: str | None = None) -> ReportResult:
    deck = resolve_deck(rd, deck)
    explicit = bool(field_spec and field_spec.strip())
    field = deck_field(parse_field(rd, field_spec), deck, explicit)
    if not field:  # the deck is the run's whole gauntlet (B of `simulate A --vs B`): the decks it met
        met = sorted(set(rd.seats.filter((pl.col("deck") == deck) & (pl.col("opponent") != deck))["opponent"]))
        if not met:
            raise ReportError(f"{deck} played no other deck in run {rd.run_id}", "give --field \"DECK=share,…\"")
        field = {d: 1 / len(met) for d in met}
        rd.warnings.append(f"{deck} is the whole default field of run {rd.run_id}: it is prepared against the decks "
                           f"it met ({', '.join(met)}), in equal shares")
    cells = matrix(rd)
    fr = field_rate(cells, deck, field)
    if fr.missing:
        raise missing_field_error(rd, fr)
    seats = rd.seats.filter(pl.col("deck") == deck)
    overall = wilson(int(seats["won"].sum()), seats.height)
    matchups, mirror = [], None
    for opp, share in sorted(field.items(), key=lambda kv: kv[0]):
        c = cells[(deck, opp)]
        if opp == deck:  # named in --field: the mirror, 50% by construction, shown so the shares add up
            mirror = {"opponent": opp, "field_share": share, "mirror": True, "win_rate": 0.5, "ci95": [0.5, 0.5],
                      "games": c.rate.games // 2, "wins": None, "ties_by_edge": c.ties_by_edge // 2 if c.played else 0}
            continue
        matchups.append({"opponent": opp, "field_share": share, **c.rate.to_dict(), "ties_by_edge": c.ties_by_edge})
    matchups.sort(key=lambda m: -m["win_rate"])
    shown = matchups + ([mirror] if mirror else [])
    names = dict(card_facts(rd).select("card", "name").iter_rows())
    # every section below weighs the deck's games by the field's shares of its opponents
    met = games_by_opponent(rd, deck)
    weights = {o: w for o, w in field.items() if met.get(o, (0, 0))[0] > 0}
    hands = mulligan_report.opening_hands(rd, [deck])
    mull = mulligan_report.analyse_deck(rd, deck, hands, names, min_games, field=weights)
    facts, seen, rounds = curve_report.load(rd, [deck], by_opponent=True)
    cur = curve_report.analyse_deck(rd, deck, facts, seen, rounds, field=weights)
    crd = cards_report.analyse_deck(rd, deck, cards_report.load(rd, [deck], by_opponent=True), names, min_games,
                                    field=weights)
    missions = mission_picks(rd, deck, min_games, field=weights)
    order = first_and_second(rd, deck, weights)
    mexp = _experiment(rd, "mulligan", deck, mulligan_run, field)
    xexp = _experiment(rd, "missions", deck, missions_run, field)

    folder = run_folder(out, rd.run_id)
    stem = f"prep-{slug(deck)}"
    summary = _summary(deck, field, fr, matchups, mull, cur, crd, missions, min_games, order, mexp, xexp)
    doc = Document(f"Tournament prep: {deck}")
    doc.add(*run_preamble(rd))
    if players and len(players[0]) > 1 or players and players[1]:
        doc.add(Heading("Players"), Bullets(players[0][1:]), *players[1])
    doc.add(Heading("Summary"), Bullets(summary))

    doc.add(Heading("Against the field"))
    doc.add(Para(f"Field: {field_text(field)}. Expected win rate **{pct(fr.rate)}** (95% interval {interval(fr.low, fr.high)}; "
                 f"{fr.games} games against these decks; a mirror counts 50%). Over all its games in the run the "
                 f"deck won {pct(overall.rate)} ({interval(overall.low, overall.high)}, n={overall.games})."))
    if matchups:
        img = plots.rate_bars([m["opponent"] for m in matchups], [m["win_rate"] for m in matchups],
                              [m["ci95"][0] for m in matchups], [m["ci95"][1] for m in matchups],
                              [m["games"] for m in matchups], folder / f"prep-matchups-{slug(deck)}.png",
                              f"{deck} against each deck of the field", shares=[m["field_share"] for m in matchups])
        doc.add(Image(img, "matchups"),
                Table("Matchups (best first)", ["opponent", "field share", "games", "win rate", "95% CI",
                                                "ties by Edge"],
                      [[m["opponent"] + (" (mirror)" if m.get("mirror") else ""), pct(m["field_share"], 0),
                        str(m["games"]), pct(m["win_rate"]) + (" by construction" if m.get("mirror") else ""),
                        interval(*m["ci95"]), str(m["ties_by_edge"])] for m in shown]))

    f, sec, d = order["first"], order["second"], order["first_minus_second"]
    doc.add(Heading("Going first and second"),
            Table("Holding the Edge first (playing first in round 1) or not, weighted by the field",
                  ["position", "games", "win rate", "95% CI"],
                  [["going first", str(f["games"]), pct(f["win_rate"]), interval(*f["ci95"])],
                   ["going second", str(sec["games"]), pct(sec["win_rate"]), interval(*sec["ci95"])],
                   ["first − second", "", pp(d["diff"]), interval(*d["ci95"], points=True)]],
                  note="Who holds the Edge first is drawn at random each game, so the two groups are alike in "
                       "everything else."))

    doc.add(Heading("Mulligans"))
    if mexp is not None:
        doc.add(*mulligan_report.experiment_blocks(mexp, folder, "prep-mulligan-experiment", level=3, full=False)[1:])
    else:
        doc.add(Para(f"**No mulligan experiment of this list yet.** The advice comes from playing each dealt hand "
                     f"both kept and mulliganed: `mythos experiment mulligan DECKFILE --field \"…\" --db {rd.db}` "
                     "stores one, which this page then shows (or give --mulligan-run ID)."))
    doc.add(Heading("What the player did with its opening hands (observed, not advice)", 3),
            Para("These tables count the run's own games: the player chose its mulligans by looking at the hands, so "
                 "hands it kept and hands it threw back are different hands, and the difference is not the effect "
                 "of mulliganing. Weighted by the field's shares."),
            *mulligan_report.deck_blocks(mull, folder, "prep-mulligan", min_games, level=4)[2:])
    doc.add(Heading("Curve and chakra"), *curve_report.deck_blocks(cur, folder, "prep-curve", level=3)[1:])
    doc.add(Heading("Cards"), *cards_report.deck_blocks(crd, folder, "prep-cards", level=3)[1:])

    doc.add(Heading("Missions"))
    if xexp is not None:
        doc.add(*missions_report.experiment_blocks(xexp, folder, "prep-missions-experiment", level=3)[1:])
    else:
        doc.add(Para(f"**No missions experiment of this list yet.** Which three missions to bring is tried on common "
                     f"random numbers by `mythos experiment missions DECKFILE --field \"…\" [--missions all] "
                     f"--db {rd.db}` (or give --missions-run ID)."))
    doc.add(Heading("Its own missions in play (observed)", 3),
            Para("Each player brings 3 missions and 2 of them, drawn at random, are played; so each mission is "
                 "in play in some games and not in others, and the difference is that mission's worth to this "
                 "deck (weighted by the field's shares)."))
    img = plots.rate_bars([f"{m['mission']} {m['name']}" for m in missions],
                          [m["in_play"]["win_rate"] for m in missions], [m["in_play"]["ci95"][0] for m in missions],
                          [m["in_play"]["ci95"][1] for m in missions], [m["in_play"]["games"] for m in missions],
                          folder / f"prep-missions-{slug(deck)}.png", f"{deck}: win rate with each of its missions in play",
                          reference=fr.rate, reference_label=f"against the field {pct(fr.rate, 0)}")
    doc.add(Image(img, "missions"),
            Table("Missions", ["mission", "in play: n", "win rate", "95% CI", "not in play: n", "win rate",
                               "difference", "95% CI (3 at once)", "verdict"],
                  [[f"{m['mission']} {m['name']}", str(m["in_play"]["games"]), pct(m["in_play"]["win_rate"]),
                    interval(*m["in_play"]["ci95"]), str(m["not_in_play"]["games"]),
                    pct(m["not_in_play"]["win_rate"]), pp(m["difference"]["diff"]),
                    interval(*m["difference"].get("ci_family", m["difference"]["ci95"]), points=True),
                    m["difference"]["verdict"] or f"fewer than {min_games} games"] for m in missions],
                  note=(f"A mission is judged with at least {min_games} games with it and without it; the "
                        "intervals hold for the judged missions at once (Bonferroni). Better/worse: the "
                        "interval is clear of 0; unclear: it spans 0, so no pick is advised.")))
    ex_table = None
    if examples:
        found, ex_table = examples_table(rd, [(deck, m["opponent"]) for m in matchups])  # losses only: no mirror
        doc.add(Heading("Games worth watching"), ex_table)
    files = write_document(doc, folder, stem, html=True)

    numbers = {
        "deck": deck, "field": field, "min_games": min_games,
        "vs_field": fr.to_dict(), "overall": overall.to_dict(), "matchups": matchups, "mirror": mirror,
        "best_matchups": matchups[:3], "worst_matchups": matchups[::-1][:3],
        "mulligan": mulligan_report.public(mull),
        "curve": {k: v for k, v in cur.items() if not k.startswith("_")},
        "cards": {k: v for k, v in crd.items() if not k.startswith("_")},
        "missions": missions, "going_first_and_second": order, "weights": weights,
        "mulligan_experiment": {k: v for k, v in mexp.items() if k != "per_hand"} if mexp else None,
        "missions_experiment": xexp,
    }
    term = Table(f"{deck}: matchups against the field", ["opponent", "share", "games", "win rate", "95% CI"],
                 [[m["opponent"] + (" (mirror)" if m.get("mirror") else ""), pct(m["field_share"], 0),
                   str(m["games"]), pct(m["win_rate"]), interval(*m["ci95"])] for m in shown])
    tables = [term]
    if examples:
        numbers["examples"] = found
        tables.append(ex_table)
    return ReportResult("prep", rd.run_id, str(rd.db), numbers, files, summary, tables, list(rd.warnings))


def _summary(deck, field, fr, matchups, mull, cur, crd, missions, min_games, order=None, mexp=None,
             xexp=None) -> list[str]:
    lines = [f"Against this field {deck} is expected to win **{pct(fr.rate)}** of its games "
             f"(95% interval {interval(fr.low, fr.high)})."]
    if matchups:
        fav = sum(1 for m in matchups if m["ci95"][0] > 0.5)
        unfav = sum(1 for m in matchups if m["ci95"][1] < 0.5)
        best, worst = matchups[0], matchups[-1]
        if len(matchups) == 1:
            verdict = "clearly favoured" if fav else "clearly behind" if unfav else "not clearly ahead or behind"
            lines.append(f"Only matchup: {best['opponent']} ({pct(best['win_rate'], 0)}, "
                         f"{interval(*best['ci95'])}, n={best['games']}): {verdict} (interval against 50%).")
        else:
            lines.append(f"Best matchup: {best['opponent']} ({pct(best['win_rate'], 0)}, n={best['games']}); worst: "
                         f"{worst['opponent']} ({pct(worst['win_rate'], 0)}, n={worst['games']}). Clearly favoured in "
                         f"{fav} and clearly behind in {unfav} of {len(matchups)} matchups (intervals clear of 50%).")
    if order is not None and order["first"]["games"] and order["second"]["games"]:
        d = order["first_minus_second"]
        lines.append(f"Going first it wins {pct(order['first']['win_rate'], 0)}, going second "
                     f"{pct(order['second']['win_rate'], 0)} ({pp(d['diff'], 0)}, {interval(*d['ci95'], points=True)}).")
    if mexp is not None:
        lines.append("Mulligan (by experiment): " + mexp["recommendation"]["short"] + ".")
    else:
        lines.append("Mulligan: no experiment yet (`mythos experiment mulligan`); what the player did: "
                     + mull["recommendation"]["short"] + ".")
    if xexp is not None and xexp.get("confirmation"):
        c = xexp["confirmation"]
        lines.append(("Missions (by experiment): bring " + ", ".join(xexp["best"]) if xexp["advice"] == "bring" else
                      "Missions (by experiment): keep your own; the best raced, " + ", ".join(xexp["best"]) + ",")
                     + f" {pp(c['gain'])} ({interval(*c['ci'], points=True)}, corrected for {xexp['tried']} tried).")
    ch = cur["cheap_odds"]["by_round"]
    wasted = sum(c["wasted"]["mean"] or 0 for c in cur["chakra"])
    worst_round = max(cur["chakra"], key=lambda c: c["wasted"]["mean"] or 0) if cur["chakra"] else None
    line = (f"Curve: average cost {num(cur['average_cost'])}; a card of cost ≤ {CHEAP_COST} is in hand by round 1 in "
            f"{pct(ch[1]['simulated'], 0)} of games (exact odds {pct(ch[1]['exact'], 0)}); "
            f"{num(wasted, 1)} chakra a game is left unspent")
    if worst_round is not None:
        line += f", most in round {worst_round['round']} ({num(worst_round['wasted']['mean'], 1)})"
    lines.append(line + ".")
    lines.append("Cards: " + cards_report.card_verdicts(crd, min_games))
    judged = [m for m in missions if m["enough_games"]]
    if not judged:
        lines.append(f"Missions in play (observed): too few games to judge a mission (fewer than {min_games} with it or without it); "
                     "simulate more games.")
    else:
        good = [m for m in judged if m["difference"]["verdict"] == "better"]
        bad = [m for m in judged if m["difference"]["verdict"] == "worse"]

        def one(m):
            return (f"{m['name']} ({pct(m['in_play']['win_rate'], 0)} with it vs "
                    f"{pct(m['not_in_play']['win_rate'], 0)} without, {pp(m['difference']['diff'], 0)}, "
                    f"{interval(*m['difference']['ci_family'], points=True)})")
        if good or bad:
            lines.append("Missions in play (observed): " + "; ".join(
                ([f"clearly better with {', '.join(one(m) for m in good)}"] if good else [])
                + ([f"clearly worse with {', '.join(one(m) for m in bad)}: consider another mission"] if bad else []))
                + ".")
        else:
            lines.append(f"Missions in play (observed): no mission clearly changes the win rate ({len(judged)} judged, every interval "
                         "spans 0): keep the ones you like.")
    return lines


__all__ = ["mission_picks", "report"]
