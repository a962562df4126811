"""What every report hands back, and where its files go."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path

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


def run_folder(out: Path | str, run_id: str) -> Path:
    """``reports/<run>/``: a run id is used as a folder name, so keep it to safe characters."""
    folder = Path(out) / (re.sub(r"[^A-Za-z0-9._-]+", "_", run_id).strip(".") or "run")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ReportError(f"cannot create the report folder {folder}: {exc.strerror or exc}",
                          "choose a writable folder with --out") from None
    return folder


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
    return found, Table(f"Games to look at: the first losses of each matchup (replay one with mythos replay RUN GAME)",
                        ["deck", "opponent", "lost games", "replay the first"], rows, left=4)


def write_document(doc: Document, folder: Path, stem: str, html: bool = False) -> list[Path]:
    """Write ``<stem>.md`` (and ``<stem>.html``); the images are already in ``folder``."""
    written = []
    try:
        md = folder / f"{stem}.md"
        md.write_text(to_markdown(doc, folder), encoding="utf-8")
        written.append(md)
        if html:
            page = folder / f"{stem}.html"
            page.write_text(to_html(doc), encoding="utf-8")
            written.append(page)
    except OSError as exc:
        raise ReportError(f"cannot write the report into {folder}: {exc.strerror or exc}",
                          "choose a writable folder with --out") from None
    return written + doc.images
