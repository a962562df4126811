"""Turn finished games into database rows.

The rules core packs a batch's ``game_data`` rows itself (``core/src/record.rs``: one dense row
per game, see ``mythos_cli.store.layout``), in the workers, on their clock; ``core_frame`` makes
the writer's frame of its columns. ``game_rows`` reads a finished core game as schema-1 rows (a
dict per game, per seat-round and per card event: what the views ``games``, ``player_rounds``
and ``card_events`` show), independently of the packing, so tests can check one against the
other; ``BatchRecorder.add_rows`` packs such rows, for tests and tools that make games without
the engine.
"""

from __future__ import annotations

from typing import Any, Sequence

import polars as pl
# Polars imports pyarrow.compute the first time it turns the core's Arrow columns into a frame,
# about a second (more under load). Imported here, in the process that starts the workers, every
# forked worker inherits it instead of paying it again: a second per worker and per run, which
# `mythos optimize` (a run per stage and per race round) paid a dozen times.
import pyarrow.compute  # noqa: F401

from mythos_cli import _core
from mythos_cli.store import layout
from mythos_cli.store.layout import (CARD_BITS, EVENT_CODE, EVENT_SHIFT, HOW_CODE, MAX_MISSIONS, RANK_CODE,
                                     SETUP, WON_CODE, LayoutError, pack_cost, pack_event, pack_flags, pack_mission,
                                     pack_scores, pack_stats, setup_key)

# the frame a batch hands to the writer (layout.WRITTEN): plain columns, then integer lists
SCALARS = {"run_id": pl.String, "game_no": pl.Int32, "batch_no": pl.Int32, "setup_key": pl.String,
           "flags": pl.Int32, "seed": pl.UInt64, "score_0": pl.Int32, "score_1": pl.Int32, "decisions": pl.Int32}
LISTS = {"missions": pl.Int16, "round_scores": pl.UInt32, "rounds": pl.UInt64, "costs": pl.Int16, "events": pl.Int32}
assert tuple(SCALARS) + tuple(LISTS) == tuple(c for c, _ in layout.WRITTEN)
META = ("run_id", "game_no", "batch_no", "seed")  # and studied_seat, and the setup (SETUP, or its setup_key)

_OPENING = EVENT_CODE["opening"] << EVENT_SHIFT
_DEALT = EVENT_CODE["dealt"] << EVENT_SHIFT
_STATS_A, _STATS_B = layout.ROUND_STATS


class BatchRecorder:
    """The ``game_data`` rows of games given as schema-1 rows (``add_rows``: tests and tools that
    make games without the engine), kept as column lists until ``frames()``."""

    def __init__(self, cards: Sequence[str]):
        if len(cards) > 1 << CARD_BITS:
            raise LayoutError(f"{len(cards)} cards: the layout holds {1 << CARD_BITS}")
        self.code = {c: i for i, c in enumerate(cards)}
        self.scalars: dict[str, list] = {c: [] for c in SCALARS}
        self.lists: dict[str, list[list[int]]] = {c: [] for c in LISTS}

    def _card(self, card: str) -> int:
        try:
            return self.code[card]
        except KeyError:
            raise LayoutError(f"card {card} is not in the run's card list (its decks' cards)") from None

    def _missions(self, missions: list[tuple[str, int]]) -> list[int]:
        if len(missions) > MAX_MISSIONS:
            raise LayoutError(f"a game with {len(missions)} missions: the layout holds {MAX_MISSIONS}")
        return [pack_mission(self._card(card), owner) for card, owner in missions]

    def _add(self, name: str, values: list[int]) -> None:
        self.lists[name].append(values)

    def _finish_events(self, events: list[int], dealt: list[list[int]], opening: list[list[int]]) -> int:
        """Store the events; a seat's dealt hand only where it differs from its opening hand."""
        stored, head = 0, []
        for seat in (0, 1):
            if dealt[seat] != [e - _OPENING + _DEALT for e in opening[seat]]:
                stored |= 1 << seat
                head.extend(dealt[seat])
        self._add("events", head + events if head else events)
        return stored

    def add_rows(self, game: dict, rounds: list[dict], events: list[dict]) -> None:
        """One game given as schema-1 rows (``game_rows``'s shape)."""
        c = self.scalars
        for k in ("run_id", "game_no", "batch_no", "seed", "score_0", "score_1", "decisions"):
            c[k].append(game[k])
        c["setup_key"].append(setup_key([game[k] for k in SETUP]))
        self._add("missions", self._missions(list(zip(game["missions"], game["mission_owners"]))))
        self._add("round_scores", [pack_scores(a, b) for a, b in zip(game["round_scores_0"], game["round_scores_1"])])
        packed_rounds: list[int] = []
        costs: list[int] = []
        for st in sorted(rounds, key=lambda s: (s["round"], s["seat"])):
            _pack_round(packed_rounds, costs, 2 * (st["round"] - 1) + st["seat"], st)
        self._add("rounds", packed_rounds)
        self._add("costs", costs)
        packed: list[int] = []
        dealt: list[list[int]] = [[], []]
        opening: list[list[int]] = [[], []]
        for ev in events:
            seat = ev["seat"]
            e = pack_event(self._card(ev["card"]), seat, EVENT_CODE[ev["event"]], ev["round"],
                           HOW_CODE[ev.get("how")], RANK_CODE[ev.get("mission_rank")], WON_CODE[ev.get("won_mission")])
            if ev["event"] == "dealt":
                dealt[seat].append(e)
            else:
                if ev["event"] == "opening":
                    opening[seat].append(e)
                packed.append(e)
        stored = self._finish_events(packed, dealt, opening)
        c["flags"].append(pack_flags({**game, "dealt_stored": stored}))

    def __len__(self) -> int:
        return len(self.scalars["game_no"])

    def frames(self) -> dict[str, pl.DataFrame]:
        # Polars builds these from Python lists directly (pyarrow would import pandas: 0.5 s a worker)
        cols = [pl.Series(k, v, dtype=SCALARS[k]) for k, v in self.scalars.items()]
        cols += [pl.Series(k, self.lists[k], dtype=pl.List(dtype)) for k, dtype in LISTS.items()]
        return {"game_data": pl.DataFrame(cols)}


