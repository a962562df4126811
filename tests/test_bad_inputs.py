"""The bad-input battery: every class of bad input a careless user or an attacker tries gets a
clean error, as the user sees it on the command line.

Each ``Case`` is one class: how to make the input (files, databases, special files), the
command, and what must come back: the exit code, no traceback (a Python ``Traceback`` or a
Rust ``panicked at``), a message naming the problem (``says``) and, where the user can fix it,
how (``fix``). Most run in-process (fast); those that need a real process (a FIFO, a closed
standard input, a lock held by another process) run as a subprocess with a timeout, so a
regression that blocks fails instead of hanging the suite.

Adding a class is adding a ``Case``. A case for the compiled rules core (issue 15) takes the
same form: its ``argv`` reaches the core (a scenario file, a simulate run) and ``says`` names
the message the core's error must become; the runner already refuses a Rust panic in the output.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import duckdb
import pytest
from typer.testing import CliRunner

import reportkit as kit
from deckkit import deck_text
from mythos_cli.cli import app
from mythos_cli.decks import MAX_BYTES, sample_paths

REPO = Path(__file__).resolve().parents[1]
runner = CliRunner()
# players written in Python, for the slow path's cases
PLAYERS = """
class Raises:
    def reset(self, seed):
        pass

    def decide(self, obs):
        if obs.round >= 1:
            raise RuntimeError("my bug")
        return obs.legal[0]


class Cheats:
    def reset(self, seed):
        pass

    def decide(self, obs):
        return ("reveal", 999)


class ResetRaises:
    def reset(self, seed):
        raise ValueError("no seed for me")

    def decide(self, obs):
        return obs.legal[0]


class Exits:
    def reset(self, seed):
        pass

    def decide(self, obs):
        raise SystemExit(0)


class Sleeps:
    def reset(self, seed):
        pass

    def decide(self, obs):
        import time
        while True:
            time.sleep(1)


class Endless:
    def reset(self, seed):
        pass

    def decide(self, obs):
        import itertools
        return itertools.count()
