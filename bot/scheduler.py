"""The one deadline scheduler: it sleeps until the next deadline the database knows of, asks
:class:`~bot.services.deadlines.DeadlineService` to settle what is due, and hands the report on.

Nothing is kept in memory between wake-ups: every wake-up reads the next due time from the
database, so a restart rebuilds the schedule by itself. The sleep is capped (`max_sleep`) so that
deadlines written by another process, or created while sleeping, are picked up in time; deadlines
are always days away when created, so the cap never makes one late. What is due, and settling it
exactly once, is the service's business.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from datetime import timedelta

from bot.clock import Clock
from bot.services.deadlines import DeadlineReport, DeadlineService

log = logging.getLogger(__name__)

DEFAULT_MAX_SLEEP = timedelta(hours=1)
RETRY_AFTER = timedelta(minutes=5)

ReportHandler = Callable[[DeadlineReport], Awaitable[None]]


class DeadlineScheduler:
    def __init__(
        self,
        deadlines: DeadlineService,
        clock: Clock,
        on_report: ReportHandler,
        *,
        max_sleep: timedelta = DEFAULT_MAX_SLEEP,
    ) -> None:
        self._deadlines = deadlines
        self._clock = clock
        self._on_report = on_report
        self._max_sleep = max_sleep
        self._task: asyncio.Task[None] | None = None

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def start(self, before: Callable[[], Awaitable[object]] | None = None) -> None:
        """Run in the background; `before` is awaited first (e.g. until the bot is ready)."""
        if self.running:
            raise RuntimeError("The deadline scheduler is already running.")
        self._task = asyncio.create_task(self._run(before), name="bredon-deadlines")

    async def stop(self) -> None:
        if self._task is None:
            return
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        self._task = None

    async def run_once(self) -> timedelta:
        """Settle what is due now, hand the report on, and say how long to sleep."""
        report = await self._deadlines.run_due()
        if report:
            await self._on_report(report)
        next_due = await self._deadlines.next_due_at()
        if next_due is None:
            return self._max_sleep
        return max(timedelta(0), min(next_due - self._clock.now(), self._max_sleep))

    async def _run(self, before: Callable[[], Awaitable[object]] | None) -> None:
        if before is not None:
            await before()
        while True:
            try:
                pause = await self.run_once()
            except Exception:
                log.exception("The deadline scheduler failed; retrying in %s.", RETRY_AFTER)
                pause = RETRY_AFTER
            await asyncio.sleep(pause.total_seconds())
