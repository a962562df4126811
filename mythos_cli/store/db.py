"""The simulation database.

Tables (schema version ``SCHEMA_VERSION``, created and migrated by the tool):

* ``meta(key, value)``: the schema version.
* ``runs``: one row per run: its id, name, config (JSON), seed, policies, engine and
  catalog version and hash, planned games and batches, started/finished, status
  (running, interrupted, finished).
* ``batches``: which batches of a run are stored (a batch's rows and its batch row land in
  one transaction, so a run interrupted at any point keeps only whole batches).
* ``games``: one row per game.
* ``player_rounds``: one row per game, seat and round.
* ``card_events``: one row per card event of a player: ``dealt`` (the first 5 cards, before
  any mulligan), ``opening`` (the hand kept after the mulligan), ``drawn`` (in round r),
  ``played`` (round, how: face_up/hidden/upgrade/reveal, the mission's rank, whether that
  player won the mission in that round's evaluation).
"""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import duckdb
import polars as pl

SCHEMA_VERSION = 1


class StoreError(Exception):
    """A database problem explained for the user (what, where, how to fix)."""


DDL = [
    "CREATE TABLE IF NOT EXISTS meta (key VARCHAR PRIMARY KEY, value VARCHAR)",
    """CREATE TABLE IF NOT EXISTS runs (
        run_id VARCHAR PRIMARY KEY, name VARCHAR, config JSON, seed UBIGINT,
        policy_a VARCHAR, policy_b VARCHAR, mulligan VARCHAR,
        engine_version VARCHAR, catalog_hash VARCHAR,
        planned_games INTEGER, planned_batches INTEGER,
        started_at TIMESTAMP, finished_at TIMESTAMP, status VARCHAR)""",
    """CREATE TABLE IF NOT EXISTS batches (
        run_id VARCHAR, batch_no INTEGER, games INTEGER, stored_at TIMESTAMP,
        PRIMARY KEY (run_id, batch_no))""",
    """CREATE TABLE IF NOT EXISTS games (
        run_id VARCHAR, game_no INTEGER, batch_no INTEGER, matchup VARCHAR, studied_seat TINYINT,
        deck_0 VARCHAR, deck_0_hash VARCHAR, deck_1 VARCHAR, deck_1_hash VARCHAR,
        policy_0 VARCHAR, policy_1 VARCHAR, seed UBIGINT, first_edge TINYINT,
        missions VARCHAR[], mission_owners TINYINT[], mulligan_0 BOOLEAN, mulligan_1 BOOLEAN,
        round_scores_0 INTEGER[], round_scores_1 INTEGER[], score_0 INTEGER, score_1 INTEGER,
        winner TINYINT, tiebreak_by_edge BOOLEAN, final_edge TINYINT, decisions INTEGER,
        PRIMARY KEY (run_id, game_no))""",
    """CREATE TABLE IF NOT EXISTS player_rounds (
        run_id VARCHAR, game_no INTEGER, seat TINYINT, deck VARCHAR, round TINYINT,
        chakra_gained INTEGER, chakra_spent INTEGER, chakra_left INTEGER, cards_drawn INTEGER,
        played_face_up INTEGER, played_hidden INTEGER, revealed INTEGER, upgraded INTEGER,
        cost_face_up INTEGER[], characters_in_play INTEGER, missions_won INTEGER,
        points INTEGER, edge BOOLEAN)""",
    """CREATE TABLE IF NOT EXISTS card_events (
        run_id VARCHAR, game_no INTEGER, seat TINYINT, deck VARCHAR, card VARCHAR,
        event VARCHAR, round TINYINT, how VARCHAR, mission_rank VARCHAR, won_mission BOOLEAN)""",
]
TABLES = ("games", "player_rounds", "card_events")


def _x(con: duckdb.DuckDBPyConnection, sql: str, params: list[Any] | None = None) -> list[tuple]:
    """Execute and drain: DuckDB 2 streams results, and an undrained one blocks the connection."""
    return con.execute(sql, params or []).fetchall()


def _now() -> datetime:
    return datetime.now(timezone.utc).replace(tzinfo=None)


