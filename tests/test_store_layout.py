"""Schema 2: dense game rows decode to exactly the schema-1 tables; schema-1 files migrate or read as they are."""

from __future__ import annotations

import json

import duckdb
import polars as pl
import pytest

from mythos_cli import __version__
from mythos_cli.policies import make_policy, play_match
from mythos_cli.sim import RunConfig, execute, load_specs, start_run
from mythos_cli.sim.decks import default_gauntlet
from mythos_cli.sim.runner import catalog_hash
from mythos_cli.sim.record import BatchRecorder, game_rows
from mythos_cli.sim.worker import run_batch
from mythos_cli.store import SCHEMA_VERSION, StoreError, open_store
from mythos_cli.store.db import card_list
from mythos_cli.store.layout import LayoutError, pack_cost, pack_event, pack_scores, pack_stats

# schema 1 as it was written (the reference the views must reproduce)
V1_DDL = [
    "CREATE TABLE meta (key VARCHAR PRIMARY KEY, value VARCHAR)",
    """CREATE TABLE runs (
        run_id VARCHAR PRIMARY KEY, name VARCHAR, config JSON, seed UBIGINT,
        policy_a VARCHAR, policy_b VARCHAR, mulligan VARCHAR,
        engine_version VARCHAR, catalog_hash VARCHAR,
        planned_games INTEGER, planned_batches INTEGER,
        started_at TIMESTAMP, finished_at TIMESTAMP, status VARCHAR)""",
    """CREATE TABLE batches (
        run_id VARCHAR, batch_no INTEGER, games INTEGER, stored_at TIMESTAMP,
        PRIMARY KEY (run_id, batch_no))""",
    """CREATE TABLE games (
        run_id VARCHAR, game_no INTEGER, batch_no INTEGER, matchup VARCHAR, studied_seat TINYINT,
        deck_0 VARCHAR, deck_0_hash VARCHAR, deck_1 VARCHAR, deck_1_hash VARCHAR,
        policy_0 VARCHAR, policy_1 VARCHAR, seed UBIGINT, first_edge TINYINT,
        missions VARCHAR[], mission_owners TINYINT[], mulligan_0 BOOLEAN, mulligan_1 BOOLEAN,
        round_scores_0 INTEGER[], round_scores_1 INTEGER[], score_0 INTEGER, score_1 INTEGER,
        winner TINYINT, tiebreak_by_edge BOOLEAN, final_edge TINYINT, decisions INTEGER,
        PRIMARY KEY (run_id, game_no))""",
    """CREATE TABLE player_rounds (
        run_id VARCHAR, game_no INTEGER, seat TINYINT, deck VARCHAR, round TINYINT,
        chakra_gained INTEGER, chakra_spent INTEGER, chakra_left INTEGER, cards_drawn INTEGER,
        played_face_up INTEGER, played_hidden INTEGER, revealed INTEGER, upgraded INTEGER,
        cost_face_up INTEGER[], characters_in_play INTEGER, missions_won INTEGER,
        points INTEGER, edge BOOLEAN)""",
    """CREATE TABLE card_events (
        run_id VARCHAR, game_no INTEGER, seat TINYINT, deck VARCHAR, card VARCHAR,
        event VARCHAR, round TINYINT, how VARCHAR, mission_rank VARCHAR, won_mission BOOLEAN)""",
]
ORDER = {"games": ["game_no"], "player_rounds": ["game_no", "seat", "round"],
         "card_events": ["game_no", "seat", "event", "round", "card", "how", "mission_rank", "won_mission"]}


@pytest.fixture(scope="module")
def specs():
    return load_specs(default_gauntlet()[:3])


def config(specs, mulligan=None, games=4):
    return RunConfig(decks=specs, opponents=[0, 1, 2], studied=[0, 1, 2], games=games, policy_a="greedy",
                     policy_b="random", mulligan=mulligan, seed=11, batch_size=5)


def reference_rows(run_id: str, cfg: RunConfig) -> tuple[list[dict], list[dict], list[dict]]:
    """The games of ``cfg`` played here one decision at a time and read from the core's event stream
    by ``game_rows`` (not by the packing under test), as schema-1 rows (what schema 1 stored)."""
    cfg.plan()
    games, rounds, cards = [], [], []
    for bno, batch in enumerate(cfg.batches()):
        for job in batch:
            m = cfg.matchups[job.matchup]
            st, op = cfg.decks[m.deck], cfg.decks[m.opponent]
            decks, pols = ((st, op), (cfg.policy_a, cfg.policy_b)) if job.seat_of_deck == 0 else \
                ((op, st), (cfg.policy_b, cfg.policy_a))
            pa, pb = make_policy(pols[0], cfg.mulligan), make_policy(pols[1], cfg.mulligan)
            r = play_match(decks[0], decks[1], pa, pb, job.seed, events=True)
            g, rs, cs = game_rows(r.game, {
                "run_id": run_id, "game_no": job.game_no, "batch_no": bno, "matchup": m.label,
                "studied_seat": job.seat_of_deck, "deck_0": decks[0].name, "deck_0_hash": decks[0].hash,
                "deck_1": decks[1].name, "deck_1_hash": decks[1].hash, "policy_0": pa.spec, "policy_1": pb.spec,
                "seed": job.seed})
            games.append(g)
            rounds.extend(rs)
            cards.extend(cs)
    return games, rounds, cards


