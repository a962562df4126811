"""Play one batch of planned games and return its rows as Polars frames (runs in any process)."""

from __future__ import annotations

import polars as pl

from mythos_cli.catalog import default_catalog
from mythos_cli.engine.game import GameDeck
from mythos_cli.policies import make_policy, play_match
from mythos_cli.sim.plan import GameJob, RunConfig
from mythos_cli.sim.record import game_rows

_DECK_CACHE: dict = {}


def _game_deck(spec) -> GameDeck:
    key = (spec.name, spec.cards, spec.missions)
    deck = _DECK_CACHE.get(key)
    if deck is None:
        cat = default_catalog()
        deck = GameDeck(tuple(cat.by_id[c] for c in spec.cards), tuple(cat.by_id[m] for m in spec.missions), spec.name)
        _DECK_CACHE[key] = deck
    return deck


GAME_SCHEMA = {
    "run_id": pl.String, "game_no": pl.Int32, "batch_no": pl.Int32, "matchup": pl.String, "studied_seat": pl.Int8,
    "deck_0": pl.String, "deck_0_hash": pl.String, "deck_1": pl.String, "deck_1_hash": pl.String,
    "policy_0": pl.String, "policy_1": pl.String, "seed": pl.UInt64, "first_edge": pl.Int8,
    "missions": pl.List(pl.String), "mission_owners": pl.List(pl.Int8), "mulligan_0": pl.Boolean,
    "mulligan_1": pl.Boolean, "round_scores_0": pl.List(pl.Int32), "round_scores_1": pl.List(pl.Int32),
    "score_0": pl.Int32, "score_1": pl.Int32, "winner": pl.Int8, "tiebreak_by_edge": pl.Boolean,
    "final_edge": pl.Int8, "decisions": pl.Int32,
}
ROUND_SCHEMA = {
    "run_id": pl.String, "game_no": pl.Int32, "seat": pl.Int8, "deck": pl.String, "round": pl.Int8,
    "chakra_gained": pl.Int32, "chakra_spent": pl.Int32, "chakra_left": pl.Int32, "cards_drawn": pl.Int32,
    "played_face_up": pl.Int32, "played_hidden": pl.Int32, "revealed": pl.Int32, "upgraded": pl.Int32,
    "cost_face_up": pl.List(pl.Int32), "characters_in_play": pl.Int32, "missions_won": pl.Int32,
    "points": pl.Int32, "edge": pl.Boolean,
}
CARD_SCHEMA = {
    "run_id": pl.String, "game_no": pl.Int32, "seat": pl.Int8, "deck": pl.String, "card": pl.String,
    "event": pl.String, "round": pl.Int8, "how": pl.String, "mission_rank": pl.String, "won_mission": pl.Boolean,
}


def run_batch(run_id: str, config: RunConfig, batch_no: int, jobs: list[GameJob]) -> dict[str, pl.DataFrame]:
    """Play the batch's games (each from its own seed) and return the rows of all three tables."""
    if not config.matchups:
        config.plan()
    games, rounds, cards = [], [], []
    for job in jobs:
        m = config.matchups[job.matchup]
        studied, opp = config.decks[m.deck], config.decks[m.opponent]
        if job.seat_of_deck == 0:
            seat_decks, seat_pols = (studied, opp), (config.policy_a, config.policy_b)
        else:
            seat_decks, seat_pols = (opp, studied), (config.policy_b, config.policy_a)
        pa = make_policy(seat_pols[0], config.mulligan)
        pb = make_policy(seat_pols[1], config.mulligan)
        r = play_match(_game_deck(seat_decks[0]), _game_deck(seat_decks[1]), pa, pb, job.seed, events=True)
        meta = {
            "run_id": run_id, "game_no": job.game_no, "batch_no": batch_no, "matchup": m.label,
            "studied_seat": job.seat_of_deck,
            "deck_0": seat_decks[0].name, "deck_0_hash": seat_decks[0].hash,
            "deck_1": seat_decks[1].name, "deck_1_hash": seat_decks[1].hash,
            "policy_0": pa.spec, "policy_1": pb.spec, "seed": job.seed,
        }
        g, rs, cs = game_rows(r.state, meta)
        games.append(g)
        rounds.extend(rs)
        cards.extend(cs)
    return {
        "games": pl.DataFrame(games, schema=GAME_SCHEMA),
        "player_rounds": pl.DataFrame(rounds, schema=ROUND_SCHEMA),
        "card_events": pl.DataFrame(cards, schema=CARD_SCHEMA),
    }
