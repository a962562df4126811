"""The reads of experiments (``mythos_cli.experiment``): a run's games as paired results.

An experiment's arms are ordinary runs, so these read the ``games`` view and the ``batches``
table like any report; they live here so that no SQL sits outside ``store``.
"""

from __future__ import annotations

from typing import Sequence

import duckdb
import polars as pl

from mythos_cli.store.db import Store, _explain, _x


def results(store: Store, run_id: str) -> pl.DataFrame:
    """One row per game of a run: the studied deck, its opponent, seat, seed, and whether it won."""
    try:
        return store.con.sql(
            """SELECT game_no,
                      CASE WHEN studied_seat = 0 THEN deck_0 ELSE deck_1 END AS deck,
                      CASE WHEN studied_seat = 0 THEN deck_1 ELSE deck_0 END AS opponent,
                      studied_seat AS seat, seed, coalesce(winner = studied_seat, false) AS won
               FROM games WHERE run_id = $run ORDER BY game_no""", params={"run": run_id}).pl()
    except duckdb.Error as exc:
        raise _explain(store.path, exc) from None


def stored_games(store: Store, run_id: str) -> int:
    """Games of the run stored so far (its committed batches)."""
    try:
        rows = _x(store.con, "SELECT coalesce(sum(games), 0) FROM batches WHERE run_id = ?", [run_id])
    except duckdb.Error as exc:
        raise _explain(store.path, exc) from None
    return int(rows[0][0])


def shared_seeds(store: Store, run_id: str, others: Sequence[str]) -> int:
    """How many distinct seeds of ``run_id`` any of the ``others`` runs played too."""
    if not others:
        return 0
    try:
        rows = _x(store.con, """SELECT count(DISTINCT seed) FROM game_data
                                WHERE run_id = ? AND seed IN (SELECT seed FROM game_data
                                                              WHERE list_contains(?::VARCHAR[], run_id))""",
                  [run_id, list(others)])
    except duckdb.Error as exc:
        raise _explain(store.path, exc) from None
    return int(rows[0][0])


__all__ = ["results", "shared_seeds", "stored_games"]
