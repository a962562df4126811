"""The board a scenario plays on: a game of the rules core (``_core.Game``), loaded from a board
spec (``mythos_cli.scenario.spec``) and read as the runner reads a game.

Players are 0 and 1; cards are instances (``cards[i]`` is instance ``i``'s catalog card); units are
read through the fields of :class:`UnitView`, decisions through ``player``, ``kind``, ``options``
and ``prompt``. A board with no mulligan pending is run forward to its first decision on loading.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from mythos_cli import _core
from mythos_cli.catalog import Catalog
from mythos_cli.scenario.spec import UnitView

#: what the core raises for an action that is not legal now (the state is left untouched)
ILLEGAL: tuple[type[Exception], ...] = (_core.IllegalAction,)


@dataclass(slots=True)
class MissionView:
    card: int
    rank: int
    winner: int = -1
    attachments: tuple[list[int], list[int]] = ([], [])


@dataclass(slots=True)
class Pending:
    """The decision the game waits for."""

    player: int
    kind: str
    options: list[Any]
    prompt: str = ""


class Board:
    """One game of the core, as the scenario runner plays and inspects it: what the game says is
    read once per state (it changes only by :meth:`apply`)."""

    def __init__(self, game: Any, catalog: Catalog):
        self.game = game
        self.cards = [catalog.by_id[game.card_id(i)] for i in range(game.num_cards())]
        self._owner = [game.owner(i) for i in range(game.num_cards())]
        self._seen: dict[str, Any] = {}

    def _cached(self, key: str, make):
        if key not in self._seen:
            self._seen[key] = make()
        return self._seen[key]

    def owner(self, inst: int) -> int:
        return self._owner[inst]

    @property
    def pending(self) -> Pending | None:
        def make():
            d = self.game.pending()
            return None if d is None else Pending(d["player"], d["kind"], list(d["options"]), d["prompt"])
        return self._cached("pending", make)

    @property
    def phase(self) -> str:
        return self.game.phase

    @property
    def round(self) -> int:
        return self.game.round

    @property
    def edge(self) -> int:
        return self.game.edge

    @property
    def winner(self) -> int:
        return self.game.winner

    def round_scores(self) -> list[list[int]]:
        return [list(r) for r in self.game.round_scores()]

    def _units(self) -> dict[int, UnitView]:
        def make():
            out = {}
            for d in self.game.units():
                out[d["uid"]] = UnitView(uid=d["uid"], stack=list(d["stack"]), owner=d["owner"],
                                         controller=d["controller"], mission=d["mission"], hidden=d["hidden"],
                                         tokens=d["tokens"], played_round=d["played_round"],
                                         played_turn=d["played_turn"], attachments=list(d["attachments"]),
                                         controlled_by=d["controlled_by"], discounted=d["discounted"])
            return out
        return self._cached("units", make)

    def units(self) -> list[UnitView]:
        """Every unit in play, in board order (missions in order, p1's side first)."""
        return list(self._units().values())

    def unit(self, uid: int) -> UnitView:
        return self._units()[uid]

    def power(self, uid: int) -> int:
        return self.game.power(uid)

    def side_power(self, mission: int, player: int) -> int:
        return self.game.side_power(mission, player)

    def _player(self, player: int) -> dict:
        return self._cached(f"player{player}", lambda: self.game.player(player))

    def zone(self, player: int, name: str) -> list[int]:
        """``hand``, ``deck`` (top last) or ``discard`` (bottom first)."""
        return list(self._player(player)[name])

    def counter(self, player: int, name: str) -> int:
        """``score`` or ``chakra``."""
        return self._player(player)[name]

    def missions(self) -> list[MissionView]:
        """The missions in play, in order: ``card``, ``rank``, ``winner``, ``attachments``."""
        return self._cached("missions", lambda: [
            MissionView(card=m["card"], rank=m["rank"], winner=m["winner"],
                        attachments=(list(m["attachments"][0]), list(m["attachments"][1])))
            for m in self.game.missions()])

    def mission_deck(self) -> list[int]:
        """The missions still to come, top (next round's) last."""
        return list(self.game.mission_deck())

    def att_hidden(self) -> set[int]:
        return set(self.game.att_hidden())

    def order_sources(self) -> list[tuple[int, int]]:
        """A pending order decision's effects by option: (the player resolving it, its card
        instance or -1); empty for any other decision."""
        return list(self.game.order_sources())

    def legal_actions(self) -> list[tuple]:
        return self.game.legal_actions()

    def apply(self, action: tuple) -> None:
        """Apply one action; an illegal one raises one of :data:`ILLEGAL`."""
        self._seen.clear()
        self.game.apply(tuple(action))


def load(spec: dict, catalog: Catalog) -> Board:
    """The board a spec describes, at its first decision. A malformed spec raises ValueError; a
    board whose own effects cannot run raises one of :data:`ILLEGAL` (or EngineError)."""
    return Board(_core.Game.from_spec(json.dumps(spec)), catalog)
