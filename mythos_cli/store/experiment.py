"""The reads of experiments (``mythos_cli.experiment``): a run's games as paired results.

An experiment's arms are ordinary runs, so these read the ``games`` view and the ``batches``
table like any report; they live here so that no SQL sits outside ``store``.

The mulligan and mission experiments also keep a row each in ``experiments`` (their settings,
to resume them and to read them back in a report; their games are ordinary runs)::

    experiments(exp_id, kind, name, config JSON, status, runs JSON, started_at, finished_at)

It is created the first time such an experiment is stored: databases without it are read as
they are.
"""

from __future__ import annotations

import json
from typing import Sequence

import duckdb
import polars as pl

from mythos_cli.store.db import SCHEMA_VERSION, Store, _explain, _now, _x, stored_json
from mythos_cli.store.layout import FLAGS, INTERNAL


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


def cards_held(store: Store, run_ids: Sequence[str]) -> pl.DataFrame:
    """Per game of the runs, the cards its studied deck held: its opening hand (after any
    mulligan) and every card it drew, one row per (``run_id``, ``game_no``, ``card``) with
    ``copies``, how many copies of it. A game whose deck held nothing (none) has no row."""
    try:
        return store.con.sql(
            f"""SELECT e.run_id, e.game_no, e.card, count(*)::INTEGER AS copies
                FROM {INTERNAL}card_events e
                JOIN {INTERNAL}games g ON g.run_id = e.run_id AND g.game_no = e.game_no
                WHERE list_contains($runs, e.run_id) AND e.seat = g.studied_seat
                  AND e.event IN ('opening', 'drawn') AND e.card IS NOT NULL
                GROUP BY e.run_id, e.game_no, e.card
                ORDER BY e.run_id, e.game_no, e.card""", params={"runs": list(run_ids)}).pl()
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


def _flag(name: str) -> str:
    """SQL: one of a game's packed flags (``layout.FLAGS``), decoded from ``g.flags``."""
    shift, bits, offset = next((f[1], f[2], f[3]) for f in FLAGS if f[0] == name)
    return f"(((g.flags >> {shift}) & {(1 << bits) - 1}) - {offset})"


def pair_games(store: Store, hashes: Sequence[str], policy: str, engine_version: str,
               catalog_hash: str) -> pl.DataFrame:
    """Every stored game between two different lists of ``hashes`` (deck contents), both players
    ``policy``, played by this engine version on this card catalog with each player's own mulligan
    rule, in any run: one row per distinct game (``deck_0_hash``, ``deck_1_hash``, ``seed``:
    a game stored twice, by two runs, counts once), with who had the first Edge and who won, and
    the first run that stored it. Games without a winner are left out (the Edge breaks every tie).

    On schema 2 it reads ``game_data`` and ``run_setups`` alone (the ``games`` view would join
    every game's missions too); a schema-1 file is read through its ``games`` table."""
    if (store.version or SCHEMA_VERSION) >= 2:
        source = f"""(SELECT g.run_id, g.seed, s.deck_0_hash, s.deck_1_hash, s.policy_0, s.policy_1,
                             {_flag('first_edge')} AS first_edge, {_flag('winner')} AS winner
                      FROM game_data g JOIN run_setups s ON s.run_id = g.run_id AND s.setup = g.setup)"""
    else:
        source = f"{INTERNAL}games"
    try:
        return store.con.sql(
            f"""SELECT g.deck_0_hash, g.deck_1_hash, g.seed,
                       any_value(g.first_edge)::TINYINT AS first_edge, any_value(g.winner)::TINYINT AS winner,
                       min(g.run_id) AS run_id
                FROM {source} g JOIN runs r ON r.run_id = g.run_id
                WHERE list_contains($hashes, g.deck_0_hash) AND list_contains($hashes, g.deck_1_hash)
                  AND g.deck_0_hash <> g.deck_1_hash AND g.policy_0 = $policy AND g.policy_1 = $policy
                  AND r.engine_version = $engine AND r.catalog_hash = $catalog AND coalesce(r.mulligan, '') = ''
                  AND g.winner IN (0, 1)
                GROUP BY g.deck_0_hash, g.deck_1_hash, g.seed
                ORDER BY g.deck_0_hash, g.deck_1_hash, g.seed""",
            params={"hashes": list(hashes), "policy": policy, "engine": engine_version,
                    "catalog": catalog_hash}).pl()
    except duckdb.Error as exc:
        raise _explain(store.path, exc) from None


