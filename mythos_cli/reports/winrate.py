"""``mythos report winrate``: the matchup matrix, win rate against a field, and the splits.

A cell (A, B) counts every game between A and B whichever seat each sat in, so
(B, A) = 1 − (A, B) on the same games (and Wilson intervals mirror exactly). A deck against
itself wins 50% by construction (one of its two copies wins every mirror game); a mirror that
was not played is shown as not played, never as a 50% cell.

The field: ``--field`` as given (a deck named in it meets itself in that share, at 50%), or by
default the run's opponents in equal shares, each deck leaving itself out (it was not its own
opponent). A deck is rated against the field only when it played every other deck of it; a
field of one deck gives exactly that matchup's figures, so the two directions of a pair agree.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from mythos_cli.reports import plots
from mythos_cli.reports.base import ReportResult, examples_table, run_folder, run_preamble, write_document
from mythos_cli.reports.data import ReportError, RunData, parse_field, resolve_deck, slug
from mythos_cli.reports.doc import Bullets, Document, Heading, Image, Para, Table, interval, num, pct, pp
from mythos_cli.reports.stats import Rate, difference, field_interval, mean_interval, wilson


@dataclass(frozen=True)
class Cell:
    deck: str
    opponent: str
    rate: Rate
    ties_by_edge: int  # games of the pair decided by the Edge tie-break
    mirror: bool

    @property
    def played(self) -> bool:
        return self.rate.games > 0

    def to_dict(self) -> dict:
        d = {"deck": self.deck, "opponent": self.opponent, **self.rate.to_dict(), "ties_by_edge": self.ties_by_edge,
             "mirror": self.mirror}
        if self.mirror and self.played:
            d.update(win_rate=0.5, ci95=[0.5, 0.5], games=self.rate.games // 2, wins=None,
                     note="a deck against itself wins 50% by construction")
        elif self.mirror:
            d.update(win_rate=None, ci95=[None, None], games=0, wins=None, note="mirror not played")
        return d


def matrix(rd: RunData) -> dict[tuple[str, str], Cell]:
    """Every played pair (both orders) and every mirror, from the seats table."""
    agg = (rd.seats.group_by("deck", "opponent")
           .agg(pl.len().alias("n"), pl.col("won").sum().alias("wins"), pl.col("tiebreak").sum().alias("ties")))
    cells: dict[tuple[str, str], Cell] = {}
    for r in agg.iter_rows(named=True):
        a, b = r["deck"], r["opponent"]
        if a == b:
            games = r["n"] // 2  # a mirror game gives two seat rows and exactly one win
            cells[(a, b)] = Cell(a, b, Rate(games, 2 * games, 0.5, 0.5) if games else wilson(0, 0),
                                 r["ties"] // 2, True)
        else:
            cells[(a, b)] = Cell(a, b, wilson(r["wins"], r["n"]), r["ties"], False)
    for d in rd.deck_names:  # the diagonal exists whether or not mirrors were played
        cells.setdefault((d, d), Cell(d, d, wilson(0, 0), 0, True))
    return cells


@dataclass(frozen=True)
class FieldRate:
    deck: str
    rate: float | None
    low: float | None
    high: float | None
    games: int  # games against the field's decks
    missing: tuple[str, ...]  # field decks this deck never played
    field: dict = None  # the field this deck is rated against (without itself by default)

    @property
    def rated(self) -> bool:
        return self.rate is not None

    def to_dict(self) -> dict:
        return {"deck": self.deck, "win_rate": self.rate, "ci95": [self.low, self.high], "games": self.games,
                "missing_matchups": list(self.missing), "field": self.field or {}}


def deck_field(field: dict[str, float], deck: str, explicit: bool) -> dict[str, float]:
    """The field a deck is rated against: an explicit field as given, the default one without
    the deck itself (renormalised; empty when the deck is the whole default field)."""
    if explicit or deck not in field:
        return field
    rest = {d: w for d, w in field.items() if d != deck}
    total = sum(rest.values())
    return {d: w / total for d, w in rest.items()} if total > 0 else {}


def field_rate(cells: dict[tuple[str, str], Cell], deck: str, field: dict[str, float]) -> FieldRate:
    """Σ share·(win rate against that deck); a mirror share counts 50%.

    A field of one other deck gives that matchup's rate and Wilson interval exactly (so B
    against A is 1 − A against B, figure for figure); a mixed field gets the interval of the
    sum of the matchups' Jeffreys posteriors."""
    if not field:
        return FieldRate(deck, None, None, None, 0, (), {})
    parts, games, missing = [], 0, []
    constant = 0.0
    for opp, share in field.items():
        if opp == deck:
            constant += 0.5 * share
            cell = cells.get((deck, deck))
            games += cell.rate.games // 2 if cell else 0
            continue
        cell = cells.get((deck, opp))
        if cell is None or cell.rate.games == 0:
            missing.append(opp)
            continue
        parts.append((share, cell.rate.wins, cell.rate.games))
        games += cell.rate.games
    if missing:
        return FieldRate(deck, None, None, None, games, tuple(missing), field)
    if len(parts) == 1 and constant == 0.0:
        r = wilson(parts[0][1], parts[0][2])
        return FieldRate(deck, r.rate, r.low, r.high, games, (), field)
    point = constant + sum(w * k / n for w, k, n in parts)
    low, high = field_interval(parts, constant)
    return FieldRate(deck, point, low, high, games, (), field)


