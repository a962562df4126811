"""Run a planned simulation on a local process pool or a Dask cluster; one writer stores it.

Workers play batches and hand back Polars frames; the calling process is the only writer, and
it lets go of the file between writes every couple of seconds (``Store.release``), so that
``mythos db runs`` and the reports can read what is stored so far from another terminal.
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
from concurrent.futures import FIRST_COMPLETED, wait
from dataclasses import dataclass, field
from datetime import datetime
from typing import Callable


from mythos_cli import __version__, _core, stops
from mythos_cli.catalog.loader import data_dir
from mythos_cli.policies.match import PlayerError
from mythos_cli.sim.plan import RunConfig
from mythos_cli.sim.worker import run_batch
from mythos_cli.store.db import Store, StoreError, card_list, stored_json
from mythos_cli.store.layout import LayoutError

# at most this many games in one transaction (a writer that fell behind catches up in steps)
MAX_GROUP_GAMES = 10_000


class RunFailed(StoreError):
    """A run stopped by a failure that is not the database's: a player written in Python that
    raised or answered illegally, or the rules core itself (a bug). The stored batches are kept."""

    def __init__(self, message: str, hint: str):
        super().__init__(message)
        self.hint = hint


class Interrupted(Exception):
    """The run stopped early (Ctrl-C or SIGTERM): ``stored`` of ``planned`` games are in the database."""

    def __init__(self, run_id: str, stored: int, planned: int, signal: int | None = None):
        super().__init__(run_id)
        self.run_id, self.stored, self.planned, self.signal = run_id, stored, planned, signal


# Ctrl-C and SIGTERM: one stop for the command (``mythos_cli.stops``), which also reaches the core
_Stop = stops.Stop
_NO_STOP = stops.NO_STOP  # a writer outside execute (store_ready called directly) defers nothing


@dataclass
class MatchupSummary:
    matchup: str
    games: int
    wins: int
    low: float
    high: float
    ties_by_edge: int
    players: dict = field(default_factory=dict)  # deck -> the player spec that played it

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else float("nan")


def catalog_hash() -> str:
    h = hashlib.sha256()
    for f in sorted(data_dir().glob("*.toml")):
        h.update(f.read_bytes())
    return h.hexdigest()[:16]


MAX_RUN_NAME = 100


def run_name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a run id (None when it can): it is shown, used in paths and SQL."""
    if not name.strip():
        return "a run name cannot be empty"
    if len(name) > MAX_RUN_NAME:
        return f"{len(name)} characters, at most {MAX_RUN_NAME}"
    bad = next((c for c in name if not c.isprintable()), None)
    if bad is not None:
        return f"it holds the control character U+{ord(bad):04X}; use letters, digits, spaces and punctuation"
    if name != name.strip():
        return "it starts or ends with a space"
    return None


def new_run_id(name: str | None) -> str:
    if name:
        problem = run_name_problem(name)
        if problem:
            raise ValueError(f"run name {name!r}: {problem}")
        return name
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    return f"run-{stamp}-{os.getpid() % 1000:03d}"


def start_run(store: Store, config: RunConfig, run_id: str, name: str) -> None:
    # counted, not derived: a run's size costs nothing until its batches are played
    store.create_run(run_id, name, config.to_json(), seed=config.seed, policy_a=config.policy_a,
                     policy_b=config.policy_b, mulligan=config.mulligan or "", engine_version=__version__,
                     catalog_hash=catalog_hash(), planned_games=config.planned_games(),
                     planned_batches=config.batch_count())


def load_config(store: Store, run_id: str) -> RunConfig:
    run = store.run(run_id)
    if run is None:
        raise StoreError(f"{store.path}: no run {run_id!r}; `mythos db runs` lists them")
    cfg = run["config"]
    try:
        return RunConfig.from_json(stored_json(cfg))
    except (ValueError, TypeError) as exc:  # json's errors and PlanError are ValueErrors
        raise StoreError(f"{store.path}: the stored configuration of run {run_id} is damaged ({exc}), so it cannot "
                         "be resumed; start a new run (its stored games can still be reported)") from None


