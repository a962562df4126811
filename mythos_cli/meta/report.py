"""The metagame as a Markdown + self-contained HTML page (``reports/<meta id>/meta.*``), the
terminal summary, and ``--json``: one set of figures for the three.
"""

from __future__ import annotations

from pathlib import Path

from mythos_cli.experiment.matrix import BLOCK
from mythos_cli.meta import plots
from mythos_cli.meta.posterior import DESCRIPTION
from mythos_cli.meta.run import MetaOutcome
from mythos_cli.reports.base import ReportResult, _clean, run_folder, write_document
from mythos_cli.reports.doc import Bullets, Document, Heading, Image, Para, Table, interval, pct, register_literals
from mythos_cli.reports.players import policy_label

STOPPED = {"games": "every pair has the games asked for", "precision": "the answers are within the precision asked",
           "budget": "the budget was spent before the answers reached the precision asked",
           "rounds": "the round cap (100 rounds) was reached"}


def _ci(d: dict) -> str:
    return interval(*d["ci95"])


def _r(d: dict | None) -> str:
    return "—" if d is None or d.get("win_rate") is None else f"{pct(d['win_rate'])} ({_ci(d)})"


def facts(o: MetaOutcome) -> dict:
    """The run's facts every page and summary names."""
    j = o.to_json()
    per = j["games"]["per_pair"]
    return {"player": policy_label(o.policy), "spec": o.policy, "lists": len(o.field.decks),
            "games": j["games"]["total"], "played": o.matrix.played, "reused": o.matrix.reused,
            "per_pair": per, "draws": o.answers["posterior"]["draws"], "stopped": o.matrix.stopped}


