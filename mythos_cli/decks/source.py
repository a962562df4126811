"""Getting the text of a deck list safely: files, standard input, or bytes.

Everything that can go wrong before parsing (a missing path, a directory, a huge or
binary file, bytes that are not UTF-8) becomes an :class:`Unreadable` with a message
that says what the file is and what to do; nothing here raises anything else.
"""

from __future__ import annotations

import codecs
import os
import re
from dataclasses import dataclass
from typing import BinaryIO

from mythos_cli.decks.model import Problem, error
from mythos_cli.files import FileProblem, read_regular

# A deck list is a few kilobytes; anything over this is the wrong file, and refusing by
# size first means a 50 MB file is never read into memory.
MAX_BYTES = 1_000_000

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f]")
# Characters no deck list needs, which change what a terminal or a page shows: line and
# paragraph separators (a "line" that is not one), the C1 controls, bidirectional overrides
# (text shown in another order than it is read), lone surrogates (not text at all).
_INVISIBLE = re.compile("[\u0080-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\ud800-\udfff]")
_NAMES = {0x1B: "ESC", 0x1F: "unit separator", 0x7F: "DEL", 0x09: "tab", 0x0A: "line feed", 0x0D: "carriage return",
          0x85: "next line", 0x2028: "line separator", 0x2029: "paragraph separator", 0x202E: "right-to-left override"}


def char_name(ch: str) -> str:
    """``U+001B (ESC)``: a character named for a message."""
    code = ord(ch)
    name = _NAMES.get(code)
    if name is None:
        import unicodedata

        name = unicodedata.name(ch, "").lower() if not 0xD800 <= code <= 0xDFFF else "a lone surrogate"
    return f"U+{code:04X}" + (f" ({name})" if name else "")


def bad_char(text: str, newlines: bool = False) -> int | None:
    """Where ``text`` holds a character no deck list needs (a control, a separator, a bidi
    override); ``newlines``: line breaks and tabs are allowed (a whole file)."""
    for i, ch in enumerate(text):
        if ch in "\n\r\t" and newlines:
            continue
        if ch < " " or ch == "\x7f" or _INVISIBLE.match(ch):
            return i
    return None


class Unreadable(Exception):
    """The input has no deck list text in it (exit code 2). ``problem`` says why."""

    def __init__(self, problem: Problem):
        self.problem = problem
        super().__init__(problem.message)


@dataclass(frozen=True, slots=True)
class Source:
    """The decoded text of one input and the name to report it under."""

    name: str
    text: str


def _unreadable(name: str, code: str, message: str, hint: str | None = None, line: int | None = None) -> Unreadable:
    return Unreadable(error(code, message, hint, [line]).at(name))


def _size(n: int) -> str:
    return f"{n / 1_000_000:.1f} MB" if n >= 100_000 else f"{n:,} bytes"


def decode(data: bytes, name: str) -> Source:
    """Bytes to text: UTF-8 (a BOM is fine), or UTF-16 with its BOM; binary is refused."""
    if not data.strip():
        raise _unreadable(name, "empty", "empty file: there is no deck list in it",
                          "write one card per line, e.g. `2 KS-009-C`, then `missions:` and 3 mission ids")
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            text = data.decode("utf-16")
        except UnicodeDecodeError:
            raise _unreadable(name, "not-text", "the file starts like UTF-16 text but is not valid UTF-16",
                              "save the file as UTF-8 text") from None
    else:
        nul = data.find(b"\x00")
        if nul >= 0:
            raise _unreadable(name, "binary", f"a binary file (a NUL byte at offset {nul}), not a deck list",
                              "give the text file of the list (.txt), a deck code or a .json list")
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            line = data.count(b"\n", 0, exc.start) + 1
            col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
            raise _unreadable(
                name, "not-utf8",
                f"not UTF-8 text: byte 0x{data[exc.start]:02X} at line {line}, column {col}",
                "save the file as UTF-8 (most editors offer it under 'Save as… / Encoding')",
                line,
            ) from None
    bad = _CONTROL.search(text)
    if bad:
        line = text.count("\n", 0, bad.start()) + 1
        raise _unreadable(name, "binary",
                          f"control character U+{ord(bad.group()):04X} at line {line}: this is not a text deck list",
                          "give the text file of the list (.txt), a deck code or a .json list", line)
    odd = _INVISIBLE.search(text)
    if odd:
        line = text.count("\n", 0, odd.start()) + 1
        col = odd.start() - (text.rfind("\n", 0, odd.start()) + 1) + 1
        raise _unreadable(name, "bad-character",
                          f"{char_name(odd.group())} at line {line}, column {col}: a deck list is plain text, and "
                          "this character changes how it shows (a line break that is not one, text in another order)",
                          "delete it, or replace it with an ordinary line break or space", line)
    if not text.strip():
        raise _unreadable(name, "empty", "empty file: there is no deck list in it",
                          "write one card per line, e.g. `2 KS-009-C`, then `missions:` and 3 mission ids")
    return Source(name, text)


def read_stream(stream: BinaryIO | None, name: str = "<stdin>", limit: int = MAX_BYTES) -> Source:
    """Read at most ``limit`` bytes of a stream (standard input) and decode them."""
    if stream is None:  # `mythos validate - <&-`: Python has no sys.stdin at all
        raise _unreadable(name, "unreadable", "standard input is closed: there is nothing to read",
                          "pipe the list in (mythos validate - < my-deck.txt), or give its file")
    try:
        data = stream.read(limit + 1)
    except OSError as exc:
        raise _unreadable(name, "unreadable", f"cannot read it: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise _too_big(name, None, limit)
    return decode(data, name)


def _too_big(name: str, size: int | None, limit: int) -> Unreadable:
    what = f"a file of {_size(size)}" if size else f"more than {_size(limit)}"
    return _unreadable(name, "too-large", f"{what}; a deck list is a few kilobytes (limit {_size(limit)})",
                       "is this the right file? give the deck list, not an archive or a database")


def read_file(path: str | os.PathLike, limit: int = MAX_BYTES) -> Source:
    """Read a deck list file, refusing by size before reading and never raising OSError.

    Only regular files are read: a FIFO, a device or a socket is refused at once (a FIFO
    would block until someone writes to it); ``-`` is the way to give standard input."""
    name = os.fspath(path)
    try:
        data = read_regular(path, limit, "deck list")
    except FileProblem as exc:
        hints = {"missing": "check the path; a deck code can also be given directly, e.g. 'KS-009-C--2|…|My_Deck'",
                 "directory": f"give the list files inside it, e.g. {os.path.join(name, '*.txt')}",
                 "too-large": "is this the right file? give the deck list, not an archive or a database",
                 "not-a-file": "give the list's file, or - to read it from standard input"}
        raise _unreadable(name or '""', exc.code, exc.message, hints.get(exc.code, exc.hint)) from None
    return decode(data, name)
