"""Board evaluation and one-step action scoring shared by the heuristic policies.

The value of a board for a player is the expected mission points still to come: for each
mission in play, its points this round (and, discounted, the rounds after) times a soft
probability of winning it, from the Power margin, the Edge and whether the opponent can
still answer. A main action is scored by how much it changes that value, plus what its
card's effects are worth, minus the chakra it spends. The same weights, tilted, make the
archetype policies.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from mythos_cli.catalog.language import Selector, Step
from mythos_cli.policies.base import Observation, context_verbs

HARMFUL_TO_TARGET = {"hide", "defeat", "take_control", "remove_tokens", "return_to_hand"}
GOOD_FOR_TARGET = {"powerup"}


@dataclass(frozen=True)
class Weights:
    """How a heuristic player values things. ``tempo``, ``ambush`` and ``control`` tilt these."""

    chakra: float = 0.25  # value of one chakra kept (it is lost at the end of the round anyway)
    card_in_hand: float = 0.35
    future_rounds: float = 0.45  # weight of the rounds after this one for a mission won now
    edge: float = 0.6
    hidden_bias: float = 0.0  # extra value for playing hidden
    reveal_bias: float = 0.0
    newest_bias: float = 0.0  # extra weight for the newest mission
    rank_bias: float = 0.0  # extra weight per rank (A/B missions for control)
    pass_margin: float = 0.05  # pass when no action is worth more than this
    hold_chakra: float = 0.0  # reluctance to spend before the opponent has passed
    effect_scale: float = 1.0
    spread: float = 2.5  # uncertainty of a margin while the opponent can still act


def win_prob(margin: float, edge: bool, open_: bool, w: Weights) -> float:
    """Soft chance to win a mission with this Power margin."""
    if not open_:
        if margin > 0 or (margin == 0 and edge):
            return 1.0 if margin > 0 or margin == 0 else 0.0
        return 0.0
    m = margin + (0.5 if edge else -0.5)
    return 1.0 / (1.0 + math.exp(-m / w.spread))


def mission_weight(obs: Observation, mi: int, w: Weights) -> float:
    rounds_left = max(0, 4 - obs.round)
    base = obs.mission_points(mi)
    weight = base * (1.0 + w.future_rounds * rounds_left)
    if mi == obs.n_missions - 1:
        weight *= 1.0 + w.newest_bias
    weight *= 1.0 + w.rank_bias * obs.mission_rank(mi)
    return weight


@dataclass
class Board:
    """Power on each mission, mine and theirs, with the values that change as we imagine plays."""

    mine: list[int]
    theirs: list[int]
    weight: list[float]
    edge: bool
    open_: bool
    extra: float = 0.0
    chakra_spent: int = 0
    notes: dict = field(default_factory=dict)

    def value(self, w: Weights) -> float:
        total = self.extra
        for m, t, wt in zip(self.mine, self.theirs, self.weight):
            if m == 0 and t == 0:
                continue
            total += wt * win_prob(m - t, self.edge, self.open_, w)
        return total


def board(obs: Observation, w: Weights) -> Board:
    n = obs.n_missions
    mine, theirs = obs.side_powers()
    return Board(
        mine=mine,
        theirs=theirs,
        weight=[mission_weight(obs, mi, w) for mi in range(n)],
        edge=obs.has_edge,
        open_=not obs.opponent_passed,
    )


# ---------------------------------------------------------------------------------------
# what an effect is worth, read off its encoding
def _best_enemy(obs: Observation, sel: Selector, mi: int, b: Board, source: int = -1) -> tuple[float, int]:
    """Value of removing the best enemy a selector allows (hide/defeat), and its mission."""
    best, where = 0.0, -1
    for u in obs.select(sel, mi, source):
        if u.controller == obs.player:
            continue
        p = obs.power(u.uid)
        m = u.mission
        before = b.weight[m] * win_prob(b.mine[m] - b.theirs[m], b.edge, b.open_, W0)
        after = b.weight[m] * win_prob(b.mine[m] - (b.theirs[m] - p), b.edge, b.open_, W0)
        gain = after - before + 0.15 * p
        if gain > best:
            best, where = gain, m
    return best, where


W0 = Weights()


def step_value(obs: Observation, step: Step, mi: int, b: Board, self_power: int, source: int = -1) -> float:
    """Rough worth of one effect step for its controller (this player)."""
    v = step.verb
    n = step.arg if isinstance(step.arg, int) else 2
    if v == "powerup":
        if step.target is None or step.target.self_:
            return _power_gain(b, mi, n)
        if step.target.side == "enemy":
            return -0.2 * n
        return max((_power_gain(b, m, n) for m in range(len(b.mine)) if b.mine[m] > 0), default=0.2 * n)
    if v in ("hide", "defeat"):
        sel = step.arg
        if sel.side == "friendly" or sel.self_:
            return -0.5
        gain, _ = _best_enemy(obs, sel, mi, b, source)
        return gain * (1.3 if v == "defeat" else 1.0)
    if v == "take_control":
        gain, _ = _best_enemy(obs, step.arg, mi, b, source)
        return gain * 1.5
    if v == "draw":
        who = step.opts.get("who")
        return -0.3 * n if who == "opponent" else (0.1 * n if who == "each" else 0.35 * n)
    if v in ("gain_chakra", "steal_chakra"):
        if step.opts.get("who") == "opponent":
            return -0.3 * n
        return (0.3 if v == "gain_chakra" else 0.5) * n
    if v == "discard":
        return 0.3 * n if step.opts.get("who") == "opponent" else -0.3 * n
    if v == "remove_tokens":
        return 0.4 * (n if isinstance(n, int) else 2)
    if v == "gain_points":
        return 1.0 * n
    if v == "gain_edge":
        return 0.5
    if v == "play":
        return 1.2
    if v == "move":
        return 0.2
    if v == "return_to_hand":
        return -0.3
    return 0.1


def _power_gain(b: Board, mi: int, n: int) -> float:
    before = b.weight[mi] * win_prob(b.mine[mi] - b.theirs[mi], b.edge, b.open_, W0)
    after = b.weight[mi] * win_prob(b.mine[mi] + n - b.theirs[mi], b.edge, b.open_, W0)
    return after - before + 0.05 * n


_PASSIVE: dict[str, tuple[float, int] | None] = {}


def _passive_value(card) -> tuple[float, int] | None:
    """``card_effect_value`` of a card with no encoded instant line (it depends on nothing but
    the card), or None for a card that has one (memoised per card version)."""
    if card.id in _PASSIVE:
        return _PASSIVE[card.id]
    found = None
    if not any(l.kind == "instant" and l.encoding is not None for l in card.effects):
        found = _card_effect_value(None, card, 0, None, upgrade=False, ambush=False)
    _PASSIVE[card.id] = found
    return found


def card_effect_value(obs: Observation, card, mi: int, b: Board, *, upgrade: bool, ambush: bool) -> tuple[float, int]:
    """(value of the card's instant effects when played here, Power it adds to itself)."""
    found = _passive_value(card)
    if found is not None:
        return found
    return _card_effect_value(obs, card, mi, b, upgrade=upgrade, ambush=ambush)


def _card_effect_value(obs: Observation | None, card, mi: int, b: Board | None, *, upgrade: bool,
                       ambush: bool) -> tuple[float, int]:
    total, self_power = 0.0, 0
    for line in card.effects:
        enc = line.encoding
        if enc is None:
            continue
        applies = line.timing == "main" or (line.timing == "upgrade" and upgrade) or (line.timing == "ambush" and ambush)
        if line.kind == "continuous":
            total += 0.4 * len(enc.statics) + 0.3 * len(enc.triggers)
            for s in enc.statics:
                if s.kind == "power" and s.target is None and isinstance(s.n, int) and s.cond is None and "per" not in s.opts:
                    self_power += s.n
            continue
        if line.kind != "instant" or not applies:
            continue
        for step in enc.steps:
            if step.verb == "powerup" and (step.target is None or step.target.self_) and isinstance(step.arg, int):
                self_power += step.arg
                continue
            total += step_value(obs, step, mi, b, card.power)
    return total, self_power


# ---------------------------------------------------------------------------------------
# scoring main actions
def _delta(b: Board, mi: int, gain: int, w: Weights) -> float:
    """Change in board value when my Power on mission ``mi`` grows by ``gain``."""
    m, t, wt = b.mine[mi], b.theirs[mi], b.weight[mi]
    before = 0.0 if m == 0 and t == 0 else wt * win_prob(m - t, b.edge, b.open_, w)
    after = 0.0 if m + gain == 0 and t == 0 else wt * win_prob(m + gain - t, b.edge, b.open_, w)
    return after - before


_AMBUSH: dict[str, bool] = {}


def has_ambush(card) -> bool:
    """Whether the card has an encoded AMBUSH line (memoised per card version)."""
    found = _AMBUSH.get(card.id)
    if found is None:
        found = _AMBUSH[card.id] = any(l.timing == "ambush" and l.encoding is not None for l in card.effects)
    return found


_MISSION_VERBS = frozenset({"powerup", "hide", "defeat", "take_control"})  # step_value reads the mission for these
_BY_MISSION: dict[str, bool] = {}


def _depends_on_mission(card) -> bool:
    """Whether ``card_effect_value`` of the card may change with the mission it is played in."""
    found = _BY_MISSION.get(card.id)
    if found is None:
        found = _BY_MISSION[card.id] = any(
            l.kind == "instant" and l.encoding is not None and any(x.verb in _MISSION_VERBS for x in l.encoding.steps)
            for l in card.effects)
    return found


def played_effect_value(obs: Observation, card, mi: int, b: Board, upgrade: bool, cache: dict | None) -> tuple[float, int]:
    """``card_effect_value`` of a face-up play, memoised in the decision's ``cache`` (per mission
    only for a card whose value depends on it)."""
    if cache is None:
        return card_effect_value(obs, card, mi, b, upgrade=upgrade, ambush=False)
    key = (card.id, mi if _depends_on_mission(card) else -1, upgrade)
    found = cache.get(key)
    if found is None:
        found = cache[key] = card_effect_value(obs, card, mi, b, upgrade=upgrade, ambush=False)
    return found


def score_main(obs: Observation, action: tuple, b: Board, base: float, w: Weights, cache: dict | None = None) -> float:
    kind = action[0]
    if kind == "pass":
        v = 0.0
        if not obs.opponent_passed and not obs.has_edge:
            v += w.edge  # the first to pass takes the Edge
        return v + w.pass_margin
    price = obs.price(action)
    if kind in ("attach", "reveal_attachment"):
        return _score_attach(obs, action, b, w, price)
    if kind == "reveal":
        uid = action[1]
        card = obs.unit_card(uid)
        mi = obs.mission_of(uid)
        eff, selfp = card_effect_value(obs, card, mi, b, upgrade=False, ambush=True)
        v = _delta(b, mi, card.power + selfp, w)
        return v + w.effect_scale * eff - w.chakra * price + w.reveal_bias - _hold(obs, w, price)
    _, inst, mi, hidden, over = action
    card = obs.card(inst)
    if hidden:
        # a hidden card adds no Power now but is a threat (and a bluff); its AMBUSH waits
        return 0.15 + (0.5 if has_ambush(card) else 0.0) + w.hidden_bias - w.chakra * price - w.card_in_hand * 0.5
    eff, selfp = played_effect_value(obs, card, mi, b, over >= 0, cache)
    gain = card.power + selfp
    if over >= 0:
        gain -= obs.unit_card(over).power  # the stack's tokens stay; only the printed Power changes
    v = _delta(b, mi, gain, w)
    hand_cost = 0.0 if over >= 0 else w.card_in_hand * 0.6
    return v + w.effect_scale * eff - w.chakra * price - hand_cost - _hold(obs, w, price)


def _score_attach(obs: Observation, action: tuple, b: Board, w: Weights, price: int) -> float:
    """An attachment is worth its Power where it lands (on my side, or taken off an enemy's
    character when its Power is negative), like a Power gain on that mission, plus its effects."""
    if action[0] == "reveal_attachment":
        inst = action[1]
        host_uid, mi = obs.attachment_place(inst)
        hidden = False
    else:
        _, inst, mi, host_uid, hidden = action
    card = obs.card(inst)
    if hidden:
        return 0.1 + (0.4 if has_ambush(card) else 0.0) + w.hidden_bias - w.chakra * price - w.card_in_hand * 0.5
    p = card.power or 0
    gain = p if host_uid < 0 or obs.is_mine(host_uid) else -p
    eff, selfp = card_effect_value(obs, card, mi, b, upgrade=False, ambush=action[0] == "reveal_attachment")
    if host_uid < 0 or obs.is_mine(host_uid):
        gain += selfp
    hand_cost = 0.0 if action[0] == "reveal_attachment" else w.card_in_hand * 0.6
    return _delta(b, mi, gain, w) + w.effect_scale * eff - w.chakra * price - hand_cost - _hold(obs, w, price)


def _hold(obs: Observation, w: Weights, price: int) -> float:
    return w.hold_chakra * price if not obs.opponent_passed else 0.0


def best_main(obs: Observation, w: Weights, rng) -> tuple:
    b = board(obs, w)
    base = b.value(w)
    best, best_v = None, -1e9
    cache: dict = {}
    for a in obs.legal:
        v = score_main(obs, a, b, base, w, cache) + rng.random() * 1e-6
        if v > best_v:
            best, best_v = a, v
    return best


def ranked_main(obs: Observation, w: Weights, b: Board | None = None,
                cache: dict | None = None) -> list[tuple[float, tuple]]:
    """Every main action with its one-step score, best first (``b``: this decision's board, if
    built; ``cache``: the decision's memo of card effect values, shared with the caller)."""
    b = board(obs, w) if b is None else b
    base = b.value(w)
    cache = {} if cache is None else cache
    return sorted(((score_main(obs, a, b, base, w, cache), a) for a in obs.legal), key=lambda t: -t[0])


# ---------------------------------------------------------------------------------------
# answering effect choices
def answer_choice(obs: Observation, w: Weights, rng) -> tuple:
    d = obs.decision
    opts = d.options
    steps = context_verbs(d)
    step = steps[0] if steps else None
    kind = d.kind
    if kind == "yesno":
        return ("choose", _line_worth(obs, steps, w) >= 0)
    if kind == "target":
        return ("choose", _pick_target(obs, step, opts))
    if kind == "mission":
        return ("choose", _pick_mission(obs, step, opts, w))
    if kind == "number":
        nums = [o for o in opts if o is not None]
        if step is not None and step.verb == "spend_chakra":
            return ("choose", max(nums) if obs.opponent_passed or obs.round == 4 else max(nums) // 2)
        return ("choose", max(nums))
    if kind == "card":
        return ("choose", _pick_card(obs, step, opts))
    if kind == "place":
        return ("choose", _pick_place(obs, opts, w))
    return ("choose", opts[0])


def _line_worth(obs: Observation, steps: list, w: Weights) -> float:
    if not steps:
        return 1.0
    b = board(obs, w)
    mi = obs.mission_of(obs.decision.source) if obs.decision.source >= 0 else 0
    return sum(step_value(obs, s, max(mi, 0), b, 0, obs.decision.source) for s in steps)


def _unit_value(obs: Observation, uid: int) -> float:
    mi = obs.mission_of(uid)
    return obs.power(uid) * (1 + obs.mission_points(mi) * 0.2) + 0.1


def _pick_target(obs: Observation, step, opts: list):
    real = [o for o in opts if o is not None]
    if step is None:
        return real[0]
    harmful = step.verb in HARMFUL_TO_TARGET or (step.verb == "move" and step.arg.side == "enemy")
    if step.verb == "move":
        harmful = not all(obs.is_mine(u) for u in real) if step.arg.side == "any" else harmful
    scored = []
    for uid in real:
        mine = obs.is_mine(uid)
        v = _unit_value(obs, uid)
        if harmful:
            score = v if not mine else -v
        else:
            score = v if mine else -v
        scored.append((score, uid))
    scored.sort(key=lambda t: -t[0])
    top, uid = scored[0]
    if top < 0 and None in opts:
        return None
    return uid


def _pick_mission(obs: Observation, step, opts: list, w: Weights):
    real = [o for o in opts if o is not None]
    b = board(obs, w)
    mover = obs.decision.source
    # moving: put a friendly character where it flips a mission; an enemy where it matters least
    def gain(mi):
        return b.weight[mi] * (1.0 - win_prob(b.mine[mi] - b.theirs[mi], b.edge, b.open_, w))
    if step is not None and step.verb == "move" and step.arg is not None and getattr(step.arg, "side", "") == "enemy":
        return min(real, key=gain)
    del mover
    return max(real, key=gain)


def _pick_card(obs: Observation, step, opts: list):
    real = [o for o in opts if o is not None]
    if step is not None and step.verb in ("play",):
        return max(real, key=lambda c: (obs.card(c).power, obs.card(c).cost or 0))
    # discarding (mine or, when I choose, the opponent's): lose the least, take the most
    if step is not None and step.verb == "discard" and step.opts.get("who") == "opponent" and step.opts.get("chooser") == "you":
        return max(real, key=lambda c: (obs.card(c).cost or 0, obs.card(c).power or 0))
    return min(real, key=lambda c: ((obs.card(c).power or 0) + (obs.card(c).cost or 0), c))


def _pick_place(obs: Observation, opts: list, w: Weights):
    real = [o for o in opts if o is not None]
    b = board(obs, w)
    return max(real, key=lambda o: b.weight[o[0]] * (1.0 - win_prob(b.mine[o[0]] - b.theirs[o[0]], b.edge, b.open_, w)) - 0.1 * o[2])
