"""How a game is laid out in the database (schema 2): one dense row per game.

A game is stored as one row of ``game_data``: a few plain columns, and its missions, round
scores, per-round statistics and card events packed into integer lists. DuckDB's ingest cost
is per stored value (a string costs about four integers, a list element about one) and per
byte, so schema 1's 63 rows a game with strings in every row capped the writer at a few
thousand games a second; a dense row of a few hundred bytes ingests some twenty times faster.
The views ``games``, ``player_rounds`` and ``card_events`` decode the rows back into the
schema-1 tables, column for column and type for type, so SQL, the reports and
``mythos db export`` see what they always saw.

Encodings (encoders here and in ``mythos_cli.sim.record``, decoders in the views):

* ``flags INTEGER``: the game's small facts, one bit field each (``FLAGS``: name, shift,
  width; ``winner`` is stored plus one, so -1, nobody, is 0; ``dealt_stored`` see below).
* ``setup INTEGER``: the game's matchup label, decks, deck hashes and policies, the same for
  many games: a code into ``run_setups``. Writers hand over ``setup_key`` (those 7 strings
  joined by ``SETUP_SEP``) and the store turns it into the code.
* ``missions SMALLINT[]``: per mission in play, ``card code | owner << 14``. A card code is
  a 0-based index into the run's card list (table ``run_cards``). At most 4 missions.
* ``round_scores UINTEGER[]``: per round, seat 0's points in bits 0-15 and seat 1's in bits
  16-31 (signed 16-bit fields).
* ``events INTEGER[]``: one element per card event, in the order they happened::

      bits  0-13 card code
      bit     14 seat
      bits 15-16 event: 0 dealt, 1 opening, 2 drawn, 3 played
      bits 17-19 round (0: before round 1)
      bits 20-22 how a card was played: 0 none, then HOWS[1:]
      bits 23-25 the mission's rank: 0 none, 1-4 D, C, B, A
      bits 26-27 won the mission in that round's evaluation: 0 unknown, 1 no, 2 yes

  A seat's ``dealt`` events (the 5 cards before any mulligan) are stored only when they differ
  from its ``opening`` events (its hand after the mulligans): bit s of ``dealt_stored`` says
  they are stored for seat s; otherwise the view repeats the opening hand as the dealt one.
* ``rounds UBIGINT[]``: 2 elements per seat and round, in the order round 1 seat 0, round 1
  seat 1, round 2 seat 0, …; each holds 6 statistics of ``ROUND_STATS`` as signed 10-bit
  fields (bits 0-9, 10-19, …, 50-59).
* ``costs SMALLINT[]``: the printed cost of each card played face up, ``slot << 8 | cost``
  where slot is the seat-round's index (round r, seat s: ``2 (r - 1) + s``); in play order.
"""

from __future__ import annotations

EVENTS = ("dealt", "opening", "drawn", "played")
HOWS = (None, "face_up", "hidden", "upgrade", "reveal", "attach", "attach_hidden")
RANK_CODES = (None, "D", "C", "B", "A")
EVENT_CODE = {e: i for i, e in enumerate(EVENTS)}
HOW_CODE = {h: i for i, h in enumerate(HOWS)}
RANK_CODE = {r: i for i, r in enumerate(RANK_CODES)}
WON_CODE = {None: 0, False: 1, True: 2}

CARD_BITS = 14
MAX_CARDS = 1 << CARD_BITS
SEAT_SHIFT, EVENT_SHIFT, ROUND_SHIFT, HOW_SHIFT, RANK_SHIFT, WON_SHIFT = 14, 15, 17, 20, 23, 26
MAX_ROUND = 7

ROUND_STATS = (
    ("chakra_gained", "chakra_spent", "chakra_left", "cards_drawn", "played_face_up", "played_hidden"),
    ("revealed", "upgraded", "characters_in_play", "missions_won", "points", "edge"),
)
STAT_BITS = 10
MAX_COST, MAX_SLOT = 255, 127
MAX_MISSIONS, OWNER_SHIFT = 4, 14
DEALT_SHIFT = 8  # dealt_stored's shift in FLAGS (checked below)
SETUP = ("matchup", "deck_0", "deck_0_hash", "deck_1", "deck_1_hash", "policy_0", "policy_1")
SETUP_SEP = "\x1f"