def write_v1(path, run_id, cfg, rows, batches=None) -> None:
    """A schema-1 file holding ``rows`` (only the games of ``batches``, when given), stored as
    played by this mythos (it played them: a run of another version is not resumed)."""
    games, rounds, cards = rows
    if batches is not None:
        keep = {g["game_no"] for g in games if g["batch_no"] in batches}
        games = [g for g in games if g["game_no"] in keep]
        rounds = [r for r in rounds if r["game_no"] in keep]
        cards = [c for c in cards if c["game_no"] in keep]
    con = duckdb.connect(str(path))
    for stmt in V1_DDL:
        con.execute(stmt)
    con.execute("INSERT INTO meta VALUES ('schema_version', '1')")
    con.execute("INSERT INTO runs VALUES (?, ?, ?, 11, 'greedy', 'random', '', ?, ?, ?, ?, now(), NULL, ?)",
                [run_id, run_id, json.dumps(cfg.to_json()), __version__, catalog_hash(), len(cfg.jobs()), len(cfg.batches()),
                 "interrupted" if batches is not None else "finished"])
    for table, data in zip(("games", "player_rounds", "card_events"), (games, rounds, cards)):
        con.register("_d", pl.DataFrame(data, infer_schema_length=None))
        con.execute(f"INSERT INTO {table} BY NAME SELECT * FROM _d")
        con.unregister("_d")
    for b in sorted({g["batch_no"] for g in games}):
        con.execute("INSERT INTO batches VALUES (?, ?, ?, now())", [run_id, b, sum(g["batch_no"] == b for g in games)])
    con.close()


def read_tables(path, run_id, read_only=True) -> dict[str, pl.DataFrame]:
    with open_store(path, read_only=read_only) as s:
        return {t: s.table(t, run_id).sort(keys, nulls_last=True) for t, keys in ORDER.items()}


@pytest.mark.parametrize("mulligan", [None, "always"])
def test_views_give_back_the_schema_1_rows(tmp_path, specs, mulligan):
    cfg = config(specs, mulligan)
    with open_store(tmp_path / "v2.duckdb") as s:
        start_run(s, cfg, "r", "r")
        execute(s, "r", cfg, workers=1)
    got = read_tables(tmp_path / "v2.duckdb", "r")
    write_v1(tmp_path / "v1.duckdb", "r", cfg, reference_rows("r", config(specs, mulligan)))
    want = read_tables(tmp_path / "v1.duckdb", "r")  # read-only: schema 1 is read as it is
    for t in ORDER:
        assert got[t].schema == want[t].schema, t
        assert got[t].equals(want[t]), t
    # and card events come in the order they happened, as schema 1 stored them
    with open_store(tmp_path / "v2.duckdb", read_only=True) as a, open_store(tmp_path / "v1.duckdb", read_only=True) as b:
        assert a.table("card_events", "r").equals(b.table("card_events", "r"))
    events = got["card_events"]
    if mulligan == "always":  # every dealt hand differs from the kept one: all stored explicitly
        assert events.filter(pl.col("event") == "dealt").height == got["games"].height * 10
    assert events.filter(pl.col("event") == "opening").height == got["games"].height * 10


def test_recorder_packs_rows_like_the_engine_path(specs):
    cfg = config(specs, "always")
    cfg.plan()
    jobs = cfg.batches()[0]
    engine = run_batch("r", cfg, 0, jobs)["game_data"]
    games, rounds, cards = reference_rows("r", config(specs, "always"))
    rec = BatchRecorder(card_list(cfg.to_json()))
    for g in games[:len(jobs)]:
        rec.add_rows(g, [r for r in rounds if r["game_no"] == g["game_no"]],
                     [c for c in cards if c["game_no"] == g["game_no"]])
    assert rec.frames()["game_data"].equals(engine)


def test_schema_1_file_migrates_to_the_same_tables(tmp_path, specs):
    cfg = config(specs)
    db = tmp_path / "old.duckdb"
    write_v1(db, "r", cfg, reference_rows("r", config(specs)))
    before = read_tables(db, "r")
    with open_store(db) as s:  # opened for writing: migrated
        assert s.con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchall() == [(str(SCHEMA_VERSION),)]
        kinds = dict(s.con.execute("SELECT table_name, table_type FROM information_schema.tables").fetchall())
        assert kinds["games"] == "VIEW" and kinds["game_data"] == "BASE TABLE"
        assert s.run_cards("r") == card_list(cfg.to_json())
    after = read_tables(db, "r")
    for t in ORDER:
        assert after[t].equals(before[t]), t
    with open_store(db) as s:
        s.delete_run("r")
        assert s.con.execute("SELECT count(*) FROM game_data").fetchall() == [(0,)]
        assert s.con.execute("SELECT count(*) FROM run_cards").fetchall() == [(0,)]


