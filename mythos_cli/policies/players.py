"""The policies: random, greedy, the archetypes (tempo, ambush, control) and lookahead."""

from __future__ import annotations

import dataclasses
import math
import random
import time

from mythos_cli.policies import heuristic as H
from mythos_cli.policies.base import Observation
from mythos_cli.policies.mulligan import MULLIGANS, Mulligan


class BasePolicy:
    """Shared plumbing: an RNG per game, a mulligan policy, dispatch by decision kind."""

    name = "base"
    default_mulligan = "heuristic"

    def __init__(self, mulligan: str | None = None, **params):
        self.params = params
        self.mulligan: Mulligan = MULLIGANS[mulligan or self.default_mulligan]()
        self.rng = random.Random(0)

    def reset(self, seed: int) -> None:
        self.rng = random.Random(f"{self.name}:{seed}")

    def decide(self, obs: Observation) -> tuple:
        if obs.kind == "mulligan":
            return ("choose", self.mulligan.take(obs))
        if obs.kind == "action":
            return self.main(obs)
        return self.choice(obs)

    def main(self, obs: Observation) -> tuple:  # pragma: no cover - overridden
        raise NotImplementedError

    def choice(self, obs: Observation) -> tuple:
        return H.answer_choice(obs, self.weights, self.rng)

    weights = H.Weights()

    @property
    def spec(self) -> str:
        extra = ",".join(f"{k}={v}" for k, v in sorted(self.params.items()))
        return self.name + (":" + extra if extra else "")


class RandomPolicy(BasePolicy):
    """Uniform over the legal decisions (the baseline). Keeps every opening hand."""

    name = "random"
    default_mulligan = "keep"

    def decide(self, obs: Observation) -> tuple:
        if obs.kind == "mulligan" and self.mulligan.__class__.__name__ != "Keep":
            return ("choose", self.mulligan.take(obs))
        legal = obs.legal
        return legal[self.rng.randrange(len(legal))]


class GreedyPolicy(BasePolicy):
    """One-step evaluation: the action that most improves the expected mission points,
    counting the card's effects, the Edge and the chakra spent."""

    name = "greedy"
    weights = H.Weights()  # neutral weights: the plain one-step baseline

    def main(self, obs: Observation) -> tuple:
        return H.best_main(obs, self.weights, self.rng)


# ---------------------------------------------------------------------------------------
# planning a round's spending (the archetypes)
def _plan_item(obs: Observation, action: tuple, b: H.Board, w: H.Weights, cache: dict):
    """How a main action enters a round plan: (mission, Power it adds there, its value apart from
    that Power, its name), or mission -1 for an action valued on its own (hidden plays, attachments)."""
    kind = action[0]
    if kind == "play" and not action[3]:
        _, inst, mi, _, over = action
        card = obs.card(inst)
        eff, selfp = H.played_effect_value(obs, card, mi, b, over >= 0, cache)
        gain = card.power + selfp
        if over >= 0:
            gain -= obs.unit_card(over).power
        hand_cost = 0.0 if over >= 0 else w.card_in_hand * 0.6
    elif kind == "reveal":
        card = obs.unit_card(action[1])
        mi = obs.mission_of(action[1])
        eff, selfp = H.card_effect_value(obs, card, mi, b, upgrade=False, ambush=True)
        gain = card.power + selfp
        hand_cost = -w.reveal_bias
    else:
        return -1, 0, None, None
    price = obs.price(action)
    hold = w.hold_chakra * price if not obs.opponent_passed else 0.0
    return mi, gain, w.effect_scale * eff - w.chakra * price - hand_cost - hold, card.name_key


