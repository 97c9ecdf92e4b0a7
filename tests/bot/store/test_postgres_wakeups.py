"""What processes sharing one PostgreSQL database do for each other: notifications sent on commit
reach the others (and not the sender), a listening connection that is lost is made again, a game
changed in one process leaves the others' caches, a row another process holds is passed over
rather than fought over, and the jobs that must run once do so when two processes run them at the
same moment. Each "process" is a store (or a set of services) with its own connection pool."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Callable
from datetime import timedelta

import asyncpg
import pytest

from bot.deadlines.scheduler import BUSY_RETRY, SCHEDULE_CHANNEL, DeadlineScheduler
from bot.errors import StoreBusy
from bot.notifications.outbox import DigestDue, GameEnded, Headline, TournamentNews
from bot.services import Services
from bot.settings import Settings
from bot.store import Database
from bot.timekeeping.clock import FakeClock
from cogs.running import create_bot
from tests.bot.conftest import ALICE, BOB, GUILD, deliver_everything, play, start_game
from tests.bot.tournament_helpers import ANN, BEN, CAT, DAN, new_tournament

pytestmark = pytest.mark.postgres_only

CHANNEL = "bredon_test"


async def eventually(condition: Callable[[], bool], what: str) -> None:
    """Wait (at most 10 s) until `condition` holds: notifications arrive asynchronously."""
    for _ in range(100):
        if condition():
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"not after 10 s: {what}")


@pytest.fixture
async def two_stores(db_path: str) -> AsyncIterator[tuple[Database, Database]]:
    first = await Database.open(db_path)
    second = await Database.open(db_path)
    yield first, second
    await first.close()
    await second.close()


@pytest.fixture
async def two_processes(db_path: str, clock: FakeClock) -> AsyncIterator[tuple[Services, Services]]:
    first = await Services.open(db_path, clock=clock, rng=random.Random(1))
    second = await Services.open(db_path, clock=clock, rng=random.Random(2))
    yield first, second
    await first.close()
    await second.close()


async def test_a_notification_reaches_the_other_processes_when_its_transaction_commits(
    two_stores: tuple[Database, Database],
) -> None:
    listening, sending = two_stores
    heard: list[str] = []
    heard_by_sender: list[str] = []
    await listening.listen(CHANNEL, heard.append)
    await sending.listen(CHANNEL, heard_by_sender.append)
    async with sending.transaction() as tx:
        await tx.notify(CHANNEL, "committed")
        await asyncio.sleep(0.3)
        assert heard == []  # not before the commit
    with pytest.raises(RuntimeError):
        async with sending.transaction() as tx:
            await tx.notify(CHANNEL, "rolled back")
            raise RuntimeError
    await sending.notify(CHANNEL, "on its own")
    await eventually(lambda: len(heard) == 2, "both notifications heard")
    assert heard == ["committed", "on its own"]
    assert heard_by_sender == []  # a process is not woken by its own changes


async def test_a_lost_listening_connection_is_made_again(
    two_stores: tuple[Database, Database], db_path: str
) -> None:
    listening, sending = two_stores
    heard: list[str] = []
    await listening.listen(CHANNEL, heard.append)
    connection = await asyncpg.connect(db_path)
    try:
        ended = await connection.fetchval(
            "SELECT COUNT(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE application_name = 'bredon-listener' AND datname = current_database()"
        )
    finally:
        await connection.close()
    assert ended == 1
    # Listening again: told that notifications may have been missed, then hears the next ones.
    await eventually(lambda: heard == [""], "the listener told it listens again")
    await sending.notify(CHANNEL, "after")
    await eventually(lambda: heard == ["", "after"], "a notification after the reconnection")


async def test_a_game_changed_in_one_process_leaves_the_caches_of_the_others(
    two_processes: tuple[Services, Services],
) -> None:
    here, there = two_processes
    game = await start_game(here)
    await play(here, game.id, "a1 e5 c3")
    assert here.games.is_cached(game.id)
    await play(there, game.id, "d4")
    await eventually(lambda: not here.games.is_cached(game.id), "the stale position dropped")
    await play(here, game.id, "c4")  # loaded afresh, and played on
    assert here.games.is_cached(game.id)
    assert (await here.games.position(game.id)).tps() == (await there.games.get(game.id)).tps


async def test_an_outbox_item_another_process_holds_is_passed_over(
    two_processes: tuple[Services, Services], db_path: str
) -> None:
    """Another process is claiming the item (its row is locked): the claim gives it up at once
    rather than waiting for the lock and being refused as busy; once free, it is claimed."""
    here, _ = two_processes
    await start_game(here)
    item = (await here.outbox.due())[0]
    other = await asyncpg.connect(db_path)
    try:
        async with other.transaction():
            await other.execute("SELECT id FROM outbox WHERE id = $1 FOR UPDATE", item.id)
            assert await here.outbox.claim(item.id) is None
        claimed = await here.outbox.claim(item.id)
        assert claimed is not None and claimed.id == item.id
    finally:
        await other.close()


async def ignore_report(_report: object) -> None:
    """A scheduler's report handler for a test that only looks at its timing."""


async def test_a_time_out_another_process_holds_is_passed_over(
    two_processes: tuple[Services, Services], clock: FakeClock, db_path: str
) -> None:
    here, _ = two_processes
    game = await start_game(here)
    await play(here, game.id, "a1 e5")
    await deliver_everything(here, clock)
    clock.advance(days=30)
    other = await asyncpg.connect(db_path)
    try:
        async with other.transaction():
            await other.execute("SELECT id FROM games WHERE id = $1 FOR UPDATE", game.id)
            report = await here.deadlines.run_due()
            assert report.endings == [] and report.reminders == []
            assert report.held_elsewhere == 1
            # Still due, but held: the scheduler looks again after a pause, not at once (it
            # would otherwise spin while the other process holds the row).
            scheduler = DeadlineScheduler(here.deadlines, here.clock, ignore_report)
            assert await scheduler.run_once() >= BUSY_RETRY
        report = await here.deadlines.run_due()
        assert [ending.game.id for ending in report.endings] == [game.id]
        assert report.held_elsewhere == 0
    finally:
        await other.close()


