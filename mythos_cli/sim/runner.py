"""Run a planned simulation on a local process pool or a Dask cluster; one writer stores it.

Workers play batches and hand back Polars frames; the calling process is the only writer.
It stores finished batches in transactions: every batch that is ready when the writer looks
goes into the same transaction, up to ``MAX_GROUP_GAMES`` games (a transaction's fixed cost,
some 10 ms, is then paid once for all of them, so a writer that falls behind catches up),
and a batch counts as stored once its transaction commits. An interrupted run (Ctrl-C, a
killed process, a full disk) keeps every committed batch and ``resume`` completes it with
exactly the games it would have played.
"""

from __future__ import annotations

import hashlib
import os
import signal
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass
from datetime import datetime
from typing import Callable

import polars as pl

from mythos_cli import __version__
from mythos_cli.catalog.loader import data_dir
from mythos_cli.sim.plan import RunConfig
from mythos_cli.sim.worker import run_batch
from mythos_cli.store.db import Store, StoreError, card_list
from mythos_cli.store.layout import LayoutError

# at most this many games in one transaction (a writer that fell behind catches up in steps)
MAX_GROUP_GAMES = 10_000


class Interrupted(Exception):
    def __init__(self, run_id: str, stored: int, planned: int):
        super().__init__(run_id)
        self.run_id, self.stored, self.planned = run_id, stored, planned


@dataclass
class MatchupSummary:
    matchup: str
    games: int
    wins: int
    low: float
    high: float
    ties_by_edge: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else float("nan")


def catalog_hash() -> str:
    h = hashlib.sha256()
    for f in sorted(data_dir().glob("*.toml")):
        h.update(f.read_bytes())
    return h.hexdigest()[:16]


def new_run_id(name: str | None) -> str:
    if name:
        return name
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    return f"run-{stamp}-{os.getpid() % 1000:03d}"


def start_run(store: Store, config: RunConfig, run_id: str, name: str) -> None:
    batches = config.batches()
    store.create_run(run_id, name, config.to_json(), seed=config.seed, policy_a=config.policy_a,
                     policy_b=config.policy_b, mulligan=config.mulligan or "", engine_version=__version__,
                     catalog_hash=catalog_hash(), planned_games=sum(len(b) for b in batches),
                     planned_batches=len(batches))


def load_config(store: Store, run_id: str) -> RunConfig:
    import json

    run = store.run(run_id)
    if run is None:
        raise StoreError(f"{store.path}: no run {run_id!r}; `mythos db runs` lists them")
    cfg = run["config"]
    return RunConfig.from_json(json.loads(cfg) if isinstance(cfg, str) else cfg)


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle


def execute(store: Store, run_id: str, config: RunConfig, *, workers: int = 1, backend: str = "local",
            scheduler: str | None = None, progress: Callable[[int], None] | None = None) -> None:
    """Play every batch of the run not stored yet, storing finished batches as they come."""
    run = store.run(run_id)
    if run is not None and run["catalog_hash"] != catalog_hash():
        raise StoreError(f"run {run_id} was played with another card catalog (hash {run['catalog_hash']}); "
                         "resuming it now would mix rules: start a new run instead")
    cards = store.run_cards(run_id)
    missing = sorted(set(card_list(config.to_json())) - set(cards))
    if missing:
        raise StoreError(f"run {run_id}: its stored card list lacks {', '.join(missing[:5])}; "
                         "the database was changed by hand: start a new run instead")
    batches = config.batches()
    done = store.done_batches(run_id)
    todo = [(i, b) for i, b in enumerate(batches) if i not in done]
    planned = sum(len(b) for b in batches)
    stored = planned - sum(len(b) for _, b in todo)
    store.set_status(run_id, "running")
    try:
        if backend == "dask":
            stored = _run_dask(store, run_id, config, cards, todo, scheduler, progress, stored)
        elif workers <= 1:
            for i, b in todo:
                store.write_batch(run_id, i, run_batch(run_id, config, i, b, cards))
                stored += len(b)
                if progress:
                    progress(len(b))
        else:
            stored = _run_pool(store, run_id, config, cards, todo, workers, progress, stored)
    except KeyboardInterrupt:
        store.set_status(run_id, "interrupted")
        raise Interrupted(run_id, stored, planned) from None
    except LayoutError as exc:  # an engine change the database layout does not know: say so, keep what is stored
        store.set_status(run_id, "interrupted")
        raise StoreError(f"run {run_id}: a game does not fit the database layout ({exc}); the stored batches are "
                         "kept. This is a mythos bug: please report it") from None
    except BaseException:
        store.set_status(run_id, "interrupted")
        raise
    store.set_status(run_id, "finished")


