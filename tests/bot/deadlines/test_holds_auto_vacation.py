"""Automatic vacation (opt-in): a player whose time runs out with vacation days left takes one day
instead of losing on time; one day covers every game due at once; without days (or where
vacations are forbidden) the loss happens as before."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from datetime import datetime, timedelta

import pytest

from bot import errors
from bot.deadlines.holds import VacationReport
from bot.errors import StoreBusy
from bot.games.model import GameView
from bot.notifications.outbox import ClockEvent
from bot.services import Services
from bot.store import to_db
from tak import ResultKind
from tests.bot.conftest import ALICE, BOB, CAROL, GUILD, deliver_everything, play
from tests.bot.deadlines.test_holds import cup_without_vacations, game_between
from tests.databases import REFUSED_BY_SCHEMA

DAY = timedelta(days=1)


async def clock_news(services: Services, game_id: int) -> list[dict]:
    rows = await services.db.fetchall(
        "SELECT payload FROM outbox WHERE kind = 'clock' AND stream = ? ORDER BY id",
        (f"game:{game_id}",),
    )
    return [json.loads(row["payload"]) for row in rows]


async def opt_in(services: Services, player) -> None:
    await services.players.register(player)
    profile = await services.players.set_auto_vacation(player.id, True)
    assert profile.auto_vacation


async def test_off_by_default_the_game_is_lost_on_time(services, clock) -> None:
    game = await game_between(services, ALICE, BOB, days_per_move=2)
    await play(services, game.id, "a1 e5")
    assert not (await services.players.get(ALICE.id)).auto_vacation
    clock.advance(days=2)
    report = await services.deadlines.run_due()
    assert [(e.game.id, e.result.kind) for e in report.endings] == [(game.id, ResultKind.TIME)]
    assert report.vacations_taken == []
    assert (await services.holds.vacation_status(GUILD, ALICE.id)).days_used == 0


async def test_a_day_is_taken_from_the_deadline_and_the_game_goes_on(services, clock) -> None:
    game = await game_between(services, ALICE, BOB, days_per_move=2)
    await play(services, game.id, "a1 e5")  # Alice to move
    await opt_in(services, ALICE)
    deadline = (await services.games.get(game.id)).deadline_at
    assert deadline is not None
    clock.set(deadline + timedelta(minutes=3))  # the scheduler wakes a little late
    report = await services.deadlines.run_due()
    assert report.endings == []
    [taken] = report.vacations_taken
    assert (taken.vacation.player_id, taken.vacation.started_at) == (ALICE.id, deadline)
    assert taken.vacation.ends_at == deadline + DAY
    assert [g.id for g in taken.held] == [game.id]
    assert taken.days_left == 13
    status = await services.holds.vacation_status(GUILD, ALICE.id)
    assert (status.days_used, status.days_left) == (1, 13)
    held = await services.games.get(game.id)
    assert held.is_active and held.frozen_at == deadline
    [news] = await clock_news(services, game.id)
    assert (news["event"], news["player_id"], news["days_left"]) == (
        ClockEvent.AUTO_VACATION.value,
        ALICE.id,
        13,
    )
    # The default reminder comes at 80% of the day, which ends the turn of a player out of time.
    assert await services.deadlines.next_due_at() == deadline + DAY * 0.8
    clock.advance(hours=20)
    await play(services, game.id, "b1")  # Alice moves during her vacation day
    clock.set(deadline + DAY)
    ended = await services.deadlines.run_due()
    assert [r.vacation.player_id for r in ended.vacations_ended] == [ALICE.id]
    assert ended.vacations_taken == [] and ended.endings == []
    # Bob's turn began where the clock stood still, at the deadline: his two days count from
    # the vacation's end.
    assert (await services.games.get(game.id)).deadline_at == deadline + DAY + 2 * DAY


async def opted_in_with_days(services: Services, days: int) -> tuple[GameView, datetime]:
    """A one-day game (after `a1 e5`, Alice to move) in a server allowing `days` vacation days,
    Alice opted in: the game and Alice's deadline."""
    settings = await services.guilds.get(GUILD)
    await services.guilds.save(replace(settings, vacation_days=days))
    game = await game_between(services, ALICE, BOB, days_per_move=1)
    await play(services, game.id, "a1 e5")
    await opt_in(services, ALICE)
    deadline = (await services.games.get(game.id)).deadline_at
    assert deadline is not None
    return game, deadline


