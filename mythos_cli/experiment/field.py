"""The field an experiment plays against: its lists and their shares.

Two ways to say a field:

* **A field file** (or a folder of lists, in equal shares): one line per list, its share as a
  percent (``30%``) or a count of players (``12``), then the list (a deck file, relative to the
  field file's folder or to the current one; a deck code; or a sample deck's file name such
  as ``leaf-team7``) and an optional name; ``#`` starts a comment::

      # regionals, expected
      30%  lists/leaf.txt            Leaf Rush
      25%  lists/sand.txt
      25%  KS-009-C--2|KS-015--2|…|Sound_Four
      20%  hidden-ambush
      0%   my-idea.txt               Mine     # a candidate nobody plays yet

  Percents must add up to 100 (counts are turned into shares); a file mixes neither. Every
  list is validated as ``mythos validate`` does, and an illegal one is named with the field
  file's line and the list's own problems. The same list twice (by content) is one list.
* **The string form** ``"deck=share,…"`` (``--field`` of ``optimize``): each deck by a deck
  file or code, or by the name (or a unique part of it, or the file name) of a deck of the
  gauntlet (``--gauntlet DIR``, else the sample decks). Without it, the gauntlet in equal shares.

``load_field`` reads either (a path that exists is a field file or folder); ``build_field``
gives the decks and shares that ``optimize`` takes.
"""

from __future__ import annotations

import math
import os
import re
import shlex
from dataclasses import dataclass, field as dc_field
from pathlib import Path

from mythos_cli.decks.check import check_input
from mythos_cli.decks.deckcode import looks_like_code
from mythos_cli.decks.source import Unreadable, decode
from mythos_cli.files import FileProblem, read_regular
from mythos_cli.sim.decks import deck_spec, default_gauntlet, load_specs
from mythos_cli.sim.plan import DeckSpec

MAX_FIELD_BYTES = 1_000_000
LIST_SUFFIXES = (".txt", ".json", ".code")
# percents written to one decimal (33.3 × 3) add up to 99.9: that much is rounding, not a mistake
PERCENT_SLACK = 0.5


class FieldError(ValueError):
    """A field that cannot be used; ``details`` are the problems of a list it names, one a line."""

    def __init__(self, message: str, hint: str | None = None, details: list[str] | None = None):
        super().__init__(message)
        self.message, self.hint, self.details = message, hint, list(details or [])


@dataclass
class Field:
    """A field: its lists (names made unique), their shares (summing to 1; a list may have 0),
    the counts of players when the file gave counts, and where each list was written."""

    decks: list[DeckSpec]
    shares: list[float]
    source: str
    counts: list[int] | None = None
    lines: list[int | None] = dc_field(default_factory=list)
    warnings: list[str] = dc_field(default_factory=list)

    @property
    def names(self) -> list[str]:
        return [d.name for d in self.decks]

    @property
    def players(self) -> int | None:
        """The number of players the field file counted (None when it gave percents)."""
        return sum(self.counts) if self.counts is not None else None

    def to_json(self) -> dict:
        return {"source": self.source, "lists": [
            {"name": d.name, "share": s, "count": None if self.counts is None else self.counts[i],
             "line": self.lines[i] if i < len(self.lines) else None, "hash": d.hash}
            for i, (d, s) in enumerate(zip(self.decks, self.shares))], "warnings": self.warnings}


