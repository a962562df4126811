"""Stops that stop: Ctrl-C and SIGTERM end a long command within about a second, whatever runs.

A long command (``simulate``, ``optimize``, ``ladder``, ``report --check-policy``, ``replay``)
runs inside ``stopping()``. The first Ctrl-C or SIGTERM:

* raises ``KeyboardInterrupt`` in the command at once (``stop.signal`` says which), except
  while it writes to the database (``stop.write()``): then once the write has committed;
* raises the rules core's cancellation flag (``_core.cancel()``): a batch that runs in the core
  with the interpreter released cannot run a Python signal handler until it returns, so a
  thread woken by the signal itself (``signal.set_wakeup_fd``) raises the flag, the searches
  (playouts, time budgets, the endgame solver) give up, and the batch stops between games
  (``_core.Cancelled``); a player written in Python stops at its next decision;
* tells the worker processes (``pool()``): each watches a shared event and raises its own core's
  flag; a pool is closed without waiting for work it no longer needs, and a worker still there
  after ``REAP_SECONDS`` is killed, so no process is left behind.

A second signal while stopping is ignored: the command is saying what it kept. Nothing is
printed here (the commands say what was kept, with exit code 130 or 143).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures import ProcessPoolExecutor

from mythos_cli import _core

SIGNALS = (signal.SIGINT, signal.SIGTERM)
REAP_SECONDS = 3.0  # a worker told to stop and still running after this is killed
WATCH_SECONDS = 0.1  # how often a worker looks at the stop event and at its parent


class Stopped(Exception):
    """A long command stopped by a signal (``signal``: SIGINT or SIGTERM) before it finished;
    ``done`` of ``total`` pieces of work were done (games, for the ladder and the checks)."""

    def __init__(self, signum: int | None, done: int = 0, total: int = 0):
        super().__init__(signal.Signals(signum).name if signum else "stopped")
        self.signal, self.done, self.total = signum, done, total

    @property
    def code(self) -> int:
        """The exit code: 143 for SIGTERM, 130 for Ctrl-C."""
        return 143 if self.signal == signal.SIGTERM else 130

    @property
    def how(self) -> str:
        return "stopped by SIGTERM" if self.signal == signal.SIGTERM else "interrupted"


class Stop:
    """The stop of one command: which signal came, and whether a write defers it."""

    def __init__(self) -> None:
        self.signal: int | None = None
        self.writing = 0
        self.deferred = False
        self.events: list = []  # one per pool of workers: its workers' copy of the stop

    def request(self, signum: int | None = None) -> None:
        """Stop everything this command runs: the core here, every pool's workers."""
        if signum is not None and self.signal is None:
            self.signal = signum
        _core.cancel()
        for event in self.events:
            event.set()

    def handler(self, signum, frame) -> None:
        if self.signal is not None:
            return
        self.request(signum)
        if self.writing:
            self.deferred = True
            return
        raise KeyboardInterrupt

    @contextlib.contextmanager
    def write(self):
        """A write to the database: a signal meanwhile takes effect once it has committed
        (DuckDB turns a signal during a query into a "Query interrupted" error)."""
        self.writing += 1
        try:
            yield
        finally:
            self.writing -= 1
        if not self.writing and self.deferred:
            self.deferred = False
            raise KeyboardInterrupt

    def stopped(self, done: int = 0, total: int = 0) -> Stopped:
        return Stopped(self.signal if self.signal is not None else signal.SIGINT, done, total)


_CURRENT: Stop | None = None
_LAST: int | None = None  # the signal that stopped the last command (None: none came)
NO_STOP = Stop()  # outside any command: a write defers nothing, no signal comes


