"""DuckDB storage of simulation runs: schema, migrations, one writer, read helpers."""

from mythos_cli.store.db import SCHEMA_VERSION, Store, StoreError, open_store

__all__ = ["SCHEMA_VERSION", "Store", "StoreError", "open_store"]
