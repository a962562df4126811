"""The effect interpreter: runs the steps of effect frames, asking for choices as decisions.

A frame is a list of steps with a program counter. A step first makes every choice it
needs (each choice is a ``Decision`` of the deciding player, answered through the same
``apply`` as any action), then changes the state in one go. When a choice is missing the
step raises ``NeedChoice``; once answered, the step runs again from its start with the
choices recorded so far, so nothing is ever applied twice.
"""

from __future__ import annotations

from typing import Any

from mythos_cli.catalog.language import Encoding, Selector, Step, Trigger
from mythos_cli.catalog.names import name_key
from mythos_cli.engine import rules
from mythos_cli.engine.state import Ctx, Decision, Frame, GameState, Unit

SKIP = None  # the option that declines an optional choice


class NeedChoice(Exception):
    def __init__(self, decision: Decision):
        self.decision = decision


# ---------------------------------------------------------------------------------------
# pseudo-steps used by frames besides the card's own steps
class Gate:
    """Start of an optional effect line: the controller may decline the whole line (the ``size``
    steps that follow it)."""

    __slots__ = ("size", "label", "must")

    def __init__(self, size: int, label: str, must: bool = False):
        self.size, self.label, self.must = size, label, must


class Line:
    """A card's instant line whose applying depends on the board (a DUEL line, or a line a DUEL
    modifier changes): judged when the lines above it have resolved, then replaced by its steps."""

    __slots__ = ("card", "effects", "index", "applies")

    def __init__(self, card, effects, index: int, applies: dict):
        self.card, self.effects, self.index, self.applies = card, effects, index, applies


class Order:
    """Simultaneous triggers: the turn player picks which resolves first (LIFO chain)."""

    __slots__ = ("frames",)

    def __init__(self, frames: list[Frame]):
        self.frames = frames


def choose(g: GameState, frame: Frame, player: int, kind: str, options: list[Any], *, optional: bool = False,
           prompt: str = "") -> Any:
    i = frame.cursor
    frame.cursor += 1
    if i < len(frame.choices):
        return frame.choices[i]
    if not options:
        frame.choices.append(SKIP)  # recorded too: later choices of the step keep their places
        return SKIP
    if len(options) == 1 and not optional:
        frame.choices.append(options[0])
        return options[0]
    opts = list(options) + ([SKIP] if optional else [])
    step = frame.steps[frame.pc] if frame.pc < len(frame.steps) else None
    if isinstance(step, Gate):
        context = tuple(frame.steps[frame.pc + 1:frame.pc + 1 + step.size])
    else:
        context = step
    raise NeedChoice(Decision(player, kind, opts, prompt, context=context, source=frame.ctx.source))


# ---------------------------------------------------------------------------------------
# building frames
def line_steps(encoding: Encoding, label: str, must: bool) -> list:
    """A Gate and the line's steps (a declined line skips exactly its own steps)."""
    # A line is mandatory when it opens with "you must"; a later "must" ("if you do, you
    # must discard") binds only once the optional part was chosen.
    gate = Gate(len(encoding.steps), label, must or encoding.must or bool(encoding.steps and encoding.steps[0].must))
    return [gate, *encoding.steps]


def play_frame(g: GameState, player: int, unit: Unit, *, upgrade: bool, ambush: bool, extra_vars=None,
               from_hand: bool = False) -> Frame | None:
    """The instant lines a character applies when played: MAIN, then UPGRADE/AMBUSH, top to bottom.

    Modifier lines ("MAIN effect: instead …") whose own timing applies replace or extend
    the line they modify.
    """
    card = g.cards[unit.stack[-1]]
    mi = unit.mission
    if from_hand and not ambush and any(smi == mi for _, smi, _, _ in rules.statics(g, "ambush_on_play")):
        ambush = True  # ⧗ ambush_on_play: "played here from hand, its AMBUSH effects apply too"
    applies = {"main": True, "upgrade": upgrade, "ambush": ambush, "first_strike": g.players[player].plays_this_round == 1}
    effects = () if rules.blanked(g, unit) else card.effects
    steps = lines_frame_steps(g, card, effects, applies, mi)
    for _, smi, ctl, s in rules.statics(g, "grant_line"):  # "characters here have, after their other effects, …"
        if smi == mi and applies.get(s.opts["timing"]) and rules.static_hits(g, rules.static_ctx(None, smi, ctl), s, unit):
            steps.extend(line_steps(Encoding(steps=s.opts["do"]), f"{s.opts['timing'].upper()} (granted)", False))
    if not steps:
        return None
    ctx = Ctx(player=player, source=unit.uid, mission=unit.mission, card=unit.stack[-1], upgrade=upgrade, ambush=ambush)
    if extra_vars:
        ctx.vars.update(extra_vars)
    return Frame(steps=steps, ctx=ctx, label=card.name)


def lines_frame_steps(g: GameState, card, effects, applies: dict, mi: int) -> list:
    """The gated steps of a card's instant lines that apply now, top to bottom.

    Lines apply top to bottom, each judged when it resolves: a DUEL line, or a line a DUEL
    modifier changes, stands as a ``Line`` until the lines above it (and the triggers they
    caused) have resolved; the others are settled by the play itself (MAIN, UPGRADE, AMBUSH,
    FIRST STRIKE) and are built now."""
    steps: list = []
    dueled = {l.modifies for l in effects if l.kind == "modifier" and l.duel}
    for i, line in enumerate(effects):
        if line.kind != "instant" or line.encoding is None:
            continue
        if all(s.verb == "cheaper" for s in line.encoding.steps):
            continue  # a price, already paid less (rules.play_cost)
        if line.timing == "duel" or line.timing in dueled:
            steps.append(Line(card, effects, i, applies))
        else:
            steps.extend(_line_now(g, card, effects, line, applies, mi))
    return steps


def _line_now(g: GameState, card, effects, line, applies: dict, mi: int) -> list:
    """One instant line's gated steps as the board stands now (nothing if it does not apply).

    A DUEL line applies when its named character is in the mission; modifier lines whose
    own timing applies replace or extend the line they modify ("as_main" makes the modified
    line apply on every play). ("Repeat the X effect" is never a modifier: it is an instant
    line of its own, with its own yes/no; the catalog tests check it.)"""
    def holds(l) -> bool:
        if l.timing == "duel":
            return rules.duel_present(g, mi, name_key(l.duel or ""))
        return bool(applies.get(l.timing))

    mods: list = []
    promoted = False
    for l in effects:
        # (an UPGRADE modifier holds only when the card is played as an upgrade: revealing a hidden
        # upgraded stack is not one, so "UPGRADE: AMBUSH effect …" needs a play that is both, an
        # upgrade whose AMBUSH applies too, SS-107)
        if l.kind == "modifier" and l.modifies == line.timing and l.encoding is not None and l.encoding.modifier and holds(l):
            if l.encoding.modifier.mode == "as_main":
                promoted = True
            else:
                mods.append(l.encoding.modifier)
    if not (holds(line) or promoted):
        return []
    body = list(line.encoding.steps)
    for mod in mods:
        body = list(mod.steps) if mod.mode == "instead" else body + list(mod.steps)
    return line_steps(Encoding(steps=tuple(body)), f"{card.name} {line.label}", False)


def attach_frame(g: GameState, player: int, inst: int, host: Unit | None, mi: int, *, ambush: bool) -> Frame | None:
    """The instant lines an attachment applies when attached (MAIN; AMBUSH when revealed from
    face-down; FIRST STRIKE when it is the first card its player plays this round, a reveal
    counting as a play exactly as for a character)."""
    card = g.cards[inst]
    p = g.players[player]
    applies = {"main": True, "ambush": ambush,
               "first_strike": p.plays_this_round == 0 and p.attached_this_round == 1}
    where = host.mission if host is not None else mi
    steps = lines_frame_steps(g, card, card.effects, applies, where)
    if not steps:
        return None
    ctx = Ctx(player=player, source=host.uid if host is not None else -1, mission=where, card=inst, ambush=ambush)
    return Frame(steps=steps, ctx=ctx, label=card.name)


def score_frame(g: GameState, player: int, unit: Unit | None, mi: int, *, attachment: int = -1) -> Frame | None:
    """SCORE lines of the mission, of a winning character, or (``attachment``) of an attachment
    on that character (``unit``) or on the mission (``unit`` None)."""
    if attachment >= 0:
        card = g.cards[attachment]
        steps = []
        for line in card.effects:
            if line.timing == "score" and line.kind == "instant" and line.encoding is not None:
                steps.extend(line_steps(line.encoding, f"{card.name} SCORE", False))
        if not steps:
            return None
        ctx = Ctx(player=player, source=unit.uid if unit else -1, mission=mi, card=attachment)
        return Frame(steps=steps, ctx=ctx, label=f"{card.name} SCORE")
    card = g.cards[unit.stack[-1]] if unit else g.cards[g.missions[mi].card]
    steps: list = []
    for line in (() if unit is not None and rules.blanked(g, unit) else card.effects):
        if line.timing == "score" and line.kind == "instant" and line.encoding is not None:
            steps.extend(line_steps(line.encoding, f"{card.name} SCORE", False))
    if not steps:
        return None
    ctx = Ctx(player=player, source=unit.uid if unit else -1, mission=mi, card=unit.stack[-1] if unit else g.missions[mi].card)
    return Frame(steps=steps, ctx=ctx, label=f"{card.name} SCORE")


