"""Deck lists: three list formats (text, deck code, JSON), three construction formats
(mythos, naruto-ccg-2006, gencon-2027), and validation with exact, fixable problems.

>>> from mythos_cli.decks import check_input
>>> verdict = check_input("data/decks/leaf-team7.txt")
>>> verdict.valid, verdict.counts
(True, {'deck': 30, 'missions': 3})
"""

from mythos_cli.decks.check import (
    Conversion,
    Verdict,
    check_input,
    check_path,
    check_source,
    check_stream,
    convert,
    exit_code,
    load_deck,
)
from mythos_cli.decks.construction import CONSTRUCTIONS, Construction, Report, construction_named
from mythos_cli.decks.listformats import LIST_FORMATS, Parsed, detect, parse, write
from mythos_cli.decks.model import ERROR, WARNING, Deck, DeckEntry, DeckError, Problem
from mythos_cli.decks.resolve import resolve
from mythos_cli.decks.samples import sample_paths, samples_dir
from mythos_cli.decks.source import MAX_BYTES, Source, Unreadable, decode, read_file, read_stream
from mythos_cli.decks.stats import DeckStats, deck_stats

__all__ = [
    "CONSTRUCTIONS",
    "Construction",
    "Conversion",
    "Deck",
    "DeckEntry",
    "DeckError",
    "DeckStats",
    "ERROR",
    "LIST_FORMATS",
    "MAX_BYTES",
    "Parsed",
    "Problem",
    "Report",
    "Source",
    "Unreadable",
    "Verdict",
    "WARNING",
    "check_input",
    "check_path",
    "check_source",
    "check_stream",
    "construction_named",
    "convert",
    "decode",
    "deck_stats",
    "detect",
    "exit_code",
    "load_deck",
    "parse",
    "read_file",
    "read_stream",
    "resolve",
    "sample_paths",
    "samples_dir",
    "write",
]
