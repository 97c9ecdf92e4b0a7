"""The bot's database watchdog (``BredonBot._watch_database``): a database that cannot be used
for now (unreachable, busy, even an unforeseen error) is checked again, sooner and then backing
off, and never stops the watch; only a database that is no longer the one opened stops the bot."""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace

import pytest

from bot.errors import StoreBusy, StoreClosed, StoreUnwritable
from bot.store import DatabaseGone
from cogs import client


@pytest.mark.error_logs
async def test_the_watchdog_survives_outages_backs_off_and_stops_only_for_a_lost_file(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    every = client.DATABASE_CHECK_EVERY.total_seconds()
    answers: list[BaseException | None] = [
        None,
        StoreUnwritable("PostgreSQL at x cannot be reached: refused"),
        StoreUnwritable("PostgreSQL at x did not answer within 5 s."),
        StoreBusy(),
        RuntimeError("unforeseen"),
        None,
        StoreUnwritable("down again"),
        None,
        DatabaseGone(Path("bredon.sqlite3")),
    ]
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    async def check_in_place() -> None:
        answer = answers.pop(0)
        if answer is not None:
            raise answer

    closed: list[bool] = []

    async def close() -> None:
        closed.append(True)

    monkeypatch.setattr(client, "asyncio", SimpleNamespace(sleep=sleep))
    bot = SimpleNamespace(
        services=SimpleNamespace(db=SimpleNamespace(check_in_place=check_in_place)),
        close=close,
        fatal=None,
    )
    await client.BredonBot._watch_database(bot)  # type: ignore[arg-type]
    first, most = client.WATCHDOG_RETRY_FIRST, client.WATCHDOG_RETRY_MAX
    assert waits == [every, every, first, first * 2, first * 4, most, every, first, every]
    assert not answers and closed == [True]
    assert isinstance(bot.fatal, DatabaseGone)
    # The unforeseen error is logged with its traceback; the lost file, as what stops the bot.
    logged = [(r.levelname, r.getMessage()) for r in caplog.records if r.levelno >= logging.ERROR]
    assert logged == [
        ("ERROR", "The database check failed."),
        ("CRITICAL", f"{DatabaseGone(Path('bredon.sqlite3'))} Stopping."),
    ]


async def test_the_watchdog_ends_quietly_when_the_store_closes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async def check_in_place() -> None:
        raise StoreClosed()

    monkeypatch.setattr(client, "DATABASE_CHECK_EVERY", timedelta(0))
    bot = SimpleNamespace(
        services=SimpleNamespace(db=SimpleNamespace(check_in_place=check_in_place)),
        close=None,
        fatal=None,
    )
    await asyncio.wait_for(client.BredonBot._watch_database(bot), 10)  # type: ignore[arg-type]
    assert bot.fatal is None
