"""A received database runs no code (issue 30, point 1).

The player spec stored with a run (``FILE.py:CLASS``, ``package.module:CLASS``) is data: only
built-in players are rebuilt from it. A Python player is imported only when the user names its
file again on the command line (``--policy FILE.py:CLASS``), and the command says so.

Each hostile database here stores, as a run's player (and an optimization's), a spec whose file
or module writes a marker file the moment it is imported. Every command that reads runs is run
against it: the marker must never appear, and no module of that name may be imported.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from mythos_cli.cli import app
from mythos_cli.decks import sample_paths

REPO = Path(__file__).resolve().parents[1]
RUN = "h"
SAMPLES = {p.stem: str(p) for p in sample_paths()}
LEAF, SAND = SAMPLES["leaf-team7"], SAMPLES["sand-village"]
TRACEBACKS = ("Traceback (most recent call last)", "panicked at")

# A file that leaves a marker when it is imported, and would also play if it were trusted.
EVIL = """
import pathlib
pathlib.Path({marker!r}).write_text("imported")


class Evil:
    def reset(self, seed):
        pass

    def decide(self, obs):
        return obs.legal[0]
"""
# A harmless player of the user's own, to resume and replay a run it played.
FIRST = """
class First:
    name = "first"

    def reset(self, seed):
        pass

    def decide(self, obs):
        return obs.legal[0]
