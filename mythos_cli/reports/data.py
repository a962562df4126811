"""One run of the database as the reports need it: games per seat, deck lists, deck names.

Everything the user names (the database, the run, a deck, a field) is checked here and a
problem becomes a ``ReportError`` that says what is wrong and what exists instead.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl
from rapidfuzz import fuzz, process

from mythos_cli.catalog import default_catalog
from mythos_cli.reports.doc import register_literals
from mythos_cli.store import StoreError, open_store
from mythos_cli.store.db import Store, stored_json
from mythos_cli.store import read
from mythos_cli.store.read import newest_finished_run, run_card_events, run_games, run_player_rounds

# A round-1 player has 5 chakra: two plays of cost 2 or less fit, which is also the deck
# check's "cheap play" (few-cheap-plays warns under 6 such cards).
CHEAP_COST = 2
# Below this many games a rate is shown but flagged, and kept out of rankings and rules.
MIN_GAMES = 30


class ReportError(Exception):
    """A problem the user can fix, with a hint. ``code``: 2 bad input, 1 nothing to report."""

    def __init__(self, message: str, hint: str | None = None, code: int = 2):
        super().__init__(message)
        self.message, self.hint, self.code = message, hint, code


@dataclass(frozen=True)
class DeckList:
    name: str
    cards: tuple[str, ...]  # card versions, with repeats
    missions: tuple[str, ...]

    @property
    def size(self) -> int:
        return len(self.cards)


@dataclass
class RunData:
    """A run's games and deck lists, read once; card events and rounds are read on demand."""

    store: Store
    db: Path
    run_id: str
    info: dict
    decks: dict[str, DeckList]  # every deck that played, by name
    games: pl.DataFrame
    seats: pl.DataFrame  # one row per game and seat, from that seat's point of view
    opponents: list[str] = field(default_factory=list)  # the run's gauntlet: the default field
    warnings: list[str] = field(default_factory=list)

    @property
    def deck_names(self) -> list[str]:
        return name_order(self.decks)

    def losses(self, deck: str, opponent: str, limit: int = 5) -> list[int]:
        """Game numbers of the first games ``deck`` lost to ``opponent`` (for ``mythos replay``)."""
        from mythos_cli.store.read import losses

        return self._read(losses, deck, opponent, limit)

    # -- aggregated in DuckDB: a table per deck and card, whatever the number of games --------
    def _read(self, fn, *args):
        try:
            return fn(self.store, self.run_id, *args)
        except StoreError as exc:
            raise ReportError(str(exc)) from None

    def costs(self) -> dict[str, int | None]:
        """Each card of the run's lists with its cost as the reports count it (unknown: None)."""
        return dict(card_facts(self).select("card", "cost").iter_rows())

    def opening_hands(self, decks: list[str] | None = None) -> pl.DataFrame:
        """Per (game, seat): ``hand`` (the kept cards), ``cheap`` (cost ≤ CHEAP_COST), ``total_cost``."""
        return self._read(read.opening_hands, self.costs(), CHEAP_COST, decks)

    def first_seen(self, decks: list[str] | None = None,
                   by_opponent: bool = False) -> tuple[pl.DataFrame, pl.DataFrame]:
        """Game-seats by the round each cost was first seen, and any cheap play (``read.first_seen``)."""
        return self._read(read.first_seen, self.costs(), CHEAP_COST, decks, by_opponent)

    def card_counts(self, decks: list[str] | None = None, by_opponent: bool = False) -> pl.DataFrame:
        """Per (deck, card): kept-hand and drawn-later game-seats and their wins (``read.card_counts``)."""
        return self._read(read.card_counts, decks, by_opponent)

    def played_counts(self, decks: list[str] | None = None, by_opponent: bool = False) -> pl.DataFrame:
        """Per (deck, card): game-seats where it was played, their wins, the sum of its first
        play's rounds (``read.played_counts``)."""
        return self._read(read.played_counts, decks, by_opponent)

    def mission_counts(self, decks: list[str] | None = None, by_opponent: bool = False) -> pl.DataFrame:
        """Per (deck, mission): game-seats with it among the seat's missions in play, their wins."""
        return self._read(read.mission_counts, decks, by_opponent)

    def round_moments(self, decks: list[str] | None = None, by_opponent: bool = False) -> pl.DataFrame:
        """Per (deck, round): counts, sums and sums of squares of the chakra statistics."""
        return self._read(read.round_moments, decks, by_opponent)

    # -- every row (small runs, tools): memory grows with the games ---------------------------
    def events(self, events: tuple[str, ...], decks: list[str] | None = None) -> pl.DataFrame:
        return self._read(run_card_events, events, decks)

    def rounds(self, decks: list[str] | None = None) -> pl.DataFrame:
        return self._read(run_player_rounds, decks)

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> "RunData":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def seat_frame(games: pl.DataFrame) -> pl.DataFrame:
    """Each game twice, once per seat: that seat's deck, opponent, policy, result and hand facts
    (seat 0's rows, then seat 1's; the missions stay in ``RunData.games``)."""
    parts = []
    for s in (0, 1):
        o = 1 - s
        parts.append(games.select(
            "game_no",
            pl.lit(s, dtype=pl.Int8).alias("seat"),
            pl.col(f"deck_{s}").alias("deck"),
            pl.col(f"deck_{o}").alias("opponent"),
            pl.col(f"policy_{s}").alias("policy"),
            pl.col(f"policy_{o}").alias("opponent_policy"),
            (pl.col("winner") == s).alias("won"),
            (pl.col("first_edge") == s).alias("first_edge"),
            pl.col(f"mulligan_{s}").fill_null(False).alias("mulligan"),
            pl.col("tiebreak_by_edge").fill_null(False).alias("tiebreak"),
            pl.col(f"score_{s}").alias("score"),
            pl.col(f"score_{o}").alias("opponent_score"),
            pl.col("decisions"),
            pl.col("rounds"),
        ))
    return pl.concat(parts, rechunk=False)


