"""Play one batch of planned games and return its rows as Polars frames (runs in any process)."""

from __future__ import annotations

from typing import Sequence

import polars as pl

from mythos_cli.sim.game import game_deck as _game_deck  # noqa: F401  (the ladder imports it from here)
from mythos_cli.sim.game import game_setup, play_game
from mythos_cli.sim.plan import GameJob, RunConfig
from mythos_cli.sim.record import BatchRecorder
from mythos_cli.store.db import card_list


def run_batch(run_id: str, config: RunConfig, batch_no: int, jobs: list[GameJob],
              cards: Sequence[str] | None = None) -> dict[str, pl.DataFrame]:
    """Play the batch's games (each from its own seed) and return their ``game_data`` frame.

    ``cards`` is the run's card list as stored (``Store.run_cards``); by default, the one
    ``create_run`` derives from the config's decks."""
    if not config.matchups:
        config.plan()
    rec = BatchRecorder(card_list(config.to_json()) if cards is None else cards)
    setups: dict = {}  # (matchup, seat of the studied deck) -> Setup
    for job in jobs:
        setup = setups.get((job.matchup, job.seat_of_deck))
        if setup is None:
            setup = setups[(job.matchup, job.seat_of_deck)] = game_setup(config, job)
        state = play_game(config, job, setup)
        rec.add_game(state, {"run_id": run_id, "game_no": job.game_no, "batch_no": batch_no,
                             "studied_seat": job.seat_of_deck, "seed": job.seed, "setup_key": setup.key})
    return rec.frames()
