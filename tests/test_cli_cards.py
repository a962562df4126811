"""`mythos cards …` as a user runs it."""

from __future__ import annotations

import json
import subprocess
import sys

from typer.testing import CliRunner

from mythos_cli.cli import app

runner = CliRunner()


def run(*args):
    return runner.invoke(app, list(args))


def test_list_json_has_every_card():
    res = run("cards", "list", "--json")
    assert res.exit_code == 0
    cards = json.loads(res.stdout)
    assert len(cards) == len({c["id"] for c in cards}) == 318
    types = {t: sum(c["type"] == t for c in cards) for t in ("character", "attachment", "mission")}
    assert types == {"character": 266, "attachment": 32, "mission": 20}


def test_list_filters():
    res = run("cards", "list", "--set", "KS", "--type", "mission", "--json")
    assert len(json.loads(res.stdout)) == 10
    res = run("cards", "list", "--keyword", "Summon", "--json")
    assert all("Summon" in c["keywords"] for c in json.loads(res.stdout))
    assert run("cards", "list", "--set", "XX").exit_code == 2


def test_show_printing():
    res = run("cards", "show", "KS-108-RA")
    assert res.exit_code == 0
    assert "Naruto Uzumaki" in res.stdout and "KS-108" in res.stdout and "KS-108-RA" in res.stdout


def test_show_json():
    res = run("cards", "show", "KS-001", "--json")
    data = json.loads(res.stdout)
    assert data["name"] == "Hiruzen Sarutobi" and data["cost"] == 3


def test_show_ambiguous_name_lists_candidates():
    res = run("cards", "show", "kakashi")
    assert res.exit_code == 0
    assert res.stdout.count("Kakashi Hatake") >= 5


def test_show_unknown_suggests_and_fails():
    res = run("cards", "show", "narutoo uzumakii xx")
    assert res.exit_code == 2  # an unknown name is bad input, as an unknown run or deck
    res = run("cards", "show", "KS-108-C")
    assert res.exit_code == 2
    assert "KS-108" in res.stderr and "did you mean" in res.stderr
    assert "Traceback" not in res.output


def test_coverage_is_honest():
    res = run("cards", "coverage", "--json")
    rows = json.loads(res.stdout)
    assert {r["set"] for r in rows} == {"KS", "SS"}
    assert sum(r["lines"] for r in rows) > 400
    for r in rows:
        assert 0 <= r["executable"] <= r["encoded"] <= r["lines"]


def test_version_and_help():
    assert "mythos" in run("--version").stdout
    for cmd in (["cards", "list"], ["cards", "show"], ["cards", "coverage"]):
        res = run(*cmd, "--help")
        assert res.exit_code == 0 and "Example" in res.stdout


def test_module_entry_point():
    proc = subprocess.run([sys.executable, "-m", "mythos_cli", "--version"], capture_output=True, text=True)
    assert proc.returncode == 0 and proc.stdout.startswith("mythos ")