async def test_day_after_day_until_none_are_left_then_the_loss(services, clock) -> None:
    game, deadline = await opted_in_with_days(services, 2)
    clock.set(deadline)
    assert [r.days_left for r in (await services.deadlines.run_due()).vacations_taken] == [1]
    clock.set(deadline + DAY)  # the day ends with no move: the deadline is due again
    report = await services.deadlines.run_due()
    assert len(report.vacations_ended) == 1
    [second] = report.vacations_taken
    assert (second.vacation.started_at, second.days_left) == (deadline + DAY, 0)
    clock.set(deadline + 2 * DAY)
    report = await services.deadlines.run_due()
    assert report.vacations_taken == []
    assert [(e.game.id, e.result.kind) for e in report.endings] == [(game.id, ResultKind.TIME)]
    assert report.endings[0].game.winner == BOB
    events = [n["event"] for n in await clock_news(services, game.id)]
    # Each day's end says nothing of its own: the next day, or the loss, follows at once.
    assert events == ["auto_vacation", "auto_vacation"]


async def test_one_day_covers_every_game_due_at_once(services, clock) -> None:
    """Alice is out of time in two games at once and waits for Carol in a third: one vacation
    day stops all three clocks; both due games say the day was taken, the third that she is on
    vacation."""
    first = await game_between(services, ALICE, BOB, days_per_move=1)
    second = await game_between(services, ALICE, CAROL, days_per_move=1)
    waiting = await game_between(services, CAROL, ALICE, days_per_move=3)
    for game in (first, second):
        await play(services, game.id, "a1 e5")
    await play(services, waiting.id, "a1 e5")  # Carol to move, two days left after Alice's
    await opt_in(services, ALICE)
    clock.advance(days=1, hours=1)  # past both of Alice's deadlines
    report = await services.deadlines.run_due()
    assert report.endings == []
    [taken] = report.vacations_taken
    assert sorted(g.id for g in taken.held) == [first.id, second.id, waiting.id]
    status = await services.holds.vacation_status(GUILD, ALICE.id)
    assert (status.days_used, status.current) == (1, taken.vacation)
    for game in (first, second, waiting):
        assert (await services.games.get(game.id)).frozen_at is not None
    assert [n["event"] for n in await clock_news(services, first.id)] == ["auto_vacation"]
    assert [n["event"] for n in await clock_news(services, second.id)] == ["auto_vacation"]
    assert [n["event"] for n in await clock_news(services, waiting.id)] == ["vacation"]
    # The game whose time-out took the day lists every game stopped, for the one DM.
    [first_news] = await clock_news(services, first.id)
    assert first_news["held"] == sorted([first.id, second.id, waiting.id])
    assert [n["held"] for n in await clock_news(services, second.id)] == [[]]
    assert not await services.deadlines.due()


async def test_a_game_due_later_than_the_day_began_keeps_its_time(services, clock) -> None:
    """The scheduler wakes six hours late: the day began at the first deadline, when Alice still
    had five hours in her other game; that game keeps them and is told she is on vacation."""
    first = await game_between(services, ALICE, BOB, days_per_move=1)
    await play(services, first.id, "a1 e5")
    clock.advance(hours=5)
    later = await game_between(services, ALICE, CAROL, days_per_move=1)
    await play(services, later.id, "a1 e5")
    await opt_in(services, ALICE)
    deadline = (await services.games.get(first.id)).deadline_at
    assert deadline is not None
    clock.set(deadline + timedelta(hours=6))
    [taken] = (await services.deadlines.run_due()).vacations_taken
    assert taken.vacation.started_at == deadline
    held = await services.games.get(later.id)
    assert held.frozen_at == deadline and held.deadline_at - deadline == timedelta(hours=5)
    assert [n["event"] for n in await clock_news(services, first.id)] == ["auto_vacation"]
    assert [n["event"] for n in await clock_news(services, later.id)] == ["vacation"]


