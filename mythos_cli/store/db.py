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
import re
import stat
import tempfile
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
# The writer also checkpoints every few seconds (``Store.checkpoint``): a run killed at any point
# leaves a file that holds its stored games without the log beside it; measured on 120,000 games
# with benchmarks/bench_simulate.py, the ingest rate stays above 100k games/s.
CHECKPOINT_SECONDS = 5.0
WRITER_SETTINGS = ("SET threads = 1", "SET checkpoint_threshold = '256MB'", "SET force_compression = 'uncompressed'")
GAME_DATA_COLUMNS = tuple(c for c, _ in layout.GAME_DATA)
WRITTEN_COLUMNS = tuple(c for c, _ in layout.WRITTEN)


def stored_json(text):
    """JSON read from a database (a run's or an experiment's stored settings): ``ValueError`` for
    anything that is not JSON, arrays or objects nested too deeply among them (a crafted file
    gave ``RecursionError`` in every command that read it)."""
    if not isinstance(text, (str, bytes, bytearray)):
        return text
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("arrays or objects nested too deeply to be settings mythos stored (the database was "
                         "changed by hand)") from None


def card_list(config: dict) -> list[str]:
    """A run's card list (the codes of its card events): every card and mission of its decks, sorted."""
    return sorted({c for d in config.get("decks", []) for c in (*d.get("cards", ()), *d.get("missions", ()))})


def _x(con: duckdb.DuckDBPyConnection, sql: str, params: list[Any] | None = None) -> list[tuple]:
    """Execute and drain: DuckDB 2 streams results, and an undrained one blocks the connection."""
    return con.execute(sql, params or []).fetchall()


def _now() -> datetime:
    return datetime.now(timezone.utc).replace(tzinfo=None)


def _explain(path: Path, exc: Exception) -> StoreError:
    """A DuckDB (or OS) error as what it means for the user's file, and what to do.

    Matched on DuckDB's own phrases, never on loose words ("lock" is inside "block")."""
    text = str(exc)
    low = text.lower()
    if "could not set lock" in low or "conflicting lock" in low:
        return StoreError(f"{path}: the database is in use by another mythos process (a running simulation?). "
                          "Wait for it to finish, or pass --db with another file (or read a copy of this one).")
    if "corrupt database file" in low or "checksum" in low and "does not match" in low:
        return StoreError(f"{path}: the database file is damaged (a block fails its checksum); nothing was changed. "
                          "Restore it from a copy, or pass --db with another file.")
    if "could not read enough bytes" in low:
        return StoreError(f"{path}: the database file is truncated (shorter than its own header says): it was cut off "
                          "while being copied or downloaded, or the disk filled up. Copy it again from the original "
                          "(with its .wal file, if there is one).")
    if "not a valid duckdb" in low:
        return StoreError(f"{path}: this file is not a DuckDB database written by mythos. "
                          "Choose another path with --db (the file was left untouched).")
    if "database file with version number" in low or "storage version" in low and "newer" in low:
        return StoreError(f"{path}: written by a newer DuckDB than this one ({duckdb.__version__}); "
                          "upgrade DuckDB (pip install -U duckdb) to read it.")
    if "file system operations are disabled" in low or "external extensions is disabled" in low \
            or "extension autoloading" in low:
        return StoreError(f"{path}: the database asked to read something outside itself (a file, or a DuckDB "
                          "extension), which mythos never allows; it is not a plain mythos database. "
                          "Use a file written by `mythos simulate`.")
    if "out of memory" in low:
        return StoreError(f"{path}: DuckDB needed more memory than its budget ({memory_limit()}): give it more with "
                          f"MYTHOS_DUCKDB_MEMORY=1GB, or free disk space in {spill_dir()}, where it spills "
                          "(TMPDIR chooses that folder).")
    if "no space" in low or "disk" in low and "full" in low:
        # the file DuckDB could not write: the database's own (or its .wal), or another one (an
        # export's, a spill file), whose disk is then the one to blame
        named = re.search(r'file \\?"(.+?)\\?"', text)
        other = Path(named.group(1)) if named else None
        if other is not None and not str(other).startswith(str(path)):
            temporary = other.name.startswith(("tmp_", ".")) and other.name.endswith(".tmp")
            return StoreError(f"{other.parent}: the disk is full (writing {other.name} failed). The database {path} is "
                              "not damaged" + (", and no partial file was left" if temporary else "") +
                              f". Free some space in {other.parent}, or write to another disk.")
        return StoreError(f"{path}: the disk that holds the database is full. The database is not damaged (what was "
                          "committed is kept): free some space or pass --db on another disk, then continue with "
                          "--resume.")
    if "read-only" in low or "read only" in low or "permission denied" in low:
        return StoreError(f"{path}: cannot write here (read-only file or folder). Pass --db with a writable path.")
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


