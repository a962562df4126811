"""Simulation runs: plan matchups and seeds, play batches in parallel, store them."""

from mythos_cli.sim.decks import deck_spec, load_specs
from mythos_cli.sim.game import game_setup, play_game
from mythos_cli.sim.plan import DEFAULT_POLICY, DeckSpec, RunConfig
from mythos_cli.sim.runner import Interrupted, execute, load_config, new_run_id, start_run, summarize

__all__ = ["DEFAULT_POLICY", "DeckSpec", "Interrupted", "RunConfig", "deck_spec", "execute", "game_setup", "load_config",
           "load_specs", "play_game",
           "new_run_id", "start_run", "summarize"]