async def test_two_processes_settling_two_due_games_take_one_day(db_path, clock) -> None:
    """Two processes each settle one of Alice's two due games at the same time: one takes the
    day, the other finds its game held, or is refused as busy and finds it held on looking
    again (as the scheduler does); never two days, never a loss."""
    one = await Services.open(db_path, clock=clock)
    two = await Services.open(db_path, clock=clock)
    try:
        games = [await game_between(one, ALICE, player, days_per_move=1) for player in (BOB, CAROL)]
        for game in games:
            await play(one, game.id, "a1 e5")
        await opt_in(one, ALICE)
        clock.advance(days=1)
        await deliver_everything(one, clock)
        settled = await asyncio.gather(
            one.deadlines.time_out(games[0].id),
            two.deadlines.time_out(games[1].id),
            return_exceptions=True,
        )
        assert all(isinstance(s, VacationReport | StoreBusy) or s is None for s in settled)
        assert sum(isinstance(s, VacationReport) for s in settled) == 1, settled
        for services in (one, two):
            report = await services.deadlines.run_due()
            assert report.endings == [] and report.vacations_taken == []
        status = await one.holds.vacation_status(GUILD, ALICE.id)
        assert status.current is not None and status.days_used == 1
        for game in games:
            assert (await one.games.get(game.id)).frozen_at is not None
    finally:
        await one.close()
        await two.close()


async def test_no_day_where_vacations_are_forbidden_or_turned_off(services, clock) -> None:
    tournament = await cup_without_vacations(services)
    await services.tournaments.start(tournament.id, actor_id=ALICE.id, is_organizer=True)
    [cup_game] = await services.lookup.games_for_player(BOB.id, guild_id=GUILD)
    await opt_in(services, ALICE)
    await opt_in(services, BOB)
    mover = cup_game.player_to_move
    clock.advance(days=2)
    report = await services.deadlines.run_due()
    assert report.vacations_taken == []
    assert [(e.game.id, e.result.kind) for e in report.endings] == [(cup_game.id, ResultKind.TIME)]
    assert report.endings[0].game.winner == cup_game.opponent_of(mover.id)

    settings = await services.guilds.get(GUILD)
    await services.guilds.save(replace(settings, vacation_days=0))
    friendly = await game_between(services, ALICE, BOB, days_per_move=1)
    await play(services, friendly.id, "a1 e5")
    clock.advance(days=1)
    report = await services.deadlines.run_due()
    assert report.vacations_taken == []
    assert [e.game.id for e in report.endings] == [friendly.id]


async def test_a_bot_down_for_days_takes_them_one_after_another(services, clock) -> None:
    """The scheduler wakes a day and a half past the deadline: the first day ran from the
    deadline and is over, so the second is taken from its end; Alice's move still counts."""
    game = await game_between(services, ALICE, BOB, days_per_move=1)
    await play(services, game.id, "a1 e5")
    await opt_in(services, ALICE)
    deadline = (await services.games.get(game.id)).deadline_at
    assert deadline is not None
    clock.set(deadline + DAY + timedelta(hours=12))
    first = await services.deadlines.run_due()
    assert [r.vacation.started_at for r in first.vacations_taken] == [deadline]
    assert await services.deadlines.next_due_at() == deadline + DAY  # at once: overdue
    second = await services.deadlines.run_due()
    assert [r.vacation.started_at for r in second.vacations_taken] == [deadline + DAY]
    assert second.endings == []
    await play(services, game.id, "b1")
    assert (await services.holds.vacation_status(GUILD, ALICE.id)).days_used == 2


async def test_the_setting_is_kept_and_turned_off(services) -> None:
    await opt_in(services, ALICE)
    assert (await services.players.get(ALICE.id)).auto_vacation
    assert not (await services.players.set_auto_vacation(ALICE.id, False)).auto_vacation
    assert not (await services.players.get(ALICE.id)).auto_vacation


async def test_a_reminder_promises_a_day_only_where_one_would_be_taken(services, clock) -> None:
    """What the reminder says follows the checks of the deadline itself, not the setting alone."""
    tournament = await cup_without_vacations(services)
    await services.tournaments.start(tournament.id, actor_id=ALICE.id, is_organizer=True)
    [cup_game] = await services.lookup.games_for_player(BOB.id, guild_id=GUILD)
    friendly = await game_between(services, ALICE, BOB, days_per_move=1)
    await play(services, friendly.id, "a1 e5")  # Alice to move
    for player in (ALICE, BOB):
        await opt_in(services, player)
    clocks, deadline = services.holds, clock.now() + DAY
    assert await clocks.takes_vacation_day(friendly.id, deadline)
    assert not await clocks.takes_vacation_day(cup_game.id, deadline)  # vacations forbidden
    await services.players.set_auto_vacation(ALICE.id, False)
    assert not await clocks.takes_vacation_day(friendly.id, deadline)  # not opted in
    await opt_in(services, ALICE)
    settings = await services.guilds.get(GUILD)
    await services.guilds.save(replace(settings, vacation_days=0))
    assert not await clocks.takes_vacation_day(friendly.id, deadline)  # turned off