def open_run(db: Path | str, run: str | None = None) -> RunData:
    """Open the database read-only and load a run (default: the newest finished one)."""
    db = Path(db)
    try:
        store = open_store(db, read_only=True, create=False)
    except StoreError as exc:
        # open_store's message already says how to fix it; a missing file gets the mythos way to make one
        raise ReportError(str(exc), None if db.exists() else "list runs of another file with `mythos db runs --db FILE`") from None
    try:
        return _load(store, db, run)
    except BaseException:
        store.close()
        raise


def run_data(store: Store, run_id: str) -> RunData:
    """A run of an open store (an experiment reading the runs it played), as ``open_run`` loads one."""
    return _load(store, Path(store.path), run_id)


def _runs_hint(runs: pl.DataFrame) -> str:
    if runs.height == 0:
        return "the database holds no run yet: mythos simulate --db FILE"
    items = [f"{r['run_id']} ({r['status']}, {r['stored_games']} games)" for r in runs.iter_rows(named=True)]
    return "runs in this database: " + ", ".join(items[-12:]) + (" …" if len(items) > 12 else "")


def _load(store: Store, db: Path, run: str | None) -> RunData:
    try:
        runs = store.runs()
        run_id = run or newest_finished_run(store)
    except StoreError as exc:
        raise ReportError(str(exc)) from None
    if run_id is None:
        raise ReportError(f"{db}: no finished run to report on", _runs_hint(runs) + "; pass --run RUN")
    info = store.run(run_id)
    if info is None:
        known = runs["run_id"].to_list() if runs.height else []
        close = process.extract(run_id, known, scorer=fuzz.WRatio, limit=3) if known else []
        guess = [c for c, score, _ in close if score >= 60]
        hint = (f"did you mean {', '.join(guess)}? " if guess else "") + _runs_hint(runs)
        raise ReportError(f"{db}: no run {run_id!r}", hint)
    try:
        games = run_games(store, run_id)
    except StoreError as exc:
        raise ReportError(str(exc)) from None
    if games.height == 0:
        raise ReportError(f"run {run_id} has no stored games yet: nothing to report",
                          f"finish it with: mythos simulate --resume {run_id} --db {db}", code=1)
    warnings = []
    if getattr(store, "snapshot", None) is not None:
        warnings.append(f"{db} is being written by another process: this report read a copy of it, which may lack "
                        "the last few seconds of games")
    if info.get("status") != "finished":
        warnings.append(f"run {run_id} is {info.get('status')}: {games.height} of {info.get('planned_games')} "
                        "planned games are stored, so some matchups may be short or missing")
    try:
        cfg = info.get("config")
        cfg = stored_json(cfg) or {}
        lists = {d["name"]: DeckList(d["name"], tuple(d["cards"]), tuple(d["missions"])) for d in cfg.get("decks", [])}
        opponents = [cfg["decks"][i]["name"] for i in cfg.get("opponents", []) if i < len(cfg["decks"])]
    except (ValueError, TypeError, KeyError, AttributeError, IndexError) as exc:
        raise ReportError(f"run {run_id}: its stored configuration is damaged ({type(exc).__name__}: {exc}), so its "
                          "deck lists are unknown", "report another run, or simulate the decks again") from None
    played = set(games["deck_0"].unique().cast(pl.String).to_list()) | \
        set(games["deck_1"].unique().cast(pl.String).to_list())
    missing = sorted(played - set(lists))
    if missing:
        raise ReportError(f"run {run_id}: the run's configuration has no deck list for {', '.join(missing)}",
                          "this database was not written by `mythos simulate`; simulate the decks again")
    decks = {n: lists[n] for n in name_order(played)}
    try:
        foreign = read.foreign_cards(store, run_id, {n: (*d.cards, *d.missions) for n, d in decks.items()})
    except StoreError as exc:
        raise ReportError(str(exc)) from None
    for deck, cards in foreign.items():
        shown = ", ".join(cards[:5]) + (f" and {len(cards) - 5} more" if len(cards) > 5 else "")
        warnings.append(f"run {run_id}: stored games of {deck} name cards no deck list of the run holds ({shown}): "
                        "the games were changed after they were stored, so no figure of this run can be trusted")
    opponents = [n for n in dict.fromkeys(opponents) if n in decks] or name_order(decks)
    register_slugs(decks)
    register_literals([*lists, run_id, str(db)])  # the user's strings: never markup in a report
    return RunData(store, db, run_id, info, decks, games, seat_frame(games), opponents, warnings)


