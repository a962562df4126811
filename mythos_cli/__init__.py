"""mythos: deck validation, game simulation and tournament-prep reports for the Naruto Mythos TCG."""

__version__ = "0.3.0"