async def on_an_automatic_day(services, clock):
    """Alice out of time in a game with Bob and waiting for Carol in another, two hours into
    the automatic day taken instead of the loss: (that game, the other, the day's start)."""
    game = await game_between(services, ALICE, BOB, days_per_move=1)
    other = await game_between(services, CAROL, ALICE, days_per_move=3)
    await play(services, game.id, "a1 e5")
    await play(services, other.id, "a1 e5")
    await opt_in(services, ALICE)
    deadline = (await services.games.get(game.id)).deadline_at
    assert deadline is not None
    clock.set(deadline)
    assert len((await services.deadlines.run_due()).vacations_taken) == 1
    clock.advance(hours=2)
    return game, other, deadline


async def test_an_automatic_day_cannot_end_before_the_move(services, clock) -> None:
    """Ending it would restart a clock whose time ran out: the next day, or the loss, at once.
    Refused, changing nothing; after the move it ends as any vacation does."""
    game, other, deadline = await on_an_automatic_day(services, clock)
    before = await services.holds.vacation_status(GUILD, ALICE.id)
    with pytest.raises(errors.VacationRefused, match=f"Move in game #{game.id} first"):
        await services.holds.end_vacation(GUILD, ALICE.id)
    assert await services.holds.vacation_status(GUILD, ALICE.id) == before
    assert (await services.games.get(game.id)).frozen_at == deadline
    report = await services.deadlines.run_due()
    assert report.vacations_taken == [] and report.endings == []
    assert before.days_used == 1

    await play(services, game.id, "b1")  # Bob's turn, from where the clock stopped
    ended = await services.holds.end_vacation(GUILD, ALICE.id)
    assert sorted(g.id for g in ended.held) == [game.id, other.id]
    assert (await services.holds.vacation_status(GUILD, ALICE.id)).days_used == 1
    assert (await services.games.get(game.id)).deadline_at == clock.now() + DAY


async def test_starting_a_vacation_on_an_automatic_day_extends_it(services, clock) -> None:
    """The player out of time who wants to stay away longer: the day becomes a vacation of
    the days asked for more, and the threads say until when."""
    game, other, deadline = await on_an_automatic_day(services, clock)
    report = await services.holds.start_vacation(GUILD, ALICE, 3)
    assert report.vacation.started_at == deadline
    assert report.vacation.ends_at == deadline + 4 * DAY
    assert sorted(g.id for g in report.held) == [game.id, other.id]
    assert report.days_left == 14 - 4
    status = await services.holds.vacation_status(GUILD, ALICE.id)
    assert (status.current, status.days_used) == (report.vacation, 4)
    news = (await clock_news(services, other.id))[-1]
    assert (news["event"], news["until"]) == ("vacation", to_db(deadline + 4 * DAY))
    clock.set(deadline + DAY)  # the day's planned end passes: nothing happens
    report = await services.deadlines.run_due()
    assert not report.vacations_ended and not report.vacations_taken and not report.endings
    with pytest.raises(errors.VacationRefused, match="1 to 10"):
        await services.holds.start_vacation(GUILD, ALICE, 11)


async def test_the_schema_never_holds_two_open_vacations_of_a_player(services, clock) -> None:
    """The partial unique index `vacations_current` (since migration 0010, on both engines) backs
    the services' one-vacation-at-a-time rule, whatever path inserts one."""
    await on_an_automatic_day(services, clock)
    with pytest.raises(REFUSED_BY_SCHEMA):
        async with services.db.transaction() as tx:
            await tx.insert(
                "INSERT INTO vacations (guild_id, player_id, started_at, ends_at) "
                "VALUES (?, ?, ?, ?)",
                (GUILD, ALICE.id, to_db(clock.now()), to_db(clock.now() + DAY)),
            )
    assert (await services.holds.vacation_status(GUILD, ALICE.id)).days_used == 1


