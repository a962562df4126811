"""The Policy protocol and the Observation a policy decides from.

A policy answers every decision of the engine (main actions, optional effects, targets,
missions, numbers, trigger order, mulligan) through ``decide(obs)``. It sees the game only
through an ``Observation``: the player's own hand and hidden cards, the public board, and
the legal actions. ``Observation.determinize`` deals the cards the player cannot see (the
opponent's hand and hidden characters, both deck orders) at random, for look-ahead.
"""

from __future__ import annotations

import random
from typing import Protocol

from mythos_cli.catalog.language import Selector
from mythos_cli.engine import rules
from mythos_cli.engine.game import legal_actions
from mythos_cli.engine.state import Ctx, Decision, GameState
from mythos_cli.engine.view import PlayerView, observe


class Policy(Protocol):
    name: str

    def decide(self, obs: "Observation") -> tuple: ...

    def reset(self, seed: int) -> None: ...


class Observation:
    """One player's window on the game. Every query here reads only what that player may know:
    selectors and Power treat hidden characters as nameless 0-cost cards, exactly as the rules do."""

    __slots__ = ("_g", "player", "decision", "_legal")

    def __init__(self, g: GameState, player: int):
        self._g = g
        self.player = player
        self.decision: Decision = g.pending
        self._legal: list | None = None

    # -- the decision ------------------------------------------------------------------
    @property
    def legal(self) -> list[tuple]:
        if self._legal is None:
            self._legal = legal_actions(self._g)
        return self._legal

    @property
    def kind(self) -> str:
        return self.decision.kind

    def view(self) -> PlayerView:
        return observe(self._g, self.player)

    # -- public facts ------------------------------------------------------------------
    @property
    def round(self) -> int:
        return self._g.round

    @property
    def has_edge(self) -> bool:
        return self._g.edge == self.player

    @property
    def chakra(self) -> int:
        return self._g.players[self.player].chakra

    @property
    def opponent_passed(self) -> bool:
        return self._g.players[1 - self.player].passed

    @property
    def opponent_chakra(self) -> int:
        return self._g.players[1 - self.player].chakra

    @property
    def scores(self) -> tuple[int, int]:
        return self._g.players[self.player].score, self._g.players[1 - self.player].score

    @property
    def n_missions(self) -> int:
        return len(self._g.missions)

    def hand(self) -> list[int]:
        return list(self._g.players[self.player].hand)

    def card(self, inst: int):
        """The card of an instance this player can see (own cards, face-up cards, options)."""
        return self._g.cards[inst]

    def mission_points(self, mi: int) -> int:
        return rules.mission_points(self._g, mi)

    def mission_rank(self, mi: int) -> int:
        return self._g.missions[mi].rank

    def side_power(self, mi: int, mine: bool) -> int:
        return rules.side_power(self._g, mi, self.player if mine else 1 - self.player)

    def side_powers(self) -> tuple[list[int], list[int]]:
        """Total Power on every mission: (mine, the opponent's)."""
        return rules.side_powers(self._g, self.player)

    def units(self, mi: int, mine: bool) -> list:
        return self._g.missions[mi].sides[self.player if mine else 1 - self.player]

    def unit(self, uid: int):
        return self._g.units.get(uid)

    def unit_card(self, uid: int):
        """The top card of a unit, or None for an opponent's hidden character."""
        u = self._g.units.get(uid)
        if u is None or (u.hidden and u.owner != self.player and u.controller != self.player):
            return None  # (a hidden card you control, e.g. one you took face down, is yours to look at)
        return self._g.cards[u.stack[-1]]

    def is_mine(self, uid: int) -> bool:
        u = self._g.units.get(uid)
        return u is not None and u.controller == self.player

    def power(self, uid: int) -> int:
        return rules.power(self._g, self._g.units[uid])

    def play_power(self, inst: int, mi: int) -> int:
        """Power a card would add if played face-up in mission ``mi`` (printed, statics aside)."""
        return self._g.cards[inst].power

    def select(self, sel: Selector, mission: int, source: int = -1) -> list:
        return rules.select(self._g, Ctx(player=self.player, source=source, mission=mission), sel)

    def attachment_place(self, inst: int) -> tuple[int, int]:
        """(host uid or -1, mission) of an attachment in play (one this player may see)."""
        for a, host, mi, _ in rules.all_attachments(self._g):
            if a == inst:
                return (host.uid if host is not None else -1), mi
        return -1, 0

    def mission_of(self, uid: int) -> int:
        u = self._g.units.get(uid)
        return u.mission if u is not None else -1

    def price(self, action: tuple) -> int:
        """The chakra a main action costs (0 for pass)."""
        return self.decision.prices[action]

    # -- look-ahead ----------------------------------------------------------------------
    def determinize(self, rng: random.Random) -> GameState:
        """A full game state consistent with this player's knowledge, unknown cards dealt at random.

        Unknown: the opponent's hand, the top cards of the opponent's hidden characters, the
        opponent's face-down attachments and both decks' order. They are pooled (sorted, so that the result depends only on what the
        player knows and on ``rng``), shuffled and dealt back into the same places.
        """
        g = self._g.clone()
        me, opp = g.players[self.player], g.players[1 - self.player]
        from mythos_cli.engine.view import _seen_hidden

        seen = _seen_hidden(g, self.player)  # hidden characters the player may look at are known
        hidden = [u for u in g.all_units()
                  if u.hidden and u.owner != self.player and u.controller != self.player and u.uid not in seen]
        # face-down attachments of the opponent: their slots, as (list holding it, index)
        att_slots = []
        for m in g.missions:
            holders = [m.attachments[0], m.attachments[1]] + [u.attachments for side in m.sides for u in side]
            for lst in holders:
                for i, a in enumerate(lst):
                    if a in g.att_hidden and g.owner[a] != self.player:
                        att_slots.append((lst, i))
        face_down = [lst[i] for lst, i in att_slots]
        pool = sorted(opp.hand + opp.deck + [u.stack[-1] for u in hidden] + face_down,
                      key=lambda c: (g.cards[c].id, c))
        rng.shuffle(pool)
        # a hidden character is a character card, a face-down attachment an attachment card:
        # deal those slots first from the matching cards, then the hand and the deck
        chars = [c for c in pool if g.cards[c].type == "character"]
        for u, c in zip(hidden, chars):
            u.stack[-1] = c
        used = set(u.stack[-1] for u in hidden)
        atts = [c for c in pool if g.cards[c].type == "attachment" and c not in used]
        # every slot's old card is let go before any new one is flagged: a card dealt to one slot
        # may be the very card another slot held, and its face-down flag and Power must not be lost
        dealt = [(lst, i, lst[i], c) for (lst, i), c in zip(att_slots, atts)]
        powers = {old: g.att_power.pop(old) for _, _, old, _ in dealt if old in g.att_power}
        for _, _, old, _ in dealt:
            g.att_hidden.discard(old)
        for lst, i, old, c in dealt:
            g.att_hidden.add(c)
            if old in powers:
                g.att_power[c] = powers[old]
            lst[i] = c
            used.add(c)
        rest = [c for c in pool if c not in used]
        k = 0
        for i in range(len(opp.hand)):
            opp.hand[i] = rest[k]
            k += 1
        for i in range(len(opp.deck)):
            opp.deck[i] = rest[k]
            k += 1
        mine = sorted(me.deck, key=lambda c: (g.cards[c].id, c))
        rng.shuffle(mine)
        me.deck[:] = mine
        g.board_version += 1
        g.rng = random.Random(rng.getrandbits(64))
        return g


def context_verbs(decision: Decision) -> list:
    """The effect steps a decision is about (empty for main actions and mulligans)."""
    c = decision.context
    if c is None:
        return []
    if isinstance(c, tuple):
        return [s for s in c if hasattr(s, "verb")]
    return [c] if hasattr(c, "verb") else []


def make_rng(seed: int, salt: str) -> random.Random:
    return random.Random(f"{seed}:{salt}")

