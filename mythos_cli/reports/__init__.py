"""Reports on a simulation run: win rates, mulligans, curves, cards and tournament prep.

Data is read from DuckDB through ``mythos_cli.store.read``, aggregated with Polars, judged
with scipy, drawn with matplotlib (Agg) and written as Markdown + PNG (the prep
report also as one self-contained HTML page) under ``<out>/<run>/``.

>>> from mythos_cli.reports import make_report
>>> result = make_report("winrate", "mythos.duckdb")            # doctest: +SKIP
>>> result.files[0], result.numbers["vs_field"][0]["win_rate"]  # doctest: +SKIP
"""

from __future__ import annotations

from pathlib import Path

from mythos_cli.files import out_hint
from mythos_cli.reports.base import ReportResult, discard_staging
from mythos_cli.reports.data import MIN_GAMES, ReportError, open_run
from mythos_cli.store import StoreError
from mythos_cli.store.db import stored_json

KINDS = ("winrate", "mulligan", "curve", "cards", "prep", "compare")


def make_report(kind: str, db: Path | str, *, run: str | None = None, deck: str | None = None,
                out: Path | str = "reports", field: str | None = None, min_games: int = MIN_GAMES,
                examples: bool = False, check_policy: str | None = None, check_games: int = 30,
                workers: int = 0, progress=None, deck_b: str | None = None, run_b: str | None = None,
                db_b: Path | str | None = None, mulligan_run: str | None = None,
                missions_run: str | None = None) -> ReportResult:
    """Build one report of a run (default: the newest finished run) and write its files.

    Every report's header and summary name the run's players and budgets; ``winrate`` and
    ``prep`` add a sensitivity line when the run mixes players, and with ``check_policy`` play
    the first ``check_games`` games of a sample of matchups again with that player.

    Raises ``ReportError`` for every problem the user can fix (missing or locked database,
    unknown run or deck, empty run, bad ``field``, unwritable ``out``)."""
    if kind == "compare":
        return _compare(db, run, deck, deck_b, run_b, db_b, out, min_games, field)
    if kind == "mulligan" and run:
        experiment = _mulligan_experiment(db, run, out)
        if experiment is not None:
            return experiment
    result = _make(kind, db, run=run, deck=deck, out=out, field=field, min_games=min_games, examples=examples,
                   check_policy=check_policy, check_games=check_games, workers=workers, progress=progress,
                   mulligan_run=mulligan_run, missions_run=missions_run)
    return result


def _mulligan_experiment(db, run: str, out) -> ReportResult | None:
    """``report mulligan --run ID`` of a mulligan experiment: its page (None: an ordinary run)."""
    from mythos_cli.reports import mulligan
    from mythos_cli.store import experiment as xstore

    with open_run(db, run) as rd:
        row = xstore.get(rd.store, run)
        if row is None or row["kind"] != "mulligan":
            return None
        return _guarded(lambda: mulligan.experiment_report(rd.store, str(db), Path(out), run), out)


