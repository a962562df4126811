"""The rules that every action and effect consults: power, costs, statics, leaving play.

Static (⧗) effects are not stored anywhere: they are read off the face-up cards in play
(and the missions) whenever a rule asks, so they are always "re-checked after every step"
as the FAQ requires. Static conditions look at *core stats* (printed Power plus tokens),
which is what stops bonuses from feeding each other.
"""

from __future__ import annotations

from typing import Iterator

from mythos_cli.catalog.language import Condition, Count, Selector, Static, Trigger
from mythos_cli.engine.state import RANK_BONUS, Ctx, GameState, Unit


class IllegalAction(ValueError):
    """The action is not legal in this state; the state is left untouched."""


# ---------------------------------------------------------------------------------------
# reading the board
def unit_at(g: GameState, uid: int) -> Unit | None:
    return g.units.get(uid)


def name_of(g: GameState, u: Unit) -> str:
    return g.cards[u.stack[-1]].name_key


def printed_power(g: GameState, u: Unit) -> int:
    return 0 if u.hidden else g.cards[u.stack[-1]].power


def core_power(g: GameState, u: Unit) -> int:
    """Printed Power plus tokens (a hidden character's printed Power counts as 0)."""
    return printed_power(g, u) + u.tokens


def cost_of(g: GameState, u: Unit) -> int:
    """A character's cost when an effect looks at it: 0 while hidden."""
    return 0 if u.hidden else g.cards[u.stack[-1]].cost


def keywords_of(g: GameState, u: Unit) -> tuple[str, ...]:
    if u.hidden:
        return ()
    kws = g.cards[u.stack[-1]].keywords
    if u.attachments:
        kws = kws + tuple(v for k, v in granted(g, u) if k == "keyword")
    return kws


def group_of(g: GameState, u: Unit) -> str | None:
    return None if u.hidden else g.cards[u.stack[-1]].group


# ---------------------------------------------------------------------------------------
# attachments (Shinobi Shiren)
_GRANTS: dict[str, tuple] = {}
_HOST: dict[str, object] = {}


def attach_host(card):
    """The ATTACH condition of an attachment: "mission", a tuple of selectors, or None."""
    found = _HOST.get(card.id, 0)
    if found == 0:
        found = None
        for line in card.effects:
            if line.timing == "attach" and line.encoding is not None and line.encoding.host is not None:
                found = line.encoding.host
        _HOST[card.id] = found
    return found


def _grants_of(card) -> tuple:
    found = _GRANTS.get(card.id)
    if found is None:
        found = tuple(gr for line in card.effects if line.timing == "attach" and line.encoding is not None
                      for gr in line.encoding.grants)
        _GRANTS[card.id] = found
    return found


def granted(g: GameState, u: Unit) -> tuple:
    """Groups and keywords the face-up attachments of ``u`` add ("also considered …")."""
    out: tuple = ()
    for a in u.attachments:
        if a not in g.att_hidden:
            out += _grants_of(g.cards[a])
    return out


def has_group(g: GameState, u: Unit, group: str) -> bool:
    if u.hidden:
        return False
    if g.cards[u.stack[-1]].group == group:
        return True
    return bool(u.attachments) and ("group", group) in granted(g, u)


def has_keyword(g: GameState, u: Unit, kw: str) -> bool:
    if u.hidden:
        return False
    if kw in g.cards[u.stack[-1]].keywords:
        return True
    return bool(u.attachments) and ("keyword", kw) in granted(g, u)


def blanked(g: GameState, u: Unit) -> bool:
    """⧗ blank: an attachment makes this character's own effect text blank."""
    if not u.attachments:
        return False
    for a in u.attachments:
        if a not in g.att_hidden and own_static_card(g.cards[a], "blank"):
            return True
    return False


def attachment_side(g: GameState, u: Unit | None, side: int) -> int:
    """Who controls an attachment: its host's controller, or the side of a mission it sits on."""
    return u.controller if u is not None else side


def all_attachments(g: GameState):
    """Every attachment in play: (instance, host unit or None, mission, controlling side)."""
    for mi, m in enumerate(g.missions):
        for side in (0, 1):
            for a in m.attachments[side]:
                yield a, None, mi, side
            for u in m.sides[side]:
                for a in u.attachments:
                    yield a, u, mi, side


def attachment_fits(g: GameState, ctx: Ctx, sel: Selector | None, inst: int, host: Unit | None, mi: int, side: int) -> bool:
    """An attachment selector: ``side`` (whose attachment, seen from ``ctx``), ``where``, ``on``
    (character or mission attachments) and the card filters. Face-down attachments show nothing."""
    if sel is None:
        return True
    if sel.on == "character" and host is None or sel.on == "mission" and host is not None:
        return False
    if sel.side != "any" and ctx.player >= 0 and (side == ctx.player) != (sel.side == "friendly"):
        return False
    if sel.where == "this" and mi != ctx.mission:
        return False
    if sel.self_ and (host is None or host.uid != ctx.source):
        return False
    if sel.other and inst == ctx.card:  # "other attachments": not the one whose effect this is
        return False
    return attachment_card_fits(g, sel, inst)


def attachment_card_fits(g: GameState, sel: Selector | None, inst: int) -> bool:
    """A card filter tested against an attachment in play. Reading "a face-down attachment is an
    attachment with no name, keyword or group" (like a hidden character): it fits a filter that
    names none of them (and counts as cost 0), so it is an attachment for counts, discards, moves
    and "with an attachment", never a Senbon or a Weapon."""
    if sel is None:
        return True
    if inst in g.att_hidden:
        return _facedown_fits(sel)
    return _card_fits(g, sel, g.cards[inst])


