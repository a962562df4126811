"""An optimization's answer as numbers (``--json``), terminal tables and a Markdown + HTML page.

The page follows ``mythos report prep``: a summary in plain words first (the answer, the
player that judged it and its budget, how far the cheap player agreed with it), then the
changes, the base and proposed win rates against the field and against each of its decks,
the plan and the games each stage spent, the fate of every candidate of the short list, the
cards that drag, how the search went and how the answer was proved.
"""

from __future__ import annotations

import math
import textwrap
from collections import Counter
from pathlib import Path

from matplotlib.figure import Figure
from matplotlib.ticker import PercentFormatter

from mythos_cli.catalog import default_catalog
from mythos_cli.experiment.stats import Gain, Pairs, _num, gain, z_value
from mythos_cli.optimize import variants as V
from mythos_cli.optimize.plan import STAGE_SECONDS, Plan
from mythos_cli.optimize.search import FOCUS_IN, FOCUS_OUT, Arm, Candidate, Outcome, Race
from mythos_cli.reports.base import ReportResult, _clean, run_folder, write_document
from mythos_cli.reports.doc import Bullets, Document, Heading, Image, Para, Table, interval, pct, pp
from mythos_cli.reports.plots import LOSS, MUTED, NEUTRAL, WIN, save_figure, tick_label
from mythos_cli.reports.stats import field_interval, wilson

RUNNERS_UP = 5
TERMINAL_CANDIDATES = 8  # rows of the candidates' table in the terminal (the page has them all)
CRN_GAINED = 1.05  # a variance ratio below this: the pairing is said to have gained nothing (many swaps)


def card_label(card: str) -> str:
    c = default_catalog().by_id.get(card)
    if c is None:
        return card
    stats = f"{c.points} pts" if c.type == "mission" else f"{c.cost}/{c.power}"
    return f"{c.full_name} ({card}, {stats})"


def change_rows(swaps) -> list[list[str]]:
    return [["mission" if s.mission else "card", card_label(s.out), card_label(s.into)] for s in swaps]


def changes_text(swaps, sep: str = "; ") -> str:
    cat = default_catalog()

    def short(card: str) -> str:
        c = cat.by_id.get(card)
        return f"{c.name} {card}" if c else card

    return sep.join(f"{short(s.out)} → {short(s.into)}" for s in swaps) or "no change"


def short_policy(spec: str) -> str:
    """A player as people name it: ``search`` for the search player at its default settings, the
    whole spec otherwise (the JSON always has the whole spec)."""
    from mythos_cli.policies import PolicySpecError, make_policy

    name = spec.split(":", 1)[0]
    try:
        return name if make_policy(name).spec == spec else spec
    except PolicySpecError:  # a Python player's spec
        return spec


def player_text(o: Outcome) -> str:
    """Who judged, with what budget, and who screened: said wherever a number is."""
    cfg = o.config
    text = f"judged by {short_policy(cfg.policy)} ({o.spent:,} games of a budget of {cfg.budget:,}"
    if cfg.minutes is not None:
        text += f", chosen for --minutes {cfg.minutes:g}"
    text += ")"
    if o.plan.two_players:
        text += f", screened by {short_policy(o.plan.cheap)} ({o.cheap_spent:,} games)"
    else:
        text += ", which screened too"
    return text


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


def _corrected(a: Arm, tests: int, shares: dict[str, float]) -> Gain | None:
    """The arm's race estimate with the interval corrected for every variant the player given judged."""
    return gain(a.pairs, shares, tests=tests) if a.pairs else None


def _arm_json(a: Arm, tests: int, shares: dict[str, float]) -> dict:
    g = a.estimate
    corrected = _corrected(a, tests, shares)
    return {"changes": [s.to_json() for s in a.swaps], "label": V.label(a.swaps), "screen_value": a.screen_value,
            "cheap_gain": _num(a.cheap.gain) if a.cheap else None, "rounds": a.rounds,
            "pairs_of_games": g.games if g else 0, "pairs_from_the_sample": a.carried,
            "gain": _num(g.gain) if g else None,
            "ci_corrected": [_num(corrected.low), _num(corrected.high)] if corrected else None}


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
    """The variants that came closest to the best in the race that decided (the last one
    when a step was taken, else the first), best first, the best left out."""
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


def stage_numbers(o: Outcome) -> dict[str, int]:
    """The stages in the order they ran, numbered from 1 (the calibration of both players is one)."""
    keys = list(dict.fromkeys(s.key for s in o.plan.stages))
    return {k: i + 1 for i, k in enumerate(keys)}


