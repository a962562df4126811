"""What a player written in Python sees: one player's window on a game played by the core.

A Python player answers the decisions of its seat one at a time (the slow path: the built-in
players answer inside the core). It is any object with::

    name: str                       # how reports name it
    def reset(self, seed: int): ... # a new game starts; every random choice should flow from seed
    def decide(self, obs: Observation) -> tuple: ...  # one of obs.legal

``decide`` gets an :class:`Observation`: the pending decision (its kind, prompt, legal answers and,
for main actions, their prices) and the player's view of the game: their own hand and hidden cards,
the public board, never the opponent's hand, hidden cards or either deck's order. ``determinize``
deals the unseen cards at random into a full game to look ahead in.

>>> class Cheapest:
...     name = "cheapest"
...     def reset(self, seed): pass
...     def decide(self, obs):
...         plays = [a for a in obs.legal if a[0] == "play" and not a[3]]
...         return min(plays, key=obs.price) if plays else obs.legal[0]
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any, Protocol

from mythos_cli.catalog import default_catalog
from mythos_cli.catalog.model import Card


class Policy(Protocol):
    """A player: the built-in ones (``make_policy("greedy")``) and yours follow the same protocol."""

    name: str

    def reset(self, seed: int) -> None: ...

    def decide(self, obs: "Observation") -> tuple: ...


@dataclass(frozen=True, slots=True)
class UnitView:
    """A character in play as the observing player sees it."""

    uid: int
    mine: bool
    mission: int  # index into Observation.missions
    hidden: bool
    card: str | None  # version id of the top card; None for an opponent's hidden character
    power: int
    tokens: int
    stack: int  # cards in the stack (an upgraded character has 2 or more)
    controlled: bool  # under the control of the player who does not own it
    attachments: tuple[str | None, ...]  # version ids; None for an opponent's face-down one


class Observation:
    """One player's window on a core game (``mythos_cli._core.Game``), at a decision of theirs.

    Actions are the engine's tuples: ``("pass",)``, ``("play", card, mission, hidden, over)``,
    ``("reveal", uid)``, ``("attach", card, mission, host, hidden)``,
    ``("reveal_attachment", card)`` and ``("choose", option)`` for every decision inside an effect,
    the mulligan (``True``: mulligan) and the trigger order. Card numbers are instances (the game's
    copies of cards); ``card_of(inst)`` gives the card of one this player may see."""

    def __init__(self, game: Any, player: int):
        self._game = game
        self.player = player

    # -- the decision ------------------------------------------------------------------------
    @cached_property
    def _view(self) -> dict:
        return self._game.view(self.player)

    @cached_property
    def _decision(self) -> dict:
        d = self._view["decision"]
        if d is None:
            raise ValueError(f"player {self.player} has no decision to make now")
        return d

    @property
    def kind(self) -> str:
        """``action`` (a main action), ``mulligan``, ``target``, ``optional``, ``order``, ..."""
        return self._decision["kind"]

    @property
    def prompt(self) -> str:
        """What the decision asks, in the tool's words."""
        return self._decision["prompt"]

    @cached_property
    def legal(self) -> list[tuple]:
        """Every legal answer, in the engine's order."""
        return [tuple(a) for a in self._game.legal_actions()]

    def price(self, action: tuple) -> int:
        """The chakra a main action costs (0 for pass and for answers inside effects)."""
        return self._decision.get("prices", {}).get(tuple(action), 0)

    # -- what this player knows --------------------------------------------------------------
    @property
    def round(self) -> int:
        return self._view["round"]

    @property
    def has_edge(self) -> bool:
        return self._view["edge"]

    @property
    def chakra(self) -> int:
        return self._view["chakra"][0]

    @property
    def opponent_chakra(self) -> int:
        return self._view["chakra"][1]

    @property
    def opponent_passed(self) -> bool:
        return self._view["passed"][1]

    @property
    def scores(self) -> tuple[int, int]:
        """(mine, the opponent's)."""
        return tuple(self._view["scores"])

    @property
    def hand(self) -> list[int]:
        """My hand, as card instances (``card_of`` gives their cards)."""
        return list(self._view["hand_instances"])

    @property
    def opponent_hand_size(self) -> int:
        return self._view["opponent_hand_size"]

    @property
    def deck_sizes(self) -> tuple[int, int]:
        """(mine, the opponent's)."""
        return tuple(self._view["deck_sizes"])

    @property
    def missions(self) -> list[tuple[str, str]]:
        """The missions in play, in order: (mission id, rank D/C/B/A)."""
        return [tuple(m) for m in self._view["missions"]]

    def mission_points(self, mission: int) -> int:
        """The points the mission gives its winner this round (base points plus its rank's bonus)."""
        return self._game.mission_points(mission)

    @cached_property
    def units(self) -> list[UnitView]:
        """Every character in play, mine first on each mission."""
        return [UnitView(u["uid"], u["side"] == 0, u["mission"], u["hidden"], u["card"], u["power"], u["tokens"],
                         u["stack"], u["controlled"], tuple(u["attachments"])) for u in self._view["units"]]

    def side_power(self, mission: int, mine: bool = True) -> int:
        """Total Power of one side of a mission, as scoring counts it."""
        return self._game.side_power(mission, self.player if mine else 1 - self.player)

    def card_of(self, inst: int) -> Card:
        """The card of an instance this player may see: one in their hand, or an option of theirs.

        Raises ValueError for a card they cannot see (the opponent's hand, a hidden card, a deck)."""
        if inst not in self._visible:
            raise ValueError(f"card instance {inst} is not one player {self.player} can see")
        return default_catalog().by_id[self._game.card_id(inst)]

    @cached_property
    def _visible(self) -> set[int]:
        seen = set(self._view["hand_instances"])
        for a in self.legal:
            if a[0] in ("play", "attach", "reveal_attachment"):
                seen.add(a[1])
        return seen

    def view(self) -> dict:
        """Everything this player knows, as one plain dict (``_core.Game.view``)."""
        return dict(self._view)

    # -- look-ahead -----------------------------------------------------------------------------
    def determinize(self, seed: int):
        """A full game consistent with what this player knows (a ``_core.Game``): the opponent's
        hand, hidden characters and face-down attachments and both deck orders dealt at random
        from ``seed``. Play it forward with ``apply`` to look ahead; it is a copy."""
        return self._game.determinize(self.player, seed)
