"""The simulation database.

Tables (schema version ``SCHEMA_VERSION``, created and migrated by the tool):

* ``meta(key, value)``: the schema version.
* ``runs``: one row per run: its id, name, config (JSON), seed, policies, engine and
  catalog version and hash, planned games and batches, started/finished, status
  (running, interrupted, finished).
* ``batches``: which batches of a run are stored (a batch's rows and its batch row land in
  one transaction, so a run interrupted at any point keeps only whole batches; the writer
  refuses a batch stored already).
* ``run_cards(run_id, code, card)``: the run's card list; missions and card events store the code.
* ``run_setups(run_id, setup, matchup, deck_0, deck_0_hash, deck_1, deck_1_hash, policy_0,
  policy_1)``: who played whom with what, shared by many games; a game stores the code.
* ``game_data``: one dense row per game: the game's facts, its missions, round scores, round
  statistics and card events packed into integer lists (see ``mythos_cli.store.layout``).

Views give the schema-1 tables back, the same columns and types, for SQL, reports and export:

* ``games``: one row per game.
* ``player_rounds``: one row per game, seat and round.
* ``card_events``: one row per card event of a player: ``dealt`` (the first 5 cards, before
  any mulligan), ``opening`` (the hand kept after the mulligan), ``drawn`` (in round r),
  ``played`` (round, how: face_up/hidden/upgrade/reveal/attach/attach_hidden, the mission's
  rank, whether that player won the mission in that round's evaluation).

Schema 1 stored those three as tables (63 rows a game, strings in every row); opening such a
database for writing migrates it in one transaction, and it can be read as it is.
"""

from __future__ import annotations

import json
import os
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Sequence

import duckdb
import polars as pl

from mythos_cli.store import layout

SCHEMA_VERSION = 2


class StoreError(Exception):
    """A database problem explained for the user (what, where, how to fix)."""


BASE_DDL = [
    "CREATE TABLE IF NOT EXISTS meta (key VARCHAR PRIMARY KEY, value VARCHAR)",
    """CREATE TABLE IF NOT EXISTS runs (
        run_id VARCHAR PRIMARY KEY, name VARCHAR, config JSON, seed UBIGINT,
        policy_a VARCHAR, policy_b VARCHAR, mulligan VARCHAR,
        engine_version VARCHAR, catalog_hash VARCHAR,
        planned_games INTEGER, planned_batches INTEGER,
        started_at TIMESTAMP, finished_at TIMESTAMP, status VARCHAR)""",
    # no key: a key check costs about 40 µs a row; the writer refuses a batch stored twice itself
    "CREATE TABLE IF NOT EXISTS batches (run_id VARCHAR, batch_no INTEGER, games INTEGER, stored_at TIMESTAMP)",
]
# no key on game_data: a key check per game costs more than the insert; a batch's games land
# with its batch row, and the writer refuses a batch stored already
DDL = BASE_DDL + [
    "CREATE TABLE IF NOT EXISTS run_cards (run_id VARCHAR, code SMALLINT, card VARCHAR, PRIMARY KEY (run_id, code))",
    "CREATE TABLE IF NOT EXISTS run_setups (run_id VARCHAR, setup INTEGER, "
    + ", ".join(f"{c} VARCHAR" for c in layout.SETUP) + ", PRIMARY KEY (run_id, setup))",
    "CREATE TABLE IF NOT EXISTS game_data (" + ", ".join(f"{c} {t}" for c, t in layout.GAME_DATA) + ")",
] + layout.view_sql()
RUN_TABLES = ("game_data", "run_cards", "run_setups", "batches", "runs")  # all of a run
TABLES = ("games", "player_rounds", "card_events")  # what a run is made of, as the user sees it
# The writer shares the machine with the workers. Measured on 120,000 games (2 cores):
# * one thread: DuckDB's own parallelism only adds overhead to appends this small;
# * a checkpoint every 256 MB of log (about half a million games) rather than every 16 MB:
#   frequent checkpoints rewrite the table's last, partly filled row group again and again
#   (their total cost fell by 40%);
# * no compression: the checkpoint's compression was a third of the writer's time; the file
#   grows from about 340 to 480 bytes a game (schema 1 took several KB a game).
WRITER_SETTINGS = ("SET threads = 1", "SET checkpoint_threshold = '256MB'", "SET force_compression = 'uncompressed'")
GAME_DATA_COLUMNS = tuple(c for c, _ in layout.GAME_DATA)
WRITTEN_COLUMNS = tuple(c for c, _ in layout.WRITTEN)


