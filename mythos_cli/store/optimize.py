"""What ``mythos optimize`` keeps besides its games: one row per optimization, and its reads.

An optimization's games are ordinary runs (``runs``, ``game_data`` …, one run per stage:
the screen, each race round, the confirmation), so every report and export reads them. The
table ``optimizations`` adds the search's settings (to resume it) and its final answer::

    optimizations(opt_id, name, config JSON, status, result JSON, started_at, finished_at)

It is created the first time an optimization is stored: databases without it are read as
they are.
"""

from __future__ import annotations

import json
import duckdb
import polars as pl

from mythos_cli.store.db import Store, StoreError, _explain, _now, _x, stored_json

DDL = """CREATE TABLE IF NOT EXISTS optimizations (
    opt_id VARCHAR PRIMARY KEY, name VARCHAR, config JSON, status VARCHAR, result JSON,
    started_at TIMESTAMP, finished_at TIMESTAMP)"""


def _has_table(store: Store) -> bool:
    rows = _x(store.con, "SELECT count(*) FROM information_schema.tables WHERE table_name = 'optimizations'")
    return bool(rows[0][0])


def get(store: Store, opt_id: str) -> dict | None:
    """The optimization's row (config and result parsed), or None."""
    if not _has_table(store):
        return None
    try:
        rel = store.con.execute("SELECT * FROM optimizations WHERE opt_id = ?", [opt_id])
        cols = [d[0] for d in rel.description]
        rows = rel.fetchall()
    except duckdb.Error as exc:
        raise _explain(store.path, exc) from None
    if not rows:
        return None
    row = dict(zip(cols, rows[0]))
    for k in ("config", "result"):
        if isinstance(row[k], str):
            row[k] = stored_json(row[k])
    return row


def create(store: Store, opt_id: str, name: str, config: dict) -> None:
    try:
        _x(store.con, DDL)
        _x(store.con, "INSERT INTO optimizations VALUES (?, ?, ?, 'running', NULL, ?, NULL)",
           [opt_id, name, json.dumps(config), _now()])
    except duckdb.Error as exc:
        raise _explain(store.path, exc) from None


def set_status(store: Store, opt_id: str, status: str, result: dict | None = None) -> None:
    finished = _now() if status == "finished" else None
    try:
        if result is None:
            _x(store.con, "UPDATE optimizations SET status = ?, finished_at = ? WHERE opt_id = ?",
               [status, finished, opt_id])
        else:
            _x(store.con, "UPDATE optimizations SET status = ?, result = ?, finished_at = ? WHERE opt_id = ?",
               [status, json.dumps(result), finished, opt_id])
    except duckdb.Error as exc:
        raise _explain(store.path, exc) from None


def set_config(store: Store, opt_id: str, config: dict) -> None:
    """Store the settings again once the search has completed them (the budget ``--minutes`` chose)."""
    try:
        _x(store.con, "UPDATE optimizations SET config = ? WHERE opt_id = ?", [json.dumps(config), opt_id])
    except duckdb.Error as exc:
        raise _explain(store.path, exc) from None


def stage_runs(store: Store) -> dict[str, str]:
    """Each run that is a stage of an optimization (``ID-…``, named ``optimize ID: …``, or its
    missions experiment's ``missions ID-missions: …``), with its optimization's id."""
    if not _has_table(store):
        return {}
    try:
        rows = _x(store.con, """SELECT r.run_id, o.opt_id FROM runs r JOIN optimizations o
                                ON starts_with(r.run_id, o.opt_id || '-')
                                AND (starts_with(r.name, 'optimize ' || o.opt_id || ':')
                                     OR starts_with(r.name, 'missions ' || o.opt_id || '-missions:'))""")
    except duckdb.Error as exc:
        raise _explain(store.path, exc) from None
    # an id that is a prefix of another's (opt, opt-2): the longest match is the run's own
    out: dict[str, str] = {}
    for run_id, opt_id in rows:
        if len(opt_id) > len(out.get(run_id, "")):
            out[run_id] = opt_id
    return out


def summaries(store: Store) -> dict[str, dict]:
    """Per optimization: its name, status, deck, field, players and budget (from its settings)."""
    if not _has_table(store):
        return {}
    try:
        rows = _x(store.con, "SELECT opt_id, name, status, config FROM optimizations")
    except duckdb.Error as exc:
        raise _explain(store.path, exc) from None
    out = {}
    for opt_id, name, status, config in rows:
        try:
            c = json.loads(config) if isinstance(config, str) else (config or {})
            deck, field = c["base"]["name"], [d["name"] for d in c.get("field", [])]
            policy, cheap = c.get("policy"), c.get("screen_policy")
            budget = c.get("budget")
        except (ValueError, KeyError, TypeError, RecursionError):  # damaged settings: listed, not read
            deck, field, policy, cheap, budget = "?", [], None, None, None
        out[opt_id] = {"name": name, "status": status, "deck": deck, "field": field, "policy": policy,
                       "screen_policy": cheap, "budget": budget}
    return out


def listing(store: Store) -> pl.DataFrame:
    """Every optimization: id, name, status, start and end."""
    if not _has_table(store):
        return pl.DataFrame(schema={"opt_id": pl.String, "name": pl.String, "status": pl.String,
                                    "started_at": pl.Datetime, "finished_at": pl.Datetime})
    return store.query("SELECT opt_id, name, status, started_at, finished_at FROM optimizations ORDER BY started_at")


__all__ = ["StoreError", "create", "get", "listing", "set_config", "set_status", "stage_runs", "summaries"]