"""
SAMPLE = str(next(p for p in sample_paths() if p.stem == "leaf-team7"))
SAND = str(next(p for p in sample_paths() if p.stem == "sand-village"))
TRACEBACKS = ("Traceback (most recent call last)", "panicked at", "RUST_BACKTRACE")


@dataclass
class Case:
    id: str
    argv: Callable[["Env"], list]  # the command (after `mythos`), built from the fixtures
    code: int
    says: str  # lower-case words the message must hold (names the problem)
    fix: str | None = None  # words of the hint (how to fix it), where a fix exists
    process: bool = False  # run as a real process (special files, standard input)
    stdin_closed: bool = False
    env: dict = field(default_factory=dict)
    after: Callable[["Env"], None] | None = None  # a check on the files afterwards


class Env:
    """The files a case may need, made on demand in its own folder."""

    def __init__(self, tmp: Path, good_db: Path):
        self.tmp, self.good_db = tmp, good_db

    def file(self, name: str, content: bytes | str) -> str:
        p = self.tmp / name
        p.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
        return str(p)

    def fifo(self, name: str = "pipe") -> str:
        p = self.tmp / name
        os.mkfifo(p)
        return str(p)

    def db_copy(self, name: str = "copy.duckdb", *statements: str) -> str:
        p = self.tmp / name
        shutil.copy(self.good_db, p)
        if statements:
            con = duckdb.connect(str(p))
            for s in statements:
                con.execute(s)
            con.close()
        return str(p)

    def damaged_db(self, how: str) -> str:
        data = bytearray(self.good_db.read_bytes())
        if how == "truncated":
            data = data[: len(data) // 2]
        else:  # flip bytes inside the first data block: its checksum no longer matches
            for i in range(3 * 4096 + 64, 3 * 4096 + 4096):
                data[i] ^= 0x5A
        return self.file(f"{how}.duckdb", bytes(data))

    def folder(self, name: str) -> str:
        p = self.tmp / name
        p.mkdir(exist_ok=True)
        return str(p)

    def decks(self, *paths: str) -> str:
        d = Path(self.folder("decks"))
        for p in paths:
            shutil.copy(p, d)
        return str(d)

    def run_config(self, name: str, change: Callable[[dict], None]) -> str:
        """A copy of the battery's database whose run's stored configuration ``change`` edited."""
        db = self.db_copy(name)
        con = duckdb.connect(db)
        cfg = json.loads(con.execute("SELECT config FROM runs WHERE run_id = ?", [kit.RUN]).fetchone()[0])
        change(cfg)
        con.execute("UPDATE runs SET config = ? WHERE run_id = ?", [json.dumps(cfg), kit.RUN])
        con.close()
        return db

    def deep_config(self, name: str, depth: int, inside_deck: bool = False) -> str:
        """The run's configuration (or its first deck's card list) nested ``depth`` deep."""
        db = self.db_copy(name)
        con = duckdb.connect(db)
        cfg = con.execute("SELECT config FROM runs WHERE run_id = ?", [kit.RUN]).fetchone()[0]
        deep = "[" * depth + "]" * depth
        if inside_deck:
            start = cfg.index('"cards": [') + len('"cards": ')
            cfg = cfg[:start] + deep + cfg[cfg.index("]", start) + 1:]
        else:
            cfg = deep
        con.execute("UPDATE runs SET config = ? WHERE run_id = ?", [cfg, kit.RUN])
        con.close()
        return db

    @property
    def missing(self) -> str:
        return str(self.tmp / "no-such" / "thing.txt")


# -- the classes ------------------------------------------------------------------------------
def _json_deck(name: str) -> str:
    return json.dumps({"name": name, "cards": [{"id": "KS-009", "qty": 2}], "missions": []})


def _nested_toml(depth: int = 3000) -> str:
    return "name = 'x'\nsteps = " + "[" * depth + "]" * depth + "\n"


def _scenario(body: str) -> str:
    return 'name = "bad"\n' + body


def _sqlite(env: Env) -> str:
    p = env.tmp / "games.sqlite"
    con = sqlite3.connect(p)
    con.execute("CREATE TABLE t (x)")
    con.commit()
    con.close()
    return str(p)


def _duckdb_plain(env: Env, statements: list[str], name: str) -> str:
    p = env.tmp / name
    con = duckdb.connect(str(p))
    for s in statements:
        con.execute(s)
    con.close()
    return str(p)


def _no_file(path_of: Callable[[Env], Path]):
    def check(env: Env) -> None:
        assert not path_of(env).exists(), f"{path_of(env)} was left behind"
    return check


DECKS = [
    Case("deck-missing", lambda e: ["validate", e.missing], 2, "no such file", "check the path"),
    Case("deck-directory", lambda e: ["validate", e.tmp], 2, "a directory", "list files inside it"),
    Case("deck-fifo", lambda e: ["validate", e.fifo()], 2, "named pipe (fifo), not a deck list", "standard input",
         process=True),
    Case("deck-device", lambda e: ["validate", "/dev/zero"], 2, "character device", "standard input"),
    Case("deck-empty", lambda e: ["validate", e.file("e.txt", "")], 2, "empty file", "one card per line"),
    Case("deck-blank-lines", lambda e: ["validate", e.file("b.txt", "\n\n   \n")], 2, "empty file"),
    Case("deck-binary", lambda e: ["validate", e.file("b.bin", b"\x89PNG\x00\x01")], 2, "binary file"),
    Case("deck-not-utf8", lambda e: ["validate", e.file("l.txt", "name: caf\xe9\n".encode("latin-1"))], 2,
         "not utf-8", "save the file as utf-8"),
    Case("deck-too-large", lambda e: ["validate", e.file("big.txt", b"#" * (MAX_BYTES + 10))], 2, "limit 1.0 mb",
         "right file"),
    Case("deck-stdin-closed", lambda e: ["validate", "-"], 2, "standard input is closed", "pipe the list in",
         process=True, stdin_closed=True),
    Case("deck-line-separator", lambda e: ["validate", e.file("ls.txt", "name: A\u2028B\n2 KS-009\n")], 2,
         "u+2028 (line separator) at line 1", "ordinary line break"),
    Case("deck-bidi-override", lambda e: ["validate", e.file("rlo.txt", "name: A\u202eB\n2 KS-009\n")], 2,
         "u+202e"),
    Case("deck-json-escape-esc", lambda e: ["validate", e.file("esc.json", _json_deck("Evil\x1b[31m"))], 1,
         '"name" holds u+001b (esc)', "delete it"),
    Case("deck-json-unit-separator", lambda e: ["validate", e.file("us.json", _json_deck("A\x1fB"))], 1,
         "u+001f (unit separator)"),
    Case("deck-json-nested", lambda e: ["validate", e.file("deep.json", "[" * 100_000 + "]" * 100_000)], 1,
         "nested too deeply"),
    Case("deck-json-invalid", lambda e: ["validate", e.file("bad.json", '{"cards": [}')], 1, "not valid json",
         "fix the json syntax"),
    Case("deck-quantity-zero", lambda e: ["validate", e.file("q.txt", deck_text(cards=["0 KS-009"]))], 1,
         "zero"),
    Case("deck-quantity-absurd", lambda e: ["validate", e.file("q.txt", deck_text(cards=["1000 KS-009"]))], 1,
         "1000"),
    Case("deck-unknown-card", lambda e: ["validate", e.file("u.txt", deck_text(cards=["2 KS-999"]))], 1,
         "unknown-card"),
    Case("deck-code-control", lambda e: ["validate", "KS-009-C--2|My\x1bDeck"], 2, "control character u+001b"),
    Case("deck-unknown-format", lambda e: ["validate", SAMPLE, "--format", "chess"], 2, "chess"),
    Case("deck-convert-no-folder", lambda e: ["deck", "convert", SAMPLE, "--to", "json", "--out",
                                              str(e.tmp / "nofolder" / "d.json")], 2, "nofolder does not exist",
         "create it first"),
    Case("deck-convert-to-fifo", lambda e: ["deck", "convert", SAMPLE, "--to", "json", "--out", e.fifo("o.json")], 2,
         "named pipe (fifo), not a deck list file", "print to standard output", process=True),
    Case("deck-convert-to-device", lambda e: ["deck", "convert", SAMPLE, "--to", "json", "--out", "/dev/full"], 2,
         "character device"),
]

SCENARIOS = [
    Case("scenario-empty", lambda e: ["scenario", "run", e.file("empty.toml", "")], 1, "no expectation",
         "[expect]"),
    Case("scenario-wrong-type", lambda e: ["scenario", "run", e.file("t.toml", _scenario(
        "[board]\nround = 'two'\n[expect]\nround = 1\n"))], 1, "board.round: a string ('two'), but it must be a whole"),
    Case("scenario-typo-table", lambda e: ["scenario", "run", e.file("t.toml", _scenario(
        "[board]\nround = 1\n[expcet]\nround = 1\n"))], 1, "unknown key 'expcet'", "did you mean 'expect'"),
    Case("scenario-steps-string", lambda e: ["scenario", "run", e.file("t.toml", _scenario(
        "steps = 'pass'\n[board]\nround = 1\n[expect]\nround = 1\n"))], 1, "steps: a string, but it must be a list"),
    Case("scenario-unit-no-card", lambda e: ["scenario", "run", e.file("t.toml", _scenario(
        "[board]\nround = 1\n[[mission]]\ncard = 'KS-001-MMS'\np1 = [{ tokens = 2 }]\n[expect]\nround = 1\n"))], 1,
         "'card' is missing"),
    Case("scenario-bad-checkpoint", lambda e: ["scenario", "run", e.file("t.toml", _scenario(
        "[board]\nround = 1\n[checkpoints.first]\nround = 1\n"))], 1, "a checkpoint is a step number"),
    Case("scenario-unknown-card", lambda e: ["scenario", "run", e.file("t.toml", _scenario(
        "[board]\nround = 1\n[hand]\np1 = ['KS-999']\n[expect]\nround = 1\n"))], 1, "unknown card 'ks-999'"),
    Case("scenario-nested", lambda e: ["scenario", "run", e.file("deep.toml", _nested_toml())], 2,
         "nested too deeply"),
    Case("scenario-not-toml", lambda e: ["scenario", "run", e.file("x.toml", "[board\nround = \n")], 2,
         "not valid toml"),
    Case("scenario-too-large", lambda e: ["scenario", "run", e.file("big.toml", "#" * 300_000)], 2, "limit"),
    Case("scenario-not-utf8", lambda e: ["scenario", "run", e.file("l.toml", b"name = 'caf\xe9'\n")], 2,
         "not utf-8"),
    Case("scenario-fifo", lambda e: ["scenario", "run", e.fifo("s.toml")], 2, "named pipe", process=True),
    Case("scenario-missing", lambda e: ["scenario", "run", e.missing], 2, "no such file or folder",
         "scenario .toml file"),
]

SIMULATE = [
    Case("workers-too-many", lambda e: ["simulate", SAMPLE, "--vs", SAND, "--games", "2", "--policy", "random",
                                        "--workers", "1000", "--db", e.tmp / "w.duckdb"], 0,
         f"--workers 1000: this machine has {os.cpu_count()} core", "--backend dask"),
    Case("workers-negative", lambda e: ["simulate", "--workers", "-3", "--db", e.tmp / "w.duckdb"], 2,
         "cannot be negative", "give 1 to"),
    Case("ladder-workers", lambda e: ["ladder", "--workers", "999", "--games", "2", "--policies", "random,greedy",
                                      "--decks", e.decks(SAMPLE, SAND)], 0,
         f"so {os.cpu_count()} process", "more processes than cores only add memory"),
    Case("ladder-decks-empty", lambda e: ["ladder", "--decks", e.folder("empty")], 2, "no deck lists in",
         "--decks"),
    Case("games-zero", lambda e: ["simulate", "--games", "0"], 2, "--games"),
    Case("games-huge", lambda e: ["simulate", "--games", "1000000000000"], 2, "--games"),
    Case("seed-negative", lambda e: ["simulate", "--seed", "-1"], 2, "--seed"),
    Case("seed-too-big", lambda e: ["simulate", "--seed", str(2**64)], 2, "--seed"),
    Case("batch-size-zero", lambda e: ["simulate", "--batch-size", "0"], 2, "--batch-size"),
    Case("policy-width-zero", lambda e: ["simulate", "--policy", "lookahead:width=0"], 2, "width is from 1 to 50"),
    Case("policy-time-huge", lambda e: ["simulate", "--policy", "lookahead:time=1e9"], 2, "time is from 0 to 60"),
    Case("policy-unknown-key", lambda e: ["simulate", "--policy", "lookahead:depth=3"], 2, "no parameter 'depth'",
         "sims: 1 to 10000"),
    Case("policy-no-params", lambda e: ["simulate", "--policy", "greedy:sims=4"], 2, "takes no parameters"),
    Case("policy-fraction", lambda e: ["simulate", "--policy", "lookahead:sims=2.5"], 2, "a whole number"),
    Case("policy-nan", lambda e: ["simulate", "--policy", "lookahead:clear=nan"], 2, "out of range"),
    Case("policy-twice", lambda e: ["simulate", "--policy", "lookahead:sims=2,sims=3"], 2, "given twice"),
    Case("policy-unknown", lambda e: ["simulate", "--policy-b", "alphazero"], 2, "unknown policy 'alphazero'",
         "--policy greedy"),
    # players written in Python (the slow path): a bad spec, and a player that fails mid-run
    Case("player-file-missing", lambda e: ["simulate", "--policy-a", e.tmp / "nowhere.py:Mine"], 2, "no such file",
         "--policy greedy"),
    Case("player-class-missing", lambda e: ["simulate", "--policy-a", e.file("p.py", PLAYERS) + ":Nobody"], 2,
         "has no class 'nobody'"),
    Case("player-file-broken", lambda e: ["simulate", "--policy-a", e.file("b.py", "def f(:\n") + ":X"], 2,
         "syntaxerror"),
    Case("player-raises", lambda e: ["simulate", SAMPLE, "--games", "4", "--db", e.tmp / "r.duckdb", "--policy-a",
                                     e.file("p.py", PLAYERS) + ":Raises"], 1, "failed in round 1",
         "mythos simulate --resume"),
    Case("player-illegal-answer", lambda e: ["simulate", SAMPLE, "--games", "4", "--db", e.tmp / "r.duckdb",
                                             "--policy-a", e.file("p.py", PLAYERS) + ":Cheats"], 1,
         "which is not legal", "fix the player"),
    Case("mulligan-unknown", lambda e: ["simulate", "--mulligan", "sometimes", "--db", e.tmp / "m.duckdb"], 2,
         "unknown mulligan policy", after=_no_file(lambda e: e.tmp / "m.duckdb")),
    Case("backend-unknown", lambda e: ["simulate", "--backend", "spark"], 2, "unknown backend", "--backend local"),
    Case("dask-no-scheduler", lambda e: ["simulate", "--backend", "dask", "--db", e.tmp / "d.duckdb"], 2,
         "needs --scheduler", after=_no_file(lambda e: e.tmp / "d.duckdb")),
    Case("dask-bad-address", lambda e: ["simulate", "--backend", "dask", "--scheduler", "not a url",
                                        "--db", e.tmp / "d.duckdb"], 2, "is not a scheduler address",
         "tcp://host:port", after=_no_file(lambda e: e.tmp / "d.duckdb")),
    Case("dask-bad-port", lambda e: ["simulate", "--backend", "dask", "--scheduler", "tcp://localhost:99999"], 2,
         "is not a scheduler address"),
    Case("resume-with-decks", lambda e: ["simulate", "--resume", "r", SAMPLE, "--games", "3"], 2,
         "deck…, --games would be ignored", "drop deck…, --games"),
    Case("resume-missing-db", lambda e: ["simulate", "--resume", "r", "--db", e.tmp / "none.duckdb"], 2,
         "no such database", after=_no_file(lambda e: e.tmp / "none.duckdb")),
    Case("resume-unknown-run", lambda e: ["simulate", "--resume", "nope", "--db", e.db_copy()], 2,
         "no run 'nope'", "db runs"),
    Case("resume-damaged-config", lambda e: ["simulate", "--resume", kit.RUN, "--db", e.db_copy(
        "c.duckdb", f"UPDATE runs SET config = '{{\"decks\": 3}}' WHERE run_id = '{kit.RUN}'")], 2,
         "stored configuration of run syn is damaged", "start a new run"),
    Case("run-name-control", lambda e: ["simulate", "--run-name", "a\x1bb"], 2, "control character u+001b"),
    Case("run-name-too-long", lambda e: ["simulate", "--run-name", "r" * 300], 2, "at most 100"),
    Case("run-name-exists", lambda e: ["simulate", SAMPLE, "--vs", SAMPLE, "--mirrors", "--games", "1",
                                       "--run-name", kit.RUN, "--db", e.db_copy()], 2, "exists already",
         "--resume syn"),
    Case("gauntlet-not-folder", lambda e: ["simulate", "--gauntlet", SAMPLE], 2, "not a folder of deck lists"),
    Case("illegal-deck-no-db", lambda e: ["simulate", e.file("bad.txt", "2 KS-009\n"), "--db", e.tmp / "x.duckdb"],
         1, "not a legal mythos deck", "mythos validate", after=_no_file(lambda e: e.tmp / "x.duckdb")),
    Case("deck-fifo-simulate", lambda e: ["simulate", e.fifo("d.txt"), "--db", e.tmp / "y.duckdb"], 2,
         "named pipe", "cannot read the deck", process=True, after=_no_file(lambda e: e.tmp / "y.duckdb")),
    Case("deck-missing-simulate", lambda e: ["simulate", "--vs", e.missing, "--db", e.tmp / "y.duckdb"], 2,
         "no such file", "deck list file", after=_no_file(lambda e: e.tmp / "y.duckdb")),
]

DATABASES = [
    Case("db-missing", lambda e: ["db", "runs", "--db", e.tmp / "none.duckdb"], 2, "no such database",
         "mythos simulate"),
    Case("db-folder", lambda e: ["db", "runs", "--db", e.tmp], 2, "is a folder", "file path"),
    Case("db-fifo", lambda e: ["db", "runs", "--db", e.fifo("db.duckdb")], 2, "named pipe (fifo), not a database",
         process=True),
    Case("db-device", lambda e: ["db", "runs", "--db", "/dev/zero"], 2, "character device, not a database"),
    Case("db-zero-bytes", lambda e: ["db", "runs", "--db", e.file("z.duckdb", b"")], 2, "empty file (0 bytes)",
         "delete it"),
    Case("db-text", lambda e: ["db", "runs", "--db", e.file("t.duckdb", "hello\n" * 100)], 2,
         "not a duckdb database", "another path"),
    Case("db-sqlite", lambda e: ["db", "runs", "--db", _sqlite(e)], 2, "an sqlite database, not a duckdb"),
    Case("db-parquet", lambda e: ["report", "winrate", "--db", e.file("g.parquet", b"PAR1" + b"\0" * 64 + b"PAR1"),
                                  "--out", e.tmp], 2, "a parquet file"),
    Case("db-truncated", lambda e: ["db", "runs", "--db", e.damaged_db("truncated")], 2, "truncated",
         "copy it again"),
    Case("db-checksum", lambda e: ["report", "winrate", "--db", e.damaged_db("checksum"), "--out", e.tmp], 2,
         "damaged", "restore it"),
    Case("db-no-tables", lambda e: ["report", "winrate", "--db", _duckdb_plain(e, [], "empty.duckdb"),
                                    "--out", e.tmp], 2, "no mythos data", "empty.duckdb.wal"),
    Case("db-foreign", lambda e: ["db", "runs", "--db", _duckdb_plain(e, ["CREATE TABLE customers (id INT)"],
                                                                      "f.duckdb")], 2, "not written by mythos"),
    Case("db-newer-schema", lambda e: ["db", "runs", "--db", e.db_copy(
        "n.duckdb", "UPDATE meta SET value = '99' WHERE key = 'schema_version'")], 2, "newer mythos",
         "upgrade mythos"),
    Case("db-view-instead-of-table", lambda e: ["report", "cards", "--db", e.db_copy(
        "v.duckdb", "ALTER TABLE game_data RENAME TO gd", "CREATE VIEW game_data AS SELECT * FROM gd"),
        "--out", e.tmp], 2, "game_data should be a table of data but is a view"),
    Case("db-macro", lambda e: ["db", "runs", "--db", e.db_copy("m.duckdb", "CREATE MACRO xor(a, b) AS 0")], 2,
         "defines sql functions (xor)"),
    Case("db-memory-setting", lambda e: ["db", "runs", "--db", e.good_db], 2, "mythos_duckdb_memory='lots'",
         env={"MYTHOS_DUCKDB_MEMORY": "lots"}),
    # an unknown run is bad input, exit 2, in `db` as in `report` (issue 18's one convention)
    Case("db-show-unknown", lambda e: ["db", "show", "nope", "--db", e.good_db], 2, "no run 'nope'", "db runs"),
    Case("db-export-format", lambda e: ["db", "export", kit.RUN, "--format", "xlsx", "--out", e.tmp, "--db",
                                        e.good_db], 2, "unknown format 'xlsx'", "--format parquet"),
    Case("db-export-out-is-file", lambda e: ["db", "export", kit.RUN, "--out", e.file("f.txt", "x"), "--db",
                                             e.good_db], 2, "cannot write to", "is a file, not a folder"),
    Case("db-export-unknown-run", lambda e: ["db", "export", "nope", "--out", e.tmp / "x", "--db", e.good_db], 2,
         "no run 'nope'"),
]

REPORTS = [
    Case("report-unknown-run", lambda e: ["report", "winrate", "--db", e.good_db, "--run", "sin", "--out", e.tmp], 2,
         "no run 'sin'", "did you mean syn"),
    Case("report-unknown-deck", lambda e: ["report", "cards", "--db", e.good_db, "--deck", "Zeta", "--out", e.tmp],
         2, "no deck 'zeta'", "decks in this run"),
    Case("report-bad-field", lambda e: ["report", "winrate", "--db", e.good_db, "--field", "Alpha=lots",
                                        "--out", e.tmp], 2, "is not a number", "shares are numbers"),
    Case("report-name-too-long", lambda e: ["report", "curve", "--db", e.good_db, "--out", e.tmp / ("o" * 300)], 2,
         "file name too long", "choose a shorter --out"),
    Case("report-out-is-file", lambda e: ["report", "curve", "--db", e.good_db, "--out", e.file("f", "x")], 2,
         "cannot create the report folder", "is a file, not a folder"),
    Case("report-damaged-config", lambda e: ["report", "winrate", "--db", e.db_copy(
        "c.duckdb", f"UPDATE runs SET config = '[1, 2]' WHERE run_id = '{kit.RUN}'"), "--out", e.tmp], 2,
         "stored configuration is damaged", "simulate the decks again"),
    Case("report-empty-run", lambda e: ["report", "winrate", "--db", e.good_db, "--run", "empty", "--out", e.tmp], 1,
         "no stored games", "--resume empty"),
    Case("report-empty-run-id", lambda e: ["report", "winrate", "--db", e.good_db, "--run", " ", "--out", e.tmp], 2,
         "--run is empty", "leave --run out"),
    Case("report-bracket-deck", lambda e: ["report", "cards", "--db", e.good_db, "--deck", "[red]Zeta", "--out",
                                           e.tmp], 2, "no deck '[red]zeta'"),
    Case("report-min-games", lambda e: ["report", "cards", "--db", e.good_db, "--min-games", "0"], 2,
         "--min-games"),
    # issue 18's --check-policy plays games again: the same bounds as simulate
    Case("report-check-workers", lambda e: ["report", "winrate", "--db", e.good_db, "--check-policy", "random",
                                            "--check-games", "1", "--workers", "1000", "--out", e.tmp], 0,
         "--workers 1000: this machine has", "--backend dask"),
    Case("report-check-out-is-file", lambda e: ["report", "prep", "Alpha", "--db", e.good_db, "--check-policy",
                                                "search:time=60", "--out", e.file("f", "x")], 2,
         "cannot create the report folder", "is a file, not a folder"),
    Case("report-check-policy-bad", lambda e: ["report", "winrate", "--db", e.good_db, "--check-policy",
                                               "lookahead:width=0", "--out", e.tmp], 2, "width is from 1 to 50"),
    Case("report-check-games-zero", lambda e: ["report", "winrate", "--db", e.good_db, "--check-policy", "greedy",
                                               "--check-games", "0", "--out", e.tmp], 2, "--check-games"),
]

# the commands issue 18 and 19 added: list A vs list B, replays, optimize
COMPARE = [
    Case("compare-one-deck", lambda e: ["report", "compare", "Alpha", "--db", e.good_db, "--out", e.tmp], 2,
         "give a second deck", "--run-b"),
    Case("compare-unknown-deck", lambda e: ["report", "compare", "Alpha", "Zeta", "--db", e.good_db, "--out", e.tmp],
         2, "no deck 'zeta'", "decks in this run"),
    Case("compare-bracket-deck", lambda e: ["report", "compare", "[red]Zeta", "Alpha", "--db", e.good_db,
                                            "--out", e.tmp], 2, "no deck '[red]zeta'"),
    Case("compare-same-deck", lambda e: ["report", "compare", "Alpha", "Alpha", "--db", e.good_db, "--out", e.tmp], 2,
         "both sides are alpha", "--run-b"),
    Case("compare-unknown-run-b", lambda e: ["report", "compare", "Alpha", "--run-b", "nope", "--db", e.good_db,
                                             "--out", e.tmp], 2, "no run 'nope'", "runs in this database"),
    Case("compare-empty-run", lambda e: ["report", "compare", "Alpha", "Beta", "--run", " ", "--db", e.good_db,
                                         "--out", e.tmp], 2, "--run is empty", "leave it out"),
    Case("compare-db-b-fifo", lambda e: ["report", "compare", "Alpha", "--run-b", kit.RUN, "--db-b", e.fifo("b.duckdb"),
                                         "--db", e.good_db, "--out", e.tmp], 2, "named pipe (fifo), not a database",
         process=True),
    Case("compare-db-b-missing", lambda e: ["report", "compare", "Alpha", "--run-b", kit.RUN, "--db-b",
                                            e.tmp / "none.duckdb", "--db", e.good_db, "--out", e.tmp], 2,
         "no such database", after=_no_file(lambda e: e.tmp / "none.duckdb")),
]

REPLAY = [
    Case("replay-no-game", lambda e: ["replay", kit.RUN, "--db", e.good_db], 2, "give a run and a game number",
         "--examples"),
    Case("replay-unknown-run", lambda e: ["replay", "nope", "1", "--db", e.good_db], 2, "no run 'nope'", "db runs"),
    Case("replay-game-not-stored", lambda e: ["replay", kit.RUN, "99999", "--db", e.good_db], 2,
         "has no stored game 99999", "planned games"),
    Case("replay-game-huge", lambda e: ["replay", kit.RUN, "9" * 30, "--db", e.good_db], 2, "has no stored game"),
    Case("replay-missing-db", lambda e: ["replay", kit.RUN, "1", "--db", e.tmp / "none.duckdb"], 2,
         "no such database", after=_no_file(lambda e: e.tmp / "none.duckdb")),
    Case("replay-db-fifo", lambda e: ["replay", kit.RUN, "1", "--db", e.fifo("r.duckdb")], 2,
         "named pipe (fifo), not a database", process=True),
    Case("replay-seed-negative", lambda e: ["replay", "--seed", "-1", SAMPLE, SAMPLE], 2, "--seed"),
    Case("replay-seed-too-big", lambda e: ["replay", "--seed", str(2**64), SAMPLE, SAMPLE], 2, "--seed"),
    Case("replay-seed-one-deck", lambda e: ["replay", "--seed", "3", SAMPLE], 2, "give two decks", "--seed 7"),
    Case("replay-deck-fifo", lambda e: ["replay", "--seed", "1", e.fifo("d.txt"), SAMPLE], 2, "named pipe",
         "cannot read the deck", process=True),
    Case("replay-illegal-deck", lambda e: ["replay", "--seed", "1", e.file("bad.txt", "2 KS-009\n"), SAMPLE], 1,
         "not a legal mythos deck", "mythos validate"),
    Case("replay-policy-width-zero", lambda e: ["replay", "--seed", "1", SAMPLE, SAMPLE, "--policy",
                                                "lookahead:width=0"], 2, "width is from 1 to 50"),
]

OPTIMIZE = [
    Case("optimize-no-deck", lambda e: ["optimize", "--db", e.tmp / "o.duckdb"], 2, "give the deck to optimize",
         "--resume", after=_no_file(lambda e: e.tmp / "o.duckdb")),
    Case("optimize-resume-and-deck", lambda e: ["optimize", SAMPLE, "--resume", "x"], 2, "give one or the other"),
    Case("optimize-resume-empty", lambda e: ["optimize", "--resume", " "], 2, "--resume needs an optimization id"),
    Case("optimize-resume-missing-db", lambda e: ["optimize", "--resume", "x", "--db", e.tmp / "none.duckdb"], 2,
         "no such database", after=_no_file(lambda e: e.tmp / "none.duckdb")),
    Case("optimize-resume-unknown", lambda e: ["optimize", "--resume", "nope", "--db", e.db_copy()], 2,
         "no optimization 'nope'", "mythos optimize deck"),
    Case("optimize-out-is-file", lambda e: ["optimize", SAMPLE, "--out", e.file("f.txt", "x"), "--db",
                                            e.tmp / "o.duckdb"], 2, "is a file, not a folder",
         "choose a folder with --out", after=_no_file(lambda e: e.tmp / "o.duckdb")),
    Case("optimize-workers-negative", lambda e: ["optimize", SAMPLE, "--workers", "-3"], 2, "cannot be negative"),
    Case("optimize-seed-negative", lambda e: ["optimize", SAMPLE, "--seed", "-1"], 2, "--seed"),
    Case("optimize-seed-too-big", lambda e: ["optimize", SAMPLE, "--seed", str(2**64)], 2, "--seed"),
    Case("optimize-budget-huge", lambda e: ["optimize", SAMPLE, "--budget", "1000000000000"], 2, "--budget"),
    Case("optimize-budget-too-small", lambda e: ["optimize", SAMPLE, "--budget", "10", "--db", e.tmp / "o.duckdb"], 2,
         "too small", "--budget", after=_no_file(lambda e: e.tmp / "o.duckdb")),
    Case("optimize-name-control", lambda e: ["optimize", SAMPLE, "--name", "a\x1bb"], 2, "control character u+001b"),
    Case("optimize-name-too-long", lambda e: ["optimize", SAMPLE, "--name", "o" * 95], 2, "at most 88"),
    Case("optimize-deck-missing", lambda e: ["optimize", e.missing, "--db", e.tmp / "o.duckdb"], 2,
         "cannot read the deck", "check the path", after=_no_file(lambda e: e.tmp / "o.duckdb")),
    Case("optimize-deck-fifo", lambda e: ["optimize", e.fifo("d.txt")], 2, "named pipe", "cannot read the deck",
         process=True),
    Case("optimize-illegal-deck", lambda e: ["optimize", e.file("bad.txt", "2 KS-009\n")], 1,
         "not a legal mythos deck", "mythos validate"),
    Case("optimize-policy-width-zero", lambda e: ["optimize", SAMPLE, "--policy", "lookahead:width=0"], 2,
         "width is from 1 to 50"),
    Case("optimize-field-unknown", lambda e: ["optimize", SAMPLE, "--field", "Nope=1"], 2, "no deck 'nope'",
         "a deck of the gauntlet"),
    Case("optimize-field-share", lambda e: ["optimize", SAMPLE, "--field", "Sand=lots"], 2, "is not a number",
         "shares are numbers"),
    Case("optimize-pool-unknown", lambda e: ["optimize", SAMPLE, "--pool", "chess"], 2, "not a set, a filter or a file",
         "--pool ks"),
    Case("optimize-pool-folder", lambda e: ["optimize", SAMPLE, "--pool", e.tmp], 2, "a folder, not a collection list"),
    Case("optimize-pool-fifo", lambda e: ["optimize", SAMPLE, "--pool", e.fifo("c.txt")], 2,
         "named pipe (fifo), not a deck list", process=True),
    Case("optimize-dask-no-scheduler", lambda e: ["optimize", SAMPLE, "--backend", "dask", "--db", e.tmp / "d.duckdb"],
         2, "needs --scheduler", after=_no_file(lambda e: e.tmp / "d.duckdb")),
    Case("optimize-dask-bad-address", lambda e: ["optimize", SAMPLE, "--backend", "dask", "--scheduler", "not a url",
                                                 "--db", e.tmp / "d.duckdb"], 2, "is not a scheduler address",
         "tcp://host:port", after=_no_file(lambda e: e.tmp / "d.duckdb")),
    Case("optimize-db-fifo", lambda e: ["optimize", SAMPLE, "--db", e.fifo("o.duckdb")], 2,
         "named pipe (fifo), not a database", process=True),
]

def _player(e: "Env", name: str) -> str:
    return e.file("p.py", PLAYERS) + ":" + name


def _sim_player(name: str, *extra: str):
    return lambda e: ["simulate", SAMPLE, "--vs", SAND, "--games", "2", "--db", e.tmp / "p.duckdb", "--policy-a",
                      _player(e, name), "--policy-b", "random", "--workers", "1", *extra]


def _stored_status(status: str):
    def check(env: Env) -> None:
        con = duckdb.connect(str(env.tmp / "p.duckdb"), read_only=True)
        try:
            assert con.execute("SELECT status FROM runs").fetchall() == [(status,)]
        finally:
            con.close()
    return check


# issue 30: players written in Python, stored data that was crafted, and the worst poor answers
ISSUE_30 = [
    # point 5: everything a Python player does is said as its failure
    Case("player-reset-raises", _sim_player("ResetRaises"), 1, "failed in reset(seed), before the game: valueerror",
         "mythos simulate --resume", after=_stored_status("interrupted")),
    Case("player-system-exit", _sim_player("Exits"), 1, "failed in round 0 (mulligan decision): systemexit",
         "fix the player", after=_stored_status("interrupted")),
    Case("player-never-returns", _sim_player("Sleeps", "--player-timeout", "1"), 1, "did not answer within 1 s",
         "--player-timeout", process=True, after=_stored_status("interrupted")),
    Case("player-endless-iterator", _sim_player("Endless"), 1, "an answer of more than 16 values",
         "fix the player"),
    Case("replay-seed-player-raises", lambda e: ["replay", "--seed", "1", SAMPLE, SAND, "--policy",
                                                 _player(e, "Raises"), "--policy-b", "random"], 1,
         "failed in round 1", "fix the player"),
    Case("replay-seed-reset-raises", lambda e: ["replay", "--seed", "1", SAMPLE, SAND, "--policy",
                                                _player(e, "ResetRaises")], 1, "failed in reset(seed)"),
    Case("player-timeout-negative", lambda e: ["simulate", "--player-timeout", "-1"], 2, "--player-timeout"),
    # point 6: stored data that would have been a traceback
    Case("db-runs-deep-config", lambda e: ["db", "runs", "--db", e.deep_config("d.duckdb", 100_000)], 0, "syn"),
    Case("report-deep-config", lambda e: ["report", "winrate", "--db", e.deep_config("d.duckdb", 100_000),
                                          "--out", e.tmp], 2, "nested too deeply"),
    Case("replay-deep-config", lambda e: ["replay", kit.RUN, "1", "--db", e.deep_config("d.duckdb", 100_000)], 2,
         "nested too deeply"),
    Case("resume-deep-config", lambda e: ["simulate", "--resume", kit.RUN, "--db", e.deep_config("d.duckdb", 100_000)],
         2, "nested too deeply"),
    Case("replay-deep-deck", lambda e: ["replay", kit.RUN, "1", "--db", e.deep_config("d.duckdb", 5_000, True)], 2,
         "nested too deeply"),
    Case("report-check-deep-deck", lambda e: ["report", "winrate", "--db", e.deep_config("d.duckdb", 5_000, True),
                                              "--check-policy", "random", "--out", e.tmp], 2, "nested too deeply"),
    Case("replay-unknown-stored-policy", lambda e: ["replay", kit.RUN, "1", "--db", e.run_config(
        "u.duckdb", lambda c: c.update(policy_a="alphazero"))], 2, "unknown policy 'alphazero'",
         "replay it with its own players"),
    Case("resume-unknown-stored-policy", lambda e: ["simulate", "--resume", kit.RUN, "--db", e.run_config(
        "u.duckdb", lambda c: c.update(policy_b="alphazero"))], 2, "unknown policy 'alphazero'"),
    Case("replay-unknown-stored-card", lambda e: ["replay", kit.RUN, "1", "--db", e.run_config(
        "c.duckdb", lambda c: c["decks"][0]["cards"].__setitem__(0, "KS-999"))], 2,
         "holds 'ks-999', a card this mythos does not know", "can still be reported"),
    # point 7: scenario steps no game can have, refused before the board is set up
    Case("scenario-auto-round-99", lambda e: ["scenario", "run", e.file("t.toml", _scenario(
        "steps = ['auto until round 99']\n[board]\nround = 1\n[expect]\nround = 2\n"))], 1,
         "step 1 ('auto until round 99'): a game has rounds 1 to 4"),
    Case("scenario-auto-until-what", lambda e: ["scenario", "run", e.file("t.toml", _scenario(
        "steps = ['auto until lunch']\n[board]\nround = 1\n[expect]\nround = 2\n"))], 1,
         "auto runs until end, evaluation or round n"),
    Case("scenario-choose-huge", lambda e: ["scenario", "run", e.file("t.toml", _scenario(
        "steps = ['p2: choose 99999999999999999999999']\n[board]\nround = 1\n[expect]\nround = 2\n"))], 1,
         "more than any decision offers: choose a number from 0 to 999"),
    Case("scenario-play-on-mission-9", lambda e: ["scenario", "run", e.file("t.toml", _scenario(
        "steps = ['play KS-009 on 9']\n[board]\nround = 1\n[expect]\nround = 2\n"))], 1,
         "missions in play are numbered 1 to 4, not 9"),
]

CASES = DECKS + SCENARIOS + SIMULATE + DATABASES + REPORTS + COMPARE + REPLAY + OPTIMIZE + ISSUE_30


def test_the_battery_covers_at_least_sixty_classes():
    ids = [c.id for c in CASES]
    assert len(ids) == len(set(ids)) and len(ids) >= 60


@pytest.fixture(scope="module")
def good_db(tmp_path_factory):
    return kit.write_db(tmp_path_factory.mktemp("battery") / "good.duckdb")


def _run(case: Case, env: Env) -> tuple[int, str]:
    argv = [str(a) for a in case.argv(env)]
    if not case.process:
        old = {k: os.environ.get(k) for k in case.env}
        os.environ.update(case.env)
        try:
            res = runner.invoke(app, argv)
        finally:
            for k, v in old.items():
                os.environ.pop(k) if v is None else os.environ.__setitem__(k, v)
        assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)
        return res.exit_code, res.output
    environ = dict(os.environ, PYTHONPATH=str(REPO), COLUMNS="200", **case.env)
    proc = subprocess.run([sys.executable, "-m", "mythos_cli", *argv], capture_output=True, text=True, timeout=60,
                          env=environ, cwd=env.tmp, stdin=subprocess.DEVNULL if not case.stdin_closed else None,
                          **({"preexec_fn": lambda: os.close(0)} if case.stdin_closed else {}))
    return proc.returncode, proc.stdout + proc.stderr


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_bad_input_gets_a_clean_error(case, tmp_path, good_db, monkeypatch):
    if "dask-" in case.id and importlib.util.find_spec("distributed") is None:
        pytest.skip("a scheduler's errors need the cluster extra (without it: test_dask_backend_without_dask)")
    monkeypatch.chdir(tmp_path)  # a command that should have refused never writes into the checkout
    env = Env(tmp_path, good_db)
    code, output = _run(case, env)
    # rich wraps long lines and table cells: read the words without the frame
    text = " ".join(re.sub(r"[\u2500-\u257f]", " ", output).split()).lower()
    for mark in TRACEBACKS:
        assert mark.lower() not in text, output
    assert code == case.code, output
    assert case.says.lower() in text, output
    if case.fix is not None:
        assert case.fix.lower() in text, output
    if case.after is not None:
        case.after(env)


@pytest.mark.parametrize("command", [["simulate"], ["optimize", SAMPLE]])
def test_dask_backend_without_dask(command, tmp_path, monkeypatch):
    """An install without the cluster extra: --backend dask says so and how to add it, writes nothing."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setitem(sys.modules, "distributed", None)  # `import distributed` raises ImportError
    res = CliRunner().invoke(app, [*command, "--backend", "dask", "--scheduler", "tcp://localhost:8786",
                                   "--db", str(tmp_path / "d.duckdb")])
    text = " ".join(res.output.split())
    assert res.exit_code == 2, res.output
    assert "needs Dask" in text and 'pip install "mythos[cluster]"' in text and "Traceback" not in text
    assert "dask scheduler" not in text  # not the hint for a missing scheduler
    assert not (tmp_path / "d.duckdb").exists()


