"""Players for the engine: every decision answered from the player's own view.

>>> from mythos_cli.policies import make_policy, play_match
>>> result = play_match(deck_a, deck_b, make_policy("greedy"), make_policy("lookahead:sims=50"), seed=1)
"""

from mythos_cli.policies.base import Observation, Policy
from mythos_cli.policies.match import MatchResult, play_match
from mythos_cli.policies.players import PolicySpecError, Registry, make_policy

POLICY_NAMES = tuple(Registry.POLICIES)

__all__ = ["MatchResult", "Observation", "POLICY_NAMES", "Policy", "PolicySpecError", "make_policy", "play_match"]
