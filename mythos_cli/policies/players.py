"""The policies: random, greedy, the archetypes (tempo, ambush, control) and lookahead."""

from __future__ import annotations

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


class TempoPolicy(GreedyPolicy):
    """Spends everything face-up, fast, and fights for the newest mission."""

    name = "tempo"
    weights = H.Weights(chakra=0.0, hidden_bias=-2.0, newest_bias=0.5, pass_margin=-0.1, edge=0.4, effect_scale=1.3,
                        future_rounds=0.6)


class AmbushPolicy(GreedyPolicy):
    """Plays cheap cards hidden, reveals late (after the opponent passes), bluffs, holds the Edge."""

    name = "ambush"
    weights = H.Weights(hidden_bias=0.4, reveal_bias=0.8, edge=0.6, chakra=0.02)

    def main(self, obs: Observation) -> tuple:
        ranked = H.ranked_main(obs, self.weights)
        if not obs.opponent_passed:
            # before the opponent commits, prefer hidden plays and passing for the Edge over reveals
            for v, a in ranked:
                if a[0] == "reveal":
                    continue
                return a
        return ranked[0][1]


class ControlPolicy(GreedyPolicy):
    """Saves chakra for the late, valuable missions (B and A) and answers rather than leads."""

    name = "control"
    weights = H.Weights(rank_bias=0.2, hold_chakra=0.15, hidden_bias=0.2, chakra=0.02, edge=0.4, effect_scale=1.5,
                        future_rounds=0.6)


class LookaheadPolicy(GreedyPolicy):
    """Determinised search: for the greedy policy's best few main actions, sample the hidden
    cards, play the action, let greedy players finish the round, and keep the action with the
    best average outcome. Budget: ``sims`` playouts per decision (or ``time`` seconds)."""

    name = "lookahead"

    weights = ControlPolicy.weights

    def __init__(self, mulligan: str | None = None, sims: int = 12, time: float = 0.0, width: int = 3,
                 clear: float = 1.5, **params):
        super().__init__(mulligan, sims=int(sims), time=float(time), width=int(width), clear=float(clear), **params)
        self.sims, self.time_budget, self.width, self.clear = int(sims), float(time), int(width), float(clear)
        self._inner = ControlPolicy(mulligan="keep")

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
            totals[i] += self._playout(obs, cands[i])
            counts[i] += 1
            n += 1
            if deadline is not None:
                if time.perf_counter() >= deadline and n >= len(cands):
                    break
            elif n >= self.sims:
                break
        best = max(range(len(cands)), key=lambda i: (totals[i] / max(1, counts[i]), -i))
        return cands[best]

    def _playout(self, obs: Observation, action: tuple) -> float:
        from mythos_cli.engine.game import apply

        me = obs.player
        g = obs.determinize(self.rng)
        apply(g, action)
        start_round = g.round
        self._inner.rng = random.Random(self.rng.getrandbits(32))
        guard = 0
        while not g.is_terminal and g.round == start_round and guard < 400:
            guard += 1
            apply(g, self._inner.decide(Observation(g, g.pending.player)))
        # outcome: points scored this round (both sides) and the board going forward
        if g.is_terminal:
            return 100.0 if g.winner == me else -100.0
        mine, theirs = g.players[me].score, g.players[1 - me].score
        return float(mine - theirs)


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


def make_policy(spec: str, mulligan: str | None = None) -> BasePolicy:
    """Build a policy from a spec such as ``greedy`` or ``lookahead:sims=200,time=0.5``."""
    name, _, rest = spec.strip().partition(":")
    cls = Registry.POLICIES.get(name.lower())
    if cls is None:
        raise PolicySpecError(f"unknown policy {name!r}; choose from {', '.join(Registry.POLICIES)}")
    params = {}
    for part in filter(None, rest.split(",")):
        key, eq, value = part.partition("=")
        if not eq:
            raise PolicySpecError(f"policy parameter {part!r} must be key=value (e.g. lookahead:sims=200)")
        try:
            params[key.strip()] = float(value) if "." in value else int(value)
        except ValueError:
            raise PolicySpecError(f"policy parameter {key}={value!r}: a number is expected") from None
    if mulligan is not None and mulligan not in MULLIGANS:
        raise PolicySpecError(f"unknown mulligan policy {mulligan!r}; choose from {', '.join(MULLIGANS)}")
    if params and cls is not LookaheadPolicy:
        raise PolicySpecError(f"policy {name} takes no parameters")
    try:
        return cls(mulligan=mulligan, **params)
    except TypeError as exc:
        raise PolicySpecError(f"{spec}: {exc}") from None
