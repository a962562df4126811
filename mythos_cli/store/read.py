"""The reports' reads of one run: SQL stays here, the statistics are Polars.

Memory stays flat however many games a run holds: card events and per-round statistics are
aggregated in DuckDB (whose memory is capped and spills to disk), so what reaches Python is
a table per deck and card, never a row per event; the games themselves come one row per
game with their repeated strings (decks, policies, matchups, missions) as categoricals,
read in slices. Queries read the internal views (``layout.INTERNAL``: the rows without the
public views' sort).

Each helper selects the rows of one run (optionally some decks) and returns a typed Polars
frame; DuckDB errors become ``StoreError`` with an explanation.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import duckdb
import polars as pl

from mythos_cli.store import layout as L
from mythos_cli.store.db import Store, _explain, stored_json
from mythos_cli.store.layout import INTERNAL

GAMES, ROUNDS, EVENTS = (f"{INTERNAL}{t}" for t in ("games", "player_rounds", "card_events"))
SLICE_ROWS = 131_072  # games converted to Polars at a time


def _frame(store: Store, sql: str, params: dict[str, Any]) -> pl.DataFrame:
    try:
        # .pl() keeps DuckDB's column types (lists, tinyints) where a row fetch would not
        return store.con.sql(sql, params=params).pl()
    except duckdb.Error as exc:
        raise _explain(store.path, exc) from None


def newest_finished_run(store: Store) -> str | None:
    """The run that finished last (None when no run has finished)."""
    df = _frame(store, "SELECT run_id FROM runs WHERE status = 'finished' "
                       "ORDER BY finished_at DESC NULLS LAST, started_at DESC LIMIT 1", {})
    return df.item(0, 0) if df.height else None


# the games columns the reports read (``run_games(columns=…)`` reads others), and the strings
# among them that repeat across games
GAME_COLUMNS = ("game_no", "matchup", "studied_seat", "deck_0", "deck_1", "policy_0", "policy_1", "first_edge",
                "missions", "mission_owners", "mulligan_0", "mulligan_1", "score_0", "score_1", "winner",
                "tiebreak_by_edge", "decisions", "rounds")
_REPEATED = {"matchup": "matchup", "deck_0": "deck", "deck_1": "deck", "policy_0": "policy", "policy_1": "policy"}
# columns computed from others (a few bytes a game where the list they count would take more)
_COMPUTED = {"rounds": "len(round_scores_0)::TINYINT"}  # the game's length in rounds


def _categories(store: Store, run_id: str) -> dict[str, list[str]]:
    """The values of the run's repeated strings: matchups, decks, policies and missions."""
    if _dense(store):  # the run's setups and card list hold them all
        rows = _frame(store, "SELECT matchup, deck_0, deck_1, policy_0, policy_1 FROM run_setups WHERE run_id = $run",
                      {"run": run_id})
        missions = _run_cards(store, run_id)
    else:
        rows = _frame(store, f"SELECT DISTINCT matchup, deck_0, deck_1, policy_0, policy_1 FROM {GAMES} "
                             "WHERE run_id = $run", {"run": run_id})
        missions = _frame(store, f"SELECT DISTINCT unnest(missions) AS m FROM {GAMES} WHERE run_id = $run",
                          {"run": run_id})["m"].to_list()
    out: dict[str, set] = {"matchup": set(), "deck": set(), "policy": set()}
    for col, kind in _REPEATED.items():
        out[kind].update(rows[col].to_list())
    found = {k: sorted(v for v in vals if v is not None) for k, vals in out.items()}
    found["missions"] = sorted({m for m in missions if m is not None})
    return found


def _enum(values: list[str]) -> str:
    return "ENUM(" + ", ".join(_literal(v) for v in values) + ")"


def _literal(v: str) -> str:
    return "'" + v.replace("'", "''") + "'"