def _facedown_fits(sel: Selector) -> bool:
    if sel.names or sel.keyword or sel.keywords or sel.group or sel.name_has or sel.printed_cost_max is not None:
        return False
    if sel.card_type not in (None, "attachment", "any"):
        return False
    return sel.cost_max is None or sel.cost_max >= 0


def select_attachments(g: GameState, ctx: Ctx, sel: Selector | None) -> list[tuple[int, Unit | None, int, int]]:
    return [t for t in all_attachments(g) if attachment_fits(g, ctx, sel, *t)]


def attachment_power(g: GameState, a: int, host: Unit | None) -> int:
    """The Power an attachment adds: printed (or overridden), 0 face-down, times ⧗ multipliers."""
    if a in g.att_hidden:
        return 0
    p = g.att_power.get(a)
    if p is None:
        p = g.cards[a].power or 0
    if host is not None and not host.hidden and not blanked(g, host):
        for s in own_static(g, host.stack[-1], "attachment_power"):
            if "filter" not in s.opts or _card_fits(g, s.opts["filter"], g.cards[a]):
                p *= s.opts.get("times", 2)
    return p


def friendly_attachments(g: GameState, u: Unit, player: int) -> int:
    return sum(1 for a in u.attachments if g.owner[a] == player)


def host_ok(g: GameState, player: int, inst: int, u: Unit, *, ignore: bool = False) -> bool:
    """Whether ``player`` may put attachment ``inst`` on character ``u`` now: its ATTACH
    condition (seen from ``player``), at most one of a player's attachments per character
    (⧗ many_attachments lifts it for its controller's own), and no ⧗ no_attachments."""
    if ignore or takes_any_attachment(g, player, u):
        return host_room(g, player, u)
    host = attach_host(g.cards[inst])
    if not isinstance(host, tuple):
        return False
    return host_room(g, player, u) and host_fits(g, Ctx(player=player, mission=u.mission), host, u)


def takes_any_attachment(g: GameState, player: int, u: Unit) -> bool:
    """⧗ many_attachments ("more than one friendly attachment, ignoring all requirements"): this
    face-up character of ``player`` takes any attachment of theirs, whatever its ATTACH condition
    (a mission attachment included)."""
    return (not u.hidden and u.controller == player and bool(own_static(g, u.stack[-1], "many_attachments"))
            and not blanked(g, u))


def host_room(g: GameState, player: int, u: Unit) -> bool:
    """Whether character ``u`` may take one more attachment of ``player`` (ATTACH condition aside)."""
    if not u.attachments:
        return True
    for a in u.attachments:
        if a not in g.att_hidden and own_static_card(g.cards[a], "no_attachments"):
            return False
    if not u.hidden and player == u.controller and own_static(g, u.stack[-1], "many_attachments") and not blanked(g, u):
        return True
    return friendly_attachments(g, u, player) < 1


def host_fits(g: GameState, ctx: Ctx, host: tuple, u: Unit) -> bool:
    """The ATTACH condition (a tuple of selectors, any of which will do) for character ``u``."""
    for s in host:
        if matches(g, ctx, s, u):
            return True
    return False


def duel_present(g: GameState, mi: int, key: str) -> bool:
    """DUEL <name>: a face-up character of that name stands in mission ``mi``, on either side."""
    if mi < 0:
        return False
    m = g.missions[mi]
    for side in m.sides:
        for u in side:
            if not u.hidden and g.cards[u.stack[-1]].name_key == key:
                return True
    return False


_CONTINUOUS: dict[str, tuple] = {}


def _and(c1: Condition | None, c2: Condition) -> Condition:
    if c1 is None:
        return c2
    import dataclasses

    extra = {f.name: getattr(c2, f.name) for f in dataclasses.fields(c2) if getattr(c2, f.name) not in (None, False, ())}
    return dataclasses.replace(c1, **extra)


def _gate(enc, cond: Condition):
    """The same continuous encoding, each static and trigger applying only while ``cond`` holds."""
    import dataclasses

    return dataclasses.replace(
        enc, statics=tuple(dataclasses.replace(s, cond=_and(s.cond, cond)) for s in enc.statics),
        triggers=tuple(dataclasses.replace(t, cond=_and(t.cond, cond)) for t in enc.triggers))


def _continuous(card) -> tuple:
    """The encoded continuous lines of a card (memoised per card version).

    A DUEL line holds only while its named character is in the mission; a FIRST STRIKE line
    only while you have played no character this round; a DUEL modifier of a continuous line
    ("DUEL X, MAIN effect: instead …") swaps that line's trigger steps while the duel holds."""
    found = _CONTINUOUS.get(card.id)
    if found is None:
        from mythos_cli.catalog.names import name_key

        out = []
        instant_timings = {l.timing for l in card.effects if l.kind == "instant"}
        mods = [l for l in card.effects if l.kind == "modifier" and l.duel and l.encoding is not None
                and l.encoding.modifier is not None and l.modifies not in instant_timings]
        for l in card.effects:
            if l.kind != "continuous" or l.encoding is None:
                continue
            enc = l.encoding
            if l.duel:
                enc = _gate(enc, Condition(duel=name_key(l.duel)))
            if l.timing == "first_strike":
                enc = _gate(enc, Condition(first_play=True))
            for m in mods:
                if m.modifies != l.timing:
                    continue
                import dataclasses

                mod = m.encoding.modifier
                key = name_key(m.duel)
                changed = dataclasses.replace(enc, statics=(), triggers=tuple(
                    dataclasses.replace(t, steps=mod.steps if mod.mode == "instead" else t.steps + mod.steps)
                    for t in enc.triggers))
                out.append(_gate(changed, Condition(duel=key)))
                # the unchanged triggers hold only while the duel does not (statics stay as they are)
                enc = dataclasses.replace(enc, triggers=tuple(
                    dataclasses.replace(t, cond=_and(t.cond, Condition(not_duel=key))) for t in enc.triggers))
            out.append(enc)
        found = tuple(out)
        _CONTINUOUS[card.id] = found
    return found