def fates(o: Outcome) -> list[dict]:
    """Every candidate of the short list with what became of it: "proposed", "taken at step s",
    "kept" (it reached its race's last round), "dropped at stage k" (the short list, or a round
    of a race), with the cheap player's gain and the player given's (sample or race)."""
    number = stage_numbers(o)
    shares = o.config.shares_by_name
    arms: dict[tuple, list[tuple[Race, Arm]]] = {}
    for r in o.races:
        for a in r.arms:
            arms.setdefault(a.swaps, []).append((r, a))
    outs, ins = Counter(s.out for s in o.changes), Counter(s.into for s in o.changes)

    def in_proposal(swaps) -> bool:  # its cards out and in are among the proposal's (whatever their pairing)
        return o.significant and not (Counter(s.out for s in swaps) - outs) and not (Counter(s.into for s in swaps) - ins)

    rows = []
    for c in o.shortlist:
        seen = arms.get(c.swaps, [])
        fate, arm, step, order = "", None, 0, 3
        if seen:
            race, arm = seen[-1]
            step, last = race.step, len(race.rounds)
            if race.best is arm and race.accepted:
                fate = "proposed" if in_proposal(arm.swaps) else f"taken at step {step}"
                if not o.significant:
                    fate += ", not confirmed"
                order = 0
            elif race.best is arm:
                fate = f"best of step {step}, not taken (not above 0 at z = {o.config.accept_z})"
                order = 1
            elif arm.rounds == last:
                fate, order = f"kept to the last round (step {step})", 1
            else:
                fate, order = f"dropped at stage {number['race']} (step {step}, round {arm.rounds})", 2
        else:
            fate = f"dropped at stage {number['shortlist']} (short list, rank {c.rank})"
            if c.sampled:
                fate += ", judged in the sample"
        judge = _corrected(arm, o.tried, shares) if arm is not None else (
            gain(_sample_pairs(c), shares, tests=o.tried) if c.judge is not None else None)
        point = arm.estimate.gain if arm is not None and arm.estimate else (c.judge.gain if c.judge else None)
        rows.append({"candidate": c, "arm": arm, "step": step, "fate": fate, "order": order,
                     "judge_gain": point, "judge_ci": (judge.low, judge.high) if judge else None,
                     "judge_pairs": arm.estimate.games if arm is not None and arm.estimate else
                     (c.judge.games if c.judge else 0)})
    rows.sort(key=lambda r: (r["order"], -(r["step"] or 0), -(r["arm"].rounds if r["arm"] else 0),
                             -(r["judge_gain"] if r["judge_gain"] is not None else -9), r["candidate"].rank))
    return rows


def _sample_pairs(c: Candidate) -> dict[str, Pairs]:
    return c.judge_pairs or {}