async def run_together(first: Services, second: Services, job: str) -> None:
    """Run a job of both processes at once until neither finds anything more to do; a run
    refused as busy (the other process was doing the same) is tried again, as the scheduler
    does, a bounded number of times."""
    for _ in range(50):
        done = await asyncio.gather(
            getattr(first, job).run_due(), getattr(second, job).run_due(), return_exceptions=True
        )
        for outcome in done:
            if isinstance(outcome, BaseException) and not isinstance(outcome, StoreBusy):
                raise outcome
        if all(outcome == 0 for outcome in done):
            return
    raise AssertionError(f"{job} still had work after 50 runs of both processes")


async def test_digests_are_written_once_when_two_processes_run_them_together(
    two_processes: tuple[Services, Services], clock: FakeClock
) -> None:
    here, there = two_processes
    await start_game(here)  # Alice and Bob play
    for player in (ALICE, BOB):
        await here.notifications.choose(player.id, GUILD, "digest", hour=8, zone="UTC")
    for _ in range(3):  # three days
        clock.advance(days=1)
        await run_together(here, there, "notifications")
    rows = await here.db.fetchall("SELECT stream FROM outbox WHERE kind = ?", (DigestDue.KIND,))
    assert sorted(row["stream"] for row in rows) == sorted(
        f"digest:{GUILD}:{player.id}" for player in (ALICE, BOB) for _ in range(3)
    )


async def test_a_check_in_is_announced_once_when_two_processes_run_it_together(
    two_processes: tuple[Services, Services], clock: FakeClock
) -> None:
    here, there = two_processes
    deadline = clock.now() + timedelta(days=2)
    tournament = await new_tournament(
        here, (ANN, BEN, CAT, DAN), signup_deadline=deadline, checkin=timedelta(days=1)
    )
    clock.advance(days=1, minutes=1)
    await run_together(here, there, "entry")
    clock.advance(hours=12)
    await run_together(here, there, "entry")
    rows = await here.db.fetchall(
        "SELECT payload FROM outbox WHERE kind = ? AND stream = ?",
        (TournamentNews.KIND, f"tournament:{tournament.id}"),
    )
    headlines = [row["payload"] for row in rows]
    assert sum(Headline.CHECKIN_OPEN.value in text for text in headlines) == 1
    assert sum(Headline.CHECKIN_REMINDER.value in text for text in headlines) == 1


async def test_a_game_times_out_once_when_two_schedulers_run_together(
    two_processes: tuple[Services, Services], clock: FakeClock
) -> None:
    here, there = two_processes
    games = [await start_game(here) for _ in range(6)]
    for game in games:
        await play(here, game.id, "a1 e5")
    await deliver_everything(here, clock)
    clock.advance(days=30)
    reports = await asyncio.gather(
        here.deadlines.run_due(), there.deadlines.run_due(), return_exceptions=True
    )
    refused = [r for r in reports if isinstance(r, BaseException)]
    assert all(isinstance(r, StoreBusy) for r in refused), refused  # busy, nothing else
    ended = [e.game.id for r in reports if not isinstance(r, BaseException) for e in r.endings]
    assert len(ended) == len(set(ended))
    for _ in range(10):  # what a busy refusal left
        if not (await here.deadlines.due()).timeouts:
            break
        await here.deadlines.run_due()
    rows = await here.db.fetchall("SELECT stream FROM outbox WHERE kind = ?", (GameEnded.KIND,))
    assert sorted(row["stream"] for row in rows) == sorted(f"game:{g.id}" for g in games)


class CountedWakes:
    """Stands in for the bot's deadline scheduler: counts the wake-ups."""

    def __init__(self) -> None:
        self.wakes = 0

    def wake(self) -> None:
        self.wakes += 1

    async def stop(self) -> None:
        return None


async def test_the_bot_wakes_and_is_woken_by_the_other_processes(
    db_path: str, clock: FakeClock
) -> None:
    """An announcement enqueued, or a deadline made sooner, by another process wakes this bot's
    courier and scheduler; a deadline made sooner here wakes the other processes."""
    other = await Services.open(db_path, clock=clock)
    services = await Services.open(db_path, clock=clock)
    try:
        async with create_bot(Settings(token=None, database=db_path), services=services) as bot:
            scheduler = CountedWakes()
            bot.scheduler = scheduler  # type: ignore[assignment]
            couriers_woken: list[None] = []

            async def on_outbox_written() -> None:
                couriers_woken.append(None)

            bot.add_listener(on_outbox_written)
            await bot.follow_other_processes()
            heard_elsewhere: list[str] = []
            await other.db.listen(SCHEDULE_CHANNEL, heard_elsewhere.append)

            await start_game(other)  # enqueues the game's start
            await eventually(lambda: bool(couriers_woken), "the courier woken")
            await other.db.notify(SCHEDULE_CHANNEL)  # what wake_scheduler sends
            await eventually(lambda: scheduler.wakes == 1, "the scheduler woken")
            bot.wake_scheduler()
            assert scheduler.wakes == 2  # this one at once
            await eventually(lambda: heard_elsewhere == [""], "the other's scheduler woken")
    finally:
        await other.close()