# -- issue 30, point 2: stored strings reach neither the terminal nor a file raw ---------------
EVIL_RUN = "ev\x1b]0;pwned\x07il\x1b[2J\nerror: forged line\x00\u202e"
EVIL_DECK = "Al\x1b[31mpha\x9b2J\rX $\\foo$"  # and a formula matplotlib cannot parse
# every control character ``mythos_cli.text.shown`` escapes (the newline is checked apart)
RAW = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")


def _evil_db(good_db: Path, dest: Path) -> Path:
    """The battery's database, its finished run renamed EVIL_RUN and its deck Alpha EVIL_DECK."""
    shutil.copy(good_db, dest)
    con = duckdb.connect(str(dest))
    cfg = json.loads(con.execute("SELECT config FROM runs WHERE run_id = ?", [kit.RUN]).fetchone()[0])
    for d in cfg["decks"]:
        d["name"] = d["name"].replace("Alpha", EVIL_DECK)
    con.execute("UPDATE runs SET config = ?, name = ? WHERE run_id = ?", [json.dumps(cfg), EVIL_RUN, kit.RUN])
    for t in ("runs", "game_data", "batches", "run_cards", "run_setups"):
        con.execute(f"UPDATE {t} SET run_id = ? WHERE run_id = ?", [EVIL_RUN, kit.RUN])
    con.execute("UPDATE run_setups SET deck_0 = replace(deck_0, 'Alpha', ?), deck_1 = replace(deck_1, 'Alpha', ?), "
                "matchup = replace(matchup, 'Alpha', ?)", [EVIL_DECK] * 3)
    con.close()
    return dest


