"""`mythos validate` and `mythos deck …` as a user runs them: exit codes and messages."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from mythos_cli.cli import app
from mythos_cli.decks import sample_paths

from deckkit import LEGAL_CARDS, deck_text

runner = CliRunner()
SAMPLE = str(next(p for p in sample_paths() if p.stem == "leaf-team7"))


def run(*args, input=None):
    res = runner.invoke(app, [str(a) for a in args], input=input)
    assert "Traceback" not in res.output, res.output
    assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)
    return res


@pytest.fixture
def files(tmp_path):
    def make(name, content):
        path = tmp_path / name
        path.write_bytes(content if isinstance(content, bytes) else content.encode())
        return path
    return make


def test_validate_legal_deck():
    res = run("validate", SAMPLE)
    assert res.exit_code == 0
    assert "legal mythos deck" in res.stdout and "Leaf Village Team 7" in res.stdout and "30 cards, 3 missions" in res.stdout


def test_validate_every_sample():
    res = run("validate", *sample_paths())
    assert res.exit_code == 0 and f"{len(sample_paths())} of {len(sample_paths())} lists are legal" in res.stdout


def test_validate_illegal_deck_names_file_line_and_fix(files):
    path = files("bad.txt", deck_text(LEGAL_CARDS + ["1 KS-009-C"]))
    res = run("validate", path)
    assert res.exit_code == 1
    assert "not a legal mythos deck" in res.stdout
    assert f"{path}:2: error: 3 copies of KS-009" in res.stdout
    assert "fix: remove 1 copy" in res.stdout and "[too-many-copies]" in res.stdout


def test_validate_unknown_id_suggests(files):
    path = files("bad.txt", deck_text(LEGAL_CARDS[1:] + ["2 KS-009-R"]))
    res = run("validate", path)
    assert res.exit_code == 1 and "did you mean KS-009-C Naruto Uzumaki" in res.stdout


@pytest.mark.parametrize("content, code", [
    (b"", "empty"),
    (b"\x00\x01binary", "binary"),
    (b"2 KS-009 caf\xe9\n", "not-utf8"),
])
def test_validate_unreadable_files_exit_2(files, content, code):
    res = run("validate", files("x.txt", content))
    assert res.exit_code == 2 and f"[{code}]" in res.stdout and "unreadable" in res.stdout


def test_validate_missing_path_directory_and_huge_file(tmp_path):
    assert run("validate", tmp_path / "nope.txt").exit_code == 2
    assert "a directory" in run("validate", tmp_path).stdout
    big = tmp_path / "big.txt"
    with open(big, "wb") as fh:
        fh.truncate(50_000_000)
    res = run("validate", big)
    assert res.exit_code == 2 and "50.0 MB" in res.stdout


def test_several_files_one_verdict_each_and_the_worst_exit_code(files, tmp_path):
    good = SAMPLE
    bad = files("bad.txt", deck_text(missions=["KS-001-MMS"]))
    res = run("validate", good, bad)
    assert res.exit_code == 1
    assert res.stdout.count("✓") == 1 and res.stdout.count("✗") == 1 and "1 of 2 lists are legal" in res.stdout
    res = run("validate", good, bad, tmp_path / "missing.txt")
    assert res.exit_code == 2 and res.stdout.count("✗") == 2


def test_validate_json_output(files):
    bad = files("bad.json", json.dumps({"name": "J", "cards": [{"id": "KS-009", "qty": 3}], "missions": []}))
    res = run("validate", SAMPLE, bad, "--json")
    assert res.exit_code == 1
    good, worse = json.loads(res.stdout)
    assert good["valid"] and good["counts"] == {"deck": 30, "missions": 3} and good["format"] == "mythos"
    assert not worse["valid"] and worse["list_format"] == "json" and worse["errors"] >= 3
    copies = next(p for p in worse["problems"] if p["code"] == "too-many-copies")
    assert copies["line"] == 1 and copies["file"].endswith("bad.json") and copies["hint"]


def test_validate_a_deck_code_given_directly():
    code = run("deck", "convert", SAMPLE, "--to", "code").stdout.strip()
    assert code.endswith("|Leaf_Village_Team_7")
    res = run("validate", code)
    assert res.exit_code == 0 and "<deck code>: legal mythos deck" in res.stdout
    res = run("validate", "KS-009-C-2|KS-001--1|Deck")
    assert res.exit_code == 1 and "two dashes before the quantity: KS-009-C--2" in res.stdout


def test_validate_from_stdin():
    res = run("validate", "-", input=deck_text())
    assert res.exit_code == 0 and "<stdin>: legal" in res.stdout


def test_validate_other_formats(files):
    gencon = files("g.txt", "leader:\n1 Naruto [orange]\nchakra:\n5 Chakra\nsummon:\n1 Gamabunta\ndeck:\n"
                   + "".join(f"2 Card {i} [orange]\n" for i in range(25)))
    res = run("validate", gencon, "--format", "gencon-2027")
    assert res.exit_code == 0 and "legal gencon-2027 deck" in res.stdout and "50 cards, 1 leader, 5 chakra, 1 summon" in res.stdout
    res = run("validate", gencon, "--format", "mythos")
    assert res.exit_code == 1 and "validate with --format gencon-2027" in res.stdout
    res = run("validate", gencon, "--format", "naruto-ccg-2006")
    assert res.exit_code == 1 and "deck-size" in res.stdout


def test_validate_bad_usage_exits_2():
    assert run("validate").exit_code == 2
    res = run("validate", SAMPLE, "--format", "chess")
    assert res.exit_code == 2


def test_convert_round_trip_through_every_format(tmp_path):
    text = run("deck", "convert", SAMPLE, "--to", "text").stdout
    code = run("deck", "convert", SAMPLE, "--to", "code").stdout
    doc = run("deck", "convert", SAMPLE, "--to", "json").stdout
    assert json.loads(doc)["name"] == "Leaf Village Team 7"
    for fmt, content in (("text", text), ("code", code), ("json", doc)):
        path = tmp_path / f"deck.{fmt}"
        path.write_text(content)
        assert run("deck", "convert", path, "--to", "text").stdout.replace("archetype: leaf-team7\n", "") == \
            text.replace("archetype: leaf-team7\n", "")


def test_convert_to_a_file_and_its_failures(tmp_path, files):
    out = tmp_path / "out.json"
    res = run("deck", "convert", SAMPLE, "--to", "json", "--out", out)
    assert res.exit_code == 0 and json.loads(out.read_text())["missions"] == ["KS-001-MMS", "KS-002-MMS", "KS-009-MMS"]
    assert run("deck", "convert", SAMPLE, "--to", "json", "--out", tmp_path).exit_code == 2
    unknown = files("u.txt", "2 KS-999\n")
    res = run("deck", "convert", unknown, "--to", "code")
    assert res.exit_code == 1 and "unknown card KS-999" in res.stderr
    gencon = files("g.txt", "leader:\n1 Naruto [orange]\n")
    res = run("deck", "convert", gencon, "--to", "code")
    assert res.exit_code == 2 and "no sections" in res.stderr
    assert run("deck", "convert", tmp_path / "missing.txt", "--to", "text").exit_code == 2
    assert run("deck", "convert", SAMPLE, "--to", "yaml").exit_code == 2


def test_convert_to_code_notes_what_is_lost():
    res = run("deck", "convert", SAMPLE, "--to", "code")
    assert res.exit_code == 0 and "archetype" in res.stderr


def test_show_tables_and_json():
    res = run("deck", "show", SAMPLE)
    assert res.exit_code == 0
    for words in ("Cost curve", "Groups", "Keywords", "Team 7", "average cost", "average power", "Missions", "Protect the Leader"):
        assert words in res.stdout
    data = json.loads(run("deck", "show", SAMPLE, "--json").stdout)
    stats = data["stats"]
    assert stats["cards"] == 30 and sum(stats["curve"].values()) == 30
    assert stats["groups"] == {"Leaf Village": 29, "Independent": 1}
    assert 1 <= stats["average_cost"] <= 8 and len(stats["missions"]) == 3


def test_show_bad_inputs(files, tmp_path):
    assert run("deck", "show", tmp_path / "missing.txt").exit_code == 2
    res = run("deck", "show", files("u.txt", "2 KS-999\n"))
    assert res.exit_code == 1 and "unknown card" in res.stdout
    short = run("deck", "show", files("s.txt", "2 KS-009\n"))
    assert short.exit_code == 0 and "not a legal mythos deck" in short.stdout


def test_show_other_formats(files):
    res = run("deck", "show", files("g.txt", "leader:\n1 Naruto [orange]\ndeck:\n3 Thing [orange/blue]\n"))
    assert res.exit_code == 0 and "Sections" in res.stdout and "Colours" in res.stdout


@pytest.mark.parametrize("cmd", [["validate"], ["deck", "convert"], ["deck", "show"]])
def test_help_has_an_example(cmd):
    res = run(*cmd, "--help")
    assert res.exit_code == 0 and "Example" in res.stdout


def test_empty_argument_and_damaged_catalog(monkeypatch):
    res = run("validate", "")
    assert res.exit_code == 2 and "no file name given" in res.stdout
    import mythos_cli.catalog as catalog_module
    from mythos_cli.catalog import CatalogError

    def damaged():
        raise CatalogError("KS.toml:3: not valid TOML")

    monkeypatch.setattr(catalog_module, "default_catalog", damaged)
    res = run("validate", "-", input=deck_text())
    assert res.exit_code == 2 and "reinstall mythos" in res.stderr


def test_an_ascii_terminal_gets_replacement_characters_not_a_traceback():
    import os
    import subprocess
    import sys

    env = dict(os.environ, PYTHONIOENCODING="ascii")
    proc = subprocess.run([sys.executable, "-m", "mythos_cli", "validate", SAMPLE], capture_output=True, text=True,
                          env=env, errors="replace")
    assert proc.returncode == 0 and "Traceback" not in proc.stderr and "legal mythos deck" in proc.stdout
