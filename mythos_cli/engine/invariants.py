"""Invariants every reachable state must satisfy; checked over thousands of random games."""

from __future__ import annotations

from collections import Counter

from mythos_cli.engine import rules
from mythos_cli.engine.state import GameState


class InvariantViolation(AssertionError):
    pass


def check(g: GameState) -> None:
    """Raise ``InvariantViolation`` naming the first broken invariant."""
    where: Counter = Counter()
    for p in g.players:
        for zone in (p.hand, p.deck, p.discard, p.missions):
            for c in zone:
                where[c] += 1 if zone is not p.missions else 0
    for m in g.missions:
        where[m.card] += 1
        for side in m.attachments:
            for a in side:
                where[a] += 1
    for c in g.mission_deck:
        where[c] += 1
    for p in g.players:
        if p.set_aside >= 0:
            where[p.set_aside] += 1
    seen_units = set()
    for mi, m in enumerate(g.missions):
        for side_idx, side in enumerate(m.sides):
            names = Counter()
            for u in side:
                if u.uid in seen_units:
                    raise InvariantViolation(f"unit {u.uid} stands in two places")
                seen_units.add(u.uid)
                if g.units.get(u.uid) is not u:
                    raise InvariantViolation(f"unit {u.uid} is on the board but not indexed")
                if u.controller != side_idx or u.mission != mi:
                    raise InvariantViolation(f"unit {u.uid} thinks it is at ({u.mission},{u.controller}), stands at ({mi},{side_idx})")
                if u.tokens < 0:
                    raise InvariantViolation(f"unit {u.uid} has {u.tokens} power tokens")
                if u.controller != u.owner and u.controlled_by < 0:
                    raise InvariantViolation(f"unit {u.uid} is on its non-owner's side without a control link")
                if u.controlled_by >= 0:  # FAQ: control lasts while its source is face-up on the same side
                    src = g.units.get(u.controlled_by)
                    if src is None or src.hidden or src.controller != u.controller:
                        raise InvariantViolation(f"unit {u.uid} is controlled by unit {u.controlled_by}, "
                                                 "which is gone, hidden or on the other side (control should have ended)")
                for c in u.stack:
                    where[c] += 1
                    if g.owner[c] != u.owner:
                        raise InvariantViolation(f"stack of unit {u.uid} mixes owners")
                for a in u.attachments:
                    where[a] += 1
                names[g.cards[u.stack[-1]].name_key] += 1
            dup = [n for n, k in names.items() if k > 1]
            if dup:
                raise InvariantViolation(f"mission {mi}, player {side_idx}: two characters named {dup[0]}")
    if g.lines_version == g.board_version:  # the lines in force, as cached, equal a fresh reading
        cached = [(x[0].uid if x[0] else None, x[1:]) for x in rules.active_lines(g)]
        g.lines_version = -1
        fresh = [(x[0].uid if x[0] else None, x[1:]) for x in rules.active_lines(g)]
        if cached != fresh:
            raise InvariantViolation("cached continuous lines differ from the board "
                                     "(a change of face-up cards did not bump the board version)")
    for u in g.all_units():
        if rules.power(g, u) != rules.power_now(g, u):
            raise InvariantViolation(f"unit {u.uid}: memoised Power {rules.power(g, u)} != {rules.power_now(g, u)} "
                                     "(a change to tokens or the board did not bump its version)")
    if set(g.units) != seen_units:
        raise InvariantViolation(f"indexed units not on the board: {sorted(set(g.units) - seen_units)}")
    for inst in range(len(g.cards)):
        if where[inst] != 1:
            raise InvariantViolation(f"card instance {inst} ({g.cards[inst].id}, owner {g.owner[inst]}) is in {where[inst]} places")
    for p in g.players:
        if p.chakra < 0:
            raise InvariantViolation(f"player {p.index} has {p.chakra} chakra")
        if p.score != sum(r[p.index] for r in g.round_scores):
            raise InvariantViolation(f"player {p.index} score {p.score} != points scored {g.round_scores}")
    if len(g.missions) + len(g.mission_deck) != 4 or len(g.missions) > max(g.round, 0):
        raise InvariantViolation(f"{len(g.missions)} missions in play in round {g.round}, {len(g.mission_deck)} to come")
    if g.phase == "over" and g.winner not in (0, 1):
        raise InvariantViolation("finished game without a winner")
    if g.phase != "over" and g.pending is None:
        raise InvariantViolation("the game waits for nobody")