def execute(store: Store, run_id: str, config: RunConfig, *, workers: int = 1, backend: str = "local",
            scheduler: str | None = None, progress: Callable[[int], None] | None = None, client=None) -> None:
    """Play every batch of the run not stored yet, storing finished batches as they come.

    ``client``: a connected ``distributed.Client`` for the dask backend (``dask_client``), else
    one is made from ``scheduler``."""
    run = store.run(run_id)
    if run is not None and run["catalog_hash"] != catalog_hash():
        raise StoreError(f"run {run_id} was played with another card catalog (hash {run['catalog_hash']}); "
                         "resuming it now would mix rules: start a new run instead")
    if run is not None and run["engine_version"] != __version__:
        # a built-in player of another version may play the same spec differently (0.3.0's default
        # search values its playouts by a fitted leaf): the run's games would be two players' games
        raise StoreError(f"run {run_id} was played by mythos {run['engine_version']}, and this is {__version__}, "
                         "whose players may play the same settings differently: resuming it now would mix two "
                         "players' games; start a new run instead (the stored games can still be reported)")
    cards = store.run_cards(run_id)
    missing = sorted(set(card_list(config.to_json())) - set(cards))
    if missing:
        raise StoreError(f"run {run_id}: its stored card list lacks {', '.join(missing[:5])}; "
                         "the database was changed by hand: start a new run instead")
    done = store.done_batches(run_id)
    planned = config.planned_games()
    todo = (i for i in range(config.batch_count()) if i not in done)  # each batch's games derived when sent
    with stops.stopping() as stop:
        store.set_status(run_id, "running")
        try:
            if backend == "dask":
                _run_dask(store, run_id, config, cards, todo, scheduler, progress, client, stop)
            elif workers <= 1:
                for i in todo:
                    b = config.batch(i)
                    if _core.cancelled():  # (a stop that came while the last batch was written)
                        raise KeyboardInterrupt
                    frames = run_batch(run_id, config, i, b, cards)
                    _reopen(store)
                    with stop.write():
                        store.write_batch(run_id, i, frames)
                        store.release()  # now and then, so that reports can read the run meanwhile
                    if progress:
                        progress(len(b))
            else:
                _run_pool(store, run_id, config, cards, todo, workers, progress, stop)
        except (KeyboardInterrupt, _core.Cancelled):  # (the core's batch stopped by the same signal)
            store.set_status(run_id, "interrupted")
            raise Interrupted(run_id, store.stored_games(run_id), planned,
                              None if stop.signal == signal.SIGINT else stop.signal) from None
        except (LayoutError, _core.LayoutMismatch) as exc:  # an engine change the layout does not know
            store.set_status(run_id, "interrupted")
            raise StoreError(f"run {run_id}: a game does not fit the database layout ({exc}); the stored batches "
                             "are kept. This is a mythos bug: please report it") from None
        except PlayerError as exc:  # a player written in Python: its author can fix it and resume
            store.set_status(run_id, "interrupted")
            raise RunFailed(f"run {run_id} stopped: {exc}",
                            f"{store.stored_games(run_id)} of {planned} games are stored; fix the player, then "
                            f"finish the run with: mythos simulate --resume {run_id} --db {store.path}") from None
        except _core.EngineError as exc:
            store.set_status(run_id, "interrupted")
            raise RunFailed(f"run {run_id} stopped: the rules core failed: {exc}",
                            f"{store.stored_games(run_id)} of {planned} games are stored. This is a mythos bug: "
                            "please report it with the message (it names the game's seed)") from None
        except BaseException:
            store.set_status(run_id, "interrupted")
            raise
        store.set_status(run_id, "finished")


def _reopen(store: Store) -> None:
    """Take the file back (after ``Store.release``) before a guarded write: the wait for a reader
    to finish is then no write, and a Ctrl-C during it stops at once."""
    store.con  # noqa: B018 - the property reopens


def store_ready(store: Store, run_id: str, ready: list[tuple[int, list, object]],
                progress: Callable[[int], None] | None, stop: _Stop = _NO_STOP) -> int:
    """Store finished batches ``(batch_no, jobs, future)`` in as few transactions as the cap allows.

    A batch whose worker failed is not stored; the others are, then the failure is raised."""
    group: list = []
    games = stored = 0
    failure: BaseException | None = None

    def flush() -> None:
        nonlocal group, games, stored
        if group:
            _reopen(store)
            with stop.write():
                store.write_batches(run_id, [(i, frames) for i, _, frames in group])
                store.release()  # now and then, so that reports can read the run meanwhile
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


def _run_pool(store, run_id, config, cards, todo, workers, progress, stop: _Stop = _NO_STOP) -> None:
    pool = stops.pool(workers, stop)
    pending = {}
    failed = True
    try:
        while True:
            while len(pending) < workers * 2:  # keep the pool busy, not flooded
                i = next(todo, None)
                if i is None:
                    break
                b = config.batch(i)
                pending[pool.submit(run_batch, run_id, config, i, b, cards)] = (i, b)
            if not pending:
                break
            wait(pending, return_when=FIRST_COMPLETED)
            ready = [(*pending.pop(fut), fut) for fut in [f for f in pending if f.done()]]
            store_ready(store, run_id, ready, progress, stop)
        failed = False
    finally:
        # on a stop or a failure the workers are told, and one that lingers is killed: none is left
        stops.close(pool, list(pending), stopping=failed)


