"""Attachments (Shinobi Shiren): cards played onto a character or a mission instead of a character.

Readings (the rulebook's attachment chapter is not in our sources; the card text decides):

* An attachment is played in the Action phase instead of a character, paying its cost (cost
  statics that name attachments apply), onto a host its ATTACH line allows, seen from the
  player who plays it. Like a character it may be played face-down for 1 chakra and revealed
  later paying its cost: revealing applies its MAIN and AMBUSH lines. A face-down attachment
  adds no Power, has no effect and shows no name or keyword.
* A character carries at most one attachment of each player (⧗ many_attachments lifts it for
  its controller's own); ⧗ no_attachments refuses any other. Missions take any number.
* The ATTACH condition is checked when the attachment is played (or moved by an effect).
  Afterwards the attachment stays with its host whatever happens to it: hidden (it keeps
  adding its Power and its lines keep applying), moved, upgraded, stripped, taken or given
  back under control. It leaves play only with its host (to its owner's discard pile) or
  through an effect that discards or moves it.
* An attachment on a character is controlled by that character's controller: "this
  character" in its text is the host, "friendly" is the host's side. One on a mission is
  controlled by the player who played it, and its Power adds to that player's total there.
* Attachments count as cards, not characters: they give no chakra in the Start phase, do
  not count for FIRST STRIKE ("the first character you play"), and the name rule does not
  apply to them. An attachment's own FIRST STRIKE line applies when it is the first card its
  player plays in the round; revealing a face-down one is playing it, as for a character.
"""

from __future__ import annotations

from typing import Iterator

from mythos_cli.engine import interp, rules
from mythos_cli.engine.rules import IllegalAction
from mythos_cli.engine.state import Ctx, GameState, Unit


def attach_options(g: GameState, player: int, inst: int, *, hidden: bool = False, discount: int = 0,
                   here: int = -1) -> Iterator[tuple[int, int, int]]:
    """Where ``player`` may play attachment ``inst``: (mission, host uid or -1 for the mission, price)."""
    for mi, hosts, up, down in attach_places(g, player, inst, discount=discount, here=here):
        price = down if hidden else up
        if price is not None:
            for host in hosts:
                yield mi, host, price


def attach_places(g: GameState, player: int, inst: int, *, discount: int = 0, here: int = -1):
    """Per mission: (mission, legal hosts (-1: the mission), face-up price or None, face-down
    price or None); None when ``player`` cannot pay. Hosts are computed once for both ways."""
    card = g.cards[inst]
    host = rules.attach_host(card)
    if host is None:
        return
    chakra = g.players[player].chakra
    down = max(0, 1 - discount)
    down = down if down <= chakra else None
    missions = range(len(g.missions)) if here < 0 else (here,)
    # (a quick filter before the selectors: every ATTACH selector names the same side)
    # (every ATTACH selector names the same side: look only there; a unit's controller is its side)
    named = {s.side for s in host} if isinstance(host, tuple) else set()
    look = (player,) if named == {"friendly"} else (1 - player,) if named == {"enemy"} else (player, 1 - player)
    plain = not rules.statics(g, "cost") and not rules.has_own_cost(g, inst)
    # characters that take any of this player's attachments, ignoring the ATTACH condition (SS-065)
    anyhost = rules.statics(g, "many_attachments")
    if anyhost:
        anyhost = [src for src, _, ctl, _ in anyhost
                   if src is not None and ctl == player and rules.takes_any_attachment(g, player, src)]
    any_uids = {u.uid for u in anyhost} if anyhost else ()
    ctx = None
    for mi in missions:
        up = max(0, (card.cost if plain else rules.play_cost(g, player, inst, mi)) - discount)
        up = up if up <= chakra else None
        if up is None and down is None:
            continue
        if host == "mission":
            yield mi, (-1,) + tuple(u.uid for u in anyhost if u.mission == mi), up, down
            continue
        m = g.missions[mi]
        if ctx is None:
            ctx = Ctx(player=player, mission=mi)
        else:
            ctx.mission = mi  # (one context for every mission: the host checks keep none of it)
        hosts = tuple(u.uid for side in look for u in m.sides[side]
                      if (not u.attachments or rules.host_room(g, player, u))
                      and (rules.host_fits(g, ctx, host, u) or u.uid in any_uids))
        if anyhost and player not in look:
            hosts += tuple(u.uid for u in anyhost if u.mission == mi)
        if hosts:
            yield mi, hosts, up, down


