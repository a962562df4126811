"""The card catalog: card facts, lookups, and (with the effect language) what cards do."""

from mythos_cli.catalog.catalog import Catalog, CardId, Lookup, parse_card_id
from mythos_cli.catalog.loader import CatalogError, data_dir, default_catalog, load_cards
from mythos_cli.catalog.model import Card, EffectLine
from mythos_cli.catalog.names import name_key

__all__ = [
    "Card",
    "CardId",
    "Catalog",
    "CatalogError",
    "EffectLine",
    "Lookup",
    "data_dir",
    "default_catalog",
    "load_cards",
    "name_key",
    "parse_card_id",
]
