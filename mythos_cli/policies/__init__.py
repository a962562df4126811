"""Players: every decision of a game answered from the player's own view.

The built-in players (random, greedy, the archetypes tempo, ambush and control, lookahead) live
in the rules core and decide there; ``make_policy`` hands one over by its spec. A player written
in Python follows the same protocol (``Policy``: ``reset(seed)`` and ``decide(obs)``, see
``mythos_cli.policies.observation``) and drives the core one decision at a time: the slow path.

>>> from mythos_cli.policies import make_policy, play_match
>>> result = play_match(deck_a, deck_b, make_policy("greedy"), make_policy("lookahead:sims=50"), seed=1)
>>> result.winner, result.scores
"""

from mythos_cli.policies.match import MatchResult, PlayerError, new_game, play_match
from mythos_cli.policies.observation import Observation, Policy, UnitView
from mythos_cli.policies.players import MULLIGANS, POLICY_NAMES, REFERENCE_POLICY, CorePlayer, PolicySpecError, make_policy

__all__ = ["MULLIGANS", "POLICY_NAMES", "REFERENCE_POLICY", "CorePlayer", "MatchResult", "Observation", "PlayerError", "Policy", "PolicySpecError",
           "UnitView", "make_policy", "new_game", "play_match"]
