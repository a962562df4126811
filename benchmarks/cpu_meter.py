"""CPU-seconds of this process and of every worker it starts, for benchmarks on a shared machine.

Wall time on a loaded machine says more about the other sessions than about mythos; the CPU
time the run's own processes used does not depend on them (much). The process pools of
``mythos_cli.sim`` are shut down without waiting for their workers, so the workers are never
reaped in time for ``getrusage(RUSAGE_CHILDREN)`` to see them: a thread samples the CPU time of
every child process every quarter second (psutil) and keeps each one's last reading. A worker's
last quarter second before it exits may be missed: a low bound, to a few seconds a run.

    with CpuMeter() as meter:
        ...
    meter.seconds
"""

from __future__ import annotations

import os
import resource
import threading


class CpuMeter:
    def __init__(self, every: float = 0.25):
        self.every = every
        self.children: dict[int, float] = {}
        self._stop = threading.Event()
        self.seconds = 0.0

    def _self(self) -> float:
        r = resource.getrusage(resource.RUSAGE_SELF)
        return r.ru_utime + r.ru_stime

    def _sample(self) -> None:
        import psutil

        me = psutil.Process(os.getpid())
        while not self._stop.is_set():
            for child in me.children(recursive=True):
                try:
                    t = child.cpu_times()
                    self.children[child.pid] = t.user + t.system
                except psutil.Error:
                    pass
            self._stop.wait(self.every)

    def __enter__(self) -> "CpuMeter":
        self._start = self._self()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()
        self.seconds = self._self() - self._start + sum(self.children.values())