def active_lines(g: GameState) -> list[tuple[Unit | None, int, int, object, int]]:
    """Every continuous encoding in force: (unit or None, mission index, controller, encoding, card).

    A face-up character's continuous lines apply to its controller's side; a mission's
    continuous lines apply with no controller (-1). An attachment's lines apply to its host's
    controller (its "this character" is the host) or, on a mission, to the side it stands on;
    a face-down attachment's lines do not apply. The list is rebuilt only when the board
    changes (``board_version``); conditions and amounts are still evaluated live.
    """
    if g.lines_version == g.board_version:
        return g.lines_cache["_lines"]
    out = []
    hidden_att = g.att_hidden
    cards = g.cards
    known = _CONTINUOUS
    for mi, m in enumerate(g.missions):
        for enc in _continuous(cards[m.card]):
            out.append((None, mi, -1, enc, m.card))
        for side_i, side in enumerate(m.sides):
            for a in m.attachments[side_i]:
                if a not in hidden_att:
                    for enc in _continuous(cards[a]):
                        out.append((None, mi, side_i, enc, a))
            for u in side:
                if u.attachments:
                    for a in u.attachments:
                        if a not in hidden_att:
                            for enc in _continuous(cards[a]):
                                out.append((u, mi, u.controller, enc, a))
                    if blanked(g, u):
                        continue
                if u.hidden:
                    continue
                inst = u.stack[-1]
                encs = known.get(cards[inst].id)
                if encs is None:
                    encs = _continuous(cards[inst])
                for enc in encs:
                    out.append((u, mi, u.controller, enc, inst))
    # every static and trigger in force, grouped by kind in the same pass ("s:<kind>", "t:<on>")
    cache: dict = {"_lines": out}
    for u, mi, ctl, enc, inst in out:
        for s in enc.statics:
            key = "s:" + s.kind
            found = cache.get(key)
            if found is None:
                cache[key] = [(u, mi, ctl, s)]
            else:
                found.append((u, mi, ctl, s))
        for t in enc.triggers:
            key = "t:" + t.on
            found = cache.get(key)
            if found is None:
                cache[key] = [(u, mi, ctl, t, inst)]
            else:
                found.append((u, mi, ctl, t, inst))
    g.lines_cache = cache
    g.lines_version = g.board_version
    return out


_EMPTY: list = []


def statics(g: GameState, kind: str) -> list[tuple[Unit | None, int, int, Static]]:
    """Statics of one kind in force: (unit or None, mission, controller, static). Shared list: do not mutate."""
    if g.lines_version != g.board_version:
        active_lines(g)
    return g.lines_cache.get("s:" + kind, _EMPTY)


def triggers(g: GameState, on: str) -> list[tuple[Unit | None, int, int, Trigger, int]]:
    """Triggers in force: (unit or None, mission, controller, trigger, card instance of the line)."""
    if g.lines_version != g.board_version:
        active_lines(g)
    return g.lines_cache.get("t:" + on, _EMPTY)


def static_ctx(u: Unit | None, mi: int, ctl: int) -> Ctx:
    return Ctx(player=ctl, source=u.uid if u else -1, mission=mi, card=u.stack[-1] if u else -1)