"""


def _words(output: str) -> str:
    return " ".join(re.sub(r"[\u2500-\u257f]", " ", output).split()).lower()


def _mythos(args, cwd: Path, site: Path | None = None) -> tuple[int, str]:
    """The command in this process (fast), from ``cwd``, with ``site`` importable when given."""
    old_cwd, old_path = Path.cwd(), list(sys.path)
    os.chdir(cwd)
    if site is not None:
        sys.path.insert(0, str(site))
    try:
        res = CliRunner().invoke(app, [str(a) for a in args])
    finally:
        os.chdir(old_cwd)
        sys.path[:] = old_path
    assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)
    return res.exit_code, res.output


@pytest.fixture(scope="module")
def base_db(tmp_path_factory) -> Path:
    """A real run of 4 greedy games in batches of 2 (the hostile copies drop the second)."""
    d = tmp_path_factory.mktemp("hostile")
    db = d / "base.duckdb"
    res = CliRunner().invoke(app, ["simulate", LEAF, "--vs", SAND, "--games", "4", "--batch-size", "2",
                                   "--policy", "greedy", "--run-name", RUN, "--workers", "1", "--db", str(db),
                                   "--quiet"])
    assert res.exit_code == 0, res.output
    return db


def craft(base: Path, dest: Path, spec: str, *, side: str = "a") -> Path:
    """A copy of ``base`` whose run ``h`` (interrupted, one batch missing) and an optimization
    ``o`` store ``spec`` as their player; the config also claims the spec was named on the command
    line (``python_players``), which a received file must not be able to say."""
    shutil.copy(base, dest)
    con = duckdb.connect(str(dest))
    try:
        cfg = json.loads(con.execute("SELECT config FROM runs WHERE run_id = ?", [RUN]).fetchone()[0])
        cfg[f"policy_{side}"] = spec
        cfg["python_players"] = {spec: spec}
        con.execute(f"UPDATE runs SET config = ?, policy_{side} = ?, status = 'interrupted' WHERE run_id = ?",
                    [json.dumps(cfg), spec, RUN])
        con.execute("UPDATE run_setups SET policy_0 = ?, policy_1 = ? WHERE run_id = ?", [spec, spec, RUN])
        con.execute("DELETE FROM game_data WHERE run_id = ? AND batch_no = 1", [RUN])
        con.execute("DELETE FROM batches WHERE run_id = ? AND batch_no = 1", [RUN])
        from mythos_cli.optimize import OptimizeConfig, build_field, build_pool
        from mythos_cli.sim.decks import load_specs
        from mythos_cli.store.optimize import DDL

        field_decks, shares = build_field(f"{SAND}=1", None)
        opt = OptimizeConfig(load_specs([LEAF])[0], field_decks, shares, build_pool(["KS"]), budget=2000,
                             policy=spec, seed=1).to_json()
        con.execute(DDL)
        con.execute("INSERT INTO optimizations VALUES ('o', 'o', ?, 'interrupted', NULL, now(), NULL)",
                    [json.dumps(opt)])
    finally:
        con.close()
    return dest


# every command that reads runs, and what it must answer on a hostile database
COMMANDS = [
    ("db-runs", ["db", "runs"], 0, None),
    ("db-runs-json", ["db", "runs", "--json"], 0, None),
    ("db-show", ["db", "show", RUN], 0, None),
    ("db-export", ["db", "export", RUN, "--out", "exported"], 0, None),
    ("report-winrate", ["report", "winrate", "--run", RUN, "--out", "rep"], 0, None),
    ("report-mulligan", ["report", "mulligan", "--run", RUN, "--out", "rep"], 0, None),
    ("report-curve", ["report", "curve", "--run", RUN, "--out", "rep"], 0, None),
    ("report-cards", ["report", "cards", "--run", RUN, "--out", "rep"], 0, None),
    ("report-prep", ["report", "prep", "Leaf", "--run", RUN, "--out", "rep"], 0, None),
    ("report-prep-check", ["report", "prep", "Leaf", "--run", RUN, "--out", "rep", "--check-policy", "greedy",
                           "--check-games", "2", "--workers", "1"], 0, None),
    ("report-winrate-check", ["report", "winrate", "--run", RUN, "--out", "rep", "--check-policy", "greedy",
                              "--check-games", "2", "--workers", "1"], 0, None),
    ("report-compare", ["report", "compare", "Leaf", "Sand", "--run", RUN, "--out", "rep"], 2, "no opponent in common"),
    ("replay", ["replay", RUN, "0"], 2, "never imported"),
    ("replay-json", ["replay", RUN, "1", "--json"], 2, "never imported"),
    ("simulate-resume", ["simulate", "--resume", RUN, "--workers", "1"], 2, "never imported"),
    ("optimize-resume", ["optimize", "--resume", "o", "--workers", "1", "--out", "rep"], 2, "never imported"),
    ("db-delete", ["db", "delete", RUN, "--yes"], 0, None),
]
# every command with the spec of the issue (a file beside the database, relative to the current
# folder); the commands that rebuild a run's players with every kind of spec
REBUILDERS = ("report-mulligan", "report-prep", "replay", "simulate-resume", "optimize-resume")
MATRIX = [(c, "relative") for c in COMMANDS] + [(c, kind) for kind in ("absolute", "module", "module-main")
                                                 for c in COMMANDS if c[0] in REBUILDERS]


def _spec(kind: str, folder: Path, marker: Path) -> tuple[str, Path | None]:
    """The stored spec of each kind, with the files that would run if it were imported, and the
    folder that makes its module importable (a package name of its own: nothing cached)."""
    evil = EVIL.format(marker=str(marker))
    if kind == "absolute":
        elsewhere = folder / "elsewhere"
        elsewhere.mkdir()
        (elsewhere / "evil.py").write_text(evil)
        return f"{elsewhere / 'evil.py'}:Evil", None
    if kind == "relative":  # resolved against the current folder when imported
        (folder / "evil.py").write_text(evil)
        return "evil.py:Evil", None
    name = "evil_" + folder.name.replace("-", "_").replace(".", "_")
    pkg = folder / "site" / name
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    if kind == "module":
        (pkg / "mod.py").write_text(evil)
        spec = f"{name}.mod:Evil"
    else:  # an installed module whose import has effects (the unittest.__main__)
        (pkg / "__main__.py").write_text(evil)
        spec = f"{name}.__main__:Evil"
    return spec, folder / "site"


@pytest.mark.parametrize("command,kind", MATRIX, ids=[f"{c[0]}-{k}" for c, k in MATRIX])
def test_a_received_database_runs_no_code(command, kind, base_db, tmp_path):
    name, args, code, says = command
    marker = tmp_path / "MARKER"
    spec, site = _spec(kind, tmp_path, marker)
    db = craft(base_db, tmp_path / "received.duckdb", spec)
    before = set(sys.modules)
    got, output = _mythos([*args, "--db", db], tmp_path, site)
    assert not [m for m in set(sys.modules) - before if m.startswith(("evil", "mythos_player_"))]
    text = _words(output)
    assert not marker.exists(), f"{name}: the stored player {spec} was imported\n{output}"
    for mark in TRACEBACKS:
        assert mark.lower() not in text, output
    assert got == code, output
    if says:
        assert says in text, output
    if says == "never imported":
        assert "--policy" in text, output  # how to trust it: name the file again


def test_the_refusal_names_the_stored_player_and_the_way_to_trust_it(base_db, tmp_path):
    spec, _ = _spec("relative", tmp_path, tmp_path / "MARKER")
    db = craft(base_db, tmp_path / "r.duckdb", spec)
    code, output = _mythos(["simulate", "--resume", RUN, "--db", db], tmp_path)
    text = _words(output)
    assert code == 2 and not (tmp_path / "MARKER").exists(), output
    assert "evil.py:evil" in text and "written in python" in text and "--policy-a" in text, output
    # nothing was written: the run is as it was received
    con = duckdb.connect(str(db), read_only=True)
    assert con.execute("SELECT status FROM runs WHERE run_id = ?", [RUN]).fetchone()[0] == "interrupted"
    con.close()


def test_a_stored_spec_never_reaches_the_importer(base_db, tmp_path, monkeypatch):
    """In-process, below the command line: rebuilding a stored run's players imports nothing."""
    import importlib

    from mythos_cli.sim import load_config
    from mythos_cli.sim.game import game_setup
    from mythos_cli.policies import PolicySpecError
    from mythos_cli.store import open_store

    spec, _ = _spec("relative", tmp_path, tmp_path / "MARKER")
    db = craft(base_db, tmp_path / "r.duckdb", spec)
    monkeypatch.chdir(tmp_path)
    calls = []
    real = importlib.import_module
    monkeypatch.setattr(importlib, "import_module", lambda n, *a: calls.append(n) or real(n, *a))
    with open_store(db, read_only=True, create=False) as store:
        config = load_config(store, RUN)
    assert config.python_players == {}  # what the file claims was named is not read
    with pytest.raises(PolicySpecError, match="never imported"):
        game_setup(config, config.job(0))
    assert not (tmp_path / "MARKER").exists() and not [c for c in calls if "evil" in c]