def trigger_frame(g: GameState, src: Unit | None, mi: int, ctl: int, trig: Trigger, vars_: dict | None = None,
                  inst: int = -1) -> Frame:
    """A continuous trigger's effect; ``inst``: the card whose line it is (an attachment's, say)."""
    if inst < 0:
        inst = src.stack[-1] if src else g.missions[mi].card
    card = g.cards[inst]
    enc = Encoding(steps=trig.steps)
    ctx = Ctx(player=ctl, source=src.uid if src else -1, mission=src.mission if src else mi, card=inst)
    if vars_:
        ctx.vars.update(vars_)
    return Frame(steps=line_steps(enc, f"{card.name} (trigger)", trig.must), ctx=ctx, label=f"{card.name} trigger")


def push_frames(g: GameState, frames: list[Frame]) -> None:
    """Put newly triggered effects on the chain; several at once are ordered by the turn player."""
    frames = [f for f in frames if f is not None]
    if not frames:
        return
    if len(frames) == 1:
        g.stack.append(frames[0])
        return
    # Mission effects are always last: they go beneath the characters' effects.
    missions = [f for f in frames if f.ctx.source == -1]
    chars = [f for f in frames if f.ctx.source != -1]
    for f in missions:
        g.stack.append(f)
    if len(chars) == 1:
        g.stack.append(chars[0])
    elif chars:
        g.stack.append(Frame(steps=[Order(chars)], ctx=Ctx(player=turn_player(g)), label="order triggers"))


def turn_player(g: GameState) -> int:
    return g.current if g.phase == "action" else g.edge


# ---------------------------------------------------------------------------------------
# running
def run_top(g: GameState) -> None:
    """Advance the top frame by one step (or pop it when finished)."""
    frame = g.stack[-1]
    if frame.pc >= len(frame.steps):
        g.stack.pop()
        return
    step = frame.steps[frame.pc]
    frame.cursor = 0
    if isinstance(step, Order):
        if len(step.frames) == 1:
            g.stack.pop()
            g.stack.append(step.frames[0])
            return
        idx = choose(g, frame, frame.ctx.player, "order", list(range(len(step.frames))),
                     prompt="which effect resolves first")
        chosen = step.frames.pop(idx)
        frame.choices.clear()
        g.stack.append(chosen)
        return
    if isinstance(step, Gate):
        if not step.must:
            use = choose(g, frame, frame.ctx.player, "yesno", [True, False], prompt=f"use {step.label}?")
            if not use:
                frame.pc += 1 + step.size
                frame.choices.clear()
                return
        frame.pc += 1
        frame.choices.clear()
        return
    depth = len(g.stack)
    src = g.units.get(frame.ctx.source)
    if src is not None and not frame.ctx.pinned:
        frame.ctx.mission = src.mission  # "this mission" is where the character stands now
    if isinstance(step, Line):  # judged now, after the lines above: replaced by its steps, if any
        line = step.effects[step.index]
        here = _line_now(g, step.card, step.effects, line, step.applies, frame.ctx.mission)
        frame.steps = frame.steps[:frame.pc] + here + frame.steps[frame.pc + 1:]
        frame.choices.clear()
        return
    if step.cond is None or rules.condition(g, frame.ctx, step.cond):
        # "you may …" inside a line: this step alone is optional
        if not step.opts.get("may") or choose(g, frame, frame.ctx.player, "yesno", [True, False],
                                             prompt=f"you may {step.verb}"):
            VERB_RUN[step.verb](g, frame, step)
    # the step is done: triggers it caused were pushed above it and resolve first
    frame.pc += 1
    frame.choices.clear()
    del depth


# ---------------------------------------------------------------------------------------
# target choice helpers
def still_in_play(g: GameState, units: list[Unit]) -> list[Unit]:
    """Targets fixed by a snapshot that an earlier part of the same effect removed are skipped."""
    return [u for u in units if g.units.get(u.uid) is u]


def pick_units(g: GameState, frame: Frame, sel: Selector, *, chooser: int | None = None,
               exclude: tuple[int, ...] = (), can=None) -> list[Unit]:
    """Resolve a selector into concrete targets, asking the decider where there is a choice.

    Reading "an effect targets what it can affect": when there is a choice, only the characters
    the effect can affect (``can``: not immune to it, not held by a no-move static …) are
    offered; those it cannot affect stay where they are, and still count among the characters
    that remain ("until only N remain")."""
    ctx = frame.ctx
    cands = [u for u in rules.select(g, ctx, sel) if u.uid not in exclude]
    if sel.self_ or sel.var:
        return cands
    if sel.is_all:
        return cands  # a snapshot: every target is fixed before anything changes
    player = ctx.player if chooser is None else chooser
    if sel.per_mission:  # "up to 1 … in every mission": one choice per mission, in mission order
        out: list[Unit] = []
        for mi in range(len(g.missions)):
            here = [u for u in cands if u.mission == mi]
            out.extend(_pick_among(g, frame, player, sel, here, can))
        return out
    return _pick_among(g, frame, player, sel, cands, can)


_PROMPTS: dict[int, tuple[Selector, str]] = {}


def _prompt(sel: Selector) -> str:
    """The selector in English, rendered once per selector (selectors are immutable catalog data)."""
    found = _PROMPTS.get(id(sel))
    if found is None or found[0] is not sel:
        found = _PROMPTS[id(sel)] = (sel, sel.render())
    return found[1]


def _pick_among(g: GameState, frame: Frame, player: int, sel: Selector, cands: list[Unit], can=None) -> list[Unit]:
    count = sel.count
    offered = cands if can is None else [u for u in cands if can(u)]
    if not isinstance(count, tuple):
        pick = choose(g, frame, player, "target", [u.uid for u in offered], prompt=_prompt(sel))
        return [] if pick is SKIP else [g.units[pick]]
    form, n = count[0], rules.number(g, frame.ctx, count[1])
    out: list[Unit] = []
    if form == "keep":
        # "until only N remain": the chooser must pick the others one by one, among those the
        # effect can affect (the others remain, and count among the N)
        chosen: set[int] = set()
        for _ in range(min(len(offered), max(0, len(cands) - n))):
            left = [u.uid for u in offered if u.uid not in chosen]
            pick = choose(g, frame, player, "target", left, prompt=_prompt(sel))
            if pick is SKIP:
                break
            chosen.add(pick)
            out.append(g.units[pick])
        return out
    budget = n
    taken: set[int] = set()
    while True:
        if form == "up_to" and len(out) >= n:
            break
        left = [u.uid for u in offered if u.uid not in taken]
        if form == "power_total":  # "any number … with a total Power of N or less" (snapshot Power)
            left = [uid for uid in left if rules.power(g, g.units[uid]) <= budget]
        elif form == "cost_total":  # "… with a total cost of N or less"
            left = [uid for uid in left if rules.cost_of(g, g.units[uid]) <= budget]
        if not left:
            break
        pick = choose(g, frame, player, "target", left, optional=True, prompt=_prompt(sel))
        if pick is SKIP:
            break
        taken.add(pick)
        out.append(g.units[pick])
        if form == "power_total":
            budget -= rules.power(g, g.units[pick])
        elif form == "cost_total":
            budget -= rules.cost_of(g, g.units[pick])
    return out


def choose_mission(g: GameState, frame: Frame, player: int, options: list[int], prompt: str) -> int | None:
    return choose(g, frame, player, "mission", options, prompt=prompt)


# ---------------------------------------------------------------------------------------
# verbs
def v_powerup(g: GameState, frame: Frame, step: Step) -> None:
    n = rules.number(g, frame.ctx, step.arg)
    targets = pick_units(g, frame, step.target) if step.target else rules.select(g, frame.ctx, Selector(self_=True))
    for u in targets:
        if n > 0:
            affect(g, u, frame.ctx.player)
            k = powerup_amount(g, u, n)
            if k <= 0:
                continue
            u.tokens += k
            g.token_version += 1
            g.emit("powerup", u.controller, u.uid, k)
            notify_mission_change(g, u.mission)


def powerup_amount(g: GameState, u: Unit, n: int) -> int:
    """The tokens a POWERUP n really puts on ``u``: ⧗ no_tokens stops it, ⧗ powerup_bonus adds."""
    if rules.unit_static(g, u, "no_tokens"):
        return 0
    for src, mi, ctl, s in rules.statics(g, "powerup_bonus"):
        ctx = rules.static_ctx(src, mi, ctl)
        if rules.static_hits(g, ctx, s, u) and rules.condition(g, ctx, s.cond, core=True):
            n += rules.number(g, ctx, s.n)
    return n


def v_remove_tokens(g: GameState, frame: Frame, step: Step) -> None:
    targets = pick_units(g, frame, step.target) if step.target else []
    counts = []
    for u in targets:  # every choice first, then the change
        if step.arg == "all":
            k = u.tokens
        else:
            most = min(u.tokens, rules.number(g, frame.ctx, step.arg))
            k = choose(g, frame, frame.ctx.player, "number", list(range(most, -1, -1)), prompt="tokens to remove") if most > 0 else 0
        counts.append(k)
    total = 0
    for u, k in zip(targets, counts):
        affect(g, u, frame.ctx.player)
        u.tokens -= k
        total += k
    if step.opts.get("give_self") and total:
        me = g.units.get(frame.ctx.source)
        if me is not None and not rules.unit_static(g, me, "no_tokens"):
            me.tokens += total
    g.token_version += 1
    frame.ctx.vars[step.as_ or "removed"] = total


def v_gain_chakra(g: GameState, frame: Frame, step: Step) -> None:
    who = frame.ctx.player if step.opts.get("who") != "opponent" else 1 - frame.ctx.player
    n = rules.number(g, frame.ctx, step.arg)
    g.players[who].chakra += n
    g.players[who].chakra_gained += n
    g.emit("chakra_gain", who, n)