def card_list(config: dict) -> list[str]:
    """A run's card list (the codes of its card events): every card and mission of its decks, sorted."""
    return sorted({c for d in config.get("decks", []) for c in (*d.get("cards", ()), *d.get("missions", ()))})


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


# Sharing the file while a run writes. DuckDB lets one process at a time open a file (a writer
# excludes readers), so the writer lets go of it between writes, at most every RELEASE_EVERY
# seconds and for at least RELEASE_GAP seconds, and a reader (a report, `db runs` in another
# terminal) waits up to READ_WAIT seconds for such a gap. A second writer is kept out for the
# whole run by the writer's lock on the side file ``<db>.writer``.
RELEASE_EVERY = 2.0
RELEASE_GAP = 0.25
READ_WAIT = 5.0
WRITE_WAIT = 120.0  # a writer taking its file back waits this long for readers to finish


def _is_lock(exc: Exception) -> bool:
    return "lock" in str(exc).lower()


def _connect(path: Path, read_only: bool, wait: float) -> duckdb.DuckDBPyConnection:
    """Open the file, waiting up to ``wait`` seconds while another process holds it."""
    deadline = time.monotonic() + wait
    while True:
        try:
            return duckdb.connect(str(path), read_only=read_only)
        except duckdb.Error as exc:
            if not _is_lock(exc) or time.monotonic() >= deadline:
                raise
        time.sleep(0.02)


class _WriterLock:
    """An exclusive lock on ``<db>.writer`` held by the one process writing the database."""

    def __init__(self, path: Path):
        self.path = Path(f"{path}.writer")
        self.fd: int | None = None

    def acquire(self) -> bool:
        try:
            import fcntl
        except ImportError:  # no fcntl (Windows): DuckDB's own lock is the only guard
            return True
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            return False
        self.fd = fd
        return True

    def release(self) -> None:
        if self.fd is not None:
            try:
                self.path.unlink(missing_ok=True)
            except OSError:
                pass
            os.close(self.fd)
            self.fd = None


