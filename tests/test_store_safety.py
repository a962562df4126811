"""A database file is data, never code: what a crafted `.duckdb` file can and cannot make mythos do."""

from __future__ import annotations

import json
import shutil

import duckdb
import pytest
from typer.testing import CliRunner

import reportkit as kit
from mythos_cli.cli import app
from mythos_cli.reports import make_report
from mythos_cli.store import StoreError, open_store

runner = CliRunner()
SECRET = "TOP-SECRET-7f3a9c"


@pytest.fixture(scope="module")
def good(tmp_path_factory):
    return kit.write_db(tmp_path_factory.mktemp("safety") / "good.duckdb")


@pytest.fixture
def craft(tmp_path, good):
    """A copy of a real mythos database, changed by hand with ``statements`` (full DuckDB, no limits)."""
    def make(*statements: str, name: str = "crafted.duckdb"):
        path = tmp_path / name
        shutil.copy(good, path)
        con = duckdb.connect(str(path))
        for s in statements:
            con.execute(s.replace("SECRET_FILE", str(secret_file(tmp_path))))
        con.close()
        return path
    return make


def secret_file(tmp_path):
    f = tmp_path / "secret.txt"
    if not f.exists():
        f.write_text(f"{SECRET}\n", encoding="utf-8")
    return f


def cli(*args):
    res = runner.invoke(app, [str(a) for a in args])
    assert "Traceback" not in res.output, res.output
    assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)
    return res


def everything_written(folder) -> str:
    return "".join(p.read_text(encoding="utf-8", errors="replace") for p in folder.rglob("*") if p.is_file()
                   and p.suffix in (".md", ".html", ".csv"))


# the games view of a crafted file reads a local file into every row's deck name
HOSTILE_GAMES = ("ALTER VIEW games RENAME TO games_0",
                 "CREATE VIEW games AS SELECT * REPLACE ((SELECT content FROM read_text('SECRET_FILE')) AS deck_0) "
                 "FROM games_0")


def test_a_crafted_games_view_never_reads_the_local_file(craft, tmp_path):
    bad = craft(*HOSTILE_GAMES, "CREATE OR REPLACE VIEW card_events AS SELECT *, (SELECT content FROM read_text('SECRET_FILE')) "
                "AS card FROM game_data",
                "CREATE OR REPLACE VIEW player_rounds AS SELECT * FROM read_csv('SECRET_FILE')",
                name="hostile.duckdb")
    con = duckdb.connect(str(bad), read_only=True)  # what the file does to a trusting reader
    assert SECRET in con.execute("SELECT deck_0 FROM games LIMIT 1").fetchall()[0][0]
    con.close()
    for kind in ("winrate", "mulligan", "curve", "cards"):
        res = make_report(kind, bad, out=tmp_path / "reports", min_games=2)
        assert SECRET not in json.dumps(res.to_json())
        assert res.numbers  # made from the stored games, not from the file's views
    res = make_report("prep", bad, deck="Alpha", out=tmp_path / "reports", min_games=2)
    assert SECRET not in json.dumps(res.to_json())
    assert SECRET not in everything_written(tmp_path / "reports")
    for fmt in ("csv", "parquet"):
        res = cli("db", "export", kit.RUN, "--db", bad, "--format", fmt, "--out", tmp_path / fmt)
        assert res.exit_code == 0, res.output
    assert SECRET not in everything_written(tmp_path / "csv")
    assert SECRET.encode() not in b"".join(p.read_bytes() for p in (tmp_path / "parquet").iterdir())
    res = cli("db", "runs", "--db", bad, "--json")
    assert res.exit_code == 0 and SECRET not in res.output


def test_the_file_own_views_are_replaced_when_mythos_writes(craft):
    bad = craft(*HOSTILE_GAMES)
    with open_store(bad) as s:  # a write open puts mythos's own views back into the file
        sql = s.con.execute("SELECT sql FROM duckdb_views() WHERE view_name = 'games' AND NOT temporary").fetchall()
    assert sql and "read_text" not in sql[0][0]


