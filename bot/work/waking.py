"""A background loop (the courier's, the scheduler's, the analyst's, the bot player's): look,
sleep, look again; a kick cuts the sleep short, and a kick that came during a look skips the next
sleep, so no change is left waiting a whole nap.

A look that fails because the store cannot answer (:func:`store_outage`: busy, unwritable,
unreachable, restarting) is no bug: one line is logged when the outage begins and one when it
ends (at INFO: the store itself reports the outage), and meanwhile the loop looks again after a
pause that doubles from :data:`OUTAGE_FIRST_PAUSE` to :data:`OUTAGE_MAX_PAUSE`, so it wakes
within seconds of the store's return whatever its usual nap. Any other failure is logged with
its traceback and tried again after the loop's own pause.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable

from bot.errors import MoveUnconfirmed, StoreBusy, StoreClosed, StoreUnwritable
from bot.store import StoreError

log = logging.getLogger(__name__)

OUTAGE_FIRST_PAUSE = 0.5  # seconds
OUTAGE_MAX_PAUSE = 15.0


def store_outage(error: BaseException) -> bool:
    """A failure of the store that time cures, not of the work: busy, unwritable, unreachable,
    restarting, or still unable to say whether a move's commit went through. Work that met one
    is tried again later, never counted as failed."""
    return isinstance(
        error, StoreBusy | StoreClosed | StoreUnwritable | StoreError | MoveUnconfirmed
    )


class Outage:
    """The pauses between looks while the store is out: doubling, capped; and how long it has
    lasted, for the line logged when it ends."""

    def __init__(self) -> None:
        self.began: float | None = None  # time.monotonic() of its first failure
        self._pause = OUTAGE_FIRST_PAUSE

    def failed(self, who: str, error: BaseException) -> float:
        """The store failed `who` again (logged once per outage); the seconds to wait."""
        if self.began is None:
            self.began = time.monotonic()
            self._pause = OUTAGE_FIRST_PAUSE
            log.info("%s waits for the store (%r), looking again every few seconds.", who, error)
        pause, self._pause = self._pause, min(2 * self._pause, OUTAGE_MAX_PAUSE)
        return pause

    def ended(self, who: str) -> None:
        """The store answered `who`: the outage, if any, is over."""
        if self.began is not None:
            log.info(
                "%s: the store answered again after %.1f s.", who, time.monotonic() - self.began
            )
            self.began = None


class Waker:
    def __init__(self) -> None:
        self._kicked = False
        self._nap: asyncio.Task[None] | None = None
        self._task: asyncio.Task[None] | None = None
        self.outage = Outage()

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
        run = self.run(look, before, failure=failure, retry_after=retry_after, name=name)
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
        name: str = "A background loop",
    ) -> None:
        """`look` for ever, sleeping the seconds it returns after each (`retry_after` after a
        failure, logged with `failure`; less while the store is out); `before` is awaited first
        (e.g. until the bot is ready)."""
        if before is not None:
            await before()
        while True:
            self._kicked = False  # the look sees what happened so far
            try:
                pause = await look()
            except Exception as error:
                if store_outage(error):
                    pause = min(self.outage.failed(name, error), retry_after)
                else:
                    log.exception(failure)
                    pause = retry_after
            else:
                self.outage.ended(name)
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