def _make(kind, db, *, run, deck, out, field, min_games, examples, check_policy, check_games, workers,
          progress, mulligan_run=None, missions_run=None) -> ReportResult:
    from mythos_cli.reports.data import resolve_deck
    from mythos_cli.reports.players import check_results, mixed_line, players_line
    if kind not in KINDS:
        raise ReportError(f"unknown report {kind!r}", "reports: " + ", ".join(KINDS))
    if min_games < 1:
        raise ReportError("--min-games must be at least 1")
    if run is not None and not run.strip():
        raise ReportError("--run is empty", "give a run id (`mythos db runs` lists them), or leave --run out "
                                            "for the newest finished run")
    if deck is not None and not deck.strip():
        raise ReportError("--deck is empty", "give a deck name, or leave --deck out for every deck")
    out = Path(out)
    from mythos_cli.reports import cards, curve, mulligan, prep, winrate

    if check_policy and kind not in ("winrate", "prep"):
        raise ReportError("--check-policy goes with the winrate and prep reports")
    if check_games < 1:
        raise ReportError("--check-games must be at least 1")
    with open_run(db, run) as rd:
        try:  # a report that fails half-way leaves no staging folder behind (base.run_folder)
            if kind == "prep" and not deck:
                raise ReportError("the prep report is about one deck: give it",
                                  "e.g. mythos report prep \"Leaf Village Team 7\" --field \"Sand Village=50,…\"")
            checked = _check(rd, check_policy, check_games, deck if kind == "prep" else None, workers, progress) \
                if check_policy else None
            lines, tables, extra = [players_line(rd)], [], {}
            if kind in ("winrate", "prep"):
                line, rows = mixed_line(rd, [resolve_deck(rd, deck)] if kind == "prep" else None)
                extra["players"] = {"policy_a": rd.info.get("policy_a"), "policy_b": rd.info.get("policy_b"),
                                    "by_policy": rows}
                if line:
                    lines.append(line)
                if checked is not None:
                    found, table, line = check_results(rd, checked)
                    extra["policy_check"] = found
                    tables.append(table)
                    lines.append(line)
            players = (lines, tables)
            if kind == "winrate":
                result = winrate.report(rd, out, field_spec=field, deck=deck, examples=examples, players=players)
            elif kind == "mulligan":
                result = mulligan.report(rd, out, deck=deck, min_games=min_games)
            elif kind == "curve":
                result = curve.report(rd, out, deck=deck)
            elif kind == "cards":
                result = cards.report(rd, out, deck=deck, min_games=min_games)
            else:
                result = prep.report(rd, out, deck, field_spec=field, min_games=min_games, examples=examples,
                                     players=players, mulligan_run=mulligan_run, missions_run=missions_run)
            result.numbers.update(extra)
            result.tables[len(result.tables):] = tables
            result.summary[:0] = lines
            return result
        except StoreError as exc:
            raise ReportError(str(exc)) from None
        except OSError as exc:  # a plot or page that cannot be written
            raise ReportError(f"cannot write the report under {out}: {exc.strerror or exc}", out_hint(exc)) from None
        finally:
            discard_staging()


def _compare(db, run, deck, deck_b, run_b, db_b, out, min_games, field=None) -> ReportResult:
    from mythos_cli.reports import compare

    if not deck or not deck_b or not deck.strip() or not deck_b.strip():
        raise ReportError("compare takes two decks", "e.g. mythos report compare leaf sand, or one deck with --run-b RUN")
    for flag, value in (("--run", run), ("--run-b", run_b)):
        if value is not None and not value.strip():
            raise ReportError(f"{flag} is empty", "give a run id (`mythos db runs` lists them), or leave it out")
    out = Path(out)
    with open_run(db, run) as ra:
        if (run_b is None or run_b == ra.run_id) and db_b is None:
            rb = ra
            return _guarded(lambda: compare.report(ra, rb, out, deck, deck_b, field), out)
        with open_run(db_b or db, run_b) as rb:
            return _guarded(lambda: compare.report(ra, rb, out, deck, deck_b, field), out)


def _guarded(fn, out):
    try:  # as in _make: a report that fails half-way leaves no staging folder behind
        return fn()
    except StoreError as exc:
        raise ReportError(str(exc)) from None
    except OSError as exc:
        raise ReportError(f"cannot write the report under {out}: {exc.strerror or exc}", out_hint(exc)) from None
    finally:
        discard_staging()


def _check(rd, policy: str, games: int, deck: str | None, workers: int, progress):
    """Play the first games of a sample of the run's matchups again with ``policy``."""
    from mythos_cli.policies import PolicySpecError
    from mythos_cli.reports.data import resolve_deck
    from mythos_cli.sim.check import policy_check
    from mythos_cli.sim.plan import RunConfig

    cfg = rd.info.get("config")
    try:
        config = RunConfig.from_json(stored_json(cfg))
    except (ValueError, TypeError) as exc:  # json's errors and PlanError
        raise ReportError(f"run {rd.run_id}: its stored configuration is damaged ({exc}), so its games cannot be "
                          "played again", "report without --check-policy, or simulate the decks again") from None
    try:
        return policy_check(config, policy, games=games, decks={resolve_deck(rd, deck)} if deck else None,
                            workers=workers, progress=progress)
    except PolicySpecError as exc:
        raise ReportError(f"--check-policy: {exc}", "e.g. --check-policy search:strong (the reference) or lookahead:sims=24") from None


__all__ = ["KINDS", "MIN_GAMES", "ReportError", "ReportResult", "make_report", "open_run"]