@pytest.mark.parametrize("statements, says", [
    (["ALTER TABLE game_data RENAME TO gd", "CREATE VIEW game_data AS SELECT * FROM gd"],
     "game_data should be a table of data but is a view"),
    (["CREATE MACRO xor(a, b) AS 0"], "defines SQL functions (xor)"),
    (["CREATE MACRO range(n) AS TABLE SELECT 1 AS range"], "defines SQL functions (range)"),
    (["ALTER TABLE runs ADD COLUMN evil VARCHAR DEFAULT 'x'"], "computed columns (evil)"),
    (["ALTER TABLE run_cards ADD COLUMN more INTEGER"], "does not have the columns"),
    (["DROP TABLE run_setups"], "run_setups of a mythos database is missing"),
    (["DROP VIEW games", "CREATE TABLE games (x INTEGER)"], "games should be a view mythos makes"),
    (["UPDATE meta SET value = 'two' WHERE key = 'schema_version'"], "schema version stored in it ('two')"),
    (["DELETE FROM meta"], "records no schema version"),
    # issue 19's optimizations table, where a file has one: data too, never a stored query
    (["CREATE VIEW optimizations AS SELECT 'x' AS opt_id"], "optimizations should be a table of data but is a view"),
    (["CREATE TABLE optimizations (opt_id VARCHAR, name VARCHAR DEFAULT 'x', config JSON, status VARCHAR, "
      "result JSON, started_at TIMESTAMP, finished_at TIMESTAMP)"], "optimizations has computed columns (name)"),
    (["CREATE TABLE optimizations (opt_id VARCHAR)"], "optimizations does not have the columns"),
])
def test_files_with_code_where_mythos_reads_are_refused(craft, tmp_path, statements, says):
    bad = craft(*statements)
    for read_only in (True, False):
        with pytest.raises(StoreError, match=__import__("re").escape(says)):
            open_store(bad, read_only=read_only)
    res = cli("report", "winrate", "--db", bad, "--out", tmp_path / "r")
    assert res.exit_code == 2 and says in " ".join(res.output.split())


def test_a_check_constraint_is_refused(tmp_path):
    path = tmp_path / "check.duckdb"
    open_store(path).close()
    con = duckdb.connect(str(path))
    con.execute("ALTER TABLE batches RENAME TO b0")
    con.execute("CREATE TABLE batches (run_id VARCHAR, batch_no INTEGER, games INTEGER, stored_at TIMESTAMP, "
                "CHECK (length(run_id) > 0))")
    con.close()
    with pytest.raises(StoreError, match="CHECK constraints"):
        open_store(path, read_only=True)


def test_every_connection_is_closed_to_the_outside(good, tmp_path):
    with open_store(good, read_only=True) as s:
        settings = dict(s.con.execute(
            "SELECT name, value FROM duckdb_settings() WHERE name IN ('enable_external_access', "
            "'autoinstall_known_extensions', 'autoload_known_extensions', 'lock_configuration')").fetchall())
        assert settings == {"enable_external_access": "false", "autoinstall_known_extensions": "false",
                            "autoload_known_extensions": "false", "lock_configuration": "true"}
        with pytest.raises(duckdb.Error, match="disabled"):
            s.con.execute(f"SELECT * FROM read_text('{secret_file(tmp_path)}')").fetchall()
        with pytest.raises(duckdb.Error):
            s.con.execute("SET enable_external_access = true")
        with pytest.raises(duckdb.Error):  # no extension is installed or loaded, so nothing is downloaded
            s.con.execute("SELECT * FROM read_json('https://example.invalid/x.json')").fetchall()
    out = tmp_path / "export"
    out.mkdir()
    with open_store(good, read_only=True, export_to=out) as s:  # an export may write there, and only there
        with pytest.raises(duckdb.Error, match="disabled"):
            s.con.execute(f"COPY (SELECT 1) TO '{tmp_path / 'elsewhere.csv'}'")
        with pytest.raises(duckdb.Error, match="disabled"):
            s.con.execute(f"COPY (SELECT 1) TO '{out}/../elsewhere.csv'")
    assert not (tmp_path / "elsewhere.csv").exists()


def test_a_sqlite_file_is_named_and_never_handed_to_duckdb(tmp_path):
    import sqlite3

    f = tmp_path / "games.db"
    con = sqlite3.connect(f)
    con.execute("CREATE TABLE t (x)")
    con.commit()
    con.close()
    before = f.read_bytes()
    res = cli("db", "runs", "--db", f)
    assert res.exit_code == 2 and "an SQLite database, not a DuckDB database" in res.output
    assert f.read_bytes() == before


def test_a_database_with_optimizations_opens(tmp_path):
    """The optional table as mythos optimize writes it passes the checks (read and write)."""
    from mythos_cli.store import optimize as ostore

    path = tmp_path / "opt.duckdb"
    with open_store(path) as s:
        ostore.create(s, "o1", "o1", {"k": 1})
    for read_only in (True, False):
        with open_store(path, read_only=read_only) as s:
            assert ostore.get(s, "o1")["config"] == {"k": 1}


def test_issue_18_reads_say_a_damaged_file_as_every_read_does(good):
    """db runs' deck names (read.run_decks) and a report's losses meet a file that fails mid-read:
    a StoreError naming the damage, never a DuckDB traceback."""
    from mythos_cli.store import read

    class Failing:
        def execute(self, *a, **k):
            raise duckdb.IOException("Could not read enough bytes from file")

        sql = execute

        def close(self):
            pass

    with open_store(good, read_only=True) as s:
        real, s._con = s._con, Failing()
        try:
            for call in (lambda: read.run_decks(s), lambda: read.losses(s, kit.RUN, "Alpha", "Beta")):
                with pytest.raises(StoreError, match="truncated"):
                    call()
        finally:
            s._con = real