# ---------------------------------------------------------------------------------------
# selectors and conditions
def matches(g: GameState, ctx: Ctx, sel: Selector, u: Unit, *, core: bool = False) -> bool:
    """Whether unit ``u`` fits selector ``sel`` seen from ``ctx`` (``core``: static check)."""
    if sel.self_:
        if u.uid != ctx.source:
            return False
        if not sel.extra:
            return True
    elif sel.var:
        v = ctx.vars.get(sel.var)
        return v == u.uid if isinstance(v, int) else (isinstance(v, (list, tuple, set)) and u.uid in v)
    if sel.not_var and ctx.vars.get(sel.not_var) == u.uid:
        return False
    if sel.other and u.uid == ctx.source:
        return False
    if sel.side != "any" and ctx.player >= 0:
        friendly = u.controller == ctx.player
        if (sel.side == "friendly") != friendly:
            return False
    if sel.where == "this" and u.mission != ctx.mission:
        return False
    if sel.where == "other_missions" and u.mission == ctx.mission:
        return False
    if sel.where == "chosen" and u.mission != ctx.vars.get("chosen_mission", -2):
        return False
    if sel.hidden is not None and u.hidden != sel.hidden:
        return False
    if sel.upgraded is not None and (len(u.stack) > 1) != sel.upgraded:
        return False
    card = g.cards[u.stack[-1]]
    if sel.group and (u.hidden or card.group != sel.group) and not (u.attachments and has_group(g, u, sel.group)):
        return False
    if sel.keyword and (u.hidden or sel.keyword not in card.keywords) and not (u.attachments and has_keyword(g, u, sel.keyword)):
        return False
    if sel.not_keyword and not u.hidden and (sel.not_keyword in card.keywords
                                             or u.attachments and has_keyword(g, u, sel.not_keyword)):
        return False
    if sel.names and (u.hidden or card.name_key not in sel.names):
        return False
    if sel.not_name and not u.hidden and card.name_key in sel.not_name:
        return False
    if sel.name_var and (u.hidden or card.name_key != ctx.vars.get(sel.name_var + "_name")):
        return False
    if sel.has_tokens is not None and (u.tokens > 0) != sel.has_tokens:
        return False
    if sel.played_last_turn and not (u.controller != ctx.player and u.uid in g.last_turn_plays.get(1 - ctx.player, ())):
        return False
    need_power = (sel.power_max is not None or sel.power_min is not None or sel.power_eq is not None
                  or sel.power_lt_self or sel.power_le_self or sel.power_max_var)
    if need_power:
        p = core_power(g, u) if core else power(g, u)
        if sel.power_max is not None and p > sel.power_max:
            return False
        if sel.power_min is not None and p < sel.power_min:
            return False
        if sel.power_eq is not None and p != sel.power_eq:
            return False
        if sel.power_max_var and p > int(ctx.vars.get(sel.power_max_var, 0)):
            return False
        if sel.power_lt_self or sel.power_le_self:
            src = g.units.get(ctx.source)
            if src is None:
                return False
            sp = core_power(g, src) if core else power(g, src)
            if (sel.power_lt_self and not p < sp) or (sel.power_le_self and not p <= sp):
                return False
    c = cost_of(g, u)
    if sel.cost_max is not None and c > sel.cost_max:
        return False
    if sel.cost_min is not None and c < sel.cost_min:
        return False
    if sel.cost_max_var and c > int(ctx.vars.get(sel.cost_max_var, 0)):
        return False
    if sel.printed_cost_max is not None and (u.hidden or card.cost > sel.printed_cost_max):
        return False
    if sel.cost_lt is not None and not c < number(g, ctx, sel.cost_lt):
        return False
    if sel.extra and not _matches_extra(g, ctx, sel, u, core):
        return False
    return True


def _matches_extra(g: GameState, ctx: Ctx, sel: Selector, u: Unit, core: bool) -> bool:
    """The Shinobi Shiren selector fields (kept apart so KS selectors pay nothing for them)."""
    card = g.cards[u.stack[-1]]
    if sel.card_type == "attachment":
        return False
    if sel.not_group and not u.hidden and (card.group == sel.not_group or u.attachments and has_group(g, u, sel.not_group)):
        return False
    if sel.not_group and u.hidden:
        pass  # a hidden character has no group: it is "not Leaf Village"
    if sel.keywords and not any(has_keyword(g, u, k) for k in sel.keywords):
        return False
    if sel.name_has and (u.hidden or sel.name_has.lower() not in card.name.lower()):
        return False
    if sel.with_attachment is not None and not any(attachment_card_fits(g, sel.with_attachment, a) for a in u.attachments):
        return False
    if sel.controlled is not None and (u.controller != u.owner) != sel.controlled:
        return False
    if sel.owned is not None and (u.owner == ctx.player) != sel.owned:
        return False
    if sel.moved_last_turn and u.uid not in g.last_turn_moves.get(1 - ctx.player, ()):
        return False
    if sel.discounted and not u.discounted:
        return False
    if sel.unique_name:
        if u.hidden:
            return False
        for side in g.missions[u.mission].sides:
            for x in side:
                if x is not u and not x.hidden and g.cards[x.stack[-1]].name_key == card.name_key:
                    return False
    if sel.sole:
        if u.hidden or any(x is not u and not x.hidden for x in g.missions[u.mission].sides[u.controller]):
            return False
    if sel.printed_power_min is not None and (u.hidden or (card.power or 0) < sel.printed_power_min):
        return False
    if sel.printed_power_lt_self or sel.power_eq_self or sel.power_lt is not None:
        p = core_power(g, u) if core else power(g, u)
        src = g.units.get(ctx.source)
        if sel.printed_power_lt_self:
            if src is None or not (0 if u.hidden else card.power or 0) < (core_power(g, src) if core else power(g, src)):
                return False
        if sel.power_eq_self and (src is None or p != (core_power(g, src) if core else power(g, src))):
            return False
        if sel.power_lt is not None and not p < number(g, ctx, sel.power_lt, core=core):
            return False
    if sel.cost_le is not None and not cost_of(g, u) <= number(g, ctx, sel.cost_le, core=core):
        return False
    return True


def select(g: GameState, ctx: Ctx, sel: Selector, *, core: bool = False) -> list[Unit]:
    if sel.self_:
        u = g.units.get(ctx.source)
        return [u] if u is not None and (not sel.extra or matches(g, ctx, sel, u, core=core)) else []
    out = [u for u in _candidates(g, ctx, sel) if matches(g, ctx, sel, u, core=core)]
    if sel.pick and out:
        if sel.pick == "lowest_cost":
            best = min(cost_of(g, u) for u in out)
            out = [u for u in out if cost_of(g, u) == best]
        elif sel.pick == "strongest_unique":
            key = (lambda u: core_power(g, u)) if core else (lambda u: power(g, u))
            best = max(key(u) for u in out)
            out = [u for u in out if key(u) == best]
            if len(out) != 1:
                out = []
        else:
            key = (lambda u: core_power(g, u)) if core else (lambda u: power(g, u))
            best = (min if sel.pick == "weakest" else max)(key(u) for u in out)
            out = [u for u in out if key(u) == best]
    return out