@contextlib.contextmanager
def stopping():
    """Install the command's stop (once: a nested ``stopping()`` shares it) for the main thread;
    elsewhere signals cannot be caught, and the stop only carries the flag."""
    global _CURRENT, _LAST
    if _CURRENT is not None:
        yield _CURRENT
        return
    stop = Stop()
    _core.uncancel()  # a stop asked before (a previous command in this process) is forgotten
    if threading.current_thread() is not threading.main_thread():
        _CURRENT = stop
        try:
            yield stop
        finally:
            _CURRENT, _LAST = None, stop.signal
        return
    previous = {sig: signal.signal(sig, stop.handler) for sig in SIGNALS}
    read, write = os.pipe()
    os.set_blocking(write, False)
    old_fd = signal.set_wakeup_fd(write, warn_on_full_buffer=False)

    def watch() -> None:  # the signal, seen at once even while the main thread is in the core
        while True:
            try:
                data = os.read(read, 16)
            except OSError:
                return
            if not data:
                return
            if any(b in SIGNALS for b in data):
                stop.request(next(b for b in data if b in SIGNALS))

    watcher = threading.Thread(target=watch, name="mythos-stop-watch", daemon=True)
    watcher.start()
    _CURRENT = stop
    try:
        yield stop
    finally:
        _CURRENT, _LAST = None, stop.signal
        signal.set_wakeup_fd(old_fd)
        for sig, h in previous.items():
            signal.signal(sig, h)
        os.close(write)  # the watcher reads the end of the pipe and leaves
        watcher.join(1.0)
        os.close(read)
        _core.uncancel()


def last_signal() -> int | None:
    """The signal that stopped the last command run in ``stopping()`` (None: none did)."""
    return _LAST


def current() -> Stop:
    """The running command's stop (a blank one outside any)."""
    return _CURRENT if _CURRENT is not None else NO_STOP


# -- worker processes ---------------------------------------------------------------------------
def _worker_init(event) -> None:
    """A worker of a pool: signals are its parent's to handle (it stops the command and says so);
    it stops when its parent says (``event``) or is gone (``kill -9``: nobody would tell it)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    with contextlib.suppress(ValueError, OSError):
        signal.set_wakeup_fd(-1)  # (a forked worker inherits its parent's)
    _core.uncancel()
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            if event is not None and event.wait(WATCH_SECONDS):
                _core.cancel()  # the batch in hand stops between games; the worker waits to be closed
                while os.getppid() == parent:
                    time.sleep(WATCH_SECONDS)
                break
            elif event is None:
                time.sleep(WATCH_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="mythos-parent-watch", daemon=True).start()


def pool(workers: int, stop: Stop | None = None) -> ProcessPoolExecutor:
    """A process pool whose workers stop with the command (``stop``, default the current one) or
    when the pool is closed on an error (``close``)."""
    event = multiprocessing.get_context().Event()
    stop = stop or current()
    if stop is not NO_STOP:
        stop.events.append(event)
    executor = ProcessPoolExecutor(max_workers=workers, initializer=_worker_init, initargs=(event,))
    executor._mythos_stop = event  # (close() tells this pool's workers only)
    return executor


def close(executor: ProcessPoolExecutor, pending=(), *, stopping: bool = False) -> None:
    """Close a pool: at once and without its queued work when ``stopping`` (its workers are told:
    they end within about a second, and one still there after ``REAP_SECONDS`` is killed), else
    once its work is done."""
    for fut in pending:
        fut.cancel()
    if not stopping:
        executor.shutdown(wait=True)
        return
    event = getattr(executor, "_mythos_stop", None)
    if event is not None:
        event.set()
    # the workers, to wait for and to kill if they linger (ProcessPoolExecutor names them only in
    # its ``_processes``; without it, every child process multiprocessing started here)
    procs = getattr(executor, "_processes", None)
    children = list(procs.values()) if procs else multiprocessing.active_children()
    executor.shutdown(wait=False, cancel_futures=True)
    deadline = time.monotonic() + REAP_SECONDS
    for p in children:
        p.join(max(0.0, deadline - time.monotonic()))
    for p in children:
        if p.is_alive():
            p.kill()
            p.join(1.0)


@contextlib.contextmanager
def worker_pool(workers: int):
    """``pool()`` as a context: closed at once on a stop or an error, else when its work is done."""
    executor = pool(workers)
    try:
        yield executor
    except BaseException:
        close(executor, stopping=True)
        raise
    else:
        close(executor)
