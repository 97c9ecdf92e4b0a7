"""Daily digests: due at the chosen local hour on both sides of daylight-saving changes, durable,
and written once however long the bot was away; per-server notification choices."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.deadlines.scheduler import DeadlineScheduler
from bot.errors import InvalidSetting
from bot.languages import speaking
from bot.notifications.digest import next_digest_at, suggest_zones, time_zone
from bot.players.model import NotifyMode
from bot.services import Services
from bot.timekeeping.clock import FakeClock
from cogs.words.notification_messages import MAX_MESSAGE, digest_text
from tests.bot.conftest import ALICE, BOB, GUILD, Player, Starter

LONDON = ZoneInfo("Europe/London")
NEW_YORK = ZoneInfo("America/New_York")


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


def digests_from(start: datetime, hour: int, zone: ZoneInfo, count: int) -> list[datetime]:
    """The next `count` digest instants, each computed from the one before (as after a send)."""
    due, out = start, []
    for _ in range(count):
        due = next_digest_at(due, hour, zone)
        out.append(due)
    return out


# Published dates: the UK changes at 01:00 UTC on the last Sunday of March and October, the US
# at 02:00 local on the second Sunday of March and the first Sunday of November.
LONDON_MARCH = [utc(2026, 3, 28, 8), utc(2026, 3, 29, 7), utc(2026, 3, 30, 7)]
LONDON_OCTOBER = [utc(2026, 10, 24, 7), utc(2026, 10, 25, 8), utc(2026, 10, 26, 8)]
NY_MARCH = [utc(2026, 3, 7, 14), utc(2026, 3, 8, 13), utc(2026, 3, 9, 13)]
NY_NOVEMBER = [utc(2026, 10, 31, 13), utc(2026, 11, 1, 14), utc(2026, 11, 2, 14)]


@pytest.mark.parametrize(
    ("zone", "start", "hour", "expected"),
    [
        (LONDON, utc(2026, 3, 27, 12), 8, LONDON_MARCH),
        (LONDON, utc(2026, 10, 23, 12), 8, LONDON_OCTOBER),
        (NEW_YORK, utc(2026, 3, 6, 20), 9, NY_MARCH),
        (NEW_YORK, utc(2026, 10, 30, 20), 9, NY_NOVEMBER),
        # 01:00 does not exist in London on 29 March: sent as the clocks jump (02:00 BST).
        (LONDON, utc(2026, 3, 28, 2), 1, [utc(2026, 3, 29, 1), utc(2026, 3, 30, 0)]),
        # 02:00 does not exist in New York on 8 March: sent at 03:00 EDT, the jump.
        (NEW_YORK, utc(2026, 3, 7, 8), 2, [utc(2026, 3, 8, 7), utc(2026, 3, 9, 6)]),
        # 01:00 happens twice in New York on 1 November: sent at the first (EDT), once.
        (NEW_YORK, utc(2026, 10, 31, 6), 1, [utc(2026, 11, 1, 5), utc(2026, 11, 2, 6)]),
    ],
    ids=[
        "london-march",
        "london-october",
        "ny-march",
        "ny-november",
        "london-gap",
        "ny-gap",
        "ny-fold",
    ],
)
def test_digest_instants_around_daylight_saving_changes(
    zone: ZoneInfo, start: datetime, hour: int, expected: list[datetime]
) -> None:
    got = digests_from(start, hour, zone, len(expected))
    assert got == expected
    for due in got:  # on the chosen hour of the wall clock, or the jump over it
        local = due.astimezone(zone)
        assert local.minute == 0 and local.hour in (hour, hour + 1)


def brute_force_digest(after: datetime, hour: int, zone: ZoneInfo) -> datetime:
    """Independent of the code under test: walk UTC in 15-minute steps and take the first
    instant after `after` at which the wall clock reaches `hour`:00 of its day for the first
    time that day (reaching it by a jump counts; coming back to it after a fall-back does
    not)."""
    step = timedelta(minutes=15)
    t = (after - timedelta(days=2)).replace(minute=0, second=0, microsecond=0)
    seen_days = set()
    previous = t.astimezone(zone).replace(tzinfo=None)
    while True:
        t += step
        wall = t.astimezone(zone).replace(tzinfo=None)
        target = wall.replace(hour=hour, minute=0, second=0, microsecond=0)
        if previous < target <= wall and wall.date() not in seen_days:
            seen_days.add(wall.date())
            if t > after:
                return t
        previous = wall


ZONES = [
    "Europe/London",
    "America/New_York",
    "Australia/Lord_Howe",  # a 30-minute change
    "America/Santiago",  # changes at midnight
    "Asia/Kathmandu",  # +05:45
    "Pacific/Chatham",
    "UTC",
]


@settings(max_examples=150, deadline=None)
@given(
    st.datetimes(min_value=datetime(2024, 1, 1), max_value=datetime(2030, 12, 31)),
    st.integers(0, 23),
    st.sampled_from(ZONES),
)
def test_digest_instant_matches_a_brute_force_walk(after: datetime, hour: int, name: str) -> None:
    moment = after.replace(tzinfo=UTC)
    zone = ZoneInfo(name)
    assert next_digest_at(moment, hour, zone) == brute_force_digest(moment, hour, zone)


def test_time_zone_names_are_checked_and_suggested() -> None:
    assert time_zone("europe/london").key == "Europe/London"
    with pytest.raises(InvalidSetting, match="not a time zone I know"):
        time_zone("Mars/Olympus")
    with pytest.raises(InvalidSetting):
        time_zone("localtime")
    assert "America/New_York" in suggest_zones("york")
    assert suggest_zones("Europe/Lon") == ["Europe/London"]
    assert len(suggest_zones("")) == 25


@pytest.fixture
async def digest_services(services: Services, new_game: Starter, moves: Player) -> Services:
    """Bob has the move in one game; he has registered (by starting it)."""
    game = await new_game(days_per_move=7)
    await moves(game.id, "a1")
    return services


async def digest_count(services: Services) -> int:
    row = await services.db.fetchone("SELECT COUNT(*) FROM outbox WHERE kind = 'digest'")
    assert row is not None
    return int(row[0])


async def test_a_bot_away_for_days_writes_one_digest_when_back(
    digest_services: Services, clock: FakeClock
) -> None:
    services = digest_services
    clock.set(utc(2026, 1, 10, 12))
    notifications = services.notifications
    prefs = await notifications.choose(BOB.id, GUILD, "digest", hour=8, zone="Europe/London")
    assert prefs.next_digest_at == utc(2026, 1, 11, 8)
    assert await services.notifications.next_due_at() == utc(2026, 1, 11, 8)

    clock.set(utc(2026, 1, 13, 9, 30))  # away across three digest hours
    assert await services.notifications.run_due() == 1
    assert await services.notifications.run_due() == 0  # a second look (or scheduler) adds none
    assert await digest_count(services) == 1
    assert await services.notifications.next_due_at() == utc(2026, 1, 14, 8)

    clock.set(utc(2026, 1, 14, 8))
    assert await services.notifications.run_due() == 1
    assert await digest_count(services) == 2


async def test_the_scheduler_loop_sends_at_8_local_across_the_march_change(
    digest_services: Services, clock: FakeClock
) -> None:
    """Following next_due_at as the scheduler does: one digest a day, at 08:00 in London."""
    services = digest_services
    clock.set(utc(2026, 3, 25, 12))
    await services.notifications.choose(BOB.id, GUILD, "digest", hour=8, zone="Europe/London")
    sent = []
    for _ in range(6):
        due = await services.notifications.next_due_at()
        assert due is not None
        clock.set(due)
        assert await services.notifications.run_due() == 1
        sent.append(due)
    assert [d.astimezone(LONDON).hour for d in sent] == [8] * 6
    assert [d.hour for d in sent] == [8, 8, 8, 7, 7, 7]  # UTC: GMT, then BST from 29 March


async def test_choices_are_per_server_and_checked(digest_services: Services) -> None:
    services = digest_services
    other_guild = GUILD + 1
    await services.notifications.choose(ALICE.id, GUILD, "dm")
    assert (await services.notifications.get(ALICE.id, GUILD)).mode is NotifyMode.DM
    assert (await services.notifications.get(ALICE.id, other_guild)).mode is NotifyMode.MENTION
    with pytest.raises(InvalidSetting, match="needs your time zone"):
        await services.notifications.choose(ALICE.id, GUILD, "digest")
    with pytest.raises(InvalidSetting, match="not a time zone"):
        await services.notifications.choose(ALICE.id, GUILD, "digest", zone="Narnia/Cair")
    with pytest.raises(InvalidSetting, match="'mention', 'dm' or 'digest'"):
        await services.notifications.choose(ALICE.id, GUILD, "pigeon")
    assert (await services.notifications.get(ALICE.id, GUILD)).mode is NotifyMode.DM  # unchanged
    prefs = await services.notifications.choose(ALICE.id, GUILD, "digest", zone="Asia/Tokyo")
    assert (prefs.digest_hour, prefs.time_zone) == (8, "Asia/Tokyo")
    back = await services.notifications.choose(ALICE.id, GUILD, "mention")
    assert back.next_digest_at is None and await services.notifications.next_due_at() is None


async def test_awaiting_lists_only_games_where_it_is_the_players_move(
    digest_services: Services, new_game: Starter
) -> None:
    services = digest_services
    await new_game(days_per_move=3)  # alice to move in this one
    waiting = await services.lookup.awaiting(BOB.id, GUILD)
    assert [g.id for g in waiting] == [1]
    assert [g.id for g in await services.lookup.awaiting(ALICE.id, GUILD)] == [2]
    assert await services.lookup.awaiting(BOB.id, GUILD + 1) == []


async def test_a_refused_dm_is_told_once(digest_services: Services) -> None:
    services = digest_services
    assert await services.notifications.take_unreachable(BOB.id, GUILD) is None
    await services.notifications.mark_unreachable(BOB.id, GUILD)
    assert await services.notifications.take_unreachable(BOB.id, GUILD) is not None
    assert await services.notifications.take_unreachable(BOB.id, GUILD) is None
    assert (await services.notifications.get(BOB.id, GUILD)).mode is NotifyMode.MENTION


async def test_a_long_digest_fits_one_message_and_says_what_it_left_out(
    digest_services: Services, new_game: Starter, moves: Player, clock: FakeClock
) -> None:
    services = digest_services
    for _ in range(11):
        game = await new_game(days_per_move=5)
        await moves(game.id, "a1")
    waiting = await services.lookup.awaiting(BOB.id, GUILD)
    assert len(waiting) == 12
    # The soonest deadline first: the 5-day games (oldest first), then the 7-day one.
    assert [g.id for g in waiting] == [*range(2, 13), 1]
    text = digest_text("W" * 100, waiting, clock.now())
    assert len(text) <= MAX_MESSAGE
    assert text.startswith("Your daily Tak digest for **") and "12 games await your move" in text
    assert text.endswith("...and more: `/tak games` lists them all.")
    listed = [line for line in text.splitlines() if line.startswith("- Game #")]
    assert 3 <= len(listed) < 12
    # In German, longer, likewise.
    with speaking("de"):
        text = digest_text("W" * 100, waiting, clock.now())
    assert len(text) <= MAX_MESSAGE
    assert text.startswith("Deine tägliche Tak-Zusammenfassung für **")
    assert "12 Partien warten auf deinen Zug." in text.splitlines()[0]
    assert text.endswith("…und weitere: `/tak partien` zeigt alle.")
    listed = [line for line in text.splitlines() if line.startswith("- Partie #")]
    assert 3 <= len(listed) < 12


async def test_the_one_scheduler_sleeps_until_the_next_digest_and_wakes_the_courier(
    digest_services: Services, clock: FakeClock
) -> None:
    services = digest_services  # bob's move in a game whose deadline is 7 days away
    await services.notifications.choose(BOB.id, GUILD, "digest", hour=8, zone="Europe/London")
    woken: list[datetime] = []

    async def on_report(report: object) -> None:
        raise AssertionError("no deadline is due")

    scheduler = DeadlineScheduler(
        services.deadlines,
        clock,
        on_report,
        max_sleep=timedelta(days=2),
        duties=(services.notifications,),
        on_duty=lambda: woken.append(clock.now()),
    )
    assert clock.now() == utc(2024, 1, 1, 12)
    assert await scheduler.run_once() == timedelta(hours=20)  # 08:00 GMT the next day
    assert woken == []
    clock.advance(hours=20)
    assert await scheduler.run_once() == timedelta(days=1)
    assert woken == [utc(2024, 1, 2, 8)]
    assert await digest_count(services) == 1