def _explain(path: Path, exc: Exception) -> StoreError:
    text = str(exc)
    low = text.lower()
    if "lock" in low:
        return StoreError(f"{path}: the database is in use by another mythos process (a running simulation?). "
                          "Wait for it to finish, or pass --db with another file (or read a copy of this one).")
    if "not a valid duckdb" in low or "invalid" in low and "database" in low or "magic" in low:
        return StoreError(f"{path}: this file is not a DuckDB database written by mythos. "
                          "Choose another path with --db (the file was left untouched).")
    if "read-only" in low or "permission" in low or "read only" in low:
        return StoreError(f"{path}: cannot write here (read-only file or folder). Pass --db with a writable path.")
    if "no space" in low or "disk" in low and "full" in low:
        return StoreError(f"{path}: the disk is full. Free some space or pass --db on another disk; "
                          "finished batches are kept and `mythos simulate --resume RUN` continues.")
    return StoreError(f"{path}: database error: {text}")


class Store:
    """One open database. Use as a context manager; writes happen in transactions."""

    def __init__(self, path: Path, con: duckdb.DuckDBPyConnection, read_only: bool):
        self.path, self.con, self.read_only = path, con, read_only

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        try:
            self.con.close()
        except duckdb.Error:
            pass

    # -- runs ------------------------------------------------------------------------------
    def create_run(self, run_id: str, name: str, config: dict, *, seed: int, policy_a: str, policy_b: str,
                   mulligan: str, engine_version: str, catalog_hash: str, planned_games: int,
                   planned_batches: int) -> None:
        if self.run(run_id) is not None:
            raise StoreError(f"{self.path}: a run named {run_id!r} exists already; choose another --run-name "
                             f"or resume it with `mythos simulate --resume {run_id}`")
        self._exec("INSERT INTO runs VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, 'running')",
                   [run_id, name, json.dumps(config), seed, policy_a, policy_b, mulligan, engine_version,
                    catalog_hash, planned_games, planned_batches, _now()])

    def run(self, run_id: str) -> dict | None:
        rows = self.query("SELECT * FROM runs WHERE run_id = ?", [run_id])
        return rows.row(0, named=True) if rows.height else None

    def runs(self) -> pl.DataFrame:
        return self.query("""
            SELECT r.run_id, r.name, r.status, r.policy_a, r.policy_b, r.planned_games,
                   coalesce(g.n, 0) AS stored_games, r.started_at, r.finished_at
            FROM runs r LEFT JOIN (SELECT run_id, count(*) AS n FROM games GROUP BY run_id) g USING (run_id)
            ORDER BY r.started_at""")

    def set_status(self, run_id: str, status: str) -> None:
        finished = _now() if status == "finished" else None
        self._exec("UPDATE runs SET status = ?, finished_at = ? WHERE run_id = ?", [status, finished, run_id])

    def done_batches(self, run_id: str) -> set[int]:
        return {r[0] for r in _x(self.con, "SELECT batch_no FROM batches WHERE run_id = ?", [run_id])}

    def delete_run(self, run_id: str) -> int:
        if self.run(run_id) is None:
            raise StoreError(f"{self.path}: no run {run_id!r}; `mythos db runs` lists them")
        n = _x(self.con, "SELECT count(*) FROM games WHERE run_id = ?", [run_id])[0][0]
        try:
            _x(self.con, "BEGIN TRANSACTION")
            for t in TABLES + ("batches", "runs"):
                _x(self.con, f"DELETE FROM {t} WHERE run_id = ?", [run_id])
            _x(self.con, "COMMIT")
        except duckdb.Error as exc:
            _x(self.con, "ROLLBACK")
            raise _explain(self.path, exc) from None
        return n

    # -- the single writer -----------------------------------------------------------------
    def write_batch(self, run_id: str, batch_no: int, frames: dict[str, pl.DataFrame]) -> None:
        """Store one finished batch (all its rows and its batch marker) in one transaction."""
        try:
            _x(self.con, "BEGIN TRANSACTION")
            for table in TABLES:
                df = frames.get(table)
                if df is None or df.height == 0:
                    continue
                self.con.register("_batch", df)
                cols = ", ".join(df.columns)
                _x(self.con, f"INSERT INTO {table} ({cols}) SELECT {cols} FROM _batch")
                self.con.unregister("_batch")
            games = frames["games"].height if "games" in frames else 0
            _x(self.con, "INSERT INTO batches VALUES (?, ?, ?, ?)", [run_id, batch_no, games, _now()])
            _x(self.con, "COMMIT")
        except duckdb.Error as exc:
            try:
                _x(self.con, "ROLLBACK")
            except duckdb.Error:
                pass
            raise _explain(self.path, exc) from None

    # -- reading ---------------------------------------------------------------------------
    def query(self, sql: str, params: list[Any] | None = None) -> pl.DataFrame:
        try:
            if params:
                rel = self.con.execute(sql, params)
                cols = [d[0] for d in rel.description]
                rows = rel.fetchall()  # drains the streamed result
                return pl.DataFrame(rows, schema=cols, orient="row") if rows else pl.DataFrame(schema={c: pl.Null for c in cols})
            return self.con.sql(sql).pl()
        except duckdb.Error as exc:
            raise _explain(self.path, exc) from None

    def table(self, name: str, run_id: str) -> pl.DataFrame:
        if name not in TABLES + ("runs", "batches"):
            raise StoreError(f"unknown table {name!r}")
        return self.con.sql(f"SELECT * FROM {name} WHERE run_id = $run", params={"run": run_id}).pl()

    def export(self, run_id: str, out: Path, fmt: str) -> list[Path]:
        if self.run(run_id) is None:
            raise StoreError(f"{self.path}: no run {run_id!r}; `mythos db runs` lists them")
        out.mkdir(parents=True, exist_ok=True)
        written = []
        for t in ("runs",) + TABLES:
            df = self.table(t, run_id)
            target = out / f"{t}.{fmt}"
            if fmt == "parquet":
                df.write_parquet(target)
            else:
                # CSV has no lists: write list columns as JSON text
                df = df.with_columns([pl.col(c).map_elements(lambda v: json.dumps(list(v)) if v is not None else None,
                                                             return_dtype=pl.String)
                                      for c, dt in df.schema.items() if isinstance(dt, pl.List)])
                df.write_csv(target)
            written.append(target)
        return written

    def _exec(self, sql: str, params: list[Any]) -> None:
        try:
            _x(self.con, sql, params)
        except duckdb.Error as exc:
            raise _explain(self.path, exc) from None


