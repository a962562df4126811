"""A small synthetic simulation database with known answers, for the report tests.

Three decks with the sample lists' cards (costs come from the catalog at test time):

* Alpha vs Beta, 20 games: Alpha wins the first 14. Alpha vs Gamma, 10 games: Alpha wins the
  first 3. Beta vs Gamma, 10 games: Beta wins the first 5. Gamma vs Gamma, 2 mirror games.
* Alpha (policy ``random``) keeps every hand: a "good" hand (two cards of cost ≤ 2) in 15 of
  its 17 wins and 2 of its 13 losses, a "bad" hand (none) otherwise.
* Beta mulligans 3 times (policy ``greedy``): too few random-hand games for a keep rule.
* Gamma keeps every hand; good and bad hands split its wins and losses evenly: no rule helps.
* Every game's spec is kept in ``SPECS`` so the tests count the expected answers themselves.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from mythos_cli.catalog import default_catalog
from mythos_cli.sim.decks import default_gauntlet, load_specs
from mythos_cli.sim.record import BatchRecorder
from mythos_cli.store import open_store
from mythos_cli.store.db import card_list

RUN = "syn"
NAMES = {"leaf-team7": "Alpha", "sand-village": "Beta", "sound-four": "Gamma"}


@dataclass
class Seat:
    deck: str
    policy: str
    opening: list[str]
    dealt: list[str]
    mulligan: bool
    drawn: dict[int, list[str]] = field(default_factory=dict)
    missions: list[str] = field(default_factory=list)  # the two of its missions in play


@dataclass
class GameSpec:
    no: int
    seats: tuple[Seat, Seat]
    winner: int
    first_edge: int
    tiebreak: bool


def deck_lists() -> dict[str, tuple[tuple[str, ...], tuple[str, ...]]]:
    by_stem = {Path(p).stem: p for p in default_gauntlet()}
    out = {}
    for stem, name in NAMES.items():
        spec = load_specs([by_stem[stem]])[0]
        out[name] = (spec.cards, spec.missions)
    return out


def hands(cards: tuple[str, ...]) -> tuple[list[str], list[str]]:
    """A good hand (2 distinct cards of cost ≤ 2 and 3 of cost ≥ 4) and a bad one (5 of cost ≥ 3)."""
    cat = default_catalog()
    versions = sorted(set(cards), key=lambda c: (cat.by_id[c].cost, c))
    cheap = [c for c in versions if cat.by_id[c].cost <= 2]
    dear = [c for c in versions if cat.by_id[c].cost >= 4]
    mid = [c for c in versions if cat.by_id[c].cost == 3]
    good = cheap[:2] + dear[:3]
    bad = (mid + dear)[-5:]
    assert len(good) == 5 and len(bad) == 5 and not set(good) & set(bad)
    return good, bad


def build_specs() -> list[GameSpec]:
    lists = deck_lists()
    good = {d: hands(lists[d][0])[0] for d in lists}
    bad = {d: hands(lists[d][0])[1] for d in lists}
    pairings = [("Alpha", "Beta", 20, 14), ("Alpha", "Gamma", 10, 3), ("Beta", "Gamma", 10, 5),
                ("Gamma", "Gamma", 2, 1)]
    raw = []  # (no, deck at seat 0, deck at seat 1, winner seat)
    no = 0
    for a, b, n, a_wins in pairings:
        for i in range(n):
            a_seat = i % 2
            decks = (a, b) if a_seat == 0 else (b, a)
            a_won = i < a_wins if a != b else True  # in a mirror, seat a_seat wins
            winner = a_seat if a_won else 1 - a_seat
            raw.append((no, decks, winner))
            no += 1
    # hands: Alpha good in 15 of its wins and 2 of its losses; Gamma alternates within wins and losses
    alpha_w = alpha_l = 0
    gamma_w = gamma_l = 0
    beta_seen = 0
    specs = []
    for no, decks, winner in raw:
        seats = []
        for s in (0, 1):
            d = decks[s]
            won = winner == s
            mull = False
            if d == "Alpha":
                if won:
                    alpha_w += 1
                    is_good = alpha_w <= 15
                else:
                    alpha_l += 1
                    is_good = alpha_l <= 2
                policy = "random"
            elif d == "Gamma":
                if won:
                    gamma_w += 1
                    is_good = gamma_w % 2 == 1
                else:
                    gamma_l += 1
                    is_good = gamma_l % 2 == 1
                policy = "greedy"
            else:
                beta_seen += 1
                is_good = beta_seen % 2 == 0
                mull = beta_seen in (3, 9, 27)
                policy = "greedy"
            opening = list(good[d] if is_good else bad[d])
            dealt = list(bad[d]) if mull else opening
            j = no + s
            cards = lists[d][0]
            drawn = {1: [cards[-1], cards[-2] if j % 2 == 0 else cards[-3]],
                     2: [good[d][0] if j % 3 == 0 else cards[-4]]}
            ms = list(lists[d][1])
            in_play = [m for k, m in enumerate(ms) if k != j % 3]
            seats.append(Seat(d, policy, opening, dealt, mull, drawn, in_play))
        specs.append(GameSpec(no, (seats[0], seats[1]), winner, no % 2, no in (0, 15, 33)))
    return specs


SPECS = build_specs()


def frames(specs: list[GameSpec], run: str = RUN) -> dict[str, pl.DataFrame]:
    rec = BatchRecorder(card_list(config(deck_lists())))
    for g in specs:
        games, rounds, cards = [], [], []
        s0, s1 = g.seats
        missions = [s0.missions[0], s1.missions[0], s0.missions[1], s1.missions[1]]
        games.append({
            "run_id": run, "game_no": g.no, "batch_no": 0, "matchup": f"{s0.deck} vs {s1.deck}", "studied_seat": 0,
            "deck_0": s0.deck, "deck_0_hash": "h0", "deck_1": s1.deck, "deck_1_hash": "h1",
            "policy_0": s0.policy, "policy_1": s1.policy, "seed": g.no, "first_edge": g.first_edge,
            "missions": missions, "mission_owners": [0, 1, 0, 1], "mulligan_0": s0.mulligan,
            "mulligan_1": s1.mulligan, "round_scores_0": [0, 0, 0, 0], "round_scores_1": [0, 0, 0, 0],
            "score_0": 10 if g.winner == 0 else 5, "score_1": 10 if g.winner == 1 else 5, "winner": g.winner,
            "tiebreak_by_edge": g.tiebreak, "final_edge": g.winner, "decisions": 40,
        })
        for seat, st in enumerate(g.seats):
            for r in range(1, 5):
                gained, spent = chakra(g.no, seat, r)
                rounds.append({"run_id": run, "game_no": g.no, "seat": seat, "deck": st.deck, "round": r,
                               "chakra_gained": gained, "chakra_spent": spent, "chakra_left": gained - spent,
                               "cards_drawn": 2, "played_face_up": 1, "played_hidden": 0, "revealed": 0,
                               "upgraded": 0, "cost_face_up": [2], "characters_in_play": r, "missions_won": 1,
                               "points": 2, "edge": seat == g.first_edge})
            for ev, hand in (("dealt", st.dealt), ("opening", st.opening)):
                for c in hand:
                    cards.append(_event(run, g.no, seat, st.deck, c, ev, 0))
            for r, cs in st.drawn.items():
                for c in cs:
                    cards.append(_event(run, g.no, seat, st.deck, c, "drawn", r))
        rec.add_rows(games[0], rounds, cards)
    return rec.frames()


def chakra(game_no: int, seat: int, r: int) -> tuple[int, int]:
    gained = 4 + r
    return gained, gained - (game_no + seat + r) % 3


def _event(run, no, seat, deck, card, event, rnd):
    return {"run_id": run, "game_no": no, "seat": seat, "deck": deck, "card": card, "event": event, "round": rnd,
            "how": None, "mission_rank": None, "won_mission": None}


def config(lists) -> dict:
    names = list(lists)
    return {"decks": [{"name": n, "cards": list(lists[n][0]), "missions": list(lists[n][1])} for n in names],
            "opponents": [0, 1, 2], "studied": [0, 1, 2], "games": 10, "policy_a": "greedy", "policy_b": "greedy",
            "mulligan": None, "seed": 1, "mirrors": True, "batch_size": 50}


def write_db(path: Path) -> Path:
    lists = deck_lists()
    with open_store(path) as store:
        kw = dict(seed=1, policy_a="greedy", policy_b="greedy", mulligan="", engine_version="test",
                  catalog_hash="test", planned_batches=1)
        store.create_run(RUN, RUN, config(lists), planned_games=len(SPECS), **kw)
        store.write_batch(RUN, 0, frames(SPECS))
        store.set_status(RUN, "finished")
        # a later run that never finished: the default must still be the finished one
        store.create_run("partial", "partial", config(lists), planned_games=10, **kw)
        store.write_batch("partial", 0, frames(SPECS[:4], "partial"))
        store.set_status("partial", "interrupted")
        store.create_run("empty", "empty", config(lists), planned_games=10, **kw)  # started, no game stored
    return path