def round_plan(obs: Observation, w: H.Weights, ranked: list[tuple[float, tuple]], depth: int = 3,
               width: int = 12, b: H.Board | None = None, cache: dict | None = None) -> tuple[list[tuple], float]:
    """The best set of up to ``depth`` of my main actions this round that my chakra pays for
    (different cards, one name per mission side), among the ``width`` best single actions, with
    the Power of plays on one mission added up before it is valued (two plays may take a mission
    that neither takes alone; a second play where the first already wins is worth less).
    ``ranked`` is ``H.ranked_main``'s list (its values are used for actions valued on their own).
    Returns the set's actions, the best single action first, and the set's value (to beat passing).
    ``b``, ``cache``: this decision's board and card-effect memo, if ``ranked_main`` built them."""
    b = H.board(obs, w) if b is None else b
    n = len(b.mine)
    theirs, weight, edge, open_ = b.theirs, b.weight, b.edge, b.open_
    memo: list[dict] = [{} for _ in range(n)]

    def part(mi: int, m: int) -> float:  # what mission mi is worth to me with Power m there
        v = memo[mi].get(m)
        if v is None:
            t = theirs[mi]
            v = memo[mi][m] = weight[mi] * H.win_prob(m - t, edge, open_, w) if (m or t) else 0.0
        return v

    mine = list(b.mine)
    parts = [part(mi, mine[mi]) for mi in range(n)]
    base = sum(parts)
    cache = {} if cache is None else cache
    items = []
    for v, a in ranked:
        if a[0] == "pass":
            continue
        mi, gain, rest, name = _plan_item(obs, a, b, w, cache)
        ident = ("unit" if a[0] == "reveal" else "card", a[1])
        if rest is None:
            items.append((v, a, -1, 0, v, None, obs.price(a), ident))
            continue
        trial = list(parts)
        trial[mi] = part(mi, mine[mi] + gain)
        items.append((sum(trial) - base + rest, a, mi, gain, rest, (mi, name), obs.price(a), ident))
    items.sort(key=lambda it: -it[0])
    pool = items[:width]
    best: list = [[], -1e9]
    chosen: list = []
    idents: set = set()
    names: set = set()

    def search(start: int, rest_sum: float, left: int) -> None:
        if chosen:
            v = sum(parts) - base + rest_sum
            if v > best[1]:
                best[0], best[1] = [it[1] for it in chosen], v
        if len(chosen) >= depth:
            return
        for k in range(start, len(pool)):
            it = pool[k]
            _, a, mi, gain, rest, name, price, ident = it
            if price > left or ident in idents or (name is not None and name in names):
                continue
            if mi >= 0:
                old = parts[mi]
                mine[mi] += gain
                parts[mi] = part(mi, mine[mi])
            if len(chosen) + 1 >= depth:  # a leaf: value it here (what the call below would do)
                v = sum(parts) - base + (rest_sum + rest)
                if v > best[1]:
                    best[0], best[1] = [x[1] for x in chosen] + [a], v
                if mi >= 0:
                    mine[mi] -= gain
                    parts[mi] = old
                continue
            chosen.append(it)
            idents.add(ident)
            if name is not None:
                names.add(name)
            search(k + 1, rest_sum + rest, left - price)
            chosen.pop()
            idents.discard(ident)
            if name is not None:
                names.discard(name)
            if mi >= 0:
                mine[mi] -= gain
                parts[mi] = old

    search(0, 0.0, obs.chakra)
    return best[0], best[1]


def _pass_value(ranked: list[tuple[float, tuple]]) -> float:
    return next(v for v, a in ranked if a[0] == "pass")


class PlanningPolicy(GreedyPolicy):
    """A heuristic player that plans its round: it values the best set of actions its chakra
    can pay for (``round_plan``) against passing, and makes that plan's best play first."""

    plan_depth = 3

    def main(self, obs: Observation) -> tuple:
        b, cache = H.board(obs, self.weights), {}
        ranked = H.ranked_main(obs, self.weights, b, cache)
        plan, value = round_plan(obs, self.weights, ranked, self.plan_depth, b=b, cache=cache)
        if not plan or value <= _pass_value(ranked):
            return ("pass",)
        return plan[0]


class TempoPolicy(PlanningPolicy):
    """Spends everything face-up, fast, and fights for the newest mission: chakra has no value
    kept, and it plans how to spend all of it this round."""

    name = "tempo"
    weights = H.Weights(chakra=0.0, hidden_bias=-2.0, newest_bias=0.5, pass_margin=-0.1, edge=0.4, effect_scale=1.3,
                        future_rounds=0.6)