def v_steal_chakra(g: GameState, frame: Frame, step: Step) -> None:
    me, opp = g.players[frame.ctx.player], g.players[1 - frame.ctx.player]
    n = min(opp.chakra, rules.number(g, frame.ctx, step.arg))
    opp.chakra -= n
    me.chakra += n
    me.chakra_gained += n
    g.emit("chakra_steal", me.index, n)


def draw_cards(g: GameState, player: int, n: int) -> int:
    p = g.players[player]
    drawn = 0
    for _ in range(n):
        if not p.deck:
            break  # an empty deck simply stops drawing
        c = p.deck.pop()
        p.hand.append(c)
        drawn += 1
        p.drawn += 1
        g.emit("draw", player, c)
    return drawn


def v_draw(g: GameState, frame: Frame, step: Step) -> None:
    n = rules.number(g, frame.ctx, step.arg)
    who = step.opts.get("who")
    me = frame.ctx.player
    if who == "each":
        draw_cards(g, me, n)
        draw_cards(g, 1 - me, n)
    else:
        frame.ctx.vars[step.as_ or "drew"] = draw_cards(g, 1 - me if who == "opponent" else me, n)


def v_discard(g: GameState, frame: Frame, step: Step) -> None:
    me = frame.ctx.player
    victim = 1 - me if step.opts.get("who") == "opponent" else me
    chooser = me if step.opts.get("chooser") == "you" else victim
    hand = g.players[victim].hand
    pool = hand if "filter" not in step.opts else [c for c in hand if rules.card_fits(g, step.opts["filter"], g.cards[c])]
    n = len(pool) if step.arg == "all" else rules.number(g, frame.ctx, step.arg)
    picked: list[int] = []
    if n >= len(pool):
        picked = list(pool)  # the whole hand: nothing to choose
    elif step.opts.get("random"):
        left = list(pool)
        for _ in range(n):
            picked.append(left.pop(g.rng.randrange(len(left))))
    else:
        for _ in range(n):
            left = [c for c in pool if c not in picked]
            picked.append(choose(g, frame, chooser, "card", left, prompt="card to discard"))
    cost = power = 0
    for c in picked:
        hand.remove(c)
        g.players[victim].discard.append(c)
        cost += g.cards[c].cost or 0
        power += g.cards[c].power or 0
        g.emit("discard", victim, c)
    frame.ctx.vars[step.as_ or "discarded"] = len(picked)
    frame.ctx.vars["discarded_count"] = len(picked)
    frame.ctx.vars["discarded_cost"] = cost
    frame.ctx.vars["discarded_power"] = power


def v_look(g: GameState, frame: Frame, step: Step) -> None:
    # Looking changes nothing on the board; a policy's view is the engine's concern. What was
    # looked at is remembered ("if it costs 3 or less" reads its printed cost).
    if step.arg is not None:
        got = pick_units(g, frame, step.arg)
        if got:
            frame.ctx.vars[step.as_ or "looked"] = got[0].uid
            frame.ctx.vars["looked_cost"] = g.cards[got[0].stack[-1]].cost or 0
    g.emit("look", frame.ctx.player)


def _move_dests(g: GameState, frame: Frame, u: Unit, to: str, here: int, arriving=()) -> list[int]:
    """Where ``u`` may be moved by this effect (``arriving``: (mission, side, name) of the
    characters the same effect moves before it)."""
    if to == "this" or (to == "to_or_from" and u.mission != here):
        dests = [here] if u.mission != here else []
    else:
        dests = [i for i in range(len(g.missions)) if i != u.mission]
    key = g.cards[u.stack[-1]].name_key
    # a hidden character's name counts only for a move by its own controller (who knows it):
    # the options must not tell the opponent what a hidden card is (the one moved included);
    # a duplicate the mover could not see is discarded on arrival (move_unit)
    known = u.controller == frame.ctx.player
    if known or not u.hidden:
        dests = [i for i in dests if not rules.has_name_on_side(g, i, u.controller, key, face_up=not known)
                 and (i, u.controller, key) not in arriving]
    return dests


def v_move(g: GameState, frame: Frame, step: Step) -> None:
    to = step.opts.get("to", "other")
    here = _here(g, frame)
    by = frame.ctx.player
    # a character the move cannot affect (a no-move static, an immunity, nowhere to go) is no target
    targets = pick_units(g, frame, step.arg, can=lambda u: not rules.cannot_move(g, u) and not rules.immune(
        g, u, "move", by) and bool(_move_dests(g, frame, u, to, here)))
    plan: list[tuple[Unit, int]] = []
    arriving: set[tuple[int, int, str]] = set()  # (mission, side, name) of characters moved by this effect
    for u in targets:  # every destination is chosen before anything moves
        if rules.cannot_move(g, u):
            continue
        key = g.cards[u.stack[-1]].name_key
        dests = _move_dests(g, frame, u, to, here, arriving)
        dest = choose_mission(g, frame, frame.ctx.player, dests, "mission to move to")
        if dest is SKIP:
            continue
        arriving.add((dest, u.controller, key))
        plan.append((u, dest))
    moved = 0
    done: list[Unit] = []
    for u, dest in plan:
        if g.units.get(u.uid) is not u or u.mission == dest:
            continue
        key = g.cards[u.stack[-1]].name_key
        if not u.hidden and rules.has_name_on_side(g, dest, u.controller, key, face_up=True):
            continue  # no repetition: the way closed meanwhile
        if move_unit(g, u, dest, by=frame.ctx.player):
            moved += 1
            frame.ctx.vars[step.as_ or "moved"] = u.uid
            done.append(u)
    frame.ctx.vars["moved_count"] = frame.ctx.vars.get("moved_count", 0) + moved
    fire_moves(g, done, frame.ctx.player)


def v_hide(g: GameState, frame: Frame, step: Step) -> None:
    # a character already hidden cannot be hidden again: it is never a legal target
    already = tuple(u.uid for u in g.all_units() if u.hidden)
    by = frame.ctx.player
    targets = [u for u in _two_targets(g, frame, step, already, can=lambda u: not rules.immune(g, u, "hide", by))
               if not u.hidden]
    protect = _protections(g, frame, targets, "hide")
    if targets:
        frame.ctx.vars["hidden_power"] = rules.power(g, targets[0])
    done = []
    for u in targets:
        if g.units.get(u.uid) is u and not _sacrificed(g, u, protect) and hide_unit(g, u, by=frame.ctx.player):
            done.append(u.uid)
    frame.ctx.vars[step.as_ or "hidden"] = done[0] if len(done) == 1 else done
    frame.ctx.vars["hidden_count"] = len(done)


def _discard_order(g: GameState, frame: Frame, step: Step, targets: list) -> list:
    """FAQ "The Decider": whoever carries out the effect orders several characters going to
    the same discard pile. Only characters that will really be defeated (not immune) and share
    an owner need an order; the decider is the opponent when the card makes them choose."""
    decider = 1 - frame.ctx.player if step.opts.get("chooser") == "opponent" else frame.ctx.player
    by_owner: dict[int, list] = {}
    for u in targets:
        if g.units.get(u.uid) is u and not rules.immune(g, u, "defeat", frame.ctx.player):
            by_owner.setdefault(u.owner, []).append(u)
    if all(len(v) < 2 for v in by_owner.values()):
        return targets
    ordered: list = []
    for owner in sorted(by_owner):
        left = list(by_owner[owner])
        while len(left) > 1:
            uid = choose(g, frame, decider, "target", [u.uid for u in left],
                         prompt="defeat next (the order of the discard pile)")
            pick = next(u for u in left if u.uid == uid)
            ordered.append(pick)
            left.remove(pick)
        ordered.extend(left)
    return ordered + [u for u in targets if u not in ordered]


def v_defeat(g: GameState, frame: Frame, step: Step) -> None:
    by = frame.ctx.player
    # FAQ "The Decider": "the opponent chooses and defeats their characters" is carried out by them
    decider = 1 - by if step.opts.get("chooser") == "opponent" else by
    targets = _two_targets(g, frame, step, can=lambda u: not rules.immune(g, u, "defeat", by))
    if step.opts.get("reveal"):
        for u in targets:  # "reveal and defeat" (SS-118): turned face-up first, then defeated
            turn_face_up(g, u)
    protect = _protections(g, frame, targets, "defeat")
    targets = _discard_order(g, frame, step, targets)
    n = 0
    for u in targets:
        if g.units.get(u.uid) is not u or _sacrificed(g, u, protect):
            continue
        card = g.cards[u.stack[-1]]
        power, cost, name = card.power or 0, rules.cost_of(g, u), None if u.hidden else card.name_key
        if defeat_unit(g, u, by=by, decider=decider):
            n += 1
            frame.ctx.vars["defeated_power"] = power  # printed Power, hidden or not (the card is seen)
            frame.ctx.vars["defeated_cost"] = cost
            frame.ctx.vars["defeated_name"] = name
    frame.ctx.vars[step.as_ or "defeated"] = n
    frame.ctx.vars["defeated_count"] = frame.ctx.vars.get("defeated_count", 0) + n


def v_take_control(g: GameState, frame: Frame, step: Step) -> None:
    me = frame.ctx.player
    pay = step.opts.get("pay") == "power"  # "paying chakra equal to their Power"
    exclude = ()
    if pay:
        exclude = tuple(u.uid for u in rules.select(g, frame.ctx, step.arg) if rules.power(g, u) > g.players[me].chakra)
    for u in pick_units(g, frame, step.arg, exclude=exclude):
        if u.controller == me or g.units.get(u.uid) is not u:
            continue
        if pay:
            price = rules.power(g, u)
            if price > g.players[me].chakra:
                continue
            g.players[me].pay(price)
        affect(g, u, me)
        take_control(g, u, me, frame.ctx.source)