def _no_raw_controls(text: str, where: str) -> None:
    found = RAW.search(text)
    assert found is None, f"{where}: raw U+{ord(found.group()):04X} in {text[max(0, found.start() - 40):found.end() + 40]!r}"
    assert not [line for line in text.splitlines() if line.lstrip(" │┃").startswith("error: forged")], \
        f"{where}: a stored newline forged a line\n{text}"


STORED_STRING_COMMANDS = [
    ("db-runs", lambda db, out: ["db", "runs", "--db", db]),
    ("db-runs-json", lambda db, out: ["db", "runs", "--db", db, "--json"]),
    ("db-show", lambda db, out: ["db", "show", EVIL_RUN, "--db", db]),
    ("db-show-json", lambda db, out: ["db", "show", EVIL_RUN, "--db", db, "--json"]),
    ("db-show-unknown", lambda db, out: ["db", "show", EVIL_RUN + "x", "--db", db]),
    ("report-winrate", lambda db, out: ["report", "winrate", "--db", db, "--run", EVIL_RUN, "--out", out,
                                        "--examples"]),
    ("report-winrate-json", lambda db, out: ["report", "winrate", "--db", db, "--run", EVIL_RUN, "--out", out,
                                             "--json"]),
    ("report-prep", lambda db, out: ["report", "prep", "Beta", "--db", db, "--run", EVIL_RUN, "--out", out]),
    ("report-cards", lambda db, out: ["report", "cards", "--db", db, "--run", EVIL_RUN, "--out", out]),
    ("report-unknown-deck", lambda db, out: ["report", "cards", "--db", db, "--run", EVIL_RUN, "--deck", "Zeta",
                                             "--out", out]),
    ("report-compare", lambda db, out: ["report", "compare", "Beta", "Gamma", "--db", db, "--run", EVIL_RUN,
                                        "--out", out]),
]


