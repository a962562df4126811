"""The missions experiment's page: which three missions to bring, with the gain and its interval."""

from __future__ import annotations

from pathlib import Path

from mythos_cli.reports import plots
from mythos_cli.reports.base import ReportResult, run_folder, write_document
from mythos_cli.reports.data import ReportError, mission_name, slug
from mythos_cli.reports.doc import Document, Heading, Image, Para, Table, interval, pp


def _names(missions) -> str:
    return ", ".join(f"{m} {mission_name(m)}" for m in missions)


def experiment_analysis(store, exp_id: str, field: dict[str, float] | None = None,
                        lists: dict[str, tuple] | None = None) -> dict:
    """A stored missions experiment's answer, for its own field's shares or another field's."""
    from mythos_cli.experiment import ExperimentError
    from mythos_cli.experiment import missions as mis
    from mythos_cli.experiment.field import match_field
    from mythos_cli.store import experiment as xstore

    row = xstore.get(store, exp_id)
    missing: list[str] = []
    shares = None
    if row is not None and field is not None:
        config = mis.MissionsConfig.from_json(row["config"])
        shares, missing = match_field(config.field, lists or {}, field)
        if not shares:
            raise ReportError(f"missions experiment {exp_id} played none of this field's decks",
                              "run one against this field: mythos experiment missions DECK --field …")
    try:
        outcome = mis.read(store, exp_id, shares)
    except ExperimentError as exc:
        raise ReportError(exc.message, exc.hint) from None
    a = outcome.to_json()
    a["shares"] = shares or outcome.config.shares_by_name
    a["field_missing"] = missing
    return a


def experiment_blocks(a: dict, folder: Path, prefix: str, level: int = 2) -> list:
    from mythos_cli.reports.players import policy_label
    from mythos_cli.reports.winrate import field_text

    deck = a["deck"]
    conf = a["confirmation"]
    own = a["own_missions"]
    if a["best"] and conf:
        verdict = (f"**Bring {_names(a['best'])}** instead of {_names(own)}: {pp(conf['gain'])} against this field "
                   f"on {conf['pairs_of_games']} fresh pairs of games (95% interval {interval(*conf['ci'], points=True)}"
                   f" pp, Bonferroni over the {a['tried']} selections raced)." if a["advice"] == "bring" else
                   f"**Keep the deck's own missions** ({_names(own)}): the best selection raced, {_names(a['best'])}, "
                   f"gains {pp(conf['gain'])} on fresh games (95% interval {interval(*conf['ci'], points=True)} pp, "
                   f"Bonferroni over the {a['tried']} selections raced), not clearly above 0.")
    else:
        verdict = "No selection could be confirmed within the budget: raise --budget."
    ranked = a["ranked"]
    rows = [[_names(r["missions"]), str(r["rounds"]), str(r["gain"]["pairs_of_games"]), pp(r["gain"]["gain"]),
             interval(*r["gain"]["ci"], points=True)] for r in ranked]
    blocks = [Heading("Missions by experiment", level), Para(verdict),
              Para(f"Experiment `{a['experiment']}`: {a['selections']} selections of 3 from {len(a['candidates'])} "
                   f"candidate missions" + (f", {a['screened']} of them screened," if a["screened"] else "")
                   + f" {a['tried']} raced against the deck's own on common random numbers (the same seeds, seats "
                   f"and opponents), the best confirmed on fresh seeds; {a['games']:,} games by "
                   f"{policy_label(a['policy'])} (seed {a['seed']}). Field: {field_text(a['shares'])}."
                   + (f" Not played by the experiment, so left out: {', '.join(a['field_missing'])}."
                      if a.get("field_missing") else ""))]
    if ranked:
        img = plots.diff_bars([" + ".join(r["missions"]) for r in ranked], [r["gain"]["gain"] for r in ranked],
                              [r["gain"]["ci"][0] for r in ranked], [r["gain"]["ci"][1] for r in ranked],
                              [r["gain"]["pairs_of_games"] for r in ranked], folder / f"{prefix}-{slug(deck)}.png",
                              f"{deck}: each selection raced minus its own missions\n(intervals for {a['tried']} "
                              "at once)", sides=("own missions better", "selection better"))
        blocks += [Image(img, "missions raced"),
                   Table("Selections raced (the confirmed one first)", ["missions", "rounds", "pairs", "gain",
                                                                       f"95% CI ({a['tried']} at once)"], rows,
                         note="Gain: the selection's win rate minus the deck's own missions' on the same games "
                              "(Agresti–Min, the field's decks in their shares), over the race's rounds it played.")]
    return blocks


def experiment_report(store, db: str, out: Path, exp_id: str) -> ReportResult:
    a = experiment_analysis(store, exp_id)
    folder = run_folder(out, exp_id)
    doc = Document(f"Missions by experiment — {a['deck']}")
    doc.add(*experiment_blocks(a, folder, "missions-experiment")[1:])
    files = write_document(doc, folder, "missions-experiment", html=True)
    summary = [doc.blocks[0].text]
    table = Table(f"{a['deck']}: missions raced against its own", ["missions", "gain", "95% CI"],
                  [[" ".join(r["missions"]), pp(r["gain"]["gain"]), interval(*r["gain"]["ci"], points=True)]
                   for r in a["ranked"][:8]])
    return ReportResult("missions", exp_id, db, a, files, summary, [table], [])


__all__ = ["experiment_analysis", "experiment_blocks", "experiment_report"]
