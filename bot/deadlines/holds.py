"""Clocks that stand still or get longer: vacations, pauses by agreement, more time, and the
reminder times players choose.

A game's clock stands still (``games.frozen_at``) while something holds it: a pause both players
agreed to, or the vacation of either player (unless the game's tournament forbids vacations).
Moves still go in while it stands still; a turn that starts then counts from the moment it
stopped. When the last hold ends, the deadline and the next reminder move on by the time the
clock stood still, so no time ran. :func:`settle_clock` is the one place that decides this, from
what holds the game at a given moment; everything that starts or ends a hold calls it in the same
transaction, and the deadline scheduler ends vacations that ran out (at the moment they ended,
however late it wakes) and holds games begun during a vacation
(:func:`end_due_vacations`, :func:`hold_games_begun_on_vacation`).

Vacation days: each player may take the server's ``vacation_days`` a calendar year (UTC). A
vacation's days count in the year it began: all its planned days while it lasts, its days begun
(at least one) once it ended early.

Automatic vacation: a player who opted in (``players.auto_vacation``) and whose time runs out
with vacation days left takes one day from the deadline instead of losing on time
(:func:`take_vacation_day`, called by the deadline service): like a vacation taken by hand it
stops the clocks of all their games in the server, so several games due at once cost one day.
When the day ends with no move, the deadline is due again and the next day is taken, until
none are left. While the player is out of time their turn ends when their vacation does: the
reminders they chose come before that end (:func:`remind_before_return`), and the last day's
reminder and notice say the game is lost then.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta

from bot.errors import (
    InvalidSetting,
    MoreTimeRefused,
    PauseRefused,
    PositionChanged,
    VacationRefused,
)
from bot.games import storage
from bot.games.model import GAME_SELECT, MAX_DAYS_PER_MOVE, GameView, game_from_row
from bot.games.storage import fetch_game
from bot.games.turns import (
    MAX_REMINDER_OFFSET,
    MAX_REMINDERS,
    VACATION_ALLOWED,
    VACATION_HOLDS,
    clock_held,
    encode_offsets,
    next_reminder,
    out_of_time_held,
    reminder_offsets,
)
from bot.guild_settings import fetch_guild_settings
from bot.languages import _
from bot.notifications.outbox import ClockEvent, ClockNews, enqueue
from bot.play.service import require_active
from bot.players.model import PlayerRef
from bot.players.service import fetch_player
from bot.players.storage import save_player
from bot.store import Database, Row, Transaction, from_db, to_db, to_db_or_none
from bot.timekeeping.clock import Clock
from bot.timekeeping.control import describe_duration

MAX_MORE_TIME = timedelta(days=7)  # at a time
MAX_TIME_LEFT = timedelta(days=MAX_DAYS_PER_MOVE + 30)  # more time never leaves more than this
DAY = timedelta(days=1)


async def _give_by_button_once(tx: Transaction, game: GameView, board_ply: int) -> None:
    """Refuse a board's Give 1 day for another turn than its own, or a second one this turn
    (moves and undos raise the game's version); else mark this turn as given."""
    if game.ply != board_ply:
        raise PositionChanged(game.id, board_ply, game.ply)
    row = await tx.fetchone("SELECT version, day_given_version FROM games WHERE id = ?", (game.id,))
    assert row is not None
    if row["day_given_version"] == row["version"]:
        raise MoreTimeRefused(
            _(
                "You have already given a day on this turn of game #{game}: to give more, use "
                "`/clock moretime`.",
                game=game.id,
            )
        )
    await storage.mark_day_given(tx, game.id)


@dataclass(frozen=True, slots=True)
class Vacation:
    id: int
    guild_id: int
    player_id: int
    started_at: datetime
    ends_at: datetime
    ended_at: datetime | None

    @property
    def days_counted(self) -> int:
        """The days it takes from the year's allowance (see the module's notes)."""
        end = self.ends_at if self.ended_at is None else self.ended_at
        return max(1, math.ceil((end - self.started_at) / DAY))


@dataclass(frozen=True, slots=True)
class VacationReport:
    """A vacation begun or ended, the games it held or let go, and the days left this year."""

    vacation: Vacation
    held: list[GameView]  # games whose clock it stopped (or, at its end, let run)
    not_held: list[GameView]  # games of tournaments that forbid vacations: their clocks run
    days_left: int


@dataclass(frozen=True, slots=True)
class VacationStatus:
    current: Vacation | None
    days_allowed: int  # a year, in this server
    days_used: int  # this calendar year (UTC), the current vacation's planned days included

    @property
    def days_left(self) -> int:
        return max(self.days_allowed - self.days_used, 0)


def _vacation(row: Row) -> Vacation:
    started, ends = from_db(row["started_at"]), from_db(row["ends_at"])
    assert started is not None and ends is not None
    return Vacation(
        row["id"], row["guild_id"], row["player_id"], started, ends, from_db(row["ended_at"])
    )


async def settle_clock(
    tx: Transaction, game_id: int, at: datetime, *, stopped_since: datetime | None = None
) -> GameView:
    """Stop or restart the game's clock as what holds it at `at` says. A clock that stops
    stands still from `stopped_since` (default `at`); one that runs again moves its deadline and
    next reminder on by the time it stood still, up to `at` (a turn out of time keeps its
    reminder: that one is a moment in real time, :func:`remind_before_return`)."""
    game = await fetch_game(tx, game_id)
    if not game.is_active:
        return game
    held = await clock_held(tx, game.id, at)
    if held and game.frozen_at is None:
        await storage.stop_clock(tx, game.id, stopped_since or at)
    elif not held and game.frozen_at is not None:
        stood = max(at - game.frozen_at, timedelta(0))
        deadline = None if game.deadline_at is None else game.deadline_at + stood
        reminder = game.reminder_at
        if reminder is not None and not out_of_time_held(game):
            reminder += stood
        await storage.restart_clock(tx, game.id, deadline, reminder)
    return await fetch_game(tx, game.id)


async def _rearm_reminder(tx: Transaction, game: GameView, now: datetime) -> None:
    """After the deadline moved: the next reminder before the new deadline."""
    assert game.deadline_at is not None
    start = game.frozen_at or now
    offsets = await reminder_offsets(tx, game.guild_id, game.player_to_move.id)
    reminder = next_reminder(offsets, start, game.deadline_at, start)
    await storage.set_reminder(tx, game.id, reminder)


async def remind_before_return(tx: Transaction, vacation: Vacation, now: datetime) -> None:
    """The games `vacation`'s player is out of time in end when it does (the next automatic
    day, or the loss): their reminders come at the player's chosen times before that end."""
    offsets = await reminder_offsets(tx, vacation.guild_id, vacation.player_id)
    reminder = next_reminder(offsets, vacation.started_at, vacation.ends_at, now)
    for game in await _out_of_time_on_return(tx, vacation):
        await storage.set_reminder(tx, game.id, reminder)


async def end_of_turn_out_of_time(tx: Transaction, game: GameView) -> datetime | None:
    """When the turn of `game`'s player to move, out of time on a vacation day, ends: when their
    vacation does (None when they are not on vacation)."""
    row = await tx.fetchone(
        "SELECT ends_at FROM vacations WHERE guild_id = ? AND player_id = ? AND ended_at IS NULL",
        (game.guild_id, game.player_to_move.id),
    )
    return None if row is None else from_db(row[0])


async def _active_games(tx: Transaction, guild_id: int, player_id: int) -> list[GameView]:
    rows = await tx.fetchall(
        GAME_SELECT + " WHERE g.guild_id = ? AND g.status = 'active' "
        "AND (g.white_id = ? OR g.black_id = ?) ORDER BY g.id",
        (guild_id, player_id, player_id),
    )
    return [game_from_row(row) for row in rows]


def year_bounds(moment: datetime) -> tuple[datetime, datetime]:
    start = datetime(moment.year, 1, 1, tzinfo=UTC)
    return start, datetime(moment.year + 1, 1, 1, tzinfo=UTC)


async def end_due_vacations(db: Database, now: datetime) -> list[VacationReport]:
    """End the vacations whose time ran out by `now`, each at the moment it ran out."""
    rows = await db.fetchall(
        "SELECT * FROM vacations WHERE ended_at IS NULL AND ends_at <= ? ORDER BY ends_at, id",
        (to_db(now),),
    )
    reports = []
    for row in rows:
        vacation = _vacation(row)
        async with db.transaction() as tx:
            report = await _end_vacation(tx, vacation, vacation.ends_at, now)
        if report is not None:
            reports.append(report)
    return reports


async def hold_games_begun_on_vacation(db: Database, now: datetime) -> int:
    """Stop the clocks of games that began (or whose turn began) while a player was already on
    vacation, from when that turn or the vacation began, whichever is later. Returns how many."""
    rows = await db.fetchall(
        # Driven by the vacations going on (few), not by the games (many).
        "SELECT g.id, MAX(COALESCE(g.last_move_at, g.created_at), MAX(v.started_at)) AS since "
        "FROM vacations v JOIN games g ON g.guild_id = v.guild_id "
        "AND (g.white_id = v.player_id OR g.black_id = v.player_id) "
        "WHERE v.ended_at IS NULL AND v.started_at <= ? AND g.status = 'active' "
        f"AND g.frozen_at IS NULL AND {VACATION_HOLDS} GROUP BY g.id",
        (to_db(now), to_db(now), to_db(now)),
    )
    for row in rows:
        since = from_db(row["since"])
        async with db.transaction() as tx:
            await settle_clock(tx, row["id"], now, stopped_since=since)
    return len(rows)


async def next_vacation_end(db: Database) -> datetime | None:
    row = await db.fetchone("SELECT MIN(ends_at) FROM vacations WHERE ended_at IS NULL")
    return None if row is None else from_db(row[0])


async def _end_vacation(
    tx: Transaction, vacation: Vacation, at: datetime, now: datetime
) -> VacationReport | None:
    changed = await tx.execute(
        "UPDATE vacations SET ended_at = ? WHERE id = ? AND ended_at IS NULL",
        (to_db(at), vacation.id),
    )
    if changed != 1:
        return None  # ended meanwhile
    ended = replace(vacation, ended_at=at)
    held, not_held, overdue = [], [], []
    for game in await _active_games(tx, vacation.guild_id, vacation.player_id):
        was_frozen = game.frozen_at is not None
        settled = await settle_clock(tx, game.id, at)
        if was_frozen and settled.frozen_at is None:
            held.append(settled)
            if settled.deadline_at is not None and settled.deadline_at <= now:
                # Out of time already (an automatic vacation day ran out with no move): the
                # deadline service settles it next (another day, or the loss) and says so.
                overdue.append(settled)
        elif not was_frozen:
            not_held.append(settled)
    if not await _next_day_follows(tx, vacation.player_id, overdue):
        out_of_time = {game.id for game in overdue}
        for settled in held:
            if settled.id in out_of_time:
                continue
            deadline = to_db_or_none(settled.deadline_at)
            news = ClockNews(
                settled.id, ClockEvent.VACATION_END.value, vacation.player_id, deadline
            )
            await enqueue(tx, news, now)
    status = await _status(tx, vacation.guild_id, vacation.player_id, now)
    return VacationReport(ended, held, not_held, status.days_left)


async def _next_day_follows(tx: Transaction, player_id: int, overdue: list[GameView]) -> bool:
    """Whether the deadline service, settling `overdue` (games out of time as a vacation of the
    player ended), will at once take their next automatic vacation day: their other games then
    hear only of that day, not of a return in between."""
    for game in overdue:
        if game.player_to_move.id != player_id:
            continue
        assert game.deadline_at is not None
        if await _day_to_take(tx, game, game.deadline_at) is not None:
            return True
    return False


def _out_of_time(game: GameView, player_id: int, at: datetime) -> bool:
    return (
        game.player_to_move.id == player_id
        and game.frozen_at is None
        and game.deadline_at is not None
        and game.deadline_at <= at
    )


async def _out_of_time_on_return(tx: Transaction, vacation: Vacation) -> list[GameView]:
    """The games its player would be out of time in at once if `vacation` ended now: their
    turn's time had run out when its clock stopped (an automatic vacation day with no move yet),
    and neither a pause nor the opponent's vacation keeps it standing still."""
    overdue = []
    for game in await _active_games(tx, vacation.guild_id, vacation.player_id):
        if (
            game.player_to_move.id != vacation.player_id
            or not out_of_time_held(game)
            or game.paused_at is not None
        ):
            continue
        opponent_away = await tx.fetchone(
            "SELECT 1 FROM vacations WHERE guild_id = ? AND player_id = ? AND ended_at IS NULL",
            (game.guild_id, game.opponent_of(vacation.player_id).id),
        )
        if opponent_away is None:
            overdue.append(game)
    return overdue


async def _day_to_take(
    tx: Transaction, game: GameView, at: datetime, *, foreseen: bool = False
) -> VacationStatus | None:
    """The vacation status of `game`'s player to move if their time running out at `at` takes a
    vacation day instead of the loss: they opted in, the game allows vacations, they are not on
    vacation already and have a day left in `at`'s year. None when it does not. `foreseen`:
    asked ahead (a reminder), when a vacation that ends by `at` will have ended."""
    player_id = game.player_to_move.id
    if not (await fetch_player(tx, player_id)).auto_vacation:
        return None
    allowed = await tx.fetchone(
        f"SELECT {VACATION_ALLOWED} FROM games g WHERE g.id = ?", (game.id,)
    )
    if allowed is None or not allowed[0]:
        return None
    status = await _status(tx, game.guild_id, player_id, at)
    on_vacation = status.current is not None and not (foreseen and status.current.ends_at <= at)
    if on_vacation or status.days_left < 1:
        return None
    return status


async def take_vacation_day(
    tx: Transaction, game: GameView, now: datetime
) -> VacationReport | None:
    """Instead of the loss on time in `game`, whose deadline has passed: one vacation day for its
    player to move, from the deadline, when :func:`_day_to_take` allows it. Their games' clocks
    stop from the deadline (or from a later start of their turn) and each game's thread is told:
    the games they were out of time in when the day began (this one, and any other due at that
    moment) that the day was taken, the others that they are on vacation; this game's news also
    lists every game stopped, for the player's one DM about the day. None, changing nothing,
    when no day is taken."""
    player_id = game.player_to_move.id
    start = game.deadline_at
    assert start is not None
    status = await _day_to_take(tx, game, start)
    if status is None:
        return None
    ends = start + DAY
    new_id = await tx.insert(
        "INSERT INTO vacations (guild_id, player_id, started_at, ends_at) VALUES (?, ?, ?, ?)",
        (game.guild_id, player_id, to_db(start), to_db(ends)),
    )
    vacation = Vacation(new_id, game.guild_id, player_id, start, ends, None)
    days_left = status.days_left - 1
    held, not_held, out_of_time = [], [], set()
    for other in await _active_games(tx, game.guild_id, player_id):
        since = max(start, other.last_move_at or other.created_at)
        settled = await settle_clock(tx, other.id, since) if since < ends else other
        if settled.frozen_at is None:
            not_held.append(settled)
            continue
        held.append(settled)
        if _out_of_time(other, player_id, start):  # this game, or another due at once
            out_of_time.add(other.id)
    for settled in held:
        if settled.id in out_of_time:
            stopped = tuple(g.id for g in held) if settled.id == game.id else ()
            news = ClockNews(
                settled.id,
                ClockEvent.AUTO_VACATION.value,
                player_id,
                until=to_db(ends),
                days_left=days_left,
                held=stopped,
            )
        else:
            news = ClockNews(settled.id, ClockEvent.VACATION.value, player_id, until=to_db(ends))
        await enqueue(tx, news, now)
    await remind_before_return(tx, vacation, now)
    return VacationReport(vacation, held, not_held, days_left)


async def _status(tx: Transaction, guild_id: int, player_id: int, now: datetime) -> VacationStatus:
    allowed = (await fetch_guild_settings(tx, guild_id)).vacation_days
    start, end = year_bounds(now)
    rows = await tx.fetchall(
        "SELECT * FROM vacations WHERE guild_id = ? AND player_id = ? AND started_at >= ? "
        "AND started_at < ?",
        (guild_id, player_id, to_db(start), to_db(end)),
    )
    vacations = [_vacation(row) for row in rows]
    current = await tx.fetchone(
        "SELECT * FROM vacations WHERE guild_id = ? AND player_id = ? AND ended_at IS NULL",
        (guild_id, player_id),
    )
    used = sum(v.days_counted for v in vacations)
    return VacationStatus(None if current is None else _vacation(current), allowed, used)


class HoldService:
    """What players do to clocks. Every method refuses with a :class:`BredonError` subclass and
    then has changed nothing."""

    def __init__(self, db: Database, clock: Clock) -> None:
        self._db = db
        self._clock = clock

    # ----------------------------------------------------------------- vacations

    async def vacation_status(self, guild_id: int, player_id: int) -> VacationStatus:
        async with self._db.snapshot() as tx:
            return await _status(tx, guild_id, player_id, self._clock.now())

    async def start_vacation(
        self, guild_id: int, player: PlayerRef, days: int | None = None
    ) -> VacationReport:
        """Go on vacation for `days` (default: all the days left this year): the clocks of the
        player's games in the server stand still until it ends. On a vacation they cannot end
        yet (out of time in a game: see :meth:`end_vacation`), it lasts `days` longer instead."""
        now = self._clock.now()
        async with self._db.transaction() as tx:
            status = await _status(tx, guild_id, player.id, now)
            if status.days_allowed == 0:
                raise VacationRefused(_("Vacations are turned off in this server."))
            current = status.current
            if current is not None and not await _out_of_time_on_return(tx, current):
                until = int(current.ends_at.timestamp())
                raise VacationRefused(
                    _(
                        "You are already on vacation until <t:{until}:f>; end it with `/clock "
                        "vacation end` first.",
                        until=until,
                    )
                )
            if status.days_left == 0:
                raise VacationRefused(
                    _(
                        "You have used all {allowed} vacation days of {year}.",
                        allowed=status.days_allowed,
                        year=now.year,
                    )
                )
            days = status.days_left if days is None else days
            if not 1 <= days <= status.days_left:
                raise VacationRefused(
                    _(
                        "You can take 1 to {left} vacation days now ({used} of {allowed} used in "
                        "{year}).",
                        left=status.days_left,
                        used=status.days_used,
                        allowed=status.days_allowed,
                        year=now.year,
                    )
                )
            await save_player(tx, player, now)
            if current is None:
                ends = now + timedelta(days=days)
                new_id = await tx.insert(
                    "INSERT INTO vacations (guild_id, player_id, started_at, ends_at) "
                    "VALUES (?, ?, ?, ?)",
                    (guild_id, player.id, to_db(now), to_db(ends)),
                )
                vacation = Vacation(new_id, guild_id, player.id, now, ends, None)
            else:  # out of time on an automatic day, which cannot end early: it gets longer
                vacation = replace(current, ends_at=current.ends_at + timedelta(days=days))
                ends = vacation.ends_at
                await tx.execute(
                    "UPDATE vacations SET ends_at = ? WHERE id = ?", (to_db(ends), vacation.id)
                )
            held, not_held = [], []
            for game in await _active_games(tx, guild_id, player.id):
                settled = await settle_clock(tx, game.id, now)
                if settled.frozen_at is None:
                    not_held.append(settled)
                    continue
                held.append(settled)
                news = ClockNews(game.id, ClockEvent.VACATION.value, player.id, until=to_db(ends))
                await enqueue(tx, news, now)
            if current is not None:
                await remind_before_return(tx, vacation, now)
            return VacationReport(vacation, held, not_held, status.days_left - days)

    async def end_vacation(self, guild_id: int, player_id: int) -> VacationReport:
        """Come back early: the clocks run again; unused whole days are given back. Refused
        while the player is out of time in a game (an automatic vacation day before their move):
        the deadline service would at once take the next day, or record the loss."""
        now = self._clock.now()
        async with self._db.transaction() as tx:
            row = await tx.fetchone(
                "SELECT * FROM vacations WHERE guild_id = ? AND player_id = ? AND ended_at IS NULL",
                (guild_id, player_id),
            )
            if row is None:
                raise VacationRefused(_("You are not on vacation."))
            vacation = _vacation(row)
            overdue = await _out_of_time_on_return(tx, vacation)
            if overdue:
                games = ", ".join(f"#{game.id}" for game in overdue)
                raise VacationRefused(
                    _(
                        "Move in game {games} first: your time there ran out, so ending your "
                        "vacation now would take your next vacation day at once (or lose on "
                        "time). To stay away longer, use `/clock vacation start`.",
                        games=games,
                    )
                )
            report = await _end_vacation(tx, vacation, min(now, vacation.ends_at), now)
            assert report is not None
            return report

    async def takes_vacation_day(self, game_id: int, deadline: datetime) -> bool:
        """Whether the player to move, their time running out at `deadline`, would take an
        automatic vacation day in this game instead of losing on time (what a reminder says)."""
        async with self._db.snapshot() as tx:
            game = await fetch_game(tx, game_id)
            return await _day_to_take(tx, game, deadline, foreseen=True) is not None

    # ----------------------------------------------------------------- more time

    async def give_time(
        self,
        game_id: int,
        player_id: int,
        extra: timedelta,
        *,
        board_ply: int | None = None,
    ) -> GameView:
        """The player waiting gives the player to move `extra` time on this turn (on an
        increment clock it stays on their clock, up to its cap). With `board_ply` (a board's
        button), once a turn, and only on that board's turn: a double click, or a board from
        before, gives nothing."""
        now = self._clock.now()
        if not timedelta(hours=1) <= extra <= MAX_MORE_TIME:
            raise MoreTimeRefused(
                _(
                    "You can give 1 hour to {most} days at a time (not {extra}).",
                    most=MAX_MORE_TIME.days,
                    extra=describe_duration(extra),
                )
            )
        async with self._db.transaction() as tx:
            game = await fetch_game(tx, game_id)
            require_active(game)
            game.color_of(player_id)
            if game.player_to_move.id == player_id:
                raise MoreTimeRefused(_("It is your move: only your opponent can give you time."))
            assert game.deadline_at is not None
            if board_ply is not None:
                await _give_by_button_once(tx, game, board_ply)
            start = game.frozen_at or now
            if game.deadline_at + extra - start > MAX_TIME_LEFT:
                raise MoreTimeRefused(
                    _(
                        "That would leave your opponent more than {most} days for this move.",
                        most=MAX_TIME_LEFT.days,
                    )
                )
            deadline = game.deadline_at + extra
            await storage.set_deadline(tx, game.id, deadline)
            game = await fetch_game(tx, game.id)
            await _rearm_reminder(tx, game, now)
            news = ClockNews(
                game.id,
                ClockEvent.MORE_TIME.value,
                player_id,
                deadline=None if game.frozen_at else to_db(deadline),
                extra=int(extra.total_seconds()),
            )
            await enqueue(tx, news, now)
            return await fetch_game(tx, game.id)

    # ----------------------------------------------------------------- pauses

    async def propose_pause(self, game_id: int, player_id: int) -> GameView:
        now = self._clock.now()
        async with self._db.transaction() as tx:
            game = await fetch_game(tx, game_id)
            require_active(game)
            game.color_of(player_id)
            if game.paused_at is not None:
                raise PauseRefused(_("Game #{game} is already paused.", game=game.id))
            if game.pause_offer_by == player_id:
                raise PauseRefused(
                    _("You have already proposed a pause in game #{game}.", game=game.id)
                )
            if game.pause_offer_by is not None:
                raise PauseRefused(
                    _("Your opponent has already proposed a pause in game #{game}.", game=game.id)
                )
            await storage.set_pause_offer(tx, game.id, player_id)
            await enqueue(tx, ClockNews(game.id, ClockEvent.PAUSE_OFFER.value, player_id), now)
            return await fetch_game(tx, game.id)

    async def accept_pause(self, game_id: int, player_id: int) -> GameView:
        """The opponent of who proposed agrees: the clock stands still until either ends it."""
        now = self._clock.now()
        async with self._db.transaction() as tx:
            game = await self._proposed(tx, game_id, player_id)
            await storage.start_pause(tx, game.id, now)
            paused = await settle_clock(tx, game.id, now)
            await enqueue(tx, ClockNews(game.id, ClockEvent.PAUSED.value, player_id), now)
            return paused

    async def decline_pause(self, game_id: int, player_id: int) -> GameView:
        async with self._db.transaction() as tx:
            game = await self._proposed(tx, game_id, player_id)
            await storage.set_pause_offer(tx, game.id, None)
            return await fetch_game(tx, game.id)

    async def end_pause(self, game_id: int, player_id: int) -> GameView:
        """Either player ends the pause; the clock runs again (unless a vacation holds it)."""
        now = self._clock.now()
        async with self._db.transaction() as tx:
            game = await fetch_game(tx, game_id)
            require_active(game)
            game.color_of(player_id)
            if game.paused_at is None:
                raise PauseRefused(_("Game #{game} is not paused.", game=game.id))
            await storage.end_pause(tx, game.id)
            resumed = await settle_clock(tx, game.id, now)
            deadline = None if resumed.frozen_at else to_db_or_none(resumed.deadline_at)
            news = ClockNews(game.id, ClockEvent.PAUSE_END.value, player_id, deadline)
            await enqueue(tx, news, now)
            return resumed

    async def _proposed(self, tx: Transaction, game_id: int, player_id: int) -> GameView:
        game = await fetch_game(tx, game_id)
        require_active(game)
        game.color_of(player_id)
        if game.pause_offer_by is None:
            raise PauseRefused(_("Nobody has proposed a pause in game #{game}.", game=game.id))
        if game.pause_offer_by == player_id:
            raise PauseRefused(_("You cannot answer your own proposal."))
        return game

    # ----------------------------------------------------------------- reminders

    async def reminders(self, guild_id: int, player_id: int) -> tuple[timedelta, ...] | None:
        """The player's reminder times before a deadline; None: the default (at 80%)."""
        async with self._db.snapshot() as tx:
            return await reminder_offsets(tx, guild_id, player_id)

    async def set_reminders(
        self, guild_id: int, player: PlayerRef, offsets: list[timedelta] | None
    ) -> tuple[timedelta, ...] | None:
        """Remind the player these times before each deadline (an empty list: never; None: the
        default). Games already waiting for them get the new times at once."""
        if offsets is not None:
            if len(set(offsets)) > MAX_REMINDERS:
                raise InvalidSetting(_("Choose at most {most} reminder times.", most=MAX_REMINDERS))
            for offset in offsets:
                if not timedelta(minutes=10) <= offset <= MAX_REMINDER_OFFSET:
                    raise InvalidSetting(
                        _(
                            "Reminder times must be from 10 minutes to {most} days before the "
                            "deadline.",
                            most=MAX_REMINDER_OFFSET.days,
                        )
                    )
        now = self._clock.now()
        async with self._db.transaction() as tx:
            await save_player(tx, player, now)
            if offsets is None:
                await tx.execute(
                    "DELETE FROM reminder_offsets WHERE guild_id = ? AND player_id = ?",
                    (guild_id, player.id),
                )
            else:
                await tx.execute(
                    "INSERT INTO reminder_offsets (guild_id, player_id, offsets) VALUES (?, ?, ?) "
                    "ON CONFLICT (guild_id, player_id) DO UPDATE SET offsets = excluded.offsets",
                    (guild_id, player.id, encode_offsets(offsets)),
                )
            for game in await _active_games(tx, guild_id, player.id):
                if game.player_to_move.id == player.id and game.deadline_at is not None:
                    await _rearm_reminder(tx, game, now)
            return await reminder_offsets(tx, guild_id, player.id)
