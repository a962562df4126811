"""An optimization's answer as numbers (``--json``), terminal tables and a Markdown + HTML page.

The page follows ``mythos report prep``: a summary in plain words first, then the changes,
the base and proposed win rates against the field and against each of its decks, the games
spent, the runners-up, how the search went and how the answer was proved.
"""

from __future__ import annotations

import math
from pathlib import Path

from matplotlib.figure import Figure

from mythos_cli.catalog import default_catalog
from mythos_cli.optimize import variants as V
from mythos_cli.optimize.search import Arm, Outcome, Race
from mythos_cli.experiment.stats import Gain, Pairs, _num, gain, z_value
from mythos_cli.reports.base import ReportResult, _clean, run_folder, write_document
from mythos_cli.reports.doc import Bullets, Document, Heading, Image, Para, Table, interval, pct, pp
from mythos_cli.reports.plots import LOSS, MUTED, NEUTRAL, WIN, save_figure, tick_label
from mythos_cli.reports.stats import field_interval, wilson

RUNNERS_UP = 5


def card_label(card: str) -> str:
    c = default_catalog().by_id.get(card)
    if c is None:
        return card
    stats = f"{c.points} pts" if c.type == "mission" else f"{c.cost}/{c.power}"
    return f"{c.full_name} ({card}, {stats})"


def change_rows(swaps) -> list[list[str]]:
    return [["mission" if s.mission else "card", card_label(s.out), card_label(s.into)] for s in swaps]


def changes_text(swaps) -> str:
    cat = default_catalog()

    def short(card: str) -> str:
        c = cat.by_id.get(card)
        return f"{c.name} {card}" if c else card

    return "; ".join(f"{short(s.out)} → {short(s.into)}" for s in swaps) or "no change"


# -- numbers ---------------------------------------------------------------------------------
def _rates(o: Outcome) -> dict:
    """Base and proposal against the field and each of its decks, from the confirmation games."""
    if o.confirmation is None:
        return {}
    shares = o.config.shares_by_name
    decks = []
    for name, share in shares.items():
        p = o.base_pairs.get(name, Pairs())
        base, prop = wilson(p.ref_wins, p.n), wilson(p.wins, p.n)
        by = o.confirmation.by_opponent.get(name, {})
        decks.append({"opponent": name, "share": share, "games": p.n, "base": base.to_dict(), "proposal": prop.to_dict(),
                      "gain": by.get("gain"), "gain_ci95": by.get("ci95"), "discordant": by.get("discordant")})
    base_rate = sum(shares[d["opponent"]] * d["base"]["win_rate"] for d in decks if d["games"])
    prop_rate = sum(shares[d["opponent"]] * d["proposal"]["win_rate"] for d in decks if d["games"])
    base_ci = field_interval([(shares[d["opponent"]], d["base"]["wins"], d["games"]) for d in decks if d["games"]])
    prop_ci = field_interval([(shares[d["opponent"]], d["proposal"]["wins"], d["games"]) for d in decks if d["games"]])
    return {"base": {"win_rate": base_rate, "ci95": list(base_ci)},
            "proposal": {"win_rate": prop_rate, "ci95": list(prop_ci)}, "by_opponent": decks}


def _arm_json(a: Arm, tests: int, shares: dict[str, float]) -> dict:
    g = a.estimate
    corrected = _corrected(a, tests, shares)
    return {"changes": [s.to_json() for s in a.swaps], "label": V.label(a.swaps), "screen_value": a.screen_value,
            "rounds": a.rounds, "pairs_of_games": g.games if g else 0,
            "gain": _num(g.gain) if g else None,
            "ci_corrected": [_num(corrected.low), _num(corrected.high)] if corrected else None}


def _corrected(a: Arm, tests: int, shares: dict[str, float]) -> Gain | None:
    """The arm's search estimate with the interval corrected for every variant tried."""
    return gain(a.pairs, shares, tests=tests) if a.pairs else None


def race_crn(o: Outcome) -> dict | None:
    """How much common random numbers saved in the races, for single swaps and for pairs: the
    variance independent games would have had over the paired differences' own variance,
    pooled over every variant raced and every field deck (each weighted by its pairs of games)."""
    out = {}
    for kind, k in (("single", 1), ("pair", 2)):
        unpaired = paired = 0.0
        variants = games = 0
        for r in o.races:
            for a in r.arms:
                if len(a.swaps) != k or not a.pairs:
                    continue
                variants += 1
                for p in a.pairs.values():
                    if p.n:
                        games += p.n
                        unpaired += p.n * p.n * p.unpaired_variance
                        paired += p.n * p.n * p.paired_sample_variance
        if paired > 0:
            out[kind] = {"ratio": unpaired / paired, "variants": variants, "pairs_of_games": games}
    return out or None


