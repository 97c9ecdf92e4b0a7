"""What the bot says about time: a game's clock and deadline, clock news (pauses, vacations
taken by hand or automatically, time given), reminders and vacations.

Like :mod:`cogs.game_messages`, no Discord calls and no rules: :mod:`bot.timekeeping` decides.
"""

from __future__ import annotations

from datetime import timedelta

from bot.games.model import GameSetup, GameView
from bot.notifications.outbox import ClockEvent, ClockNews
from bot.store import from_db
from bot.timekeeping.control import ClockKind, describe_duration
from bot.timekeeping.deadlines import Reminder
from bot.timekeeping.holds import VacationReport, VacationStatus
from cogs.formatting import display, mention, timestamp


def describe_clock(setup: GameSetup) -> str:
    """ "2 days a move", or the bank or increment besides the days."""
    if setup.clock.kind is ClockKind.MOVE:
        day_word = "day" if setup.days_per_move == 1 else "days"
        return f"{setup.days_per_move} {day_word} a move"
    return setup.clock.describe(setup.days_per_move)


def clock_state(game: GameView) -> str:
    """ " (time runs out in 2 days; bank left 3d)", or why the clock stands still."""
    note = clock_note(game)
    return f" ({note})" if note else ""


def clock_note(game: GameView) -> str:
    """ "time runs out in 2 days; bank left 3d", or why the clock stands still ("" without a
    deadline)."""
    if game.deadline_at is None:
        return ""
    left = game.left_of(game.to_move)
    kind = game.setup.clock.kind
    bank = f"; bank left {describe_duration(left)}" if kind is ClockKind.BANK and left else ""
    if game.frozen_at is not None:
        why = "paused by agreement" if game.paused_at is not None else "a player is on vacation"
        remaining = describe_duration(game.deadline_at - game.frozen_at)
        return f"the clock stands still: {why}; {remaining} left{bank}"
    return f"time runs out {timestamp(game.deadline_at)}{bank}"


def reminder_text(reminder: Reminder, *, auto_vacation: bool = False) -> str:
    """The reminder; when an automatic vacation day would be taken, that this happens instead."""
    then = (
        "then an automatic vacation day is taken if you have one left, else the game is lost "
        "on time"
        if auto_vacation
        else "then the game is lost on time"
    )
    return (
        f"{mention(reminder.player)}, reminder: it is your move in game #{reminder.game.id}. "
        f"Time runs out {timestamp(reminder.deadline)}, {then}."
    )


def clock_news_text(game: GameView, news: ClockNews) -> str:
    """What stopped, restarted or lengthened a game's clock, for the game's thread."""
    who = mention(news.player_id)
    event = ClockEvent(news.event)
    deadline = from_db(news.deadline)
    runs = f" Time runs out {timestamp(deadline)}." if deadline is not None else ""
    if event is ClockEvent.VACATION:
        until = from_db(news.until)
        assert until is not None
        return (
            f"{who} is on vacation until {timestamp(until)}: the clock of game #{game.id} "
            "stands still until then. Moves still go in."
        )
    if event is ClockEvent.AUTO_VACATION:
        until = from_db(news.until)
        assert until is not None
        return (
            f"{who} was out of time in game #{game.id}; an automatic vacation day was taken: "
            f"its clock stands still until {timestamp(until)}. Moves still go in. "
            f"Vacation days left this year: {news.days_left}."
        )
    if event is ClockEvent.VACATION_END:
        return f"{who} is back from vacation: the clock of game #{game.id} runs again.{runs}"
    if event is ClockEvent.PAUSE_OFFER:
        return (
            f"{who} proposes to pause game #{game.id} (no time runs until either of you ends "
            f"it with `/clock resume`). {mention(game.opponent_of(news.player_id))}, do you agree?"
        )
    if event is ClockEvent.PAUSED:
        return f"Game #{game.id} is paused: no time runs until either player uses `/clock resume`."
    if event is ClockEvent.PAUSE_END:
        still = "" if runs else " (it still stands still: a player is on vacation)"
        return f"{who} ended the pause in game #{game.id}: the clock runs again{still}.{runs}"
    extra = describe_duration(timedelta(seconds=news.extra))
    given = game.opponent_of(news.player_id)  # only the player waiting gives time
    return f"{who} gave {mention(given)} {extra} more in game #{game.id}.{runs}"


def auto_vacation_dm_text(news: ClockNews) -> str:
    """What the player's one DM about an automatic vacation day adds: every game it stopped."""
    games = ", ".join(f"#{game_id}" for game_id in news.held)
    return f"The clocks of your games here stand still until then: {games}."


def gave_time_text(game: GameView, extra: timedelta) -> str:
    """The giver's own reply: to whom, how much."""
    return f"You gave {display(game.player_to_move.name)} {describe_duration(extra)} more"


def vacation_text(report: VacationReport) -> str:
    """The reply to `/clock vacation start` or `end`."""
    vacation = report.vacation
    games = ", ".join(f"#{g.id}" for g in report.held) or "none"
    if vacation.ended_at is None:
        text = (
            f"You are on vacation until {timestamp(vacation.ends_at)}. The clocks of your games "
            f"here stand still until then (games: {games}); moves still go in. End it early "
            "with `/clock vacation end`."
        )
    else:
        text = f"Welcome back: the clocks of your games run again (games: {games})."
    if report.not_held and vacation.ended_at is None:
        running = ", ".join(f"#{g.id}" for g in report.not_held)
        text += f" Not paused: {running}, of a tournament that does not allow vacations."
    return f"{text} Vacation days left this year: {report.days_left}."


def vacation_status_text(status: VacationStatus) -> str:
    if status.days_allowed == 0:
        return "Vacations are turned off in this server."
    text = (
        f"You have used {status.days_used} of {status.days_allowed} vacation days this year; "
        f"{status.days_left} left."
    )
    if status.current is not None:
        text += f" You are on vacation until {timestamp(status.current.ends_at)}."
    return text


def reminders_text(offsets: tuple[timedelta, ...] | None) -> str:
    if offsets is None:
        return (
            "You are reminded once, when 80% of the time for a move has passed. Choose your own "
            "times with e.g. `/clock reminders times:1d 2h`."
        )
    if not offsets:
        return "You get no reminders before deadlines here (`times:default` brings them back)."
    times = " and ".join(describe_duration(offset) for offset in offsets)
    return f"You are reminded {times} before each deadline in this server."
