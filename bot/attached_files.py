"""The files users attach (game records in PTN), read in a worker process.

A file is whatever its sender crafted, so reading one never happens on the event loop, nor in a
thread: a parse holds the GIL, and while a thread parsed a crafted file the loop got one tick in
2.5 s, so every server froze. :class:`FileReader` runs the reading in a worker process instead,
and gives up on it after `timeout` seconds (a real file takes milliseconds; more for the first,
which waits for the worker to start): the worker is ended and the next file gets a new one, so
a file that takes too long holds neither the bot nor the files sent after it. Files are read
one at a time, in turns between players, so one player's files delay another's by one file at
most.

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
from bot.fair_slots import FairSlots
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


class FileReader:
    """Runs work on users' files in one worker process, started when first needed, one file at
    a time."""

    def __init__(self, *, timeout: float = READ_SECONDS) -> None:
        self.timeout = timeout
        self._turns = FairSlots(1)
        self._pool: Pool | None = None
        self._answered = False  # whether the worker has done any work: it has started
        self._running: asyncio.Future[Any] | None = None

    async def run(self, work: Callable[..., T], *args: Any, player_id: int | None = None) -> T:
        """`work(*args)` in the worker process, once the work before it (and all the work
        `player_id` asked for before) is done; raises what it raised. Raises
        :class:`FileTooSlow` after `timeout` seconds (also when the worker died)."""
        async with self._turns.slot(player_id):
            loop = asyncio.get_running_loop()
            if self._pool is None:
                self._pool = await asyncio.to_thread(self._new_pool)
                self._answered = False
            pool = self._pool
            done: asyncio.Future[T] = loop.create_future()

            def settle(value: Any, failed: bool) -> None:
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
            self._running = done
            try:
                return await asyncio.wait_for(done, limit)
            except TimeoutError:
                log.warning("Reading a file took over %s s: its worker is ended.", limit)
                await self._end()
                self._pool = await asyncio.to_thread(self._new_pool)  # ready for the next file
                self._answered = False
                raise FileTooSlow(limit) from None
            finally:
                self._running = None

    @staticmethod
    def _new_pool() -> Pool:
        return multiprocessing.get_context("spawn").Pool(1)  # no copy of the bot's threads

    async def _end(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.to_thread(pool.terminate)  # it joins the pool's threads

    async def close(self) -> None:
        """End the worker (the bot is stopping): the work it was doing is cancelled."""
        if self._running is not None:
            self._running.cancel()
        await self._end()


def read_game(text: str) -> tuple[Game, Position]:
    """A PTN file's game and its final position (for a worker: see :class:`FileReader`)."""
    record = Game.parse(text)
    return record, record.final_position()
