"""Experiments: counterfactual questions answered by paired games, never by filtering played ones.

``arms`` plays studied decks against a field on common random numbers (stored as ordinary
runs, resumable, on all cores or Dask); ``stats`` turns paired results into gains with
intervals corrected for everything tried; ``field`` reads the field an experiment plays
against (a field file, or ``deck=share,…``); ``matrix`` plays every pair of a field's lists,
reusing the pairs stored by any run. ``mythos optimize`` (``mythos_cli.optimize``) and
``mythos meta`` (``mythos_cli.meta``) are built on them.
"""

from mythos_cli.experiment.arms import ExperimentError, Progress, compare, pair, play_arms
from mythos_cli.experiment.field import Field, FieldError, build_field, load_field
from mythos_cli.experiment.stats import Gain, Pairs, gain, z_value

__all__ = ["ExperimentError", "Field", "FieldError", "Gain", "Pairs", "Progress", "build_field", "compare", "gain",
           "load_field", "pair", "play_arms", "z_value"]