def _split(seats: pl.DataFrame, by: str) -> list[dict]:
    agg = (seats.group_by("deck", by).agg(pl.len().alias("n"), pl.col("won").sum().alias("wins"))
           .sort("deck", by))
    return [{"deck": r["deck"], by: r[by], **wilson(r["wins"], r["n"]).to_dict()} for r in agg.iter_rows(named=True)]


def by_matchup(seats: pl.DataFrame) -> list[dict]:
    """Per played pair (deck, opponent): going first (holding the Edge first) against second, the
    score margin and the game length, HSReplay-style."""
    out = []
    pairs = seats.filter(pl.col("deck") != pl.col("opponent")).partition_by("deck", "opponent", as_dict=True)
    for (deck, opp), part in sorted(pairs.items()):
        first, second = part.filter(pl.col("first_edge")), part.filter(~pl.col("first_edge"))
        f = wilson(int(first["won"].sum()), first.height)
        s = wilson(int(second["won"].sum()), second.height)
        margin = mean_interval((part["score"] - part["opponent_score"]).to_numpy())
        out.append({"deck": deck, "opponent": opp, "games": part.height, "first": f.to_dict(), "second": s.to_dict(),
                    "first_minus_second": difference(f, s).to_dict(), "score_margin": margin.to_dict(),
                    "rounds": float(part["rounds"].mean()), "decisions": float(part["decisions"].mean())})
    return out


def compute(rd: RunData, field: dict[str, float], explicit: bool = True) -> dict:
    cells = matrix(rd)
    rates = {d: field_rate(cells, d, deck_field(field, d, explicit)) for d in rd.deck_names}
    order = sorted(rd.deck_names, key=lambda d: (rates[d].rate is None, -(rates[d].rate or 0), d.casefold(), d))
    seats = rd.seats
    first = seats.filter(pl.col("first_edge"))
    overall_first = wilson(first["won"].sum(), first.height)
    ties = int(rd.games["tiebreak_by_edge"].fill_null(False).sum())
    tb = (seats.group_by("deck")
          .agg(pl.len().alias("games"),
               (pl.col("tiebreak") & pl.col("won")).sum().alias("won_by_edge"),
               (pl.col("tiebreak") & ~pl.col("won")).sum().alias("lost_by_edge"))
          .sort("deck"))
    pvp = (seats.filter(pl.col("policy") != pl.col("opponent_policy"))
           .group_by("policy", "opponent_policy").agg(pl.len().alias("n"), pl.col("won").sum().alias("wins"))
           .sort("policy", "opponent_policy"))
    return {
        "order": order,
        "cells": cells,
        "field_rates": rates,
        "by_first_edge": _split(seats, "first_edge"),
        "by_matchup": by_matchup(seats),
        "first_edge_holder": overall_first,
        "by_policy": _split(seats, "policy"),
        "policy_vs_policy": [{"policy": r["policy"], "opponent_policy": r["opponent_policy"],
                              **wilson(r["wins"], r["n"]).to_dict()} for r in pvp.iter_rows(named=True)],
        "tiebreaks": {"games": rd.games.height, "decided_by_edge": ties,
                      "share": ties / rd.games.height if rd.games.height else math.nan,
                      "by_deck": tb.to_dicts()},
    }