def run_games(store: Store, run_id: str, columns: Sequence[str] = GAME_COLUMNS) -> pl.DataFrame:
    """One row per game of the run (in no particular order); decks, policies, matchups and
    missions come from DuckDB as enums, so Polars holds them as categoricals (a few bytes a
    game), and the rows are converted a slice at a time."""
    cats = _categories(store, run_id)
    select = []
    for c in columns:
        kind = "missions" if c == "missions" else _REPEATED.get(c)
        if c in _COMPUTED:
            select.append(f"{_COMPUTED[c]} AS {c}")
        elif kind is None or not cats.get(kind):
            select.append(c)
        else:
            select.append(f"{c}::{_enum(cats[kind])}{'[]' if c == 'missions' else ''} AS {c}")
    sql = f"SELECT {', '.join(select)} FROM {GAMES} WHERE run_id = $run"
    return _compact(_slices(store, sql, {"run": run_id}))


def _compact(df: pl.DataFrame) -> pl.DataFrame:
    """Repeated strings as categoricals (DuckDB's enums arrive so; an empty read does not)."""
    cast = [pl.col(c).cast(pl.Categorical) for c in _REPEATED if c in df.columns and df.schema[c] == pl.String]
    if "missions" in df.columns and df.schema["missions"] == pl.List(pl.String):
        cast.append(pl.col("missions").cast(pl.List(pl.Categorical)))
    return df.with_columns(cast) if cast else df


def _decks_filter(decks: Sequence[str] | None, params: dict, column: str = "deck") -> str:
    if decks is None:
        return ""
    params["decks"] = list(decks)
    return f" AND list_contains($decks, {column})"


def _cost_table(costs: Mapping[str, int | None], params: dict) -> str:
    """A CTE ``c(card, cost)`` from the reports' card facts (parameters, not a registered frame)."""
    params["cards"] = list(costs)
    params["costs"] = [None if v is None else int(v) for v in costs.values()]
    return "c AS (SELECT unnest($cards::VARCHAR[]) AS card, unnest($costs::INTEGER[]) AS cost)"


def opening_hands(store: Store, run_id: str, costs: Mapping[str, int | None], cheap: int,
                  decks: Sequence[str] | None = None) -> pl.DataFrame:
    """Per (game, seat) of these decks: the kept hand's cards, its cards of cost ≤ ``cheap``
    and its total cost (a card of unknown cost counts for neither)."""
    if _dense(store):
        return _opening_hands_dense(store, run_id, costs, cheap, decks)
    return opening_hands_rows(store, run_id, costs, cheap, decks)


def opening_hands_rows(store: Store, run_id: str, costs: Mapping[str, int | None], cheap: int,
                       decks: Sequence[str] | None = None) -> pl.DataFrame:
    """``opening_hands`` from the card_events rows (any schema)."""
    params: dict[str, Any] = {"run": run_id, "cheap": cheap}
    sql = (f"WITH {_cost_table(costs, params)} "
           f"SELECT e.game_no, e.seat, list(e.card) AS hand, "
           "count(*) FILTER (WHERE c.cost <= $cheap)::INTEGER AS cheap, "
           "coalesce(sum(c.cost), 0)::INTEGER AS total_cost "
           f"FROM {EVENTS} e LEFT JOIN c USING (card) "
           f"WHERE e.run_id = $run AND e.event = 'opening'{_decks_filter(decks, params, 'e.deck')} "
           "GROUP BY e.game_no, e.seat")
    df = _frame(store, sql, params)
    return df.with_columns(pl.col("hand").cast(pl.List(pl.Categorical))) if df.height else df


def first_seen(store: Store, run_id: str, costs: Mapping[str, int | None], cheap: int,
               decks: Sequence[str] | None = None, by_opponent: bool = False) -> tuple[pl.DataFrame, pl.DataFrame]:
    """When each cost was first seen (the kept hand is round 0, then the rounds' draws).

    Two counts of game-seats: ``(deck, cost, first, n)``, and for any card of cost ≤
    ``cheap``: ``(deck, first, n)``; ``by_opponent``: ``opponent`` after ``deck``. A card of
    unknown cost counts as cost 0."""
    if _dense(store):
        return _first_seen_dense(store, run_id, costs, cheap, decks, by_opponent)
    return first_seen_rows(store, run_id, costs, cheap, decks, by_opponent)


