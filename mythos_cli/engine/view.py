"""What one player may know: their own hand and hidden cards, never the opponent's hand,
the opponent's hidden cards or either deck's order. Policies decide from this view only."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mythos_cli.engine import rules
from mythos_cli.engine.state import RANKS, GameState


@dataclass(frozen=True, slots=True)
class UnitView:
    uid: int
    side: int  # 0 = mine, 1 = the opponent's
    mission: int
    hidden: bool
    card: str | None  # version id; None for an opponent's hidden character
    tokens: int
    power: int
    stack: int  # cards in the upgrade stack
    controlled: bool
    attachments: tuple = ()  # version ids; None for a face-down attachment the opponent played


@dataclass(frozen=True, slots=True)
class PlayerView:
    player: int
    round: int
    phase: str
    edge: bool  # I hold the Edge
    scores: tuple[int, int]  # mine, theirs
    chakra: tuple[int, int]
    hand: tuple[str, ...]  # my hand, version ids
    hand_instances: tuple[int, ...]
    opponent_hand_size: int
    deck_sizes: tuple[int, int]
    discards: tuple[tuple[str, ...], tuple[str, ...]]
    missions: tuple[tuple[str, str], ...]  # (mission id, rank)
    units: tuple[UnitView, ...]
    passed: tuple[bool, bool]
    decision: Any  # the pending decision if it is mine, else None
    mission_attachments: tuple = ()  # per mission: (mine, theirs) version ids (None: face-down, theirs)

    def key(self) -> tuple:
        """Everything in the view, as one comparable value."""
        return (self.player, self.round, self.phase, self.edge, self.scores, self.chakra, self.hand,
                self.opponent_hand_size, self.deck_sizes, self.discards, self.missions, self.units, self.passed,
                self.mission_attachments,
                None if self.decision is None else (self.decision.kind, tuple(map(str, self.decision.options))))


def observe(g: GameState, player: int) -> PlayerView:
    me, opp = g.players[player], g.players[1 - player]
    units = []
    seen = _seen_hidden(g, player)
    for mi, m in enumerate(g.missions):
        for side in (player, 1 - player):
            for u in m.sides[side]:
                mine = u.owner == player or u.controller == player
                visible = not u.hidden or mine or u.uid in seen
                units.append(UnitView(
                    uid=u.uid, side=0 if side == player else 1, mission=mi, hidden=u.hidden,
                    card=g.cards[u.stack[-1]].id if visible else None, tokens=u.tokens,
                    power=rules.power(g, u), stack=len(u.stack), controlled=u.controlled_by != -1,
                    attachments=tuple(_att(g, a, player) for a in u.attachments)))
    d = g.pending if g.pending is not None and g.pending.player == player else None
    return PlayerView(
        player=player, round=g.round, phase=g.phase, edge=g.edge == player,
        scores=(me.score, opp.score), chakra=(me.chakra, opp.chakra),
        hand=tuple(g.cards[c].id for c in me.hand), hand_instances=tuple(me.hand),
        opponent_hand_size=len(opp.hand), deck_sizes=(len(me.deck), len(opp.deck)),
        discards=(tuple(g.cards[c].id for c in me.discard), tuple(g.cards[c].id for c in opp.discard)),
        missions=tuple((g.cards[m.card].id, RANKS[m.rank]) for m in g.missions),
        units=tuple(units), passed=(me.passed, opp.passed), decision=d,
        mission_attachments=tuple((tuple(_att(g, a, player) for a in m.attachments[player]),
                                   tuple(_att(g, a, player) for a in m.attachments[1 - player])) for m in g.missions))


def _seen_hidden(g: GameState, player: int) -> set[int]:
    """Hidden characters ``player`` may look at any time (⧗ see_hidden)."""
    out: set[int] = set()
    for src, mi, ctl, s in rules.statics(g, "see_hidden"):
        if ctl != player:
            continue
        ctx = rules.static_ctx(src, mi, ctl)
        out.update(u.uid for u in g.all_units() if u.hidden and rules.static_hits(g, ctx, s, u))
    return out


def _att(g: GameState, a: int, player: int) -> str | None:
    """An attachment as ``player`` sees it: face-down ones are known to the player who played them."""
    return None if a in g.att_hidden and g.owner[a] != player else g.cards[a].id
