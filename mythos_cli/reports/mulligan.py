"""``mythos report mulligan``: keep vs mulligan, opening-hand features, and a keep rule.

How the keep rule is learned, and why it can be trusted only so far:

* A mulligan shuffles the hand back and draws 5 fresh random cards, with no second
  mulligan. So a game played after a mulligan is a game played from a *random* hand, and
  the win rate after a mulligan is the value of the mulligan option, whatever was thrown.
* A kept hand is random only when the keep did not depend on the hand: when the deck (with
  that policy) kept every hand, or mulliganed every hand. A rule such as ``heuristic``
  keeps a selected sample, and the hands it throws back are never played.
* The "random-hand games" are therefore every post-mulligan game, plus every game of a
  (deck, policy) that kept or mulliganed all its hands. Among them, for a rule R ("keep if
  ...") with P = the share of hands it keeps: keeping every hand is worth V, and following R
  is worth V + P(1−P)(W_keep − W_mull), where W are the win rates of the hands R keeps and
  throws back. That gain gets Newcomb's interval for W_keep − W_mull, with a Bonferroni
  correction over every rule tried (choosing the best of many rules flatters it).
* Assumption: a hand is worth the same whether it was dealt or drawn after a mulligan (the
  opponent may play differently against a mulligan; the policies here do not look).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from mythos_cli.experiment.mulligan import cost_bins
from mythos_cli.reports import plots
from mythos_cli.reports.base import ReportResult, run_folder, run_preamble, write_document
from mythos_cli.reports.data import CHEAP_COST, MIN_GAMES, ReportError, RunData, card_facts, pick_decks, slug
from mythos_cli.reports.doc import Document, Heading, Image, Para, Table, interval, pct, pp
from mythos_cli.reports.stats import ALPHA, Diff, Rate, difference, family, interval_at, verdict, weighted, wilson

# A rule that mulligans most hands is offered only when its gain is at least this much even at the
# low end of its (Bonferroni) interval: ours, a point of win rate, about what a player notices.
MOSTLY_MULLIGAN_GAIN = 0.01
SUGGEST = ("run `mythos simulate … --mulligan keep` (every dealt hand is played) or `--mulligan always` (every "
           "opening hand is a fresh random hand): then every game shows how a random hand plays, and the report "
           "can learn which hands to throw back")


def mulligan_rule(rd: RunData, policy: str) -> str:
    """The mulligan rule a policy played with in this run (the run's override, or its own), from
    the stored spec alone: a stored player is never made, let alone imported."""
    if rd.info.get("mulligan"):
        return str(rd.info["mulligan"])
    from mythos_cli.policies.players import mulligan_of

    return mulligan_of(policy)


def opening_hands(rd: RunData, decks: list[str]) -> pl.DataFrame:
    """Per (game, seat) of these decks: the kept hand's cards, cheap plays and total cost
    (aggregated in DuckDB: one row per hand, the cards as categoricals)."""
    hands = rd.opening_hands(decks)
    if hands.height == 0:
        raise ReportError(f"run {rd.run_id} stored no opening hands for {', '.join(decks)}",
                          "simulate again with this version of mythos (card events are recorded)", code=1)
    return hands


@dataclass
class Rule:
    text: str  # "keep hands with …"
    kind: str
    keep: Rate  # the hands it keeps (random-hand games)
    throw: Rate  # the hands it throws back
    keep_share: float
    gain: float
    low: float
    high: float
    value: int | str | None = None  # the rule's threshold or card

    def to_dict(self) -> dict:
        return {"rule": self.text, "kind": self.kind, "value": self.value, "kept_hands": self.keep.to_dict(),
                "mulliganed_hands": self.throw.to_dict(), "keeps_share": self.keep_share,
                "mulligans_share": 1 - self.keep_share, "gain": self.gain, "gain_ci": [self.low, self.high]}


def _rate_of(df: pl.DataFrame) -> Rate:
    """The rows' win rate; weighted by the field when the rows carry their opponent's ``share``."""
    if "share" not in df.columns:
        return wilson(int(df["won"].sum()), df.height)
    agg = df.group_by("opponent").agg(pl.col("share").first(), pl.len().alias("n"),
                                      pl.col("won").fill_null(False).sum().alias("w"))
    return weighted([(sh, w, n) for sh, n, w in agg.select("share", "n", "w").iter_rows()])


HOLDS = "holds:"  # the output name of a "hand holds this card" mask (see _card_splits)


def _holds(card: str) -> pl.Expr:
    return pl.col("hand").list.contains(card).alias(HOLDS + card)


def _card_splits(df: pl.DataFrame) -> dict[str, tuple[Rate, Rate]]:
    """``_split`` by every card at once: hands holding it against hands without it (one pass
    over the exploded hands; a copy held twice counts once)."""
    total, wins = df.height, int(df["won"].fill_null(False).sum())
    if "share" in df.columns:  # per card and opponent, then weighted by the field
        tot = {o: (sh, n, w) for o, sh, n, w in df.group_by("opponent").agg(
            pl.col("share").first(), pl.len().alias("n"), pl.col("won").fill_null(False).sum().alias("w"))
            .select("opponent", "share", "n", "w").iter_rows()}
        agg = (df.select(pl.col("hand").list.unique(), pl.col("won").fill_null(False), "opponent").explode("hand")
               .drop_nulls("hand").group_by("hand", "opponent").agg(pl.len().alias("n"), pl.col("won").sum().alias("w")))
        by: dict[str, dict] = {}
        for card, o, n, w in agg.select("hand", "opponent", "n", "w").iter_rows():
            by.setdefault(str(card), {})[o] = (int(n), int(w))
        return {card: (weighted([(tot[o][0], w, n) for o, (n, w) in per.items()]),
                       weighted([(sh, tw - per.get(o, (0, 0))[1], tn - per.get(o, (0, 0))[0])
                                 for o, (sh, tn, tw) in tot.items()])) for card, per in by.items()}
    agg = (df.select(pl.col("hand").list.unique(), pl.col("won").fill_null(False)).explode("hand")
           .drop_nulls("hand").group_by("hand").agg(pl.len().alias("n"), pl.col("won").sum().alias("w")))
    out = {}
    for card, n, w in agg.iter_rows():
        out[str(card)] = (wilson(int(w), int(n)), wilson(wins - int(w), total - int(n)))
    return out


def _split_by(df: pl.DataFrame, mask: pl.Expr, cards: dict[str, tuple[Rate, Rate]] | None) -> tuple[Rate, Rate]:
    name = mask.meta.output_name(raise_if_undetermined=False) or ""
    if cards is not None and name.startswith(HOLDS):
        return cards.get(name[len(HOLDS):]) or (wilson(0, 0), wilson(int(df["won"].fill_null(False).sum()), df.height))
    return _split(df, mask)


def _split(df: pl.DataFrame, mask: pl.Expr) -> tuple[Rate, Rate]:
    """The win rates of the rows where ``mask`` is true and where it is false, counted in one
    pass (a filter would copy a million hands for each of the rules and cards tried)."""
    yes, no = mask.fill_null(False), (~mask).fill_null(False)
    won = pl.col("won").fill_null(False)
    if "share" in df.columns:  # per opponent, weighted by the field
        agg = df.group_by("opponent").agg(pl.col("share").first(), yes.sum().alias("n1"), (yes & won).sum().alias("w1"),
                                          no.sum().alias("n0"), (no & won).sum().alias("w0"))
        rows = agg.select("share", "n1", "w1", "n0", "w0").rows()
        return weighted([(sh, w1, n1) for sh, n1, w1, _, _ in rows]), weighted([(sh, w0, n0) for sh, _, _, n0, w0 in rows])
    n1, w1, n0, w0 = df.select(yes.sum().alias("n1"), (yes & won).sum().alias("w1"), no.sum().alias("n0"),
                               (no & won).sum().alias("w0")).row(0)
    return wilson(int(w1), int(n1)), wilson(int(w0), int(n0))


def analyse_deck(rd: RunData, deck: str, hands: pl.DataFrame, names: dict[str, str],
                 min_games: int = MIN_GAMES, field: dict[str, float] | None = None) -> dict:
    """What the player did with its opening hands; ``field``: every rate weighted by the field's
    shares of the opponents (the games against decks outside it left out)."""
    seats = (rd.seats.filter(pl.col("deck") == deck)
             .select("game_no", "seat", "policy", "won", "mulligan", pl.col("opponent").cast(pl.String))
             .join(hands.select("game_no", "seat", "hand", "cheap", "total_cost"), on=["game_no", "seat"], how="inner"))
    if field is not None:
        seats = (seats.filter(pl.col("opponent").is_in(list(field)))
                 .with_columns(pl.col("opponent").replace_strict(field, default=0.0).alias("share")))
    if seats.height == 0:
        raise ReportError(f"deck {deck} has no games with an opening hand in run {rd.run_id}", code=1)
    mull_r, kept_r = _split(seats, pl.col("mulligan"))
    rules_by_policy = {}
    groups = seats.group_by("policy").agg(pl.col("mulligan").mean().alias("rate"), pl.len().alias("n"))
    for r in groups.iter_rows(named=True):
        rules_by_policy[r["policy"]] = {"mulligan_rule": mulligan_rule(rd, r["policy"]), "games": r["n"],
                                        "mulligan_share": r["rate"]}
    # random-hand games: after a mulligan always; kept hands only where the keep was hand-blind
    blind = [p for p, v in rules_by_policy.items() if v["mulligan_share"] in (0.0, 1.0)]
    random_hand = seats.filter(pl.col("mulligan") | pl.col("policy").is_in(blind))
    value = _rate_of(random_hand)

    cheap = [(k, _split(seats, pl.col("cheap") == k)[0]) for k in sorted(set(seats["cheap"].to_list()))]
    by_cheap = [{"cheap_plays": k, **r.to_dict(), "ci_family": f} for (k, r), f in zip(cheap, _family(cheap))]
    bins = cost_bins(seats["total_cost"].to_numpy())  # the experiment's bins: the same quartiles
    total = [((a, b, label), _split(seats, pl.col("total_cost").is_between(a, b))[0]) for a, b, label in bins]
    by_total = [{"total_cost": label, "from": a, "to": b, **r.to_dict(), "ci_family": f}
                for ((a, b, label), r), f in zip(total, _family(total))]

    # key cards: win rate with the card in the kept hand against without it
    key, pairs = [], []
    splits = _card_splits(seats)
    for card in sorted({c for c in rd.decks[deck].cards}):
        a, b = _split_by(seats, _holds(card), splits)
        d = difference(a, b)
        pairs.append((a, b))
        key.append({"card": card, "name": names.get(card, card), "in_opening_hand": a.to_dict(),
                    "not_in_opening_hand": b.to_dict(), "difference": d.to_dict(),
                    "enough_games": a.games >= min_games and b.games >= min_games})
    # judged all at once: a card "clearly" better in the opening hand holds for the whole list
    judged = [i for i, k in enumerate(key) if k["enough_games"]]
    for i, d in zip(judged, family([pairs[i] for i in judged])):
        key[i]["difference"].update(ci_family=[d.low, d.high], family_size=len(judged), verdict=verdict(d.low, d.high))
    ranked = sorted((k for k in key if k["enough_games"]), key=lambda k: -k["difference"]["diff"])
    key_cards = {"best": ranked[:3], "worst": [k for k in ranked[::-1][:3] if k not in ranked[:3]]}

    rec = recommend(random_hand, rd.decks[deck], names, min_games)
    return {
        "deck": deck, "games": seats.height, "kept": kept_r.to_dict(), "mulliganed": mull_r.to_dict(),
        "kept_minus_mulliganed": difference(kept_r, mull_r).to_dict(),
        "policies": rules_by_policy, "random_hand_games": random_hand.height,
        "random_hand_win_rate": value.to_dict(),
        "by_cheap_plays": by_cheap, "by_total_cost": by_total, "key_cards": key_cards,
        "all_cards_in_opening_hand": key,
        "recommendation": rec,
        "_rates": (kept_r, mull_r, value),
    }


def candidate_rules(hands: pl.DataFrame, deck_cards: tuple[str, ...], names: dict[str, str]) -> list[tuple]:
    """(text, kind, keep-mask expression) for every rule tried: cheap plays, total cost, key cards."""
    rules = []
    for k in range(1, 6):
        rules.append((f"keep hands with at least {k} card{'s' if k > 1 else ''} of cost ≤ {CHEAP_COST}",
                      "cheap_plays", pl.col("cheap") >= k, k))
    if hands.height:
        lo, hi = int(hands["total_cost"].min()), int(hands["total_cost"].max())
        for t in range(lo, hi):
            rules.append((f"keep hands whose 5 cards cost {t} or less in total", "total_cost",
                          pl.col("total_cost") <= t, t))
    for card in sorted(set(deck_cards)):
        rules.append((f"keep hands holding {card} {names.get(card, '')}".rstrip(), "key_card", _holds(card), card))
    return rules


def recommend(random_hand: pl.DataFrame, deck, names: dict[str, str], min_games: int) -> dict:
    n = random_hand.height
    value = _rate_of(random_hand)
    base = {"random_hand_games": n, "keep_all_win_rate": value.to_dict(), "rules_tested": 0, "candidates": []}
    if n < 2 * min_games:
        return {**base, "status": "insufficient",
                "short": (f"not enough random-hand games ({n}) to learn a keep rule; simulate with "
                          "`--mulligan keep` to learn one"),
                "text": (f"The data cannot support a keep rule: only {n} games of this deck were played from a "
                         f"random hand (at least {2 * min_games} are needed, {min_games} on each side of a rule). "
                         "A mulligan rule that decides from the hand keeps a selected sample, and the hands it "
                         f"throws back are never played. To learn one, {SUGGEST}.")}
    scored = []
    splits = _card_splits(random_hand)
    for text, kind, expr, v in candidate_rules(random_hand, deck.cards, names):
        keep, throw = _split_by(random_hand, expr, splits)
        if keep.games < min_games or throw.games < min_games:
            continue
        scored.append((text, kind, keep, throw, v))
    m = len(scored)
    rules = []
    for text, kind, keep, throw, v in scored:
        p = keep.games / n
        d: Diff = difference(keep, throw, alpha=ALPHA / m)  # Bonferroni: the best of m rules is chosen
        w = p * (1 - p)
        rules.append(Rule(text, kind, keep, throw, p, w * d.value, w * d.low, w * d.high, v))
    rules.sort(key=lambda r: -r.gain)
    base = {**base, "rules_tested": m, "candidates": [r.to_dict() for r in rules[:5]]}
    # a rule that throws most hands back changes most games: its gain must clear the noise of
    # treating every mulligan as a fresh random hand, not only 0
    sure = [r for r in rules if r.low > 0 and (r.keep_share >= 0.5 or r.low >= MOSTLY_MULLIGAN_GAIN)]
    noisy = [r for r in rules if r.low > 0 and r not in sure]
    if sure:
        best = sure[0]
        return {**base, "status": "rule", "rule": best.to_dict(),
                "short": f"{best.text} ({pp(best.gain)}, 95% CI {interval(best.low, best.high, points=True)} pp)",
                "text": (f"{best.text[0].upper()}{best.text[1:]}; mulligan the rest (about "
                         f"{pct(1 - best.keep_share, 0)} of hands). Estimated gain {pp(best.gain)} "
                         f"(95% CI {interval(best.low, best.high, points=True)} pp, Bonferroni over {m} rules), "
                         f"from {pct(value.rate)} keeping every hand to {pct(value.rate + best.gain)}.")}
    if not rules:
        return {**base, "status": "insufficient",
                "short": "no keep rule could be judged on these games; simulate with `--mulligan keep`",
                "text": (f"No rule could be judged: every rule left fewer than {min_games} random-hand games on "
                         f"one side. To learn one, {SUGGEST}.")}
    best = rules[0]
    if noisy:
        n0 = noisy[0]
        return {**base, "status": "keep_all", "rule": n0.to_dict(),
                "short": "keep every hand (the only rules that look better mulligan most hands for a gain inside "
                         "the noise)",
                "text": (f"Keep every hand. \"{n0.text}\" would mulligan {pct(1 - n0.keep_share, 0)} of hands for "
                         f"{pp(n0.gain)} (95% CI {interval(n0.low, n0.high, points=True)} pp): a rule that throws "
                         f"most hands back is offered only when its gain is at least "
                         f"{pp(MOSTLY_MULLIGAN_GAIN, 0)} at the low end of its interval.")}
    return {**base, "status": "keep_all", "rule": best.to_dict(),
            "short": f"keep every hand (no rule of the {m} tried is clearly better)",
            "text": (f"Keep every hand: no rule of the {m} tried beats it with confidence. The best candidate, "
                     f"\"{best.text}\", would gain {pp(best.gain)} (95% CI "
                     f"{interval(best.low, best.high, points=True)} pp), which is within the noise.")}


def _family(rows: list[tuple[object, Rate]]) -> list[list[float | None]]:
    """Intervals that hold for all the rows' rates at once (Bonferroni over the rows with games),
    weighted by the field as the rates are: what a panel's bar colours are judged by."""
    m = max(1, sum(1 for _, r in rows if r.games))
    return [[None if math.isnan(x) else x for x in interval_at(r, ALPHA / m)] for _, r in rows]


def _panel_series(rows: list[dict], label_key: str) -> dict:
    """A panel's bars; the colour intervals hold for all its bars at once (``ci_family``)."""
    nan = float("nan")
    return {"labels": [str(r[label_key]) for r in rows], "rates": [r["win_rate"] for r in rows],
            "lows": [r["ci95"][0] for r in rows], "highs": [r["ci95"][1] for r in rows],
            "ns": [r["games"] for r in rows],
            "family": ([nan if r["ci_family"][0] is None else r["ci_family"][0] for r in rows],
                       [nan if r["ci_family"][1] is None else r["ci_family"][1] for r in rows])}


def deck_blocks(a: dict, folder: Path, prefix: str, min_games: int, level: int = 2) -> list:
    """The Markdown/HTML blocks of one deck's mulligan analysis, with its plot."""
    deck = a["deck"]
    kept_r, mull_r, value = a["_rates"]
    img = plots.mulligan_panel(
        deck,
        {"labels": ["kept", "mulliganed"], "rates": [kept_r.rate, mull_r.rate], "lows": [kept_r.low, mull_r.low],
         "highs": [kept_r.high, mull_r.high], "ns": [kept_r.games, mull_r.games]},
        _panel_series(a["by_cheap_plays"], "cheap_plays"), _panel_series(a["by_total_cost"], "total_cost"),
        # the random-hand line only where it rests on enough games (as the keep rule does), with its interval
        (value.rate, value.low, value.high, value.games) if value.games >= 2 * min_games else None,
        folder / f"{prefix}-{slug(deck)}.png",
        note=None if value.games >= 2 * min_games else
        f"no random-hand line: {value.games} random-hand games (a line needs {2 * min_games})",
        rule=_drawn_rule(a))
    rules = ", ".join(f"{p}: {v['mulligan_rule']} ({pct(v['mulligan_share'], 0)} mulliganed)"
                      for p, v in a["policies"].items())
    d = a["kept_minus_mulliganed"]
    blocks = [
        Heading(deck, level),
        Para(f"**Advice:** {a['recommendation']['text']}"),
        Table("Kept vs mulliganed (observed)", ["opening", "games", "win rate", "95% CI"],
              [["kept the dealt hand", str(kept_r.games), pct(kept_r.rate), interval(kept_r.low, kept_r.high)],
               ["mulliganed", str(mull_r.games), pct(mull_r.rate), interval(mull_r.low, mull_r.high)],
               ["random hand (value of a mulligan)", str(value.games), pct(value.rate),
                interval(value.low, value.high)]],
              note=(f"Policy (mulligan rule): {rules}. Kept minus mulliganed: {pp(d['diff'])} "
                    f"({interval(*d['ci95'], points=True)} pp, Newcomb). The two groups got different hands, so "
                    "this difference is not the effect of mulliganing; the random-hand row is.")),
        Image(img, f"{deck} mulligan"),
        Table("Win rate by cheap plays in the kept hand", [f"cards of cost ≤ {CHEAP_COST}", "games", "win rate",
                                                           "95% CI"],
              [[str(r["cheap_plays"]), str(r["games"]), _flag(r, min_games), interval(*r["ci95"])]
               for r in a["by_cheap_plays"]]),
        Table("Win rate by total cost of the kept hand", ["total cost", "games", "win rate", "95% CI"],
              [[r["total_cost"], str(r["games"]), _flag(r, min_games), interval(*r["ci95"])]
               for r in a["by_total_cost"]]),
    ]
    kc = a["key_cards"]["best"] + a["key_cards"]["worst"]
    if kc:
        blocks.append(Table("Key cards in the opening hand (largest differences)",
                            ["card", "in hand: n", "win rate", "not in hand: n", "win rate", "difference", "95% CI",
                             "verdict"],
                            [[f"{k['card']} {k['name']}", str(k["in_opening_hand"]["games"]),
                              pct(k["in_opening_hand"]["win_rate"]), str(k["not_in_opening_hand"]["games"]),
                              pct(k["not_in_opening_hand"]["win_rate"]), pp(k["difference"]["diff"]),
                              interval(*k["difference"]["ci_family"], points=True),
                              k["difference"]["verdict"]] for k in kc],
                            note=f"Cards with at least {min_games} games on each side; Newcomb intervals for all "
                                 f"{kc[0]['difference']['family_size']} such cards at once (Bonferroni), so a "
                                 "'better' or 'worse' holds for the whole list."))
    cands = a["recommendation"]["candidates"]
    if cands:
        blocks.append(Table(f"Best keep rules among the {a['recommendation']['rules_tested']} tried "
                            "(random-hand games only)",
                            ["rule", "mulligans", "kept: win rate", "thrown: win rate", "gain", "95% CI (Bonferroni)"],
                            [[c["rule"], pct(c["mulligans_share"], 0), pct(c["kept_hands"]["win_rate"]),
                              pct(c["mulliganed_hands"]["win_rate"]), pp(c["gain"]),
                              interval(*c["gain_ci"], points=True)] for c in cands]))
    return blocks


def _drawn_rule(a: dict) -> dict | None:
    """The keep rule the random-hand games support, as the chart shades it (the bars it throws back)."""
    rec = a["recommendation"]
    rule = rec.get("rule") if rec.get("status") == "rule" else None
    if not rule:
        return None
    text = rule["rule"]
    cheap = [False] * len(a["by_cheap_plays"])
    total = [False] * len(a["by_total_cost"])
    if rule["kind"] == "cheap_plays":  # keep hands with at least k cards of cost ≤ 2
        cheap = [r["cheap_plays"] < rule["value"] for r in a["by_cheap_plays"]]
    elif rule["kind"] == "total_cost":  # keep hands whose 5 cards cost t or less in total
        total = [r["to"] > rule["value"] for r in a["by_total_cost"]]
    return {"text": text, "cheap": cheap, "total": total}


def _flag(r: dict, min_games: int) -> str:
    text = pct(r["win_rate"])
    return text + " (low n)" if 0 < r["games"] < min_games else text


def public(a: dict) -> dict:
    return {k: v for k, v in a.items() if not k.startswith("_")}


def report(rd: RunData, out: Path, *, deck: str | None = None, min_games: int = MIN_GAMES) -> ReportResult:
    decks = pick_decks(rd, deck)
    names = dict(card_facts(rd).select("card", "name").iter_rows())
    folder = run_folder(out, rd.run_id)
    doc = Document(f"Mulligans — run {rd.run_id}")
    doc.add(*run_preamble(rd))
    doc.add(Para("A mulligan shuffles the hand back and draws 5 fresh random cards, with no second mulligan, so "
                 "the win rate of a random hand is what mulliganing is worth: a keep rule pays off when the hands "
                 "it throws back win less than that. Rules are learned from random-hand games only (after a "
                 "mulligan, or where every hand was kept), and the best of many rules is judged with a Bonferroni "
                 f"correction. Rates on fewer than {min_games} games are marked low n."))
    analyses = []
    for d in decks:  # a deck's hands at a time: a million games' hands are never all in memory
        a = analyse_deck(rd, d, opening_hands(rd, [d]), names, min_games)
        analyses.append(a)
        doc.add(*deck_blocks(a, folder, "mulligan", min_games))
    files = write_document(doc, folder, "mulligan" if not deck else f"mulligan-{slug(decks[0])}")
    table = Table("Mulligans: kept vs mulliganed (observed), and the advice",
                  ["deck", "advice", "kept", "mulliganed", "random hand"],
                  [[a["deck"], _short(a["recommendation"]), f"{pct(a['kept']['win_rate'])} n={a['kept']['games']}",
                    f"{pct(a['mulliganed']['win_rate'])} n={a['mulliganed']['games']}",
                    f"{pct(a['random_hand_win_rate']['win_rate'])} n={a['random_hand_games']}"] for a in analyses],
                  left=2)
    summary = ["A mulligan draws a fresh random hand (no second mulligan), so the random-hand win rate is what "
               "mulliganing is worth; keep rules are learned from random-hand games only."]
    summary += [f"{a['deck']}: {a['recommendation']['text']}" for a in analyses
                if a["recommendation"]["status"] == "rule"]
    if any(a["recommendation"]["status"] == "insufficient" for a in analyses):
        summary.append(f"Not enough random-hand games for some decks: {SUGGEST}.")
    return ReportResult("mulligan", rd.run_id, str(rd.db), {"min_games": min_games, "cheap_cost": CHEAP_COST,
                                                           "decks": [public(a) for a in analyses]},
                        files, summary, [table], list(rd.warnings))


def _short(rec: dict) -> str:
    return rec["short"]


__all__ = ["analyse_deck", "candidate_rules", "deck_blocks", "opening_hands", "recommend", "report"]


# -- the mulligan experiment (each dealt hand played kept and mulliganed) -------------------------
def _catalog_facts(cards) -> tuple[dict[str, int | None], dict[str, str]]:
    from mythos_cli.catalog import default_catalog

    cat = default_catalog()
    costs, names = {}, {}
    for c in set(cards):
        card = cat.by_id.get(c)
        costs[c] = (card.cost or 0) if card is not None else None
        names[c] = card.full_name if card is not None else c
    return costs, names


def experiment_analysis(store, exp_id: str, field: dict[str, float] | None = None,
                        lists: dict[str, tuple] | None = None) -> dict:
    """A stored mulligan experiment's answer: for its own field's shares, or (``field``, with each
    deck's list in ``lists``) for another field's shares over the decks it played."""
    from mythos_cli.experiment import ExperimentError
    from mythos_cli.experiment import mulligan as mx
    from mythos_cli.experiment.field import match_field

    try:
        config, hands, row = mx.read(store, exp_id)
    except ExperimentError as exc:
        raise ReportError(exc.message, exc.hint) from None
    if not hands:
        raise ReportError(f"mulligan experiment {exp_id} has no finished pair of games yet",
                          f"finish it with: mythos experiment mulligan --resume {exp_id}", code=1)
    missing: list[str] = []
    if field is None:
        shares = config.shares_by_name
    else:
        shares, missing = match_field(config.field, lists or {}, field)
        if not shares:
            raise ReportError(f"mulligan experiment {exp_id} played none of this field's decks "
                              f"({', '.join(field)})", "run one against this field: mythos experiment mulligan "
                                                       "DECK --field …")
    costs, names = _catalog_facts(config.deck.cards)
    try:
        a = mx.analyse(hands, shares, costs, names, config.deck.cards)
    except ExperimentError as exc:
        raise ReportError(exc.message, exc.hint) from None
    a.update(experiment=exp_id, deck=config.deck.name, policy=config.policy, seed=config.seed,
             planned_hands=config.hands, status=row["status"], field_missing=missing,
             experiment_field={f.name: s for f, s in zip(config.field, config.shares)})
    return a


def _shaded(a: dict) -> dict[str, list[bool]]:
    """Per chart panel, the groups the advised rule throws back (a group partly thrown counts)."""
    rule = a["recommendation"].get("rule") if a["recommendation"]["status"] == "rule" else None
    if not rule:
        return {}
    kind, v = rule["kind"], rule["value"]
    if kind == "total_cost":
        return {"total": [g["to"] >= v for g in a["by_total_cost"]]}
    if kind == "cheap":
        return {"cheap": [g["count"] < v for g in a["by_cheap"]]}
    if kind == "heavy":
        return {"heavy": [g["count"] >= v for g in a["by_heavy"]]}
    if kind == "every":
        return {"total": [True] * len(a["by_total_cost"])}
    return {}


def _effect_columns(first: str) -> list[str]:
    return [first] + EFFECT_COLUMNS[1:]


def _effect_row(g: dict) -> list[str]:
    e = g["effect"]
    return [g["group"], str(g["hands"]), pct(g["kept_win_rate"]), pct(g["mulliganed_win_rate"]), pp(e["gain"]),
            interval(*e["ci"], points=True), {"mulligan": "mulligan these", "keep": "keep these"}.get(g["verdict"],
                                                                                                     "unclear")]


EFFECT_COLUMNS = ["hands", "hands played", "kept: win rate", "mulliganed: win rate", "mulliganed − kept", "95% CI",
                  "verdict"]


def experiment_blocks(a: dict, folder: Path, prefix: str, level: int = 2, full: bool = True) -> list:
    """The blocks of a mulligan experiment's answer, with its chart."""
    from mythos_cli.reports.players import policy_label
    from mythos_cli.reports.winrate import field_text

    deck = a["deck"]
    rec = a["recommendation"]
    rule = rec["rule"]["rule"] if rec["status"] == "rule" else None
    img = plots.mulligan_experiment_panel(deck, a["by_total_cost"], a["by_cheap"], a["by_heavy"], _shaded(a), rule,
                                          folder / f"{prefix}-{slug(deck)}.png", a["cheap_cost"], a["heavy_cost"])
    every = a["mulligan_every_hand"]
    blocks = [Heading(f"Mulligans by experiment: {deck}" if full else "Mulligans by experiment", level),
              Para(f"**Advice:** {rec['text']}"),
              Para(f"Experiment `{a['experiment']}` ({a['status']}): {a['hands']} dealt hands of {deck}, each played "
                   f"twice from the same deal (the same opponent, seats, missions and seeds), once kept and once "
                   f"mulliganed, by {policy_label(a['policy'])} for both seats (seed {a['seed']}). The field's decks "
                   f"in these shares: {field_text(a['shares'])}."
                   + (f" Not played by the experiment, so left out: {', '.join(a['field_missing'])}."
                      if a.get("field_missing") else "")),
              Image(img, f"{deck} mulligan experiment"),
              Table("Every hand kept, or every hand mulliganed", ["choice", "win rate", "mulliganed − kept", "95% CI",
                                                                 "pairs", "variance saved by pairing"],
                    [["keep every hand", pct(a["kept_win_rate"]), "", "", str(every["pairs_of_games"]), ""],
                     ["mulligan every hand", pct(a["mulliganed_win_rate"]), pp(every["gain"]),
                      interval(*every["ci"], points=True), str(every["pairs_of_games"]),
                      f"{every['crn_variance_ratio']:.1f}×" if every["crn_variance_ratio"] else "—"]],
                    note="Win rates weighted by the field's shares. The variance saved: how many times more games "
                         "two independent samples would need for the same interval.")]
    held = a.get("held_out", [])
    if a.get("learned"):
        rows = []
        for i, lr in enumerate(a["learned"]):
            h = held[i] if i < len(held) else None
            rows.append([lr["rule"], pct(lr["mulligans_share"], 0), pp(lr["learning_gain"]["gain"]),
                         pp(h["held_out_gain"]["gain"]) if h else "—",
                         interval(*h["held_out_gain"]["ci"], points=True) if h else "—"])
        blocks.append(Table(f"Keep rules: the best {len(rows)} of the {a['rules_tried']} tried on the learning half "
                            f"({a['halves']['learning']} hands), judged on the held-out half "
                            f"({a['halves']['held_out']} hands)",
                            ["rule", "mulligans", "gain (learning)", "gain (held-out)",
                             f"95% CI (held-out, {len(held)} at once)"], rows,
                            note="Gain: the win rate with the rule minus keeping every hand. The held-out intervals "
                                 "are Bonferroni-corrected over the rules they judge; a rule is advised only when "
                                 "its interval is clear of 0."))
    blocks.append(Table("By total cost of the dealt hand", _effect_columns("total cost"), [_effect_row(g) for g in a["by_total_cost"]],
                        note=f"Intervals for the {len(a['by_total_cost'])} groups at once (Bonferroni)."))
    if full:
        blocks.append(Table(f"By cheap plays (cards of cost ≤ {a['cheap_cost']})", _effect_columns("cheap plays"),
                            [_effect_row(g) for g in a["by_cheap"]]))
        blocks.append(Table(f"By expensive cards (cost ≥ {a['heavy_cost']})", _effect_columns("expensive cards"),
                            [_effect_row(g) for g in a["by_heavy"]]))
        if a["by_card"]:
            blocks.append(Table("By a card in the dealt hand (hands holding it)", _effect_columns("card"),
                                [_effect_row(g) for g in a["by_card"]],
                                note=f"Cards dealt in at least 20 hands; intervals for the {len(a['by_card'])} cards "
                                     "at once (Bonferroni)."))
        sample = a["per_hand"][:12]
        blocks.append(Table(f"Each hand, both ways (the first {len(sample)} of {len(a['per_hand'])}; --json lists all)",
                            ["opponent", "seat", "cards dealt", "total cost", "kept", "mulliganed"],
                            [[h["opponent"], str(h["seat"]), " ".join(h["cards"]), str(h["total_cost"]),
                              "won" if h["kept_won"] else "lost", "won" if h["mulliganed_won"] else "lost"]
                             for h in sample], left=3))
    return blocks


def experiment_report(store, db: str, out: Path, exp_id: str) -> ReportResult:
    """``reports/<experiment>/mulligan-experiment.md`` and ``.html`` for a stored mulligan experiment."""
    a = experiment_analysis(store, exp_id)
    folder = run_folder(out, exp_id)
    doc = Document(f"Mulligans by experiment — {a['deck']}")
    doc.add(*experiment_blocks(a, folder, "mulligan-experiment")[1:])
    files = write_document(doc, folder, "mulligan-experiment", html=True)
    rec = a["recommendation"]
    summary = [f"{a['deck']}: {rec['text']}"]
    table = _terminal_table(a)
    numbers = {k: v for k, v in a.items()}
    return ReportResult("mulligan", exp_id, db, numbers, files, summary, [table], [])


def _terminal_table(a: dict) -> Table:
    rows = [[g["group"], str(g["hands"]), pp(g["effect"]["gain"]), interval(*g["effect"]["ci"], points=True)]
            for g in a["by_total_cost"]]
    return Table(f"{a['deck']}: mulliganed − kept, by the dealt hand's total cost ({a['hands']} hands, each both ways)",
                 ["total cost", "hands", "mulliganed − kept", "95% CI"], rows)
