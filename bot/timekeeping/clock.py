"""Where the services get the time from, so that tests can move it.

Every timestamp the services handle is an aware UTC datetime; the store keeps them as ISO-8601
text (see :mod:`bot.store`).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Protocol


class Clock(Protocol):
    def now(self) -> datetime:
        """The current time, aware and in UTC."""
        ...


class SystemClock:
    """The real time."""

    def now(self) -> datetime:
        return datetime.now(UTC)


class FakeClock:
    """A clock that stands still until a test sets or advances it."""

    def __init__(self, start: datetime | None = None) -> None:
        self._now = start or datetime(2024, 1, 1, 12, 0, tzinfo=UTC)
        if self._now.tzinfo is None:
            raise ValueError("FakeClock needs an aware datetime.")

    def now(self) -> datetime:
        return self._now

    def set(self, moment: datetime) -> None:
        if moment.tzinfo is None:
            raise ValueError("FakeClock needs an aware datetime.")
        self._now = moment.astimezone(UTC)

    def advance(self, delta: timedelta | None = None, **kwargs: float) -> datetime:
        """Move forward by `delta` or by timedelta keyword arguments (days=2, hours=1...)."""
        self._now += delta if delta is not None else timedelta(**kwargs)
        return self._now
