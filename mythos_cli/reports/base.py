"""What every report hands back, and where its files go."""

from __future__ import annotations

import errno
import hashlib
import math
import os
import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from mythos_cli.files import out_hint
from mythos_cli.reports.data import ReportError, RunData
from mythos_cli.reports.doc import Document, Para, Table, to_html, to_markdown


@dataclass
class ReportResult:
    """The numbers (for ``--json``), the files written, and a summary for the terminal."""

    kind: str
    run_id: str
    db: str
    numbers: dict
    files: list[Path] = field(default_factory=list)
    summary: list[str] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return _clean({"kind": self.kind, "run": self.run_id, "db": self.db, "files": [str(f) for f in self.files],
                       "warnings": self.warnings, "summary": self.summary, **self.numbers})


def _clean(x):
    """JSON has no NaN and no numpy scalars: undefined numbers become null, numpy becomes Python."""
    if isinstance(x, dict):
        return {str(k): _clean(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_clean(v) for v in x]
    if hasattr(x, "item") and not isinstance(x, (str, bytes)):  # numpy scalar
        x = x.item()
    if isinstance(x, float) and math.isnan(x):
        return None
    return x


MAX_FOLDER = 80
STAGING = ".mythos-report-"  # a report being written: out/.mythos-report-<pid>-<random>/
_FINAL: dict[Path, Path] = {}  # staging folder -> the run's folder it is published to


def folder_name(run_id: str) -> str:
    """A run id as a folder name: safe characters, at most 80 of them. An id that had to be
    changed (``a b`` → ``a_b``, upper case, cut short) gets a short hash of itself, so that two
    runs never share a folder (``a b`` and ``a_b``; ``Run`` and ``run`` on macOS)."""
    plain = re.sub(r"[^A-Za-z0-9._-]+", "_", run_id).strip(".") or "run"
    if plain == run_id and len(plain) <= MAX_FOLDER and plain == plain.lower():
        return plain
    digest = hashlib.sha256(run_id.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    return f"{plain[:MAX_FOLDER].rstrip('._-')}-{digest}"


def run_folder(out: Path | str, run_id: str) -> Path:
    """Where a report of the run is written: a private staging folder under ``out``, moved into
    ``out/<run>/`` file by file (each a rename) when ``write_document`` finishes. A report
    killed half-way leaves the run's folder as it was; its staging folder is removed by the
    next report."""
    out = Path(out)
    final = out / folder_name(run_id)
    try:
        out.mkdir(parents=True, exist_ok=True)
        _sweep(out)
        staging = Path(tempfile.mkdtemp(prefix=f"{STAGING}{os.getpid()}-", dir=out))
    except OSError as exc:
        raise ReportError(f"cannot create the report folder {final}: {exc.strerror or exc}", out_hint(exc)) from None
    _FINAL[staging] = final
    return staging


def _sweep(out: Path) -> None:
    """Remove the staging folders of reports whose process is gone (killed half-way)."""
    for d in out.glob(f"{STAGING}*"):
        try:
            pid = int(d.name[len(STAGING):].split("-", 1)[0])
        except ValueError:
            continue
        if pid != os.getpid() and not _alive(pid):
            shutil.rmtree(d, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def discard_staging() -> None:
    """Remove this process's unpublished staging folders (a report that failed half-way)."""
    for staging in list(_FINAL):
        shutil.rmtree(staging, ignore_errors=True)
        _FINAL.pop(staging, None)


def _publish(staging: Path, last: list[Path]) -> dict[Path, Path]:
    """Move every file of ``staging`` into its run folder (``last``, the pages, at the end).

    Nothing is written through a symbolic link under ``--out``: the run's folder is made or
    opened without following a link (a link there is refused, wherever it points), and each file
    is renamed into that opened folder, so a link swapped in meanwhile is not followed either. A
    link in place of a report file is replaced by the file, its target untouched."""
    final = _FINAL.get(staging)
    if final is None:  # a folder not made by run_folder: written in place
        return {}
    try:
        os.mkdir(final)
    except FileExistsError:
        pass
    try:
        folder = os.open(final, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENOTDIR) and final.is_symlink():
            raise ReportError(f"{final} is a symbolic link (to {os.readlink(final)}): mythos does not write through "
                              "links under --out", "remove the link, or choose another --out") from None
        raise
    source = os.open(staging, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    moved = {}
    try:
        files = sorted((p for p in staging.iterdir() if p.is_file() and not p.is_symlink()),
                       key=lambda p: (p in last, p.name))
        for f in files:
            os.replace(f.name, f.name, src_dir_fd=source, dst_dir_fd=folder)
            moved[f] = final / f.name
    finally:
        os.close(source)
        os.close(folder)
    shutil.rmtree(staging, ignore_errors=True)
    _FINAL.pop(staging, None)
    return moved


def run_header(rd: RunData) -> Para:
    from mythos_cli.reports.players import players_line

    info = rd.info
    return Para(f"Run `{rd.run_id}` in `{rd.db}`: {rd.games.height} games ({info.get('status')}), "
                f"{len(rd.decks)} decks, seed {info.get('seed')}, engine {info.get('engine_version')}. "
                f"**{players_line(rd)}**")


def run_preamble(rd: RunData) -> list[Para]:
    """What every report opens with: the run's facts, then any warning about its data."""
    return [run_header(rd)] + [Para(f"**Warning:** {w}") for w in rd.warnings]


def examples_table(rd: RunData, pairs: list[tuple[str, str]], limit: int = 5) -> tuple[list[dict], Table]:
    """The first games each deck lost to each opponent, with the command that replays one."""
    rows, found = [], []
    for deck, opp in pairs:
        games = rd.losses(deck, opp, limit)
        found.append({"deck": deck, "opponent": opp, "lost_games": games,
                      "replay": f"mythos replay {rd.run_id} {games[0]} --db {rd.db}" if games else None})
        rows.append([deck, opp, ", ".join(map(str, games)) or "none lost",
                     f"mythos replay {rd.run_id} {games[0]}" if games else ""])
    return found, Table("Games to look at: the first losses of each matchup (replay one with mythos replay RUN GAME)",
                        ["deck", "opponent", "lost games", "replay the first"], rows, left=4)


def write_document(doc: Document, folder: Path, stem: str, html: bool = False,
                   extra: list[Path] = ()) -> list[Path]:
    """Write ``<stem>.md`` (and ``<stem>.html``) beside the images, then publish the folder
    (``run_folder``): the returned paths are the files in the run's folder (``extra``: other
    files written into ``folder`` before, first in the list)."""
    written = []
    try:
        md = folder / f"{stem}.md"
        md.write_text(to_markdown(doc, folder), encoding="utf-8")
        written.append(md)
        if html:
            page = folder / f"{stem}.html"
            page.write_text(to_html(doc), encoding="utf-8")
            written.append(page)
        moved = _publish(folder, written)
    except OSError as exc:
        raise ReportError(f"cannot write the report into {_FINAL.get(folder, folder)}: {exc.strerror or exc}",
                          out_hint(exc)) from None
    return [moved.get(p, p) for p in [*extra, *written, *doc.images]]