def v_return_to_hand(g: GameState, frame: Frame, step: Step) -> None:
    for u in pick_units(g, frame, step.arg):
        if g.units.get(u.uid) is u:
            affect(g, u, frame.ctx.player)
            frame.ctx.vars["that_mission"] = u.mission
            leave_play(g, u, "hand")
            frame.ctx.vars[step.as_ or "returned"] = u.uid


def v_gain_edge(g: GameState, frame: Frame, step: Step) -> None:
    """Gain the Edge, unless the opponent holds it locked for the round (KS-148: "you can't lose
    it this round": no effect takes it from them, a lock of your own included)."""
    if g.edge_locked >= 0 and g.edge_locked != frame.ctx.player:
        return
    g.edge = frame.ctx.player
    if step.opts.get("lock"):
        g.edge_locked = frame.ctx.player
    g.emit("edge", frame.ctx.player)


def v_gain_points(g: GameState, frame: Frame, step: Step) -> None:
    n = rules.number(g, frame.ctx, step.arg)
    g.players[frame.ctx.player].score += n
    if g.round_scores:
        g.round_scores[-1][frame.ctx.player] += n
    g.emit("points", frame.ctx.player, n)


def v_spend_chakra(g: GameState, frame: Frame, step: Step) -> None:
    p = g.players[frame.ctx.player]
    x = choose(g, frame, p.index, "number", list(range(p.chakra + 1)), prompt="extra chakra to spend")
    x = x or 0
    p.pay(x)
    frame.ctx.vars["spent"] = x
    frame.ctx.vars["x"] = x


def v_discard_top(g: GameState, frame: Frame, step: Step) -> None:
    who = 1 - frame.ctx.player if step.opts.get("who") == "opponent" else frame.ctx.player
    p = g.players[who]
    if not p.deck:
        frame.ctx.vars["discarded_cost"] = 0
        return
    c = p.deck.pop()
    p.discard.append(c)
    frame.ctx.vars["discarded_cost"] = g.cards[c].cost or 0
    g.emit("discard", who, c)


def v_put_on_deck(g: GameState, frame: Frame, step: Step) -> None:
    p = g.players[frame.ctx.player]
    picked: list[int] = []
    for _ in range(min(rules.number(g, frame.ctx, step.arg), len(p.hand))):
        left = [c for c in p.hand if c not in picked]
        picked.append(choose(g, frame, p.index, "card", left, prompt="card to put on top of your deck"))
    for c in picked:
        p.hand.remove(c)
        p.deck.append(c)


def v_search_top(g: GameState, frame: Frame, step: Step) -> None:
    p = g.players[frame.ctx.player]
    n = rules.number(g, frame.ctx, step.arg)
    top = p.deck[-n:] if n else []
    sel = step.opts["filter"]
    if step.opts.get("take"):  # choose one that fits, reveal it, take it; the others to the bottom at random
        typ = sel.card_type or "character"
        cands = [c for c in top if (typ == "any" or g.cards[c].type == typ) and rules.card_fits(g, sel, g.cards[c])]
        c = choose(g, frame, p.index, "card", cands, prompt="card to take")
        rest = [x for x in top if x != c]
        for x in top:
            p.deck.remove(x)
        if c is not SKIP:
            p.hand.append(c)
            g.emit("draw", p.index, c)
        g.rng.shuffle(rest)
        p.deck[0:0] = rest  # the bottom of the deck is the start of the list
        frame.ctx.vars[step.as_ or "searched"] = 0 if c is SKIP else 1
        return
    for c in list(top):
        card = g.cards[c]
        if card.type == "character" and rules.card_fits(g, sel, card):
            p.deck.remove(c)
            p.hand.append(c)
            g.emit("draw", p.index, c)


def v_play(g: GameState, frame: Frame, step: Step) -> None:
    """Play a character, paying less, anywhere or here: from your hand or by revealing one of
    your hidden characters (the default: the card names no zone, and revealing a hidden character
    is playing it, seed 000), from hidden only ("play … while hidden"), from your discard pile,
    or from the top cards of your deck.

    Reading "playing looks at the card's face": a hidden character of yours fits the effect's
    filter by its own card (you know it; the opponent learns nothing from your options). It is
    revealed where it stands, at its reveal price (printed cost and the cost statics) less the
    discount; MAIN and AMBUSH apply as for any reveal."""
    from mythos_cli.engine.game import place_options, play_card, reveal, reveal_price

    me = frame.ctx.player
    p = g.players[me]
    src = step.opts.get("from", "hand_or_hidden")
    discount = rules.number(g, frame.ctx, step.opts.get("discount", 0))
    many = bool(step.opts.get("many"))
    no_upgrade = step.opts.get("upgrade") is False
    here = frame.ctx.mission if step.opts.get("to") == "this" else -1
    if src == "deck_top":
        pool = p.deck[-int(step.opts.get("look", 3)):]
    else:
        pool = p.hand if src in ("hand", "hand_or_hidden") else p.discard if src == "discard" else []
    cands = []
    for c in pool:
        card = g.cards[c]
        if card.type != "character" or not rules.card_fits(g, step.arg, card):
            continue
        if any(over < 0 or not no_upgrade for _, over, _ in place_options(g, me, c, hidden=False, discount=discount,
                                                                          here=here)):
            cands.append(c)
    reveals: dict[int, tuple[Unit, int]] = {}  # the top card of a hidden character -> (it, its price)
    if src in ("hand_or_hidden", "hidden"):
        for m in (g.missions if here < 0 else (g.missions[here],)):
            for u in m.sides[me]:
                if u.hidden and rules.card_fits(g, step.arg, g.cards[u.stack[-1]]):
                    price = reveal_price(g, me, u, extra=-discount)
                    if price is not None:
                        reveals[u.stack[-1]] = (u, price)
                        cands.append(u.stack[-1])
    # from the deck top the player sees the cards only now, so playing none stays possible
    c = choose(g, frame, me, "card", cands, optional=src == "deck_top" or many, prompt="character to play")
    if c is SKIP:
        if src == "deck_top":
            _discard_looked(g, p, pool)
        return
    depth = len(g.stack)
    if c in reveals:
        unit, price = reveals[c]
        reveal(g, me, unit, price)
    else:
        opts = [o for o in place_options(g, me, c, hidden=False, discount=discount, here=here)
                if o[1] < 0 or not no_upgrade]
        where = choose(g, frame, me, "place", opts, prompt="where to play it")
        if src == "deck_top":
            _discard_looked(g, p, [x for x in pool if x != c])
        if where is SKIP:
            return
        mi, over, price = where
        depth = len(g.stack)
        unit = play_card(g, me, c, mi, hidden=False, over=over, price=price)
    frame.ctx.vars[step.as_ or "played"] = unit.uid
    if many:  # "play any number of …": the next one is offered once this one's effects resolved
        g.stack.insert(depth, Frame(steps=[step], ctx=frame.ctx, label="play more"))


def _discard_looked(g: GameState, p, cards: list[int]) -> None:
    for c in cards:
        if c in p.deck:
            p.deck.remove(c)
            p.discard.append(c)


def v_place_hidden(g: GameState, frame: Frame, step: Step) -> None:
    """Put a card as a hidden character: chosen from hand, or the top card of a deck.

    No repetition (FAQ): a card chosen from hand is offered only where its name is not on your
    side already. A deck's top card is put whatever it is: where it would duplicate a name on
    your side (your hidden characters count: you know them) it arrives and is discarded at once
    to its owner's pile, triggering nothing (it is not a defeat)."""
    from mythos_cli.engine.game import new_unit

    me = frame.ctx.player
    src = step.opts.get("from", "hand")
    if step.opts.get("to") == "this":
        missions = [_here(g, frame)]
    elif step.opts.get("to") == "that":  # the mission remembered by an earlier step
        missions = [frame.ctx.vars["that_mission"]] if frame.ctx.vars.get("that_mission", -1) >= 0 else []
    else:
        missions = list(range(len(g.missions)))
    if not missions:
        return
    if src == "hand":
        pool = [c for c in g.players[me].hand if g.cards[c].type == "character"
                and any(not rules.has_name_on_side(g, i, me, g.cards[c].name_key) for i in missions)]
        c = choose(g, frame, me, "card", pool, prompt="card to put hidden")
    else:
        deck = g.players[1 - me if src == "opponent_deck_top" else me].deck
        c = deck[-1] if deck and g.cards[deck[-1]].type == "character" else SKIP
    if c is SKIP:
        return
    key = g.cards[c].name_key
    fits = [i for i in missions if not rules.has_name_on_side(g, i, me, key)]
    mi = choose_mission(g, frame, me, fits or missions, "mission for the hidden card")
    if mi is SKIP:
        return
    for zone in (g.players[me].hand, g.players[me].deck, g.players[1 - me].deck):
        if c in zone:
            zone.remove(c)
            break
    if mi not in fits:
        g.players[g.owner[c]].discard.append(c)  # the arriving duplicate
        g.emit("duplicate", g.owner[c], g.cards[c].id, mi)
        return
    u = new_unit(g, me, c, mi, hidden=True)
    if u.owner != me:
        # FAQ "Take control": an opponent's card on your side is controlled by the card that put
        # it there, and control breaks as for any take control (that card hidden, gone, controlled).
        u.controlled_by = frame.ctx.source
        if not controls(g, frame.ctx.source, me):
            return_control(g, u)  # its controller is no longer there: back to its owner at once


# ---------------------------------------------------------------------------------------
# copying, stripping, and the rarer verbs
_COPYABLE: dict[tuple[str, str], tuple[int, ...]] = {}


