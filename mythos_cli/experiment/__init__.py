"""Experiments: counterfactual questions answered by paired games, never by filtering played ones.

``arms`` plays studied decks against a field on common random numbers (stored as ordinary
runs, resumable, on all cores or Dask); ``stats`` turns paired results into gains with
intervals corrected for everything tried; ``field`` reads the field an experiment plays
against. ``mythos optimize`` (``mythos_cli.optimize``) is built on them.
"""

from mythos_cli.experiment.arms import ExperimentError, Progress, compare, pair, play_arms
from mythos_cli.experiment.field import FieldError, build_field
from mythos_cli.experiment.stats import Gain, Pairs, gain, z_value

__all__ = ["ExperimentError", "FieldError", "Gain", "Pairs", "Progress", "build_field", "compare", "gain", "pair",
           "play_arms", "z_value"]