def first_seen_rows(store: Store, run_id: str, costs: Mapping[str, int | None], cheap: int,
                    decks: Sequence[str] | None = None, by_opponent: bool = False) -> tuple[pl.DataFrame, pl.DataFrame]:
    """``first_seen`` from the card_events rows (any schema)."""
    params: dict[str, Any] = {"run": run_id, "cheap": cheap}
    o = ", opponent" if by_opponent else ""
    base = (f"WITH {_cost_table(costs, params)}, "
            f"g AS (SELECT game_no, deck_0::VARCHAR AS d0, deck_1::VARCHAR AS d1 FROM {GAMES} WHERE run_id = $run), "
            "f AS (SELECT e.game_no, e.seat, e.deck, CASE WHEN e.seat = 0 THEN g.d1 ELSE g.d0 END AS opponent, "
            "coalesce(c.cost, 0) AS cost, "
            "min(CASE WHEN e.event = 'opening' THEN 0 ELSE e.round END)::INTEGER AS first "
            f"FROM {EVENTS} e LEFT JOIN c USING (card) JOIN g USING (game_no) "
            f"WHERE e.run_id = $run AND e.event IN ('opening', 'drawn'){_decks_filter(decks, params, 'e.deck')} "
            "GROUP BY e.game_no, e.seat, e.deck, opponent, coalesce(c.cost, 0)) ")
    by_cost = _frame(store, base + f"SELECT deck{o}, cost, first, count(*)::INTEGER AS n FROM f "
                                   f"GROUP BY deck{o}, cost, first ORDER BY deck{o}, cost, first",
                     {k: v for k, v in params.items() if k != "cheap"})
    any_cheap = _frame(store, base + f"SELECT deck{o}, first, count(*)::INTEGER AS n FROM "
                                     f"(SELECT game_no, seat, deck, opponent, min(first) AS first FROM f "
                                     f"WHERE cost <= $cheap GROUP BY game_no, seat, deck, opponent) "
                                     f"GROUP BY deck{o}, first ORDER BY deck{o}, first", params)
    return by_cost, any_cheap


def card_counts(store: Store, run_id: str, decks: Sequence[str] | None = None,
                by_opponent: bool = False) -> pl.DataFrame:
    """Per (deck, card): game-seats where a copy was in the kept hand (``oh``), drawn later and
    not in the kept hand (``gd``), each with the seat's wins (``_w``); ``by_opponent``: per
    (deck, opponent, card)."""
    if _dense(store):
        return _card_counts_dense(store, run_id, decks, by_opponent)
    return card_counts_rows(store, run_id, decks, by_opponent)


def card_counts_rows(store: Store, run_id: str, decks: Sequence[str] | None = None,
                     by_opponent: bool = False) -> pl.DataFrame:
    """``card_counts`` from the card_events rows (any schema; a hash table per game-seat-card)."""
    params: dict[str, Any] = {"run": run_id}
    opp = "CASE WHEN f.seat = 0 THEN w.deck_1 ELSE w.deck_0 END"
    keys = f"f.deck, {opp}, f.card" if by_opponent else "f.deck, f.card"
    sql = ("WITH f AS (SELECT game_no, seat, deck, card, bool_or(event = 'opening') AS opening, "
           "bool_or(event = 'drawn') AS drawn "
           f"FROM {EVENTS} WHERE run_id = $run AND event IN ('opening', 'drawn'){_decks_filter(decks, params)} "
           "GROUP BY game_no, seat, deck, card), "
           f"w AS (SELECT game_no, winner, deck_0::VARCHAR AS deck_0, deck_1::VARCHAR AS deck_1 FROM {GAMES} "
           "WHERE run_id = $run) "
           "SELECT f.deck, " + (f"{opp} AS opponent, " if by_opponent else "") + "f.card, "
           "count(*) FILTER (WHERE opening)::INTEGER AS oh_n, "
           "count(*) FILTER (WHERE opening AND w.winner = f.seat)::INTEGER AS oh_w, "
           "count(*) FILTER (WHERE drawn AND NOT opening)::INTEGER AS gd_n, "
           "count(*) FILTER (WHERE drawn AND NOT opening AND w.winner = f.seat)::INTEGER AS gd_w "
           f"FROM f JOIN w USING (game_no) GROUP BY {keys} ORDER BY {keys}")
    return _frame(store, sql, params)