@pytest.mark.parametrize("name,argv", STORED_STRING_COMMANDS, ids=[c[0] for c in STORED_STRING_COMMANDS])
def test_stored_strings_reach_no_terminal_or_file_raw(name, argv, good_db, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    db = _evil_db(good_db, tmp_path / "evil.duckdb")
    out = tmp_path / "reports"
    res = runner.invoke(app, [str(a) for a in argv(db, out)])
    assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)
    assert res.exit_code in (0, 1, 2) and "Traceback" not in res.output, res.output
    _no_raw_controls(res.output, name)
    if name.endswith("-json") and res.exit_code == 0:
        json.loads(res.output[res.output.index("[" if name.startswith("db-runs") else "{"):])  # still JSON
    for f in out.rglob("*") if out.exists() else ():
        if f.suffix in (".md", ".html", ".txt"):
            _no_raw_controls(f.read_text(encoding="utf-8"), str(f))
    if name == "db-runs":  # the id shows as written, its controls as escapes
        assert "\\x1b]0;pwned\\x07il" in res.output, res.output


def test_a_scenario_name_reaches_the_terminal_escaped(tmp_path):
    path = tmp_path / "evil.toml"
    path.write_text('name = "be\\u001b]0;pwned\\u0007fore\\nerror: forged line"\n[board]\nround = 1\n'
                    '[expect]\nround = 2\n', encoding="utf-8")
    for argv in (["scenario", "run", str(path)], ["scenario", "run", str(path), "--json"]):
        res = runner.invoke(app, argv)
        assert res.exit_code == 1, res.output
        _no_raw_controls(res.output, " ".join(argv))