def number(g: GameState, ctx: Ctx, n, *, core: bool = False) -> int:
    if isinstance(n, int):
        return n
    if isinstance(n, str):
        v = ctx.vars.get(n, 0)
        return v if isinstance(v, int) and not isinstance(v, bool) else 0
    if isinstance(n, Count):
        kind = n.kind
        if kind == "units":
            units = select(g, ctx, n.selector, core=core)
            ph = phantoms(g, ctx, n.selector) if n.selector.extra or n.selector.keyword else ()
            if n.missions:
                k = len({u.mission for u in units} | {mi for mi in ph})
            else:
                k = len(units) + len(ph)
        elif kind == "missions":
            k = len(g.missions)
        elif kind == "attachments":
            k = len(select_attachments(g, ctx, n.selector))
        elif kind == "stack":
            src = g.units.get(ctx.source)
            k = len(src.stack) if src is not None else 0
        elif kind == "attachment_cost":
            src = g.units.get(ctx.source)
            k = sum(g.cards[a].cost or 0 for a in (src.attachments if src is not None else ())
                    if a not in g.att_hidden and _card_fits(g, n.selector, g.cards[a]))
        elif kind in ("power_of", "cost_of"):
            units = select(g, ctx, n.selector, core=core)
            vals = [(core_power(g, u) if core else power(g, u)) if kind == "power_of" else cost_of(g, u) for u in units]
            k = max(vals) if vals else 0
        else:  # pragma: no cover - the parser refuses other kinds
            raise TypeError(kind)
        return k * n.times + n.plus
    raise TypeError(n)


def phantoms(g: GameState, ctx: Ctx, sel: Selector) -> list[int]:
    """⧗ phantom (an attachment that counts as one more friendly character of a keyword, for
    that keyword's cards): the missions where such an extra character stands for this count."""
    if not sel.keyword or sel.side != "friendly" or ctx.player < 0:
        return []
    found = statics(g, "phantom")
    if not found:
        return []
    src_card = g.cards[ctx.card] if ctx.card >= 0 else None
    if src_card is None or sel.keyword not in src_card.keywords:
        return []
    out = []
    for u, mi, ctl, s in found:
        if ctl != ctx.player or s.opts.get("keyword") != sel.keyword:
            continue
        if sel.where == "this" and mi != ctx.mission or sel.where == "other_missions" and mi == ctx.mission:
            continue
        out.append(mi)
    return out


def condition(g: GameState, ctx: Ctx, cond: Condition | None, *, core: bool = False) -> bool:
    if cond is None:
        return True
    if cond.edge is not None and (g.edge == ctx.player) != cond.edge:
        return False
    if cond.exists is not None and not select(g, ctx, cond.exists, core=core):
        return False
    if cond.absent is not None and select(g, ctx, cond.absent, core=core):
        return False
    if cond.only is not None and len(select(g, ctx, cond.only, core=core)) != 1:
        return False
    if cond.winning is not None and ctx.mission >= 0:
        if (mission_leader(g, ctx.mission) == ctx.player) != cond.winning:
            return False
    if cond.fewer_nonhidden_than_enemy:
        m = g.missions[ctx.mission]
        mine = sum(1 for u in m.sides[ctx.player] if not u.hidden)
        theirs = sum(1 for u in m.sides[1 - ctx.player] if not u.hidden)
        if not mine < theirs:
            return False
    if cond.hand_empty is not None and (not g.players[ctx.player].hand) != cond.hand_empty:
        return False
    if cond.var_set and not ctx.vars.get(cond.var_set):
        return False
    if cond.var_min and number(g, ctx, cond.var_min[0], core=core) < cond.var_min[1]:
        return False
    if cond.var_max and number(g, ctx, cond.var_max[0], core=core) > cond.var_max[1]:
        return False
    if cond.extra and not _condition_extra(g, ctx, cond, core):
        return False
    return True


def _condition_extra(g: GameState, ctx: Ctx, cond: Condition, core: bool) -> bool:
    if cond.duel and not duel_present(g, ctx.mission, cond.duel):
        return False
    if cond.not_duel and duel_present(g, ctx.mission, cond.not_duel):
        return False
    if cond.first_play is not None and ctx.player >= 0 and (g.players[ctx.player].plays_this_round == 0) != cond.first_play:
        return False
    if cond.here is not None and not any(u.mission == ctx.mission for u in select(g, ctx, cond.here, core=core)):
        return False
    if cond.exists_any and not any(select(g, ctx, s, core=core) for s in cond.exists_any):
        return False
    if cond.var_unset and ctx.vars.get(cond.var_unset):
        return False
    if cond.var_ge and number(g, ctx, cond.var_ge[0], core=core) < number(g, ctx, cond.var_ge[1], core=core):
        return False
    if cond.in_hand is not None and not any(_card_fits(g, cond.in_hand, g.cards[c]) for c in g.players[ctx.player].hand):
        return False
    if cond.discard_min is not None and len(g.players[ctx.player].discard) < cond.discard_min:
        return False
    if cond.attachment is not None and not select_attachments(g, ctx, cond.attachment):
        return False
    if cond.evaluating is not None and (g.phase == "evaluate") != cond.evaluating:
        return False
    if cond.self_attached is not None:
        src = g.units.get(ctx.source)
        if src is None or not any(attachment_card_fits(g, cond.self_attached, a) for a in src.attachments):
            return False
    return True


# ---------------------------------------------------------------------------------------
# power
def statics_with_ctx(g: GameState, kind: str) -> list[tuple[Ctx, Static]]:
    """Like ``statics`` with a context per static, built once per board version (hot path)."""
    active_lines(g)
    key = "c:" + kind
    found = g.lines_cache.get(key)
    if found is None:
        found = [(static_ctx(u, mi, ctl), s) for u, mi, ctl, s in statics(g, kind)]
        g.lines_cache[key] = found
    return found