def played_counts(store: Store, run_id: str, decks: Sequence[str] | None = None,
                  by_opponent: bool = False) -> pl.DataFrame:
    """Per (deck, card): game-seats where a copy was played (face up, hidden, as an upgrade or an
    attachment; a reveal is the same card again) ``n``, their wins ``w``, and the sum of the round
    of each seat's first play of it ``rounds`` (its mean: ``rounds / n``)."""
    if _dense(store):
        return _played_counts_dense(store, run_id, decks, by_opponent)
    return played_counts_rows(store, run_id, decks, by_opponent)


def played_counts_rows(store: Store, run_id: str, decks: Sequence[str] | None = None,
                       by_opponent: bool = False) -> pl.DataFrame:
    """``played_counts`` from the card_events rows (any schema)."""
    params: dict[str, Any] = {"run": run_id}
    opp = "CASE WHEN f.seat = 0 THEN w.deck_1 ELSE w.deck_0 END"
    keys = f"f.deck, {opp}, f.card" if by_opponent else "f.deck, f.card"
    sql = ("WITH f AS (SELECT game_no, seat, deck, card, min(round) AS first "
           f"FROM {EVENTS} WHERE run_id = $run AND event = 'played' AND how <> 'reveal'"
           f"{_decks_filter(decks, params)} GROUP BY game_no, seat, deck, card), "
           f"w AS (SELECT game_no, winner, deck_0::VARCHAR AS deck_0, deck_1::VARCHAR AS deck_1 FROM {GAMES} "
           "WHERE run_id = $run) "
           "SELECT f.deck, " + (f"{opp} AS opponent, " if by_opponent else "") + "f.card, count(*)::INTEGER AS n, "
           "count(*) FILTER (WHERE w.winner = f.seat)::INTEGER AS w, "
           f"sum(f.first)::BIGINT AS rounds FROM f JOIN w USING (game_no) GROUP BY {keys} ORDER BY {keys}")
    return _frame(store, sql, params)


def mission_counts(store: Store, run_id: str, decks: Sequence[str] | None = None,
                   by_opponent: bool = False) -> pl.DataFrame:
    """Per (deck, mission): game-seats where one of the seat's own missions in play was that
    mission ``n`` (a mission twice counts once), and their wins ``w``; ``by_opponent``: per
    (deck, opponent, mission)."""
    params: dict[str, Any] = {"run": run_id}
    seats = " UNION ALL ".join(
        f"SELECT deck_{s}::VARCHAR AS deck, deck_{1 - s}::VARCHAR AS opponent, winner = {s} AS won, "
        f"list_distinct(list_filter(missions, lambda m, i: mission_owners[i] = {s})) AS own "
        f"FROM {GAMES} WHERE run_id = $run" for s in (0, 1))
    keys = "deck, opponent, mission" if by_opponent else "deck, mission"
    sql = (f"WITH s AS ({seats}), m AS (SELECT deck, opponent, won, unnest(own) AS mission FROM s "
           f"WHERE true{_decks_filter(decks, params)}) "
           f"SELECT {keys}, count(*)::INTEGER AS n, count(*) FILTER (WHERE won)::INTEGER AS w FROM m "
           f"GROUP BY {keys} ORDER BY {keys}")
    return _frame(store, sql, params)


ROUND_MOMENTS = ("chakra_gained", "chakra_spent", "chakra_left")
ROUND_MEANS = ("cards_drawn", "characters_in_play")


