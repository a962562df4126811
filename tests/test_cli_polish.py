"""The CLI as uv or ruff would have it (issue 18, item 6), and the Ctrl-C count (item 1)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import typer
import typer.core
from typer.testing import CliRunner

from mythos_cli.cli import app
from mythos_cli.sim import Interrupted, RunConfig, execute, load_specs, start_run
from mythos_cli.sim.decks import default_gauntlet
from mythos_cli.store import open_store

runner = CliRunner()
DECKS = {Path(p).stem: p for p in default_gauntlet()}


def invoke(*args, **kw):
    return runner.invoke(app, [str(a) for a in args], **kw)


def commands(group: typer.core.TyperGroup, prefix=()):
    for name, cmd in group.commands.items():
        if isinstance(cmd, typer.core.TyperGroup):  # (typer 0.29 brings its own click)
            yield from commands(cmd, prefix + (name,))
        else:
            yield prefix + (name,), cmd


CLICK = typer.main.get_command(app)


@pytest.mark.parametrize("path", [p for p, _ in commands(CLICK)], ids=" ".join)
def test_help_shows_flags_bare(path):
    res = invoke(*path, "--help", env={"COLUMNS": "120"})
    assert res.exit_code == 0, res.output
    assert "<bool>" not in res.output  # a flag takes no value: `--json true` must not look right


# what the catalog and scenario commands never need: the players and the simulation stack
UNNEEDED = ("mythos_cli.policies", "mythos_cli.sim", "mythos_cli.store", "mythos_cli.reports")
REPO = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("args", [
    ["validate", "data/decks/leaf-team7.txt"],
    ["scenario", "run", "tests/scenarios/rules/upgrade_rules.toml"],
    ["cards", "show", "KS-001"],
    ["cards", "coverage"],
], ids=" ".join)
def test_catalog_and_scenario_commands_load_only_what_they_use(args):
    """A command imports what it uses only: the catalog and scenario commands run on the rules core
    and never load the players, the simulation, the store or the reports."""
    code = ("import json, sys\nfrom mythos_cli.cli import main\nsys.argv = ['mythos', *json.loads(sys.argv[1])]\n"
            "try:\n    main()\nexcept SystemExit as e:\n    code = e.code\nelse:\n    code = 0\n"
            "print(json.dumps([code, sorted(m for m in sys.modules if m.startswith('mythos_cli'))]))")
    proc = subprocess.run([sys.executable, "-c", code, json.dumps(args)], cwd=REPO, capture_output=True, text=True)
    code, loaded = json.loads(proc.stdout.splitlines()[-1])
    assert code in (0, None), proc.stderr
    assert "mythos_cli._core" in loaded and "mythos_cli.catalog.loader" in loaded
    assert not [m for m in loaded if m.startswith(UNNEEDED)], loaded


def test_an_install_without_the_core_says_so():
    code = ("import sys\nsys.modules['mythos_cli._core'] = None  # (as if the core were not built)\n"
            "from mythos_cli.cli import main\nsys.argv = ['mythos', 'cards', 'show', 'KS-001']\nmain()")
    proc = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert "the rules core (mythos_cli._core) is not built" in proc.stderr and "maturin develop" in proc.stderr


def test_policy_and_mulligan_help_list_their_choices():
    from mythos_cli.policies import MULLIGANS, POLICY_NAMES

    for cmd in ("simulate", "replay"):
        text = " ".join(invoke(cmd, "--help", env={"COLUMNS": "200"}).output.split())
        assert ", ".join(POLICY_NAMES) in text and ", ".join(MULLIGANS) in text, cmd


def test_one_exit_code_convention(tmp_path):
    db = tmp_path / "x.duckdb"
    missing = tmp_path / "nope.txt"
    bad = tmp_path / "bad.txt"
    bad.write_text("2 KS-009\nmissions:\nKS-001-MMS\n", encoding="utf-8")
    assert invoke("simulate", missing, "--db", db).exit_code == 2  # cannot read: bad input, as in validate
    assert invoke("validate", missing).exit_code == 2
    assert invoke("simulate", bad, "--db", db).exit_code == 1  # read, and not a legal deck: as in validate
    assert invoke("validate", bad).exit_code == 1
    assert invoke("simulate", DECKS["leaf-team7"], "--vs", DECKS["sand-village"], "--games", 2, "--db", db,
                  "--run-name", "r", "--workers", 1, "--quiet").exit_code == 0
    for cmd in (("db", "show", "nope"), ("report", "winrate", "--run", "nope"), ("replay", "nope", 1),
                ("db", "export", "nope", "--out", tmp_path / "e"), ("db", "delete", "nope", "--yes")):
        res = invoke(*cmd, "--db", db)
        assert res.exit_code == 2, (cmd, res.output)
    assert invoke("cards", "show", "no such card at all").exit_code == 2


def test_quiet_and_the_same_workers_default(tmp_path):
    res = invoke("simulate", DECKS["leaf-team7"], "--vs", DECKS["sand-village"], "--games", 2, "--db",
                 tmp_path / "q.duckdb", "--workers", 1, "--quiet")
    assert res.exit_code == 0 and res.stderr == ""
    defaults = {}
    for name in ("simulate", "ladder"):
        opt = next(p for p in CLICK.commands[name].params if p.name == "workers")
        defaults[name] = opt.default
    assert defaults == {"simulate": 0, "ladder": 0}  # 0: all cores, in both


def test_round_robin_plays_each_pair_once(tmp_path):
    db = tmp_path / "rr.duckdb"
    three = [DECKS["leaf-team7"], DECKS["sand-village"], DECKS["hidden-ambush"]]
    res = invoke("simulate", "--round-robin", *three, "--games", 2, "--db", db, "--workers", 1, "--json", "--quiet")
    assert res.exit_code == 0, res.output
    assert len(json.loads(res.stdout)["matchups"]) == 3
    assert invoke("simulate", "--round-robin", *three, "--vs", three[0], "--db", db).exit_code == 2
    assert invoke("simulate", "--round-robin", *three, "--policy-a", "random", "--db", db).exit_code == 2


def test_db_runs_shows_whole_ids_and_decks_at_80_columns(tmp_path):
    db = tmp_path / "w.duckdb"
    name = "run-20261201-101500-123-long"
    assert invoke("simulate", DECKS["sound-four"], "--vs", DECKS["ss-attachments"], "--games", 2, "--db", db,
                  "--run-name", name, "--workers", 1, "--quiet").exit_code == 0
    res = invoke("db", "runs", "--db", db, env={"COLUMNS": "80"})
    assert res.exit_code == 0
    assert name in res.stdout and all(len(line) <= 80 for line in res.stdout.splitlines())
    flat = " ".join(res.stdout.split())
    assert "Team Guy" in flat and "2/2" in flat


def test_deck_show_lists_the_cards():
    res = invoke("deck", "show", DECKS["sand-village"], env={"COLUMNS": "120"})
    assert res.exit_code == 0 and "Cards" in res.stdout and "KS-084" in res.stdout and "Yashamaru" in res.stdout
    data = json.loads(invoke("deck", "show", DECKS["sand-village"], "--json").stdout)
    assert sum(c["qty"] for c in data["cards"] if c["section"] != "missions") == 30


def test_scenario_summary_only():
    res = invoke("scenario", "run", Path(__file__).parent / "scenarios" / "rules", "--summary")
    assert res.exit_code == 0 and "Scenarios by folder" in res.stdout
    assert "expectation(s)" not in res.stdout  # no line per scenario


def test_wide_matrix_fits_100_columns(tmp_path):
    db = tmp_path / "six.duckdb"
    assert invoke("simulate", "--games", 2, "--policy", "random", "--db", db, "--workers", 2, "--quiet").exit_code == 0
    res = invoke("report", "winrate", "--db", db, "--out", tmp_path, env={"COLUMNS": "100"})
    assert res.exit_code == 0
    matrix = res.stdout.split("Win rate against the field")[0]
    assert all(len(line) <= 100 for line in matrix.splitlines())
    assert "…" not in matrix and "Sound Village: the Sound" in matrix


def test_dask_backend_without_the_cluster_extra(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed now fails
    db = tmp_path / "d.duckdb"
    res = invoke("simulate", DECKS["leaf-team7"], "--games", 2, "--backend", "dask", "--scheduler", "tcp://x:1",
                 "--db", db)
    assert res.exit_code == 2 and 'pip install "mythos[cluster]"' in res.stderr
    assert not db.exists()  # refused before anything was created


def test_ctrl_c_reports_the_games_actually_stored(tmp_path):
    specs = load_specs(default_gauntlet()[:2])
    cfg = RunConfig(decks=specs, opponents=[1], studied=[0], games=40, policy_a="random", policy_b="random",
                    mulligan=None, seed=2, batch_size=4)
    calls = [0]

    def progress(n):
        calls[0] += 1
        if calls[0] == 3:
            raise KeyboardInterrupt

    with open_store(tmp_path / "c.duckdb") as s:
        start_run(s, cfg, "c", "c")
        with pytest.raises(Interrupted) as info:
            execute(s, "c", cfg, workers=2, progress=progress)
        stored = s.table("games", "c").height
    assert stored >= 8 and info.value.stored == stored and info.value.planned == 40


def test_cards_list_at_80_columns_cuts_no_header_and_no_short_word():
    for args in ((), ("--set", "SS", "--type", "attachment"), ("--set", "KS", "--group", "leaf")):
        res = invoke("cards", "list", *args, env={"COLUMNS": "80"})
        assert res.exit_code == 0
        lines = res.stdout.splitlines()
        assert all(len(line) <= 80 for line in lines)
        head = " ".join(lines[:4])
        assert "power" in head and "keywords" in head and "pow" not in head.replace("power", "")
        words = set(res.stdout.replace(",", " ").split())
        if "attachment" in args:
            assert "Independent" in words  # once "Independen" / "t"
        if not args:  # words of up to 11 letters are never cut (a few longer ones are, at 80 columns)
            assert {"Orochimaru", "Infiltrator", "Conspirator", "Specialist", "Independent"} <= words


def test_a_bogus_mulligan_rule_gets_a_mulligan_hint_and_never_is_documented():
    res = invoke("simulate", "--mulligan", "bogus", "--games", 1)
    assert res.exit_code == 2 and "keep, never, heuristic, always" in res.output
    assert "--mulligan" in res.output.split("hint:")[-1] and "--policy" not in res.output.split("hint:")[-1]
    text = " ".join(invoke("simulate", "--help", env={"COLUMNS": "200"}).output.replace("│", " ").split())
    assert "never: the same as keep" in text


def test_winrate_of_a_one_deck_run_has_no_row_per_unrated_opponent(tmp_path):
    db = tmp_path / "one.duckdb"
    assert invoke("simulate", DECKS["leaf-team7"], "--vs", DECKS["sand-village"], "--vs", DECKS["hidden-ambush"],
                  "--games", 2, "--policy", "random", "--db", db, "--workers", 1, "--quiet").exit_code == 0
    res = invoke("report", "winrate", "--db", db, "--out", tmp_path, env={"COLUMNS": "80"})
    assert res.exit_code == 0
    table = res.stdout.split("Win rate against the field")[1].split("•")[0]
    assert "never played" not in table and "Sand Village" not in table and "Leaf Village Team 7" in table
    assert "Not rated against the field: " in " ".join(res.stdout.split())
    assert all(len(line) <= 80 for line in res.stdout.splitlines())


def test_vs_takes_one_deck_and_a_second_word_is_refused(tmp_path):
    """`--vs A B` made B a studied deck without a word (issue 30, point 7): it is refused before
    any database is made; the option repeated plays both opponents."""
    decks = Path(__file__).resolve().parents[1] / "data" / "decks"
    db = tmp_path / "x.duckdb"
    r = invoke("simulate", decks / "leaf-team7.txt", "--vs", decks / "sand-village.txt", decks / "hidden-ambush.txt",
               "--games", 2, "--policy", "greedy", "--db", db, "--quiet")
    assert r.exit_code == 2, r.output
    assert "--vs takes one opponent deck" in r.output and "repeat the option" in r.output
    assert not db.exists()
    r = invoke("simulate", decks / "leaf-team7.txt", "--vs=" + str(decks / "sand-village.txt"),
               decks / "hidden-ambush.txt", "--games", 2, "--policy", "greedy", "--db", db, "--quiet")
    assert r.exit_code == 2 and not db.exists(), r.output
    r = invoke("simulate", decks / "leaf-team7.txt", "--vs", decks / "sand-village.txt", "--vs",
               decks / "hidden-ambush.txt", "--games", 2, "--policy", "greedy", "--db", db, "--quiet", "--json")
    assert r.exit_code == 0, r.output
    assert "Hidden Ambush" in r.output and "Sand Village" in r.output
