"""Canonical name keys: one key per character, whatever the spelling.

The same-name rules (one character per name per mission side, upgrades, DUEL) compare
name keys, never display names, so "Nine-Tails" and "Nine-Tailed Fox", or "Gama Bunta"
and "Gamabunta", are one character.
"""

from __future__ import annotations

import re
import unicodedata

# Alternative spellings met on cards, deck builders and in the community, mapped to the
# key of the catalog's spelling.
ALIASES = {
    "nine-tails": "nine-tailed-fox",
    "nine-tail": "nine-tailed-fox",
    "kyubi": "nine-tailed-fox",
    "kyuubi": "nine-tailed-fox",
    "kurama": "nine-tailed-fox",
    "gama-bunta": "gamabunta",
    "gama-hiro": "gamahiro",
    "gama-kichi": "gamakichi",
    "gama-tatsu": "gamatatsu",
    "one-tailed-beast": "one-tail",
    "shukaku": "one-tail",
    "ichibi": "one-tail",
    "guy": "might-guy",
    "maito-gai": "might-guy",
    "might-gai": "might-guy",
}


def fold(text: str) -> str:
    """Lower case, accents removed (Kyûbi → kyubi), apostrophes dropped."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c))
    return text.lower().replace("'", "").replace("’", "")


def name_key(name: str) -> str:
    """The canonical key of a character name: ``"Nine-Tails"`` → ``"nine-tailed-fox"``."""
    slug = re.sub(r"[^a-z0-9]+", "-", fold(name)).strip("-")
    return ALIASES.get(slug, slug)