def test_shown_escapes_every_control_character():
    from mythos_cli.text import shown

    assert shown("a\x1b[2Jb\x07\x00\x9b\u202e\u2028\t") == "a\\x1b[2Jb\\x07\\x00\\x9b\\u202e\\u2028\\t"
    assert shown("two\nlines") == "two\\nlines" and shown("two\nlines", lines=True) == "two\nlines"
    assert shown("Kakashi Hatake – 写輪眼 ✓") == "Kakashi Hatake – 写輪眼 ✓"  # printable text is untouched


# -- issue 30, point 3: --out never writes through a link placed inside it ---------------------
def test_report_refuses_a_link_under_out(good_db, tmp_path):
    out, elsewhere = tmp_path / "work", tmp_path / "elsewhere"
    out.mkdir()
    elsewhere.mkdir()
    (out / kit.RUN).symlink_to(elsewhere)
    res = runner.invoke(app, ["report", "curve", "--db", str(good_db), "--out", str(out)])
    text = " ".join(res.output.split()).lower()
    assert res.exit_code == 2 and "is a symbolic link" in text and "remove the link" in text, res.output
    assert list(elsewhere.iterdir()) == [], "the report was written through the link"
    assert not [p for p in out.iterdir() if p.name != kit.RUN], "a staging folder was left behind"


