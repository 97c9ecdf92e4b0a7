"""The files users attach (game records in PTN), read in a worker process.

A file is whatever its sender crafted, so reading one never happens on the event loop, nor in a
thread: a parse holds the GIL, and while a thread parsed a crafted file the loop got one tick in
2.5 s, so every server froze. :class:`FileReader` runs the reading in a worker process instead,
and gives up on it after `timeout` seconds (a real file takes milliseconds): the worker is ended
and the next file gets a new one, so a file that takes too long holds neither the bot nor the
files sent after it. Files are read one at a time, in turns between players, so one player's
files delay another's by one file at most.

Not the bot's search workers (:class:`bot.bot_player.Thinker`): they think for seconds to
minutes, and a file must be read at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
import multiprocessing
import os
from collections.abc import Callable
from multiprocessing.pool import Pool
from typing import Any, TypeVar

from bot.errors import BredonError
from bot.fair_slots import FairSlots
from tak import Position
from tak.ptn import Game

log = logging.getLogger(__name__)

T = TypeVar("T")
READ_SECONDS = 0.75  # a real file takes milliseconds (a game of 2,000 plies: 50 ms)
START_SECONDS = 15.0  # for a worker to start (a process, its imports)
WORKER_NICENESS = 10  # the worker's priority, below the bot's


class FileTooSlow(BredonError):
    """Reading a file took longer than any real game record does."""

    def __init__(self, seconds: float) -> None:
        super().__init__(
            f"That file took over {seconds:g} s to read, far longer than any real game record: "
            "I stopped reading it."
        )


class FileReader:
    """Runs work on users' files in one worker process, one file at a time. The worker is
    started (and imports the modules named in `preload`) when first needed and again at once
    after one is ended, so a file's `timeout` is all its own."""

    def __init__(self, *, timeout: float = READ_SECONDS, preload: tuple[str, ...] = ()) -> None:
        self.timeout = timeout
        self._preload = preload
        self._turns = FairSlots(1)
        self._worker: asyncio.Task[Pool] | None = None  # started, or starting
        self._running: asyncio.Future[Any] | None = None

    async def run(self, work: Callable[..., T], *args: Any, player_id: int | None = None) -> T:
        """`work(*args)` in the worker process, once the work before it (and all the work
        `player_id` asked for before) is done; raises what it raised. Raises
        :class:`FileTooSlow` after `timeout` seconds (also when the worker died)."""
        async with self._turns.slot(player_id):
            worker = self._worker
            failed = worker is not None and worker.done() and not _started_well(worker)
            if worker is None or failed:
                worker = self._start()
            pool = await asyncio.shield(worker)
            try:
                return await self._call(pool, work, args, self.timeout)
            except FileTooSlow:
                await self._end()
                self._start()  # now, so that the next file need not wait for it
                raise

    def _start(self) -> asyncio.Task[Pool]:
        self._worker = asyncio.create_task(self._started(), name="bredon-file-reader")
        return self._worker

    async def _started(self) -> Pool:
        spawn = multiprocessing.get_context("spawn")  # no copy of the bot's threads
        pool = await asyncio.to_thread(spawn.Pool, 1, _preload, (self._preload,))
        try:
            await self._call(pool, _ready, (), START_SECONDS)
        except BaseException:
            await asyncio.to_thread(pool.terminate)
            raise
        return pool

    async def _call(
        self, pool: Pool, work: Callable[..., T], args: tuple[Any, ...], limit: float
    ) -> T:
        loop = asyncio.get_running_loop()
        done: asyncio.Future[T] = loop.create_future()

        def settle(value: Any, failed: bool) -> None:
            if not done.done():
                (done.set_exception if failed else done.set_result)(value)

        def settle_soon(value: Any, failed: bool) -> None:  # on the pool's own thread
            with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits
                loop.call_soon_threadsafe(settle, value, failed)

        pool.apply_async(
            work,
            args,
            callback=lambda value: settle_soon(value, False),
            error_callback=lambda error: settle_soon(error, True),
        )
        self._running = done
        try:
            return await asyncio.wait_for(done, limit)
        except TimeoutError:
            log.warning("Work on a file took over %s s: its worker is ended.", limit)
            raise FileTooSlow(limit) from None
        finally:
            self._running = None

    async def _end(self) -> None:
        worker, self._worker = self._worker, None
        if worker is None:
            return
        if not worker.done():
            worker.cancel()  # it ends its own pool
        elif _started_well(worker):
            await asyncio.to_thread(worker.result().terminate)

    async def close(self) -> None:
        """End the worker (the bot is stopping): the work it was doing is cancelled."""
        if self._running is not None:
            self._running.cancel()
        await self._end()


def _started_well(worker: asyncio.Task[Pool]) -> bool:
    """Whether a worker done starting has started (not failed, not cancelled)."""
    return not worker.cancelled() and worker.exception() is None


def _ready() -> None:
    """Nothing: a worker that has done it has started (and run :func:`_preload`)."""


def _preload(modules: tuple[str, ...]) -> None:
    """In a new worker: yield the CPU to the bot's own process (on a busy machine a file being
    read must not slow the event loop), and import what its work needs, so that no file's time
    goes on it."""
    with contextlib.suppress(OSError):
        os.nice(WORKER_NICENESS)
    for module in modules:
        importlib.import_module(module)


def read_game(text: str) -> tuple[Game, Position]:
    """A PTN file's game and its final position (for a worker: see :class:`FileReader`)."""
    record = Game.parse(text)
    return record, record.final_position()
