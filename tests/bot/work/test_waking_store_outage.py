"""The background loops through a store outage: the store refuses (here: StoreUnwritable, as a
full disk or an unreachable server) for a while, then answers again. Each loop waits it out and
does its work once the store is back, once, with nothing counted as a failure or a bug: no
analysis marked failed, no announcement's attempts or bug count raised, no traceback logged.

The loops' pauses during an outage are shortened here; their usual naps (minutes to a day) are
not, so a loop that only looked again at its next nap would not finish in time."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

import pytest

from bot.computer.analysis_queue import AnalysisStatus
from bot.computer.analyst import Analyst
from bot.computer.player import BotPlayer, Thinker
from bot.deadlines.scheduler import DeadlineScheduler
from bot.deadlines.service import DeadlineReport
from bot.errors import StoreUnwritable
from bot.notifications.outbox import Item, Outcome
from bot.services import Services
from bot.store import Database
from bot.timekeeping.clock import FakeClock
from bot.work import waking
from cogs.delivery.courier import Courier
from cogs.delivery.table import Shown
from tests.bot.computer.test_opponent import BREDON, challenge_bot
from tests.bot.conftest import ALICE, GUILD, play, start_game

WAIT = 60.0  # seconds; generous: only a loop that never comes back takes this long
WRITES = ("transaction", "write_one")
READS = ("snapshot", "fetchone", "fetchall")


class StoreOutage:
    """The database refusing its next `calls` calls of the methods named (then answering)."""

    def __init__(
        self, db: Database, monkeypatch: pytest.MonkeyPatch, methods: tuple[str, ...] = WRITES
    ) -> None:
        self.left = 0
        self.refused = 0
        for name in methods:
            monkeypatch.setattr(db, name, self._refusing(getattr(db, name)))

    def begin(self, calls: int) -> None:
        self.left = calls

    def _refusing(self, method: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            if self.left > 0:
                self.left -= 1
                self.refused += 1
                raise StoreUnwritable("the disk is full (a test)")
            return method(*args, **kwargs)

        return call


@pytest.fixture(autouse=True)
def short_outage_pauses(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(waking, "OUTAGE_FIRST_PAUSE", 0.01)
    monkeypatch.setattr(waking, "OUTAGE_MAX_PAUSE", 0.05)


async def until(done: Callable[[], Awaitable[bool]]) -> None:
    """Wait until `done()` says so."""
    async with asyncio.timeout(WAIT):
        while not await done():
            await asyncio.sleep(0.01)


def tracebacks(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


@pytest.fixture
async def thinker() -> Any:
    made = Thinker(workers=1, movetime_ms=500)
    yield made
    await made.close()


async def finished_game(services: Services) -> int:
    game = await start_game(services, size=4)
    await play(services, game.id, "a1 d4 b2 c3")
    await services.games.resign(game.id, ALICE.id)
    await services.analysis.request(game.id, GUILD, ALICE.id)
    return game.id


async def test_the_analyst_keeps_an_analysis_queued_through_an_outage_and_does_it_after(
    services: Services,
    thinker: Thinker,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    game_id = await finished_game(services)
    outage = StoreOutage(services.db, monkeypatch)
    outage.begin(3)  # storing the findings fails three times
    analyst = Analyst(services.analysis, thinker, lambda: None, nodes=200)
    analyst.start()
    try:

        async def analysed() -> bool:
            return await services.analysis.queued(1) == []

        await until(analysed)
    finally:
        await analyst.stop()
    stored = await services.analysis.get(game_id)
    assert stored is not None and stored.status is AnalysisStatus.DONE
    assert outage.refused == 3
    assert not tracebacks(caplog)


async def test_an_analysis_whose_game_cannot_be_read_stays_queued(
    services: Services, thinker: Thinker, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = await finished_game(services)
    StoreOutage(services.db, monkeypatch, READS).begin(1)
    analyst = Analyst(services.analysis, thinker, lambda: None, nodes=200)
    with pytest.raises(StoreUnwritable):
        await analyst.analyse(game_id)
    stored = await services.analysis.get(game_id)
    assert stored is not None and stored.status is AnalysisStatus.QUEUED


async def test_the_bot_moves_soon_after_an_outage_not_at_its_next_poll(
    services: Services,
    thinker: Thinker,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Only writes are refused (a full disk): the loop's looks, which only read, succeed
    between the refused moves and must not end the moves' outage, logged once when it begins
    and once when it ends (each look would otherwise start it afresh, its pause the shortest)."""
    caplog.set_level(logging.INFO, logger=waking.__name__)
    challenge_id = await challenge_bot(services, level=1, colour="black")
    await services.opponent.accept_waiting(BREDON)
    game_id = (await services.challenges.get(challenge_id)).game_id
    assert game_id is not None
    outage = StoreOutage(services.db, monkeypatch)
    outage.begin(4)  # its move refused four times
    player = BotPlayer(services.opponent, thinker, BREDON, lambda: None, poll_seconds=86_400)
    player.start()
    try:

        async def moved() -> bool:
            return await services.opponent.turn(game_id, BREDON.id) is None

        await until(moved)
    finally:
        await player.stop()
    game = await services.games.get(game_id)
    assert game.ply == 1 and outage.refused == 4
    rows = await services.db.fetchall("SELECT ply FROM moves WHERE game_id = ?", (game_id,))
    assert [row["ply"] for row in rows] == [1]
    assert not tracebacks(caplog)
    lines = [r.getMessage() for r in caplog.records if r.name == waking.__name__]
    assert sum("waits for the store" in line for line in lines) == 1, lines
    assert sum("answered again" in line for line in lines) == 1, lines


