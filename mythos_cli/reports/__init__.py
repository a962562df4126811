"""Reports on a simulation run: win rates, mulligans, curves, cards and tournament prep.

Data is read from DuckDB through ``mythos_cli.store.read``, aggregated with Polars, judged
with statsmodels/scipy, drawn with matplotlib (Agg) and written as Markdown + PNG (the prep
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

KINDS = ("winrate", "mulligan", "curve", "cards", "prep")


def make_report(kind: str, db: Path | str, *, run: str | None = None, deck: str | None = None,
                out: Path | str = "reports", field: str | None = None, min_games: int = MIN_GAMES) -> ReportResult:
    """Build one report of a run (default: the newest finished run) and write its files.

    Raises ``ReportError`` for every problem the user can fix (missing or locked database,
    unknown run or deck, empty run, bad ``field``, unwritable ``out``)."""
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

    with open_run(db, run) as rd:
        try:  # a report that fails half-way leaves no staging folder behind (base.run_folder)
            if kind == "winrate":
                return winrate.report(rd, out, field_spec=field, deck=deck)
            if kind == "mulligan":
                return mulligan.report(rd, out, deck=deck, min_games=min_games)
            if kind == "curve":
                return curve.report(rd, out, deck=deck)
            if kind == "cards":
                return cards.report(rd, out, deck=deck, min_games=min_games)
            if not deck:
                raise ReportError("the prep report is about one deck: give it",
                                  "e.g. mythos report prep \"Leaf Village Team 7\" --field \"Sand Village=50,…\"")
            return prep.report(rd, out, deck, field_spec=field, min_games=min_games)
        except StoreError as exc:
            raise ReportError(str(exc)) from None
        except OSError as exc:  # a plot or page that cannot be written
            raise ReportError(f"cannot write the report under {out}: {exc.strerror or exc}", out_hint(exc)) from None
        finally:
            discard_staging()


__all__ = ["KINDS", "MIN_GAMES", "ReportError", "ReportResult", "make_report", "open_run"]
