"""What the bot says about time: a game's clock and deadline, clock news (pauses, vacations
taken by hand or automatically, time given), reminders and vacations.

Like :mod:`cogs.words.game_messages`, no Discord calls and no rules: :mod:`bot.deadlines` and
:mod:`bot.games.turns` decide.
"""

from __future__ import annotations

from datetime import timedelta

from bot.deadlines.holds import VacationReport, VacationStatus
from bot.deadlines.service import Reminder
from bot.games.model import GameSetup, GameView
from bot.games.turns import out_of_time_held
from bot.languages import _
from bot.notifications.outbox import ClockEvent, ClockNews
from bot.store import from_db
from bot.timekeeping.control import ClockKind, describe_duration
from cogs.words.formatting import display, mention, timestamp


def describe_clock(setup: GameSetup) -> str:
    """ "2 days a move", or the bank or increment besides the days."""
    return setup.clock.words(setup.days_per_move)


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
    bank = ""
    if kind is ClockKind.BANK and left:
        bank = _("; bank left {bank}", bank=describe_duration(left))
    if game.frozen_at is not None:
        remaining = describe_duration(game.deadline_at - game.frozen_at)
        if game.paused_at is not None:
            return _(
                "the clock stands still: paused by agreement; {remaining} left{bank}",
                remaining=remaining,
                bank=bank,
            )
        if out_of_time_held(game):  # no time is left after it: the loss, or the next day
            return _("time ran out: a move is due before the vacation ends")
        return _(
            "the clock stands still: a player is on vacation; {remaining} left{bank}",
            remaining=remaining,
            bank=bank,
        )
    return _("time runs out {when}{bank}", when=timestamp(game.deadline_at), bank=bank)


def reminder_text(reminder: Reminder, *, auto_vacation: bool = False) -> str:
    """The reminder; for a player who opted in to automatic vacation, what happens instead."""
    fields = {
        "player": mention(reminder.player),
        "game": reminder.game.id,
        "when": timestamp(reminder.deadline),
    }
    if auto_vacation:
        return _(
            "{player}, reminder: it is your move in game #{game}. Time runs out {when}, then an "
            "automatic vacation day is taken if you have one left, else the game is lost on time.",
            **fields,
        )
    return _(
        "{player}, reminder: it is your move in game #{game}. Time runs out {when}, then the "
        "game is lost on time.",
        **fields,
    )


def clock_news_text(game: GameView, news: ClockNews) -> str:
    """What stopped, restarted or lengthened a game's clock, for the game's thread."""
    who = mention(news.player_id)
    event = ClockEvent(news.event)
    deadline = from_db(news.deadline)
    runs = _(" Time runs out {when}.", when=timestamp(deadline)) if deadline is not None else ""
    if event is ClockEvent.VACATION:
        until = from_db(news.until)
        assert until is not None
        return _(
            "{player} is on vacation until {until}: the clock of game #{game} stands still until "
            "then. Moves still go in.",
            player=who,
            until=timestamp(until),
            game=game.id,
        )
    if event is ClockEvent.AUTO_VACATION:
        until = from_db(news.until)
        assert until is not None
        if news.days_left == 0:  # no day follows this one: the game is lost when it ends
            return _(
                "{player} was out of time in game #{game}; an automatic vacation day was taken, "
                "the last one left this year: unless they move, the game is lost on time "
                "{until}.",
                player=who,
                game=game.id,
                until=timestamp(until),
            )
        return _(
            "{player} was out of time in game #{game}; an automatic vacation day was taken: "
            "its clock stands still until {until}. Moves still go in. Vacation days left this "
            "year: {left}.",
            player=who,
            game=game.id,
            until=timestamp(until),
            left=news.days_left,
        )
    if event is ClockEvent.VACATION_END:
        return _(
            "{player} is back from vacation: the clock of game #{game} runs again.{runs}",
            player=who,
            game=game.id,
            runs=runs,
        )
    if event is ClockEvent.PAUSE_OFFER:
        return _(
            "{player} proposes to pause game #{game} (no time runs until either of you ends it "
            "with `/clock resume`). {opponent}, do you agree?",
            player=who,
            game=game.id,
            opponent=mention(game.opponent_of(news.player_id)),
        )
    if event is ClockEvent.PAUSED:
        return _(
            "Game #{game} is paused: no time runs until either player uses `/clock resume`.",
            game=game.id,
        )
    if event is ClockEvent.PAUSE_END:
        if runs:
            return _(
                "{player} ended the pause in game #{game}: the clock runs again.{runs}",
                player=who,
                game=game.id,
                runs=runs,
            )
        return _(
            "{player} ended the pause in game #{game}: the clock runs again (it still stands "
            "still: a player is on vacation).",
            player=who,
            game=game.id,
        )
    given = game.opponent_of(news.player_id)  # only the player waiting gives time
    return _(
        "{player} gave {opponent} {extra} more in game #{game}.{runs}",
        player=who,
        opponent=mention(given),
        extra=describe_duration(timedelta(seconds=news.extra)),
        game=game.id,
        runs=runs,
    )


def auto_vacation_dm_text(news: ClockNews) -> str:
    """What the player's one DM about an automatic vacation day adds: every game it stopped."""
    games = ", ".join(f"#{game_id}" for game_id in news.held)
    return _("The clocks of your games here stand still until then: {games}.", games=games)


def gave_time_text(game: GameView, extra: timedelta) -> str:
    """The giver's own reply: to whom, how much."""
    return _(
        "You gave {opponent} {extra} more",
        opponent=display(game.player_to_move.name),
        extra=describe_duration(extra),
    )


def vacation_text(report: VacationReport) -> str:
    """The reply to `/clock vacation start` or `end`."""
    vacation = report.vacation
    games = ", ".join(f"#{g.id}" for g in report.held) or _("none")
    if vacation.ended_at is None:
        text = _(
            "You are on vacation until {until}. The clocks of your games here stand still until "
            "then (games: {games}); moves still go in. End it early with `/clock vacation end`.",
            until=timestamp(vacation.ends_at),
            games=games,
        )
    else:
        text = _("Welcome back: the clocks of your games run again (games: {games}).", games=games)
    if report.not_held and vacation.ended_at is None:
        running = ", ".join(f"#{g.id}" for g in report.not_held)
        text += _(
            " Not paused: {games}, of a tournament that does not allow vacations.", games=running
        )
    return text + _(" Vacation days left this year: {left}.", left=report.days_left)


def vacation_status_text(status: VacationStatus) -> str:
    if status.days_allowed == 0:
        return _("Vacations are turned off in this server.")
    text = _(
        "You have used {used} of {allowed} vacation days this year; {left} left.",
        used=status.days_used,
        allowed=status.days_allowed,
        left=status.days_left,
    )
    if status.current is not None:
        text += _(" You are on vacation until {until}.", until=timestamp(status.current.ends_at))
    return text


def reminders_text(offsets: tuple[timedelta, ...] | None) -> str:
    if offsets is None:
        return _(
            "You are reminded once, when 80% of the time for a move has passed. Choose your own "
            "times with e.g. `/clock reminders times:1d 2h`."
        )
    if not offsets:
        return _("You get no reminders before deadlines here (`times:default` brings them back).")
    times = _(" and ").join(describe_duration(offset) for offset in offsets)
    return _("You are reminded {times} before each deadline in this server.", times=times)