async def test_the_scheduler_ends_a_game_on_time_once_after_an_outage(
    services: Services,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    game = await start_game(services, days_per_move=1)
    clock.advance(days=2)
    reports: list[DeadlineReport] = []

    async def keep(report: DeadlineReport) -> None:
        reports.append(report)

    outage = StoreOutage(services.db, monkeypatch)
    outage.begin(5)
    scheduler = DeadlineScheduler(services.deadlines, clock, keep, max_sleep=timedelta(days=1))
    scheduler.start()
    try:

        async def reported() -> bool:
            return bool(reports)

        await until(reported)
    finally:
        await scheduler.stop()
    assert [ending.game.id for report in reports for ending in report.endings] == [game.id]
    assert (await services.games.get(game.id)).result is not None
    assert not tracebacks(caplog)


class OutageWhileDrawing:
    """A game table whose boards need the store: it is out for the first `failures` shows."""

    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.shown: list[int] = []

    async def show(self, item: Item) -> Shown:
        if self.failures:
            self.failures -= 1
            raise StoreUnwritable("the server is unreachable (a test)")
        self.shown.append(item.id)
        return Shown("https://discord.com/channels/1/2/3", Outcome.POSTED)


class CourierBot:
    """What the courier asks of the bot: its services, its idle look, its events."""

    def __init__(self, services: Services) -> None:
        self.services = services
        self.events: list[str] = []

    def idle_look(self, default: timedelta) -> timedelta:
        return timedelta(days=1)

    def dispatch(self, event: str, *args: object) -> None:
        self.events.append(event)


async def test_the_courier_delivers_once_after_an_outage_without_counting_it(
    services: Services, caplog: pytest.LogCaptureFixture
) -> None:
    game = await start_game(services)
    await services.games.move(game.id, ALICE.id, "a1")
    table = OutageWhileDrawing(failures=10)
    courier = Courier(CourierBot(services), table)  # type: ignore[arg-type]
    courier.start()
    try:

        async def delivered_all() -> bool:
            return await services.outbox.pending() == 0

        await until(delivered_all)
    finally:
        await courier.stop()
    assert table.failures == 0
    rows = await services.db.fetchall("SELECT id, attempts, progress FROM outbox ORDER BY id")
    assert table.shown == [row["id"] for row in rows]  # each once, in order
    assert [(row["attempts"], row["progress"]) for row in rows] == [(0, "{}")] * len(rows)
    assert not tracebacks(caplog)