# -- naming decks ----------------------------------------------------------------------------
def name_order(names) -> list[str]:
    """Deck names as a reader sorts them: ignoring case ("akatsuki" before "Sand"), then as written."""
    return sorted(names, key=lambda n: (n.casefold(), n))


MAX_SLUG = 60
_SLUGS: dict[str, str] = {}  # deck name -> file-name part, for the decks of the runs loaded


def _plain_slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "deck"


def _hashed(text: str, base: str) -> str:
    import hashlib

    return f"{base[:MAX_SLUG].rstrip('-')}-{hashlib.sha256(text.encode('utf-8', 'surrogatepass')).hexdigest()[:8]}"


def slug(text: str) -> str:
    """A deck name as part of a file name: lower-case words joined by ``-``, at most 60
    characters. Two decks of a run whose plain slugs meet ("A b", "a-b") each get a short hash
    of their name, and so does a long name cut short, so no report file overwrites another's."""
    if text in _SLUGS:
        return _SLUGS[text]
    base = _plain_slug(text)
    return base if len(base) <= MAX_SLUG else _hashed(text, base)


def register_slugs(names) -> None:
    """The file-name parts of a run's decks, made distinct (see ``slug``)."""
    by_slug: dict[str, list[str]] = {}
    for n in names:
        by_slug.setdefault(_plain_slug(n), []).append(n)
    for base, group in by_slug.items():
        for n in group:
            _SLUGS[n] = _hashed(n, base) if len(group) > 1 or len(base) > MAX_SLUG else base


