"""``mythos report compare A B``: list A against list B, side by side.

Two decks of one run, or one deck in two runs (the list before and after a change, or under
two players), against the opponents both met: each matchup's win rate for A and for B and the
difference A − B with Newcomb's interval, the same over all those games, and what differs
between the two lists card by card.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import polars as pl

from mythos_cli.catalog import default_catalog
from mythos_cli.reports import plots
from mythos_cli.reports.base import ReportResult, run_folder, run_header, write_document
from mythos_cli.reports.data import ReportError, RunData, name_order, parse_field, resolve_deck, slug
from mythos_cli.reports.doc import Bullets, Document, Heading, Image, Para, Table, interval, pct, pp
from mythos_cli.reports.players import players_line, policy_label
from mythos_cli.reports.stats import difference, family, verdict, weighted, wilson


def _rates(rd: RunData, deck: str) -> dict[str, tuple[int, int]]:
    agg = (rd.seats.filter((pl.col("deck") == deck) & (pl.col("opponent") != deck))
           .group_by("opponent").agg(pl.len().alias("n"), pl.col("won").sum().alias("w")))
    return {r["opponent"]: (r["w"], r["n"]) for r in agg.iter_rows(named=True)}


def report(rd_a: RunData, rd_b: RunData, out: Path, deck_a: str, deck_b: str,
           field: str | None = None) -> ReportResult:
    """``field``: the common opponents in these shares ("deck=share,…", decks of run A), else equal."""
    a, b = resolve_deck(rd_a, deck_a), resolve_deck(rd_b, deck_b)
    same_run = rd_a.run_id == rd_b.run_id and rd_a.db == rd_b.db
    if same_run and a == b:
        raise ReportError(f"both sides are {a} of run {rd_a.run_id}", "compare two decks, or give --run-b RUN")
    ra, rb = _rates(rd_a, a), _rates(rd_b, b)
    common = name_order((set(ra) & set(rb)) - {a, b})
    if not common:
        raise ReportError(f"{a} and {b} have no opponent in common to compare them on",
                          f"{a} met: {', '.join(sorted(ra)) or 'nobody'}; {b} met: {', '.join(sorted(rb)) or 'nobody'}")
    label_a = a if not (a == b) else f"{a} ({rd_a.run_id})"
    label_b = b if not (a == b) else f"{b} ({rd_b.run_id})"
    pairs = [(wilson(*ra[o]), wilson(*rb[o])) for o in common]
    diffs = family(pairs)  # judged together: "clearly" holds for the whole table
    rows, matchups = [], []
    for o, (x, y), d in zip(common, pairs, diffs):
        v = verdict(d.low, d.high)
        matchups.append({"opponent": o, "a": x.to_dict(), "b": y.to_dict(),
                         "a_minus_b": {"diff": d.value, "ci95": [d.low, d.high], "family_size": len(common),
                                       "verdict": v}})
        rows.append([o, f"{pct(x.rate)} n={x.games}", f"{pct(y.rate)} n={y.games}", pp(d.value),
                     interval(d.low, d.high, points=True), {"better": f"{label_a} better", "worse": f"{label_b} better"}
                     .get(v, "unclear")])
    wa = sum(ra[o][0] for o in common), sum(ra[o][1] for o in common)
    wb = sum(rb[o][0] for o in common), sum(rb[o][1] for o in common)
    # the common opponents in the field's shares, or equal ones (a plain pool would weigh each
    # matchup by its games)
    if field and field.strip():
        given = parse_field(rd_a, field)
        shares = {o: given.get(o, 0.0) for o in common}
        left_out = [o for o in given if o not in common]
        if not any(shares.values()):
            raise ReportError("--field names none of the opponents both lists met",
                              "common opponents: " + ", ".join(common))
    else:
        shares, left_out = {o: 1.0 for o in common}, []
    rate_a = weighted([(shares[o], ra[o][0], ra[o][1]) for o in common])
    rate_b = weighted([(shares[o], rb[o][0], rb[o][1]) for o in common])
    ea, eb = rate_a.rate, rate_b.rate
    pooled = difference(rate_a, rate_b)
    total = sum(shares.values())
    shares = {o: w / total for o, w in shares.items()}
    cards = _list_diff(rd_a.decks[a].cards, rd_b.decks[b].cards)
    missions = (sorted(set(rd_a.decks[a].missions) - set(rd_b.decks[b].missions)),
                sorted(set(rd_b.decks[b].missions) - set(rd_a.decks[a].missions)))

    how = ("in the field's shares: " + ", ".join(f"{o} {100 * w:.0f}%" for o, w in shares.items())
           if field and field.strip() else "equal shares")
    summary = [f"{label_a} against {label_b} over {len(common)} common opponent(s), {how}: {pct(ea)} vs {pct(eb)}, "
               f"{pp(pooled.value)} ({interval(pooled.low, pooled.high, points=True)}), "
               + ("clearly apart." if verdict(pooled.low, pooled.high) != "unclear" else "not clearly apart.")
               + (f" Left out (not met by both): {', '.join(left_out)}." if left_out else "")]
    clear = [m for m in matchups if m["a_minus_b"]["verdict"] != "unclear"]
    if clear:
        summary.append("Clearly different matchups: " + "; ".join(
            f"{m['opponent']} {pp(m['a_minus_b']['diff'], 0)}" for m in clear) + ".")
    else:
        summary.append("No single matchup is clearly different (intervals for all of them at once).")
    if cards:
        summary.append("The lists differ by: " + ", ".join(c["text"] for c in cards[:8])
                       + (" …" if len(cards) > 8 else "") + ".")
    elif a == b or rd_a.decks[a].cards == rd_b.decks[b].cards:
        summary.append("The two lists hold the same cards.")
    summary.insert(0, players_line(rd_a) if same_run else
                   f"Players: {policy_label(rd_a.info.get('policy_a'))} for {label_a} (run {rd_a.run_id}), "
                   f"{policy_label(rd_b.info.get('policy_a'))} for {label_b} (run {rd_b.run_id}).")

    folder = run_folder(out, rd_a.run_id)
    stem = f"compare-{slug(label_a)}-vs-{slug(label_b)}"
    doc = Document(f"{label_a} against {label_b}")
    doc.add(run_header(rd_a))
    if not same_run:
        doc.add(run_header(rd_b))
    doc.add(Heading("Summary"), Bullets(summary))
    table = Table("Against each common opponent", ["opponent", label_a, label_b, "A − B", "95% CI (all at once)",
                                                   "verdict"], rows, left=1,
                  note="A − B: the first list's win rate minus the second's, Newcomb intervals for every matchup at "
                       "once (Bonferroni); unclear: the interval spans 0.")
    img = plots.diff_bars([m["opponent"] for m in matchups], [m["a_minus_b"]["diff"] for m in matchups],
                          [m["a_minus_b"]["ci95"][0] for m in matchups], [m["a_minus_b"]["ci95"][1] for m in matchups],
                          [m["a"]["games"] + m["b"]["games"] for m in matchups], folder / f"{stem}.png",
                          f"{label_a} minus {label_b}, per common opponent (intervals for all at once)",
                          xlabel=f"{label_a}'s win rate minus {label_b}'s (points), 95% interval",
                          sides=(f"{label_b} better", f"{label_a} better"))
    doc.add(table, Image(img, "difference per opponent"))
    if cards or missions[0] or missions[1]:
        doc.add(Heading("What differs between the lists"),
                Table("Cards", ["card", label_a, label_b], [[c["name"], str(c["a"]), str(c["b"])] for c in cards]))
        if missions[0] or missions[1]:
            doc.add(Para(f"Missions only in {label_a}: {', '.join(missions[0]) or 'none'}; only in {label_b}: "
                         f"{', '.join(missions[1]) or 'none'}."))
    files = write_document(doc, folder, stem, html=True)
    numbers = {"a": {"deck": a, "run": rd_a.run_id}, "b": {"deck": b, "run": rd_b.run_id},
               "common_opponents": common, "matchups": matchups,
               "equal_shares" if not (field and field.strip()) else "field_shares": {"a": ea, "b": eb},
               "shares": shares, "a_minus_b_in_shares": pooled.to_dict(),
               "all_games": {"a": wilson(*wa).to_dict(), "b": wilson(*wb).to_dict(), "a_minus_b": pooled.to_dict()},
               "cards": cards, "missions_only_in_a": missions[0], "missions_only_in_b": missions[1]}
    return ReportResult("compare", rd_a.run_id, str(rd_a.db), numbers, files, summary, [table],
                        list(rd_a.warnings) + ([w for w in rd_b.warnings if w not in rd_a.warnings]))


def _list_diff(a: tuple[str, ...], b: tuple[str, ...]) -> list[dict]:
    ca, cb = Counter(a), Counter(b)
    cat = default_catalog()
    out = []
    for card in sorted(set(ca) | set(cb)):
        if ca[card] != cb[card]:
            c = cat.by_id.get(card)
            name = f"{card} {c.name}" if c else card
            out.append({"card": card, "name": name, "a": ca[card], "b": cb[card],
                        "text": f"{name} {ca[card]}→{cb[card]}"})
    return out


__all__ = ["report"]