def open_store(path: Path | str, *, read_only: bool = False, create: bool = True) -> Store:
    """Open (and create or migrate) a mythos database, with a clear error for every failure."""
    path = Path(path)
    if path.is_dir():
        raise StoreError(f"{path}: is a folder; --db takes a file path such as mythos.duckdb")
    if not path.exists():
        if read_only or not create:
            raise StoreError(f"{path}: no such database; run `mythos simulate … --db {path}` first")
        if not path.parent.exists():
            raise StoreError(f"{path}: the folder {path.parent} does not exist")
    try:
        con = duckdb.connect(str(path), read_only=read_only)
    except duckdb.Error as exc:
        raise _explain(path, exc) from None
    except OSError as exc:
        raise _explain(path, exc) from None
    store = Store(path, con, read_only)
    try:
        tables = {r[0] for r in _x(con, "SELECT table_name FROM information_schema.tables")}
        version = None
        if "meta" in tables:
            rows = _x(con, "SELECT value FROM meta WHERE key = 'schema_version'")
            row = rows[0] if rows else None
            version = int(row[0]) if row else None
        elif tables:
            store.close()
            raise StoreError(f"{path}: this DuckDB file was not written by mythos (tables: {', '.join(sorted(tables))}); "
                             "choose another --db")
        if version is not None and version > SCHEMA_VERSION:
            store.close()
            raise StoreError(f"{path}: written by a newer mythos (schema {version}, this one knows {SCHEMA_VERSION}); "
                             "upgrade mythos to read it")
        if not read_only and (version is None or version < SCHEMA_VERSION):
            _migrate(con, version)
    except duckdb.Error as exc:
        store.close()
        raise _explain(path, exc) from None
    return store


def _migrate(con: duckdb.DuckDBPyConnection, version: int | None) -> None:
    """Create the schema, or bring an older one up to date (one step per version)."""
    _x(con, "BEGIN TRANSACTION")
    for stmt in DDL:
        _x(con, stmt)
    _x(con, "INSERT OR REPLACE INTO meta VALUES ('schema_version', ?)", [str(SCHEMA_VERSION)])
    _x(con, "COMMIT")