# -- opening a file that may come from anyone ------------------------------------------------
# A database file is data, never code: no connection may read other files, load or install
# an extension (which would also go to the network), and nothing stored in the file (views,
# macros, generated columns, defaults) is executed; see ``_check_objects``.
SAFE_CONFIG = {"autoinstall_known_extensions": False, "autoload_known_extensions": False,
               "allow_community_extensions": False, "allow_unsigned_extensions": False}
# DuckDB's own memory (its buffer pool, hash tables and sorts) is capped; past it DuckDB
# spills to ``spill_dir()``, so a report over a million games stays within bounds. 256MB is
# what the ordered views need to export a million games (128MB cannot sort their rows);
# MYTHOS_DUCKDB_MEMORY (e.g. 2GB) gives DuckDB more on a machine that has it.
DEFAULT_MEMORY_LIMIT = "256MB"


def memory_limit() -> str:
    """DuckDB's memory budget: MYTHOS_DUCKDB_MEMORY when it is a size such as 512MB or 2GB."""
    value = os.environ.get("MYTHOS_DUCKDB_MEMORY", "").strip().replace(" ", "")
    if not value:
        return DEFAULT_MEMORY_LIMIT
    import re

    m = re.fullmatch(r"(\d+(?:\.\d+)?)(KB|MB|GB|TB|KIB|MIB|GIB|TIB)", value.upper())
    if not m or float(m.group(1)) <= 0:
        raise StoreError(f"MYTHOS_DUCKDB_MEMORY={value!r}: a size such as 512MB or 2GB is expected")
    amount = float(m.group(1)) * {"K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}[m.group(2)[0]]
    if amount < 64e6:
        raise StoreError(f"MYTHOS_DUCKDB_MEMORY={value!r}: at least 64MB (DuckDB cannot work in less)")
    return m.group(1) + m.group(2)
DUCKDB_MAGIC = b"DUCK"  # bytes 8-11 of every DuckDB file
_FOREIGN_MAGIC = ((b"SQLite format 3\x00", "an SQLite database"), (b"PAR1", "a Parquet file (`mythos db export` writes "
                  "those: they are read with Polars or DuckDB, not with --db)"), (b"PK\x03\x04", "a zip archive"),
                  (b"\x1f\x8b", "a gzip archive"), (b"{", "a JSON file"), (b"%PDF", "a PDF document"))


def spill_dir() -> Path:
    """Where DuckDB may spill a query too large for its memory: a private folder under the system temp."""
    uid = os.getuid() if hasattr(os, "getuid") else "user"
    return Path(tempfile.gettempdir()) / f"mythos-duckdb-{uid}"


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"


def _check_file(path: Path, *, read_only: bool, create: bool) -> bool:
    """Refuse what is not a database file before DuckDB opens it. True when the file exists.

    A FIFO or a device would block or never end; a foreign file gets a message naming what it is."""
    try:
        st = path.stat()
    except FileNotFoundError:
        if read_only or not create:
            raise StoreError(f"{path}: no such database; run `mythos simulate … --db {path}` first") from None
        parent = path.parent
        if not parent.exists():
            raise StoreError(f"{path}: the folder {parent} does not exist") from None
        if not parent.is_dir():
            raise StoreError(f"{path}: {parent} is not a folder") from None
        return False
    except NotADirectoryError:
        raise StoreError(f"{path}: a part of this path is a file, not a folder; check the --db path") from None
    except OSError as exc:
        raise StoreError(f"{path}: cannot use this path: {exc.strerror or exc}; pass --db with another path") from None
    if stat.S_ISDIR(st.st_mode):
        raise StoreError(f"{path}: is a folder; --db takes a file path such as mythos.duckdb")
    if not stat.S_ISREG(st.st_mode):
        raise StoreError(f"{path}: {_kind(st.st_mode)}, not a database file; --db takes a regular file such as "
                         "mythos.duckdb (mythos never reads pipes or devices as databases)")
    wal = Path(f"{path}.wal")
    try:
        wst = wal.stat()
        if not stat.S_ISREG(wst.st_mode):
            raise StoreError(f"{wal}: {_kind(wst.st_mode)}, not the database's write-ahead log; remove it")
    except FileNotFoundError:
        pass
    except OSError:
        pass  # DuckDB reports it
    if st.st_size == 0:
        raise StoreError(f"{path}: an empty file (0 bytes), not a database; delete it, or pass --db with a new "
                         "path (mythos creates the database itself)")
    try:
        with open(path, "rb") as fh:
            head = fh.read(16)
    except OSError as exc:
        raise StoreError(f"{path}: cannot read it: {exc.strerror or exc}") from None
    if head[8:12] != DUCKDB_MAGIC:
        what = next((name for magic, name in _FOREIGN_MAGIC if head.startswith(magic)), None)
        if what is None:
            raise StoreError(f"{path}: this file is not a DuckDB database written by mythos. "
                             "Choose another path with --db (the file was left untouched).")
        raise StoreError(f"{path}: {what}, not a DuckDB database written by mythos; choose another --db "
                         "(the file was left untouched)")
    return True


def _is_lock(exc: Exception) -> bool:
    """DuckDB's own words for a file held by another process (never "lock" alone: it is inside "block")."""
    low = str(exc).lower()
    return "could not set lock" in low or "conflicting lock" in low


def _connect(path: Path, read_only: bool, write_dir: Path | None = None,
             settings: Sequence[str] = (), wait: float = 0.0) -> duckdb.DuckDBPyConnection:
    """A connection that cannot reach anything but this file (and, for an export, ``write_dir``),
    waiting up to ``wait`` seconds while another process holds the file."""
    # external access goes first: DuckDB applies the options in order, and refuses a temp_directory
    # given after external access was closed
    config = {"enable_external_access": False} if write_dir is None else {}
    config.update(SAFE_CONFIG, memory_limit=memory_limit(), temp_directory=str(spill_dir()))
    deadline = time.monotonic() + wait
    while True:
        try:
            con = duckdb.connect(str(path), read_only=read_only, config=config)
            break
        except duckdb.Error as exc:
            if not _is_lock(exc) or time.monotonic() >= deadline:
                raise
        time.sleep(0.02)
    try:
        if _x(con, "SELECT current_setting('lock_configuration')")[0][0]:
            # the same file open twice in this process shares one DuckDB instance, already set up
            # (and locked) by the first open; it must be one of ours, with external access off
            if _x(con, "SELECT current_setting('enable_external_access')")[0][0]:
                raise StoreError(f"{path}: already open in this process with external access on")
            if write_dir is not None:
                raise StoreError(f"{path}: already open in this process; close it before exporting")
            return con
        if write_dir is not None:  # the only folder a COPY may write to; set before access is closed
            _x(con, f"SET allowed_directories = [{_sql_text(str(write_dir.resolve()) + os.sep)}]")
            _x(con, "SET enable_external_access = false")
        for setting in settings:
            _x(con, setting)
        _x(con, "SET lock_configuration = true")
    except BaseException:
        con.close()
        raise
    return con


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


def _ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _sql_text(value: str) -> str:
    """A string literal (for the few statements that take no parameters: SET, COPY)."""
    return "'" + value.replace("'", "''") + "'"


class Store:
    """One open database. Use as a context manager; writes happen in transactions.

    A writer may ``release()`` the file between transactions (see ``RELEASE_EVERY``): the
    connection is opened again, with the writer's settings, the next time it is used."""

    def __init__(self, path: Path, con: duckdb.DuckDBPyConnection, read_only: bool):
        self.path, self._con, self.read_only = path, con, read_only
        self.version: int | None = SCHEMA_VERSION
        self.created = False  # this open made the file (a failed command may remove it again)
        self.export_dir: Path | None = None
        self._views: list[str] = []  # the temporary views mythos reads, made again on every reopen
        self._checkpointed = time.monotonic()
        self._setups: dict[str, dict[str, int]] = {}  # per run: setup key -> code, as committed
        self._stored: dict[str, set[int]] = {}  # per run: the batches stored, as committed
        self._writer: _WriterLock | None = None
        self._opened = time.monotonic()
        self._released_at: float | None = None
        self._file = path  # the file the connection opens (a private copy: see ``snapshot``)
        self.snapshot: Path | None = None  # the folder of that copy, while another process writes the file

    @property
    def con(self) -> duckdb.DuckDBPyConnection:
        if self._con is None:
            if self._released_at is not None:  # leave readers their gap
                time.sleep(max(0.0, RELEASE_GAP - (time.monotonic() - self._released_at)))
            try:
                # the same safe connection as open_store's, and the temporary views it made
                con = _connect(self._file, self.read_only, self.export_dir,
                               () if self.read_only else WRITER_SETTINGS, wait=WRITE_WAIT)
                try:
                    for stmt in self._views:
                        _x(con, stmt)
                except BaseException:
                    con.close()
                    raise
                self._con = con
            except (duckdb.Error, OSError) as exc:
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
        if self.snapshot is not None:
            import shutil

            shutil.rmtree(self.snapshot, ignore_errors=True)
            self.snapshot = None

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
        # stored games from the batches (a batch row lands with its games): no scan of the games
        return self.query("""
            SELECT r.run_id, r.name, r.status, r.policy_a, r.policy_b, r.planned_games,
                   coalesce(g.n, 0) AS stored_games, r.started_at, r.finished_at
            FROM runs r LEFT JOIN (SELECT run_id, sum(games)::BIGINT AS n FROM batches GROUP BY run_id) g
                USING (run_id)
            ORDER BY r.started_at""")

    def set_status(self, run_id: str, status: str) -> None:
        finished = _now() if status == "finished" else None
        self._exec("UPDATE runs SET status = ?, finished_at = ? WHERE run_id = ?", [status, finished, run_id])

    def done_batches(self, run_id: str) -> set[int]:
        return {r[0] for r in _x(self.con, "SELECT batch_no FROM batches WHERE run_id = ?", [run_id])}

    def stored_games(self, run_id: str) -> int:
        """The games of the run stored so far (its committed batches)."""
        return int(_x(self.con, "SELECT coalesce(sum(games), 0) FROM batches WHERE run_id = ?", [run_id])[0][0])

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
                # as a frame, not as bound parameters: a screen of thousands of variants brings a
                # thousand setups a batch, whose ten thousand parameters took DuckDB seconds to bind
                parts_of = [key.split(layout.SETUP_SEP) for key in new_setups]
                setups = pl.DataFrame({"run_id": [run_id] * len(new_setups),
                                       "setup": pl.Series(list(new_setups.values()), dtype=pl.Int32),
                                       **{c: [p[i] for p in parts_of] for i, c in enumerate(layout.SETUP)}})
                self.con.from_arrow(setups).insert_into("run_setups")
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
        if time.monotonic() - self._checkpointed >= CHECKPOINT_SECONDS:
            self.checkpoint()

    def checkpoint(self) -> None:
        """Move the log into the database file: a crashed run's file then holds its games alone
        (without its .wal beside it). The writer does it every ``CHECKPOINT_SECONDS``."""
        try:
            _x(self.con, "CHECKPOINT")
        except duckdb.Error as exc:
            raise _explain(self.path, exc) from None
        self._checkpointed = time.monotonic()

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
        """Write the run's ``runs``, ``games``, ``player_rounds`` and ``card_events`` rows to ``out``.

        DuckDB's COPY streams every table to its file (the memory stays flat whatever the
        run's size); each file is written under a temporary name and renamed once complete,
        so an interrupted export leaves the previous files, never half a file. The store must
        have been opened with ``export_to=out``: no connection writes anywhere else."""
        if fmt not in ("parquet", "csv"):
            raise StoreError(f"unknown export format {fmt!r}: parquet or csv")
        if self.export_dir is None or Path(out).resolve() != self.export_dir.resolve():
            raise StoreError(f"export to {out}: open the store with open_store(…, export_to={str(out)!r})")
        if self.run(run_id) is None:
            raise StoreError(f"{self.path}: no run {run_id!r}; `mythos db runs` lists them")
        staged: list[tuple[Path, Path]] = []
        try:
            for t in ("runs",) + TABLES:
                target = out / f"{t}.{fmt}"
                fd, tmp = tempfile.mkstemp(prefix=f".{t}.", suffix=".tmp", dir=out)
                os.close(fd)
                staged.append((Path(tmp), target))
                cols = self.con.sql(f"SELECT * FROM {t} LIMIT 0")
                if fmt == "csv":  # CSV has no lists: list columns are written as JSON text
                    select = ", ".join(f"to_json({_ident(c)}) AS {_ident(c)}" if str(ty).endswith("]")
                                       else _ident(c) for c, ty in zip(cols.columns, cols.types))
                    options = "FORMAT csv, HEADER true"
                else:
                    select, options = "*", "FORMAT parquet"
                _x(self.con, f"COPY (SELECT {select} FROM {t} WHERE run_id = {_sql_text(run_id)}) "
                             f"TO {_sql_text(tmp)} ({options})")
            for tmp, target in staged:
                os.replace(tmp, target)
        except duckdb.Error as exc:
            raise _explain(self.path, exc) from None
        finally:
            for tmp, _ in staged:
                tmp.unlink(missing_ok=True)
        return [target for _, target in staged]

    def matchup_results(self, run_id: str) -> pl.DataFrame:
        """Per seating of two decks (seat 0's, seat 1's), in plan order: games, seat 0's wins,
        games decided by the Edge, the first game's number and the players of each seat."""
        return self.query("""
            SELECT deck_0, deck_1, count(*) AS games, count(*) FILTER (WHERE winner = 0) AS wins_0,
                   count(*) FILTER (WHERE tiebreak_by_edge) AS ties, min(game_no) AS first,
                   min(policy_0) AS policy_0, min(policy_1) AS policy_1
            FROM games WHERE run_id = ? GROUP BY deck_0, deck_1 ORDER BY min(game_no)""", [run_id])

    def _exec(self, sql: str, params: list[Any]) -> None:
        try:
            _x(self.con, sql, params)
        except duckdb.Error as exc:
            raise _explain(self.path, exc) from None


def open_store(path: Path | str, *, read_only: bool = False, create: bool = True,
               export_to: Path | str | None = None) -> Store:
    """Open (and create or migrate) a mythos database, with a clear error for every failure.

    The file is checked before DuckDB opens it (a regular file, a DuckDB header), then its
    tables against the ones mythos writes; the views mythos reads are made by this process
    (temporary views), never taken from the file. ``export_to``: the one folder a
    ``Store.export`` may write into (no connection can write or read anywhere else)."""
    path = Path(path)
    existed = _check_file(path, read_only=read_only, create=create)
    write_dir = Path(export_to) if export_to is not None else None
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
    snapshot = None
    try:
        # a reader waits for the writer's next gap; a writer only for a reader to finish
        con = _connect(path, read_only, write_dir, () if read_only else WRITER_SETTINGS, wait=READ_WAIT)
    except duckdb.Error as exc:
        if not (read_only and write_dir is None and _is_lock(exc)):
            if writer is not None:
                writer.release()
            raise _explain(path, exc) from None
        # the writer kept the file past the wait (a long batch of a slow player): read a copy of it
        con, snapshot = _snapshot(path, exc)
    except OSError as exc:
        if writer is not None:
            writer.release()
        raise _explain(path, exc) from None
    except BaseException:
        if writer is not None:
            writer.release()
        raise
    store = Store(path, con, read_only)
    if snapshot is not None:
        store._file, store.snapshot = snapshot / path.name, snapshot
    store._writer = writer
    store.export_dir = write_dir
    try:
        version = _schema_version(con, path, creating=not read_only and create)
        if version is not None and version > SCHEMA_VERSION:
            raise StoreError(f"{path}: written by a newer mythos (schema {version}, this one knows {SCHEMA_VERSION}); "
                             "upgrade mythos to read it")
        if version is not None:
            _check_objects(con, path, version)
        if not read_only and (version is None or version < SCHEMA_VERSION):
            try:
                _migrate(con, version)
            except StoreError as exc:
                raise StoreError(f"{path}: cannot upgrade this file from schema {version}: {exc}") from None
            version = SCHEMA_VERSION
        elif not read_only:  # the file's own views, for the user's SQL, as this version decodes the rows
            for stmt in layout.view_sql():
                _x(con, stmt)
        # and the ones mythos itself reads: made here, whatever the file holds
        store._views = list(layout.view_sql(temp=True) if version == SCHEMA_VERSION
                            else layout.internal_views_over_tables())
        for stmt in store._views:
            _x(con, stmt)
        store.version = version
    except StoreError:
        store.close()
        raise
    except duckdb.Error as exc:
        store.close()
        raise _explain(path, exc) from None
    if not existed:
        store.created = True
    return store


SNAPSHOT_TRIES = 4


def _snapshot(path: Path, lock_error: Exception) -> tuple[duckdb.DuckDBPyConnection, Path]:
    """A read-only connection to a private copy of a file another process holds (a running
    simulation): reading while it is written must always work. The writer checkpoints every few
    seconds, so the file alone holds all but its last seconds of games (its ``.wal`` is the
    writer's). A copy taken in the middle of a checkpoint can fail its checksums: it is taken
    again, a few times."""
    import shutil

    folder = Path(tempfile.mkdtemp(prefix="mythos-snapshot-"))  # private (0700), removed on close
    copy = folder / path.name
    last: Exception = lock_error
    for attempt in range(SNAPSHOT_TRIES):
        try:
            shutil.copyfile(path, copy)
            return _connect(copy, True), folder
        except (duckdb.Error, OSError) as exc:
            last = exc
            copy.unlink(missing_ok=True)
            time.sleep(0.2 * (attempt + 1))
    shutil.rmtree(folder, ignore_errors=True)
    raise _explain(path, last) from None


# schema 1 as mythos wrote it (read as it is, upgraded on the first write)
SCHEMA_1_DDL = BASE_DDL[:2] + [
    "CREATE TABLE batches (run_id VARCHAR, batch_no INTEGER, games INTEGER, stored_at TIMESTAMP, "
    "PRIMARY KEY (run_id, batch_no))",
    """CREATE TABLE games (
        run_id VARCHAR, game_no INTEGER, batch_no INTEGER, matchup VARCHAR, studied_seat TINYINT,
        deck_0 VARCHAR, deck_0_hash VARCHAR, deck_1 VARCHAR, deck_1_hash VARCHAR,
        policy_0 VARCHAR, policy_1 VARCHAR, seed UBIGINT, first_edge TINYINT,
        missions VARCHAR[], mission_owners TINYINT[], mulligan_0 BOOLEAN, mulligan_1 BOOLEAN,
        round_scores_0 INTEGER[], round_scores_1 INTEGER[], score_0 INTEGER, score_1 INTEGER,
        winner TINYINT, tiebreak_by_edge BOOLEAN, final_edge TINYINT, decisions INTEGER,
        PRIMARY KEY (run_id, game_no))""",
    """CREATE TABLE player_rounds (
        run_id VARCHAR, game_no INTEGER, seat TINYINT, deck VARCHAR, round TINYINT,
        chakra_gained INTEGER, chakra_spent INTEGER, chakra_left INTEGER, cards_drawn INTEGER,
        played_face_up INTEGER, played_hidden INTEGER, revealed INTEGER, upgraded INTEGER,
        cost_face_up INTEGER[], characters_in_play INTEGER, missions_won INTEGER,
        points INTEGER, edge BOOLEAN)""",
    """CREATE TABLE card_events (
        run_id VARCHAR, game_no INTEGER, seat TINYINT, deck VARCHAR, card VARCHAR,
        event VARCHAR, round TINYINT, how VARCHAR, mission_rank VARCHAR, won_mission BOOLEAN)""",
]
_EXPECTED: dict[int, dict[str, list[tuple[str, str]]]] = {}


def expected_columns(version: int | str) -> dict[str, list[tuple[str, str]]]:
    """The tables of a schema and their (column, type) lists, as DuckDB itself spells them.

    ``version="optional"``: the tables mythos makes only when a feature is first used (issue
    19's ``optimizations``, the mulligan and mission experiments' ``experiments``); a file may lack
    them, and one that has them gets the same checks."""
    if version not in _EXPECTED:
        if version == "optional":
            from mythos_cli.store.experiment import DDL as EXPERIMENTS  # (they import this module)
            from mythos_cli.store.optimize import DDL as OPTIMIZATIONS

            ddl = [OPTIMIZATIONS, EXPERIMENTS]
        else:
            ddl = SCHEMA_1_DDL if version == 1 else [d for d in DDL if d.lstrip().upper().startswith("CREATE TABLE")]
        con = duckdb.connect(":memory:", config=dict(SAFE_CONFIG, enable_external_access=False))
        try:
            for stmt in ddl:
                _x(con, stmt)
            cols: dict[str, list[tuple[str, str]]] = {}
            for t, c, ty in _x(con, "SELECT table_name, column_name, data_type FROM duckdb_columns() "
                                    "WHERE NOT internal ORDER BY table_name, column_index"):
                cols.setdefault(t, []).append((c, ty))
        finally:
            con.close()
        _EXPECTED[version] = cols
    return _EXPECTED[version]


def _objects(con: duckdb.DuckDBPyConnection) -> dict[str, str]:
    """The file's own tables and views (its main schema): name -> BASE TABLE or VIEW."""
    return dict(_x(con, "SELECT table_name, table_type FROM information_schema.tables "
                        "WHERE table_catalog = current_database() AND table_schema = 'main'"))


def _schema_version(con: duckdb.DuckDBPyConnection, path: Path, creating: bool) -> int | None:
    """The file's schema version; None for a new (empty) file that this open may fill."""
    objects = _objects(con)
    if "meta" not in objects:
        if objects:
            raise StoreError(f"{path}: this DuckDB file was not written by mythos (tables: "
                             f"{', '.join(sorted(objects))}); choose another --db")
        if not creating:
            raise StoreError(f"{path}: a DuckDB file with no mythos data in it (no tables at all). If it was copied "
                             f"from a running or crashed simulation, its games may still be in {path.name}.wal: "
                             "copy that file too, next to it; otherwise run `mythos simulate --db FILE` first")
        return None
    if objects["meta"] != "BASE TABLE":
        raise StoreError(f"{path}: its meta is a {objects['meta'].lower()}, not a table: not a database written by "
                         "mythos (refused); choose another --db")
    rows = _x(con, "SELECT value FROM meta WHERE key = 'schema_version'")
    if not rows:
        raise StoreError(f"{path}: the database records no schema version: it is damaged or was changed by hand; "
                         "choose another --db")
    try:
        version = int(str(rows[0][0]).strip())
    except ValueError:
        version = 0
    if version < 1:
        raise StoreError(f"{path}: the schema version stored in it ({str(rows[0][0])[:40]!r}) is damaged; "
                         "choose another --db")
    return version


def _check_objects(con: duckdb.DuckDBPyConnection, path: Path, version: int) -> None:
    """The tables mythos reads are the tables it writes: plain data, the expected columns.

    Views, macros, generated columns, defaults and checks stored in a file are code that a
    query of ours would run; a file that has them where mythos reads is refused."""
    if version > SCHEMA_VERSION:
        return
    objects = _objects(con)
    optional = {t: cols for t, cols in expected_columns("optional").items() if t in objects}
    expected = {**expected_columns(version), **optional}
    names = sorted(expected)
    actual: dict[str, list[tuple]] = {}
    for t, c, ty, default, generated in _x(
            con, "SELECT table_name, column_name, data_type, column_default, is_generated FROM duckdb_columns() "
                 "WHERE database_name = current_database() AND schema_name = 'main' "
                 "AND list_contains(?, table_name) ORDER BY table_name, column_index", [names]):
        actual.setdefault(t, []).append((c, ty, default, generated))
    hand = "it was changed by hand or by another program; mythos reads only the data it wrote (refused)"
    for t in names:
        kind = objects.get(t)
        if kind is None:
            raise StoreError(f"{path}: the table {t} of a mythos database is missing: the file is damaged or {hand}")
        if kind != "BASE TABLE":
            raise StoreError(f"{path}: {t} should be a table of data but is a {kind.lower()} (a stored query): {hand}")
        cols = actual.get(t, [])
        computed = [c for c, _, default, generated in cols if default is not None or generated]
        if computed:
            raise StoreError(f"{path}: the table {t} has computed columns ({', '.join(computed)}): {hand}")
        if [(c, ty) for c, ty, _, _ in cols] != expected[t]:
            raise StoreError(f"{path}: the table {t} does not have the columns mythos {version} writes: {hand}")
    if version >= 2:
        for v in TABLES:
            if objects.get(v, "VIEW") != "VIEW":
                raise StoreError(f"{path}: {v} should be a view mythos makes, not a {objects[v].lower()}: {hand}")
    checks = _x(con, "SELECT DISTINCT table_name FROM duckdb_constraints() WHERE database_name = current_database() "
                     "AND constraint_type = 'CHECK' AND list_contains(?, table_name)", [names])
    if checks:
        raise StoreError(f"{path}: the table {checks[0][0]} has CHECK constraints (code run on every write): {hand}")
    macros = [r[0] for r in _x(con, "SELECT DISTINCT function_name FROM duckdb_functions() "
                                    "WHERE NOT internal AND database_name = current_database() ORDER BY 1")]
    if macros:
        raise StoreError(f"{path}: the file defines SQL functions ({', '.join(macros[:5])}), which would change what "
                         f"mythos's own queries compute: {hand}")


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
            config = stored_json(cfg) or {}
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
