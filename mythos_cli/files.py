"""Reading a file the user names, safely: regular files only, a size cap, never a wait.

A named pipe (FIFO) blocks its reader until someone writes, a device such as /dev/zero or
/dev/urandom never ends, a socket cannot be read at all: every input path of mythos (deck
lists, scenario files, databases) is refused at once unless it is a regular file, and a file
is read only up to its cap. Nothing here raises anything but :class:`FileProblem`.
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass
from pathlib import Path


@dataclass
class FileProblem(Exception):
    """Why a path cannot be read, for the user: ``code`` (stable), message, hint."""

    code: str
    message: str
    hint: str | None = None

    def __str__(self) -> str:
        return self.message


def kind_of(mode: int) -> str:
    """What a non-regular file is, in words."""
    for test, name in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a named pipe (FIFO)"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"


def size_text(n: int) -> str:
    return f"{n / 1_000_000:.1f} MB" if n >= 100_000 else f"{n:,} bytes"


def _os_problem(exc: OSError) -> FileProblem:
    if isinstance(exc, FileNotFoundError):
        return FileProblem("missing", "no such file", "check the path")
    if isinstance(exc, NotADirectoryError):
        return FileProblem("missing", "no such file (a part of the path is not a directory)", "check the path")
    if isinstance(exc, PermissionError):
        return FileProblem("unreadable", "cannot read it: permission denied", "check the file's permissions")
    if exc.errno == errno.ENAMETOOLONG:
        return FileProblem("unreadable", "the path is too long for this system", "give a shorter path")
    if exc.errno == errno.ELOOP:
        return FileProblem("unreadable", "too many levels of symbolic links", "check where the link points")
    return FileProblem("unreadable", f"cannot read it: {exc.strerror or exc}")


def read_regular(path: str | os.PathLike, limit: int, what: str = "file") -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes, or ``FileProblem``.

    The path is opened without blocking (a FIFO opened for reading would wait for a writer)
    and checked on the open file itself, so a file swapped between a check and the read
    cannot slip through."""
    name = os.fspath(path)
    if not str(name).strip():
        raise FileProblem("missing", "no file name given (an empty argument)", f"give the path of a {what}")
    try:
        st = os.stat(name)
    except OSError as exc:
        raise _os_problem(exc) from None
    if stat.S_ISDIR(st.st_mode):
        raise FileProblem("directory", f"a directory, not a {what}")
    if not stat.S_ISREG(st.st_mode):
        raise FileProblem("not-a-file", f"{kind_of(st.st_mode)}, not a {what}: mythos reads regular files only",
                          f"save the {what} to a file and give its path" + (" (or - for standard input)"
                                                                              if what == "deck list" else ""))
    if st.st_size > limit:
        raise FileProblem("too-large", f"a file of {size_text(st.st_size)}; a {what} is a few kilobytes "
                                       f"(limit {size_text(limit)})", "is this the right file?")
    try:
        fd = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        raise _os_problem(exc) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise FileProblem("not-a-file", f"{kind_of(st.st_mode)}, not a {what}: mythos reads regular files only")
        with os.fdopen(fd, "rb", closefd=False) as fh:
            data = fh.read(limit + 1)
    except OSError as exc:
        raise _os_problem(exc) from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise FileProblem("too-large", f"more than {size_text(limit)}; a {what} is a few kilobytes "
                                       f"(limit {size_text(limit)})", "is this the right file?")
    return data


def out_hint(exc: OSError, option: str = "--out") -> str:
    """How to fix an output folder that cannot be written (``option`` names it)."""
    if exc.errno == errno.ENAMETOOLONG:
        return f"the path is too long for this system (a name over 255 bytes?): choose a shorter {option}"
    if exc.errno in (errno.ENOTDIR, errno.EEXIST):
        return f"a part of the {option} path is a file, not a folder: choose a folder with {option}"
    if exc.errno == errno.ENOSPC:
        return f"the disk is full: free some space, or choose {option} on another disk"
    if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return f"this folder is not writable: choose a writable folder with {option}"
    return f"choose a writable folder with {option}"


def out_problem(path: str | os.PathLike, option: str = "--out") -> tuple[str, str] | None:
    """Why an output folder could not be written (``(problem, hint)``), or None: checked before a
    long command plays anything (its games were lost to an ``--out`` that was a file). Nothing
    is created; the nearest folder that exists must be writable."""
    p = Path(path)
    for q in (p, *p.parents):
        if q.exists() or q.is_symlink():
            if not q.is_dir():
                what = "" if q == p else f" ({q} of it)"
                return (f"{p}{what} is a file, not a folder",
                        f"a part of the {option} path is a file, not a folder: choose a folder with {option}")
            if not os.access(q, os.W_OK | os.X_OK):
                return f"{q} is not writable", f"this folder is not writable: choose a writable folder with {option}"
            return None
    return None


def write_regular(path: str | os.PathLike, text: str, what: str = "file") -> None:
    """Write ``text`` to ``path`` whole or not at all (a temporary file renamed over it).

    An existing target that is not a regular file is refused at once: opening a FIFO for
    writing waits for a reader, a device swallows or refuses the text."""
    name = os.fspath(path)
    try:
        st = os.stat(name)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise FileProblem("unwritable", str(exc.strerror or exc), out_hint(exc, "--out")) from None
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise FileProblem("not-a-file", f"{kind_of(st.st_mode)}, not a {what}: mythos writes regular files only",
                          "give a file path with --out (or leave --out out to print to standard output)")
    folder = os.path.dirname(os.path.abspath(name))
    if not os.path.isdir(folder):
        raise FileProblem("missing", f"the folder {os.path.dirname(name) or folder} does not exist",
                          "create it first, or give another path with --out")
    import tempfile

    try:
        fd, tmp = tempfile.mkstemp(prefix=".mythos-", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise FileProblem("unwritable", str(exc.strerror or exc), out_hint(exc, "--out")) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        if st is not None:
            os.chmod(tmp, stat.S_IMODE(st.st_mode))
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, name)
    except OSError as exc:
        raise FileProblem("unwritable", str(exc.strerror or exc), out_hint(exc, "--out")) from None
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
