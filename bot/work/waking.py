"""A background loop (the courier's, the bot player's): look, sleep, look again; a kick cuts the
sleep short, and a kick that came during a look skips the next sleep, so no change is left waiting
a whole nap. A look that fails is logged and tried again after a pause.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)


class Waker:
    def __init__(self) -> None:
        self._kicked = False
        self._nap: asyncio.Task[None] | None = None
        self._task: asyncio.Task[None] | None = None

    def start(
        self,
        look: Callable[[], Awaitable[float]],
        before: Callable[[], Awaitable[object]] | None,
        *,
        failure: str,
        retry_after: float,
        name: str,
    ) -> None:
        """:meth:`run` as a task of its own, until :meth:`halt`."""
        run = self.run(look, before, failure=failure, retry_after=retry_after)
        self._task = asyncio.create_task(run, name=name)

    async def halt(self) -> None:
        """End the task :meth:`start` began, and wait until it has ended."""
        self.stop()
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def run(
        self,
        look: Callable[[], Awaitable[float]],
        before: Callable[[], Awaitable[object]] | None,
        *,
        failure: str,
        retry_after: float,
    ) -> None:
        """`look` for ever, sleeping the seconds it returns after each (`retry_after` after a
        failure, logged with `failure`); `before` is awaited first (e.g. until the bot is ready)."""
        if before is not None:
            await before()
        while True:
            self._kicked = False  # the look sees what happened so far
            try:
                pause = await look()
            except Exception:
                log.exception(failure)
                pause = retry_after
            await self.sleep(pause)

    def kick(self) -> None:
        """Something changed: end the current sleep, or skip the next one."""
        self._kicked = True
        if self._nap is not None:
            self._nap.cancel()

    async def sleep(self, seconds: float) -> None:
        """Sleep `seconds` unless kicked since the look began; never raises for a kick."""
        if self._kicked:
            return
        # A nap of its own, which kick() cancels; waiting for it never raises.
        self._nap = asyncio.create_task(asyncio.sleep(seconds))
        try:
            await asyncio.wait({self._nap})
        finally:
            self._nap = None

    def stop(self) -> None:
        if self._nap is not None:
            self._nap.cancel()
