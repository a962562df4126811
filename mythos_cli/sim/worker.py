"""Play one batch of planned games and return its rows as Polars frames (runs in any process)."""

from __future__ import annotations

from typing import Sequence

import polars as pl

from mythos_cli.catalog import default_catalog
from mythos_cli.engine.game import GameDeck
from mythos_cli.policies import make_policy, play_match
from mythos_cli.sim.plan import GameJob, RunConfig
from mythos_cli.sim.record import BatchRecorder
from mythos_cli.store.db import card_list
from mythos_cli.store.layout import setup_key

_DECK_CACHE: dict = {}


def _game_deck(spec) -> GameDeck:
    key = (spec.name, spec.cards, spec.missions)
    deck = _DECK_CACHE.get(key)
    if deck is None:
        cat = default_catalog()
        deck = GameDeck(tuple(cat.by_id[c] for c in spec.cards), tuple(cat.by_id[m] for m in spec.missions), spec.name)
        _DECK_CACHE[key] = deck
    return deck


def run_batch(run_id: str, config: RunConfig, batch_no: int, jobs: list[GameJob],
              cards: Sequence[str] | None = None) -> dict[str, pl.DataFrame]:
    """Play the batch's games (each from its own seed) and return their ``game_data`` frame.

    ``cards`` is the run's card list as stored (``Store.run_cards``); by default, the one
    ``create_run`` derives from the config's decks."""
    if not config.matchups:
        config.plan()
    rec = BatchRecorder(card_list(config.to_json()) if cards is None else cards)
    setups: dict = {}  # (matchup, seat of the studied deck) -> decks, policies, setup key
    for job in jobs:
        setup = setups.get((job.matchup, job.seat_of_deck))
        if setup is None:
            m = config.matchups[job.matchup]
            studied, opp = config.decks[m.deck], config.decks[m.opponent]
            if job.seat_of_deck == 0:
                seat_decks, seat_pols = (studied, opp), (config.policy_a, config.policy_b)
            else:
                seat_decks, seat_pols = (opp, studied), (config.policy_b, config.policy_a)
            specs = (make_policy(seat_pols[0], config.mulligan).spec, make_policy(seat_pols[1], config.mulligan).spec)
            key = setup_key([m.label, seat_decks[0].name, seat_decks[0].hash, seat_decks[1].name, seat_decks[1].hash,
                             *specs])
            setup = setups[(job.matchup, job.seat_of_deck)] = (seat_decks, seat_pols, key)
        seat_decks, seat_pols, key = setup
        pa = make_policy(seat_pols[0], config.mulligan)
        pb = make_policy(seat_pols[1], config.mulligan)
        r = play_match(_game_deck(seat_decks[0]), _game_deck(seat_decks[1]), pa, pb, job.seed, events=True)
        rec.add_game(r.state, {"run_id": run_id, "game_no": job.game_no, "batch_no": batch_no,
                               "studied_seat": job.seat_of_deck, "seed": job.seed, "setup_key": key})
    return rec.frames()