class BackendError(Exception):
    """The chosen backend cannot run the games (no Dask, an unreachable or malformed scheduler)."""


class BackendMissing(StoreError):
    """The cluster backend was asked for, but its packages are not installed."""


DASK_HINT = 'install the cluster extra: pip install "mythos[cluster]" (it brings dask[distributed])'


def require_dask() -> None:
    """Raise ``BackendMissing`` when Dask's distributed scheduler cannot be imported."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise BackendMissing("--backend dask needs Dask, which this mythos was installed without") from None


def dask_client(scheduler: str | None, timeout: float = 10.0):
    """A client of a running Dask scheduler, or ``BackendError`` saying why not (nothing is stored yet)."""
    try:
        require_dask()
    except BackendMissing as exc:
        raise BackendError(f"{exc}: {DASK_HINT}") from None
    from distributed import Client

    if not scheduler or not scheduler.strip():
        raise BackendError("--backend dask needs --scheduler tcp://HOST:PORT (a running Dask scheduler)")
    scheduler = scheduler.strip()
    proto, sep, rest = scheduler.partition("://")
    host, _, port = (rest if sep else scheduler).rpartition(":")
    if sep and proto not in ("tcp", "tls", "ws", "wss", "inproc", "ucx") or not host \
            or not port.isdigit() or not 0 < int(port) < 65536:
        raise BackendError(f"--scheduler {scheduler!r} is not a scheduler address: write tcp://HOST:PORT, "
                           "e.g. tcp://10.0.0.5:8786 (what `dask scheduler` prints)")
    try:
        return Client(scheduler, timeout=f"{timeout}s")
    except (OSError, TimeoutError) as exc:
        raise BackendError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
    except (ValueError, TypeError, KeyError) as exc:  # an address distributed cannot parse
        raise BackendError(f"--scheduler {scheduler!r}: {exc}") from None


# at most this many batches in flight on a cluster (a plan of millions is sent as it goes)
DASK_IN_FLIGHT = 1024


def _run_dask(store, run_id, config, cards, todo, scheduler, progress, client=None, stop: _Stop = _NO_STOP) -> None:
    from distributed import as_completed

    own = client is None
    if own:
        try:
            client = dask_client(scheduler)
        except BackendError as exc:
            raise StoreError(str(exc)) from None
    try:
        futures = {}

        def send() -> bool:
            i = next(todo, None)
            if i is None:
                return False
            b = config.batch(i)
            fut = client.submit(run_batch, run_id, config, i, b, cards, pure=False)
            futures[fut] = (i, b)
            return True

        while len(futures) < DASK_IN_FLIGHT and send():
            pass
        queue = as_completed(list(futures))
        for finished in queue.batches():  # every future done by now, at once
            store_ready(store, run_id, [(*futures.pop(f), f) for f in finished], progress, stop)
            for _ in finished:
                if send():
                    queue.add(next(reversed(futures)))
    finally:
        if own:
            client.close()


def summarize(store: Store, run_id: str) -> list[MatchupSummary]:
    """One row per pair of decks (whichever deck was studied, either seat), in plan order: the
    win rate of the deck named first with a Wilson 95% interval, as ``report winrate`` counts a
    pair. A mirror's row is 50% by construction."""
    from mythos_cli.stats import wilson_interval

    agg = store.matchup_results(run_id)  # aggregated in DuckDB: a million games cost no memory here
    pairs: dict[frozenset, dict] = {}
    for row in agg.iter_rows(named=True):
        a, b = row["deck_0"], row["deck_1"]
        p = pairs.setdefault(frozenset((a, b)), {"first": a, "second": b, "games": 0, "wins": 0, "ties": 0,
                                                "players": {}})
        p["games"] += row["games"]
        p["ties"] += row["ties"]
        p["wins"] += row["wins_0"] if a == p["first"] else row["games"] - row["wins_0"]
        p["players"].setdefault(a, row["policy_0"])
        p["players"].setdefault(b, row["policy_1"])
    out = []
    for p in pairs.values():
        wins = p["games"] // 2 if p["first"] == p["second"] else p["wins"]  # a mirror game: one copy wins
        low, high = (0.5, 0.5) if p["first"] == p["second"] else wilson_interval(wins, p["games"])
        out.append(MatchupSummary(f"{p['first']} vs {p['second']}", p["games"], wins, float(low), float(high),
                                  p["ties"], p["players"]))
    return out


def timed(fn, *args, **kwargs):
    t = time.perf_counter()
    out = fn(*args, **kwargs)
    return out, time.perf_counter() - t
