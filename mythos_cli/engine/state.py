"""The game state: plain, compact, mutable structures. Clone explicitly with ``clone()``.

Cards in a game are *instances*: small ints indexing ``GameState.cards`` (the catalog
``Card``) and ``GameState.owner``. A character in play is a ``Unit``: an upgrade stack of
instances (bottom → top) with its status (hidden, power tokens, controller, attachments).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, fields
from typing import Any

from mythos_cli.catalog.model import Card

RANKS = "DCBA"
RANK_BONUS = (1, 2, 3, 4)
BASE_CHAKRA = 5
HAND_SIZE = 5
DRAW_PER_ROUND = 2
ROUNDS = 4


@dataclass(slots=True)
class Unit:
    """A character in play: an upgrade stack that counts as one character."""

    uid: int
    stack: list[int]  # card instances, bottom → top; the top card is the character
    owner: int
    controller: int  # the side it stands on (differs from owner under take control)
    mission: int
    hidden: bool = False
    tokens: int = 0
    played_round: int = 0
    played_turn: int = 0  # the action count when it was last played (or revealed)
    attachments: list[int] = field(default_factory=list)
    controlled_by: int = -1  # uid of the unit whose effect took control of this one
    discounted: bool = False  # last played for less than the rules' price because of an effect

    @property
    def top(self) -> int:
        return self.stack[-1]


@dataclass(slots=True)
class Mission:
    card: int  # instance
    rank: int  # 0..3 = D, C, B, A (the round it entered play)
    sides: tuple[list[Unit], list[Unit]] = field(default_factory=lambda: ([], []))
    attachments: tuple[list[int], list[int]] = field(default_factory=lambda: ([], []))
    winner: int = -1  # last evaluation's winner (-1: nobody)


@dataclass(slots=True)
class Player:
    index: int
    hand: list[int] = field(default_factory=list)
    deck: list[int] = field(default_factory=list)  # top of the deck is the END of the list
    discard: list[int] = field(default_factory=list)
    missions: list[int] = field(default_factory=list)  # the 3 chosen missions
    set_aside: int = -1  # the unused mission, unseen
    chakra: int = 0
    score: int = 0
    passed: bool = False
    plays_this_round: int = 0  # characters played this round (FIRST STRIKE)
    attached_this_round: int = 0  # attachments played or revealed this round (an attachment's FIRST STRIKE)
    mulliganed: bool = False
    chakra_gained: int = 0  # this round, for statistics
    chakra_spent: int = 0
    drawn: int = 0  # this round's statistics, kept in GameState.round_log at the end of each round
    played_face_up: int = 0
    played_hidden: int = 0
    revealed: int = 0
    upgraded: int = 0
    cost_face_up: list[int] = field(default_factory=list)
    missions_won: int = 0

    def pay(self, chakra: int) -> None:
        """Spend chakra (counted in this round's chakra spent)."""
        self.chakra -= chakra
        self.chakra_spent += chakra

    def take(self, inst: int) -> bool:
        """Remove a card from hand, discard pile or deck (wherever it is); False if in none."""
        for zone in (self.hand, self.discard, self.deck):
            if inst in zone:
                zone.remove(inst)
                return True
        return False


@dataclass(slots=True)
class Decision:
    """What the engine waits for: one player chooses one of ``options``."""

    player: int
    kind: str  # "action", "mulligan", "target", "mission", "card", "yesno", "number", "order", "place"
    options: list[Any]
    prompt: str = ""
    context: Any = None  # the effect step (or, for "use this line?", the line's steps) being resolved
    source: int = -1  # the unit whose effect asks (-1: a mission, or a main action)
    prices: dict | None = None  # main actions: the chakra each play or reveal costs


@dataclass(slots=True)
class Frame:
    """An effect being resolved: its steps, where it is, and the choices made so far."""

    steps: list[Any]
    ctx: "Ctx"
    pc: int = 0
    choices: list[Any] = field(default_factory=list)
    cursor: int = 0
    label: str = ""


@dataclass(slots=True)
class Ctx:
    """Who resolves an effect, from which card, where, with which remembered values."""

    player: int  # the controller (the decider unless a verb says otherwise)
    source: int = -1  # unit uid of the character (or -1 for a mission / attachment)
    mission: int = -1  # "this mission"
    card: int = -1  # the card instance whose effect this is
    vars: dict[str, Any] = field(default_factory=dict)
    upgrade: bool = False  # played as an upgrade (UPGRADE lines apply)
    ambush: bool = False  # revealed from hidden (AMBUSH lines apply)
    optional: bool = True
    pinned: bool = False  # "this mission" stays ``mission`` even if the source character moves


@dataclass(slots=True)
class GameState:
    cards: list[Card]
    owner: list[int]
    players: tuple[Player, Player]
    rng: random.Random
    seed: int = 0
    missions: list[Mission] = field(default_factory=list)
    mission_deck: list[int] = field(default_factory=list)  # top is the END of the list
    round: int = 0
    phase: str = "setup"  # setup, mulligan, start, action, evaluate, end, over
    edge: int = 0
    first_edge: int = 0
    current: int = 0  # the player whose turn it is in the Action phase
    turn: int = 0  # actions taken so far (for "played during the previous turn")
    eval_index: int = 0
    stack: list[Frame] = field(default_factory=list)
    pending: Decision | None = None
    next_uid: int = 1
    units: dict[int, Unit] = field(default_factory=dict)
    winner: int = -1
    tiebreak_by_edge: bool = False
    edge_locked: int = -1  # a player who cannot lose the Edge this round
    round_scores: list[list[int]] = field(default_factory=list)  # per round, points scored by each player
    decisions: int = 0
    events: list[tuple] | None = None  # optional event stream
    history: list[tuple] = field(default_factory=list)  # actions applied (for replay)
    last_turn_plays: dict[int, tuple[int, ...]] = field(default_factory=dict)  # per player: uids played in their latest turn
    turn_over: bool = False
    round_log: list = field(default_factory=list)  # per round: a stats dict per player
    board_version: int = 0  # bumped whenever which cards are face-up where changes
    lines_version: int = -1
    lines_cache: dict = field(default_factory=dict)
    token_version: int = 0  # bumped whenever Power tokens change anywhere
    power_key: tuple | None = None
    power_cache: dict = field(default_factory=dict)
    # attachments (Shinobi Shiren): instances played face-down, Power overrides (a character
    # turned attachment), and the characters moved during each player's latest turn
    att_hidden: set = field(default_factory=set)
    att_power: dict = field(default_factory=dict)
    last_turn_moves: dict[int, tuple[int, ...]] = field(default_factory=dict)
    eval_ready: int = -1  # the mission whose "before Power is determined" effects have run

    def clone(self) -> "GameState":
        """An independent copy (for look-ahead), made by hand for speed: the catalog cards,
        effect steps and decisions' option lists are immutable and shared."""
        g = _copy_state(self)
        g.players = tuple(_clone_player(p) for p in self.players)
        units: dict[int, Unit] = {}
        g.missions = [_clone_mission(m, units) for m in self.missions]
        g.units = units
        g.mission_deck = list(self.mission_deck)
        g.round_scores = [list(r) for r in self.round_scores]
        g.round_log = list(self.round_log)
        g.history = list(self.history)
        g.last_turn_plays = dict(self.last_turn_plays)
        g.att_hidden = set(self.att_hidden)
        g.att_power = dict(self.att_power)
        g.last_turn_moves = dict(self.last_turn_moves)
        g.events = None if self.events is None else list(self.events)
        g.stack = [_clone_frame(f) for f in self.stack]
        g.rng = random.Random.__new__(random.Random)  # (no fresh seeding: the state is set next)
        g.rng.setstate(self.rng.getstate())
        g.lines_cache = {}
        g.lines_version = -1
        g.power_cache = {}
        g.power_key = None
        return g

    # ---- small helpers used everywhere -------------------------------------------------
    def card(self, instance: int) -> Card:
        return self.cards[instance]

    def unit_card(self, unit: Unit) -> Card:
        return self.cards[unit.stack[-1]]

    def emit(self, *event: Any) -> None:
        if self.events is not None:
            self.events.append((self.round, *event))

    def all_units(self):
        for m in self.missions:
            yield from m.sides[0]
            yield from m.sides[1]

    @property
    def is_terminal(self) -> bool:
        return self.phase == "over"


def _shallow_copier(cls):
    """A fast shallow copy for a slots dataclass (``copy.copy`` goes through ``__reduce_ex__``):
    a function assigning every field, generated once per class."""
    names = [f.name for f in fields(cls)]
    body = "".join(f"    n.{a} = o.{a}\n" for a in names)
    ns: dict = {"_new": object.__new__, "_cls": cls}
    exec(f"def shallow(o):\n    n = _new(_cls)\n{body}    return n\n", ns)
    return ns["shallow"]


_copy_state = _shallow_copier(GameState)
_copy_player = _shallow_copier(Player)
_copy_unit = _shallow_copier(Unit)
_copy_ctx = _shallow_copier(Ctx)


def _clone_player(p: Player) -> Player:
    q = _copy_player(p)
    q.hand, q.deck, q.discard, q.missions = list(p.hand), list(p.deck), list(p.discard), list(p.missions)
    q.cost_face_up = list(p.cost_face_up)
    return q


def _clone_unit(u: Unit) -> Unit:
    v = _copy_unit(u)
    v.stack = list(u.stack)
    v.attachments = list(u.attachments)
    return v


def _clone_mission(m: Mission, units: dict) -> Mission:
    sides = ([], [])
    for i in (0, 1):
        for u in m.sides[i]:
            v = _clone_unit(u)
            units[v.uid] = v
            sides[i].append(v)
    return Mission(card=m.card, rank=m.rank, sides=sides,
                   attachments=(list(m.attachments[0]), list(m.attachments[1])), winner=m.winner)


def _clone_frame(f: Frame) -> Frame:
    ctx = _copy_ctx(f.ctx)
    ctx.vars = {k: (list(v) if isinstance(v, list) else v) for k, v in f.ctx.vars.items()}
    steps = f.steps
    if any(type(s).__name__ == "Order" for s in steps):
        steps = [type(s)([_clone_frame(x) for x in s.frames]) if type(s).__name__ == "Order" else s for s in steps]
    return Frame(steps=steps, ctx=ctx, pc=f.pc, choices=list(f.choices), cursor=f.cursor, label=f.label)
