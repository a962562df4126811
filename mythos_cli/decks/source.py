"""Getting the text of a deck list safely: files, standard input, or bytes.

Everything that can go wrong before parsing (a missing path, a directory, a huge or
binary file, bytes that are not UTF-8) becomes an :class:`Unreadable` with a message
that says what the file is and what to do; nothing here raises anything else.
"""

from __future__ import annotations

import codecs
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from mythos_cli.decks.model import Problem, error

# A deck list is a few kilobytes; anything over this is the wrong file, and refusing by
# size first means a 50 MB file is never read into memory.
MAX_BYTES = 1_000_000

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f]")


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
    if not text.strip():
        raise _unreadable(name, "empty", "empty file: there is no deck list in it",
                          "write one card per line, e.g. `2 KS-009-C`, then `missions:` and 3 mission ids")
    return Source(name, text)


def read_stream(stream: BinaryIO, name: str = "<stdin>", limit: int = MAX_BYTES) -> Source:
    """Read at most ``limit`` bytes of a stream (standard input) and decode them."""
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
    """Read a deck list file, refusing by size before reading and never raising OSError."""
    name = os.fspath(path)
    if not name.strip():
        raise _unreadable(name or '""', "missing", "no file name given (an empty argument)", "give the path of a deck list")
    p = Path(path)
    try:
        st = p.stat()
    except FileNotFoundError:
        raise _unreadable(name, "missing", "no such file",
                          "check the path; a deck code can also be given directly, e.g. 'KS-009-C--2|…|My_Deck'") from None
    except NotADirectoryError:
        raise _unreadable(name, "missing", "no such file (a part of the path is not a directory)",
                          "check the path") from None
    except OSError as exc:
        raise _unreadable(name, "unreadable", f"cannot read it: {exc.strerror or exc}") from None
    if stat.S_ISDIR(st.st_mode):
        raise _unreadable(name, "directory", "a directory, not a deck list",
                          f"give the list files inside it, e.g. {os.path.join(name, '*.txt')}")
    if stat.S_ISREG(st.st_mode) and st.st_size > limit:
        raise _too_big(name, st.st_size, limit)
    try:
        with open(p, "rb") as fh:
            # Devices and pipes report no size: read one byte past the limit to know.
            data = fh.read(limit + 1)
    except IsADirectoryError:
        raise _unreadable(name, "directory", "a directory, not a deck list") from None
    except PermissionError:
        raise _unreadable(name, "unreadable", "cannot read it: permission denied",
                          "check the file's permissions") from None
    except OSError as exc:
        raise _unreadable(name, "unreadable", f"cannot read it: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise _too_big(name, None, limit)
    return decode(data, name)