# -- trusting a run's Python player: name its file again ----------------------------------------
@pytest.fixture(scope="module")
def python_run(tmp_path_factory) -> tuple[Path, Path]:
    """A run played by a Python player, interrupted after its first batch of 2 games."""
    d = tmp_path_factory.mktemp("python-run")
    (d / "first.py").write_text(FIRST)
    db = d / "p.duckdb"
    old = Path.cwd()
    os.chdir(d)
    try:
        res = CliRunner().invoke(app, ["simulate", LEAF, "--vs", SAND, "--games", "4", "--batch-size", "2",
                                       "--policy-a", "first.py:First", "--policy-b", "greedy", "--run-name", RUN,
                                       "--workers", "1", "--db", str(db), "--quiet"])
    finally:
        os.chdir(old)
    assert res.exit_code == 0, res.output
    con = duckdb.connect(str(db))
    con.execute("DELETE FROM game_data WHERE run_id = ? AND batch_no = 1", [RUN])
    con.execute("DELETE FROM batches WHERE run_id = ? AND batch_no = 1", [RUN])
    con.execute("UPDATE runs SET status = 'interrupted' WHERE run_id = ?", [RUN])
    con.close()
    return d, db


def _copy(python_run, tmp_path) -> Path:
    d, db = python_run
    shutil.copy(d / "first.py", tmp_path / "first.py")
    return Path(shutil.copy(db, tmp_path / "p.duckdb"))


def test_resume_of_a_python_run_needs_its_file_named_again(python_run, tmp_path):
    db = _copy(python_run, tmp_path)
    code, output = _mythos(["simulate", "--resume", RUN, "--db", db, "--workers", "1"], tmp_path)
    text = _words(output)
    assert code == 2 and "first.py:first" in text and "never imported" in text, output
    assert "mythos simulate --resume h" in text and "--policy-a first.py:first" in text, output
    code, output = _mythos(["simulate", "--resume", RUN, "--db", db, "--workers", "1", "--policy-a",
                            "first.py:First"], tmp_path)
    text = _words(output)
    assert code == 0, output
    assert "first.py:first" in text and "named on the command line" in text, output
    con = duckdb.connect(str(db), read_only=True)
    assert con.execute("SELECT count(*) FROM game_data WHERE run_id = ?", [RUN]).fetchone()[0] == 4
    assert con.execute("SELECT status FROM runs WHERE run_id = ?", [RUN]).fetchone()[0] == "finished"
    con.close()


@pytest.mark.parametrize("args,says", [
    (["--policy", "greedy"], "a built-in player cannot stand in"),
    (["--policy-b", "first.py:First"], "greedy, a built-in player"),
    (["--policy-a", "nowhere.py:First"], "no such file"),
])
def test_resume_refuses_a_wrong_stand_in(python_run, tmp_path, args, says):
    db = _copy(python_run, tmp_path)
    code, output = _mythos(["simulate", "--resume", RUN, "--db", db, "--workers", "1", *args], tmp_path)
    assert code == 2 and says in _words(output), output


def test_resume_of_a_builtin_run_still_refuses_a_policy(base_db, tmp_path):
    db = Path(shutil.copy(base_db, tmp_path / "b.duckdb"))
    code, output = _mythos(["simulate", "--resume", RUN, "--db", db, "--policy", "random"], tmp_path)
    assert code == 2 and "--policy would be ignored" in _words(output), output


def test_replay_of_a_python_run_with_its_file_named(python_run, tmp_path):
    db = _copy(python_run, tmp_path)
    code, output = _mythos(["replay", RUN, "0", "--db", db], tmp_path)
    assert code == 2 and "never imported" in _words(output) and "--policy first.py:first" in _words(output), output
    code, output = _mythos(["replay", RUN, "0", "--db", db, "--policy", "first.py:First"], tmp_path)
    text = _words(output)
    assert code == 0 and "the same game as stored" in text and "named on the command line" in text, output


def test_replay_of_a_builtin_run_refuses_a_policy(base_db, tmp_path):
    code, output = _mythos(["replay", RUN, "0", "--db", base_db, "--policy", "random"], tmp_path)
    assert code == 2 and "--policy" in _words(output) and "built in" in _words(output), output


def test_the_mulligan_report_names_a_builtin_rule_without_importing(base_db, tmp_path):
    """``report mulligan`` names each player's rule from the spec (it used to import the player,
    and then lost the name of a built-in one: "unknown")."""
    code, output = _mythos(["report", "mulligan", "--run", RUN, "--db", base_db, "--out", tmp_path, "--json"],
                           tmp_path)
    assert code == 0, output
    data = json.loads(output[output.index("{"):])
    rules = {p: v["mulligan_rule"] for d in data["decks"] for p, v in d["policies"].items()}
    assert rules and set(rules.values()) == {"heuristic"}, rules
