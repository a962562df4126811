"""``mythos optimize``: which cards and missions to change, found by simulation, proven by statistics.

>>> from mythos_cli.optimize import OptimizeConfig, build_field, build_pool, optimize
>>> from mythos_cli.sim import load_specs
>>> field, shares = build_field("Sand Village=50,sound-four=50")          # doctest: +SKIP
>>> cfg = OptimizeConfig(load_specs(["my-deck.txt"])[0], field, shares, build_pool(["KS"]),
...                      budget=20_000, policy="greedy", seed=1)           # doctest: +SKIP
>>> with open_store("mythos.duckdb") as store:                              # doctest: +SKIP
...     outcome = optimize(store, cfg, "opt-1", workers=2)
>>> outcome.significant, outcome.changes, outcome.confirmation.gain        # doctest: +SKIP

The search screens the pool with random variants, races single swaps and pairs with
successive halving on common random numbers, and confirms its proposal on fresh seeds with
an interval corrected for every variant tried (``search``, ``stats``). Its games are
ordinary runs of the database (``ID-screen``, ``ID-s1r1`` …, ``ID-confirm``); ``report``
writes the answer as Markdown + HTML in the style of ``mythos report prep``.
"""

from mythos_cli.experiment.field import FieldError, build_field
from mythos_cli.optimize.pool import Pool, PoolError, build_pool
from mythos_cli.experiment.arms import Progress, compare
from mythos_cli.optimize.search import (OptimizeConfig, check, OptimizeError, OptimizeInterrupted, Outcome,
                                        optimize, resume_config)
from mythos_cli.optimize.variants import Swap

__all__ = ["FieldError", "OptimizeConfig", "OptimizeError", "OptimizeInterrupted", "Outcome", "Pool", "PoolError",
           "Progress", "Swap", "build_field", "build_pool", "check", "compare", "optimize", "resume_config"]