class AmbushPolicy(PlanningPolicy):
    """Plays cheap cards hidden (early in the game above all, when a hidden character brings
    chakra for longer), reveals late: after the opponent passes (or, in the last round, when
    reveals are all its plan has left), bluffs, values the Edge."""

    name = "ambush"
    weights = H.Weights(hidden_bias=0.4, reveal_bias=0.6, edge=1.2, chakra=0.03, future_rounds=0.65, effect_scale=1.2,
                        card_in_hand=0.25, pass_margin=0.1, spread=2.0, rank_bias=0.08)
    hidden_by_round = (0.5, 0.4, 0.2, -0.3)  # hidden_bias in rounds 1-4: in the last round a hidden card only bluffs

    def __init__(self, mulligan: str | None = None, **params):
        super().__init__(mulligan, **params)
        self._round_weights = tuple(dataclasses.replace(self.weights, hidden_bias=h) for h in self.hidden_by_round)

    def main(self, obs: Observation) -> tuple:
        w = self._round_weights[min(max(obs.round, 1), 4) - 1]
        b, cache = H.board(obs, w), {}
        ranked = self._ranked(obs, w, b, cache)
        plan, value = round_plan(obs, w, ranked, self.plan_depth, b=b, cache=cache)
        if not plan or value <= _pass_value(ranked):
            return ("pass",)
        if obs.opponent_passed:
            return plan[0]
        for a in plan:
            if a[0] != "reveal":
                return a  # reveals wait until the opponent has passed
        if obs.round >= 4:
            return plan[0]  # the last round: reveals are all the plan has left
        return next(a for v, a in ranked if a[0] != "reveal")

    @staticmethod
    def _ranked(obs: Observation, w: H.Weights, b: H.Board, cache: dict) -> list[tuple[float, tuple]]:
        """``H.ranked_main``, with the card to hide chosen: one with an AMBUSH line, else the
        weakest (lowest Power + cost), kept for the plan at the best hidden play's value."""
        ranked = [list(t) for t in H.ranked_main(obs, w, b, cache)]
        hidden = [k for k, (v, a) in enumerate(ranked) if a[0] == "play" and a[3]]
        if hidden:
            def preference(k: int) -> tuple:
                card = obs.card(ranked[k][1][1])
                return 10 * H.has_ambush(card) - card.power - (card.cost or 0), ranked[k][1][2]

            pick = max(hidden, key=preference)
            top = max(ranked[k][0] for k in hidden)
            for k in hidden:
                ranked[k][0] = top if k == pick else min(ranked[k][0], top) - 0.01
        return sorted(((v, a) for v, a in ranked), key=lambda t: -t[0])


class ControlPolicy(PlanningPolicy):
    """Saves chakra for the late, valuable missions (B and A) and answers rather than leads;
    it plans what it spends."""

    name = "control"
    weights = H.Weights(rank_bias=0.25, hold_chakra=0.12, hidden_bias=0.2, chakra=0.04, edge=0.6, effect_scale=1.2,
                        future_rounds=0.7, card_in_hand=0.35, spread=1.9, pass_margin=0.07)


class _SearchControl(GreedyPolicy):
    """The one-step player (control's former weights) the lookahead ranks and plays out with."""

    name = "control"
    weights = H.Weights(rank_bias=0.2, hold_chakra=0.15, hidden_bias=0.2, chakra=0.02, edge=0.4, effect_scale=1.5,
                        future_rounds=0.6)


class LookaheadPolicy(GreedyPolicy):
    """Determinised search: for the greedy policy's best few main actions (``width``), sample the
    hidden cards, play the action, let greedy players finish the round, and keep the action with
    the best average outcome: the score margin, plus (times ``leaf``) what the board left in play
    is worth in the rounds to come, since characters stay on their missions. Budget: ``sims``
    playouts per decision (or ``time`` seconds); a decision whose best action leads the second
    by ``clear`` or more is not searched."""

    name = "lookahead"

    weights = _SearchControl.weights

    def __init__(self, mulligan: str | None = None, sims: int = 10, time: float = 0.0, width: int = 5,
                 clear: float = 3.0, leaf: float = 1.0, **params):
        super().__init__(mulligan, sims=int(sims), time=float(time), width=int(width), clear=float(clear),
                         leaf=float(leaf), **params)
        self.sims, self.time_budget, self.width, self.clear = int(sims), float(time), int(width), float(clear)
        self.leaf = float(leaf)
        self._inner = _SearchControl(mulligan="keep")

    def main(self, obs: Observation) -> tuple:
        ranked = H.ranked_main(obs, self.weights)
        cands = [a for _, a in ranked[: self.width]]
        if len(cands) == 1 or ranked[0][0] - ranked[1][0] >= self.clear:
            return cands[0]  # a clear best move needs no search
        totals = [0.0] * len(cands)
        counts = [0] * len(cands)
        deadline = time.perf_counter() + self.time_budget if self.time_budget > 0 else None
        n = 0
        while True:
            i = n % len(cands)
            totals[i] += self._playout(obs, cands[i], self.rng.getrandbits(64))
            counts[i] += 1
            n += 1
            if deadline is not None:
                if time.perf_counter() >= deadline and n >= len(cands):
                    break
            elif n >= self.sims:
                break
        best = max(range(len(cands)), key=lambda i: (totals[i] / max(1, counts[i]), -i))
        return cands[best]

    def _playout(self, obs: Observation, action: tuple, sample: int) -> float:
        from mythos_cli.engine.game import apply

        me = obs.player
        rng = random.Random(sample)
        g = obs.determinize(rng)
        apply(g, action)
        start_round = g.round
        self._inner.rng = random.Random(rng.getrandbits(32))
        guard = 0
        while not g.is_terminal and g.round == start_round and guard < 400:
            guard += 1
            apply(g, self._inner.decide(Observation(g, g.pending.player)))
        # outcome: points scored this round (both sides) and the board going forward
        if g.is_terminal:
            return 100.0 if g.winner == me else -100.0
        mine, theirs = g.players[me].score, g.players[1 - me].score
        value = float(mine - theirs)
        if self.leaf:
            # the characters stay: what the board is worth in the rounds to come, for me against them
            b = H.board(Observation(g, me), self.weights)
            value += self.leaf * sum(wt * (2.0 * H.win_prob(m - t, b.edge, b.open_, self.weights) - 1.0)
                                     for m, t, wt in zip(b.mine, b.theirs, b.weight) if m or t)
        return value