def _squash(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", text.lower())


def _find(ref: str, decks: list[DeckSpec], paths: list[str]) -> DeckSpec | None:
    want = ref.strip()
    for d, p in zip(decks, paths):
        if d.name.casefold() == want.casefold() or Path(p).stem.casefold() == want.casefold():
            return d
    partial = [d for d in decks if _squash(want) and _squash(want) in _squash(d.name)]
    if len(partial) == 1:
        return partial[0]
    if len(partial) > 1:
        raise FieldError(f"--field: {ref!r} matches several decks: {', '.join(d.name for d in partial)}",
                         "give more of the name")
    return None


def is_field_path(spec: str | None) -> bool:
    """Whether ``--field`` names a field file or a folder of lists (rather than 'deck=share,…')."""
    return bool(spec) and os.path.lexists(spec.strip()) and not looks_like_code(spec.strip())


def load_field(spec: str | None, gauntlet: str | None = None) -> Field:
    """A field file or folder (a path that exists), else the string form. Raises ``FieldError``
    (or ``DeckError`` for a list of the string form)."""
    if is_field_path(spec):
        return read_field(spec.strip())
    decks, shares = _string_field(spec, gauntlet)
    return Field(decks, shares, spec or (gauntlet or "the sample decks"), None, [None] * len(decks))


def build_field(spec: str | None, gauntlet: str | None = None) -> tuple[list[DeckSpec], list[float]]:
    """The field's decks and shares (summing to 1; decks without a share left out).
    Raises ``FieldError`` or ``DeckError``."""
    f = load_field(spec, gauntlet)
    kept = [(d, s) for d, s in zip(f.decks, f.shares) if s > 0]
    return [d for d, _ in kept], [s for _, s in kept]


def _string_field(spec: str | None, gauntlet: str | None) -> tuple[list[DeckSpec], list[float]]:
    if gauntlet is not None:
        if not os.path.isdir(gauntlet):
            raise FieldError(f"--gauntlet {gauntlet}: not a folder of deck lists")
        paths = sorted(str(p) for p in Path(gauntlet).iterdir() if p.suffix in LIST_SUFFIXES)
        if not paths:
            raise FieldError(f"--gauntlet {gauntlet}: no deck lists (*.txt, *.json, *.code) in it")
    else:
        paths = default_gauntlet()
    decks = load_specs(paths)
    if not spec or not spec.strip():
        if not decks:
            raise FieldError("no field: the sample decks are missing", "give --field or --gauntlet DIR")
        return decks, [1 / len(decks)] * len(decks)
    chosen: list[DeckSpec] = []
    weights: list[float] = []
    for item in spec.split(","):
        item = item.strip()
        if not item:
            continue
        ref, eq, share = item.rpartition("=")
        if not eq or not ref.strip():
            raise FieldError(f"--field: {item!r} is not deck=share",
                             "e.g. --field \"Sand Village=40,sound-four=60\", or the path of a field file")
        try:
            w = float(share.strip().rstrip("%"))
        except ValueError:
            raise FieldError(f"--field: the share {share.strip()!r} of {ref.strip()!r} is not a number",
                             "shares are numbers such as 30 or 0.3 (normalised to sum to 1)") from None
        if not math.isfinite(w) or w < 0:
            raise FieldError(f"--field: the share of {ref.strip()!r} must be a number ≥ 0, not {share.strip()}")
        deck = _find(ref, decks, paths)
        if deck is None:
            if os.path.exists(ref.strip()) or "|" in ref:
                deck = load_specs([ref.strip()])[0]
            else:
                raise FieldError(f"--field: no deck {ref.strip()!r}",
                                 "name a deck file, or a deck of the gauntlet: " + ", ".join(d.name for d in decks))
        names = [d.name for d in chosen]
        if deck in chosen:
            weights[chosen.index(deck)] += w
            continue
        if deck.name in names:  # another list of the same name
            deck = DeckSpec(_unique(deck.name, names), deck.cards, deck.missions)
        chosen.append(deck)
        weights.append(w)
    total = sum(weights)
    if total <= 0:
        raise FieldError("--field: the shares add up to 0", "give at least one deck a positive share")
    return chosen, [w / total for w in weights]


def _unique(name: str, taken: list[str]) -> str:
    if name not in taken:
        return name
    k = 2
    while f"{name} ({k})" in taken:
        k += 1
    return f"{name} ({k})"


# -- field files --------------------------------------------------------------------------------
_COMMENT = re.compile(r"(^|\s)#.*$")
_PERCENT = re.compile(r"^([0-9]+(?:\.[0-9]+)?)%$")
_COUNT = re.compile(r"^[0-9]+$")
FORMAT_HINT = ("a field file has one list a line: a share (30%) or a count of players (12), then a deck file "
               "or deck code, then an optional name, e.g. `30% lists/leaf.txt Leaf Rush`")


@dataclass
class _Entry:
    line: int | None
    ref: str
    name: str | None
    percent: float | None = None
    count: int | None = None


def read_field(path: str) -> Field:
    """A field file, or a folder of lists in equal shares (see the module's docstring)."""
    p = Path(path)
    if p.is_dir():
        files = sorted(x for x in p.iterdir() if x.suffix in LIST_SUFFIXES and not x.name.startswith("."))
        if not files:
            raise FieldError(f"{path}: a folder with no deck lists (*.txt, *.json, *.code) in it",
                             "give a folder of lists (equal shares), or a field file")
        entries = [_Entry(None, str(f), None, count=1) for f in files]
        return _resolve(path, entries, p, counts=False)
    try:
        data = read_regular(path, MAX_FIELD_BYTES, "field file")
    except FileProblem as exc:
        raise FieldError(f"{path}: {exc.message}", exc.hint or FORMAT_HINT) from None
    if not data.strip():
        raise FieldError(f"{path}: an empty field file", FORMAT_HINT)
    try:
        text = decode(data, path).text
    except Unreadable as exc:
        raise FieldError(f"{path}: {exc.problem.message}", exc.problem.hint) from None
    entries: list[_Entry] = []
    for no, raw in enumerate(text.splitlines(), 1):
        line = _COMMENT.sub("", raw).strip()
        if not line:
            continue
        try:
            words = shlex.split(line)
        except ValueError as exc:  # an unclosed quote
            raise FieldError(f"{path}:{no}: {exc}", "close the quotes around a path with spaces") from None
        if len(words) < 2:
            raise FieldError(f"{path}:{no}: {line!r} needs a share and a list", FORMAT_HINT)
        share, ref, name = words[0], words[1], " ".join(words[2:]) or None
        e = _Entry(no, ref, name)
        if m := _PERCENT.match(share):
            e.percent = float(m.group(1))
        elif _COUNT.match(share):
            e.count = int(share)
        elif share.endswith("%") or re.fullmatch(r"-?[0-9.]+", share):
            raise FieldError(f"{path}:{no}: the share {share!r} is not a percent from 0% to 100% "
                             "or a whole count of players", "e.g. 30% or 12")
        else:
            raise FieldError(f"{path}:{no}: the share {share!r} is not a number", FORMAT_HINT)
        entries.append(e)
    if not entries:
        raise FieldError(f"{path}: no list in the field file (only comments or blank lines)", FORMAT_HINT)
    percents = [e for e in entries if e.percent is not None]
    counts = [e for e in entries if e.count is not None]
    if percents and counts:
        odd = counts[0] if len(counts) <= len(percents) else percents[0]
        other = percents[0] if odd is counts[0] else counts[0]
        raise FieldError(f"{path}:{odd.line}: {'a count of players' if odd.count is not None else 'a percent'} in a "
                         f"field whose line {other.line} gives {'a percent' if odd.count is not None else 'a count'}",
                         "write every share as a percent (30%), or every one as a count of players (12)")
    if percents:
        for e in percents:
            if e.percent > 100:
                raise FieldError(f"{path}:{e.line}: a share of {e.percent:g}%, more than 100%",
                                 "the percents of a field add up to 100")
        total = sum(e.percent for e in percents)
        if abs(total - 100) > PERCENT_SLACK:
            raise FieldError(f"{path}: the shares add up to {total:g}%, not 100% (lines "
                             f"{', '.join(str(e.line) for e in percents)})",
                             "correct them, or give counts of players instead (12, 8 …: any total)")
    elif sum(e.count for e in counts) <= 0:
        raise FieldError(f"{path}: every count of players is 0", "give at least one list some players")
    base = p.parent
    return _resolve(path, entries, base, counts=bool(counts))


def _locate(ref: str, base: Path) -> str | None:
    """A list reference as an input ``check_input`` reads: a file (by the field file's folder,
    then the current one), a deck code, or a sample deck's file name."""
    candidates = [base / ref, Path(ref)] if not os.path.isabs(ref) else [Path(ref)]
    for c in candidates:
        if os.path.lexists(c):
            return str(c)
    if looks_like_code(ref):
        return ref
    for s in default_gauntlet():
        if Path(s).stem.casefold() == ref.casefold():
            return s
    return None


def _resolve(path: str, entries: list[_Entry], base: Path, *, counts: bool) -> Field:
    decks: list[DeckSpec] = []
    weights: list[float] = []
    numbers: list[int] = []
    lines: list[int | None] = []
    warnings: list[str] = []
    where = {}
    for e in entries:
        at = f"{path}:{e.line}" if e.line is not None else path
        found = _locate(e.ref, base)
        if found is None:
            where_looked = ("the current folder" if Path(base).resolve() == Path.cwd().resolve()
                            else f"{base} and the current folder")
            raise FieldError(f"{at}: no list {e.ref!r}: not a file (looked in {where_looked}), "
                             "a deck code or a sample deck",
                             "check the path; sample decks are named by their file name, e.g. leaf-team7")
        verdict = check_input(found)
        if not verdict.valid or verdict.deck is None:
            details = [f"{p.location or verdict.source}: {p.message}" + (f" → {p.hint}" if p.hint else "")
                       for p in (verdict.errors or verdict.problems)[:8]]
            what = "cannot be read" if not verdict.readable else "is not a legal Mythos deck"
            raise FieldError(f"{at}: the list {e.ref} {what}", "fix the list (`mythos validate "
                             f"{found if found != e.ref or os.path.exists(found) else 'CODE'}` explains every problem)",
                             details)
        spec = deck_spec(verdict.deck, Path(found).stem if os.path.exists(found) else "deck")
        if e.name:
            spec = DeckSpec(e.name, spec.cards, spec.missions)
        share = e.percent if e.percent is not None else float(e.count)
        same = next((i for i, d in enumerate(decks) if d.hash == spec.hash), None)
        if same is not None:
            warnings.append(f"{at}: the same list as {where[same]} ({decks[same].name}): their shares are added")
            weights[same] += share
            numbers[same] += e.count or 0
            continue
        spec = DeckSpec(_unique(spec.name, [d.name for d in decks]), spec.cards, spec.missions)
        where[len(decks)] = at
        decks.append(spec)
        weights.append(share)
        numbers.append(e.count or 0)
        lines.append(e.line)
    total = sum(weights)
    return Field(decks, [w / total for w in weights], path, numbers if counts else None, lines, warnings)


def match_field(played: list[DeckSpec], wanted: dict[str, tuple[tuple[str, ...], tuple[str, ...]]],
                shares: dict[str, float]) -> tuple[dict[str, float], list[str]]:
    """An experiment's field decks (``played``) in the shares of another field: ``wanted`` names
    each deck of that field with its list (cards, missions), ``shares`` gives its share. A deck
    is the same when its list is (whatever its name), else when its name is. Returns the shares
    by the experiment's deck names (renormalised over the decks it played) and the decks of the
    wanted field it never played."""
    by_hash = {d.hash: d.name for d in played}
    by_name = {d.name: d.name for d in played}
    out: dict[str, float] = {}
    missing = []
    for name, share in shares.items():
        cards, missions = wanted.get(name, ((), ()))
        found = by_hash.get(DeckSpec(name, tuple(cards), tuple(missions)).hash) or by_name.get(name)
        if found is None:
            missing.append(name)
        elif share > 0:
            out[found] = out.get(found, 0.0) + share
    total = sum(out.values())
    return ({d: s / total for d, s in out.items()} if total > 0 else {}), missing


__all__ = ["Field", "FieldError", "build_field", "is_field_path", "load_field", "match_field", "read_field"]
