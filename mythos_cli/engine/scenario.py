"""A scenario file's board as the Python engine's state, for the Python players' tests (scenarios
themselves run on the rules core: ``mythos_cli.scenario``). Retires with the Python engine."""

from __future__ import annotations

from mythos_cli.catalog import Catalog
from mythos_cli.engine.board import python_state
from mythos_cli.engine.state import GameState
from mythos_cli.scenario import board_spec


def build(doc: dict, catalog: Catalog, where: str) -> GameState:
    """The Python engine's state for a scenario file's board, at its first decision."""
    return python_state(board_spec(doc, catalog, where), catalog)
