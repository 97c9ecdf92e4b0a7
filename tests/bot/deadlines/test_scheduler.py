"""The deadline scheduler's wake-ups: a wake that comes while it is looking at the database is
not lost (the change it announces may have been written after the look read its table), and a
look refused as busy (another process settling the same thing) is tried again soon."""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime, timedelta

import pytest

from bot.deadlines import scheduler as scheduler_module
from bot.deadlines.scheduler import DeadlineScheduler
from bot.deadlines.service import DeadlineReport
from bot.errors import StoreBusy


class FixedClock:
    def now(self) -> datetime:
        return datetime(2026, 1, 1, tzinfo=UTC)


class SlowDeadlines:
    """Nothing is ever due; the first look waits until the test lets it finish."""

    def __init__(self) -> None:
        self.looks = 0
        self.looking = asyncio.Event()
        self.finish = asyncio.Event()
        self.second_look = asyncio.Event()

    async def run_due(self) -> DeadlineReport | None:
        self.looks += 1
        if self.looks == 1:
            self.looking.set()
            await self.finish.wait()
        else:
            self.second_look.set()
        return None

    async def next_due_at(self) -> datetime | None:
        return None  # so the scheduler would sleep its whole max_sleep


async def never(report: DeadlineReport) -> None:
    raise AssertionError("nothing is due")


def started(deadlines: SlowDeadlines) -> DeadlineScheduler:
    scheduler = DeadlineScheduler(
        deadlines,  # type: ignore[arg-type]
        FixedClock(),  # type: ignore[arg-type]
        never,
        max_sleep=timedelta(hours=1),
    )
    scheduler.start()
    return scheduler


async def test_a_wake_during_a_look_makes_the_scheduler_look_again_at_once() -> None:
    deadlines = SlowDeadlines()
    scheduler = started(deadlines)
    try:
        await asyncio.wait_for(deadlines.looking.wait(), 5)
        scheduler.wake()  # e.g. /clock reminders wrote a reminder due in ten minutes
        deadlines.finish.set()
        await asyncio.wait_for(deadlines.second_look.wait(), 5)  # not after an hour
        assert deadlines.looks == 2
    finally:
        await scheduler.stop()


async def test_without_a_wake_the_scheduler_sleeps_until_its_next_look() -> None:
    deadlines = SlowDeadlines()
    deadlines.finish.set()
    scheduler = started(deadlines)
    try:
        await asyncio.wait_for(deadlines.looking.wait(), 5)
        await asyncio.sleep(0.2)
        assert deadlines.looks == 1
        scheduler.wake()
        await asyncio.wait_for(deadlines.second_look.wait(), 5)
    finally:
        await scheduler.stop()


class BusyOnceDeadlines(SlowDeadlines):
    """The first look is refused as busy (another process settling the same deadline)."""

    async def run_due(self) -> DeadlineReport | None:
        self.looks += 1
        if self.looks == 1:
            raise StoreBusy()
        self.second_look.set()
        return None


async def test_a_look_refused_as_busy_is_tried_again_soon_and_logs_no_failure(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(scheduler_module, "BUSY_RETRY", timedelta(milliseconds=50))
    deadlines = BusyOnceDeadlines()
    scheduler = started(deadlines)
    try:
        # Not after RETRY_AFTER (five minutes), as a failed look would be.
        await asyncio.wait_for(deadlines.second_look.wait(), 5)
    finally:
        await scheduler.stop()
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
