"""The one deadline scheduler: it sleeps until the next deadline the database knows of, asks
:class:`~bot.deadlines.service.DeadlineService` to settle what is due, and hands the report on.

Nothing is kept in memory between wake-ups: every wake-up reads the next due time from the
database, so a restart rebuilds the schedule by itself. The sleep is capped (`max_sleep`) so that
deadlines written by another process, or created while sleeping, are picked up in time; deadlines
are always days away when created, so the cap never makes one late. What is due, and settling it
exactly once, is the service's business.

Other timed work rides on the same loop as *duties* (e.g. the daily digests of
:class:`~bot.notifications.service.NotificationService`): each says when it is next due and does
what is due; ``on_duty`` is told when one did something (to wake the courier). :meth:`wake`
makes the loop look again at once (e.g. a digest was just set for the next few minutes); with
PostgreSQL, another process's wake-up reaches this one too (:data:`SCHEDULE_CHANNEL`, wired in
:mod:`cogs.client`). A look refused as busy (another process settling the same thing) is tried
again after :data:`BUSY_RETRY`, not logged as a failure; a store that cannot answer is waited out
(:class:`~bot.work.waking.Waker`: looked at again within seconds of its return).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import Protocol

from bot.deadlines.service import DeadlineReport, DeadlineService
from bot.errors import StoreBusy
from bot.timekeeping.clock import Clock
from bot.work.waking import Waker

log = logging.getLogger(__name__)

DEFAULT_MAX_SLEEP = timedelta(hours=1)
RETRY_AFTER = timedelta(minutes=5)
BUSY_RETRY = timedelta(seconds=2)
SCHEDULE_CHANNEL = "bredon_schedule"  # notified when a deadline may have come sooner

ReportHandler = Callable[[DeadlineReport], Awaitable[None]]


class Duty(Protocol):
    """Timed work kept in the database, like the deadlines."""

    async def next_due_at(self) -> datetime | None: ...

    async def run_due(self) -> int:
        """Do what is due now; how many things were done."""
        ...


class DeadlineScheduler:
    def __init__(
        self,
        deadlines: DeadlineService,
        clock: Clock,
        on_report: ReportHandler,
        *,
        max_sleep: timedelta = DEFAULT_MAX_SLEEP,
        duties: tuple[Duty, ...] = (),
        on_duty: Callable[[], None] | None = None,
    ) -> None:
        self._deadlines = deadlines
        self._duties = duties
        self._on_duty = on_duty
        self._waker = Waker()
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
        self._waker.stop()
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        self._task = None

    async def run_once(self) -> timedelta:
        """Settle what is due now, hand the report on, and say how long to sleep."""
        report = await self._deadlines.run_due()
        if report:
            await self._on_report(report)
        times = [await self._deadlines.next_due_at()]
        for duty in self._duties:
            if await duty.run_due() and self._on_duty is not None:
                self._on_duty()
            times.append(await duty.next_due_at())
        known = [t for t in times if t is not None]
        if not known:
            return self._max_sleep
        # What another process holds stays due: not looked at again before it can be let go.
        shortest = BUSY_RETRY if report.held_elsewhere else timedelta(0)
        return max(shortest, min(min(known) - self._clock.now(), self._max_sleep))

    def wake(self) -> None:
        """Look at the database now rather than at the end of the current sleep (or again at
        once, when it is looking right now)."""
        self._waker.kick()

    async def _run(self, before: Callable[[], Awaitable[object]] | None) -> None:
        async def look() -> float:
            try:
                return (await self.run_once()).total_seconds()
            except StoreBusy:
                log.info("The deadlines were busy (another process?); looking again soon.")
                return BUSY_RETRY.total_seconds()

        await self._waker.run(
            look,
            before,
            failure=f"The deadline scheduler failed; retrying in {RETRY_AFTER}.",
            retry_after=RETRY_AFTER.total_seconds(),
            name="bredon-deadlines",
        )