# (name, shift, bits, offset, type in the view): flags >> shift & mask, minus offset
FLAGS = (
    ("studied_seat", 0, 1, 0, "TINYINT"), ("first_edge", 1, 1, 0, "TINYINT"), ("final_edge", 2, 1, 0, "TINYINT"),
    ("winner", 3, 2, 1, "TINYINT"), ("tiebreak_by_edge", 5, 1, 0, "BOOLEAN"), ("mulligan_0", 6, 1, 0, "BOOLEAN"),
    ("mulligan_1", 7, 1, 0, "BOOLEAN"), ("dealt_stored", 8, 2, 0, "TINYINT"),
)

assert [f[1] for f in FLAGS if f[0] == "dealt_stored"] == [DEALT_SHIFT]

# The stored row of one game: (column, DuckDB type). The order is the table's.
GAME_DATA = (
    ("run_id", "VARCHAR"), ("game_no", "INTEGER"), ("batch_no", "INTEGER"), ("setup", "INTEGER"),
    ("flags", "INTEGER"), ("seed", "UBIGINT"), ("score_0", "INTEGER"), ("score_1", "INTEGER"),
    ("decisions", "INTEGER"), ("missions", "SMALLINT[]"), ("round_scores", "UINTEGER[]"),
    ("rounds", "UBIGINT[]"), ("costs", "SMALLINT[]"), ("events", "INTEGER[]"),
)
# what a writer hands over: the same, with the setup's strings instead of its code
WRITTEN = tuple(("setup_key", "VARCHAR") if c == "setup" else (c, t) for c, t in GAME_DATA)
# the schema-1 games columns (the view games)
GAME_COLUMNS = ("run_id", "game_no", "batch_no", "matchup", "studied_seat", "deck_0", "deck_0_hash", "deck_1",
                "deck_1_hash", "policy_0", "policy_1", "seed", "first_edge", "missions", "mission_owners",
                "mulligan_0", "mulligan_1", "round_scores_0", "round_scores_1", "score_0", "score_1", "winner",
                "tiebreak_by_edge", "final_edge", "decisions")


class LayoutError(ValueError):
    """A value does not fit its packed field (a bug or an engine change: nothing the user did)."""


def pack_event(card: int, seat: int, event: int, rnd: int, how: int = 0, rank: int = 0, won: int = 0) -> int:
    if not 0 <= rnd <= MAX_ROUND:
        raise LayoutError(f"round {rnd} does not fit the card-event layout (at most {MAX_ROUND})")
    return (card | seat << SEAT_SHIFT | event << EVENT_SHIFT | rnd << ROUND_SHIFT | how << HOW_SHIFT
            | rank << RANK_SHIFT | won << WON_SHIFT)


def pack_stats(values) -> int:
    """Six statistics as signed 10-bit fields of one unsigned 64-bit integer."""
    out, shift = 0, 0
    lim = 1 << (STAT_BITS - 1)
    for v in values:
        if not -lim <= v < lim:
            raise LayoutError(f"round statistic {v} does not fit {STAT_BITS} bits")
        out |= (v & ((1 << STAT_BITS) - 1)) << shift
        shift += STAT_BITS
    return out


def pack_scores(a: int, b: int) -> int:
    for v in (a, b):
        if not -32768 <= v <= 32767:
            raise LayoutError(f"round score {v} does not fit 16 bits")
    return (a & 0xFFFF) | (b & 0xFFFF) << 16


def pack_flags(values: dict) -> int:
    """``FLAGS`` from their values (bools or small ints)."""
    out = 0
    for name, shift, bits, offset, _ in FLAGS:
        if values.get(name) is None:
            raise LayoutError(f"the game flag {name} is missing")
        v = int(values[name]) + offset
        if not 0 <= v < 1 << bits:
            raise LayoutError(f"{name} = {values[name]!r} does not fit the game flags")
        out |= v << shift
    return out


