"""``mythos report cards``: 17lands-style metrics per card version, per deck.

For each game of a deck and each card version in its list:

* **in opening hand** (OH): a copy is in the kept hand;
* **drawn later** (GD): a copy is drawn in some round, none was in the kept hand;
* **in hand** (GIH): OH or GD, i.e. the card was seen;
* **never seen** (GNS): neither;
* **improvement when drawn** (IWD): win rate in hand minus win rate never seen.

OH and GD do not overlap, so GIH = OH + GD and GIH + GNS = every game of the deck. Win rates
get Wilson intervals, IWD a Newcomb interval. A rate on fewer than ``min_games`` games is
shown but flagged, and only cards with enough games both in hand and never seen are ranked.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import polars as pl

from mythos_cli.reports import plots
from mythos_cli.reports.base import ReportResult, run_folder, run_preamble, write_document
from mythos_cli.reports.data import MIN_GAMES, ReportError, RunData, card_facts, games_by_opponent, pick_decks, slug
from mythos_cli.reports.doc import Document, Heading, Image, Para, Table, interval, num, pct, pp
from mythos_cli.reports.stats import Rate, difference, family, verdict, weighted, wilson

TOP = 8  # cards shown at each end of the plot


def card_table(rd: RunData, deck: str, counts: pl.DataFrame) -> pl.DataFrame:
    """One row per card of the deck's list: OH, GD, GIH and GNS game-seats and their wins.

    ``counts`` (``RunData.card_counts``, aggregated in DuckDB) holds the kept-hand and
    drawn-later seats of the cards seen; a card never seen has none, and every seat of the deck
    where a card was not in hand counts as never seen."""
    seats = rd.seats.filter(pl.col("deck") == deck)
    games, wins = seats.height, int(seats["won"].sum())
    cards = pl.DataFrame({"card": sorted(set(rd.decks[deck].cards))})
    seen = counts.filter(pl.col("deck") == deck).select("card", "oh_n", "oh_w", "gd_n", "gd_w")
    zero = [pl.col(c).fill_null(0) for c in ("oh_n", "oh_w", "gd_n", "gd_w")]
    return (cards.join(seen.with_columns(pl.col("card").cast(pl.String)), on="card", how="left").with_columns(zero)
            .with_columns(pl.lit(games).alias("games"), pl.lit(wins).alias("wins"),
                          (pl.col("oh_n") + pl.col("gd_n")).alias("gih_n"), (pl.col("oh_w") + pl.col("gd_w")).alias("gih_w"))
            .with_columns((pl.col("games") - pl.col("gih_n")).alias("gns_n"),
                          (pl.col("wins") - pl.col("gih_w")).alias("gns_w"))
            .sort("card"))


def _weighted_rows(rd: RunData, deck: str, counts: pl.DataFrame, played: pl.DataFrame,
                   field: dict[str, float]) -> dict[str, dict[str, Rate]]:
    """Per card, its OH, GD, GIH, GNS and PL rates weighted by the field (``counts`` and ``played``
    per deck, opponent and card)."""
    totals = games_by_opponent(rd, deck)
    per: dict[str, dict[str, tuple]] = {}
    for r in counts.filter(pl.col("deck") == deck).iter_rows(named=True):
        per.setdefault(str(r["card"]), {})[str(r["opponent"])] = (r["oh_n"], r["oh_w"], r["gd_n"], r["gd_w"])
    pl_per: dict[str, dict[str, tuple]] = {}
    for r in played.filter(pl.col("deck") == deck).iter_rows(named=True):
        pl_per.setdefault(str(r["card"]), {})[str(r["opponent"])] = (r["n"], r["w"])
    out = {}
    for card in sorted(set(rd.decks[deck].cards)):
        rows = {o: per.get(card, {}).get(o, (0, 0, 0, 0)) for o in totals if o in field}
        oh = [(field[o], w, n) for o, (n, w, _, _) in rows.items()]
        gd = [(field[o], w, n) for o, (_, _, n, w) in rows.items()]
        gih = [(field[o], a + c, b + d) for o, (b, a, d, c) in rows.items()]
        gns = [(field[o], totals[o][1] - (a + c), totals[o][0] - (b + d)) for o, (b, a, d, c) in rows.items()]
        pld = [(field[o], w, n) for o, (n, w) in pl_per.get(card, {}).items() if o in field]
        out[card] = {"oh": weighted(oh), "gd": weighted(gd), "gih": weighted(gih), "gns": weighted(gns),
                     "pl": weighted(pld)}
    return out


def analyse_deck(rd: RunData, deck: str, counts: pl.DataFrame, names: dict[str, str],
                 min_games: int = MIN_GAMES, field: dict[str, float] | None = None) -> dict:
    """Every card of the deck's list; ``field``: every rate weighted by the field's shares of the
    opponents (``counts`` then per opponent: ``load(…, by_opponent=True)``)."""
    if field is not None:
        totals = games_by_opponent(rd, deck)
        field = {o: w for o, w in field.items() if o in totals and w > 0}
        counts_all = counts.group_by("deck", "card").agg(pl.col(c).sum() for c in ("oh_n", "oh_w", "gd_n", "gd_w"))
        played_by_opp = rd.played_counts([deck], by_opponent=True)
        wrows = _weighted_rows(rd, deck, counts, played_by_opp, field)
        counts = counts_all
    agg = card_table(rd, deck, counts)
    copies = Counter(rd.decks[deck].cards)
    seats = rd.seats.filter(pl.col("deck") == deck)
    deck_rate = wilson(int(seats["won"].sum()), seats.height)
    if field is not None:
        deck_rate = weighted([(field[o], w, n) for o, (n, w) in games_by_opponent(rd, deck).items() if o in field])
    # played (face up, hidden, as an upgrade or an attachment; a reveal is the same card again): win rate
    # when the card was played, and the round of its first play
    # (aggregated in DuckDB: a row per card, however many games)
    played = rd.played_counts([deck]).filter(pl.col("deck") == deck)
    played_by = {str(r["card"]): {"n": r["n"], "w": r["w"], "avg_round": r["rounds"] / r["n"] if r["n"] else None}
                 for r in played.iter_rows(named=True)}
    rows, pairs = [], []
    for r in agg.iter_rows(named=True):
        oh, gd = wilson(r["oh_w"], r["oh_n"]), wilson(r["gd_w"], r["gd_n"])
        gih, gns = wilson(r["gih_w"], r["gih_n"]), wilson(r["gns_w"], r["gns_n"])
        pl_row = played_by.get(r["card"], {})
        pl_rate = wilson(pl_row.get("w", 0), pl_row.get("n", 0))
        if field is not None:
            wr = wrows[r["card"]]
            oh, gd, gih, gns, pl_rate = wr["oh"], wr["gd"], wr["gih"], wr["gns"], wr["pl"]
        pairs.append((gih, gns))
        rows.append({
            "card": r["card"], "name": names.get(r["card"], r["card"]), "copies": copies[r["card"]],
            "games_in_deck": r["games"], "deck_win_rate": r["wins"] / r["games"] if r["games"] else None,
            "opening_hand": oh.to_dict(), "drawn_later": gd.to_dict(), "in_hand": gih.to_dict(),
            "never_seen": gns.to_dict(), "improvement_when_drawn": difference(gih, gns).to_dict(),
            "enough_games": gih.games >= min_games and gns.games >= min_games,
            "played": pl_rate.to_dict(),
            "average_round_played": pl_row.get("avg_round"),
        })
    # the improvement when drawn is judged for every ranked card at once (Bonferroni over them)
    judged = [i for i, r in enumerate(rows) if r["enough_games"]]
    fam = family([(pairs[i][0], pairs[i][1]) for i in judged])
    for i, d in zip(judged, fam):
        rows[i]["improvement_when_drawn"].update(ci_family=[d.low, d.high], family_size=len(judged),
                                                 verdict=verdict(d.low, d.high))
    for r in rows:
        r["improvement_when_drawn"].setdefault("verdict", None)
    ranked = sorted((r for r in rows if r["enough_games"]), key=lambda r: -r["in_hand"]["win_rate"])
    if len(ranked) <= 2 * TOP:
        top, bottom = ranked, []
    else:
        top, bottom = ranked[:TOP], ranked[-TOP:]
    return {"deck": deck, "games": seats.height, "win_rate": deck_rate.to_dict(), "min_games": min_games,
            "field": field,
            "cards": sorted(rows, key=lambda r: (not r["enough_games"], -(r["in_hand"]["win_rate"] or 0))),
            "ranked": [r["card"] for r in ranked], "_top": top, "_bottom": bottom}


def card_verdicts(a: dict, min_games: int) -> str:
    """Which cards clearly pull their weight or drag, judged for all ranked cards at once."""
    ranked = [c for c in a["cards"] if c["enough_games"]]
    if not ranked:
        return f"no card has {min_games} games in hand and not seen yet; simulate more games."
    strong = sorted((c for c in ranked if c["improvement_when_drawn"]["verdict"] == "better"),
                    key=lambda c: -c["improvement_when_drawn"]["diff"])
    weak = sorted((c for c in ranked if c["improvement_when_drawn"]["verdict"] == "worse"),
                  key=lambda c: c["improvement_when_drawn"]["diff"])
    s = ", ".join(f"{c['name']} ({pp(c['improvement_when_drawn']['diff'], 0)})" for c in strong[:3]) or "none clearly"
    w = ", ".join(f"{c['name']} ({pp(c['improvement_when_drawn']['diff'], 0)})" for c in weak[:3]) or "none clearly"
    return (f"pulling their weight (wins more when drawn): {s}; dragging: {w} — judged for the "
            f"{len(ranked)} cards with enough games at once (Bonferroni).")


def _rate(m: dict, min_games: int) -> str:
    text = pct(m["win_rate"])
    return text + "*" if 0 < m["games"] < min_games else text


def deck_blocks(a: dict, folder: Path, prefix: str, level: int = 2) -> list:
    deck, mg = a["deck"], a["min_games"]
    blocks: list = [Heading(deck, level),
                    Para(f"{a['games']} games, deck win rate {pct(a['win_rate']['win_rate'])} "
                         f"({interval(*a['win_rate']['ci95'])}).")]
    if a["_top"]:
        img = plots.cards_panel(deck, a["_top"], a["_bottom"], a["win_rate"]["win_rate"],
                                folder / f"{prefix}-{slug(deck)}.png", mg)
        blocks.append(Image(img, f"{deck} best and worst cards"))
    else:
        blocks.append(Para(f"No card has {mg} games both in hand and never seen yet: simulate more games "
                           "(or lower --min-games) for a ranking."))
    rows = []
    for c in a["cards"]:
        iwd = c["improvement_when_drawn"]
        rows.append([f"{c['card']} {c['name']}", str(c["copies"]),
                     str(c["opening_hand"]["games"]), _rate(c["opening_hand"], mg),
                     str(c["drawn_later"]["games"]), _rate(c["drawn_later"], mg),
                     str(c["in_hand"]["games"]), _rate(c["in_hand"], mg), interval(*c["in_hand"]["ci95"]),
                     str(c["never_seen"]["games"]), _rate(c["never_seen"], mg),
                     str(c["played"]["games"]), _rate(c["played"], mg), num(c["average_round_played"], 1),
                     pp(iwd["diff"]), interval(*iwd.get("ci_family", iwd["ci95"]), points=True)])
    blocks.append(Table("Cards (sorted by win rate in hand; cards short of games last)",
                        ["card", "copies", "OH n", "OH WR", "GD n", "GD WR", "GIH n", "GIH WR", "GIH 95% CI",
                         "GNS n", "GNS WR", "PL n", "PL WR", "avg round", "IWD", "IWD CI (all cards)"], rows,
                        note=(f"OH: in the opening (kept) hand. GD: drawn later, not in the opening hand. GIH: in "
                              f"hand (OH or GD). GNS: never seen. PL: played (face up, hidden, as an upgrade or "
                              f"attachment); avg round: the round of its first play. IWD: GIH WR − GNS WR, with a 95% "
                              f"interval for all the ranked cards at once (Bonferroni over them; per card where a card "
                              f"is short of games). * fewer than {mg} games. "
                              f"Every card was in the deck in all {a['games']} games.")))
    return blocks


def report(rd: RunData, out: Path, *, deck: str | None = None, min_games: int = MIN_GAMES) -> ReportResult:
    decks = pick_decks(rd, deck)
    names = dict(card_facts(rd).select("card", "name").iter_rows())
    counts = load(rd, decks)
    if counts.height == 0:
        raise ReportError(f"run {rd.run_id} stored no card events for {', '.join(decks)}",
                          "simulate again with this version of mythos (card events are recorded)", code=1)
    folder = run_folder(out, rd.run_id)
    doc = Document(f"Card performance — run {rd.run_id}")
    doc.add(*run_preamble(rd))
    analyses = []
    for d in decks:
        a = analyse_deck(rd, d, counts, names, min_games)
        analyses.append(a)
        doc.add(*deck_blocks(a, folder, "cards"))
    files = write_document(doc, folder, "cards" if not deck else f"cards-{slug(decks[0])}")
    term_rows = []
    for a in analyses:
        by = {c["card"]: c for c in a["cards"]}
        ranked = [by[c] for c in a["ranked"]]
        picks = ranked if len(ranked) <= 6 else ranked[:3] + ranked[-3:]
        for c in picks:
            term_rows.append([a["deck"], f"{c['card']} {c['name']}", pct(c["in_hand"]["win_rate"]),
                              str(c["in_hand"]["games"]), pp(c["improvement_when_drawn"]["diff"])])
    term = Table(f"Cards: the best and worst by win rate in hand (at least {min_games} games in hand and not seen)",
                 ["deck", "card", "GIH WR", "GIH n", "IWD"], term_rows, left=2)
    summary = []
    for a in analyses:
        summary.append(f"{a['deck']}: " + card_verdicts(a, min_games))
    numbers = {"min_games": min_games,
               "decks": [{k: v for k, v in a.items() if not k.startswith("_")} for a in analyses]}
    return ReportResult("cards", rd.run_id, str(rd.db), numbers, files, summary, [term], list(rd.warnings))


def load(rd: RunData, decks: list[str], by_opponent: bool = False) -> pl.DataFrame:
    """The kept-hand and drawn-later counts of these decks' cards (``RunData.card_counts``)."""
    return rd.card_counts(decks, by_opponent)


__all__ = ["analyse_deck", "card_table", "card_verdicts", "deck_blocks", "load", "report"]