def outcome_json(o: Outcome) -> dict:
    cfg = o.config
    shares = cfg.shares_by_name
    conf = o.confirmation
    verdict = "no-candidate" if o.proposal is None else ("improvement" if o.significant else
                                                          ("worse" if conf.clearly_worse else "no-significant-change"))
    screen = None
    if o.screen is not None:
        fit = o.screen.fit
        ins, outs = _screen_ranks(o)
        screen = {"run": o.screen.run_id, "runs": o.screen.runs or [o.screen.run_id], "player": o.plan.cheap,
                  "variants": o.screen.variants,
                  "games": o.screen.games,
                  "best_in": [{"card": c, "mission": m, "value": v, "se": fit.se.get(("in", c, m)),
                               "games": fit.seen.get(("in", c, m))} for v, c, m in ins[:10]],
                  "best_out": [{"card": c, "mission": m, "value": v, "se": fit.se.get(("out", c, m)),
                                "games": fit.seen.get(("out", c, m))} for v, c, m in outs[:10]],
                  "values": fit.to_json()}
    races = []
    for r in o.races:
        races.append({"step": r.step, "variants": len(r.arms), "games": r.games, "rounds": r.rounds,
                      "stopped": r.stopped, "accepted": r.accepted, "confirmation_held_back": r.reserve,
                      "best": _arm_json(r.best, o.tried, shares) if r.best else None,
                      "arms": [_arm_json(a, o.tried, shares) for a in r.arms]})
    candidates = [{"label": r["candidate"].label, "changes": [s.to_json() for s in r["candidate"].swaps],
                   "rank": r["candidate"].rank, "merged": r["candidate"].merged, "screen_value": r["candidate"].screen_value,
                   "cheap_gain": r["candidate"].cheap.to_json() if r["candidate"].cheap else None,
                   "sampled": r["candidate"].sampled, "judge_gain": r["judge_gain"],
                   "judge_ci_corrected": list(r["judge_ci"]) if r["judge_ci"] else None,
                   "judge_pairs_of_games": r["judge_pairs"], "fate": r["fate"]} for r in fates(o)]
    return _clean({
        "optimization": o.opt_id, "deck": cfg.base.name, "verdict": verdict, "significant": o.significant,
        "player": {"policy": cfg.policy, "budget": cfg.budget, "minutes": cfg.minutes,
                   "games": o.spent, "screen_policy": o.plan.cheap, "screen_games": o.cheap_spent},
        # the only numbers that depend on the machine (everything else on the seed and the budget)
        "timing": {"measured_games_per_second": {k: v for k, v in (cfg.rates or o.rates or {}).items()
                                                 if k != STAGE_SECONDS} or None,
                   "stage_seconds": (cfg.rates or o.rates or {}).get(STAGE_SECONDS)},
        "plan": o.plan.to_json(),
        "changes": [{"kind": "mission" if s.mission else "card", "out": s.out, "in": s.into,
                     "out_name": card_label(s.out), "in_name": card_label(s.into)} for s in o.changes],
        "proposal": None if o.proposal is None else {"cards": list(o.proposal.cards), "missions": list(o.proposal.missions),
                                                       "validation_errors": o.validation},
        "confirmation": None if conf is None else {**conf.to_json(), "run": o.confirm_run, "player": cfg.policy,
                                                   "seeds_shared_with_search": o.shared_seeds},
        "win_rates": _rates(o),
        "crn_in_races": race_crn(o),
        "rank_agreement": (o.agreement.to_json() | {"between": ["cheap player's short list", "judge's sample"]
                                                     if o.plan.two_players else ["screen values", "short list gains"]})
        if o.agreement else None,
        "race_took": o.keep, "shortlist_size": len(o.shortlist),
        "variants_tried": o.tried, "single_swaps_possible": o.singles_possible,
        "games": {"budget": cfg.budget, "spent": o.spent, **o.stages,
                  "screen_player": {"policy": o.plan.cheap, "spent": o.cheap_spent, **o.cheap_stages}},
        "runs": o.runs,
        "steps_taken": [[s.to_json() for s in step] for step in o.path],
        "runners_up": [_arm_json(a, o.tried, shares) for a in runners_up(o)],
        "card_figures": {"player": o.plan.cheap, "cards": [f.to_json() for f in o.figures]},
        "candidates": candidates, "screen": screen, "races": races,
        "missions_experiment": o.missions.to_json() if o.missions is not None else None,
        "settings": {"policy": cfg.policy, "screen_policy": o.plan.cheap, "seed": cfg.seed, "missions": cfg.missions,
                     "pool": cfg.pool.described, "pool_cards": len(cfg.pool.cards),
                     "pool_missions": len(cfg.pool.missions), "field": cfg.shares_by_name},
    })


# -- the page ----------------------------------------------------------------------------------
def _bars(o: Outcome, rates: dict, path: Path) -> Path:
    return save_figure(win_rate_figure(o, rates), path)


def win_rate_figure(o: Outcome, rates: dict) -> Figure:
    """The deck and the proposal against the field and each of its decks: bars in percent, the
    legend above the plot (never over a bar)."""
    decks = rates["by_opponent"]
    labels = ["the field"] + [d["opponent"] for d in decks]
    base = [rates["base"]] + [d["base"] for d in decks]
    prop = [rates["proposal"]] + [d["proposal"] for d in decks]
    fig = Figure(figsize=(max(6.0, 1.3 * len(labels) + 2), 4.6), layout="constrained")
    ax = fig.add_subplot()
    x = list(range(len(labels)))
    for shift, series, colour, name in ((-0.2, base, MUTED, "the deck as it is"),
                                        (0.2, prop, WIN if o.significant else NEUTRAL, "proposal")):
        r = [s["win_rate"] if s["win_rate"] is not None else math.nan for s in series]
        lo = [max(0.0, ri - (s["ci95"][0] if s["ci95"][0] is not None else ri)) for ri, s in zip(r, series)]
        hi = [max(0.0, (s["ci95"][1] if s["ci95"][1] is not None else ri) - ri) for ri, s in zip(r, series)]
        ax.bar([i + shift for i in x], r, width=0.38, color=colour, label=name, yerr=[lo, hi], capsize=3,
               ecolor="#444444")
    ax.axhline(0.5, color=LOSS, linewidth=0.8, linestyle=":", label="50%")
    ax.set_xticks(x, [tick_label(lab if len(lab) < 18 else lab[:16] + "…") for lab in labels], rotation=20, ha="right")
    ax.set_ylim(0, 1)
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.set_ylabel("win rate (95% interval)")
    # wrapped to the figure's width (a long deck name ran off both edges)
    title = f"{o.config.base.name}: the deck and the proposal on fresh games ({short_policy(o.config.policy)})"
    fig.suptitle("\n".join(textwrap.wrap(title, int(fig.get_figwidth() * 11))), fontsize=11)
    # below the axis, never on a bar
    fig.legend(loc="outside lower center", ncol=3, fontsize=8, frameon=False)
    return fig


