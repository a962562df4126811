"""The rules engine of Naruto Mythos (seed 000 and the FAQ rulings)."""

from __future__ import annotations

from mythos_cli.catalog.model import EffectLine


def executable(line: EffectLine) -> bool:
    """Whether the engine can play this effect line. No effect is executable yet."""
    return False