def round_moments(store: Store, run_id: str, decks: Sequence[str] | None = None,
                  by_opponent: bool = False) -> pl.DataFrame:
    """Per (deck, round): the seat-rounds ``n``; for each of ``ROUND_MOMENTS`` its sum and sum
    of squares (``x_1``, ``x_2``: a mean and its interval without the rows); sums of
    ``ROUND_MEANS``; ``by_opponent``: per (deck, opponent, round)."""
    params: dict[str, Any] = {"run": run_id}
    moments = ", ".join(f"sum({c})::BIGINT AS {c}_1, sum({c}::BIGINT * {c})::BIGINT AS {c}_2" for c in ROUND_MOMENTS)
    sums = ", ".join(f"sum({c})::BIGINT AS {c}_1" for c in ROUND_MEANS)
    if not by_opponent:
        sql = (f"SELECT deck, round::INTEGER AS round, count(*)::INTEGER AS n, {moments}, {sums} FROM {ROUNDS} "
               f"WHERE run_id = $run{_decks_filter(decks, params)} GROUP BY deck, round ORDER BY deck, round")
        return _frame(store, sql, params)
    sql = (f"WITH g AS (SELECT game_no, deck_0::VARCHAR AS d0, deck_1::VARCHAR AS d1 FROM {GAMES} WHERE run_id = $run), "
           f"r AS (SELECT p.*, CASE WHEN p.seat = 0 THEN g.d1 ELSE g.d0 END AS opponent FROM {ROUNDS} p "
           f"JOIN g USING (game_no) WHERE p.run_id = $run{_decks_filter(decks, params, 'p.deck')}) "
           f"SELECT deck, opponent, round::INTEGER AS round, count(*)::INTEGER AS n, {moments}, {sums} FROM r "
           "GROUP BY deck, opponent, round ORDER BY deck, opponent, round")
    return _frame(store, sql, params)


# -- schema 2: straight from the dense game rows -----------------------------------------------
# The same counts as the *_rows functions, computed per game row with list functions on its
# packed card events (see ``layout``): one pass over game_data, and the only hash tables are
# per deck and card. A million games take seconds and DuckDB's memory stays small.
_CARD = f"(e & {(1 << L.CARD_BITS) - 1})"
_SEAT = L._field("e", L.SEAT_SHIFT, 1)
_EVENT = L._field("e", L.EVENT_SHIFT, 2)
_ROUND = L._field("e", L.ROUND_SHIFT, 3)
_WINNER = next(f"({L._field('flags', sh, bits)} - {off})" for n, sh, bits, off, _ in L.FLAGS if n == "winner")


def _dense(store: Store) -> bool:
    return bool(store.version and store.version >= 2)


def _run_cards(store: Store, run_id: str) -> list[str]:
    try:
        return store.run_cards(run_id)
    except duckdb.Error as exc:
        raise _explain(store.path, exc) from None


def _seats_sql(run_id_param: str, columns: str, decks: Sequence[str] | None, params: dict) -> str:
    """One row per game and seat of the run: ``columns`` of game_data, ``seat``, its ``deck``."""
    where = ""
    if decks is not None:
        params["decks"] = list(decks)
        where = " WHERE list_contains($decks, deck)"
    return (f"SELECT * FROM (SELECT {columns}, v.seat, CASE v.seat WHEN 0 THEN st.deck_0 ELSE st.deck_1 END AS deck, "
            "CASE v.seat WHEN 0 THEN st.deck_1 ELSE st.deck_0 END AS opponent "
            f"FROM game_data g CROSS JOIN (SELECT unnest([0, 1]) AS seat) v "
            f"JOIN run_setups st ON st.run_id = g.run_id AND st.setup = g.setup "
            f"WHERE g.run_id = {run_id_param}){where}")


def _seat_events(event: int) -> str:
    """The card codes of this seat's events of one kind (SQL, a list per seat row)."""
    return f"list_transform(list_filter(events, lambda e: {_EVENT} = {event} AND {_SEAT} = seat), lambda e: {_CARD})"