def _agreement_text(o: Outcome) -> str | None:
    a = o.agreement
    if not o.plan.two_players:
        who = short_policy(o.config.policy)
        if a is None or not math.isfinite(a.rho):
            return (f"One player screened and judged ({who}): the race took the {o.keep} best of the short list of "
                    f"{len(o.shortlist)} by its paired gains.")
        return (f"One player screened and judged ({who}). **Its screen's values and its paired gains of the short "
                f"list's {a.candidates} candidates (other games) ranked them with a rank correlation of {a.rho:.2f}** "
                f"(Spearman, 95% interval {a.low:.2f} to {a.high:.2f}; the short list's gains are "
                f"{100 * a.reliability:.0f}% signal, the rest their noise). So the race took **{o.keep} of the short "
                f"list's {len(o.shortlist)}** by those gains: enough to hold their best with a "
                f"{100 * o.config.confidence:.0f}% chance, within what the budget affords.")
    if a is None or not math.isfinite(a.rho):
        return (f"The two players' rank correlation could not be measured (too few candidates in the sample): "
                f"the race took {o.keep} of the short list of {len(o.shortlist)}, as if they did not agree.")
    corrected = "" if a.corrected == a.rho else (
        f"; {a.corrected:.2f} once {short_policy(o.config.policy)}'s own noise is allowed for (its judgements of the sample are "
        f"{100 * a.reliability:.0f}% signal)")
    return (f"**{short_policy(o.plan.cheap)} and {short_policy(o.config.policy)} ranked the {a.candidates} swaps both judged with a rank "
            f"correlation of {a.rho:.2f}** (Spearman, 95% interval {a.low:.2f} to {a.high:.2f}{corrected}). "
            f"So the race took **{o.keep} of the short list's {len(o.shortlist)}**: enough to hold {short_policy(o.config.policy)}'s "
            f"best of them with a {100 * o.config.confidence:.0f}% chance (the less the players agree, the more race), "
            "within what the budget affords.")


def _summary(o: Outcome, rates: dict) -> list[str]:
    cfg = o.config
    conf = o.confirmation
    lines = []
    who = player_text(o)
    if o.proposal is None or conf is None:
        lines.append(f"**No candidate could be tried**: the search had no variant to race ({who}).")
        return lines
    ci = interval(conf.low, conf.high, points=True)
    games_each = conf.games
    if o.significant:
        lines.append(f"**Proposed change: {changes_text(o.changes)}.** On {games_each:,} fresh games each "
                     f"(seeds the search never played), the proposal wins **{pct(rates['proposal']['win_rate'])}** "
                     f"against the field and the deck as it is {pct(rates['base']['win_rate'])}: a gain of "
                     f"**{pp(conf.gain)}** over the original deck (95% interval {ci} points, corrected for the "
                     f"{o.tried} variants {short_policy(cfg.policy)} judged).")
    elif conf.clearly_worse:
        lines.append(f"**No change beats the deck: keep it as it is.** The best the search found "
                     f"({changes_text(o.changes)}) is worse on fresh games: {pp(conf.gain)} (95% interval {ci} points, "
                     f"corrected for the {o.tried} variants {short_policy(cfg.policy)} judged).")
    else:
        lines.append(f"**No change beats the deck beyond noise: keep it as it is.** The best the search found "
                     f"({changes_text(o.changes)}) gained {pp(conf.gain)} on {games_each:,} fresh games each, but the "
                     f"95% interval corrected for the {o.tried} variants {short_policy(cfg.policy)} judged ({ci} points) includes 0; "
                     "a larger --budget may find more.")
    lines.append(f"Every win rate and gain here is {who}; the proposal and its interval are {short_policy(cfg.policy)}'s only.")
    agreement = _agreement_text(o)
    if agreement:
        lines.append(agreement)
    crn = race_crn(o)
    races = ""
    if crn:
        races = " In the races, " + " and ".join(
            f"{v['ratio']:.1f}× for {'single swaps' if k == 'single' else 'pairs'}" for k, v in crn.items()) + \
            " (the fewer cards differ, the longer the paired games stay the same game)."
    if conf.variance_ratio >= CRN_GAINED:
        paired = (f"the paired comparison's variance is **{conf.variance_ratio:.1f}×** lower than independent games "
                  f"would give (the same precision for {conf.variance_ratio:.1f}× fewer games).")
    else:  # many cards changed: the paired games part at once
        paired = (f"with {len(o.changes)} swap(s) the paired games soon part, and the pairing gained nothing "
                  f"measurable (independent games' variance {conf.variance_ratio:.2f}× the paired one's).")
    lines.append(f"Common random numbers: the deck and the proposal played the same seeds, seats and opponents; "
                 f"{paired}{races}")
    lines.append(f"{len(o.path)} step(s) taken; {o.tried} variants judged by {short_policy(cfg.policy)}, of a short list of "
                 f"{len(o.shortlist)} from {o.singles_possible:,} possible single swaps and their pairs.")
    ups = [a for a in runners_up(o) if a.estimate is not None]
    race = _deciding_race(o)
    if ups and race is not None and race.best is not None and race.best.estimate is not None:
        best = race.best
        # close: within two standard errors of the best, having played at least half its rounds
        close = [a for a in ups if a.estimate.gain >= best.estimate.gain - 2 * best.estimate.se
                 and 2 * a.rounds >= best.rounds]
        if close:
            lines.append(f"Close runners-up ({short_policy(cfg.policy)}'s race estimates): " + "; ".join(
                f"{changes_text(a.swaps, ' and ')} ({pp(a.estimate.gain)})" for a in close[:3]) + ".")
    if o.validation:
        lines.append("**The proposal does not pass `mythos validate`** (a mythos bug, please report it): "
                     + "; ".join(o.validation))
    return lines