def _squash(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", text.lower())


def resolve_deck(rd: RunData, ref: str) -> str:
    """A deck of the run from its name, a unique part of it, or a deck file whose name it is."""
    names = rd.deck_names
    ref_s = ref.strip()
    for n in names:
        if n.casefold() == ref_s.casefold() or _plain_slug(n) == _plain_slug(ref_s):
            return n
    from_file = _deck_file_name(ref_s)
    if from_file in names:
        return from_file
    squashed = _squash(ref_s)
    partial = [n for n in names if squashed and squashed in _squash(n)]
    if len(partial) == 1:
        return partial[0]
    if len(partial) > 1:
        raise ReportError(f"deck {ref!r} matches several decks of run {rd.run_id}: {', '.join(partial)}",
                          "give more of the name (quote names with spaces)")
    lowered = {n.lower(): n for n in names}
    close = [lowered[c] for c, score, _ in process.extract(ref_s.lower(), list(lowered), scorer=fuzz.partial_ratio,
                                                           limit=2) if score >= 65]
    hint = (f"did you mean {' or '.join(repr(c) for c in close)}? " if close else "")
    raise ReportError(f"no deck {ref!r} in run {rd.run_id}", hint + "decks in this run: " + ", ".join(names))


def _deck_file_name(ref: str) -> str | None:
    """The name inside a deck file given by path, or by a sample deck's file name (``leaf-team7``)."""
    from mythos_cli.decks import DeckError, load_deck, sample_paths

    path = Path(ref)
    if not (path.suffix and path.is_file()):
        path = next((p for p in sample_paths() if p.stem == ref.lower()), None)
    if path is None:
        return None
    try:
        return load_deck(str(path)).name
    except (DeckError, OSError):
        return None


def parse_field(rd: RunData, spec: str | None) -> dict[str, float]:
    """``deck=share,deck=share`` → shares summing to 1 (default: the run's gauntlet, equal shares);
    or the path of a field file (``mythos_cli.experiment.field``), its lists found in the run by
    their contents.

    Shares are weights: ``30,20`` and ``0.3,0.2`` mean the same field."""
    if not spec or not spec.strip():
        return {n: 1 / len(rd.opponents) for n in rd.opponents}
    from mythos_cli.experiment.field import is_field_path

    if is_field_path(spec):
        return _field_file(rd, spec.strip())
    weights: dict[str, float] = {}
    for item in spec.split(","):
        item = item.strip()
        if not item:
            continue
        name, eq, share = item.rpartition("=")
        if not eq or not name.strip():
            raise ReportError(f"--field: {item!r} is not deck=share",
                              "e.g. --field \"Leaf Village Team 7=30,Sand Village=20\"")
        try:
            w = float(share.strip().rstrip("%"))
        except ValueError:
            raise ReportError(f"--field: the share {share.strip()!r} of {name.strip()!r} is not a number",
                              "shares are numbers such as 30 or 0.3 (they are normalised to sum to 1)") from None
        if not math.isfinite(w) or w < 0:
            raise ReportError(f"--field: the share of {name.strip()!r} must be a number ≥ 0, not {share.strip()}")
        deck = resolve_deck(rd, name)
        weights[deck] = weights.get(deck, 0.0) + w
    total = sum(weights.values())
    if total <= 0:
        raise ReportError("--field: the shares add up to 0", "give at least one deck a positive share")
    return {d: w / total for d, w in weights.items() if w > 0}


def _field_file(rd: RunData, path: str) -> dict[str, float]:
    """A field file's shares over the run's decks: each list is the run's deck of the same cards and
    missions (whatever its name), a list the run never played is an error naming its line."""
    from mythos_cli.experiment.field import FieldError, read_field
    from mythos_cli.sim.plan import DeckSpec

    try:
        f = read_field(path)
    except FieldError as exc:
        raise ReportError(exc.message + "".join(f"; {d}" for d in exc.details[:3]), exc.hint) from None
    by_hash = {DeckSpec(n, d.cards, d.missions).hash: n for n, d in rd.decks.items()}
    out: dict[str, float] = {}
    for deck, share, line in zip(f.decks, f.shares, f.lines):
        name = by_hash.get(deck.hash)
        if name is None:
            where = f"{path}:{line}" if line else path
            raise ReportError(f"{where}: the list {deck.name} did not play in run {rd.run_id}",
                              "decks in this run: " + ", ".join(rd.deck_names))
        if share > 0:
            out[name] = out.get(name, 0.0) + share
    total = sum(out.values())
    return {d: w / total for d, w in out.items()}


def games_by_opponent(rd: RunData, deck: str) -> dict[str, tuple[int, int]]:
    """The deck's seats per opponent: (games, wins)."""
    agg = (rd.seats.filter(pl.col("deck") == deck).group_by(pl.col("opponent").cast(pl.String))
           .agg(pl.len().alias("n"), pl.col("won").sum().alias("w")))
    return {o: (int(n), int(w)) for o, n, w in agg.select("opponent", "n", "w").iter_rows()}


def pick_decks(rd: RunData, deck: str | None) -> list[str]:
    return [resolve_deck(rd, deck)] if deck else rd.deck_names


# -- cards -----------------------------------------------------------------------------------
def card_facts(rd: RunData) -> pl.DataFrame:
    """Cost, power, name and type of every card version in the run's deck lists."""
    cat = default_catalog()
    rows = []
    for cid in sorted({c for d in rd.decks.values() for c in d.cards}):
        card = cat.by_id.get(cid)
        if card is None:
            # the catalog changed since the run: keep reporting, without a cost for that card
            rd.warnings.append(f"card {cid} of the run is not in the current catalog: its cost is unknown")
            rows.append({"card": cid, "name": cid, "cost": None, "power": None, "type": None})
            continue
        rows.append({"card": cid, "name": card.full_name, "cost": card.cost or 0, "power": card.power,
                     "type": card.type})
    return pl.DataFrame(rows, schema={"card": pl.String, "name": pl.String, "cost": pl.Int32, "power": pl.Int32,
                                      "type": pl.String})


def mission_name(mission_id: str) -> str:
    card = default_catalog().by_id.get(mission_id)
    return card.name if card is not None else mission_id