def runners_up(o: Outcome) -> list[Arm]:
    """The variants that came closest to the winner in the race that chose it (the last one
    when a step was taken, else the first), best first, the winner left out."""
    race = _deciding_race(o)
    if race is None:
        return []
    ranked = [a for a in race.arms if a.estimate is not None and a is not race.best]
    ranked.sort(key=lambda a: (-a.rounds, -a.estimate.gain, a.name))
    return ranked[:RUNNERS_UP]


def _deciding_race(o: Outcome) -> Race | None:
    if not o.races:
        return None
    taken = [r for r in o.races if r.accepted]
    return taken[-1] if taken else o.races[0]


def outcome_json(o: Outcome) -> dict:
    cfg = o.config
    shares = cfg.shares_by_name
    conf = o.confirmation
    verdict = "no-candidate" if o.proposal is None else ("improvement" if o.significant else
                                                          ("worse" if conf.clearly_worse else "no-significant-change"))
    screen = None
    if o.screen is not None:
        fit = o.screen.fit
        ins = sorted(((v, k[1], k[2]) for k, v in fit.values.items() if k[0] == "in"), key=lambda x: -x[0])
        outs = sorted(((v, k[1], k[2]) for k, v in fit.values.items() if k[0] == "out"), key=lambda x: -x[0])
        screen = {"run": o.screen.run_id, "variants": o.screen.variants, "games": o.screen.games,
                  "best_in": [{"card": c, "mission": m, "value": v, "se": fit.se.get(("in", c, m)),
                               "variants": fit.seen.get(("in", c, m))} for v, c, m in ins[:10]],
                  "best_out": [{"card": c, "mission": m, "value": v, "se": fit.se.get(("out", c, m)),
                                "variants": fit.seen.get(("out", c, m))} for v, c, m in outs[:10]],
                  "values": fit.to_json()}
    races = []
    for r in o.races:
        races.append({"step": r.step, "variants": len(r.arms), "games": r.games, "rounds": r.rounds,
                      "stopped": r.stopped, "accepted": r.accepted,
                      "best": _arm_json(r.best, o.tried, shares) if r.best else None,
                      "arms": [_arm_json(a, o.tried, shares) for a in r.arms]})
    return _clean({
        "optimization": o.opt_id, "deck": cfg.base.name, "verdict": verdict, "significant": o.significant,
        "changes": [{"kind": "mission" if s.mission else "card", "out": s.out, "in": s.into,
                     "out_name": card_label(s.out), "in_name": card_label(s.into)} for s in o.changes],
        "proposal": None if o.proposal is None else {"cards": list(o.proposal.cards), "missions": list(o.proposal.missions),
                                                       "validation_errors": o.validation},
        "confirmation": None if conf is None else {**conf.to_json(), "run": o.confirm_run,
                                                   "seeds_shared_with_search": o.shared_seeds},
        "win_rates": _rates(o),
        "crn_in_races": race_crn(o),
        "variants_tried": o.tried, "single_swaps_possible": o.singles_possible,
        "games": {"budget": cfg.budget, "spent": o.spent, **o.stages}, "runs": o.runs,
        "steps_taken": [[s.to_json() for s in step] for step in o.path],
        "runners_up": [_arm_json(a, o.tried, shares) for a in runners_up(o)],
        "screen": screen, "races": races,
        "settings": {"policy": cfg.policy, "seed": cfg.seed, "missions": cfg.missions, "pool": cfg.pool.described,
                     "pool_cards": len(cfg.pool.cards), "pool_missions": len(cfg.pool.missions),
                     "field": cfg.shares_by_name},
    })