def plan_table(plan: Plan, rates: dict[str, float]) -> Table:
    """The plan as it is known before its games (printed first): stages, players, games, minutes."""
    number = {k: i + 1 for i, k in enumerate(dict.fromkeys(s.key for s in plan.stages))}
    rows = []
    for s in plan.stages:
        judged = f"{s.least} to {s.candidates}" if s.key == "race" else \
            "its selections" if s.key == "missions" else f"{s.candidates:,}"
        minutes = f"{s.games / rates[s.player] / 60:.1f}" if rates.get(s.player) else "—"
        rows.append([str(number[s.key]), s.title, short_policy(s.player), judged, f"{s.per_candidate:,}" if s.per_candidate
                     else "halving", f"{s.games:,}", minutes])
    if rates.get(STAGE_SECONDS):
        rows.append(["", f"starting the runs (about {plan.runs}: a stage, a race round)", "", "", "", "",
                     f"{plan.runs * rates[STAGE_SECONDS] / 60:.1f}"])
    total = plan.seconds(rates) / 60 if all(rates.get(p) for p in {plan.policy, plan.cheap}) else None
    rows.append(["", "in all", "", "", "", f"{plan.budget:,} + {plan.cheap_games:,}" if plan.two_players
                 else f"{plan.budget:,}", f"{total:.1f}" if total is not None else "—"])
    return Table(f"The plan: {plan.budget:,} games of {short_policy(plan.policy)}"
                 + (f", {plan.cheap_games:,} of {short_policy(plan.cheap)} to screen" if plan.two_players else ""),
                 ["stage", "", "player", "candidates", "games each", "games", "minutes (estimated)"], rows, left=3)


def _plan_table(o: Outcome) -> Table:
    number = stage_numbers(o)
    rows = []
    for s in o.plan.stages:
        played = (o.stages if s.player == o.config.policy else o.cheap_stages).get(s.key, 0)
        if s.key == "race":
            judged = f"{o.keep} (planned {s.least} to {s.candidates})" if o.races else f"{s.least} to {s.candidates}"
        elif s.key == "missions":
            judged = f"{o.missions.tried} selections raced" if o.missions is not None else "—"
        else:
            judged = f"{s.candidates:,}"
        rows.append([str(number[s.key]), s.title, short_policy(s.player), judged,
                     f"{s.per_candidate:,}" if s.per_candidate else "halving", f"{s.games:,}", f"{played:,}"])
    return Table("The plan: what each stage judges, with how many games", ["stage", "", "player", "candidates",
                                                                          "games each", "planned", "played"], rows,
                 left=3, note=f"The budget, {o.config.budget:,} games, counts the games of {short_policy(o.config.policy)}"
                 + (f"; {short_policy(o.plan.cheap)} plays its own on top (about a hundredth of the time each)."
                    if o.plan.two_players else ".") + " The race's rounds halve the variants and double the "
                 "games. The confirmation holds its planned games back until a step is taken, then only what "
                 f"proves the steps' gain (at least {o.plan.stage('confirmation').least_games:,}), the rest going to "
                 "further steps; it also gets whatever the race leaves.")


