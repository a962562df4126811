"""``mythos report curve``: the cost curve, the odds of a play of each cost, chakra per round.

The exact odds are hypergeometric: by round r a player has seen the 5-card opening hand
plus 2 draws a round, 5 + 2r cards of the shuffled deck, and holds at least one card of cost
c with probability 1 − C(N−K, 5+2r) / C(N, 5+2r). The simulated odds count the same thing
in the stored games (the kept hand and every card drawn by round r); they differ from the
exact ones where the mulligan rule keeps some hands and not others, or effects draw cards.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import polars as pl

from mythos_cli._core import DRAW_PER_ROUND, HAND_SIZE, ROUNDS
from mythos_cli.reports import plots
from mythos_cli.reports.base import ReportResult, run_folder, run_preamble, write_document
from mythos_cli.reports.data import CHEAP_COST, ReportError, RunData, card_facts, games_by_opponent, pick_decks, slug
from mythos_cli.reports.doc import Document, Heading, Image, Para, Table, num, pct
from mythos_cli.reports.stats import at_least_one, mean_interval_from_moments, weighted, wilson


def cards_seen(round_no: int, hand: int = HAND_SIZE, per_round: int = DRAW_PER_ROUND) -> int:
    """Cards seen by the action phase of ``round_no`` (0: the opening hand alone)."""
    return hand + per_round * round_no


def exact_odds(costs: list[int], rounds: int = ROUNDS, hand: int = HAND_SIZE,
               per_round: int = DRAW_PER_ROUND) -> dict[int, list[float]]:
    """For each cost in the deck: P(at least one card of that cost seen) for rounds 0..rounds."""
    size = len(costs)
    copies = Counter(costs)
    return {c: [at_least_one(size, copies[c], cards_seen(r, hand, per_round)) for r in range(rounds + 1)]
            for c in sorted(copies)}


def analyse_deck(rd: RunData, deck: str, facts: pl.DataFrame, seen: tuple[pl.DataFrame, pl.DataFrame],
                 rounds: pl.DataFrame, field: dict[str, float] | None = None) -> dict:
    """``seen`` and ``rounds`` are ``load``'s counts, aggregated in DuckDB (no row per event);
    ``field``: the simulated odds and the chakra weighted by the field's shares of the opponents
    (``load(…, by_opponent=True)``)."""
    totals = games_by_opponent(rd, deck)
    if field is not None:
        field = {o: w for o, w in field.items() if totals.get(o, (0, 0))[0] > 0}
    cost_of = dict(facts.select("card", "cost").iter_rows())
    costs = [cost_of.get(c) or 0 for c in rd.decks[deck].cards]
    copies = Counter(costs)
    curve = {c: copies.get(c, 0) for c in range(0, max(costs) + 1)} if costs else {}
    exact = exact_odds(costs)
    n = rd.seats.filter(pl.col("deck") == deck).height
    by_cost, any_cheap = (f.filter(pl.col("deck") == deck) for f in seen)

    def seen_by(frame: pl.DataFrame, r: int) -> int:  # game-seats that had seen it by round r
        return int(frame.filter(pl.col("first") <= r)["n"].sum())

    def share_seen(frame: pl.DataFrame, r: int):  # the same as a rate, weighted by the field when given
        if field is None or "opponent" not in frame.columns:
            return wilson(seen_by(frame, r), n)
        by = {str(o): int(k) for o, k in frame.filter(pl.col("first") <= r).group_by(pl.col("opponent").cast(pl.String))
              .agg(pl.col("n").sum()).iter_rows()}
        return weighted([(field[o], by.get(o, 0), totals[o][0]) for o in field])

    odds = []
    for c, probs in exact.items():
        fc = by_cost.filter(pl.col("cost") == c)
        by_round = []
        for r, p in enumerate(probs):
            sim = share_seen(fc, r)
            by_round.append({"round": r, "cards_seen": cards_seen(r), "exact": p, "simulated": sim.rate if n else None,
                             "simulated_ci95": [sim.low, sim.high] if n else [None, None], "games": n})
        odds.append({"cost": c, "copies": copies[c], "by_round": by_round})

    # the same for any cheap play (cost ≤ CHEAP_COST), the first thing an opening hand needs
    cheap_copies = sum(v for c, v in copies.items() if c <= CHEAP_COST)
    cheap = []
    for r in range(ROUNDS + 1):
        sim = share_seen(any_cheap, r)
        cheap.append({"round": r, "cards_seen": cards_seen(r), "exact": at_least_one(len(costs), cheap_copies,
                                                                                     cards_seen(r)),
                      "simulated": sim.rate if n else None, "simulated_ci95": [sim.low, sim.high] if n else [None, None],
                      "games": n})

    rr = rounds.filter(pl.col("deck") == deck)
    chakra = []
    for r in range(1, ROUNDS + 1):
        part = rr.filter(pl.col("round") == r)
        if part.height == 0 or not part["n"].sum():
            continue
        row = {k: int(part[k].sum()) for k in part.columns if k not in ("deck", "round", "opponent")}
        count = row["n"]
        g, s, w = (mean_interval_from_moments(count, row[f"{col}_1"], row[f"{col}_2"])
                   for col in ("chakra_gained", "chakra_spent", "chakra_left"))
        if field is not None and "opponent" in part.columns:
            g, s, w = (_weighted_mean(part, col, field) for col in ("chakra_gained", "chakra_spent", "chakra_left"))
        gained_total = row["chakra_gained_1"]
        chakra.append({"round": r, "gained": g.to_dict(), "spent": s.to_dict(), "wasted": w.to_dict(),
                       "wasted_share": (row["chakra_left_1"] / gained_total) if gained_total else None,
                       "cards_drawn": row["cards_drawn_1"] / count,
                       "characters_in_play": row["characters_in_play_1"] / count})
    return {"deck": deck, "deck_size": len(costs), "games": n, "average_cost": sum(costs) / len(costs) if costs else None,
            "curve": {str(c): v for c, v in curve.items()}, "odds": odds,
            "cheap_odds": {"max_cost": CHEAP_COST, "copies": cheap_copies, "by_round": cheap}, "chakra": chakra,
            "_curve": curve}


def _weighted_mean(part: pl.DataFrame, col: str, field: dict[str, float]):
    """A per-round mean weighted by the field: Σ share·mean over its decks, a normal interval."""
    import math

    from mythos_cli.reports.stats import Mean

    parts = []
    for r in part.iter_rows(named=True):
        o, n = str(r["opponent"]), r["n"]
        if o in field and n:
            m = r[f"{col}_1"] / n
            var = max(0.0, r[f"{col}_2"] / n - m * m) * n / max(1, n - 1)
            parts.append((field[o], m, var / n, n))
    total = sum(w for w, *_ in parts)
    if not total:
        return Mean(math.nan, math.nan, math.nan, 0)
    mean = sum(w * m for w, m, _, _ in parts) / total
    half = 1.959963984540054 * math.sqrt(sum((w / total) ** 2 * v for w, _, v, _ in parts))
    return Mean(mean, mean - half, mean + half, sum(n for *_, n in parts))


def load(rd: RunData, decks: list[str], by_opponent: bool = False
         ) -> tuple[pl.DataFrame, tuple[pl.DataFrame, pl.DataFrame], pl.DataFrame]:
    """The card facts, the first-seen counts and the per-round chakra moments of these decks."""
    facts = card_facts(rd)
    seen = rd.first_seen(decks, by_opponent)
    if seen[0].height == 0:
        raise ReportError(f"run {rd.run_id} stored no card events for {', '.join(decks)}",
                          "simulate again with this version of mythos (card events are recorded)", code=1)
    return facts, seen, rd.round_moments(decks, by_opponent)


def deck_blocks(a: dict, folder: Path, prefix: str, level: int = 2) -> list:
    deck = a["deck"]
    img = plots.curve_panel(deck, a["_curve"], a["odds"], a["chakra"], folder / f"{prefix}-{slug(deck)}.png")
    odds_rows = []
    for o in a["odds"]:
        row = [str(o["cost"]), str(o["copies"])]
        for p in o["by_round"]:
            row.append(f"{pct(p['exact'], 0)} / {pct(p['simulated'], 0)}")
        odds_rows.append(row)
    ch = a["cheap_odds"]
    odds_rows.append([f"≤ {ch['max_cost']} (any)", str(ch["copies"])]
                     + [f"{pct(p['exact'], 0)} / {pct(p['simulated'], 0)}" for p in ch["by_round"]])
    rounds = ["opening"] + [f"round {r}" for r in range(1, ROUNDS + 1)]
    chakra_rows = [[f"round {c['round']}", num(c["gained"]["mean"], 1), num(c["spent"]["mean"], 1),
                    num(c["wasted"]["mean"], 1), pct(c["wasted_share"], 0),
                    _span(c["wasted"]["ci95"]),
                    num(c["characters_in_play"], 1)] for c in a["chakra"]]
    avg = a["average_cost"]
    return [
        Heading(deck, level),
        Para(f"{a['deck_size']} cards, average cost {num(avg)}; {a['games']} games in this run."),
        Image(img, f"{deck} curve"),
        Table("Cost curve", ["cost"] + [str(c) for c in a["_curve"]],
              [["copies"] + [str(v) for v in a["_curve"].values()]]),
        Table("Odds of having held a card of each cost by then: exact / simulated", ["cost", "copies"] + rounds, odds_rows,
              left=1, note=(f"Exact: hypergeometric, {HAND_SIZE} cards in the opening hand plus "
                            f"{DRAW_PER_ROUND} a round, no mulligan. Simulated: share of this deck's games with a "
                            "card of that cost in the kept hand or drawn by then (mulligans and draw effects "
                            "included).")),
        Table("Chakra per round (means per player)", ["round", "gained", "spent", "wasted", "wasted share",
                                                      "wasted 95% CI", "characters in play"], chakra_rows,
              note="Wasted: chakra left when the round ends (it does not carry over)."),
    ]


def report(rd: RunData, out: Path, *, deck: str | None = None) -> ReportResult:
    decks = pick_decks(rd, deck)
    facts, seen, rounds = load(rd, decks)
    folder = run_folder(out, rd.run_id)
    doc = Document(f"Curves and chakra — run {rd.run_id}")
    doc.add(*run_preamble(rd))
    analyses = []
    for d in decks:
        a = analyse_deck(rd, d, facts, seen, rounds)
        analyses.append(a)
        doc.add(*deck_blocks(a, folder, "curve"))
    files = write_document(doc, folder, "curve" if not deck else f"curve-{slug(decks[0])}")
    term = Table(f"Curves: chance of a card of cost ≤ {CHEAP_COST} by round 1 (exact / simulated), chakra wasted",
                 ["deck", "avg cost", f"cost ≤ {CHEAP_COST} by round 1", "wasted r1", "wasted r2", "wasted r3", "wasted r4"],
                 [[a["deck"], num(a["average_cost"]), _cheap_by_round1(a)]
                  + [num(c["wasted"]["mean"], 1) for c in a["chakra"]] for a in analyses])
    summary = [f"{a['deck']}: average cost {num(a['average_cost'])}; a card of cost ≤ {CHEAP_COST} by round 1: "
               f"{_cheap_by_round1(a)} (exact / simulated); chakra wasted per round "
               + ", ".join(num(c["wasted"]["mean"], 1) for c in a["chakra"]) for a in analyses]
    numbers = {"hand_size": HAND_SIZE, "draws_per_round": DRAW_PER_ROUND,
               "decks": [{k: v for k, v in a.items() if not k.startswith("_")} for a in analyses]}
    return ReportResult("curve", rd.run_id, str(rd.db), numbers, files, summary, [term], list(rd.warnings))


def _span(ci: list) -> str:
    return "—" if ci[0] is None else f"{ci[0]:.2f}–{ci[1]:.2f}"


def _cheap_by_round1(a: dict) -> str:
    p = a["cheap_odds"]["by_round"][1]
    return f"{pct(p['exact'], 0)} / {pct(p['simulated'], 0)}"


__all__ = ["analyse_deck", "cards_seen", "deck_blocks", "exact_odds", "load", "report"]
