"""A board spec (``mythos_cli.scenario.spec``) as the Python engine's state.

Scenarios run on the rules core (``mythos_cli.scenario``); the Python players' tests still build
Python-engine states from scenario boards, so this loader stays with the Python engine and
retires with it (issue 16).
"""

from __future__ import annotations

import random

from mythos_cli.catalog import Catalog
from mythos_cli.catalog.model import Card
from mythos_cli.engine import game, interp
from mythos_cli.engine.state import HAND_SIZE, Decision, GameState, Mission, Player, Unit

_PLAYER_KEYS = ("hand", "deck", "discard", "missions", "set_aside", "chakra", "score", "passed",
                "plays_this_round", "attached_this_round", "mulliganed")


_SPEC_KEYS = {"seed", "cards", "owner", "setup", "players", "missions", "units", "mission_deck", "round", "phase",
              "edge", "first_edge", "current", "turn", "round_scores", "att_hidden", "att_power", "edge_locked",
              "events", "mulligan"}


def python_state(spec: dict, catalog: Catalog) -> GameState:
    """The Python engine's ``GameState`` for a board spec, run to its first decision. A
    malformed spec raises ValueError (or KeyError for an unknown card)."""
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