def power(g: GameState, u: Unit) -> int:
    """Current Power: core stats plus every static modifier in force (never below 0).

    Memoised until the board, any Power token, the Edge or an empty hand changes: those are
    everything a static's target or condition can read. (The invariant checker compares the
    memo with a fresh computation after every decision of the random-game runs.)"""
    table = _power_memo(g)
    found = table.get(u.uid)
    if found is None:  # a character out of play that an effect still looks at
        found = table[u.uid] = power_now(g, u)
    return found


def _power_table(g: GameState) -> dict:
    """The Power of every character in play at once (what ``power_now`` gives each one): each
    static's condition, amount and targets are worked out once, not once per character."""
    cards = g.cards
    table: dict = {}
    units = []
    for m in g.missions:
        for side in m.sides:
            for u in side:
                units.append(u)
                table[u.uid] = (0 if u.hidden else cards[u.stack[-1]].power) + u.tokens
    zero = statics_with_ctx(g, "power_zero")
    mods = statics_with_ctx(g, "power")
    zeroed: set = set()
    if zero or mods:
        for ctx, s in zero:
            if condition(g, ctx, s.cond, core=True):
                zeroed.update(x.uid for x in _static_targets(g, ctx, s, units))
        for ctx, s in mods:
            if not condition(g, ctx, s.cond, core=True):
                continue
            hit = _static_targets(g, ctx, s, units)
            if not hit:
                continue
            if "per" in s.opts:
                n = s.n * len(select(g, ctx, s.opts["per"], core=True))
            else:
                n = number(g, ctx, s.n, core=True)
            for x in hit:
                table[x.uid] += n
    for u in units:
        if u.attachments:
            for a in u.attachments:
                table[u.uid] += attachment_power(g, a, u)
        p = table[u.uid]
        if p < 0 or u.uid in zeroed:
            table[u.uid] = 0
    return table


def _static_targets(g: GameState, ctx: Ctx, s: Static, units: list) -> list:
    """The characters in play that static ``s`` applies to (``_static_hits`` for each of them)."""
    if s.target is None:
        return [u for u in units if u.uid == ctx.source]
    if ctx.player < 0 and s.target.side != "any":
        return []
    sel = s.target
    if sel.pick:
        return select(g, ctx, sel, core=True)
    return [u for u in _candidates(g, ctx, sel, units) if matches(g, ctx, sel, u, core=True)]


def _candidates(g: GameState, ctx: Ctx, sel: Selector, units=None):
    """The units that may match ``sel``, in board order: only on the mission and the side it
    names, when it names them (``matches`` decides; a unit's side is its controller's)."""
    this = sel.where == "this"
    side = sel.side if ctx.player >= 0 else "any"
    if sel.var or (not this and side == "any"):
        return g.all_units() if units is None else units
    missions = g.missions if not this else (g.missions[ctx.mission],) if ctx.mission >= 0 else ()
    sides = (0, 1) if side == "any" else (ctx.player,) if side == "friendly" else (1 - ctx.player,)
    return [u for m in missions for i in sides for u in m.sides[i]]


def power_now(g: GameState, u: Unit) -> int:
    """Power computed from scratch (no memo)."""
    p = (0 if u.hidden else g.cards[u.stack[-1]].power) + u.tokens
    zero = statics_with_ctx(g, "power_zero")
    mods = statics_with_ctx(g, "power")
    if not zero and not mods and not u.attachments:
        return p if p > 0 else 0
    for ctx, s in zero:
        if _static_hits(g, ctx, s, u) and condition(g, ctx, s.cond, core=True):
            return 0
    for ctx, s in mods:
        if not _static_hits(g, ctx, s, u) or not condition(g, ctx, s.cond, core=True):
            continue
        if "per" in s.opts:
            p += s.n * len(select(g, ctx, s.opts["per"], core=True))
        else:
            p += number(g, ctx, s.n, core=True)
    for a in u.attachments:
        p += attachment_power(g, a, u)
    return p if p > 0 else 0


def static_hits(g: GameState, ctx: Ctx, s: Static, u: Unit) -> bool:
    """Whether static ``s`` (seen from ``ctx``) applies to unit ``u``."""
    return _static_hits(g, ctx, s, u)


def _static_hits(g: GameState, ctx: Ctx, s: Static, u: Unit) -> bool:
    if s.target is None:
        return u.uid == ctx.source
    if ctx.player < 0 and s.target.side != "any":
        return False
    if s.target.pick:
        return any(x.uid == u.uid for x in select(g, ctx, s.target, core=True))
    return matches(g, ctx, s.target, u, core=True)


def _power_memo(g: GameState) -> dict:
    """The Power memo, rebuilt when the board, any Power token, the Edge, an empty hand or the
    evaluation phase changes (everything a static's target or condition can read)."""
    key = (g.board_version, g.token_version, g.edge, not g.players[0].hand, not g.players[1].hand,
           g.phase == "evaluate")
    if g.power_key != key:
        g.power_cache = _power_table(g)
        g.power_key = key
    return g.power_cache


def side_power(g: GameState, mi: int, player: int) -> int:
    """Total Power of one side of a mission (characters, plus attachments on the mission)."""
    table = _power_memo(g)
    found = table.get(("side", mi, player))
    return _side_total(g, mi, player, table) if found is None else found