def v_repeat(g: GameState, frame: Frame, step: Step) -> None:
    """Apply a line of this card again (of the card copied, in a copied line)."""
    card = g.cards[frame.ctx.vars.get("copied", frame.ctx.card)]
    for line in card.effects:
        if line.timing == step.opts.get("line", "main") and line.kind == "instant" and line.encoding is not None:
            f = Frame(steps=list(line.encoding.steps), ctx=frame.ctx, label=f"{card.name} repeat")
            g.stack.append(f)
            return




# ---------------------------------------------------------------------------------------
# state changes shared by verbs and the game flow
def notify_mission_change(g: GameState, mi: int) -> None:
    """Statics are read live, so nothing to recompute; kept as the hook the FAQ names."""


def fire(g: GameState, on: str, unit: Unit | None, **vars_) -> None:
    """Collect the continuous triggers that react to ``on`` for ``unit`` and chain them."""
    frames = []
    for src, mi, ctl, t, inst in rules.triggers(g, on):
        # a mission's own trigger is decided by the player it concerns
        player = ctl if ctl >= 0 else (unit.controller if unit is not None else turn_player(g))
        ctx = Ctx(player=player, source=src.uid if src else -1, mission=src.mission if src else mi, card=inst)
        if on in ("moved",):
            if t.who is not None:
                continue  # "whenever you move one or more …": once per effect, see fire_moves
            if unit is None or src is None or src.uid != unit.uid:
                continue
            if t.opts.get("by") == "you" and vars_.get("mover") != ctl:
                continue
        elif on == "lost_mission":
            continue  # handled by the evaluation phase
        elif on == "passed":
            if vars_.get("player") != ctl:
                continue
        elif on == "attached":
            if vars_.get("by") != ctl:
                continue  # "when you attach …"
            if "filter" in t.opts and not rules.attachment_fits(g, ctx, t.opts["filter"], vars_["attachment"], unit, mi, ctl):
                continue
            if t.who is None:
                if unit is None or src is None or unit.uid != src.uid:
                    continue
            elif unit is None or not rules.matches(g, ctx, t.who, unit):
                continue
        else:
            if on == "defeated" and t.opts.get("by") == "you" and vars_.get("by") != ctl:
                continue
            if t.who is not None and unit is not None:
                ctx.vars.update(vars_)
                if not rules.matches(g, ctx, t.who, unit):
                    continue
        if t.cond is not None and not rules.condition(g, ctx, t.cond):
            continue
        frames.append(trigger_frame(g, src, mi, player, t, vars_, inst))
    push_frames(g, frames)


def fire_moves(g: GameState, moved: list[Unit], mover: int) -> None:
    """"Whenever you move one or more enemy characters": once per effect that moved any."""
    if not moved:
        return
    frames = []
    for src, mi, ctl, t, inst in rules.triggers(g, "moved"):
        if t.who is None or (t.opts.get("by") == "you" and mover != ctl):
            continue
        ctx = Ctx(player=ctl, source=src.uid if src else -1, mission=src.mission if src else mi, card=inst)
        if not any(g.units.get(u.uid) is u and rules.matches(g, ctx, t.who, u) for u in moved):
            continue
        if t.cond is not None and not rules.condition(g, ctx, t.cond):
            continue
        frames.append(trigger_frame(g, src, mi, ctl, t, None, inst))
    push_frames(g, frames)


def fire_all(g: GameState, on: str, *, mission: int = -1) -> None:
    """Triggers of a moment of the round (start of round, before Power is determined): every
    one in force (``mission``: only those standing in that mission)."""
    frames = []
    for src, mi, ctl, t, inst in rules.triggers(g, on):
        if mission >= 0 and mi != mission:
            continue
        player = ctl if ctl >= 0 else turn_player(g)
        ctx = Ctx(player=player, source=src.uid if src else -1, mission=mi, card=inst)
        if t.cond is not None and not rules.condition(g, ctx, t.cond):
            continue
        frames.append(trigger_frame(g, src, mi, player, t, None, inst))
    push_frames(g, frames)


def move_unit(g: GameState, u: Unit, dest: int, *, by: int) -> bool:
    """Move ``u`` to mission ``dest``; False if it did not move (immune, or hidden instead: a move
    replaced by a hide is no move, so nothing counts it and no "when you move" trigger fires)."""
    if rules.immune(g, u, "move", by):
        return False
    affect(g, u, by)
    if by != u.controller and _replaced_by_hide(g, u, "move", by):
        return False
    g.missions[u.mission].sides[u.controller].remove(u)
    u.mission = dest
    g.board_version += 1
    g.emit("move", u.controller, u.uid, dest)
    if rules.has_name_on_side(g, dest, u.controller, g.cards[u.stack[-1]].name_key):
        # moved by the opponent next to a hidden character of its name (which they could not
        # see): the newcomer is a duplicate, discarded at once, triggering nothing
        discard_duplicate(g, u)
        return True
    g.missions[dest].sides[u.controller].append(u)
    if g.phase == "action":  # "a character that moved during the opponent's previous turn"
        g.last_turn_moves[g.current] = g.last_turn_moves.get(g.current, ()) + (u.uid,)
    fire(g, "moved", u, mover=by)
    return True


def _replaced_by_hide(g: GameState, u: Unit, event: str, by: int) -> bool:
    """⧗ 'if this character would be defeated/moved, hide it instead': the hide replaces the
    event (the character is hidden; it was neither defeated nor moved)."""
    for s in rules.unit_static(g, u, "defeat_becomes_hide") if not u.hidden else []:
        if event not in s.opts.get("events", ["defeat"]):
            continue
        if s.opts.get("from") == "enemy" and by == u.controller:
            continue
        u.hidden = True
        g.board_version += 1
        g.emit("hide", u.controller, u.uid)
        break_control_from(g, u)
        return True
    return False


def turn_face_up(g: GameState, u: Unit) -> None:
    """An effect reveals a hidden character without playing it (SS-118's "reveal and defeat"): it
    is face-up from now on (its continuous lines apply, it is seen), but no MAIN or AMBUSH applies
    and it is not a play."""
    if g.units.get(u.uid) is not u or not u.hidden:
        return
    u.hidden = False
    g.board_version += 1
    g.emit("turned_up", u.controller, u.uid)


def hide_unit(g: GameState, u: Unit, *, by: int) -> bool:
    if u.hidden or rules.immune(g, u, "hide", by):
        return False
    affect(g, u, by)
    u.hidden = True
    g.board_version += 1
    g.emit("hide", u.controller, u.uid)
    break_control_from(g, u)  # a hidden controller loses what it controls
    return True


def defeat_unit(g: GameState, u: Unit, *, by: int, decider: int | None = None) -> bool:
    """Defeat ``u`` by an effect of player ``by``; False if it was not defeated (immune, or hidden
    instead: a defeat replaced by a hide is no defeat, so no "defeated" value, count, "if you do"
    or "when you defeat" follows). ``decider``: the player who carries the defeat out (FAQ "The
    Decider"; ``by`` unless the effect makes the opponent defeat their own characters): the one
    "when you defeat" triggers look at. Immunity ("enemy effects") looks at whose effect it is."""
    if rules.immune(g, u, "defeat", by):
        return False
    affect(g, u, by)
    if _replaced_by_hide(g, u, "defeat", by):
        return False
    dest = "discard"
    for src, mi, ctl, s in rules.statics(g, "defeat_to_hand"):
        # friendly characters: not the card itself (no character is friendly to itself)
        if ctl == u.owner and u.controller == u.owner and (src is None or src.uid != u.uid):
            dest = "hand"
    owner, controller, mission, uid, was_hidden = u.owner, u.controller, u.mission, u.uid, u.hidden
    leave_play(g, u, dest)
    g.emit("defeat", controller, uid)
    # triggered "when a character is defeated": the unit is gone, so match on a ghost
    ghost = Unit(uid=uid, stack=list(u.stack), owner=owner, controller=controller, mission=mission, hidden=was_hidden)
    fire(g, "defeated", ghost, by=by if decider is None else decider)
    return True


def leave_play(g: GameState, u: Unit, dest: str) -> None:
    """The character leaves play: cards beneath go to the discard pile first, then the top card
    goes to ``dest`` (discard, hand or deck) of its OWNER. Control links break."""
    side = g.missions[u.mission].sides[u.controller]
    if u in side:
        side.remove(u)
    g.units.pop(u.uid, None)
    g.board_version += 1
    owner = g.players[u.owner]
    for c in reversed(u.stack[:-1]):
        owner.discard.append(c)
    for a in u.attachments:
        discard_attachment(g, a)
    u.attachments = []
    top = u.stack[-1]
    if dest == "hand":
        owner.hand.append(top)
    elif dest == "deck":
        owner.deck.append(top)
    else:
        owner.discard.append(top)
    g.emit("leave", u.controller, u.uid, dest)
    break_control_from(g, u)


def break_control_from(g: GameState, controller_unit: Unit) -> None:
    """Every character this one controls returns to its owner, same mission, other side."""
    for u in list(g.all_units()):
        if u.controlled_by == controller_unit.uid:
            return_control(g, u)


def discard_attachment(g: GameState, a: int) -> None:
    """An attachment leaves play: to its owner's discard pile, face-down or not."""
    g.att_hidden.discard(a)
    g.att_power.pop(a, None)
    g.players[g.owner[a]].discard.append(a)
    g.board_version += 1


def discard_duplicate(g: GameState, u: Unit) -> None:
    """"No repetition": an arriving duplicate is discarded (its stack and its attachments), no
    trigger, not a defeat. The unit is already off its side."""
    g.units.pop(u.uid, None)
    g.players[u.owner].discard.extend(u.stack)
    for a in u.attachments:
        discard_attachment(g, a)
    u.attachments = []
    g.board_version += 1
    g.emit("duplicate", u.owner, g.cards[u.stack[-1]].id, u.mission)
    break_control_from(g, u)  # it leaves play: what it controlled returns to its owner