def dealt_hands(store: Store, run_id: str, deck: str) -> pl.DataFrame:
    """Per game of ``deck`` in the run: ``game_no`` and ``hand``, the 5 cards it was dealt (before
    any mulligan), in the order dealt."""
    try:
        return store.con.sql(
            """SELECT game_no, list(card ORDER BY card) AS hand FROM card_events
               WHERE run_id = $run AND deck = $deck AND event = 'dealt' GROUP BY game_no ORDER BY game_no""",
            params={"run": run_id, "deck": deck}).pl()
    except duckdb.Error as exc:
        raise _explain(store.path, exc) from None


# -- the experiments table -------------------------------------------------------------------
DDL = """CREATE TABLE IF NOT EXISTS experiments (
    exp_id VARCHAR PRIMARY KEY, kind VARCHAR, name VARCHAR, config JSON, status VARCHAR, runs JSON,
    started_at TIMESTAMP, finished_at TIMESTAMP)"""


def _has_table(store: Store) -> bool:
    rows = _x(store.con, "SELECT count(*) FROM information_schema.tables WHERE table_name = 'experiments'")
    return bool(rows[0][0])


def get(store: Store, exp_id: str) -> dict | None:
    """The experiment's row (config and runs parsed), or None."""
    try:
        if not _has_table(store):
            return None
        rel = store.con.execute("SELECT * FROM experiments WHERE exp_id = ?", [exp_id])
        cols = [d[0] for d in rel.description]
        rows = rel.fetchall()
    except duckdb.Error as exc:
        raise _explain(store.path, exc) from None
    if not rows:
        return None
    row = dict(zip(cols, rows[0]))
    for k in ("config", "runs"):
        if isinstance(row[k], str):
            row[k] = stored_json(row[k])
    return row


def create(store: Store, exp_id: str, kind: str, name: str, config: dict) -> None:
    try:
        _x(store.con, DDL)
        _x(store.con, "INSERT INTO experiments VALUES (?, ?, ?, ?, 'running', '[]', ?, NULL)",
           [exp_id, kind, name, json.dumps(config), _now()])
    except duckdb.Error as exc:
        raise _explain(store.path, exc) from None


def set_status(store: Store, exp_id: str, status: str, runs: list[str] | None = None) -> None:
    finished = _now() if status == "finished" else None
    try:
        if runs is None:
            _x(store.con, "UPDATE experiments SET status = ?, finished_at = ? WHERE exp_id = ?",
               [status, finished, exp_id])
        else:
            _x(store.con, "UPDATE experiments SET status = ?, runs = ?, finished_at = ? WHERE exp_id = ?",
               [status, json.dumps(runs), finished, exp_id])
    except duckdb.Error as exc:
        raise _explain(store.path, exc) from None


def listing(store: Store, kind: str | None = None) -> list[dict]:
    """Every experiment (of ``kind``), oldest first, config parsed."""
    try:
        if not _has_table(store):
            return []
        rel = store.con.execute("SELECT * FROM experiments WHERE ? IS NULL OR kind = ? ORDER BY started_at, exp_id",
                                [kind, kind])
        cols = [d[0] for d in rel.description]
        rows = [dict(zip(cols, r)) for r in rel.fetchall()]
    except duckdb.Error as exc:
        raise _explain(store.path, exc) from None
    for row in rows:
        for k in ("config", "runs"):
            if isinstance(row[k], str):
                row[k] = stored_json(row[k])
    return rows


__all__ = ["DDL", "cards_held", "create", "dealt_hands", "get", "listing", "pair_games", "results", "set_status", "shared_seeds", "stored_games"]