def core_frame(columns: list[tuple], meta: dict[str, list]) -> pl.DataFrame:
    """A batch's ``game_data`` frame from the core's columns (``_core.play_batch`` or
    ``_core.Recorder.columns``) and the run-level columns in ``meta`` (``run_id``, ``game_no``,
    ``batch_no``, ``setup_key``, ``seed``: one value per game).

    The core hands each column over as little-endian bytes (and list offsets); they become Arrow
    arrays by buffer, not value by value (through ``pyarrow.Array.from_buffers``: building them
    from Python lists or numpy would import pandas, half a second in every worker)."""
    import pyarrow as pa

    n = len(meta["game_no"])
    arrays: dict[str, pa.Array] = {}
    for name, ty, values, offsets in columns:
        vtype = getattr(pa, ty)()
        if offsets is None:
            arrays[name] = pa.Array.from_buffers(vtype, n, [None, pa.py_buffer(values)])
        else:
            inner = pa.Array.from_buffers(vtype, len(values) // vtype.byte_width, [None, pa.py_buffer(values)])
            arrays[name] = pa.LargeListArray.from_buffers(pa.large_list(vtype), n, [None, pa.py_buffer(offsets)],
                                                          children=[inner])
    cols = []
    for k, dtype in SCALARS.items():
        cols.append(pl.Series(k, meta[k], dtype=dtype) if k in meta else pl.Series(k, arrays[k]))
    cols += [pl.Series(k, arrays[k]).cast(pl.List(dtype)) for k, dtype in LISTS.items()]
    return pl.DataFrame(cols)


def _pack_round(rounds: list[int], costs: list[int], slot: int, st: dict) -> None:
    rounds.append(pack_stats([st[k] for k in _STATS_A]))
    rounds.append(pack_stats([int(st[k]) for k in _STATS_B]))
    for cost in st["cost_face_up"]:
        costs.append(pack_cost(slot, cost))


def game_rows(g: Any, meta: dict) -> tuple[dict, list[dict], list[dict]]:
    """A finished core game (``_core.Game``, played with its event stream) as schema-1 rows: its
    games row, its player_rounds rows and its card_events rows.

    ``meta`` carries the run-level facts: run_id, game_no, batch_no, matchup, decks, policies, seed."""
    run_id, game_no = meta["run_id"], meta["game_no"]
    decks = (meta["deck_0"], meta["deck_1"])
    missions = g.missions()
    players = (g.player(0), g.player(1))
    scores = g.scores()
    round_scores = g.round_scores()
    game = {
        **meta,
        "first_edge": g.first_edge,
        "missions": [g.card_id(m["card"]) for m in missions],
        "mission_owners": [g.owner(m["card"]) for m in missions],
        "mulligan_0": players[0]["mulliganed"],
        "mulligan_1": players[1]["mulliganed"],
        "round_scores_0": [r[0] for r in round_scores],
        "round_scores_1": [r[1] for r in round_scores],
        "score_0": scores[0],
        "score_1": scores[1],
        "winner": g.winner,
        "tiebreak_by_edge": g.tiebreak_by_edge,
        "final_edge": g.edge,
        "decisions": g.decisions,
    }
    rounds = []
    for r, entry in enumerate(g.round_log(), start=1):
        for seat, stats in enumerate(entry):
            rounds.append({"run_id": run_id, "game_no": game_no, "seat": seat, "deck": decks[seat], "round": r, **stats})
    cards = []
    events = g.events()
    # which seat won each mission (by index) in each round's evaluation
    won: dict[tuple[int, int], int] = {}
    for ev in events:
        if ev[1] == "mission_result":
            won[(ev[0], ev[2])] = ev[5]
    for ev in events:
        rnd, kind = ev[0], ev[1]
        if kind == "dealt":
            seat = ev[2]
            for cid in ev[3]:
                cards.append(_card(run_id, game_no, seat, decks[seat], cid, "dealt", 0, None, None, None))
        elif kind == "opening":
            seat = ev[2]
            for cid in ev[3]:
                cards.append(_card(run_id, game_no, seat, decks[seat], cid, "opening", 0, None, None, None))
        elif kind == "draw" and rnd >= 1:
            seat = ev[2]
            cards.append(_card(run_id, game_no, seat, decks[seat], g.card_id(ev[3]), "drawn", rnd, None, None, None))
        elif kind in ("play", "reveal", "attach", "reveal_attachment") and not (kind == "attach" and ev[5] == "character"):
            seat, cid, mi = ev[2], ev[3], ev[4]
            how = {"play": ev[5], "reveal": "reveal", "reveal_attachment": "reveal"}.get(kind) \
                or ("attach_hidden" if ev[5] == "hidden" else "attach")
            rank = _core.RANKS[missions[mi]["rank"]] if mi < len(missions) else None
            w = won.get((rnd, mi))
            cards.append(_card(run_id, game_no, seat, decks[seat], cid, "played", rnd, how, rank,
                               None if w is None else w == seat))
    return game, rounds, cards


def _card(run_id, game_no, seat, deck, card, event, rnd, how, rank, won):
    return {"run_id": run_id, "game_no": game_no, "seat": seat, "deck": deck, "card": card, "event": event,
            "round": rnd, "how": how, "mission_rank": rank, "won_mission": won}