def side_powers(g: GameState, player: int) -> tuple[list[int], list[int]]:
    """``side_power`` of every mission: (``player``'s, the opponent's), one memo lookup."""
    table = _power_memo(g)
    out: tuple[list[int], list[int]] = ([], [])
    for k, side in enumerate((player, 1 - player)):
        totals = out[k]
        for mi in range(len(g.missions)):
            found = table.get(("side", mi, side))
            totals.append(_side_total(g, mi, side, table) if found is None else found)
    return out


def _side_total(g: GameState, mi: int, player: int, table: dict) -> int:
    found = 0
    for u in g.missions[mi].sides[player]:
        p = table.get(u.uid)
        found += power(g, u) if p is None else p
    for a in g.missions[mi].attachments[player]:
        found += attachment_power(g, a, None)
    for src, smi, ctl, s in statics(g, "side_power"):  # "you have +N total Power in this mission"
        if smi != mi or ctl not in (-1, player):
            continue
        ctx = Ctx(player=player, source=src.uid if src else -1, mission=mi)
        if condition(g, ctx, s.cond, core=True):
            found += number(g, ctx, s.n, core=True)
    table[("side", mi, player)] = found
    return found


def mission_leader(g: GameState, mi: int) -> int:
    """Who would win mission ``mi`` now: higher Power, ties to the Edge, at least 1 Power."""
    a, b = side_power(g, mi, 0), side_power(g, mi, 1)
    if a == b:
        return g.edge if a >= 1 else -1
    return 0 if a > b else 1


def mission_points(g: GameState, mi: int) -> int:
    m = g.missions[mi]
    pts = g.cards[m.card].points + RANK_BONUS[m.rank]
    for src, smi, ctl, s in statics(g, "mission_points"):
        if smi == mi:
            pts += number(g, static_ctx(src, smi, ctl), s.n)
    return pts


# ---------------------------------------------------------------------------------------
# chakra and costs
def chakra_income(g: GameState, player: int) -> int:
    """5 + 1 per character you have in play (hidden included; a stack is one) + CHAKRA +X."""
    n = 5 + sum(len(m.sides[player]) for m in g.missions)
    for src, mi, ctl, s in statics(g, "chakra"):
        both = s.opts.get("both")
        if both == "losing":
            leader = mission_leader(g, mi)
            if leader == -1 or leader == player:
                continue
            n += number(g, Ctx(player=player, mission=mi), s.n)
            continue
        if ctl != player and not both:
            continue
        ctx = static_ctx(src, mi, player if both else ctl)
        if condition(g, ctx, s.cond, core=True):
            n += number(g, ctx, s.n, core=True)
    return n


def play_cost(g: GameState, player: int, card_inst: int, mi: int, *, base: int | None = None,
              reveal: Unit | None = None) -> int:
    """The chakra to play ``card_inst`` face-up in mission ``mi`` (or the difference for an upgrade)."""
    card = g.cards[card_inst]
    cost = card.cost if base is None else base
    cost_statics = statics(g, "cost")
    if not cost_statics and not has_own_cost(g, card_inst) and (reveal is None or (
            not reveal.attachments and not own_static(g, card_inst, "reveal_cost") and not statics(g, "reveal_tax"))):
        return cost if cost > 0 else 0  # (hot path: nothing in play or on the card changes it)
    start = cost  # the rules' price: a cost static's minimum bounds its own reduction of it
    for src, smi, ctl, s in cost_statics:
        if (smi != mi and not s.opts.get("anywhere")) or s.target is None:
            continue
        side = s.target.side
        if side == "friendly" and ctl != player or side == "enemy" and ctl == player:
            continue
        if s.target.other and src is not None and src.stack[-1] == card_inst:
            continue
        if (s.target.card_type or "character") not in (card.type, "any"):
            continue  # a character cost static does not change an attachment's cost, and back
        if not _card_fits(g, s.target, card):
            continue
        if s.target.hidden is False and reveal is None and base is None:
            pass
        ctx = static_ctx(src, smi, ctl)
        if not condition(g, ctx, s.cond, core=True):
            continue
        n = number(g, ctx, s.n)
        if n < 0 and "min" in s.opts:  # "costs 1 less (min. 1)": lowers the price to no less than
            n = max(n, min(0, s.opts["min"] - start))  # the minimum, never raises one made lower
        cost += n
    if reveal is not None:
        for s in (own_static(g, card_inst, "reveal_cost") if not reveal.attachments else unit_static(g, reveal, "reveal_cost")):
            ctx = Ctx(player=player, source=reveal.uid, mission=mi, card=card_inst)
            if condition(g, ctx, s.cond):
                cost -= abs(number(g, ctx, s.n))
        for src, smi, ctl, s in statics(g, "reveal_tax"):  # "the opponent pays 1 more to reveal here"
            if smi == mi and ctl >= 0 and ctl != player and condition(g, static_ctx(src, smi, ctl), s.cond, core=True):
                cost += number(g, static_ctx(src, smi, ctl), s.n)
    if reveal is not None and reveal.attachments and blanked(g, reveal):
        return max(cost, 0)  # a blank text (SS-083) has no "costs less" of its own
    for s in own_static(g, card_inst, "play_cost"):  # "pay 1 less to play this character if …"
        ctx = Ctx(player=player, source=reveal.uid if reveal is not None else -1, mission=mi, card=card_inst)
        if condition(g, ctx, s.cond):
            cost -= abs(number(g, ctx, s.n))
    for timing, n in own_cheaper(card):  # FIRST STRIKE "play this character paying 1 less"
        if timing != "first_strike" or g.players[player].plays_this_round == 0:
            cost -= n
    return max(cost, 0)


_OWN_COST: dict[str, bool] = {}


