"""The bundled sample decks: legal lists of known archetypes, the default gauntlet."""

from __future__ import annotations

from pathlib import Path


def samples_dir() -> Path | None:
    """``data/decks`` inside the installed package, or in the repo checkout."""
    here = Path(__file__).resolve().parent
    for candidate in (here.parent / "data" / "decks", here.parents[1] / "data" / "decks"):
        if candidate.is_dir():
            return candidate
    return None


def sample_paths() -> list[Path]:
    """Every sample deck list (``*.txt``), sorted by file name."""
    directory = samples_dir()
    return sorted(directory.glob("*.txt")) if directory else []