def _cell_text(c: Cell | None) -> str:
    if c is None or c.rate.games == 0:
        return "—"
    if c.mirror:
        return "50"
    return f"{100 * c.rate.rate:.0f}"  # no % sign: ten decks fit in 100 columns


def report(rd: RunData, out: Path, *, field_spec: str | None = None, deck: str | None = None,
           examples: bool = False, players: tuple | None = None) -> ReportResult:
    field = parse_field(rd, field_spec)
    explicit = bool(field_spec and field_spec.strip())
    focus = resolve_deck(rd, deck) if deck else None
    res = compute(rd, field, explicit)
    order, cells, rates = res["order"], res["cells"], res["field_rates"]
    folder = run_folder(out, rd.run_id)
    doc = Document(f"Win rates — run {rd.run_id}")
    doc.add(*run_preamble(rd))
    if players and len(players[0]) > 1 or players and players[1]:
        doc.add(Heading("Players"), Bullets(players[0][1:]), *players[1])

    # the matrix
    heat = plots.matrix_heatmap(order, {k: (c.rate.rate, c.rate.low, c.rate.high,
                                            c.rate.games // 2 if c.mirror else c.rate.games, c.mirror)
                                        for k, c in cells.items()},
                                folder / "winrate-matrix.png",
                                f"Matchups, run {rd.run_id}: row deck's win rate, 95% Wilson interval, games")
    doc.add(Heading("Matchup matrix"),
            Para("Each cell is the row deck's win rate against the column deck over all their games, either "
                 "seat; the opposite cell is its complement on the same games. A deck against itself wins "
                 "50% by construction; a pair that was not played is grey. Intervals are Wilson 95%."),
            Image(heat, "matchup matrix"))
    rows = []
    for a in order:
        for b in order:
            c = cells.get((a, b))
            if c is None or a == b or (focus and focus not in (a, b)):
                continue
            rows.append([a, b, str(c.rate.games), str(c.rate.wins), pct(c.rate.rate),
                         interval(c.rate.low, c.rate.high), str(c.ties_by_edge)])
    doc.add(Table("Every matchup", ["deck", "opponent", "games", "wins", "win rate", "95% CI", "ties by Edge"],
                  rows, left=2))
    term_matrix = Table(f"run {rd.run_id}: row deck's win rate (%) against the column deck (— not played)",
                        ["deck"] + [f"{i + 1}" for i in range(len(order))],
                        [[f"{i + 1}. {a}"] + [_cell_text(cells.get((a, b))) for b in order]
                         for i, a in enumerate(order)])

    # the field
    shares = field_text(field)
    field_rows, unrated = [], []
    for d in order:
        if focus and d != focus:
            continue
        fr = rates[d]
        if not fr.rated and not focus:  # said once below the table, not a row each
            unrated.append(d)
            continue
        why = ("never played " + ", ".join(fr.missing) if fr.missing
               else "" if fr.rated else "it is the whole field")
        field_rows.append([d, pct(fr.rate), interval(fr.low, fr.high), str(fr.games)] + ([why] if focus else []))
    how = ("Field: " + shares + (". A deck named in it meets itself there at 50%." if explicit else
                                 " (the run's opponents, equal shares; each deck is rated against the others)."))
    if unrated:
        how += (f" Not rated: {', '.join(unrated)} (a deck is rated only when it played every other deck of the "
                "field).")
    field_table = Table("Win rate against the field", ["deck", "vs field", "95% CI", "games"]
                        + (["not rated because"] if focus else []), field_rows,
                        note=how + " Interval: a field of one deck is that matchup's Wilson interval; a mixed "
                                   "field, the weighted sum of the matchups' Jeffreys posteriors (Monte Carlo).")
    shown = [d for d in order if rates[d].rate is not None and (not focus or d == focus)]
    doc.add(Heading("Against the field"), field_table)
    if shown:
        bars = plots.rate_bars(shown, [rates[d].rate for d in shown], [rates[d].low for d in shown],
                               [rates[d].high for d in shown], [rates[d].games for d in shown],
                               folder / ("winrate-field.png" if not focus else f"winrate-field-{slug(focus)}.png"),
                               "Expected win rate against the field")
        doc.add(Image(bars, "win rate against the field"))

    # splits
    fe = res["first_edge_holder"]
    doc.add(Heading("Splits"),
            Para(f"The player who held the Edge first won {pct(fe.rate)} of the games "
                 f"({interval(fe.low, fe.high)}, n={fe.games})."))
    by_edge: dict[str, dict] = {}
    for r in res["by_first_edge"]:
        by_edge.setdefault(r["deck"], {})[r["first_edge"]] = r
    edge_rows = []
    for d in order:
        if focus and d != focus:
            continue
        e = by_edge.get(d, {})
        w, wo = e.get(True), e.get(False)
        edge_rows.append([d, *(_rate_cells(w)), *(_rate_cells(wo))])
    doc.add(Table("By first Edge holder", ["deck", "Edge first: n", "win rate", "95% CI", "no Edge first: n",
                                           "win rate", "95% CI"], edge_rows))
    doc.add(Table("Each matchup: going first or second, score margin, game length",
                  ["deck", "opponent", "games", "first: WR", "second: WR", "first − second", "95% CI",
                   "score margin", "95% CI", "decisions a game"],
                  [[m["deck"], m["opponent"], str(m["games"]), f"{pct(m['first']['win_rate'])} n={m['first']['games']}",
                    f"{pct(m['second']['win_rate'])} n={m['second']['games']}", pp(m["first_minus_second"]["diff"]),
                    interval(*m["first_minus_second"]["ci95"], points=True), num(m["score_margin"]["mean"], 1),
                    _span(m["score_margin"]["ci95"]), num(m["decisions"], 0)]
                   for m in res["by_matchup"] if not focus or m["deck"] == focus],
                  left=2, note="First: the deck held the Edge first, so it played first in round 1. Score margin: "
                               "its points minus the opponent's (t interval). Every game lasts 4 rounds; "
                               "decisions counts both players' choices, effect targets included."))
    pol_rows = [[r["deck"], r["policy"], *_rate_cells(r)] for r in res["by_policy"] if not focus or r["deck"] == focus]
    doc.add(Table("By policy (the deck's own)", ["deck", "policy", "games", "win rate", "95% CI"], pol_rows, left=2))
    if res["policy_vs_policy"]:
        doc.add(Table("Policy against policy", ["policy", "opponent policy", "games", "win rate", "95% CI"],
                      [[r["policy"], r["opponent_policy"], *_rate_cells(r)] for r in res["policy_vs_policy"]],
                      left=2))
    tb = res["tiebreaks"]
    doc.add(Para(f"Tie-breaks: {tb['decided_by_edge']} of {tb['games']} games ({pct(tb['share'])}) ended level on "
                 "points and went to the Edge holder."),
            Table("Games decided by the Edge tie-break", ["deck", "games", "won by Edge", "lost by Edge"],
                  [[r["deck"], str(r["games"]), str(r["won_by_edge"]), str(r["lost_by_edge"])]
                   for r in tb["by_deck"] if not focus or r["deck"] == focus]))
    files = write_document(doc, folder, "winrate" if not focus else f"winrate-{slug(focus)}")

    best = [d for d in order if rates[d].rated]
    summary = []
    if len(best) > 1 and not focus:
        summary.append(f"Best against the field: {best[0]} {pct(rates[best[0]].rate)} "
                       f"({interval(rates[best[0]].low, rates[best[0]].high)}); "
                       f"worst: {best[-1]} {pct(rates[best[-1]].rate)} "
                       f"({interval(rates[best[-1]].low, rates[best[-1]].high)}).")
    elif len(best) == 1 and not focus:
        fr = rates[best[0]]
        summary.append(f"{best[0]}: {pct(fr.rate)} against {field_text(fr.field)} "
                       f"({interval(fr.low, fr.high)}, n={fr.games}).")
    if focus:
        fr = rates[focus]
        if fr.rated:
            summary.insert(0, f"{focus}: {pct(fr.rate)} against {field_text(fr.field)} ({interval(fr.low, fr.high)}, "
                           f"n={fr.games}).")
        elif fr.missing:
            summary.insert(0, f"{focus}: not rated against the field: it never played {', '.join(fr.missing)}.")
        else:
            summary.insert(0, f"{focus}: not rated against the field: it is the whole field (give --field).")
    if unrated:
        summary.append(f"Not rated against the field: {', '.join(unrated)} (each met only some of its decks).")
    summary.append(f"First Edge holder won {pct(fe.rate)} ({interval(fe.low, fe.high)}); "
                   f"{tb['decided_by_edge']} games went to the Edge tie-break.")
    numbers = {
        "field": field,
        "decks": order,
        "matrix": [cells[(a, b)].to_dict() for a in order for b in order if (a, b) in cells],
        "vs_field": [rates[d].to_dict() for d in order],
        "first_edge_holder": fe.to_dict(),
        "by_first_edge": res["by_first_edge"],
        "by_matchup": res["by_matchup"],
        "by_policy": res["by_policy"],
        "policy_vs_policy": res["policy_vs_policy"],
        "tiebreaks": {k: v for k, v in tb.items()},
    }
    tables = [term_matrix, field_table]
    if examples:
        pairs = [(a, b) for a in order for b in order if a != b and cells.get((a, b)) and cells[(a, b)].played
                 and (not focus or a == focus)]
        numbers["examples"], table = examples_table(rd, pairs)
        tables.append(table)
    return ReportResult("winrate", rd.run_id, str(rd.db), numbers, files, summary, tables, list(rd.warnings))


def field_text(field: dict[str, float]) -> str:
    """``Sand Village 40%, Hidden Ambush 60%`` (one deck: its name alone)."""
    if len(field) == 1:
        return next(iter(field))
    return ", ".join(f"{d} {100 * s:.0f}%" for d, s in field.items()) or "no deck"


def _span(ci: list) -> str:
    return "—" if ci[0] is None else f"{ci[0]:+.1f} to {ci[1]:+.1f}"


def _rate_cells(r: dict | None) -> list[str]:
    if r is None:
        return ["0", "—", "—"]
    return [str(r["games"]), pct(r["win_rate"]), interval(*r["ci95"])]


def missing_field_error(rd: RunData, fr: FieldRate) -> ReportError:
    return ReportError(f"run {rd.run_id} has no games of {fr.deck} against {', '.join(fr.missing)}",
                       "drop them from --field, or simulate them: mythos simulate DECK --vs OPPONENT")


__all__ = ["Cell", "FieldRate", "compute", "deck_field", "field_rate", "field_text", "matrix", "missing_field_error",
           "report"]