class Store:
    """One open database. Use as a context manager; writes happen in transactions.

    A writer may ``release()`` the file between transactions (see ``RELEASE_EVERY``): the
    connection is opened again, with the writer's settings, the next time it is used."""

    def __init__(self, path: Path, con: duckdb.DuckDBPyConnection, read_only: bool):
        self.path, self._con, self.read_only = path, con, read_only
        self._setups: dict[str, dict[str, int]] = {}  # per run: setup key -> code, as committed
        self._stored: dict[str, set[int]] = {}  # per run: the batches stored, as committed
        self._writer: _WriterLock | None = None
        self._opened = time.monotonic()
        self._released_at: float | None = None

    @property
    def con(self) -> duckdb.DuckDBPyConnection:
        if self._con is None:
            if self._released_at is not None:  # leave readers their gap
                time.sleep(max(0.0, RELEASE_GAP - (time.monotonic() - self._released_at)))
            try:
                self._con = _connect(self.path, self.read_only, WRITE_WAIT)
                if not self.read_only:
                    for setting in WRITER_SETTINGS:
                        _x(self._con, setting)
            except duckdb.Error as exc:
                raise _explain(self.path, exc) from None
            self._opened, self._released_at = time.monotonic(), None
        return self._con

    def release(self, force: bool = False) -> bool:
        """Let go of the file (between transactions) if it has been held ``RELEASE_EVERY`` seconds."""
        if self._con is None or (not force and time.monotonic() - self._opened < RELEASE_EVERY):
            return False
        try:
            self._con.close()
        except duckdb.Error:
            pass
        self._con, self._released_at = None, time.monotonic()
        return True

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        try:
            if self._con is not None:
                self._con.close()
        except duckdb.Error:
            pass
        self._con = None
        if self._writer is not None:
            self._writer.release()
            self._writer = None

    # -- runs ------------------------------------------------------------------------------
    def create_run(self, run_id: str, name: str, config: dict, *, seed: int, policy_a: str, policy_b: str,
                   mulligan: str, engine_version: str, catalog_hash: str, planned_games: int,
                   planned_batches: int) -> None:
        if self.run(run_id) is not None:
            raise StoreError(f"{self.path}: a run named {run_id!r} exists already; choose another --run-name "
                             f"or resume it with `mythos simulate --resume {run_id}`")
        cards = card_list(config)
        if len(cards) > layout.MAX_CARDS:
            raise StoreError(f"a run can hold at most {layout.MAX_CARDS} different cards ({len(cards)} given): "
                             "split the decks over several runs")
        try:
            _x(self.con, "BEGIN TRANSACTION")
            _x(self.con, "INSERT INTO runs VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, 'running')",
               [run_id, name, json.dumps(config), seed, policy_a, policy_b, mulligan, engine_version,
                catalog_hash, planned_games, planned_batches, _now()])
            if cards:
                _x(self.con, "INSERT INTO run_cards SELECT ?, (i - 1)::SMALLINT, (?::VARCHAR[])[i] "
                             "FROM range(1, ? + 1) t(i)", [run_id, cards, len(cards)])
            _x(self.con, "COMMIT")
        except duckdb.Error as exc:
            self._rollback()
            raise _explain(self.path, exc) from None

    def run(self, run_id: str) -> dict | None:
        rows = self.query("SELECT * FROM runs WHERE run_id = ?", [run_id])
        return rows.row(0, named=True) if rows.height else None

    def run_cards(self, run_id: str) -> list[str]:
        """The run's card list: card events store a card as its index in it."""
        rows = _x(self.con, "SELECT code, card FROM run_cards WHERE run_id = ? ORDER BY code", [run_id])
        if [r[0] for r in rows] != list(range(len(rows))):
            raise StoreError(f"{self.path}: the card list of run {run_id} is damaged (codes "
                             f"{[r[0] for r in rows][:8]}…); start a new run")
        return [r[1] for r in rows]

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
        n = _x(self.con, "SELECT count(*) FROM game_data WHERE run_id = ?", [run_id])[0][0]
        try:
            _x(self.con, "BEGIN TRANSACTION")
            for t in RUN_TABLES:
                _x(self.con, f"DELETE FROM {t} WHERE run_id = ?", [run_id])
            _x(self.con, "COMMIT")
        except duckdb.Error as exc:
            self._rollback()
            raise _explain(self.path, exc) from None
        finally:
            self._setups.pop(run_id, None)
            self._stored.pop(run_id, None)
        return n

    # -- the single writer -----------------------------------------------------------------
    def write_batch(self, run_id: str, batch_no: int, frames: dict[str, pl.DataFrame]) -> None:
        """Store one finished batch (its games and its batch marker) in one transaction."""
        self.write_batches(run_id, [(batch_no, frames)])

    def write_batches(self, run_id: str, batches: Sequence[tuple[int, dict[str, pl.DataFrame]]]) -> None:
        """Store finished batches, all of them or none, in one transaction.

        Each batch is ``(batch_no, {"game_data": frame})`` with the frame built by
        ``mythos_cli.sim.record`` (``layout.WRITTEN``'s columns). One transaction for several
        batches costs little more than for one: the writer takes every batch ready at once."""
        if not batches:
            return
        stored = self._stored.get(run_id)
        if stored is None:
            stored = self._stored[run_id] = self.done_batches(run_id)
        numbers = [b for b, _ in batches]
        again = sorted({b for b in numbers if b in stored}) if len(set(numbers)) == len(numbers) else \
            sorted({b for b in numbers if numbers.count(b) > 1})
        if again:
            raise StoreError(f"{self.path}: batch {again[0]} of run {run_id} is stored already (or given twice); "
                             "nothing of this write was stored")
        parts = []
        for batch_no, frames in batches:
            df = frames.get("game_data")
            if set(frames) - {"game_data"} or (df is not None and df.width != len(WRITTEN_COLUMNS)):
                raise StoreError(f"write_batch takes {{'game_data': frame}} with the columns of schema "
                                 f"{SCHEMA_VERSION}; build the frame with mythos_cli.sim.record "
                                 f"(got {sorted(frames)})")
            if df is not None and df.height:
                parts.append(df)
        data = parts[0] if len(parts) == 1 else pl.concat(parts, how="vertical", rechunk=True) if parts else None
        new_setups: dict[str, int] = {}
        if data is not None:
            if tuple(data.columns) != WRITTEN_COLUMNS:
                raise StoreError(f"write_batch takes the columns {', '.join(WRITTEN_COLUMNS)}; build the frame "
                                 "with mythos_cli.sim.record")
            if (data["run_id"] != run_id).any():
                raise StoreError(f"write_batches({run_id!r}): the frames hold games of another run")
            known = self._known_setups(run_id)
            codes = dict(known)
            for key in data["setup_key"].unique().to_list():
                if key not in codes:
                    if key is None or len(key.split(layout.SETUP_SEP)) != len(layout.SETUP):
                        raise StoreError(f"a game's setup_key must join {', '.join(layout.SETUP)}")
                    codes[key] = new_setups[key] = len(codes)
            order = sorted(codes, key=codes.__getitem__)  # an Enum's physical value is the index: the code
            data = data.with_columns(pl.col("setup_key").cast(pl.Enum(order)).to_physical().cast(pl.Int32))
        counts = [0 if f.get("game_data") is None else f["game_data"].height for _, f in batches]
        try:
            _x(self.con, "BEGIN TRANSACTION")
            if new_setups:
                rows = [[run_id, code, *key.split(layout.SETUP_SEP)] for key, code in new_setups.items()]
                _x(self.con, "INSERT INTO run_setups VALUES " + ", ".join(
                    ["(" + ", ".join(["?"] * (2 + len(layout.SETUP))) + ")"] * len(rows)), [v for r in rows for v in r])
            if data is not None:
                # the frame's columns are game_data's, in order (checked above); read as an Arrow stream
                self.con.from_arrow(data).insert_into("game_data")
            _x(self.con, "INSERT INTO batches SELECT ?, unnest(?::INTEGER[]), unnest(?::INTEGER[]), ?",
               [run_id, [b for b, _ in batches], counts, _now()])
            _x(self.con, "COMMIT")
        except duckdb.Error as exc:
            self._rollback()
            if "KeyboardInterrupt" in str(exc):  # Ctrl-C while DuckDB read the Arrow stream: still a Ctrl-C
                raise KeyboardInterrupt from None
            raise _explain(self.path, exc) from None
        except BaseException:
            self._rollback()
            raise
        if new_setups:
            self._setups[run_id].update(new_setups)
        stored.update(numbers)

    def _known_setups(self, run_id: str) -> dict[str, int]:
        known = self._setups.get(run_id)
        if known is None:
            rows = _x(self.con, f"SELECT setup, {', '.join(layout.SETUP)} FROM run_setups WHERE run_id = ?", [run_id])
            known = self._setups[run_id] = {layout.setup_key(r[1:]): r[0] for r in rows}
            if sorted(known.values()) != list(range(len(known))):
                raise StoreError(f"{self.path}: the setups of run {run_id} are damaged; start a new run")
        return known

    def _rollback(self) -> None:
        try:
            _x(self.con, "ROLLBACK")
        except duckdb.Error:
            pass

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
    writer = None
    if not read_only:
        writer = _WriterLock(path)
        try:
            held = writer.acquire()
        except OSError:
            held = True  # the side file cannot be made (read-only folder): DuckDB says why below
            writer = None
        if not held:
            raise StoreError(f"{path}: the database is in use by another mythos process that writes to it (a "
                             "running simulation?). Wait for it to finish, or pass --db with another file; reports "
                             "and `mythos db runs` can read it meanwhile.")
    try:
        # a reader waits for the writer's next gap; a writer only for a reader to finish
        con = _connect(path, read_only, READ_WAIT)
    except duckdb.Error as exc:
        if writer is not None:
            writer.release()
        raise _explain(path, exc) from None
    except OSError as exc:
        if writer is not None:
            writer.release()
        raise _explain(path, exc) from None
    store = Store(path, con, read_only)
    store._writer = writer
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
            try:
                _migrate(con, version)
            except StoreError as exc:
                store.close()
                raise StoreError(f"{path}: cannot upgrade this file from schema {version}: {exc}") from None
        if not read_only:
            for setting in WRITER_SETTINGS:
                _x(con, setting)
            if version == SCHEMA_VERSION:  # the views as this version decodes the rows (cheap)
                for stmt in layout.view_sql():
                    _x(con, stmt)
    except duckdb.Error as exc:
        store.close()
        raise _explain(path, exc) from None
    return store


