"""``mythos optimize``: which cards and missions to change, found by simulation, proven by statistics.

>>> from mythos_cli.optimize import OptimizeConfig, build_field, build_pool, optimize
>>> from mythos_cli.sim import load_specs
>>> field, shares = build_field("Sand Village=50,sound-four=50")          # doctest: +SKIP
>>> cfg = OptimizeConfig(load_specs(["my-deck.txt"])[0], field, shares, build_pool(["KS"]),
...                      budget=20_000, policy="greedy", seed=1)           # doctest: +SKIP
>>> with open_store("mythos.duckdb") as store:                              # doctest: +SKIP
...     outcome = optimize(store, cfg, "opt-1", workers=2)
>>> outcome.significant, outcome.changes, outcome.confirmation.gain        # doctest: +SKIP

The player given screens the whole pool with random variants (a regression on the cards each
game's deck held: every game informs the value of every card it drew) and judges a short list of swaps and pairs
(with ``screen_policy``, a cheap player does both and the player given judges a sample too:
their rank correlation sets how many race); the short list's best, and its best merged, race
with successive halving on common random numbers, and the player given
confirms its proposal on fresh seeds with an interval corrected for every variant it judged
(``plan``, ``candidates``, ``search``; the statistics in ``mythos_cli.experiment``). Its games
are ordinary runs of the database (``ID-base``, ``ID-screen``, ``ID-short``, ``ID-sample``,
``ID-s1r1`` …, ``ID-confirm``); ``report`` writes the answer as Markdown + HTML in the style
of ``mythos report prep``.
"""

from mythos_cli.experiment.field import FieldError, build_field
from mythos_cli.optimize.pool import Pool, PoolError, build_pool
from mythos_cli.experiment.arms import Progress, compare
from mythos_cli.optimize.plan import MAX_BUDGET, Plan
from mythos_cli.optimize.search import (MAX_MINUTES, OptimizeConfig, OptimizeError, OptimizeInterrupted, Outcome,
                                        SearchProgress, check, least_budget, optimize, resume_config)
from mythos_cli.optimize.variants import Swap

__all__ = ["MAX_BUDGET", "MAX_MINUTES", "FieldError", "OptimizeConfig", "OptimizeError", "OptimizeInterrupted", "Outcome",
           "Plan", "Pool", "PoolError", "Progress", "SearchProgress", "Swap", "build_field", "build_pool", "check",
           "compare", "least_budget", "optimize", "resume_config"]