def header(o: MetaOutcome) -> list[str]:
    f = facts(o)
    per = f["per_pair"]
    span = o.played_between
    when = f", games stored {span[0]} to {span[1] or 'now'}" if span[0] else ""
    rounded = -(-o.games // BLOCK) * BLOCK if o.games is not None else None
    plan = (f"{o.games} games a pair" + (f" (played in blocks of {BLOCK}: {rounded})" if rounded != o.games else "")
            if o.games is not None else
            f"--precision ±{100 * o.precision:.1f} points, budget {o.matrix.budget:,} games"
            if o.matrix.budget is not None else f"--precision ±{100 * o.precision:.1f} points")
    stop = STOPPED.get(f["stopped"], f["stopped"])
    if f["stopped"] == "budget" and o.games is not None:  # --games with --budget: no precision was asked
        stop = "the budget was spent before every pair had the games asked for"
    return [
        f"**Player: {f['player']}**, for both sides of every game; every figure is a list with this player.",
        f"Games: {f['games']:,} ({f['played']:,} played now, {f['reused']:,} reused), {per['min']:,} to "
        f"{per['max']:,} a pair (median {per['median']:,}); {plan}; stopped: {stop}.",
        f"Engine mythos {o.engine}, card catalog `{o.catalog}`; analysed {o.analysed_at}{when}. "
        f"Intervals: 95%, from {f['draws']:,} posterior draws of the matrix ({DESCRIPTION}).",
    ]


def summary_lines(o: MetaOutcome) -> list[str]:
    a = o.answers
    lines = []
    br = a["best_response"]
    lines.append(f"Best response to the field: **{br['list']}** (the best in {pct(br['chance'], 0)} of the draws).")
    lines.append("Tier 1 (not clearly worse than the best against the field): " + ", ".join(a["tiers"]["1"]) + ".")
    by = {x["name"]: x for x in a["lists"]}
    mix = ", ".join(f"{k} {pct(v, 0)} ({interval(*by[k]['nash']['ci95'])})" for k, v in a["nash"]["mix"].items())
    lines.append(f"Nash mix: {mix}; its value is 50%, as in every symmetric game.")
    d = a["drift"]
    if d["verdict"] == "cycles":
        turn = " → ".join(d["lead_turns"][:5]) + (" → …" if len(d["lead_turns"]) > 5 else "")
        lines.append(f"Drift: the field **cycles** over {d['generations']} generations (the lead passes {turn}); "
                     f"it cycles in {pct(d['cycle_chance'], 0)} of the draws.")
    elif d["verdict"] == "settles":
        top = [k for k, v in d["final"].items() if v > 0.01]
        lines.append(f"Drift: the field settles within {d['generations']} generations on " + ", ".join(
            f"{k} {pct(d['final'][k], 0)}" for k in top[:4])
            + f" (cycles in {pct(d['cycle_chance'], 0)} of the draws).")
    else:
        lead = max(d["final"], key=d["final"].get)
        lines.append(f"Drift: still moving after {d['generations']} generations, {lead} leading at "
                     f"{pct(d['final'][lead], 0)} (cycles in {pct(d['cycle_chance'], 0)} of the draws).")
    mine = a.get("mine")
    sw = a["swiss"]
    if mine:
        s = mine["swiss"]
        lines.append(f"Your list {mine['list']}: Bo3 against the field {_r(mine['vs_field']['bo3'])}; top "
                     f"{sw['top']} of {mine['players']} after {sw['rounds']} rounds "
                     f"{pct(s['top_cut']['chance'], 0)} ({_ci(s['top_cut'])}); a winning record "
                     f"{pct(s['winning_record']['chance'], 0)} ({_ci(s['winning_record'])}); "
                     f"{s['match_points']['mean']:.1f} match points "
                     f"({s['match_points']['ci95'][0]:.1f}–{s['match_points']['ci95'][1]:.1f}).")
    if a["not_played"]:
        lines.append(f"**Warning:** {len(a['not_played'])} pair(s) have no game (the budget ran out first): "
                     "their cells are 50% with the widest interval.")
    return lines


def _lists_table(o: MetaOutcome) -> Table:
    a = o.answers
    by = {x["name"]: x for x in a["lists"]}
    rows = []
    for name in a["order"]:
        x = by[name]
        rows.append([name, pct(x["share"], 0), pct(x["vs_field"]["win_rate"]), _ci(x["vs_field"]), str(x["tier"]),
                     pct(x["best_response_chance"], 0), pct(x["nash"]["weight"], 0), interval(*x["nash"]["ci95"]),
                     pct(x["nash"]["support_frequency"], 0), _r(x["match_vs_field"]["bo3"]),
                     _r({"win_rate": x["swiss"].get("top_cut", {}).get("chance"),
                         "ci95": x["swiss"].get("top_cut", {}).get("ci95", [None, None])})
                     if x["swiss"].get("players") else "not in the field",
                     f"{100 * x['polarity']['sd']:.1f} ({100 * x['polarity']['ci95'][0]:.1f}–"
                     f"{100 * x['polarity']['ci95'][1]:.1f})"])
    return Table("The lists, strongest against the field first", [
        "list", "share", "vs field", "95% CI", "tier", "best response", "Nash", "Nash 95% CI", "in the support",
        "Bo3 vs field", f"top {a['swiss']['top']}", "polarity (sd, points)"], rows,
        note="vs field: the expected game win rate against the declared shares (a list meets itself at 50%). "
             "Best response: the share of posterior draws in which the list is the best against the field. "
             "In the support: how often the Nash mix of a draw gives the list weight.")


def _matrix_table(o: MetaOutcome) -> Table:
    a = o.answers
    names = a["order"]
    cell = {(c["list"], c["opponent"]): c for c in a["matrix"]}
    rows = []
    for r in names:
        row = [r]
        for c in names:
            if r == c:
                row.append("50 (mirror)")
                continue
            x = cell[(r, c)]
            if not x["played"]:
                row.append("not played")
            else:
                row.append(f"{100 * x['win_rate']:.0f} ({100 * x['ci95'][0]:.0f}–{100 * x['ci95'][1]:.0f})"
                           + ("" if x["clear"] else " ?") + f" n={x['games']}")
        rows.append(row)
    return Table("Game win rate of the row list against the column list, % (95% interval); '?': not clear of 50%",
                 ["list"] + names, rows)


def build(o: MetaOutcome, out_dir: Path | str, db: str) -> ReportResult:
    a = o.answers
    register_literals(o.field.names + [o.meta_id, db, o.field.source])
    folder = run_folder(out_dir, o.meta_id)
    by = {x["name"]: x for x in a["lists"]}
    order = a["order"]
    sw = a["swiss"]
    doc = Document(f"Metagame: {len(order)} lists")
    doc.add(Para(f"Field `{o.field.source}`; meta `{o.meta_id}` in `{db}`."), *[Para(t) for t in header(o)])
    doc.add(Heading("Summary"), Bullets(summary_lines(o)))

    doc.add(Heading("The lists against the field"), _lists_table(o))
    xs = [by[n] for n in order]
    doc.add(Image(plots.interval_bars(
        order, [x["vs_field"]["win_rate"] for x in xs], [x["vs_field"]["ci95"][0] for x in xs],
        [x["vs_field"]["ci95"][1] for x in xs], folder / "tiers.png", "Tiers (T1, T2 …): win rate against the field",
        "expected game win rate against the field (95% interval)", colors=plots.tier_colors([x["tier"] for x in xs]),
        reference=0.5, ref_label="50%", notes=[f"T{x['tier']} {100 * x['vs_field']['win_rate']:.1f}%" for x in xs],
        xlim=(0, 1.1)), "tier chart"))
    doc.add(Para("Tier 1 holds every list not clearly worse than the strongest against the field; the lists left make "
                 "tier 2 the same way, and so on (the paired posterior difference above z standard deviations, z "
                 "Bonferroni-corrected over the lists compared at each step)."))

    doc.add(Heading("The matrix"))
    cells = {(c["list"], c["opponent"]): (c["win_rate"] or 0.5, c["ci95"][0], c["ci95"][1], c["games"])
             for c in a["matrix"]}
    doc.add(Image(plots.heatmap(order, cells, folder / "matrix.png",
                                "Game win rate of the row list, ordered by strength"), "matrix heatmap"))
    doc.add(Para("Coloured: the interval is clear of 50%. Grey with '?': played, but not clear. Hatched: not played "
                 "(the budget ran out first). The diagonal is the mirror: 50% by construction, never played. A "
                 "matchup's win rate is the mean of its two seat rates (with and without the first Edge, a coin toss "
                 "in game 1), so it may differ a little from wins / games when one side had the Edge more often; "
                 "`--json` has both seats' counts."))
    doc.add(_matrix_table(o))

    doc.add(Heading("Nash equilibrium"))
    doc.add(Para("The mix of lists no opponent can beat on average: the equilibrium of the symmetric zero-sum game "
                 "whose payoff is the game win rate, solved as a linear program (SciPy's HiGHS) on the observed "
                 "matrix and on every posterior draw. " + a["nash"]["note"][0].upper() + a["nash"]["note"][1:]))
    doc.add(Image(plots.interval_bars(
        order, [x["nash"]["weight"] for x in xs], [x["nash"]["ci95"][0] for x in xs],
        [x["nash"]["ci95"][1] for x in xs], folder / "nash.png",
        "Nash mix: weight (95% interval), and [how often in the support]", "weight in the equilibrium mix",
        notes=[f"{100 * x['nash']['weight']:.0f}% [{100 * x['nash']['support_frequency']:.0f}%]" for x in xs],
        xlim=(0, 1.2)), "Nash mix"))

    doc.add(Heading("Match odds"))
    note = a["match"]["note"]
    doc.add(Para(f"Best of 1, 3 and 5 from the game win rates by who goes first. {note[0].upper()}{note[1:]}"))
    doc.add(Table("Each list against the field, by match length", ["list", "best of 1", "best of 3", "best of 5"],
                  [[n, _r(by[n]["match_vs_field"]["bo1"]), _r(by[n]["match_vs_field"]["bo3"]),
                    _r(by[n]["match_vs_field"]["bo5"])] for n in order]))
    mine = a.get("mine")
    if mine:
        doc.add(Table(f"{mine['list']} against each list", ["opponent", "share", "best of 1", "best of 3",
                                                              "best of 5"],
                      [[r["opponent"], pct(r["share"], 0), _r(r["bo1"]), _r(r["bo3"]), _r(r["bo5"])]
                       for r in mine["match"] if r["opponent"] != mine["list"]]))

    doc.add(Heading("Swiss tournament"))
    doc.add(Para(f"{sw['tournaments']:,} tournaments of {sw['players']} players ({sw['field']}), {sw['rounds']} "
                 f"rounds of best-of-3 matches paired {sw['pairing']}; the top {sw['top']} by match points, then "
                 "opponents' match-win percentage, then at random, make the cut. Each group of "
                 f"{sw['tournaments_per_draw']} tournaments plays on one posterior draw of the matrix "
                 f"({sw['posterior_draws']:,} draws), so the intervals carry the matrix's uncertainty and the "
                 "simulation's."))
    present = [n for n in order if by[n]["swiss"].get("players")]
    ys = [by[n]["swiss"]["top_cut"] for n in present]
    doc.add(Image(plots.interval_bars(
        present, [y["chance"] for y in ys], [y["ci95"][0] for y in ys], [y["ci95"][1] for y in ys],
        folder / "topcut.png", f"Chance of making the top {sw['top']}", "chance for a player of the list",
        reference=sw["top"] / sw["players"], ref_label="a random player"), "top-cut odds"))
    doc.add(Table(f"Each list in the tournament (a random player makes the top {sw['top']} "
                  f"{pct(sw['top'] / sw['players'], 1)} of the time)",
                  ["list", "players", f"top {sw['top']}", "share of the cut", "match points",
                   f"{sw['rounds']}-0", "winning record"],
                  [[n, pct(by[n]["swiss"]["share_of_players"], 1), _r({"win_rate": by[n]["swiss"]["top_cut"]["chance"],
                                                                      "ci95": by[n]["swiss"]["top_cut"]["ci95"]}),
                    pct(by[n]["swiss"]["share_of_cut"], 1),
                    f"{by[n]['swiss']['match_points']['mean']:.1f} ({by[n]['swiss']['match_points']['ci95'][0]:.1f}–"
                    f"{by[n]['swiss']['match_points']['ci95'][1]:.1f})",
                    _r({"win_rate": by[n]["swiss"]["record"][-1]["chance"],
                        "ci95": by[n]["swiss"]["record"][-1]["ci95"]}),
                    _r({"win_rate": by[n]["swiss"]["winning_record"]["chance"],
                        "ci95": by[n]["swiss"]["winning_record"]["ci95"]})]
                   for n in present]))
    records = [f"{r['wins']}-{r['losses']}" for r in by[present[0]]["swiss"]["record"]] if present else []
    doc.add(Table("The final record of a player of each list, % (95% interval)", ["list", *records],
                  [[n, *(f"{100 * r['chance']:.1f} ({100 * r['ci95'][0]:.1f}–{100 * r['ci95'][1]:.1f})"
                         for r in by[n]["swiss"]["record"])] for n in present]))
    if mine:
        s = mine["swiss"]
        doc.add(Heading(f"Your list: {mine['list']}", 3))
        doc.add(Para(f"One player brings {mine['list']} to each tournament of {mine['players']} players (the others "
                     f"as above): top {sw['top']} {pct(s['top_cut']['chance'])} ({_ci(s['top_cut'])}), "
                     f"{s['match_points']['mean']:.1f} match points expected."))
        rec = s["record"]
        doc.add(Image(plots.record(sw["rounds"], [r["chance"] for r in rec], [r["ci95"][0] for r in rec],
                                   [r["ci95"][1] for r in rec], folder / "record.png",
                                   f"{mine['list']}: final record after {sw['rounds']} rounds"), "record distribution"))
        doc.add(Table("Final record", ["record", "chance", "95% CI"],
                      [[f"{r['wins']}-{r['losses']}", pct(r["chance"]), interval(*r["ci95"])] for r in rec], left=1))

    d = a["drift"]
    doc.add(Heading("Drift"))
    import numpy as np

    verdict = {"cycles": "it cycles", "settles": "it settles", "moving": "it is still moving"}[d["verdict"]]
    doc.add(Para(f"Replicator dynamics from the declared shares: each generation, a list's share grows with its win "
                 f"rate against the field of the moment. Over {d['generations']} generations {verdict}"
                 + (f" (the lead passes {' → '.join(d['lead_turns'][:6])})" if d["verdict"] == "cycles" else "")
                 + f"; it cycles in {pct(d['cycle_chance'], 0)} of the posterior draws. A list with no share stays at "
                 "none (the best response and the Nash mix tell which list could enter)."))
    doc.add(Image(plots.drift([x["name"] for x in a["lists"]], np.array(d["path"]), folder / "drift.png",
                              f"Drift of the field: {verdict}"), "drift plot"))
    doc.add(Table("Shares after the drift", ["list", "declared", "after", "95% CI"],
                  [[n, pct(by[n]["share"], 0), pct(by[n]["drift"]["final_share"], 0), interval(*by[n]["drift"]["ci95"])]
                   for n in order]))

    doc.add(Heading("Matchups"))
    doc.add(Table("Each list's best and worst matchup, and its polarity (the spread of its matchups)",
                  ["list", "best matchup", "worst matchup", "best: win rate", "worst: win rate",
                   "polarity (sd, points)"],
                  [[n, by[n]["best_matchup"]["opponent"], by[n]["worst_matchup"]["opponent"], _r(by[n]["best_matchup"]),
                    _r(by[n]["worst_matchup"]),
                    f"{100 * by[n]['polarity']['sd']:.1f} ({100 * by[n]['polarity']['ci95'][0]:.1f}–"
                    f"{100 * by[n]['polarity']['ci95'][1]:.1f})"] for n in order], left=3))

    runs = o.matrix.matrix.runs
    doc.add(Heading("How these figures were made"))
    doc.add(Bullets([
        "The player's whole spec (what `--policy` takes to play the same games) is `player` in `--json`.",
        "Every pair of different lists played both seats under the one player above; the games are ordinary runs "
        f"({', '.join(f'`{r}`' for r in runs[:6])}{' …' if len(runs) > 6 else ''}), which `mythos report` and "
        "`mythos db` read.",
        "A pair's games stored by any run (the same two lists by content, the same player, this engine and card "
        "catalog) are reused, never replayed: run the same command again and it continues where it stopped.",
        f"The answers: {DESCRIPTION}; {a['posterior']['draws']:,} draws (seed {a['posterior']['seed']}). Point "
        "figures on the observed matrix, intervals the central 95% of the draws.",
        ("--precision: each round plays the pairs that most narrow the open answers (each list's win rate against "
         "the field and against the Nash mix), until every one is within the precision or the budget is spent. "
         + (f"Widest half-widths now: {100 * o.precision_check['widest_field_half_width']:.1f} points against the "
            f"field, {100 * o.precision_check['widest_nash_half_width']:.1f} against the Nash mix."
            if o.precision_check else "")) if o.precision is not None else
        f"--games {o.games}: every pair to {o.games} games (in blocks of 10, 5 with each list in seat 0).",
    ]))
    files = write_document(doc, folder, "meta", html=True)
    numbers = o.to_json()
    return ReportResult("meta", o.meta_id, db, _clean(numbers), files, summary_lines(o))


__all__ = ["build", "facts", "header", "summary_lines"]