def pack_mission(card: int, owner: int) -> int:
    if owner not in (0, 1):
        raise LayoutError(f"a mission's owner is seat 0 or 1, not {owner!r}")
    return card | owner << OWNER_SHIFT


def setup_key(values) -> str:
    return SETUP_SEP.join(values)


def pack_cost(slot: int, cost: int) -> int:
    if not (0 <= cost <= MAX_COST and 0 <= slot <= MAX_SLOT):
        raise LayoutError(f"face-up cost {cost} in seat-round {slot} does not fit the cost layout")
    return slot << 8 | cost


# -- the decoding views ---------------------------------------------------------------------
def _field(expr: str, shift: int, bits: int) -> str:
    return f"(({expr} >> {shift}) & {(1 << bits) - 1})"


def _signed(expr: str, shift: int, bits: int) -> str:
    """SQL: a signed ``bits``-bit field of ``expr`` as INTEGER."""
    half = 1 << (bits - 1)
    return f"(xor({_field(expr, shift, bits)}::INTEGER, {half}) - {half})"


def _pick(values: tuple, index_expr: str) -> str:
    """SQL: values[index] (0-based), NULL for a None entry."""
    items = ", ".join("NULL" if v is None else f"'{v}'" for v in values)
    return f"([{items}]::VARCHAR[])[{index_expr} + 1]"


def _setup_join(alias: str = "s", game: str = "g") -> str:
    return f"LEFT JOIN run_setups {alias} ON {alias}.run_id = {game}.run_id AND {alias}.setup = {game}.setup"