def has_own_cost(g: GameState, card_inst: int) -> bool:
    """Whether the card changes its own cost (⧗ play_cost): the fast path must ask play_cost."""
    card = g.cards[card_inst]
    found = _OWN_COST.get(card.id)
    if found is None:
        found = _OWN_COST[card.id] = bool(own_static_card(card, "play_cost")) or bool(own_cheaper(card))
    return found


_CHEAPER: dict[str, tuple] = {}


def own_cheaper(card) -> tuple:
    """Instant lines that only say "play this character paying N less": (timing, N) each."""
    found = _CHEAPER.get(card.id)
    if found is None:
        found = tuple((l.timing, s.arg) for l in card.effects if l.kind == "instant" and l.encoding is not None
                      and l.encoding.steps and all(x.verb == "cheaper" for x in l.encoding.steps)
                      for s in l.encoding.steps)
        _CHEAPER[card.id] = found
    return found


def _card_fits(g: GameState, sel: Selector, card) -> bool:
    """A selector tested against a card about to be played (not yet a unit)."""
    if sel.extra:
        if sel.card_type and sel.card_type != "any" and card.type != sel.card_type:
            return False
        if sel.keywords and not any(k in card.keywords for k in sel.keywords):
            return False
        if sel.name_has and sel.name_has.lower() not in card.name.lower():
            return False
        if sel.not_group and card.group == sel.not_group:
            return False
    if sel.not_keyword and sel.not_keyword in card.keywords:
        return False
    if sel.group and card.group != sel.group:
        return False
    if sel.keyword and sel.keyword not in card.keywords:
        return False
    if sel.names and card.name_key not in sel.names:
        return False
    if sel.not_name and card.name_key in sel.not_name:
        return False
    if sel.cost_max is not None and card.cost > sel.cost_max:
        return False
    if sel.printed_cost_max is not None and card.cost > sel.printed_cost_max:
        return False
    return True


def card_fits(g: GameState, sel: Selector | None, card) -> bool:
    return sel is None or _card_fits(g, sel, card)


_OWN: dict[str, dict[str, list[Static]]] = {}
_NONE: list[Static] = []


def own_static(g: GameState, card_inst: int, kind: str) -> list[Static]:
    """The statics of one kind printed on a card (memoised per card version)."""
    card = g.cards[card_inst]
    by_kind = _OWN.get(card.id)
    if by_kind is None:
        return own_static_card(card, kind)
    return by_kind.get(kind, _NONE)


def unit_static(g: GameState, u: Unit, kind: str) -> list[Static]:
    """The statics of one kind of a character in play: its own (unless blanked) and its attachments'."""
    own = _NONE if blanked(g, u) else own_static_card(g.cards[u.stack[-1]], kind)
    if not u.attachments:
        return own
    extra = [s for a in u.attachments if a not in g.att_hidden for s in own_static_card(g.cards[a], kind)]
    return own + extra if extra else own


def own_static_card(card, kind: str) -> list[Static]:
    by_kind = _OWN.get(card.id)
    if by_kind is None:
        by_kind = {}
        for enc in _continuous(card):
            for s in enc.statics:
                by_kind.setdefault(s.kind, []).append(s)
        _OWN[card.id] = by_kind
    return by_kind.get(kind, _NONE)


def can_upgrade_over(g: GameState, card_inst: int, u: Unit, player: int) -> bool:
    """Same name and a higher cost, or a card that may upgrade over this one (⧗ upgrade_over)."""
    if u.hidden or u.controller != player or u.owner != player or u.controlled_by != -1:
        return False
    card, under = g.cards[card_inst], g.cards[u.stack[-1]]
    if card.cost <= under.cost:
        return False
    if card.name_key == under.name_key:
        return True
    ctx = Ctx(player=player, mission=u.mission, card=card_inst)
    for s in own_static(g, card_inst, "upgrade_over"):
        if matches(g, ctx, s.opts["over"], u) and condition(g, ctx, s.cond):
            return True
    return False


def blocked_here(g: GameState, player: int, mi: int, kind: str) -> bool:
    """An enemy static forbids this in mission ``mi`` (e.g. no hidden plays)."""
    for src, smi, ctl, s in statics(g, kind):
        if smi == mi and ctl != player and ctl >= 0:
            return True
    return False


def immune(g: GameState, u: Unit, event: str, by: int) -> bool:
    """Whether ``u`` ignores ``event`` (hide, defeat, move) caused by player ``by``'s effect."""
    if by == u.controller or by < 0:
        return False
    for src, mi, ctl, s in statics(g, "immune"):
        if event not in s.opts.get("events", ["hide", "defeat"]):
            continue
        ctx = static_ctx(src, mi, ctl)
        if _static_hits(g, ctx, s, u) and condition(g, ctx, s.cond, core=True):
            return True
    return False


def cannot_move(g: GameState, u: Unit) -> bool:
    for src, mi, ctl, s in statics(g, "no_move_from"):
        ctx = static_ctx(src, mi, ctl)
        if _static_hits(g, ctx, s, u):
            return True
    return False


def has_name_on_side(g: GameState, mi: int, player: int, key: str, *, except_uid: int = -1,
                     face_up: bool = False) -> bool:
    """A character named ``key`` on ``player``'s side of mission ``mi`` (hidden ones count: their
    controller knows them), or only a face-up one (``face_up``: what the opponent can see)."""
    for u in g.missions[mi].sides[player]:
        if u.uid != except_uid and g.cards[u.stack[-1]].name_key == key and not (face_up and u.hidden):
            return True
    return False