def test_a_link_in_place_of_a_report_file_is_replaced_not_followed(good_db, tmp_path):
    out = tmp_path / "work"
    (out / kit.RUN).mkdir(parents=True)
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    (out / kit.RUN / "curve.md").symlink_to(victim)
    res = runner.invoke(app, ["report", "curve", "--db", str(good_db), "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert victim.read_text() == "precious"
    assert not (out / kit.RUN / "curve.md").is_symlink() and "Curve" in (out / kit.RUN / "curve.md").read_text()


# -- issue 30, point 7: the worst poor answers -------------------------------------------------
def test_a_full_disk_is_blamed_on_the_disk_not_the_database(tmp_path):
    """DuckDB's words for a full disk, as an export into a full folder and a full database disk
    give them (measured on a 2 MB tmpfs): the folder is named, the database is not damaged, and
    nobody is told to `simulate --resume` an export."""
    from mythos_cli.store.db import _explain

    db = tmp_path / "m.duckdb"
    export = duckdb.IOException('IO Error: Async write failed for range [offset=186, size=1535807]: {"exception_type":'
                                '"IO","exception_message":"Could not write file \\"/mnt/full/x/tmp_.player_rounds.8v40'
                                'id1c.tmp\\": No space left on device","errno":"28"}')
    text = str(_explain(db, export))
    assert text.startswith("/mnt/full/x: the disk is full") and f"The database {db} is not damaged" in text, text
    assert "simulate --resume" not in text and "no partial file was left" in text
    own = duckdb.IOException(f'IO Error: Could not write file "{db}.wal": No space left on device')
    text = str(_explain(db, own))
    assert text.startswith(f"{db}: the disk that holds the database is full") and "not damaged" in text, text
    assert "continue with --resume" in text


@pytest.fixture(scope="module")
def played_db(tmp_path_factory):
    """A real run of 4 greedy games (its replays give the stored games back)."""
    db = tmp_path_factory.mktemp("played") / "p.duckdb"
    res = runner.invoke(app, ["simulate", SAMPLE, "--vs", SAND, "--games", "4", "--policy", "greedy", "--run-name",
                              "real", "--workers", "1", "--db", str(db), "--quiet"])
    assert res.exit_code == 0, res.output
    return db


def test_a_tampered_stored_game_is_said_to_be_tampered(played_db, tmp_path):
    db = Path(shutil.copy(played_db, tmp_path / "t.duckdb"))
    con = duckdb.connect(str(db))
    con.execute("UPDATE game_data SET score_0 = score_0 + 1 WHERE run_id = 'real' AND game_no = 1")
    con.close()
    res = runner.invoke(app, ["replay", "real", "1", "--db", str(db)])
    text = " ".join(res.output.split())
    assert res.exit_code == 1 and "score_0" in text, res.output
    assert "the stored game was changed after it was stored" in text and "trust no figure of this run" in text
    assert "with the mythos that played it" not in text  # (it is this one)
    res = runner.invoke(app, ["replay", "real", "2", "--db", str(db)])  # an untouched game still replays
    assert res.exit_code == 0, res.output


def test_stored_cards_outside_the_runs_lists_are_said(played_db, tmp_path):
    """Game rows naming cards outside the run's lists were reported silently (issue 30, point 7):
    the report warns that the games were changed, naming the cards."""
    db = Path(shutil.copy(played_db, tmp_path / "c.duckdb"))
    res = runner.invoke(app, ["report", "winrate", "--run", "real", "--db", str(db), "--out", str(tmp_path / "r0")])
    assert res.exit_code == 0 and "were changed after they were stored" not in res.output, res.output
    con = duckdb.connect(str(db))
    code = con.execute("SELECT min(code) FROM run_cards WHERE run_id = 'real' AND card IN "
                       "(SELECT card FROM card_events WHERE run_id = 'real')").fetchone()[0]
    con.execute("UPDATE run_cards SET card = 'KS-999' WHERE run_id = 'real' AND code = ?", [code])
    con.close()
    res = runner.invoke(app, ["report", "winrate", "--run", "real", "--db", str(db), "--out", str(tmp_path / "r1")])
    text = " ".join(res.output.split())
    assert "KS-999" in text and "were changed after they were stored" in text, res.output
    con = duckdb.connect(str(db))
    con.execute("DELETE FROM run_cards WHERE run_id = 'real' AND code = ?", [code])
    con.close()
    res = runner.invoke(app, ["report", "winrate", "--run", "real", "--db", str(db), "--out", str(tmp_path / "r2")])
    text = " ".join(res.output.split())  # a code outside the run's card list: refused (as before)
    assert res.exit_code != 0 and "the card list of run real is damaged" in text, res.output
