"""Thin reads of one run for the reports: SQL stays here, every aggregation is Polars.

Each helper selects the rows of one run (optionally one deck, some events) and returns a
typed Polars frame; DuckDB errors become ``StoreError`` with an explanation.
"""

from __future__ import annotations

from typing import Any, Sequence

import duckdb
import polars as pl

from mythos_cli.store.db import Store, _explain


def _frame(store: Store, sql: str, params: dict[str, Any]) -> pl.DataFrame:
    try:
        # .pl() keeps DuckDB's column types (lists, tinyints) where a row fetch would not
        return store.con.sql(sql, params=params).pl()
    except duckdb.Error as exc:
        raise _explain(store.path, exc) from None


def newest_finished_run(store: Store) -> str | None:
    """The run that finished last (None when no run has finished)."""
    df = _frame(store, "SELECT run_id FROM runs WHERE status = 'finished' "
                       "ORDER BY finished_at DESC NULLS LAST, started_at DESC LIMIT 1", {})
    return df.item(0, 0) if df.height else None


def run_games(store: Store, run_id: str) -> pl.DataFrame:
    return _frame(store, "SELECT * FROM games WHERE run_id = $run ORDER BY game_no", {"run": run_id})


def run_player_rounds(store: Store, run_id: str, decks: Sequence[str] | None = None) -> pl.DataFrame:
    sql = ("SELECT game_no, seat, deck, round, chakra_gained, chakra_spent, chakra_left, cards_drawn, "
           "played_face_up, played_hidden, revealed, upgraded, characters_in_play, missions_won, points "
           "FROM player_rounds WHERE run_id = $run")
    params: dict[str, Any] = {"run": run_id}
    if decks is not None:
        sql += " AND list_contains($decks, deck)"
        params["decks"] = list(decks)
    return _frame(store, sql, params)


def run_card_events(store: Store, run_id: str, events: Sequence[str],
                    decks: Sequence[str] | None = None) -> pl.DataFrame:
    """Card events of a run: ``dealt``, ``opening``, ``drawn``, ``played`` (any subset)."""
    sql = ("SELECT game_no, seat, deck, card, event, round, how, mission_rank, won_mission FROM card_events "
           "WHERE run_id = $run AND list_contains($events, event)")
    params: dict[str, Any] = {"run": run_id, "events": list(events)}
    if decks is not None:
        sql += " AND list_contains($decks, deck)"
        params["decks"] = list(decks)
    return _frame(store, sql, params)


def stored_game(store: Store, run_id: str, game_no: int) -> dict | None:
    """One game's stored row (``game_data``) with its setup's strings, or None."""
    from mythos_cli.store import layout

    cols = ", ".join(f"g.{c}" for c, _ in layout.GAME_DATA) + ", " + ", ".join(f"s.{c}" for c in layout.SETUP)
    df = _frame(store, f"SELECT {cols} FROM game_data g JOIN run_setups s ON s.run_id = g.run_id AND "
                       "s.setup = g.setup WHERE g.run_id = $run AND g.game_no = $game", {"run": run_id, "game": game_no})
    return df.row(0, named=True) if df.height else None


def losses(store: Store, run_id: str, deck: str, opponent: str, limit: int = 5) -> list[int]:
    """Game numbers of the run's games ``deck`` lost to ``opponent`` (either seat), first ones first."""
    df = _frame(store, "SELECT game_no FROM games WHERE run_id = $run AND ((deck_0 = $d AND deck_1 = $o AND winner = 1)"
                       " OR (deck_1 = $d AND deck_0 = $o AND winner = 0)) ORDER BY game_no LIMIT $n",
                {"run": run_id, "d": deck, "o": opponent, "n": limit})
    return df["game_no"].to_list() if df.height else []


def run_decks(store: Store) -> dict[str, dict[str, list[str]]]:
    """Per run: the names of its studied decks and of its opponents (from its configuration)."""
    import json

    out: dict[str, dict[str, list[str]]] = {}
    for run_id, cfg in store.con.execute("SELECT run_id, config FROM runs").fetchall():
        try:
            c = json.loads(cfg) if isinstance(cfg, str) else (cfg or {})
            names = [d["name"] for d in c.get("decks", [])]
            out[run_id] = {"studied": [names[i] for i in c.get("studied", []) if i < len(names)],
                           "opponents": [names[i] for i in c.get("opponents", []) if i < len(names)]}
        except (ValueError, KeyError, TypeError):
            out[run_id] = {"studied": [], "opponents": []}
    return out
