"""``mythos meta``: which list to bring against a field, solved with its uncertainty.

A layer above the matrix experiment (``mythos_cli.experiment.matrix``): posterior draws of the
matchups (``posterior``) feed the game-theoretic answers (``game``: the field, best response,
tiers, the Nash mix by linear programming; ``match``: best of 1, 3, 5; ``swiss``: tournament
odds; ``drift``: replicator dynamics), so each answer has an interval. ``adaptive`` is the
``--precision`` rule that decides which pairs to play more.
"""

from mythos_cli.meta.adaptive import PrecisionTarget
from mythos_cli.meta.analysis import Settings, analyse

__all__ = ["PrecisionTarget", "Settings", "analyse"]