def controls(g: GameState, uid: int, player: int) -> bool:
    """Whether unit ``uid`` can hold control for ``player``: in play, face-up, on their side."""
    src = g.units.get(uid)
    return src is not None and not src.hidden and src.controller == player


def return_control(g: GameState, u: Unit) -> None:
    """Control ends: ``u`` goes back to its owner's side of the same mission, as it is. What it
    controlled returns too (a controller that changes sides loses control)."""
    break_control_from(g, u)
    g.missions[u.mission].sides[u.controller].remove(u)
    u.controller = u.owner
    u.controlled_by = -1
    g.board_version += 1
    key = g.cards[u.stack[-1]].name_key
    if rules.has_name_on_side(g, u.mission, u.owner, key):
        # "No repetition": the arriving duplicate is discarded, no trigger, not a defeat.
        discard_duplicate(g, u)
        return
    g.missions[u.mission].sides[u.owner].append(u)


def take_control(g: GameState, u: Unit, player: int, source_uid: int) -> None:
    break_control_from(g, u)  # a controller that becomes controlled loses what it controls
    g.missions[u.mission].sides[u.controller].remove(u)
    u.controller = player
    u.controlled_by = source_uid
    g.board_version += 1
    key = g.cards[u.stack[-1]].name_key
    if rules.has_name_on_side(g, u.mission, player, key):
        discard_duplicate(g, u)
        return
    g.missions[u.mission].sides[player].append(u)
    g.emit("control", player, u.uid)
    if not controls(g, source_uid, player):  # its source left play or was hidden meanwhile:
        return_control(g, u)                 # the link is lost at once (FAQ)


def _here(g: GameState, frame: Frame) -> int:
    """'This mission': where the effect's character stands now (it may have moved)."""
    src = g.units.get(frame.ctx.source)
    return src.mission if src is not None and not frame.ctx.pinned else frame.ctx.mission


def _two_targets(g: GameState, frame: Frame, step: Step, exclude: tuple[int, ...] = (), can=None) -> list[Unit]:
    """The targets of a step, plus those of its ``and`` selector: one snapshot for both."""
    chooser = None
    if step.opts.get("chooser") == "opponent":
        chooser = 1 - frame.ctx.player
    first = pick_units(g, frame, step.arg, chooser=chooser, exclude=exclude, can=can)
    if "and" not in step.opts:
        return first
    more = pick_units(g, frame, step.opts["and"], chooser=chooser, exclude=exclude + tuple(u.uid for u in first), can=can)
    return first + more


def _protections(g: GameState, frame: Frame, targets: list[Unit], event: str) -> dict[int, Unit]:
    """⧗ sacrifice ("you may defeat this character instead"): asked before anything changes."""
    subs = rules.statics(g, "sacrifice")
    if not subs:
        return {}
    by = frame.ctx.player
    out: dict[int, Unit] = {}
    used: set[int] = set()
    for u in targets:
        if u.controller == by or rules.immune(g, u, event, by):
            continue
        for src, mi, ctl, s in subs:
            if src is None or ctl != u.controller or src.uid == u.uid or src.uid in used:
                continue
            if event not in s.opts.get("events", ["hide", "defeat"]):
                continue
            ctx = rules.static_ctx(src, mi, ctl)
            if not rules.static_hits(g, ctx, s, u) or not rules.condition(g, ctx, s.cond, core=True):
                continue
            if choose(g, frame, ctl, "yesno", [True, False], prompt=f"defeat {g.cards[src.stack[-1]].name} instead?"):
                used.add(src.uid)
                out[u.uid] = src
                break
    return out


def _sacrificed(g: GameState, u: Unit, protect: dict[int, Unit]) -> bool:
    src = protect.get(u.uid)
    if src is None:
        return False
    if g.units.get(src.uid) is src:
        defeat_unit(g, src, by=src.controller)
    return True


def copyable_lines(card, mode: str) -> tuple[int, ...]:
    """The instant lines of ``card`` another character may copy: encoded, an effect (not a line
    made only of "play this paying N less": that is a price), not a copy itself (a copy of a copy
    could chain forever), and not UPGRADE when ``mode`` is non_upgrade. DUEL and FIRST STRIKE
    lines are instant effects too: the copier applies them without meeting their requirement."""
    key = (card.id, mode)
    found = _COPYABLE.get(key)
    if found is None:
        found = tuple(
            i for i, line in enumerate(card.effects)
            if line.kind == "instant" and line.encoding is not None and line.encoding.steps
            and line.timing in ("main", "upgrade", "ambush", "score", "duel", "first_strike")
            and not (mode == "non_upgrade" and line.timing == "upgrade")
            and not all(s.verb == "cheaper" for s in line.encoding.steps)
            and not any(s.verb == "copy" for s in line.encoding.steps))
        _COPYABLE[key] = found
    return found


def v_copy(g: GameState, frame: Frame, step: Step) -> None:
    """Copy an instant effect of another card: it resolves as this character's own effect
    (its controller decides, "this character" and "this mission" are the copier's; "repeat the
    MAIN effect" in the copied line names the MAIN effect of the card copied). A character whose
    text is blank (SS-083) has no effect to copy."""
    ctx = frame.ctx
    mode = step.opts.get("lines", "any")
    if isinstance(step.arg, Selector):
        cands = [u.uid for u in rules.select(g, ctx, step.arg)
                 if not u.hidden and not rules.blanked(g, u) and copyable_lines(g.cards[u.stack[-1]], mode)]
        pick = choose(g, frame, ctx.player, "target", cands, prompt="character whose effect to copy")
        if pick is SKIP:
            return
        inst = g.units[pick].stack[-1]
    else:
        inst = ctx.vars.get(step.arg, -1)
        if not isinstance(inst, int) or inst < 0:
            return
    lines = copyable_lines(g.cards[inst], mode)
    li = choose(g, frame, ctx.player, "line", [(inst, i) for i in lines], prompt="effect to copy")
    if li is SKIP:
        return
    line = g.cards[inst].effects[li[1]]
    cctx = Ctx(player=ctx.player, source=ctx.source, mission=_here(g, frame), card=ctx.card, vars={"copied": inst})
    g.stack.append(Frame(steps=list(line.encoding.steps), ctx=cctx, label=f"copy of {g.cards[inst].name}"))
    g.emit("copy", ctx.player, g.cards[inst].id, line.timing)


def v_strip_top(g: GameState, frame: Frame, step: Step) -> None:
    """Discard the top card of an upgrade stack: the card beneath becomes the character."""
    for u in pick_units(g, frame, step.arg):
        if g.units.get(u.uid) is not u or len(u.stack) < 2:
            continue
        affect(g, u, frame.ctx.player)
        top = u.stack.pop()
        g.players[g.owner[top]].discard.append(top)
        g.board_version += 1
        frame.ctx.vars[step.as_ or "stripped"] = top
        g.emit("strip", u.controller, u.uid, g.cards[top].id)
        if rules.has_name_on_side(g, u.mission, u.controller, g.cards[u.stack[-1]].name_key, except_uid=u.uid):
            # "No repetition": the card uncovered duplicates a name, so it is discarded (not defeated)
            side = g.missions[u.mission].sides[u.controller]
            side.remove(u)
            discard_duplicate(g, u)


def v_choose_mission(g: GameState, frame: Frame, step: Step) -> None:
    mi = choose_mission(g, frame, frame.ctx.player, list(range(len(g.missions))), "choose a mission")
    frame.ctx.vars[step.as_ or "chosen_mission"] = -2 if mi is SKIP else mi


def v_retrieve(g: GameState, frame: Frame, step: Step) -> None:
    p = g.players[frame.ctx.player]
    typ = (step.arg.card_type if step.arg is not None else None) or "character"
    cands = [c for c in p.discard if (typ == "any" or g.cards[c].type == typ) and rules.card_fits(g, step.arg, g.cards[c])]
    if step.opts.get("topmost"):  # the discard pile's top is the end of the list
        cands = cands[-1:]
    c = choose(g, frame, p.index, "card", cands, prompt="card to put into your hand")
    if c is SKIP:
        return
    p.discard.remove(c)
    p.hand.append(c)
    g.emit("retrieve", p.index, c)


def v_reveal_or_defeat(g: GameState, frame: Frame, step: Step) -> None:
    """The chosen hidden character's controller either plays it (reveals it) paying N more,
    or defeats it. Unable to pay, they must defeat it. It is an effect of the chooser's."""
    from mythos_cli.engine.game import reveal, reveal_price

    me = frame.ctx.player
    more = step.opts.get("more", 0)
    plan = []
    for u in pick_units(g, frame, step.arg):  # every choice first, then the change
        if not u.hidden:
            continue
        price = reveal_price(g, u.controller, u, extra=more)
        play = price is not None and choose(g, frame, u.controller, "yesno", [True, False],
                                            prompt=f"play it paying {more} more (no: defeat it)?")
        protect = {} if play else _protections(g, frame, [u], "defeat")
        plan.append((u, price if play else None, protect))
    for u, price, protect in plan:
        if g.units.get(u.uid) is not u or not u.hidden:
            continue
        if price is not None:
            reveal(g, u.controller, u, price)
        elif not _sacrificed(g, u, protect):
            defeat_unit(g, u, by=me)


def v_special(g: GameState, frame: Frame, step: Step) -> None:
    from mythos_cli.engine.specials import RUN

    RUN[step.arg](g, frame, step)