def view_sql(temp: bool = False) -> list[str]:
    """CREATE VIEW statements that give back the schema-1 tables from ``game_data``.

    ``temp``: as temporary views, which shadow the file's own for this connection only (what
    mythos itself reads: a view stored in a file is never trusted)."""
    create = "CREATE OR REPLACE TEMP VIEW" if temp else "CREATE OR REPLACE VIEW"
    card_mask = (1 << CARD_BITS) - 1
    mission_joins = "\n".join(
        f"LEFT JOIN run_cards m{i} ON m{i}.run_id = g.run_id AND m{i}.code = (g.missions[{i}] & {card_mask})"
        for i in range(1, MAX_MISSIONS + 1))
    mission_names = ", ".join(f"m{i}.card" for i in range(1, MAX_MISSIONS + 1))
    games = {c: f"g.{c}" for c in GAME_COLUMNS}
    games.update({c: f"s.{c}" for c in SETUP})
    for name, shift, bits, offset, typ in FLAGS:
        v = _field("g.flags", shift, bits) + (f" - {offset}" if offset else "")
        games[name] = f"({v} <> 0) AS {name}" if typ == "BOOLEAN" else f"({v})::{typ} AS {name}"
    games["missions"] = f"[{mission_names}][1:len(g.missions)] AS missions"
    games["mission_owners"] = f"list_transform(g.missions, lambda m: (m >> {OWNER_SHIFT})::TINYINT) AS mission_owners"
    games["round_scores_0"] = f"list_transform(g.round_scores, lambda r: {_signed('r', 0, 16)}) AS round_scores_0"
    games["round_scores_1"] = f"list_transform(g.round_scores, lambda r: {_signed('r', 16, 16)}) AS round_scores_1"
    stats = []
    per = len(ROUND_STATS)
    for group, names in enumerate(ROUND_STATS):
        for f, name in enumerate(names):
            expr = _signed(f"rounds[{per} * k + {group + 1}]", STAT_BITS * f, STAT_BITS)
            stats.append(f"({expr} <> 0) AS {name}" if name == "edge" else f"{expr} AS {name}")
    by_name = dict(zip([n for names in ROUND_STATS for n in names], stats))
    before = ("chakra_gained", "chakra_spent", "chakra_left", "cards_drawn", "played_face_up", "played_hidden",
              "revealed", "upgraded")
    after = ("characters_in_play", "missions_won", "points", "edge")
    opening = EVENT_CODE["opening"]
    x = "x"
    seat = _field(x, SEAT_SHIFT, 1)
    views = [
        ("games", f"""
        SELECT {', '.join(games[c] for c in GAME_COLUMNS)}
        FROM game_data g {_setup_join()}
        {mission_joins}""", "g.run_id, g.game_no"),
        ("player_rounds", f"""
        WITH r AS (SELECT run_id, game_no, setup, rounds, costs, unnest(range(len(rounds) // {per})) AS k
                   FROM game_data)
        SELECT r.run_id, r.game_no, (k % 2)::TINYINT AS seat,
               CASE WHEN k % 2 = 0 THEN s.deck_0 ELSE s.deck_1 END AS deck, (k // 2 + 1)::TINYINT AS round,
               {', '.join(by_name[n] for n in before)},
               list_transform(list_filter(costs, lambda c: (c >> 8) = k), lambda c: (c & 255)::INTEGER)
                   AS cost_face_up,
               {', '.join(by_name[n] for n in after)}
        FROM r {_setup_join(game="r")}""", "r.run_id, r.game_no, k"),
        # in the order the events happened, as schema 1 stored them (the joins would shuffle the
        # rows, and within a round only the order of the rows tells which card came first);
        # the dealt hands first, seat 0's then seat 1's (they sit at the head of the list)
        ("card_events", f"""
        WITH l AS (SELECT run_id, game_no, setup,
                          list_concat(
                              list_transform(
                                  list_filter(events, lambda y:
                                      {_field('y', EVENT_SHIFT, 2)} = {opening}
                                      AND ((flags >> ({DEALT_SHIFT} + {_field('y', SEAT_SHIFT, 1)})) & 1) = 0),
                                  lambda y: y - {opening << EVENT_SHIFT}),
                              events) AS all_events
                   FROM game_data),
             e AS (SELECT run_id, game_no, setup, unnest(all_events) AS x,
                          generate_subscripts(all_events, 1) AS seq
                   FROM l)
        SELECT e.run_id, e.game_no, {seat}::TINYINT AS seat,
               CASE WHEN {seat} = 0 THEN s.deck_0 ELSE s.deck_1 END AS deck,
               c.card,
               {_pick(EVENTS, _field(x, EVENT_SHIFT, 2))} AS event,
               {_field(x, ROUND_SHIFT, 3)}::TINYINT AS round,
               {_pick(HOWS, _field(x, HOW_SHIFT, 3))} AS how,
               {_pick(RANK_CODES, _field(x, RANK_SHIFT, 3))} AS mission_rank,
               CASE {_field(x, WON_SHIFT, 2)} WHEN 1 THEN false WHEN 2 THEN true END AS won_mission
        FROM e {_setup_join(game="e")}
        LEFT JOIN run_cards c ON c.run_id = e.run_id AND c.code = {_field(x, 0, CARD_BITS)}""",
         f"""e.run_id, e.game_no,
                 CASE WHEN {_field(x, EVENT_SHIFT, 2)} = {EVENT_CODE['dealt']} THEN {seat} * 32 + e.seq ELSE 64 + e.seq END"""),
    ]
    stmts = [f"{create} {name} AS {body}\n        ORDER BY {order}" for name, body, order in views]
    if temp:  # mythos's own reads aggregate: the same rows without the sort
        stmts += [f"CREATE OR REPLACE TEMP VIEW {INTERNAL}{name} AS {body}" for name, body, _ in views]
    return stmts


# The views mythos's own queries read (``mythos_games`` …): the rows of ``games`` … in no
# particular order (an aggregate needs no sort of a million games' card events first).
INTERNAL = "mythos_"


def internal_views_over_tables() -> list[str]:
    """Schema 1 keeps the three as tables: the internal names read them as they are."""
    return [f"CREATE OR REPLACE TEMP VIEW {INTERNAL}{t} AS SELECT * FROM {t}"
            for t in ("games", "player_rounds", "card_events")]