def _card_counts_dense(store: Store, run_id: str, decks: Sequence[str] | None,
                       by_opponent: bool = False) -> pl.DataFrame:
    params: dict[str, Any] = {"run": run_id}
    opening, drawn = L.EVENT_CODE["opening"], L.EVENT_CODE["drawn"]
    keys = "u.deck, u.opponent, c.card" if by_opponent else "u.deck, c.card"
    sql = (f"WITH s AS (SELECT deck, opponent, {_WINNER} = seat AS won, list_distinct({_seat_events(opening)}) AS oh, "
           f"list_distinct({_seat_events(drawn)}) AS dr "
           f"FROM ({_seats_sql('$run', 'g.flags, g.events', decks, params)})), "
           "u AS (SELECT deck, opponent, won, unnest(oh) AS code, true AS opening FROM s "
           "UNION ALL SELECT deck, opponent, won, unnest(list_filter(dr, lambda c: NOT list_contains(oh, c))) AS code, "
           "false AS opening FROM s) "
           "SELECT u.deck, " + ("u.opponent, " if by_opponent else "") + "c.card, "
           "count(*) FILTER (WHERE opening)::INTEGER AS oh_n, "
           "count(*) FILTER (WHERE opening AND won)::INTEGER AS oh_w, "
           "count(*) FILTER (WHERE NOT opening)::INTEGER AS gd_n, "
           "count(*) FILTER (WHERE NOT opening AND won)::INTEGER AS gd_w "
           "FROM u JOIN run_cards c ON c.run_id = $run AND c.code = u.code "
           f"GROUP BY {keys} ORDER BY {keys}")
    return _frame(store, sql, params)


_HOW = L._field("e", L.HOW_SHIFT, 3)


def _played_counts_dense(store: Store, run_id: str, decks: Sequence[str] | None,
                         by_opponent: bool = False) -> pl.DataFrame:
    params: dict[str, Any] = {"run": run_id}
    played, reveal = L.EVENT_CODE["played"], L.HOW_CODE["reveal"]
    # this seat's plays as (card code, round) packed in one integer; sorted, the first of a code
    # holds the round of its first play
    plays = (f"list_sort(list_transform(list_filter(events, lambda e: {_SEAT} = seat AND {_EVENT} = {played} "
             f"AND {_HOW} NOT IN (0, {reveal})), lambda e: {_CARD} * 8 + {_ROUND}))")
    keys = "m.deck, m.opponent, c.card" if by_opponent else "m.deck, c.card"
    sql = (f"WITH s AS (SELECT deck, opponent, {_WINNER} = seat AS won, {plays} AS p "
           f"FROM ({_seats_sql('$run', 'g.flags, g.events', decks, params)})), "
           "m AS (SELECT deck, opponent, won, unnest(list_filter(p, lambda x, i: i = 1 OR p[i - 1] // 8 <> x // 8)) AS x "
           "FROM s) "
           "SELECT m.deck, " + ("m.opponent, " if by_opponent else "") + "c.card, count(*)::INTEGER AS n, "
           "count(*) FILTER (WHERE won)::INTEGER AS w, sum(x % 8)::BIGINT AS rounds "
           "FROM m JOIN run_cards c ON c.run_id = $run AND c.code = m.x // 8 "
           f"GROUP BY {keys} ORDER BY {keys}")
    return _frame(store, sql, params)


def _cost_list(store: Store, run_id: str, costs: Mapping[str, int | None]) -> list[int | None]:
    """The cost of each card code of the run (its card list's order), None when unknown."""
    return [costs.get(card) for card in _run_cards(store, run_id)]