def affect(g: GameState, u: Unit, by: int) -> None:
    """An effect of player ``by`` affects ``u``: ⧗ tax makes an enemy pay for it, if able."""
    if by < 0 or by == u.controller or u.hidden:
        return
    for s in rules.unit_static(g, u, "tax"):
        p = g.players[by]
        k = min(p.chakra, rules.number(g, rules.static_ctx(u, u.mission, u.controller), s.n))
        if k > 0:
            p.chakra -= k
            g.emit("tax", by, u.uid, k)


# Every verb of the language and the function that runs it.
VERB_RUN = {
    "powerup": v_powerup,
    "remove_tokens": v_remove_tokens,
    "gain_chakra": v_gain_chakra,
    "steal_chakra": v_steal_chakra,
    "draw": v_draw,
    "discard": v_discard,
    "look_hand": v_look,
    "look_hidden": v_look,
    "move": v_move,
    "hide": v_hide,
    "defeat": v_defeat,
    "take_control": v_take_control,
    "return_to_hand": v_return_to_hand,
    "play": v_play,
    "place_hidden": v_place_hidden,
    "gain_edge": v_gain_edge,
    "gain_points": v_gain_points,
    "spend_chakra": v_spend_chakra,
    "discard_top": v_discard_top,
    "search_top": v_search_top,
    "put_on_deck": v_put_on_deck,
    "repeat": v_repeat,
    "copy": v_copy,
    "strip_top": v_strip_top,
    "choose_mission": v_choose_mission,
    "retrieve": v_retrieve,
    "reveal_or_defeat": v_reveal_or_defeat,
    "special": v_special,
}


# ---------------------------------------------------------------------------------------
# Shinobi Shiren verbs
def _sub_ctx(ctx: Ctx, **changes) -> Ctx:
    c = Ctx(player=ctx.player, source=ctx.source, mission=ctx.mission, card=ctx.card, vars=dict(ctx.vars),
            upgrade=ctx.upgrade, ambush=ctx.ambush, pinned=ctx.pinned)
    for k, v in changes.items():
        setattr(c, k, v)
    return c


def v_declare(g: GameState, frame: Frame, step: Step) -> None:
    top = rules.number(g, frame.ctx, step.arg)
    x = choose(g, frame, frame.ctx.player, "number", list(range(1, top + 1)), prompt="declare a number")
    frame.ctx.vars["x"] = x or 0


def _deck_of(g: GameState, frame: Frame, step: Step):
    return g.players[1 - frame.ctx.player if step.opts.get("who") == "opponent" else frame.ctx.player]


def v_reveal_top(g: GameState, frame: Frame, step: Step) -> None:
    p = _deck_of(g, frame, step)
    c = p.deck[-1] if p.deck else -1
    frame.ctx.vars["revealed_cost"] = (g.cards[c].cost or 0) if c >= 0 else 0
    frame.ctx.vars["revealed_name"] = g.cards[c].name_key if c >= 0 else None
    frame.ctx.vars[step.as_ or "revealed"] = c >= 0
    if c >= 0:
        g.emit("reveal_top", p.index, g.cards[c].id)


def v_look_top(g: GameState, frame: Frame, step: Step) -> None:
    p = _deck_of(g, frame, step)
    if not p.deck:
        return
    g.emit("look", frame.ctx.player)
    if step.opts.get("bottom") and len(p.deck) > 1:
        if choose(g, frame, frame.ctx.player, "yesno", [True, False], prompt="put it at the bottom of the deck?"):
            p.deck.insert(0, p.deck.pop())


def _fits(g: GameState, sel: Selector | None, c: int) -> bool:
    card = g.cards[c]
    typ = (sel.card_type if sel is not None else None) or "character"
    return (typ == "any" or card.type == typ) and rules.card_fits(g, sel, card)


def v_dig(g: GameState, frame: Frame, step: Step) -> None:
    p = g.players[frame.ctx.player]
    for i in range(len(p.deck) - 1, -1, -1):  # from the top
        c = p.deck[i]
        if _fits(g, step.arg, c):
            p.deck.pop(i)
            p.hand.append(c)
            g.emit("draw", p.index, c)
            break
    g.rng.shuffle(p.deck)  # the revealed cards are shuffled back: the whole deck is shuffled


def v_search_deck(g: GameState, frame: Frame, step: Step) -> None:
    p = g.players[frame.ctx.player]
    taken: list[int] = []
    for _ in range(int(step.opts.get("take", 1))):
        cands = [c for c in p.deck if c not in taken and _fits(g, step.arg, c)]
        c = choose(g, frame, p.index, "card", cands, optional=True, prompt="card to take from your deck")
        if c is SKIP:
            break
        taken.append(c)
    for c in taken:
        p.deck.remove(c)
        p.hand.append(c)
        g.emit("draw", p.index, c)
    g.rng.shuffle(p.deck)
    frame.ctx.vars[step.as_ or "searched"] = len(taken)


def v_pay_chakra(g: GameState, frame: Frame, step: Step) -> None:
    p = g.players[frame.ctx.player]
    n = rules.number(g, frame.ctx, step.arg)
    if p.chakra >= n:
        p.pay(n)
        frame.ctx.vars[step.as_ or "paid"] = True
    else:
        frame.ctx.vars[step.as_ or "paid"] = False


def v_reveal_hand(g: GameState, frame: Frame, step: Step) -> None:
    me = frame.ctx.player
    who = 1 - me if step.opts.get("who") == "opponent" else me
    hand = g.players[who].hand
    sel = step.opts.get("filter")
    picked: list[int] = []
    if step.opts.get("random"):
        if hand:
            picked = [hand[g.rng.randrange(len(hand))]]
    else:
        most = len(hand) if step.arg == "all" else rules.number(g, frame.ctx, step.arg)
        while len(picked) < most:
            cands = [c for c in hand if c not in picked and (sel is None or _fits(g, sel, c))]
            c = choose(g, frame, who, "card", cands, optional=True, prompt="card to reveal")
            if c is SKIP:
                break
            picked.append(c)
    frame.ctx.vars["revealed_count"] = len(picked)
    frame.ctx.vars["revealed_cost"] = sum(g.cards[c].cost or 0 for c in picked)
    frame.ctx.vars[step.as_ or "revealed"] = bool(picked)
    for c in picked:
        g.emit("reveal_hand", who, g.cards[c].id)


def _phantom_costs(g: GameState, ctx: Ctx, sel: Selector) -> list[int]:
    """Costs of the extra characters ⧗ phantom adds to a count (the attachments' own costs)."""
    out = []
    for mi in rules.phantoms(g, ctx, sel):
        for a in g.missions[mi].attachments[ctx.player]:
            if a not in g.att_hidden and rules.own_static_card(g.cards[a], "phantom"):
                out.append(g.cards[a].cost or 0)
                break
    return out


def v_for_each(g: GameState, frame: Frame, step: Step) -> None:
    """For each character the selector picks now (a snapshot), run the sub-steps with it remembered
    as ``each`` (its cost as ``each_cost``)."""
    ctx = frame.ctx
    units = rules.select(g, ctx, step.arg)
    subs = [_sub_ctx(ctx, vars={**ctx.vars, "each": u.uid, "each_cost": rules.cost_of(g, u)}) for u in units]
    subs += [_sub_ctx(ctx, vars={**ctx.vars, "each": -1, "each_cost": c}) for c in _phantom_costs(g, ctx, step.arg)]
    for c in reversed(subs):  # the first one resolves first
        g.stack.append(Frame(steps=list(step.opts["do"]), ctx=c, label="for each"))


def v_for_each_mission(g: GameState, frame: Frame, step: Step) -> None:
    """Run the sub-steps once in every mission holding a match, "this mission" being that one."""
    ctx = frame.ctx
    missions = sorted({u.mission for u in rules.select(g, ctx, step.arg)})
    for mi in reversed(missions):
        g.stack.append(Frame(steps=list(step.opts["do"]), ctx=_sub_ctx(ctx, mission=mi, pinned=True), label="every mission"))


def v_times(g: GameState, frame: Frame, step: Step) -> None:
    n = rules.number(g, frame.ctx, step.arg)
    if n > 0:
        g.stack.append(Frame(steps=list(step.opts["do"]) * n, ctx=frame.ctx, label="times"))


def v_one_of(g: GameState, frame: Frame, step: Step) -> None:
    k = choose(g, frame, frame.ctx.player, "number", list(range(1, len(step.arg) + 1)), prompt="which option")
    if k:
        g.stack.append(Frame(steps=list(step.arg[k - 1]), ctx=frame.ctx, label="chosen option"))


def v_attach(g: GameState, frame: Frame, step: Step) -> None:
    """Play an attachment, paying less, here or anywhere: from your hand or by revealing one of
    your face-down attachments (the default, as for characters: revealing it is playing it), or
    searched from your deck."""
    from mythos_cli.engine import attachments

    me = frame.ctx.player
    p = g.players[me]
    src = step.opts.get("from", "hand_or_hidden")
    discount = rules.number(g, frame.ctx, step.opts.get("discount", 0))
    here = _here(g, frame) if step.opts.get("to") == "this" else -1
    pool = p.deck if src == "deck" else p.hand
    cands = [c for c in pool if g.cards[c].type == "attachment" and rules.card_fits(g, step.arg, g.cards[c])
             and any(True for _ in attachments.attach_options(g, me, c, discount=discount, here=here))]
    reveals: dict[int, int] = {}  # a face-down attachment of yours -> its price
    if src == "hand_or_hidden":
        for a, _, mi in attachments.hidden_attachments_of(g, me):
            if (here < 0 or mi == here) and rules.card_fits(g, step.arg, g.cards[a]):
                price = max(0, rules.play_cost(g, me, a, mi) - discount)
                if price <= p.chakra:
                    reveals[a] = price
                    cands.append(a)
    c = choose(g, frame, me, "card", cands, prompt="attachment to play")
    if c in reveals:
        attachments.reveal_attachment(g, me, c, reveals[c])
        frame.ctx.vars[step.as_ or "attached"] = c
    elif c is not SKIP:
        opts = list(attachments.attach_options(g, me, c, discount=discount, here=here))
        where = choose(g, frame, me, "place", opts, prompt="where to attach it")
        if where is not SKIP:
            mi, host, price = where
            attachments.attach_card(g, me, c, mi, host, hidden=False, price=price)
            frame.ctx.vars[step.as_ or "attached"] = c
    if src == "deck":
        g.rng.shuffle(p.deck)


