"""Field files (``mythos_cli.experiment.field``): what they say, and every bad one refused with its line."""

from __future__ import annotations

from pathlib import Path

import pytest

from mythos_cli.decks import sample_paths
from mythos_cli.experiment.field import FieldError, build_field, load_field, read_field
from mythos_cli.sim.decks import load_specs

SAMPLES = {p.stem: p for p in sample_paths()}


def write(tmp_path: Path, text: str, name: str = "field.txt") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_percent_shares_names_comments_and_every_kind_of_list(tmp_path):
    lists = tmp_path / "lists"
    lists.mkdir()
    (lists / "sand.txt").write_text(SAMPLES["sand-village"].read_text(encoding="utf-8"), encoding="utf-8")
    from mythos_cli.decks import convert

    code = convert(str(SAMPLES["sound-four"]), "code").text.strip()
    f = read_field(write(tmp_path, f"""# expected at the regionals
30%   leaf-team7        Leaf Rush
25.5% lists/sand.txt    # a file beside the field file
   # an indented comment
24.5% {code}
20%   "{SAMPLES['hidden-ambush']}"   Hidden
"""))
    assert f.names == ["Leaf Rush", "Sand Village", "Sound Village: the Sound Four", "Hidden"]
    assert f.shares == pytest.approx([0.30, 0.255, 0.245, 0.20])
    assert f.lines == [2, 3, 5, 6] and f.counts is None and f.players is None
    specs = {s.hash for s in load_specs([str(SAMPLES[k]) for k in ("leaf-team7", "sand-village", "sound-four",
                                                                      "hidden-ambush")])}
    assert {d.hash for d in f.decks} == specs


def test_counts_of_players_are_shares_and_a_field_size(tmp_path):
    f = read_field(write(tmp_path, "12 leaf-team7\n6 sand-village\n0 sound-four  Mine\n"))
    assert f.counts == [12, 6, 0] and f.players == 18
    assert f.shares == pytest.approx([12 / 18, 6 / 18, 0])
    assert f.names[2] == "Mine"


def test_percents_written_to_one_decimal_may_add_up_to_99_9(tmp_path):
    f = read_field(write(tmp_path, "33.3% leaf-team7\n33.3% sand-village\n33.3% sound-four\n"))
    assert sum(f.shares) == pytest.approx(1.0)


def test_a_folder_of_lists_is_equal_shares(tmp_path):
    for k in ("leaf-team7", "sand-village", "sound-four"):
        (tmp_path / f"{k}.txt").write_text(SAMPLES[k].read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "notes.md").write_text("not a list", encoding="utf-8")
    f = load_field(str(tmp_path))
    assert len(f.decks) == 3 and f.shares == pytest.approx([1 / 3] * 3)


def test_the_same_list_twice_is_one_list_with_both_shares(tmp_path):
    f = read_field(write(tmp_path, f"50% leaf-team7\n20% {SAMPLES['leaf-team7']}  Again\n30% sand-village\n"))
    assert len(f.decks) == 2 and f.shares == pytest.approx([0.7, 0.3])
    assert "the same list as" in f.warnings[0] and ":2" in f.warnings[0]


def test_optimize_field_takes_a_field_file_and_the_string_form_still_works(tmp_path):
    path = write(tmp_path, "40% sand-village\n60% sound-four\n0% leaf-team7\n")
    decks, shares = build_field(path)
    assert [d.name for d in decks] == ["Sand Village", "Sound Village: the Sound Four"]  # no share: left out
    assert shares == pytest.approx([0.4, 0.6])
    decks2, shares2 = build_field("Sand Village=40,sound-four=60")
    assert [d.hash for d in decks2] == [d.hash for d in decks] and shares2 == pytest.approx(shares)


@pytest.mark.parametrize("text, says", [
    ("thirty leaf-team7\n", ["field.txt:1", "'thirty' is not a number"]),
    ("30 % leaf-team7\n", ["field.txt:1"]),
    ("-5% leaf-team7\n100% sand-village\n", ["field.txt:1", "'-5%'"]),
    ("2.5 leaf-team7\n3 sand-village\n", ["field.txt:1", "whole count"]),
    ("40% leaf-team7\n40% sand-village\n", ["add up to 80%", "not 100%", "lines 1, 2"]),
    ("140% leaf-team7\n", ["field.txt:1", "more than 100%"]),
    ("60% leaf-team7\n# x\n40% no-such-list.txt\n", ["field.txt:3", "no list 'no-such-list.txt'"]),
    ("", ["empty field file"]),
    ("# only a comment\n\n   \n", ["no list in the field file"]),
    ("50% leaf-team7\n5 sand-village\n", ["field.txt:2", "count of players", "line 1"]),
    ("50%\n", ["field.txt:1", "needs a share and a list"]),
    ("50% \"leaf-team7\n", ["field.txt:1", "quot"]),
    ("0 leaf-team7\n0 sand-village\n", ["every count of players is 0"]),
])
def test_bad_field_files_are_refused_with_their_line(tmp_path, text, says):
    with pytest.raises(FieldError) as exc:
        load_field(write(tmp_path, text))
    message = exc.value.message + " " + (exc.value.hint or "")
    for s in says:
        assert s in message, message
    assert exc.value.hint  # and how to fix it


def test_an_illegal_list_is_named_with_the_field_line_and_its_own_problems(tmp_path):
    (tmp_path / "bad.txt").write_text("2 KS-009-C\nmissions:\nKS-001-MMS\n", encoding="utf-8")
    with pytest.raises(FieldError) as exc:
        read_field(write(tmp_path, "50% leaf-team7\n50% bad.txt  Bad\n"))
    assert "field.txt:2" in exc.value.message and "not a legal Mythos deck" in exc.value.message
    assert any("bad.txt" in d and "30" in d for d in exc.value.details), exc.value.details
    assert "mythos validate" in exc.value.hint


def test_a_field_file_that_is_a_folder_without_lists_or_a_binary_file(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(FieldError, match="no deck lists"):
        read_field(str(empty))
    (tmp_path / "bin.txt").write_bytes(b"30% \x00\x01 leaf\n")
    with pytest.raises(FieldError, match="bin.txt"):
        read_field(str(tmp_path / "bin.txt"))
