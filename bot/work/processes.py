"""A worker process of the bot: how one starts, what it ignores, how it is ended.

Every process the bot works in (the search workers of :class:`bot.computer.player.Thinker`, the file
reader of :class:`bot.work.attached_files.FileReader`) is one of a :class:`WorkerPool`:

- spawned, not forked: the bot's process has threads (the database's) that a fork would copy;
- deaf to SIGINT: Ctrl-C in a terminal reaches the whole process group, and the bot stops its
  workers itself, so an interrupt must neither print a traceback per worker nor lose their work;
- ended on demand, even in the middle of its work (which ``shutdown`` would wait for; Python 3.14
  adds ``terminate_workers``): SIGTERM, then SIGKILL after :data:`END_GRACE` seconds;
- known to its own pool exactly: each worker reports its process id to the pool that started it,
  so that ending one pool never touches another's processes started at the same moment.
"""

from __future__ import annotations

import contextlib
import importlib
import multiprocessing
import os
import signal
import threading
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess

SPAWN = multiprocessing.get_context("spawn")
END_GRACE = 1.0  # seconds a worker process gets to end on SIGTERM before it is killed
ENDING_LOOK_SECONDS = 0.05  # while a pool ends, how often to look for workers just begun


class WorkerPool(ProcessPoolExecutor):
    """A pool of the bot's worker processes. `niceness` lowers their priority below the bot's;
    `preload` names modules each imports before any work, so that no work's time goes on it."""

    def __init__(self, workers: int, *, niceness: int = 0, preload: tuple[str, ...] = ()) -> None:
        self._reports, report = SPAWN.Pipe(duplex=False)
        super().__init__(
            workers, mp_context=SPAWN, initializer=_begin, initargs=(report, niceness, preload)
        )
        self._report = report  # each new worker gets it
        self._pids: set[int] = set()  # the workers that have reported
        self._ended: set[int] = set()

    def processes(self) -> list[BaseProcess]:
        """The pool's living workers (those begun: see :func:`_begin`)."""
        while self._reports.poll():
            self._pids.add(self._reports.recv())
        return [child for child in multiprocessing.active_children() if child.pid in self._pids]

    def end(self) -> None:
        """Take no more work, drop what is queued and end the processes now. Blocks until they
        are gone, also one started a moment ago (ended once it has reported itself)."""
        # Waits for the pool's own thread, which sees the processes gone and then ends.
        waiting = threading.Thread(
            target=self.shutdown, kwargs={"cancel_futures": True}, name="bredon-worker-pool-end"
        )
        waiting.start()
        while waiting.is_alive():
            new = [process for process in self.processes() if process.pid not in self._ended]
            end_processes(new)
            self._ended.update(process.pid for process in new if process.pid is not None)
            waiting.join(ENDING_LOOK_SECONDS)
        self._reports.close()
        self._report.close()


def end_processes(processes: Iterable[BaseProcess]) -> None:
    """SIGTERM to each, then SIGKILL to those still there after :data:`END_GRACE` seconds."""
    processes = list(processes)
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(END_GRACE)
        if process.is_alive():
            process.kill()
            process.join()


def _begin(report: Connection, niceness: int, preload: tuple[str, ...]) -> None:
    """First thing in each new worker: ignore SIGINT, tell the pool who it is, import what its
    work needs, then yield the CPU to the bot's own process (work done for a user must not slow
    the event loop). Starting is done at the bot's priority: a worker lowered before its imports
    took over 15 s to start on a machine kept busy by other processes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    report.send(os.getpid())  # one small write to a pipe: whole, whatever else writes to it
    for module in preload:
        importlib.import_module(module)
    if niceness:
        with contextlib.suppress(OSError):
            os.nice(niceness)