def _first_seen_dense(store: Store, run_id: str, costs: Mapping[str, int | None], cheap: int,
                      decks: Sequence[str] | None, by_opponent: bool = False) -> tuple[pl.DataFrame, pl.DataFrame]:
    o = ", opponent" if by_opponent else ""
    by_code = _cost_list(store, run_id, costs)
    params: dict[str, Any] = {"run": run_id, "cost": by_code, "cheap": cheap}
    opening, drawn = L.EVENT_CODE["opening"], L.EVENT_CODE["drawn"]
    cost = f"coalesce(($cost::INTEGER[])[{_CARD} + 1], 0)"
    first = f"CASE WHEN {_EVENT} = {opening} THEN 0 ELSE {_ROUND} END"
    # this seat's kept hand and draws, as (cost, first round) pairs packed in one integer
    seen = (f"list_transform(list_filter(events, lambda e: {_SEAT} = seat AND {_EVENT} IN ({opening}, {drawn})), "
            f"lambda e: {cost} * 8 + {first})")
    # sorted, the first pair of each cost holds its first round: keep those, one row each
    sql = (f"WITH s AS (SELECT deck, opponent, list_sort({seen}) AS seen "
           f"FROM ({_seats_sql('$run', 'g.events', decks, params)})), "
           "m AS (SELECT deck, opponent, unnest(list_filter(seen, lambda x, i: i = 1 OR seen[i - 1] // 8 <> x // 8)) "
           "AS x FROM s) "
           f"SELECT deck{o}, (x // 8)::INTEGER AS cost, (x % 8)::INTEGER AS first, count(*)::INTEGER AS n FROM m "
           f"GROUP BY deck{o}, cost, first ORDER BY deck{o}, cost, first")
    by_cost = _frame(store, sql, {k: v for k, v in params.items() if k not in ("cheap", "top")})
    sql = (f"WITH s AS (SELECT deck, opponent, {seen} AS seen FROM ({_seats_sql('$run', 'g.events', decks, params)})), "
           "m AS (SELECT deck, opponent, list_min(list_transform(list_filter(seen, lambda x: x // 8 <= $cheap), "
           "lambda x: x % 8)) AS first FROM s) "
           f"SELECT deck{o}, first::INTEGER AS first, count(*)::INTEGER AS n FROM m WHERE first IS NOT NULL "
           f"GROUP BY deck{o}, first ORDER BY deck{o}, first")
    any_cheap = _frame(store, sql, params)
    return by_cost, any_cheap


def _opening_hands_dense(store: Store, run_id: str, costs: Mapping[str, int | None], cheap: int,
                         decks: Sequence[str] | None) -> pl.DataFrame:
    cards = _run_cards(store, run_id)
    params: dict[str, Any] = {"run": run_id, "cost": [costs.get(c) for c in cards], "cheap": cheap}
    opening = L.EVENT_CODE["opening"]
    # a hand leaves DuckDB as a list of enum values (the run's card list): Polars categoricals
    names = f"list_transform(hand, lambda c: {_list_literal(cards)}[c + 1])::{_enum(cards)}[]" if cards else "hand"
    sql = (f"WITH s AS (SELECT g_no AS game_no, seat, {_seat_events(opening)} AS hand "
           f"FROM ({_seats_sql('$run', 'g.game_no AS g_no, g.events', decks, params)})) "
           f"SELECT game_no, seat::TINYINT AS seat, {names} AS hand, "
           "len(list_filter(hand, lambda c: ($cost::INTEGER[])[c + 1] <= $cheap))::INTEGER AS cheap, "
           "coalesce(list_sum(list_transform(hand, lambda c: ($cost::INTEGER[])[c + 1])), 0)::INTEGER AS total_cost "
           "FROM s WHERE len(hand) > 0")
    df = _slices(store, sql, params)
    return df.with_columns(pl.col("hand").cast(pl.List(pl.Categorical))) if df.schema["hand"] != \
        pl.List(pl.Categorical) else df


def _list_literal(values: list[str]) -> str:
    return "[" + ", ".join(_literal(v) for v in values) + "]"


def _slices(store: Store, sql: str, params: dict[str, Any]) -> pl.DataFrame:
    """A query's rows converted to Polars a slice at a time (never the whole result twice)."""
    try:
        rel = store.con.sql(sql, params=params)
        parts = [pl.from_arrow(batch) for batch in rel.to_arrow_reader(SLICE_ROWS)]
    except duckdb.Error as exc:
        raise _explain(store.path, exc) from None
    if not parts:
        return _frame(store, f"SELECT * FROM ({sql}) LIMIT 0", params)
    return pl.concat(parts, rechunk=False) if len(parts) > 1 else parts[0]