def _migrate(con: duckdb.DuckDBPyConnection, version: int | None) -> None:
    """Create the schema, or bring an older one up to date (one step per version), in one transaction."""
    _x(con, "BEGIN TRANSACTION")
    try:
        if version is None:
            for stmt in DDL:
                _x(con, stmt)
        elif version < 2:
            _migrate_1_to_2(con)
        _x(con, "INSERT OR REPLACE INTO meta VALUES ('schema_version', ?)", [str(SCHEMA_VERSION)])
        _x(con, "COMMIT")
    except BaseException:
        try:
            _x(con, "ROLLBACK")
        except duckdb.Error:
            pass
        raise


def _sql_list(values: Sequence[str | None]) -> str:
    return "[" + ", ".join(f"'{v}'" for v in values if v is not None) + "]"


def _migrate_1_to_2(con: duckdb.DuckDBPyConnection) -> None:
    """Schema 1 (a row per game, per seat-round and per card event) → one dense row per game."""
    L = layout
    for stmt in DDL[:len(BASE_DDL) + 3]:
        _x(con, stmt)
    too_many = _x(con, f"SELECT count(*) FROM games WHERE len(missions) > {L.MAX_MISSIONS}")[0][0]
    if too_many:
        raise StoreError(f"{too_many} games have more than {L.MAX_MISSIONS} missions: schema {SCHEMA_VERSION} "
                         "cannot hold them; keep using the mythos version that wrote this file")
    # each run's card list: its decks' cards, and any other card its games name
    seen: dict[str, set[str]] = {}
    for run_id, card in _x(con, "SELECT DISTINCT run_id, card FROM card_events WHERE card IS NOT NULL "
                                "UNION SELECT DISTINCT run_id, unnest(missions) FROM games"):
        if card is not None:
            seen.setdefault(run_id, set()).add(card)
    for run_id, cfg in _x(con, "SELECT run_id, config FROM runs"):
        try:
            config = json.loads(cfg) if isinstance(cfg, str) else (cfg or {})
        except ValueError:
            config = {}
        seen[run_id] = set(card_list(config)) | seen.get(run_id, set())
    for run_id, cards in seen.items():
        cards_sorted = sorted(cards)
        if len(cards_sorted) > L.MAX_CARDS:
            raise StoreError(f"run {run_id} names {len(cards_sorted)} different cards, more than schema "
                             f"{SCHEMA_VERSION} can hold ({L.MAX_CARDS}); delete it with an older mythos first")
        _x(con, "INSERT INTO run_cards SELECT ?, (i - 1)::SMALLINT, (?::VARCHAR[])[i] FROM range(1, ? + 1) t(i)",
           [run_id, cards_sorted, len(cards_sorted)])
    # batches: without the key of schema 1
    _x(con, "CREATE TABLE batches_2 AS SELECT run_id, batch_no, games, stored_at FROM batches")
    _x(con, "DROP TABLE batches")
    _x(con, "ALTER TABLE batches_2 RENAME TO batches")
    setup = ", ".join(L.SETUP)
    _x(con, f"""INSERT INTO run_setups
        SELECT run_id, (row_number() OVER (PARTITION BY run_id ORDER BY {setup}) - 1)::INTEGER, {setup}
        FROM (SELECT DISTINCT run_id, {setup} FROM games)""")

    def word(names: tuple[str, ...]) -> str:
        mask = (1 << L.STAT_BITS) - 1
        parts = []
        for f, name in enumerate(names):
            v = f"coalesce({name}, false)::BIGINT" if name == "edge" else f"coalesce({name}, 0)::BIGINT"
            parts.append(f"(({v} & {mask})::UBIGINT << {L.STAT_BITS * f})")
        return " | ".join(parts)

    words = ", ".join(word(names) for names in L.ROUND_STATS)
    event = (f"(c.code::INTEGER"
             f" | (coalesce(e.seat, 0)::INTEGER << {L.SEAT_SHIFT})"
             f" | ((coalesce(list_position({_sql_list(L.EVENTS)}, e.event), 1) - 1) << {L.EVENT_SHIFT})"
             f" | (least(greatest(coalesce(e.round, 0), 0), {L.MAX_ROUND})::INTEGER << {L.ROUND_SHIFT})"
             f" | (coalesce(list_position({_sql_list(L.HOWS)}, e.how), 0) << {L.HOW_SHIFT})"
             f" | (coalesce(list_position({_sql_list(L.RANK_CODES)}, e.mission_rank), 0) << {L.RANK_SHIFT})"
             f" | ((CASE WHEN e.won_mission IS NULL THEN 0 WHEN e.won_mission THEN 2 ELSE 1 END) << {L.WON_SHIFT})"
             f")::INTEGER")
    scores = ("list_transform(range(greatest(len(g.round_scores_0), len(g.round_scores_1))), lambda i: "
              "((coalesce(g.round_scores_0[i + 1], 0)::BIGINT & 65535) "
              "| ((coalesce(g.round_scores_1[i + 1], 0)::BIGINT & 65535) << 16))::UINTEGER)")
    same_setup = " AND ".join(f"s.{c} IS NOT DISTINCT FROM g.{c}" for c in L.SETUP)
    plain = [c for c, _ in L.GAME_DATA if c in L.GAME_COLUMNS]
    values = {c: f"g.{c}" for c in plain}
    flags = []
    for name, shift, bits, offset, _ in L.FLAGS:
        v = "3" if name == "dealt_stored" else f"coalesce(g.{name}::INTEGER, {-offset})"  # every dealt card is kept
        flags.append(f"((({v} + {offset}) & {(1 << bits) - 1}) << {shift})")
    values.update({
        "setup": "s.setup", "flags": " | ".join(flags), "missions": "coalesce(mi.missions, [])",
        "round_scores": f"coalesce({scores}, [])", "rounds": "coalesce(pr.rounds, [])",
        "costs": "coalesce(pr.costs, [])", "events": "coalesce(ce.events, [])",
    })
    _x(con, f"""
        INSERT INTO game_data ({', '.join(GAME_DATA_COLUMNS)})
        SELECT {', '.join(values[c] for c in GAME_DATA_COLUMNS)}
        FROM games g
        JOIN run_setups s ON s.run_id = g.run_id AND {same_setup}
        LEFT JOIN (SELECT m.run_id, m.game_no,
                          list((c.code::INTEGER | (coalesce(m.mission_owners[m.i], 0)::INTEGER << {L.OWNER_SHIFT}))
                               ::SMALLINT ORDER BY m.i) AS missions
                   FROM (SELECT run_id, game_no, missions, mission_owners,
                                unnest(range(1, len(missions) + 1)) AS i FROM games) m
                   JOIN run_cards c ON c.run_id = m.run_id AND c.card = m.missions[m.i]
                   GROUP BY m.run_id, m.game_no) mi
               ON mi.run_id = g.run_id AND mi.game_no = g.game_no
        LEFT JOIN (SELECT run_id, game_no,
                          flatten(list([{words}] ORDER BY round, seat)) AS rounds,
                          flatten(list(list_transform(coalesce(cost_face_up, []),
                                       lambda c: ((((round::INTEGER - 1) * 2 + seat::INTEGER) << 8) | c)::SMALLINT)
                                       ORDER BY round, seat)) AS costs
                   FROM player_rounds GROUP BY run_id, game_no) pr
               ON pr.run_id = g.run_id AND pr.game_no = g.game_no
        LEFT JOIN (SELECT e.run_id, e.game_no, list({event} ORDER BY e.rowid) AS events
                   FROM card_events e JOIN run_cards c ON c.run_id = e.run_id AND c.card = e.card
                   GROUP BY e.run_id, e.game_no) ce
               ON ce.run_id = g.run_id AND ce.game_no = g.game_no""")
    for t in ("card_events", "player_rounds", "games"):
        _x(con, f"DROP TABLE {t}")
    for stmt in L.view_sql():
        _x(con, stmt)