def store_ready(store: Store, run_id: str, ready: list[tuple[int, list, object]],
                progress: Callable[[int], None] | None) -> int:
    """Store finished batches ``(batch_no, jobs, future)`` in as few transactions as the cap allows.

    A batch whose worker failed is not stored; the others are, then the failure is raised."""
    group: list = []
    games = stored = 0
    failure: BaseException | None = None

    def flush() -> None:
        nonlocal group, games, stored
        if group:
            store.write_batches(run_id, [(i, frames) for i, _, frames in group])
            for _, b, _ in group:
                stored += len(b)
                if progress:
                    progress(len(b))
        group, games = [], 0

    for i, b, fut in ready:
        try:
            frames = fut.result()
        except BaseException as exc:  # noqa: BLE001 - re-raised once the others are stored
            failure = failure or exc
            continue
        if group and games + len(b) > MAX_GROUP_GAMES:
            flush()
        group.append((i, b, frames))
        games += len(b)
    flush()
    if failure is not None:
        raise failure
    return stored


def _run_pool(store, run_id, config, cards, todo, workers, progress, stored) -> int:
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_ignore_sigint)
    pending = {}
    queue = list(todo)
    try:
        while queue or pending:
            while queue and len(pending) < workers * 2:  # keep the pool busy, not flooded
                i, b = queue.pop(0)
                pending[pool.submit(run_batch, run_id, config, i, b, cards)] = (i, b)
            wait(pending, return_when=FIRST_COMPLETED)
            ready = [(*pending.pop(fut), fut) for fut in [f for f in pending if f.done()]]
            stored += store_ready(store, run_id, ready, progress)
    finally:
        for fut in pending:
            fut.cancel()
        pool.shutdown(wait=False, cancel_futures=True)
    return stored


def _run_dask(store, run_id, config, cards, todo, scheduler, progress, stored) -> int:
    try:
        from distributed import Client, as_completed
    except ImportError:  # pragma: no cover - dask is a declared dependency
        raise StoreError("the dask backend needs `pip install dask[distributed]`") from None
    if not scheduler:
        raise StoreError("--backend dask needs --scheduler tcp://HOST:PORT (a running Dask scheduler)")
    try:
        client = Client(scheduler, timeout="10s")
    except (OSError, TimeoutError) as exc:
        raise StoreError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
    try:
        futures = {}
        for i, b in todo:
            fut = client.submit(run_batch, run_id, config, i, b, cards, pure=False)
            futures[fut] = (i, b)
        for finished in as_completed(list(futures)).batches():  # every future done by now, at once
            stored += store_ready(store, run_id, [(*futures.pop(f), f) for f in finished], progress)
    finally:
        client.close()
    return stored


def summarize(store: Store, run_id: str) -> list[MatchupSummary]:
    """Win rate of the studied deck per matchup with a Wilson 95% interval."""
    from statsmodels.stats.proportion import proportion_confint

    agg = store.matchup_results(run_id)  # aggregated in DuckDB: a million games cost no memory here
    out = []
    for row in agg.iter_rows(named=True):
        low, high = proportion_confint(row["wins"], row["games"], alpha=0.05, method="wilson")
        out.append(MatchupSummary(row["matchup"], row["games"], row["wins"], float(low), float(high), row["ties"]))
    return out


def timed(fn, *args, **kwargs):
    t = time.perf_counter()
    out = fn(*args, **kwargs)
    return out, time.perf_counter() - t