# -- the rows themselves (small runs, tests and tools: these load every row) ------------------
def run_player_rounds(store: Store, run_id: str, decks: Sequence[str] | None = None) -> pl.DataFrame:
    sql = ("SELECT game_no, seat, deck, round, chakra_gained, chakra_spent, chakra_left, cards_drawn, "
           f"played_face_up, played_hidden, revealed, upgraded, characters_in_play, missions_won, points "
           f"FROM {ROUNDS} WHERE run_id = $run")
    params: dict[str, Any] = {"run": run_id}
    return _frame(store, sql + _decks_filter(decks, params), params)


def run_card_events(store: Store, run_id: str, events: Sequence[str],
                    decks: Sequence[str] | None = None) -> pl.DataFrame:
    """Card events of a run: ``dealt``, ``opening``, ``drawn``, ``played`` (any subset), one row each."""
    sql = ("SELECT game_no, seat, deck, card, event, round, how, mission_rank, won_mission "
           f"FROM {EVENTS} WHERE run_id = $run AND list_contains($events, event)")
    params: dict[str, Any] = {"run": run_id, "events": list(events)}
    return _frame(store, sql + _decks_filter(decks, params), params)



def foreign_cards(store: Store, run_id: str, lists: dict[str, Sequence[str]]) -> dict[str, list[str]]:
    """Per deck of a run: the cards its stored card events name that none of the run's deck lists
    holds (a game row changed after it was stored, or written by no mythos). A deck's events may
    name its opponent's cards (a card taken or played from the other side), so the run's lists
    together are the bound. Empty for a run as played."""
    known = {c for cards in lists.values() for c in cards}
    df = _frame(store, f"SELECT deck, list(DISTINCT card) AS cards FROM {EVENTS} WHERE run_id = $run GROUP BY deck",
                {"run": run_id})
    out: dict[str, list[str]] = {}
    for deck, cards in df.iter_rows():
        extra = sorted({c for c in cards if c is not None} - known)
        if extra:
            out[str(deck)] = extra
    return out


def stored_game(store: Store, run_id: str, game_no: int) -> dict | None:
    """One game's stored row (``game_data``) with its setup's strings, or None."""
    from mythos_cli.store import layout

    cols = ", ".join(f"g.{c}" for c, _ in layout.GAME_DATA) + ", " + ", ".join(f"s.{c}" for c in layout.SETUP)
    df = _frame(store, f"SELECT {cols} FROM game_data g JOIN run_setups s ON s.run_id = g.run_id AND "
                       "s.setup = g.setup WHERE g.run_id = $run AND g.game_no = $game", {"run": run_id, "game": game_no})
    return df.row(0, named=True) if df.height else None


def losses(store: Store, run_id: str, deck: str, opponent: str, limit: int = 5) -> list[int]:
    """Game numbers of the run's games ``deck`` lost to ``opponent`` (either seat), first ones first."""
    df = _frame(store, f"SELECT game_no FROM {GAMES} WHERE run_id = $run AND ((deck_0 = $d AND deck_1 = $o AND winner = 1)"
                       " OR (deck_1 = $d AND deck_0 = $o AND winner = 0)) ORDER BY game_no LIMIT $n",
                {"run": run_id, "d": deck, "o": opponent, "n": limit})
    return df["game_no"].to_list() if df.height else []


def run_decks(store: Store) -> dict[str, dict[str, list[str]]]:
    """Per run: the names of its studied decks and of its opponents (from its configuration)."""

    out: dict[str, dict[str, list[str]]] = {}
    try:
        rows = store.con.execute("SELECT run_id, config FROM runs").fetchall()
    except duckdb.Error as exc:  # a damaged file: said as every other read says it
        raise _explain(store.path, exc) from None
    for run_id, cfg in rows:
        try:
            c = stored_json(cfg) or {}
            names = [d["name"] for d in c.get("decks", [])]
            out[run_id] = {"studied": [names[i] for i in c.get("studied", []) if i < len(names)],
                           "opponents": [names[i] for i in c.get("opponents", []) if i < len(names)]}
        except (ValueError, KeyError, TypeError):
            out[run_id] = {"studied": [], "opponents": []}
    return out