def hidden_attachments_of(g: GameState, player: int) -> Iterator[tuple[int, Unit | None, int]]:
    """Face-down attachments ``player`` played: (instance, host or None, mission)."""
    if not g.att_hidden:
        return
    for a, host, mi, side in rules.all_attachments(g):
        if a in g.att_hidden and g.owner[a] == player:
            yield a, host, mi


def reveal_attachment_price(g: GameState, player: int, inst: int, mi: int) -> int | None:
    price = rules.play_cost(g, player, inst, mi)
    return price if price <= g.players[player].chakra else None


def locate(g: GameState, inst: int) -> tuple[Unit | None, int, int]:
    """Where an attachment in play is: (host or None, mission, controlling side)."""
    for a, host, mi, side in rules.all_attachments(g):
        if a == inst:
            return host, mi, side
    raise IllegalAction(f"attachment {inst} is not in play")


def attach_card(g: GameState, player: int, inst: int, mi: int, host_uid: int, *, hidden: bool, price: int) -> None:
    """Play attachment ``inst`` from its zone onto a character (``host_uid``) or mission ``mi``."""
    p = g.players[player]
    if not p.take(inst):
        raise IllegalAction(f"card {inst} is not in player {player}'s hand, deck or discard pile")
    p.pay(price)
    p.attached_this_round += 1
    host = None
    if host_uid >= 0:
        host = g.units[host_uid]
        host.attachments.append(inst)
        mi = host.mission
    else:
        g.missions[mi].attachments[player].append(inst)
    if hidden:
        g.att_hidden.add(inst)
    current = g.lines_version == g.board_version
    g.board_version += 1
    if hidden and current:
        g.lines_version = g.board_version  # a face-down attachment brings no line: the lines in force stay
    g.emit("attach", player, g.cards[inst].id, mi, "hidden" if hidden else "face_up", price)
    if not hidden:
        _attach_sequence(g, player, inst, host, mi, ambush=False)


def reveal_attachment(g: GameState, player: int, inst: int, price: int) -> None:
    """Turn a face-down attachment face-up paying its cost: MAIN and AMBUSH lines apply."""
    host, mi, _ = locate(g, inst)
    p = g.players[player]
    p.pay(price)
    p.attached_this_round += 1  # revealing is playing it (its FIRST STRIKE, as for a character)
    g.att_hidden.discard(inst)
    g.board_version += 1
    g.emit("reveal_attachment", player, g.cards[inst].id, mi, price)
    _attach_sequence(g, player, inst, host, mi, ambush=True)


def _attach_sequence(g: GameState, player: int, inst: int, host: Unit | None, mi: int, *, ambush: bool) -> None:
    """Like a card play: the attachment's own lines wait beneath the triggers it causes."""
    frame = interp.attach_frame(g, player, inst, host, mi, ambush=ambush)
    if frame is not None:
        g.stack.append(frame)
    interp.fire(g, "attached", host, by=player, attachment=inst, host=host.uid if host is not None else -1)


def detach(g: GameState, inst: int) -> tuple[Unit | None, int, int]:
    """Take an attachment off its host or mission (it stays out of every zone: the caller puts it somewhere)."""
    host, mi, side = locate(g, inst)
    if host is not None:
        host.attachments.remove(inst)
    else:
        g.missions[mi].attachments[side].remove(inst)
    g.board_version += 1
    return host, mi, side


def discard(g: GameState, inst: int) -> None:
    detach(g, inst)
    interp.discard_attachment(g, inst)
    g.emit("discard_attachment", g.owner[inst], g.cards[inst].id)


def move_to(g: GameState, inst: int, host: Unit) -> None:
    detach(g, inst)
    host.attachments.append(inst)
    g.board_version += 1
    g.emit("move_attachment", host.controller, g.cards[inst].id, host.uid)


def unit_becomes_attachment(g: GameState, u: Unit, host: Unit, power: int) -> None:
    """A character turned attachment (it is "treated as an attachment instead of a character"):
    it leaves the board as a character (cards beneath, tokens and its own attachments go, control
    links break) and its top card sits on ``host`` adding ``power``."""
    side = g.missions[u.mission].sides[u.controller]
    if u in side:
        side.remove(u)
    g.units.pop(u.uid, None)
    owner = g.players[u.owner]
    for c in reversed(u.stack[:-1]):
        owner.discard.append(c)
    for a in u.attachments:
        interp.discard_attachment(g, a)
    u.attachments = []
    top = u.stack[-1]
    host.attachments.append(top)
    g.att_power[top] = power
    g.board_version += 1
    g.token_version += 1
    g.emit("attach", u.controller, g.cards[top].id, host.mission, "character", 0)
    interp.break_control_from(g, u)