def v_attach_self(g: GameState, frame: Frame, step: Step) -> None:
    from mythos_cli.engine import attachments

    me = g.units.get(frame.ctx.source)
    if me is None or me.hidden:
        return
    inst = me.stack[-1]
    cands = [u.uid for u in rules.select(g, frame.ctx, step.arg)
             if u is not me and rules.host_ok(g, frame.ctx.player, inst, u, ignore=True)]
    pick = choose(g, frame, frame.ctx.player, "target", cands, prompt="character to attach to")
    if pick is SKIP:
        return
    host = g.units[pick]
    affect(g, host, frame.ctx.player)
    attachments.unit_becomes_attachment(g, me, host, int(step.opts.get("power", 0)))


def _pick_attachments(g: GameState, frame: Frame, sel: Selector | None, cands: list[int], prompt: str) -> list[int]:
    if sel is not None and sel.is_all:
        return cands
    if sel is not None and isinstance(sel.count, tuple):
        most = rules.number(g, frame.ctx, sel.count[1])
        out: list[int] = []
        while len(out) < most:
            c = choose(g, frame, frame.ctx.player, "card", [x for x in cands if x not in out], optional=True, prompt=prompt)
            if c is SKIP:
                break
            out.append(c)
        return out
    c = choose(g, frame, frame.ctx.player, "card", cands, prompt=prompt)
    return [] if c is SKIP else [c]


def v_discard_attachment(g: GameState, frame: Frame, step: Step) -> None:
    from mythos_cli.engine import attachments

    cands = [a for a, *_ in rules.select_attachments(g, frame.ctx, step.arg)]
    for a in _pick_attachments(g, frame, step.arg, cands, "attachment to discard"):
        if any(a == x for x, *_ in rules.all_attachments(g)):
            attachments.discard(g, a)
    frame.ctx.vars[step.as_ or "discarded_attachment"] = bool(cands)


def v_move_attachment(g: GameState, frame: Frame, step: Step) -> None:
    """Move attachments in play to another character: this attachment, or those a selector picks;
    the new host must fit ``onto`` ("self": this character) and take the attachment (its ATTACH
    condition seen from its owner, the one-per-player limit), unless ``ignore``."""
    from mythos_cli.engine import attachments

    ctx = frame.ctx
    if step.arg == "this":
        cands = [ctx.card] if any(a == ctx.card for a, *_ in rules.all_attachments(g)) else []
        sel = None
    else:
        sel = step.arg
        cands = [a for a, host, *_ in rules.select_attachments(g, ctx, sel)
                 if not (step.opts.get("onto") == "self" and host is not None and host.uid == ctx.source)]
    chosen = _pick_attachments(g, frame, sel, cands, "attachment to move")
    onto = step.opts.get("onto")
    plan = []
    for a in chosen:
        host, mi, side = attachments.locate(g, a)
        dests = []
        for u in g.all_units():
            if u is host:
                continue
            if onto == "self" and u.uid != ctx.source:
                continue
            if isinstance(onto, Selector) and not rules.matches(g, ctx, onto, u):
                continue
            if rules.host_ok(g, g.owner[a], a, u, ignore=bool(step.opts.get("ignore"))):
                dests.append(u.uid)
        pick = choose(g, frame, ctx.player, "target", dests, prompt="character to move it to")
        if pick is not SKIP:
            plan.append((a, pick))
    for a, uid in plan:
        u = g.units.get(uid)
        if u is not None and any(a == x for x, *_ in rules.all_attachments(g)):
            attachments.move_to(g, a, u)


def v_take_back(g: GameState, frame: Frame, step: Step) -> None:
    for u in pick_units(g, frame, step.arg):
        if g.units.get(u.uid) is u and u.controller != u.owner and u.owner == frame.ctx.player:
            return_control(g, u)


def v_split_bottom(g: GameState, frame: Frame, step: Step) -> None:
    """The bottom card of this character's stack becomes a character of its own in another
    mission: face-up, not played (no effect applies), no tokens; the rest of the stack stays."""
    from mythos_cli.engine.game import new_unit

    u = g.units.get(frame.ctx.source)
    if u is None or len(u.stack) < 2:
        return
    bottom = u.stack[0]
    key = g.cards[bottom].name_key
    dests = [i for i in range(len(g.missions)) if i != u.mission and not rules.has_name_on_side(g, i, u.controller, key)]
    mi = choose_mission(g, frame, frame.ctx.player, dests, "mission for the bottom card")
    if mi is SKIP:
        return
    u.stack.pop(0)
    v = new_unit(g, u.controller, bottom, mi, hidden=False)
    v.played_round, v.played_turn = g.round, g.turn
    if v.owner != v.controller:
        v.controlled_by = u.controlled_by  # the controlled token follows every card of the stack
    g.emit("split", u.controller, u.uid, v.uid, mi)


def v_discard_from_stack(g: GameState, frame: Frame, step: Step) -> None:
    """Discard every card of a stack that fits the filter (its printed keywords, hidden or not).
    What remains is the character (its top card the highest remaining); an emptied stack leaves
    play without being defeated."""
    sel = step.opts.get("filter")
    ctx = frame.ctx
    # a hidden stack shows no card: none of its cards fits a filter (and none is a candidate)
    cands = [u.uid for u in rules.select(g, ctx, step.arg)
             if not u.hidden and any(rules.card_fits(g, sel, g.cards[c]) for c in u.stack)]
    pick = choose(g, frame, ctx.player, "target", cands, prompt="stack to strip")
    if pick is SKIP:
        return
    u = g.units[pick]
    affect(g, u, ctx.player)
    gone = [c for c in u.stack if rules.card_fits(g, sel, g.cards[c])]
    keep = [c for c in u.stack if c not in gone]
    owner = g.players[u.owner]
    if not keep:  # the whole stack goes: it leaves play (cards beneath first, then the top), not defeated
        g.emit("strip", u.controller, u.uid, len(gone))
        leave_play(g, u, "discard")
        return
    for c in reversed(gone):
        owner.discard.append(c)
    g.board_version += 1
    g.emit("strip", u.controller, u.uid, len(gone))
    u.stack = keep
    if rules.has_name_on_side(g, u.mission, u.controller, g.cards[u.stack[-1]].name_key, except_uid=u.uid):
        g.missions[u.mission].sides[u.controller].remove(u)
        discard_duplicate(g, u)


def v_recycle(g: GameState, frame: Frame, step: Step) -> None:
    p = g.players[frame.ctx.player]
    most = min(rules.number(g, frame.ctx, step.arg), len(p.discard))
    k = choose(g, frame, p.index, "number", list(range(most, -1, -1)), prompt="cards to shuffle back") if most else 0
    k = k or 0
    if k:
        back = p.discard[-k:]
        del p.discard[-k:]
        p.deck.extend(back)
        g.rng.shuffle(p.deck)
    frame.ctx.vars[step.as_ or "recycled"] = k


def v_activate(g: GameState, frame: Frame, step: Step) -> None:
    """A character applies one of its instant lines of a timing (DUEL), ignoring its requirement:
    it resolves as that character's own effect."""
    timing = step.opts.get("line", "duel")
    ctx = frame.ctx

    def lines_of(u: Unit) -> list[int]:
        if u.hidden or rules.blanked(g, u):
            return []
        card = g.cards[u.stack[-1]]
        return [i for i, l in enumerate(card.effects) if l.timing == timing and l.kind == "instant" and l.encoding is not None]

    cands = [u.uid for u in rules.select(g, ctx, step.arg) if lines_of(u)]
    pick = choose(g, frame, ctx.player, "target", cands, prompt="character whose effect applies")
    if pick is SKIP:
        return
    u = g.units[pick]
    inst = u.stack[-1]
    li = choose(g, frame, ctx.player, "line", [(inst, i) for i in lines_of(u)], prompt="effect to apply")
    if li is SKIP:
        return
    line = g.cards[inst].effects[li[1]]
    g.stack.append(Frame(steps=list(line.encoding.steps), ctx=Ctx(player=u.controller, source=u.uid, mission=u.mission, card=inst),
                         label=f"{g.cards[inst].name} {line.label}"))


def v_cheaper(g: GameState, frame: Frame, step: Step) -> None:
    """Nothing to do when resolved: the price was lowered when the card was played."""


VERB_RUN.update({
    "cheaper": v_cheaper,
    "declare": v_declare,
    "reveal_top": v_reveal_top,
    "look_top": v_look_top,
    "dig": v_dig,
    "search_deck": v_search_deck,
    "pay_chakra": v_pay_chakra,
    "reveal_hand": v_reveal_hand,
    "for_each": v_for_each,
    "for_each_mission": v_for_each_mission,
    "times": v_times,
    "one_of": v_one_of,
    "attach": v_attach,
    "attach_self": v_attach_self,
    "discard_attachment": v_discard_attachment,
    "move_attachment": v_move_attachment,
    "take_back": v_take_back,
    "split_bottom": v_split_bottom,
    "discard_from_stack": v_discard_from_stack,
    "recycle": v_recycle,
    "activate": v_activate,
})