def _candidate_rows(o: Outcome, rows: list[dict]) -> list[list[str]]:
    out = []
    for r in rows:
        c = r["candidate"]
        ch = c.cheap
        out.append([f"{c.rank} (merged)" if c.merged else str(c.rank), V.label(c.swaps), changes_text(c.swaps),
                    pp(ch.gain) if ch else "—", interval(ch.low, ch.high, points=True) if ch else "—",
                    pp(r["judge_gain"]) if r["judge_gain"] is not None else "—",
                    interval(*r["judge_ci"], points=True) if r["judge_ci"] else "—",
                    f"{r['judge_pairs']:,}" if r["judge_pairs"] else "—", r["fate"]])
    return out


def _screen_ranks(o: Outcome) -> tuple[list[tuple[float, str, bool]], list[tuple[float, str, bool]]]:
    """The screen's cards by value: those that could come in (fewer than two copies in the deck),
    and the deck's own cards as the ones going out (each as (value, card, mission), best first)."""
    fit = o.screen.fit
    copies = Counter(o.base.cards)
    ins = sorted(((v, k[1], k[2]) for k, v in fit.values.items() if k[0] == "in" and copies[k[1]] < 2),
                 key=lambda x: (-x[0], x[1]))
    outs = sorted(((v, k[1], k[2]) for k, v in fit.values.items() if k[0] == "out"), key=lambda x: (-x[0], x[1]))
    return ins, outs


def _figures_table(o: Outcome) -> Table | None:
    if not o.figures:
        return None
    rows = []
    for f in o.figures:
        rows.append([f"{f.card} {f.name}", str(f.copies), str(f.in_hand), str(f.never_seen), pp(f.iwd),
                     interval(f.family_low, f.family_high, points=True) if f.family_low is not None else
                     interval(f.low, f.high, points=True), f"{100 * f.drags:.0f}%", f.verdict or "too few games"])
    games = o.plan.stages[1].games if o.plan.two_players else o.plan.stages[0].games
    return Table(f"The deck's cards in the calibration ({short_policy(o.plan.cheap)}, {games:,} games): which drag",
                 ["card", "copies", "in hand", "never seen", "IWD", "interval", "P(drags)", "verdict"], rows,
                 left=1, note="IWD: win rate with the card in hand minus never seen (`mythos report cards`); "
                 "interval: for every card of the deck at once (Bonferroni) when the card has enough games, else "
                 "its own 95% interval. A card that probably drags is drawn out of the screen's variants more often "
                 "(up to 3 times); it is not a verdict on the card, only where the screen looks first.")


def _missions_blocks(o: Outcome) -> list:
    """--missions: what the missions experiment (``experiment.missions``) chose for the deck found."""
    m = o.missions
    cfg = o.config
    conf = m.confirmation
    verdict = (f"it brings **{', '.join(sorted(m.best.missions))}**: {pp(conf.gain)} over the deck's own missions "
               f"(95% interval {interval(conf.low, conf.high, points=True)} points, corrected for the {m.tried} "
               "selections raced), on fresh seeds" if m.significant else
               "no selection beat the deck's own missions beyond noise: the proposal keeps them"
               + (f" (the best raced, {', '.join(sorted(m.best.missions))}: {pp(conf.gain)}, "
                  f"{interval(conf.low, conf.high, points=True)} points)" if conf is not None and m.best else ""))
    rows = [[", ".join(sorted(e.missions)), str(e.rounds), f"{e.estimate.games:,}" if e.estimate else "—",
             pp(e.estimate.gain) if e.estimate else "—",
             interval(e.estimate.low, e.estimate.high, points=True) if e.estimate else "—"] for e in m.ranked[:8]]
    return [Heading("Missions"),
            Para(f"**Missions ({short_policy(cfg.policy)}).** With the cards found, the missions experiment (the one "
                 f"of `mythos experiment missions`) tried the {m.selections:,} selections of 3 of the "
                 f"{len(m.config.candidates)} candidate missions: {m.screened:,} in its screen, {m.tried} in its race, "
                 f"{m.spent:,} games (runs `{m.exp_id}-…`); {verdict}."),
            Table(f"The selections raced ({short_policy(cfg.policy)}; paired with the deck's own missions)",
                  ["missions", "rounds", "pairs of games", "gain", f"interval (corrected, m={m.tried})"], rows,
                  left=1)]


