"""Board specs, and one interface over both engines for the scenario runner.

A **board spec** is a plain, JSON-able dict describing a game state: every card instance by
its version id (in instance order) with its owner, each player's zones and counters, the
missions in play with the units on each side (stacks bottom → top, tokens, attachments,
control links), the mission deck (top last), the round, phase, Edge and turn. Both engines
load the same spec into the same board (same instance numbers, unit ids and seed):

- the Rust core through ``_core.Game.from_spec(json)`` (``Spec`` in ``core/src/scenario.rs``);
- the Python engine through :func:`python_state`.

Keys (anything left out takes a fresh game's value): ``seed``, ``cards``, ``owner``,
``players`` (two dicts: ``hand``, ``deck`` (top last), ``discard``, ``missions``, ``set_aside``,
``chakra``, ``score``, ``passed``, ``plays_this_round``, ``attached_this_round``,
``mulliganed``), ``missions`` (``card``, ``rank`` 0-3, ``sides`` (two lists of uids),
``attachments`` (two lists of instances), ``winner``), ``units`` (``uid``, ``stack``, ``owner``,
``controller``, ``mission``, ``hidden``, ``tokens``, ``played_round``, ``played_turn``,
``attachments``, ``controlled_by``, ``discounted``), ``mission_deck``, ``round``, ``phase``,
``edge``, ``first_edge``, ``current``, ``turn``, ``round_scores``, ``att_hidden``,
``att_power`` (pairs), ``edge_locked``, ``events`` (keep an event log), ``mulligan`` (the
player whose mulligan the board waits for: a round-0 board). A board from before the game
gives only ``seed``, ``events`` and ``setup = {decks, missions, shuffle, edge}`` (decks top
first; shuffled by ``new_game`` with the seed, or in the stated order).

A board with no mulligan pending is run forward to its first decision on loading.

:class:`Board` is what the runner plays and inspects: :class:`PythonBoard` over a
``GameState``, :class:`CoreBoard` over a ``_core.Game``.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

from mythos_cli.catalog import Catalog
from mythos_cli.catalog.model import Card
from mythos_cli.engine import game, interp, rules
from mythos_cli.engine.rules import IllegalAction
from mythos_cli.engine.state import HAND_SIZE, Decision, GameState, Mission, Player, Unit

try:
    from mythos_cli import _core
except ImportError:  # the Rust core is not built: the Python engine alone
    _core = None

ENGINES = ("python", "core")
#: what an engine raises for an action that is not legal now (the state is left untouched)
ILLEGAL: tuple[type[Exception], ...] = (IllegalAction,) if _core is None else (IllegalAction, _core.IllegalAction)


def core_available() -> bool:
    return _core is not None


@dataclass(slots=True)
class UnitView:
    """A unit as the runner reads it: the fields of ``state.Unit``."""

    uid: int
    stack: list[int]
    owner: int
    controller: int
    mission: int
    hidden: bool = False
    tokens: int = 0
    played_round: int = 0
    played_turn: int = -1
    attachments: list[int] = field(default_factory=list)
    controlled_by: int = -1
    discounted: bool = False


@dataclass(slots=True)
class MissionView:
    card: int
    rank: int
    winner: int = -1
    attachments: tuple[list[int], list[int]] = ([], [])


@dataclass(slots=True)
class Pending:
    """A decision as the runner reads it: the fields of ``state.Decision`` it uses."""

    player: int
    kind: str
    options: list[Any]
    prompt: str = ""


# ---------------------------------------------------------------------------------------
# a board spec → the Python engine's state
_PLAYER_KEYS = ("hand", "deck", "discard", "missions", "set_aside", "chakra", "score", "passed",
                "plays_this_round", "attached_this_round", "mulliganed")


_SPEC_KEYS = {"seed", "cards", "owner", "setup", "players", "missions", "units", "mission_deck", "round", "phase",
              "edge", "first_edge", "current", "turn", "round_scores", "att_hidden", "att_power", "edge_locked",
              "events", "mulligan"}


def python_state(spec: dict, catalog: Catalog) -> GameState:
    """The Python engine's ``GameState`` for a board spec, run to its first decision. A
    malformed spec raises ValueError (or KeyError for an unknown card), as the core refuses it."""
    unknown = set(spec) - _SPEC_KEYS
    if unknown:
        raise ValueError(f"board spec: unknown keys {sorted(unknown)}")
    if "setup" in spec and set(spec) - {"seed", "events", "setup"}:
        raise ValueError("board spec: a setup board gives only seed, events and setup (the game deals the rest)")
    seed = int(spec.get("seed", 0))
    events = [] if spec.get("events") else None
    if "setup" in spec:
        return _python_setup(spec["setup"], catalog, seed, events)
    cards = [catalog.by_id[c] for c in spec.get("cards", [])]
    owner = list(spec.get("owner", []))
    if len(cards) != len(owner):
        raise ValueError("board spec: cards and owner differ in length")
    players = (Player(0), Player(1))
    for p, ps in zip(players, spec.get("players", ({}, {}))):
        for key, val in ps.items():
            if key not in _PLAYER_KEYS:
                raise ValueError(f"board spec: unknown player key {key!r}")
            setattr(p, key, list(val) if isinstance(val, list) else val)
    g = GameState(cards=cards, owner=owner, players=players, rng=random.Random(seed), seed=seed, events=events)
    for us in spec.get("units", []):
        u = Unit(uid=us["uid"], stack=list(us["stack"]), owner=us["owner"], controller=us["controller"],
                 mission=us["mission"], hidden=us.get("hidden", False), tokens=us.get("tokens", 0),
                 played_round=us.get("played_round", 0), played_turn=us.get("played_turn", -1),
                 attachments=list(us.get("attachments", [])), controlled_by=us.get("controlled_by", -1),
                 discounted=us.get("discounted", False))
        if u.uid in g.units:
            raise ValueError(f"board spec: two units with id {u.uid}")
        g.units[u.uid] = u
    g.next_uid = max(g.units, default=0) + 1
    for ms in spec.get("missions", []):
        sides = ms.get("sides", ([], []))
        atts = ms.get("attachments", ([], []))
        g.missions.append(Mission(card=ms["card"], rank=ms["rank"], sides=tuple([g.units[u] for u in s] for s in sides),
                                  attachments=(list(atts[0]), list(atts[1])), winner=ms.get("winner", -1)))
    g.mission_deck = list(spec.get("mission_deck", []))
    g.round = spec.get("round", 0)
    g.phase = spec.get("phase", "action")
    g.edge = spec.get("edge", 0)
    g.first_edge = spec.get("first_edge", g.edge)
    g.current = spec.get("current", 0)
    g.turn = spec.get("turn", 0)
    g.round_scores = [list(r) for r in spec.get("round_scores", [])]
    g.att_hidden = set(spec.get("att_hidden", []))
    g.att_power = dict(spec.get("att_power", []))
    g.edge_locked = spec.get("edge_locked", -1)
    g.board_version += 1
    g.token_version += 1
    if spec.get("mulligan") is not None:
        g.phase = "mulligan"
        g.pending = Decision(spec["mulligan"], "mulligan", [False, True], "mulligan your whole hand?")
    else:
        game.advance(g)
    return g


def _python_setup(s: dict, catalog: Catalog, seed: int, events: list | None) -> GameState:
    decks = [game.GameDeck(tuple(catalog.by_id[c] for c in s["decks"][i]),
                           tuple(catalog.by_id[m] for m in s["missions"][i]), f"p{i + 1}") for i in (0, 1)]
    edge = s.get("edge")
    if s.get("shuffle", True):
        return game.new_game(decks[0], decks[1], seed, events=events is not None, first=edge)
    cards: list[Card] = []
    owner: list[int] = []
    players = (Player(0), Player(1))
    g = GameState(cards=cards, owner=owner, players=players, rng=random.Random(seed), seed=seed, events=events)
    g.edge = g.first_edge = 0 if edge is None else edge
    chosen = []
    for p, deck in zip(players, decks):
        for c in reversed(deck.cards):  # written top first; the engine's top is the end of the list
            cards.append(c)
            owner.append(p.index)
            p.deck.append(len(cards) - 1)
        for c in deck.missions:
            cards.append(c)
            owner.append(p.index)
            p.missions.append(len(cards) - 1)
        chosen.append(p.missions[:2])
        p.set_aside = p.missions[2]
    e, o = chosen[g.edge], chosen[1 - g.edge]
    g.mission_deck = [o[1], e[1], o[0], e[0]]  # top is the end, as in game.new_game
    for p in players:
        interp.draw_cards(g, p.index, HAND_SIZE)
    g.phase = "mulligan"
    g.pending = Decision(g.edge, "mulligan", [False, True], "mulligan your whole hand?")
    return g


# ---------------------------------------------------------------------------------------
# the interface
class Board:
    """One game, as the scenario runner plays and inspects it. Players are 0 and 1; cards are
    instances (``cards[i]`` is instance ``i``'s catalog card); units are read through the
    fields of ``state.Unit``, decisions through ``player``, ``kind``, ``options``, ``prompt``."""

    engine: str
    cards: list[Card]

    def owner(self, inst: int) -> int: ...
    @property
    def pending(self) -> Decision | Pending | None: ...
    @property
    def phase(self) -> str: ...
    @property
    def round(self) -> int: ...
    @property
    def edge(self) -> int: ...
    @property
    def winner(self) -> int: ...
    def round_scores(self) -> list[list[int]]: ...
    def units(self) -> list:
        """Every unit in play, in board order (missions in order, p1's side first)."""
        ...
    def unit(self, uid: int): ...
    def power(self, uid: int) -> int: ...
    def side_power(self, mission: int, player: int) -> int: ...
    def zone(self, player: int, name: str) -> list[int]:
        """``hand``, ``deck`` (top last) or ``discard`` (bottom first)."""
        ...
    def counter(self, player: int, name: str) -> int:
        """``score`` or ``chakra``."""
        ...
    def missions(self) -> list:
        """The missions in play, in order: ``card``, ``rank``, ``winner``, ``attachments``."""
        ...
    def mission_deck(self) -> list[int]:
        """The missions still to come, top (next round's) last."""
        ...
    def att_hidden(self) -> set[int]: ...
    def order_sources(self) -> list[tuple[int, int]]:
        """A pending order decision's effects by option: (the player resolving it, its card
        instance or -1); empty for any other decision."""
        ...
    def legal_actions(self) -> list[tuple]: ...
    def apply(self, action: tuple) -> None:
        """Apply one action; an illegal one raises one of :data:`ILLEGAL`."""
        ...


class PythonBoard(Board):
    engine = "python"

    def __init__(self, g: GameState):
        self.g = g
        self.cards = g.cards

    def owner(self, inst):
        return self.g.owner[inst]

    @property
    def pending(self):
        return self.g.pending

    @property
    def phase(self):
        return self.g.phase

    @property
    def round(self):
        return self.g.round

    @property
    def edge(self):
        return self.g.edge

    @property
    def winner(self):
        return self.g.winner

    def round_scores(self):
        return [list(r) for r in self.g.round_scores]

    def units(self):
        return list(self.g.all_units())

    def unit(self, uid):
        return self.g.units[uid]

    def power(self, uid):
        return rules.power(self.g, self.g.units[uid])

    def side_power(self, mission, player):
        return rules.side_power(self.g, mission, player)

    def zone(self, player, name):
        return list(getattr(self.g.players[player], name))

    def counter(self, player, name):
        return getattr(self.g.players[player], name)

    def missions(self):
        return self.g.missions

    def mission_deck(self):
        return list(self.g.mission_deck)

    def att_hidden(self):
        return self.g.att_hidden

    def order_sources(self):
        d = self.g.pending
        if d is None or d.kind != "order" or not isinstance(d.context, interp.Order):
            return []
        return [(f.ctx.player, f.ctx.card) for f in d.context.frames]

    def legal_actions(self):
        return game.legal_actions(self.g)

    def apply(self, action):
        game.apply(self.g, action)


class CoreBoard(Board):
    """A ``_core.Game``: what it says is read once per state (it changes only by ``apply``)."""

    engine = "core"

    def __init__(self, game_: Any, catalog: Catalog):
        self.game = game_
        self.cards = [catalog.by_id[game_.card_id(i)] for i in range(game_.num_cards())]
        self._owner = [game_.owner(i) for i in range(game_.num_cards())]
        self._seen: dict[str, Any] = {}

    def _cached(self, key: str, make):
        if key not in self._seen:
            self._seen[key] = make()
        return self._seen[key]

    def owner(self, inst):
        return self._owner[inst]

    @property
    def pending(self):
        def make():
            d = self.game.pending()
            return None if d is None else Pending(d["player"], d["kind"], list(d["options"]), d["prompt"])
        return self._cached("pending", make)

    @property
    def phase(self):
        return self.game.phase

    @property
    def round(self):
        return self.game.round

    @property
    def edge(self):
        return self.game.edge

    @property
    def winner(self):
        return self.game.winner

    def round_scores(self):
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

    def units(self):
        return list(self._units().values())

    def unit(self, uid):
        return self._units()[uid]

    def power(self, uid):
        return self.game.power(uid)

    def side_power(self, mission, player):
        return self.game.side_power(mission, player)

    def _player(self, player: int) -> dict:
        return self._cached(f"player{player}", lambda: self.game.player(player))

    def zone(self, player, name):
        return list(self._player(player)[name])

    def counter(self, player, name):
        return self._player(player)[name]

    def missions(self):
        return self._cached("missions", lambda: [
            MissionView(card=m["card"], rank=m["rank"], winner=m["winner"],
                        attachments=(list(m["attachments"][0]), list(m["attachments"][1])))
            for m in self.game.missions()])

    def mission_deck(self):
        return list(self.game.mission_deck())

    def att_hidden(self):
        return set(self.game.att_hidden())

    def order_sources(self):
        return list(self.game.order_sources())

    def legal_actions(self):
        return self.game.legal_actions()

    def apply(self, action):
        self._seen.clear()
        self.game.apply(tuple(action))


def load(spec: dict, catalog: Catalog, engine: str = "python") -> Board:
    """The board a spec describes, in one engine (``python`` or ``core``), at its first decision."""
    if engine == "python":
        return PythonBoard(python_state(spec, catalog))
    if engine == "core":
        if _core is None:
            raise RuntimeError("the Rust core (mythos_cli._core) is not built: run `maturin develop --release`")
        return CoreBoard(_core.Game.from_spec(json.dumps(spec)), catalog)
    raise ValueError(f"engine must be one of {', '.join(ENGINES)}, not {engine!r}")
