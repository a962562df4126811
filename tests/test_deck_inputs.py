"""Bad input never raises and is never valid: files, bytes, encodings, sizes."""

from __future__ import annotations

import io
import os
import time

import pytest

from mythos_cli.decks import MAX_BYTES, check_input, check_path, check_stream
from mythos_cli.decks import source as source_module

from deckkit import deck_text, everything_runs


def verdict_of(tmp_path, data: bytes, name="deck.txt"):
    path = tmp_path / name
    path.write_bytes(data)
    return check_path(path, executable=everything_runs)


@pytest.mark.parametrize("data, code", [
    (b"", "empty"),
    (b"  \n\t\r\n", "empty"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary"),
    (b"PK\x03\x04\x14\x00\x00\x00", "binary"),
    (b"2 KS-009\n\x01\x02\x03", "binary"),
    (b"name: caf\xe9\n2 KS-009\n", "not-utf8"),
    (b"\xff\xfe2\x00 \x00K\x00S\x00\xd8", "not-text"),
])
def test_unreadable_bytes(tmp_path, data, code):
    v = verdict_of(tmp_path, data)
    assert not v.readable and not v.valid and v.exit_code == 2
    (p,) = v.problems
    assert p.code == code and p.file.endswith("deck.txt") and p.hint


def test_not_utf8_names_line_and_column(tmp_path):
    p = verdict_of(tmp_path, b"name: x\n2 KS-009 Naruto \xe9\n").problems[0]
    assert p.lines == (2,) and "line 2, column 17" in p.message and "UTF-8" in p.hint


def test_bom_and_crlf_are_fine(tmp_path):
    data = b"\xef\xbb\xbf" + deck_text().replace("\n", "\r\n").encode()
    v = verdict_of(tmp_path, data)
    assert v.valid and v.deck.name == "Test Deck"


def test_utf16_with_bom_is_read(tmp_path):
    v = verdict_of(tmp_path, deck_text().encode("utf-16"))
    assert v.valid


def test_missing_path_and_directory(tmp_path):
    v = check_path(tmp_path / "nope.txt")
    assert v.exit_code == 2 and v.problems[0].code == "missing" and "no such file" in v.problems[0].message
    v = check_path(tmp_path / "nope.txt" / "deeper.txt")
    assert v.exit_code == 2 and v.problems[0].code == "missing"
    v = check_path(tmp_path)
    assert v.exit_code == 2 and v.problems[0].code == "directory" and "*.txt" in v.problems[0].hint


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads anything")
def test_unreadable_permissions(tmp_path):
    path = tmp_path / "secret.txt"
    path.write_text(deck_text())
    path.chmod(0)
    try:
        v = check_path(path)
        assert v.exit_code == 2 and v.problems[0].code == "unreadable"
    finally:
        path.chmod(0o600)


def test_a_50_mb_file_is_refused_by_size_without_reading_it(tmp_path, monkeypatch):
    big = tmp_path / "big.txt"
    with open(big, "wb") as fh:
        fh.truncate(50 * 1024 * 1024)

    def no_open(*args, **kwargs):
        raise AssertionError("the file was opened")

    monkeypatch.setattr(source_module, "open", no_open, raising=False)
    start = time.perf_counter()
    v = check_path(big)
    assert time.perf_counter() - start < 0.5
    (p,) = v.problems
    assert v.exit_code == 2 and p.code == "too-large" and "52.4 MB" in p.message and "limit 1.0 MB" in p.message


def test_just_over_the_limit_and_endless_streams(tmp_path):
    v = verdict_of(tmp_path, b"#" * (MAX_BYTES + 1))
    assert v.problems[0].code == "too-large"
    v = check_stream(io.BytesIO(b"x" * (MAX_BYTES * 3)))
    assert v.exit_code == 2 and v.problems[0].code == "too-large"
    if os.path.exists("/dev/zero"):  # a device is refused at once, before a byte is read
        assert check_path("/dev/zero").problems[0].code == "not-a-file"


def test_stdin_and_deck_codes_as_arguments():
    v = check_input("-", stdin=io.BytesIO(deck_text().encode()), executable=everything_runs)
    assert v.valid and v.source == "<stdin>"
    v = check_input("-", stdin=io.BytesIO(b""))
    assert v.exit_code == 2 and v.problems[0].code == "empty"
    v = check_input("KS-009-C--2|KS-001-MMS--1|Tiny")
    assert v.source == "<deck code>" and v.readable and not v.valid
    v = check_input("no-such-file.txt")
    assert v.exit_code == 2 and v.problems[0].code == "missing"


def test_a_file_named_like_a_code_is_read_as_a_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "KS-009--2|x").write_text(deck_text())
    assert check_input("KS-009--2|x", executable=everything_runs).valid
