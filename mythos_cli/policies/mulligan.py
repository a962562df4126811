"""Mulligan policies: keep every hand, or judge it by its curve and Power."""

from __future__ import annotations

from mythos_cli.policies.base import Observation


class Mulligan:
    name = "base"

    def take(self, obs: Observation) -> bool:  # True: return the hand and draw 5 new cards
        raise NotImplementedError


class Keep(Mulligan):
    """Never mulligan."""

    name = "keep"

    def take(self, obs: Observation) -> bool:
        return False


class Always(Mulligan):
    """Always mulligan (a baseline for the mulligan report)."""

    name = "always"

    def take(self, obs: Observation) -> bool:
        return True


class Heuristic(Mulligan):
    """Keep a hand with at least two plays for round 1 (cost ≤ 3 with 5 chakra) and enough
    Power to contest a mission; mulligan a hand of expensive cards or nothing to do early."""

    name = "heuristic"

    def take(self, obs: Observation) -> bool:
        cards = [obs.card(c) for c in obs.hand()]
        chars = [c for c in cards if c.type == "character"]
        cheap = sum(1 for c in chars if c.cost <= 3)
        power_per_cost = sum(c.power for c in chars if c.cost <= 4)
        heavy = sum(1 for c in chars if c.cost >= 6)
        return cheap < 2 or power_per_cost < 6 or heavy >= 3


MULLIGANS = {"keep": Keep, "never": Keep, "heuristic": Heuristic, "always": Always}