def test_run_interrupted_under_schema_1_resumes_to_the_same_rows(tmp_path, specs):
    rows = reference_rows("r", config(specs))
    db = tmp_path / "old.duckdb"
    write_v1(db, "r", config(specs), rows, batches={0, 2})
    with open_store(db) as s:
        assert s.done_batches("r") == {0, 2}
        execute(s, "r", config(specs), workers=2)
    write_v1(tmp_path / "full.duckdb", "r", config(specs), rows)
    got, want = read_tables(db, "r"), read_tables(tmp_path / "full.duckdb", "r")
    for t in ORDER:
        assert got[t].drop("batch_no", strict=False).equals(want[t].drop("batch_no", strict=False)), t


def test_several_batches_in_one_transaction_all_or_nothing(tmp_path, specs):
    cfg = config(specs)
    cfg.plan()
    bs = cfg.batches()
    frames = [run_batch("r", cfg, i, bs[i]) for i in range(3)]
    with open_store(tmp_path / "w.duckdb") as s:
        start_run(s, cfg, "r", "r")
        s.write_batches("r", [(0, frames[0]), (1, frames[1])])
        assert s.done_batches("r") == {0, 1}
        with pytest.raises(StoreError):  # batch 1 again: refused, and batch 2 with it
            s.write_batches("r", [(2, frames[2]), (1, frames[1])])
        assert s.done_batches("r") == {0, 1}
        assert s.table("games", "r").height == len(bs[0]) + len(bs[1])
        with pytest.raises(StoreError, match="game_data"):
            s.write_batch("r", 3, {"games": frames[0]["game_data"]})


def test_packed_fields_refuse_what_does_not_fit():
    assert pack_stats([-1, 0, 0, 0, 0, 511]) >> 50 == 511 and pack_stats([-1]) == 1023
    with pytest.raises(LayoutError):
        pack_stats([512])
    with pytest.raises(LayoutError):
        pack_scores(0, 40000)
    with pytest.raises(LayoutError, match="missions"):
        BatchRecorder(["KS-001"])._missions([("KS-001", 0)] * 5)
    with pytest.raises(LayoutError):
        pack_event(1, 0, 2, 9)
    with pytest.raises(LayoutError):
        pack_cost(3, 300)
    with pytest.raises(LayoutError, match="not in the run's card list"):
        BatchRecorder(["KS-001"])._card("KS-999")


def test_reports_read_a_schema_1_file_and_its_upgrade_alike(tmp_path, specs):
    import shutil

    from mythos_cli.reports import make_report

    cfg = config(specs, games=6)
    old = tmp_path / "old.duckdb"
    write_v1(old, "r", cfg, reference_rows("r", config(specs, games=6)))
    new = tmp_path / "new.duckdb"
    shutil.copy(old, new)
    open_store(new).close()  # upgraded
    deck = specs[0].name
    for kind in ("winrate", "mulligan", "curve", "cards"):
        a = make_report(kind, old, deck=deck, out=tmp_path / "a", min_games=2).numbers  # schema 1, read as it is
        b = make_report(kind, new, deck=deck, out=tmp_path / "b", min_games=2).numbers
        assert json.dumps(a, sort_keys=True, default=str) == json.dumps(b, sort_keys=True, default=str), kind


def test_a_stored_batch_is_refused_after_reopening(tmp_path, specs):
    cfg = config(specs)
    cfg.plan()
    frames = run_batch("r", cfg, 0, cfg.batches()[0])
    db = tmp_path / "d.duckdb"
    with open_store(db) as s:
        start_run(s, cfg, "r", "r")
        s.write_batch("r", 0, frames)
    with open_store(db) as s:
        with pytest.raises(StoreError, match="stored already"):
            s.write_batch("r", 0, frames)
        assert s.table("games", "r").height == len(cfg.batches()[0])


def test_a_game_that_does_not_fit_stops_the_run_clearly(tmp_path, specs, monkeypatch):
    import mythos_cli.sim.runner as runner

    cfg = config(specs)

    def broken(*args, **kwargs):
        raise LayoutError("round statistic 9999 does not fit 10 bits")

    with open_store(tmp_path / "e.duckdb") as s:
        start_run(s, cfg, "r", "r")
        monkeypatch.setattr(runner, "run_batch", broken)
        with pytest.raises(StoreError, match="mythos bug"):
            execute(s, "r", cfg, workers=1)
        assert s.run("r")["status"] == "interrupted"