class Registry:
    POLICIES = {
        "random": RandomPolicy,
        "greedy": GreedyPolicy,
        "tempo": TempoPolicy,
        "ambush": AmbushPolicy,
        "control": ControlPolicy,
        "lookahead": LookaheadPolicy,
    }


class PolicySpecError(ValueError):
    pass


# The parameters a spec may set, each with its valid range (inclusive): anything else is refused
# before a game is played (width=0 divided by zero; time=1e9 never ended a decision).
PARAMS: dict[str, dict[str, tuple[type, float, float, str]]] = {
    "lookahead": {
        "sims": (int, 1, 10_000, "playouts per decision"),
        "time": (float, 0.0, 60.0, "seconds per decision; 0 uses sims"),
        "width": (int, 1, 50, "candidate actions searched"),
        "clear": (float, 0.0, 100.0, "lead that skips the search"),
        "leaf": (float, 0.0, 10.0, "weight of the board left in play"),
    },
}


def _param(policy: str, key: str, text: str) -> int | float:
    known = PARAMS.get(policy, {})
    if key not in known:
        if not known:
            raise PolicySpecError(f"policy {policy} takes no parameters (got {key}={text})")
        raise PolicySpecError(f"policy {policy} has no parameter {key!r}; its parameters: "
                              + "; ".join(f"{k}: {lo:g} to {hi:g}, {what}" for k, (_, lo, hi, what) in known.items()))
    kind, lo, hi, what = known[key]
    try:
        value = float(text)
    except ValueError:
        raise PolicySpecError(f"policy parameter {key}={text!r}: a number from {lo:g} to {hi:g} is expected") from None
    if not math.isfinite(value) or not lo <= value <= hi:
        raise PolicySpecError(f"policy parameter {key}={text}: out of range; {key} is from {lo:g} to {hi:g} ({what})")
    if kind is int:
        if value != int(value):
            raise PolicySpecError(f"policy parameter {key}={text}: a whole number from {lo:g} to {hi:g} is expected")
        return int(value)
    return value


def make_policy(spec: str, mulligan: str | None = None) -> BasePolicy:
    """Build a policy from a spec such as ``greedy`` or ``lookahead:sims=200,time=0.5``.

    Every parameter is checked against ``PARAMS`` (its name and its range)."""
    if not isinstance(spec, str) or not spec.strip():
        raise PolicySpecError(f"empty policy; choose from {', '.join(Registry.POLICIES)}")
    name, _, rest = spec.strip().partition(":")
    cls = Registry.POLICIES.get(name.lower())
    if cls is None:
        raise PolicySpecError(f"unknown policy {name!r}; choose from {', '.join(Registry.POLICIES)}")
    params: dict[str, int | float] = {}
    for part in rest.split(","):
        if not part.strip():
            if rest.strip():
                raise PolicySpecError(f"policy {spec!r}: an empty parameter (two commas, or one at the end)")
            continue
        key, eq, value = part.partition("=")
        key = key.strip()
        if not eq or not key:
            raise PolicySpecError(f"policy parameter {part!r} must be key=value (e.g. lookahead:sims=200)")
        if key in params:
            raise PolicySpecError(f"policy parameter {key} is given twice")
        params[key] = _param(cls.name, key, value.strip())
    if mulligan is not None and mulligan not in MULLIGANS:
        raise PolicySpecError(f"unknown mulligan policy {mulligan!r}; choose from {', '.join(MULLIGANS)}")
    try:
        return cls(mulligan=mulligan, **params)
    except TypeError as exc:
        raise PolicySpecError(f"{spec}: {exc}") from None
