"""The files users attach (game records in PTN), read in a worker process.

A file is whatever its sender crafted, so reading one never happens on the event loop, nor in a
thread: a parse holds the GIL, and while a thread parsed a crafted file the loop got one tick in
2.5 s, so every server froze. :class:`FileReader` runs the reading in a worker process instead,
and gives up on it after `timeout` seconds (a real file takes milliseconds): the worker is ended
and the next file gets a new one, so a file that takes too long holds neither the bot nor the
files sent after it. Files are read one at a time, in turns between players, so one player's
files delay another's by one file at most.

Not the bot's search workers (:class:`bot.computer.player.Thinker`): they think for seconds to
minutes, and a file must be read at once. Both are a :class:`bot.work.processes.WorkerPool`
(spawned, deaf to Ctrl-C, ended on demand).
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
from collections.abc import Callable
from concurrent.futures import BrokenExecutor
from typing import Any, TypeVar

from bot.errors import BredonError, StoreClosed
from bot.languages import _, numeral
from bot.work.fair_slots import FairSlots
from bot.work.processes import WorkerPool
from tak import Position
from tak.ptn import Game

log = logging.getLogger(__name__)

T = TypeVar("T")
READ_SECONDS = 0.75  # a real file takes milliseconds (a game of 2,000 plies: 50 ms)
# For a worker to start (a process, its imports: a second or two on a quiet machine). Only a
# start that hangs meets it: one that fails (an import) is reported at once.
START_SECONDS = 60.0
WORKER_NICENESS = 10  # the worker's priority, below the bot's


class FileTooSlow(BredonError):
    """Reading a file took longer than any real game record does."""

    def __init__(self, seconds: float) -> None:
        super().__init__(
            _(
                "That file took over {seconds} s to read, far longer than any real game record: "
                "I stopped reading it.",
                seconds=numeral(seconds),
            )
        )


class ReaderNotStarted(BredonError):
    """The worker that reads files failed to start (or took over :data:`START_SECONDS`)."""

    def __init__(self) -> None:
        super().__init__(
            _("I could not start reading files just now; please try again in a minute.")
        )


class FileReader:
    """Runs work on users' files in one worker process, one file at a time. The worker is
    started (and imports the modules named in `preload`) when first needed and again at once
    after one is ended, so a file's `timeout` is all its own. Once closed (the bot is stopping)
    it starts no worker: work is refused with the bot's restarting sentence."""

    def __init__(self, *, timeout: float = READ_SECONDS, preload: tuple[str, ...] = ()) -> None:
        self.timeout = timeout
        self._preload = preload
        self._turns = FairSlots(1)
        self._worker: asyncio.Task[WorkerPool] | None = None  # started, or starting
        self._closed = False

    async def run(self, work: Callable[..., T], *args: Any, player_id: int | None = None) -> T:
        """`work(*args)` in the worker process, once the work before it (and all the work
        `player_id` asked for before) is done; raises what it raised. Raises
        :class:`FileTooSlow` after `timeout` seconds (also when the worker died),
        :class:`ReaderNotStarted` when no worker could start, and
        :class:`~bot.errors.StoreClosed` once the reader is closed."""
        async with self._turns.slot(player_id):
            if self._closed:
                raise StoreClosed()
            worker = self._worker
            failed = worker is not None and worker.done() and not _started_well(worker)
            if worker is None or failed:
                worker = self._start()
            try:
                try:
                    pool = await asyncio.shield(worker)
                except ReaderNotStarted:  # said again here, in this caller's language
                    raise ReaderNotStarted() from None
                return await _call(pool, work, args, self.timeout)
            except asyncio.CancelledError:
                if self._closed and not _cancelled_from_outside():
                    raise StoreClosed() from None
                raise
            except (TimeoutError, BrokenExecutor):  # too slow, or the worker died
                if self._closed:
                    raise StoreClosed() from None
            log.warning("Work on a file took over %s s: its worker is ended.", self.timeout)
            await self._end()
            self._start()  # now, so that the next file need not wait for it
            raise FileTooSlow(self.timeout)

    def _start(self) -> asyncio.Task[WorkerPool]:
        # A context of its own: it serves whoever reads next, not only the player whose read
        # happened to start it (its refusal is said again in each waiter's language).
        self._worker = asyncio.create_task(
            self._started(), name="bredon-file-reader", context=contextvars.Context()
        )
        return self._worker

    async def _started(self) -> WorkerPool:
        pool = WorkerPool(1, niceness=WORKER_NICENESS, preload=self._preload)
        try:
            await _call(pool, _ready, (), START_SECONDS)
        except (TimeoutError, BrokenExecutor):
            log.warning("The worker reading files failed to start in %s s.", START_SECONDS)
            await asyncio.to_thread(pool.end)
            raise ReaderNotStarted() from None
        except BaseException:  # cancelled: the reader is closed
            await asyncio.to_thread(pool.end)
            raise
        return pool

    async def _end(self) -> None:
        worker, self._worker = self._worker, None
        if worker is None:
            return
        if not worker.done():
            worker.cancel()  # it ends its own pool, once started
            await asyncio.wait([worker])
        elif _started_well(worker):
            await asyncio.to_thread(worker.result().end)

    async def close(self) -> None:
        """End the worker (the bot is stopping): the work it was doing, and the work waiting
        for its turn, is refused with the restarting sentence."""
        self._closed = True
        await self._end()


async def _call(pool: WorkerPool, work: Callable[..., T], args: tuple[Any, ...], limit: float) -> T:
    return await asyncio.wait_for(asyncio.wrap_future(pool.submit(work, *args)), limit)


def _cancelled_from_outside() -> bool:
    """Whether the task running is being cancelled (not merely woken by a cancelled wait)."""
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


def _started_well(worker: asyncio.Task[WorkerPool]) -> bool:
    """Whether a worker done starting has started (not failed, not cancelled)."""
    return not worker.cancelled() and worker.exception() is None


def _ready() -> None:
    """Nothing: a worker that has done it has started (and imported what it preloads)."""


def read_game(text: str) -> tuple[Game, Position]:
    """A PTN file's game and its final position (for a worker: see :class:`FileReader`)."""
    record = Game.parse(text)
    return record, record.final_position()
