"""The files users attach (game records in PTN), read in a worker process.

A file is whatever its sender crafted, so reading one never happens on the event loop, nor in a
thread: a parse holds the GIL, and while a thread parsed a crafted file the loop got one tick in
2.5 s, so every server froze. :class:`FileReader` runs the reading in a worker process instead,
and gives up on it after `timeout` seconds (a real file takes milliseconds; more for the first,
which waits for the worker to start): the worker is ended and the next file gets a new one, so
a file that takes too long holds neither the bot nor the files sent after it.

Not the bot's search workers (:class:`bot.bot_player.Thinker`): they think for seconds to
minutes, and a file must be read at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
from collections.abc import Callable
from multiprocessing.pool import Pool
from typing import Any, TypeVar

from bot.errors import BredonError
from tak import Position
from tak.ptn import Game

log = logging.getLogger(__name__)

T = TypeVar("T")
READ_SECONDS = 0.75  # a real file takes milliseconds (a game of 2,000 plies: 50 ms)
START_SECONDS = 15.0  # more, for work given to a worker that has not answered yet


class FileTooSlow(BredonError):
    """Reading a file took longer than any real game record does."""

    def __init__(self, seconds: float) -> None:
        super().__init__(
            f"That file took over {seconds:g} s to read, far longer than any real game record: "
            "I stopped reading it."
        )


class _Restarted(Exception):
    """The worker was ended (another file was too slow) before this work was done."""


class FileReader:
    """Runs work on users' files in `workers` worker processes, started when first needed."""

    def __init__(self, *, workers: int = 1, timeout: float = READ_SECONDS) -> None:
        self._workers = workers
        self.timeout = timeout
        self._pool: Pool | None = None
        self._answered = False  # whether the pool's workers have done any work: started
        self._starting = asyncio.Lock()
        self._pending: dict[asyncio.Future[Any], Pool] = {}  # work not done, and its pool

    async def run(self, work: Callable[..., T], *args: Any) -> T:
        """`work(*args)` in a worker process, raising what it raised. Raises
        :class:`FileTooSlow` after `timeout` seconds (also when the worker died). Work cut
        short because another file was too slow is tried once more."""
        try:
            return await self._run_once(work, args)
        except _Restarted:
            return await self._run_once(work, args)

    async def _started(self) -> Pool:
        async with self._starting:
            if self._pool is None:
                spawn = multiprocessing.get_context("spawn")  # no copy of the bot's threads
                self._pool = await asyncio.to_thread(spawn.Pool, self._workers)
                self._answered = False
            return self._pool

    async def _run_once(self, work: Callable[..., T], args: tuple[Any, ...]) -> T:
        loop = asyncio.get_running_loop()
        pool = await self._started()
        done: asyncio.Future[T] = loop.create_future()

        def settle(value: Any, failed: bool) -> None:
            if self._pool is pool:
                self._answered = True
            if not done.done():
                (done.set_exception if failed else done.set_result)(value)

        def settle_soon(value: Any, failed: bool) -> None:  # on the pool's own thread
            with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits
                loop.call_soon_threadsafe(settle, value, failed)

        limit = self.timeout + (0.0 if self._answered else START_SECONDS)
        pool.apply_async(
            work,
            args,
            callback=lambda value: settle_soon(value, False),
            error_callback=lambda error: settle_soon(error, True),
        )
        self._pending[done] = pool
        try:
            return await asyncio.wait_for(done, limit)
        except TimeoutError:
            log.warning("Reading a file took over %s s: its worker is ended.", limit)
            del self._pending[done]
            if await self._end(pool):
                await self._started()  # now, so that the next file need not wait for it
            raise FileTooSlow(limit) from None
        finally:
            self._pending.pop(done, None)

    async def _end(self, pool: Pool) -> bool:
        """End `pool`'s workers and whatever they were doing (that work is tried again);
        False if it was ended already."""
        if self._pool is not pool:
            return False
        self._pool = None
        for waiting, on in self._pending.items():
            if on is pool and not waiting.done():
                waiting.set_exception(_Restarted())
        await asyncio.to_thread(pool.terminate)  # it joins the pool's threads
        return True

    async def close(self) -> None:
        if self._pool is not None:
            await self._end(self._pool)


def read_game(text: str) -> tuple[Game, Position]:
    """A PTN file's game and its final position (for a worker: see :class:`FileReader`)."""
    record = Game.parse(text)
    return record, record.final_position()