def build(o: Outcome, out: Path | str, db: str, elapsed: float | None = None) -> ReportResult:
    """Write ``OUT/ID/optimize.md``, ``.html`` (self-contained), ``proposal.txt`` and the plot."""
    numbers = outcome_json(o)
    rates = _rates(o)
    cfg = o.config
    folder = run_folder(out, o.opt_id)
    summary = _summary(o, rates)
    doc = Document(f"Optimize: {cfg.base.name}")
    field = ", ".join(f"{d} {100 * s:.0f}%" for d, s in cfg.shares_by_name.items())
    doc.add(Para(f"Optimization `{o.opt_id}` in `{db}`: {player_text(o)}, for both seats; seed {cfg.seed}. "
                 f"Field: {field}. Pool: {cfg.pool.described} "
                 f"({len(cfg.pool.cards)} cards" + (f", {len(cfg.pool.missions)} missions" if cfg.missions else "")
                 + ")" + ("; missions may change." if cfg.missions else "; missions kept.")
                 + (f" {elapsed / 60:.1f} minutes this session." if elapsed else "")))
    doc.add(Heading("Summary"), Bullets(summary))
    files: list[Path] = []
    terminal: list[Table] = []
    if o.proposal is not None:
        proposal_file = folder / "proposal.txt"
        verdict = "significant gain" if o.significant else "NOT a significant gain: keep your deck"
        proposal_file.write_text(V.to_text(o.proposal, f"{cfg.base.name} (optimized)",
                                           f"mythos optimize {o.opt_id}: {changes_text(o.changes)} ({verdict}; "
                                           f"{short_policy(cfg.policy)}, budget {cfg.budget:,} games)"),
                                 encoding="utf-8")
        files.append(proposal_file)
        title = "Changes to the deck" if o.significant else "The best change found (not significant: keep the deck)"
        doc.add(Heading("Changes"),
                Table(title, ["kind", "out", "in"], change_rows(o.changes), left=3,
                      note=f"The whole list: `{proposal_file.name}` (it passes `mythos validate`)."
                      if not o.validation else "The list does NOT pass `mythos validate`."))
        terminal.append(Table(title, ["kind", "out", "in"], change_rows(o.changes), left=3))
    conf = o.confirmation
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
        cols = ["opponent", "share", "games", "the deck", "95% CI", "proposal", "95% CI", "gain", "interval"]
        table = Table(f"Win rates of the deck as it is and the proposal ({short_policy(cfg.policy)}, the same seeds for both)",
                      cols, rows,
                      note="The field's gain carries a Bonferroni interval for every variant judged; each deck's gain "
                           "a plain 95% Agresti–Min interval for paired results. Win rates: Wilson intervals, the "
                           "field's from the decks' Jeffreys posteriors.")
        doc.add(Image(img, "win rates"), table)
        terminal.append(Table(f"The deck and the proposal on fresh games ({short_policy(cfg.policy)}; win rate, 95% interval)",
                              ["opponent", "games", "the deck", "proposal", "gain", "interval"],
                              [[r[0], r[2], f"{r[3]} ({r[4]})", f"{r[5]} ({r[6]})", r[7], r[8]] for r in rows]))
    plan = _plan_table(o)
    doc.add(Heading("The plan and the games"), plan)
    terminal.append(plan)
    rows = fates(o)
    if rows:
        cols = ["rank", "swaps", "cards", f"short-list gain ({short_policy(o.plan.cheap)})", "95% CI",
                f"race gain ({short_policy(cfg.policy)})", f"interval (corrected, m={o.tried})", "pairs of games",
                "what became of it"]
        note = (f"Rank: in the short list, by {short_policy(o.plan.cheap)}'s paired gain over the deck as it is "
                "(its short-list gain; merged: the screen's best single swaps made together, raced in the first "
                "step whatever their rank). "
                f"Race gain: {short_policy(cfg.policy)}'s "
                "race estimate, paired with the deck of that step (from the sample for a candidate that "
                "did not race). Race estimates favour the variants that went on: only the confirmation on fresh "
                "seeds above proves a gain.")
        doc.add(Heading("Candidates"), Table("The short list and what became of each candidate", cols,
                                             _candidate_rows(o, rows), left=3, note=note))
        term_rows = [[r[0], r[1], r[3], f"{r[5]} ({r[6]})" if r[6] != "—" else r[5], r[8]]
                     for r in _candidate_rows(o, rows[:TERMINAL_CANDIDATES])]
        terminal.append(Table(f"Candidates: the first {min(len(rows), TERMINAL_CANDIDATES)} of the short list's "
                              f"{len(rows)} (the page has them all)",
                              ["rank", "swaps", f"short-list gain ({short_policy(o.plan.cheap)})",
                               f"race gain ({short_policy(cfg.policy)}; corrected interval, m={o.tried})",
                               "what became of it"],
                              term_rows, left=2))
    figures = _figures_table(o)
    doc.add(Heading("How the search went"))
    if figures is not None:
        doc.add(figures)
    if o.screen is not None:
        fit = o.screen.fit
        ins, outs = _screen_ranks(o)
        runs = o.screen.runs or [o.screen.run_id]
        second = (f"; a second round (run `{runs[1]}`) drew its swaps among the {FOCUS_OUT} cards of the deck most "
                  f"worth taking out and the {FOCUS_IN} most worth bringing in by the first round's values (plus "
                  "one standard error, so that a card held in few games keeps its chance)") if len(runs) > 1 else ""
        doc.add(Para(f"**Screen ({short_policy(o.plan.cheap)}).** {o.screen.variants:,} random variants of the deck "
                     f"({cfg.screen_swaps} swaps each) played {o.screen.games:,} games. The first round (run "
                     f"`{runs[0]}`) drew the cards going out more often when they drag and the cards coming in half "
                     "from the whole pool, half by how well they fit the slot (its cost, the deck's groups and "
                     f"keywords){second}. A "
                     "regression of each game's result on the cards its deck held (its opening hand and what it "
                     "drew: the shuffle's doing, so every game is a trial of every card it held), with the games of "
                     "the calibration, gave every card a value: a copy of it against an average card of the deck, "
                     "in points of win rate. The values ranked the single swaps and pairs of the short list; they "
                     "only rank: they are not the gains reported."),
                Table(f"Screen ({short_policy(o.plan.cheap)}): most promising cards to bring in", ["card", "value", "± s.e.",
                                                                                    "games held"],
                      [[card_label(c), pp(v), pp(fit.se.get(("in", c, m))).lstrip("+"),
                        str(fit.seen.get(("in", c, m), 0))] for v, c, m in ins[:8]]),
                Table(f"Screen ({short_policy(o.plan.cheap)}): the deck's cards least missed when taken out",
                      ["card", "value", "± s.e.", "games held"],
                      [[card_label(c), pp(v), pp(fit.se.get(("out", c, m))).lstrip("+"),
                        str(fit.seen.get(("out", c, m), 0))] for v, c, m in outs[:8]]))
    else:
        doc.add(Para(f"**No screen**: the deck has {o.singles_possible} possible single swaps, few enough for the "
                     "short list to hold them all."))
    steps = []
    for r in o.races:
        best = r.best
        steps.append([str(r.step), V.label(best.swaps) if best else "—", "taken" if r.accepted else "not taken",
                      r.stopped, str(len(r.arms)), str(len(r.rounds)), f"{r.games:,}",
                      pp(best.estimate.gain) if best and best.estimate else "—", f"{r.reserve:,}"])
    doc.add(Para(f"**Races ({short_policy(cfg.policy)}).** Each step raced the short list's best from the deck of that step with "
                 f"successive halving (the better 1/{cfg.eta} goes on each round) and racing (a variant whose upper "
                 f"bound fell below the leader's lower bound, at z = {cfg.race_z}, stopped early); every round's "
                 "variants and the deck itself played the same fresh seeds, and a variant of the sample brought its "
                 f"games along. A step's best was taken when its paired gain was above 0 at z = {cfg.accept_z}. Each "
                 "step raced on part of the games left after those the confirmation held back: all it planned "
                 "before the first step was taken, then what proves the steps' gain so far (the sum of their "
                 f"gains less {cfg.accept_z} standard errors, with 90% power at the correction for twice the "
                 "variants judged)."),
            Table("Steps", ["step", "best", "taken?", "race stopped", "variants", "rounds", "games",
                            f"gain ({short_policy(cfg.policy)})", "held back for the proof"],
                  steps, left=4))
    if o.missions is not None:
        doc.add(*_missions_blocks(o))
    if conf is not None:
        doc.add(Heading("Proof"),
                Para(f"The deck as it is and the proposal then played {2 * conf.games:,} games of {short_policy(cfg.policy)} on "
                     f"fresh seeds (run `{o.confirm_run}`; {o.shared_seeds} of its seeds were played in the search), "
                     "the same seeds for both. The gain is the share-weighted paired difference; its interval is "
                     f"Bonferroni-corrected for the {o.tried} variants {short_policy(cfg.policy)} judged (z = {conf.z:.2f} instead "
                     f"of {z_value():.2f}). " + (
                         f"Common random numbers made its variance {conf.variance_ratio:.1f}× smaller than independent "
                         "games would." if conf.variance_ratio >= CRN_GAINED else
                         f"With {len(o.changes)} swap(s) the paired games soon part: common random numbers made its "
                         f"variance no smaller than independent games would ({conf.variance_ratio:.2f}×).")))
    files = write_document(doc, folder, "optimize", html=True, extra=files)  # the proposal's path once published
    return ReportResult("optimize", o.opt_id, db, numbers, files, summary, terminal, [])


__all__ = ["build", "fates", "outcome_json", "plan_table", "player_text", "runners_up", "short_policy",
           "win_rate_figure"]