async def test_other_games_hear_of_no_return_between_two_days(services, clock) -> None:
    """A day that ends with no move is followed at once by the next: Alice's other game hears
    she is on vacation again (until the new end), not that she is back in between; after the
    last day, the loss, it hears she is back."""
    settings = await services.guilds.get(GUILD)
    await services.guilds.save(replace(settings, vacation_days=2))
    game, other, deadline = await on_an_automatic_day(services, clock)
    clock.set(deadline + DAY)
    assert len((await services.deadlines.run_due()).vacations_taken) == 1
    assert [n["event"] for n in await clock_news(services, game.id)] == ["auto_vacation"] * 2
    events = [(n["event"], n["until"]) for n in await clock_news(services, other.id)]
    assert events == [("vacation", to_db(deadline + DAY)), ("vacation", to_db(deadline + 2 * DAY))]
    clock.set(deadline + 2 * DAY)
    report = await services.deadlines.run_due()
    assert [e.game.id for e in report.endings] == [game.id]
    last = (await clock_news(services, other.id))[-1]
    assert last["event"] == "vacation_end" and last["deadline"] is not None


async def test_the_last_day_is_reminded_before_its_end_and_the_reminder_promises_no_day(
    services, clock
) -> None:
    """One day left, reminded 2 h before each deadline: the day's end is the turn's real end,
    so the reminder comes 2 h before it (with the clock standing still), says the game is lost
    then, and comes once."""
    await services.holds.set_reminders(GUILD, ALICE, [timedelta(hours=2)])
    game, deadline = await opted_in_with_days(services, 1)
    clock.set(deadline - timedelta(hours=2))
    [before] = (await services.deadlines.run_due()).reminders
    assert before.deadline == deadline
    assert await services.holds.takes_vacation_day(game.id, deadline)
    clock.set(deadline)
    [taken] = (await services.deadlines.run_due()).vacations_taken
    assert taken.days_left == 0
    real_end = deadline + DAY
    assert await services.deadlines.next_due_at() == real_end - timedelta(hours=2)
    clock.set(real_end - timedelta(hours=2, minutes=1))
    assert not await services.deadlines.run_due()
    clock.advance(minutes=1)
    [last] = (await services.deadlines.run_due()).reminders
    assert (last.game.id, last.player, last.deadline) == (game.id, ALICE, real_end)
    assert not await services.holds.takes_vacation_day(game.id, real_end)  # the loss follows
    assert (await services.deadlines.run_due()).reminders == []
    assert await services.deadlines.next_due_at() == real_end
    clock.set(real_end)
    [ending] = (await services.deadlines.run_due()).endings
    assert (ending.game.id, ending.result.kind, ending.game.winner) == (
        game.id,
        ResultKind.TIME,
        BOB,
    )


async def test_each_day_is_reminded_again_and_promises_the_next_while_one_is_left(
    services, clock
) -> None:
    """Two days left, the default reminder (at 80% of the turn): each automatic day is a turn of
    its own, reminded at 80% of it, and the reminder says what its end brings."""
    game, deadline = await opted_in_with_days(services, 2)
    clock.set(deadline)
    await services.deadlines.run_due()
    assert (await services.games.get(game.id)).reminder_at == deadline + DAY * 0.8
    clock.set(deadline + DAY * 0.8)
    [first] = (await services.deadlines.run_due()).reminders
    assert first.deadline == deadline + DAY
    assert await services.holds.takes_vacation_day(game.id, first.deadline)  # one more left
    clock.set(deadline + DAY)
    assert len((await services.deadlines.run_due()).vacations_taken) == 1
    clock.set(deadline + DAY * 1.8)
    [second] = (await services.deadlines.run_due()).reminders
    assert second.deadline == deadline + 2 * DAY
    assert not await services.holds.takes_vacation_day(game.id, second.deadline)


async def test_an_extended_day_is_reminded_before_its_new_end(services, clock) -> None:
    """Staying away longer on an automatic day moves the reminders with the day's end."""
    await services.holds.set_reminders(GUILD, ALICE, [timedelta(hours=2)])
    game, _, deadline = await on_an_automatic_day(services, clock)
    assert (await services.games.get(game.id)).reminder_at == deadline + DAY - timedelta(hours=2)
    await services.holds.start_vacation(GUILD, ALICE, 2)
    new_end = deadline + 3 * DAY
    assert (await services.games.get(game.id)).reminder_at == new_end - timedelta(hours=2)
    clock.set(deadline + DAY - timedelta(hours=2))
    assert (await services.deadlines.run_due()).reminders == []
    clock.set(new_end - timedelta(hours=2))
    [reminder] = (await services.deadlines.run_due()).reminders
    assert (reminder.game.id, reminder.deadline) == (game.id, new_end)
