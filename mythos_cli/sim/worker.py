"""Play one batch of planned games and return its rows as Polars frames (runs in any process)."""

from __future__ import annotations

from typing import Sequence

import polars as pl

from mythos_cli import _core
from mythos_cli.sim.game import Setup, game_setup, play_game
from mythos_cli.sim.plan import GameJob, RunConfig
from mythos_cli.sim.record import core_frame
from mythos_cli.store.db import card_list


def run_batch(run_id: str, config: RunConfig, batch_no: int, jobs: list[GameJob],
              cards: Sequence[str] | None = None) -> dict[str, pl.DataFrame]:
    """Play the batch's games (each from its own seed) and return their ``game_data`` frame.

    Built-in players play the whole batch inside the core, the interpreter released; a batch with
    a player written in Python is played one decision at a time (the same games, slower).
    ``cards`` is the run's card list as stored (``Store.run_cards``); by default, the one
    ``create_run`` derives from the config's decks."""
    if not config.matchups:
        config.plan()
    cards = list(card_list(config.to_json()) if cards is None else cards)
    setups: dict[tuple[int, int], Setup] = {}  # (matchup, seat of the studied deck) -> Setup
    meta: dict[str, list] = {"run_id": [], "game_no": [], "batch_no": [], "setup_key": [], "seed": []}
    for job in jobs:
        setup = setups.get((job.matchup, job.seat_of_deck))
        if setup is None:
            setup = setups[(job.matchup, job.seat_of_deck)] = game_setup(config, job)
        for k, v in (("run_id", run_id), ("game_no", job.game_no), ("batch_no", batch_no),
                     ("setup_key", setup.key), ("seed", job.seed)):
            meta[k].append(v)
    if all(s.builtin for s in setups.values()):
        columns = _core_batch(config, jobs, setups, cards)
    else:
        rec = _core.Recorder(cards)
        for job in jobs:
            rec.add(play_game(config, job, setups[(job.matchup, job.seat_of_deck)]), job.seat_of_deck)
        columns = rec.columns()
    return {"game_data": core_frame(columns, meta)}


def _core_batch(config: RunConfig, jobs: list[GameJob], setups: dict, cards: list[str]) -> list:
    decks: list = []
    deck_index: dict = {}
    specs: list[str] = []
    games, forced = [], []
    for job in jobs:
        s = setups[(job.matchup, job.seat_of_deck)]
        ix = []
        for d in s.decks:
            key = (d.name, d.cards, d.missions)
            if key not in deck_index:
                deck_index[key] = len(decks)
                decks.append((list(d.cards), list(d.missions), d.name))
            ix.append(deck_index[key])
        px = []
        for p in s.policies:
            if p not in specs:
                specs.append(p)
            px.append(specs.index(p))
        games.append((ix[0], ix[1], px[0], px[1], job.seed, job.seat_of_deck))
        forced.append(s.mulligans)
    if config.forced_mulligans is None:
        return _core.play_batch(decks, games, specs, cards, mulligan=config.mulligan)
    return _core.play_batch(decks, games, specs, cards, mulligan=config.mulligan, mulligans=forced)
