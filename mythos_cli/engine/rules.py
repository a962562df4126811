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
    return () if u.hidden else g.cards[u.stack[-1]].keywords


def group_of(g: GameState, u: Unit) -> str | None:
    return None if u.hidden else g.cards[u.stack[-1]].group


_CONTINUOUS: dict[str, tuple] = {}


def _continuous(card) -> tuple:
    """The encoded continuous lines of a card (memoised per card version)."""
    found = _CONTINUOUS.get(card.id)
    if found is None:
        found = tuple(l.encoding for l in card.effects if l.kind == "continuous" and l.encoding is not None)
        _CONTINUOUS[card.id] = found
    return found


def active_lines(g: GameState) -> list[tuple[Unit | None, int, int, object]]:
    """Every continuous encoding in force: (unit or None, mission index, controller, encoding).

    A face-up character's continuous lines apply to its controller's side; a mission's
    continuous lines apply with no controller (-1). The list is rebuilt only when the board
    changes (``board_version``); conditions and amounts are still evaluated live.
    """
    if g.lines_version == g.board_version and "_lines" in g.lines_cache:
        return g.lines_cache["_lines"]
    out = []
    for mi, m in enumerate(g.missions):
        for enc in _continuous(g.cards[m.card]):
            out.append((None, mi, -1, enc))
        for side in m.sides:
            for u in side:
                if u.hidden:
                    continue
                for enc in _continuous(g.cards[u.stack[-1]]):
                    out.append((u, mi, u.controller, enc))
    g.lines_cache = {"_lines": out}
    g.lines_version = g.board_version
    return out


def statics(g: GameState, kind: str) -> list[tuple[Unit | None, int, int, Static]]:
    lines = active_lines(g)
    key = "s:" + kind
    found = g.lines_cache.get(key)
    if found is None:
        found = [(u, mi, ctl, s) for u, mi, ctl, enc in lines for s in enc.statics if s.kind == kind]
        g.lines_cache[key] = found
    return found


def triggers(g: GameState, on: str) -> list[tuple[Unit | None, int, int, Trigger]]:
    lines = active_lines(g)
    key = "t:" + on
    found = g.lines_cache.get(key)
    if found is None:
        found = [(u, mi, ctl, t) for u, mi, ctl, enc in lines for t in enc.triggers if t.on == on]
        g.lines_cache[key] = found
    return found


def static_ctx(u: Unit | None, mi: int, ctl: int) -> Ctx:
    return Ctx(player=ctl, source=u.uid if u else -1, mission=mi, card=u.stack[-1] if u else -1)


# ---------------------------------------------------------------------------------------
# selectors and conditions
def matches(g: GameState, ctx: Ctx, sel: Selector, u: Unit, *, core: bool = False) -> bool:
    """Whether unit ``u`` fits selector ``sel`` seen from ``ctx`` (``core``: static check)."""
    if sel.self_:
        return u.uid == ctx.source
    if sel.var:
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
    if sel.group and (u.hidden or card.group != sel.group):
        return False
    if sel.keyword and (u.hidden or sel.keyword not in card.keywords):
        return False
    if sel.not_keyword and not u.hidden and sel.not_keyword in card.keywords:
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
    return True


def select(g: GameState, ctx: Ctx, sel: Selector, *, core: bool = False) -> list[Unit]:
    if sel.self_:
        u = g.units.get(ctx.source)
        return [u] if u is not None else []
    out = [u for u in g.all_units() if matches(g, ctx, sel, u, core=core)]
    if sel.pick and out:
        if sel.pick == "lowest_cost":
            best = min(cost_of(g, u) for u in out)
            out = [u for u in out if cost_of(g, u) == best]
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
        return v if isinstance(v, int) else 0
    if isinstance(n, Count):
        units = select(g, ctx, n.selector, core=core)
        if n.missions:
            return len({u.mission for u in units}) + n.plus
        return len(units) + n.plus
    raise TypeError(n)


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
    key = (g.board_version, g.token_version, g.edge, not g.players[0].hand, not g.players[1].hand)
    if g.power_key != key:
        g.power_cache = {}
        g.power_key = key
    found = g.power_cache.get(u.uid)
    if found is None:
        found = g.power_cache[u.uid] = power_now(g, u)
    return found


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
        p += g.cards[a].power
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


def side_power(g: GameState, mi: int, player: int) -> int:
    """Total Power of one side of a mission (characters, plus attachments on the mission)."""
    power_key_now = (g.board_version, g.token_version, g.edge, not g.players[0].hand, not g.players[1].hand)
    if g.power_key != power_key_now:
        g.power_cache = {}
        g.power_key = power_key_now
    key = ("side", mi, player)
    found = g.power_cache.get(key)
    if found is None:
        found = sum(power(g, u) for u in g.missions[mi].sides[player]) + sum(
            g.cards[a].power for a in g.missions[mi].attachments[player])
        g.power_cache[key] = found
    return found


def mission_leader(g: GameState, mi: int) -> int:
    """Who would win mission ``mi`` now: higher Power, ties to the Edge, at least 1 Power."""
    a, b = side_power(g, mi, 0), side_power(g, mi, 1)
    if a == b:
        return g.edge if a >= 1 else -1
    return 0 if a > b else 1


def mission_points(g: GameState, mi: int) -> int:
    m = g.missions[mi]
    return g.cards[m.card].points + RANK_BONUS[m.rank]


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
    floor = 0
    for src, smi, ctl, s in statics(g, "cost"):
        if smi != mi or s.target is None:
            continue
        side = s.target.side
        if side == "friendly" and ctl != player or side == "enemy" and ctl == player:
            continue
        if s.target.other and src is not None and src.stack[-1] == card_inst:
            continue
        if not _card_fits(g, s.target, card):
            continue
        if s.target.hidden is False and reveal is None and base is None:
            pass
        ctx = static_ctx(src, smi, ctl)
        if not condition(g, ctx, s.cond, core=True):
            continue
        cost += number(g, ctx, s.n)
        floor = max(floor, s.opts.get("min", 0))
    if reveal is not None:
        for s in own_static(g, card_inst, "reveal_cost"):
            ctx = Ctx(player=player, source=reveal.uid, mission=mi, card=card_inst)
            if condition(g, ctx, s.cond):
                cost -= abs(number(g, ctx, s.n))
    for s in own_static(g, card_inst, "play_cost"):  # "pay 1 less to play this character if …"
        ctx = Ctx(player=player, source=reveal.uid if reveal is not None else -1, mission=mi, card=card_inst)
        if condition(g, ctx, s.cond):
            cost -= abs(number(g, ctx, s.n))
    return max(cost, floor, 0)


def has_own_cost(g: GameState, card_inst: int) -> bool:
    """Whether the card changes its own cost (⧗ play_cost): the fast path must ask play_cost."""
    return bool(own_static(g, card_inst, "play_cost"))


def _card_fits(g: GameState, sel: Selector, card) -> bool:
    """A selector tested against a card about to be played (not yet a unit)."""
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
    ctx = Ctx(player=player, mission=u.mission)
    for s in own_static(g, card_inst, "upgrade_over"):
        if matches(g, ctx, s.opts["over"], u):
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


def has_name_on_side(g: GameState, mi: int, player: int, key: str, *, except_uid: int = -1) -> bool:
    for u in g.missions[mi].sides[player]:
        if u.uid != except_uid and g.cards[u.stack[-1]].name_key == key:
            return True
    return False