# -- the page ----------------------------------------------------------------------------------
def _bars(o: Outcome, rates: dict, path: Path) -> Path:
    decks = rates["by_opponent"]
    labels = ["the field"] + [d["opponent"] for d in decks]
    base = [rates["base"]] + [d["base"] for d in decks]
    prop = [rates["proposal"]] + [d["proposal"] for d in decks]
    fig = Figure(figsize=(max(6.0, 1.3 * len(labels) + 2), 4.2), layout="constrained")
    ax = fig.add_subplot()
    x = list(range(len(labels)))
    for shift, series, colour, name in ((-0.2, base, MUTED, "base deck"), (0.2, prop, WIN if o.significant else NEUTRAL,
                                                                          "proposal")):
        r = [s["win_rate"] if s["win_rate"] is not None else math.nan for s in series]
        lo = [max(0.0, ri - (s["ci95"][0] if s["ci95"][0] is not None else ri)) for ri, s in zip(r, series)]
        hi = [max(0.0, (s["ci95"][1] if s["ci95"][1] is not None else ri) - ri) for ri, s in zip(r, series)]
        ax.bar([i + shift for i in x], r, width=0.38, color=colour, label=name, yerr=[lo, hi], capsize=3,
               ecolor="#444444")
    ax.axhline(0.5, color=LOSS, linewidth=0.8, linestyle=":")
    ax.set_xticks(x, [tick_label(lab if len(lab) < 18 else lab[:16] + "…") for lab in labels], rotation=20,
                  ha="right")
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate (95% interval)")
    ax.set_title(f"{o.config.base.name}: base deck and proposal, on fresh games")
    ax.legend(loc="upper right", fontsize=8)
    return save_figure(fig, path)


def _summary(o: Outcome, rates: dict) -> list[str]:
    cfg = o.config
    conf = o.confirmation
    lines = []
    if o.proposal is None or conf is None:
        lines.append("**No candidate could be tried**: the search had no variant to race.")
        return lines
    ci = interval(conf.low, conf.high, points=True)
    games_each = conf.games
    if o.significant:
        lines.append(f"**Proposed change: {changes_text(o.changes)}.** On {games_each:,} fresh games each "
                     f"(seeds the search never played), the proposal wins **{pct(rates['proposal']['win_rate'])}** "
                     f"against the field and the deck as it is {pct(rates['base']['win_rate'])}: a gain of "
                     f"**{pp(conf.gain)}** (95% interval {ci} points, corrected for the {o.tried} variants tried).")
    elif conf.clearly_worse:
        lines.append(f"**Keep the deck as it is.** The best the search found ({changes_text(o.changes)}) is worse on "
                     f"fresh games: {pp(conf.gain)} (95% interval {ci} points, corrected for the {o.tried} variants "
                     "tried).")
    else:
        lines.append(f"**No change beats the deck beyond noise.** The best the search found "
                     f"({changes_text(o.changes)}) gained {pp(conf.gain)} on {games_each:,} fresh games each, but the "
                     f"95% interval corrected for the {o.tried} variants tried ({ci} points) includes 0: keep the deck "
                     "as it is, or search again with a larger --budget.")
    crn = race_crn(o)
    races = ""
    if crn:
        races = " In the races, " + " and ".join(
            f"{v['ratio']:.1f}× for {'single swaps' if k == 'single' else 'pairs'}" for k, v in crn.items()) + \
            " (the fewer cards differ, the longer the paired games stay the same game)."
    lines.append(f"Common random numbers: the base deck and the proposal played the same seeds, seats and opponents; "
                 f"the paired comparison's variance is **{conf.variance_ratio:.1f}×** lower than independent games "
                 f"would give (the same precision for {conf.variance_ratio:.1f}× fewer games).{races}")
    parts = [f"screen {o.stages.get('screen', 0):,}", f"search {o.stages.get('search', 0):,}",
             f"confirmation {o.stages.get('confirmation', 0):,}"]
    lines.append(f"Games: {o.spent:,} of a budget of {cfg.budget:,} ({', '.join(parts)}); {len(o.path)} step(s) "
                 f"taken, {o.tried} variants raced of {o.singles_possible:,} possible single swaps.")
    ups = [a for a in runners_up(o) if a.estimate is not None]
    if ups:
        best = _deciding_race(o).best
        # close: within two standard errors of the winner, having played at least half its rounds
        close = [a for a in ups if a.estimate.gain >= best.estimate.gain - 2 * best.estimate.se
                 and 2 * a.rounds >= best.rounds]
        if close:
            lines.append("Close runners-up (search estimates): " + "; ".join(
                f"{changes_text(a.swaps)} ({pp(a.estimate.gain)})" for a in close[:3]) + ".")
    if o.validation:
        lines.append("**The proposal does not pass `mythos validate`** (a mythos bug, please report it): "
                     + "; ".join(o.validation))
    return lines


def build(o: Outcome, out: Path | str, db: str, elapsed: float | None = None) -> ReportResult:
    """Write ``OUT/ID/optimize.md``, ``.html`` (self-contained), ``proposal.txt`` and the plot."""
    numbers = outcome_json(o)
    rates = _rates(o)
    cfg = o.config
    folder = run_folder(out, o.opt_id)
    summary = _summary(o, rates)
    doc = Document(f"Optimize: {cfg.base.name}")
    field = ", ".join(f"{d} {100 * s:.0f}%" for d, s in cfg.shares_by_name.items())
    doc.add(Para(f"Optimization `{o.opt_id}` in `{db}`: {o.spent:,} games (budget {cfg.budget:,}), policy "
                 f"{cfg.policy} for both players, seed {cfg.seed}. Field: {field}. Pool: {cfg.pool.described} "
                 f"({len(cfg.pool.cards)} cards" + (f", {len(cfg.pool.missions)} missions" if cfg.missions else "")
                 + ")" + ("; missions may change." if cfg.missions else "; missions kept.")
                 + (f" {elapsed / 60:.1f} minutes this session." if elapsed else "")))
    doc.add(Heading("Summary"), Bullets(summary))
    files: list[Path] = []
    if o.proposal is not None:
        proposal_file = folder / "proposal.txt"
        verdict = "significant gain" if o.significant else "NOT a significant gain: keep your deck"
        proposal_file.write_text(V.to_text(o.proposal, f"{cfg.base.name} (optimized)",
                                           f"mythos optimize {o.opt_id}: {changes_text(o.changes)} ({verdict})"),
                                 encoding="utf-8")
        files.append(proposal_file)
        doc.add(Heading("Changes"),
                Table("Changes to the deck" if o.significant else "The best change found (not significant)",
                      ["kind", "out", "in"], change_rows(o.changes), left=3,
                      note=f"The whole list: `{proposal_file.name}` (it passes `mythos validate`)."
                      if not o.validation else "The list does NOT pass `mythos validate`."))
    conf = o.confirmation
    terminal: list[Table] = []
    if conf is not None:
        doc.add(Heading("Against the field, on fresh games"))
        img = _bars(o, rates, folder / "optimize-win-rates.png")
        rows = [["the field", "100%", str(conf.games), pct(rates["base"]["win_rate"]),
                 interval(*rates["base"]["ci95"]), pct(rates["proposal"]["win_rate"]),
                 interval(*rates["proposal"]["ci95"]), pp(conf.gain),
                 interval(conf.low, conf.high, points=True) + f" (corrected, m={o.tried})"]]
        for d in rates["by_opponent"]:
            rows.append([d["opponent"], pct(d["share"], 0), str(d["games"]), pct(d["base"]["win_rate"]),
                         interval(*d["base"]["ci95"]), pct(d["proposal"]["win_rate"]),
                         interval(*d["proposal"]["ci95"]), pp(d["gain"]),
                         interval(*(d["gain_ci95"] or [None, None]), points=True)])
        cols = ["opponent", "share", "games", "base", "95% CI", "proposal", "95% CI", "gain", "interval"]
        table = Table("Win rates of the base deck and the proposal (the same seeds for both)", cols, rows,
                      note="The field's gain carries a Bonferroni interval for every variant tried; each deck's gain "
                           "a plain 95% Agresti–Min interval for paired results. Win rates: Wilson intervals, the "
                           "field's from the decks' Jeffreys posteriors.")
        doc.add(Image(img, "win rates"), table)
        terminal.append(Table("Base deck and proposal on fresh games (win rate, 95% interval)",
                              ["opponent", "games", "base", "proposal", "gain", "interval"],
                              [[r[0], r[2], f"{r[3]} ({r[4]})", f"{r[5]} ({r[6]})", r[7], r[8]] for r in rows]))
    if o.proposal is not None:
        terminal.insert(0, Table("Changes" if o.significant else "Best change found (not significant)",
                                 ["kind", "out", "in"], change_rows(o.changes), left=3))
    ups = runners_up(o)
    if ups:
        race = _deciding_race(o)
        rows = []
        for a in [race.best] + ups:
            c = _corrected(a, o.tried, cfg.shares_by_name)
            rows.append([("winner: " if a is race.best else "") + V.label(a.swaps), changes_text(a.swaps),
                         str(a.rounds), str(a.estimate.games), pp(a.estimate.gain),
                         interval(c.low, c.high, points=True) if c else "—"])
        t = Table(f"Runners-up in the race of step {race.step} (search estimates, paired with the deck of that step)",
                  ["swaps", "cards", "rounds", "games", "gain", f"interval (corrected, m={o.tried})"], rows, left=2,
                  note="Search estimates favour the winner (it was chosen for its high estimate); only the "
                       "confirmation on fresh seeds above is the proof.")
        doc.add(Heading("Runners-up"), t)
        terminal.append(Table(t.title, ["swaps", "rounds", "games", "gain", t.columns[-1]],
                              [[r[0], r[2], r[3], r[4], r[5]] for r in rows]))
    doc.add(Heading("How the search went"))
    games = Table("Games spent", ["stage", "games", "runs"],
                  [["screen", f"{o.stages.get('screen', 0):,}", o.screen.run_id if o.screen else "—"],
                   ["search (races)", f"{o.stages.get('search', 0):,}",
                    str(sum(len(r.rounds) for r in o.races)) + " round(s)"],
                   ["confirmation", f"{o.stages.get('confirmation', 0):,}", o.confirm_run or "—"],
                   ["total", f"{o.spent:,}", f"budget {cfg.budget:,}"]])
    doc.add(games)
    terminal.append(games)
    if o.screen is not None:
        fit = o.screen.fit
        ins = sorted(((v, k[1], k[2]) for k, v in fit.values.items() if k[0] == "in"), key=lambda x: (-x[0], x[1]))
        outs = sorted(((v, k[1], k[2]) for k, v in fit.values.items() if k[0] == "out"), key=lambda x: (-x[0], x[1]))
        doc.add(Para(f"**Screen.** {o.screen.variants:,} random variants of the deck ({cfg.screen_swaps} random swaps "
                     f"each), in groups of {cfg.screen_group} sharing their seeds, played {o.screen.games:,} games "
                     f"(run `{o.screen.run_id}`). A regression of the results on the swaps within each shared game "
                     "gave every card a value; the best-ranked swaps and pairs of them went on to the races. The "
                     "values only rank: they are not the gains reported."),
                Table("Screen: most promising cards to bring in", ["card", "value", "± s.e.", "variants"],
                      [[card_label(c), pp(v), pp(fit.se.get(("in", c, m))).lstrip("+"), str(fit.seen.get(("in", c, m), 0))]
                       for v, c, m in ins[:8]]),
                Table("Screen: the deck's cards least missed when taken out", ["card", "value", "± s.e.", "variants"],
                      [[card_label(c), pp(v), pp(fit.se.get(("out", c, m))).lstrip("+"),
                        str(fit.seen.get(("out", c, m), 0))] for v, c, m in outs[:8]]))
    else:
        doc.add(Para(f"**No screen**: the deck has {o.singles_possible} possible single swaps, few enough to race "
                     "them all."))
    rows = []
    for r in o.races:
        best = r.best
        rows.append([str(r.step), V.label(best.swaps) if best else "—", "taken" if r.accepted else "not taken",
                     r.stopped, str(len(r.arms)), str(len(r.rounds)), f"{r.games:,}",
                     pp(best.estimate.gain) if best else "—"])
    doc.add(Para("**Races.** Each step raced single swaps and pairs from the deck of that step with successive "
                 f"halving (the better 1/{cfg.eta} goes on each round) and racing (a variant whose upper bound fell "
                 f"below the leader's lower bound, at z = {cfg.race_z}, stopped early); every round's variants and "
                 "the deck itself played the same fresh seeds. A step's winner was taken when its paired gain was "
                 f"above 0 at z = {cfg.accept_z}."),
            Table("Steps", ["step", "winner", "", "race stopped", "variants", "rounds", "games", "gain (search)"], rows,
                  left=4))
    if conf is not None:
        doc.add(Heading("Proof"),
                Para(f"The base deck and the proposal then played {2 * conf.games:,} games on fresh seeds (run "
                     f"`{o.confirm_run}`; {o.shared_seeds} of its seeds were played in the search), the same seeds "
                     f"for both. The gain is the share-weighted paired difference; its interval is Bonferroni-"
                     f"corrected for the {o.tried} variants the search tried (z = {conf.z:.2f} instead of "
                     f"{z_value():.2f}). Common random numbers made its variance {conf.variance_ratio:.1f}× smaller "
                     "than independent games would."))
    files = write_document(doc, folder, "optimize", html=True, extra=files)  # the proposal's path once published
    return ReportResult("optimize", o.opt_id, db, numbers, files, summary, terminal, [])


__all__ = ["build", "outcome_json", "runners_up"]
