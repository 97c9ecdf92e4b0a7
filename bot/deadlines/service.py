"""Move deadlines, reminders and challenge expiry, all kept in the database.

Each active game has a deadline (what the time control allows the player to move, counted from the
last move or the start: :mod:`bot.games.turns`) and a next reminder time (at 80% of the turn,
or
at the times before the deadline the player chose). A game whose clock stands still (a pause, a
vacation: :mod:`bot.deadlines.holds`) has nothing due; vacations that ran out are ended first, at
the moment they ran out, so a deadline they moved holds however late the scheduler wakes. When the
deadline passes the player to move loses on time, unless they opted in to automatic vacation and
have a vacation day left (:func:`~bot.deadlines.holds.take_vacation_day`: the day is taken
instead, from the deadline); a game in
which nobody has moved is aborted instead, except in a tournament or a league, where white loses
on time like anyone else who does not move (an abort would leave the pairing unplayed). Open
challenges expire at their ``expires_at``.

Every settlement writes its announcement to the outbox (:mod:`bot.notifications.outbox`) in its own
transaction. A game whose announcements are not all delivered yet does not lose on time: its
player may not have been told it is their move (the delivery then moves the deadline on).

Nothing lives in memory, so a restart loses nothing: the scheduler of the Discord layer asks
:meth:`DeadlineService.next_due_at` when to wake up and calls :meth:`DeadlineService.run_due`.
Each item is settled in its own transaction that re-checks it, so a move that lands just before a
time-out wins, and two schedulers (two processes) never settle the same item twice; on PostgreSQL
the transaction first takes the game's (or challenge's) row, passing over one that another process
holds (:attr:`~bot.store.Database.skip_locked`): that process is settling it, or moving in it.
Reminders are
claimed when they are handed out (the claim moves ``reminder_at`` to the next chosen time still
ahead): each at most once, even across a crash, and one only for reminder times missed together.
A clock that stands still has no reminder due, except where the player to move is out of time on
an automatic vacation day: their turn ends with that day, and its reminders come before.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from bot.coins.service import NEXT_BIDDING_DUE, close_due_biddings
from bot.deadlines.holds import (
    VacationReport,
    end_due_vacations,
    end_of_turn_out_of_time,
    hold_games_begun_on_vacation,
    next_vacation_end,
    take_vacation_day,
)
from bot.games.challenge_storage import expire as expire_challenge
from bot.games.model import (
    CHALLENGE_SELECT,
    GAME_SELECT,
    ChallengeView,
    GameView,
    challenge_from_row,
    game_from_row,
)
from bot.games.storage import fetch_game, set_reminder
from bot.games.turns import (
    OUT_OF_TIME_HELD,
    next_reminder,
    out_of_time_held,
    reminder_offsets,
)
from bot.leagues.service import in_league
from bot.notifications.outbox import (
    GAME_HAS_PENDING_NEWS,
    ChallengeSettled,
    EndingCause,
    GameEnded,
    ReminderDue,
    enqueue,
)
from bot.play.outcomes import GameEnding
from bot.play.service import finish_game
from bot.players.model import PlayerRef
from bot.store import Database, Transaction, from_db, to_db
from bot.timekeeping.clock import Clock
from bot.tournaments.storage import in_tournament
from tak import Result, ResultKind

RECHECK_HELD = timedelta(minutes=15)


@dataclass(frozen=True, slots=True)
class Reminder:
    game: GameView
    player: PlayerRef  # the player to move
    deadline: datetime


@dataclass(frozen=True, slots=True)
class DueWork:
    """What is due at a moment, before anything is done about it."""

    timeouts: list[GameView]
    reminders: list[GameView]
    expired_challenges: list[ChallengeView]

    def __bool__(self) -> bool:
        return bool(self.timeouts or self.reminders or self.expired_challenges)


@dataclass(frozen=True, slots=True)
class DeadlineReport:
    """What :meth:`DeadlineService.run_due` did, for the Discord layer to announce."""

    endings: list[GameEnding]  # games lost on time or aborted
    reminders: list[Reminder]  # to send now
    expired_challenges: list[ChallengeView]
    started_games: list[GameView] = field(default_factory=list)  # when bidding closed (stakes)
    vacations_ended: list[VacationReport] = field(default_factory=list)
    # Vacation days taken instead of losses on time (players who opted in).
    vacations_taken: list[VacationReport] = field(default_factory=list)
    # Due rows passed over because another process held them (PostgreSQL): still due, so the
    # scheduler looks again after a pause rather than at once.
    held_elsewhere: int = 0

    def __bool__(self) -> bool:
        return bool(
            self.endings
            or self.reminders
            or self.expired_challenges
            or self.started_games
            or self.vacations_ended
            or self.vacations_taken
        )


class DeadlineService:
    def __init__(self, db: Database, clock: Clock) -> None:
        self._db = db
        self._clock = clock
        self._held_elsewhere = 0  # rows :meth:`_held` found held by another process

    async def next_due_at(self) -> datetime | None:
        """The earliest deadline, reminder or challenge expiry still to come (or overdue). A
        deadline held back by an undelivered announcement is looked at again when that
        announcement is next tried (at the soonest in :data:`RECHECK_HELD`)."""
        soon = to_db(self._clock.now() + RECHECK_HELD)
        row = await self._db.fetchone(
            "SELECT MIN(t) FROM ("
            "SELECT MIN(CASE WHEN deadline_at IS NOT NULL AND "
            f"{GAME_HAS_PENDING_NEWS} THEN MAX(deadline_at, ?, "
            "(SELECT MIN(o.next_attempt_at) FROM outbox o WHERE o.stream = 'game:' || g.id "
            "AND o.delivered_at IS NULL)) "
            "ELSE deadline_at END) AS t FROM games g WHERE status = 'active' "
            "AND frozen_at IS NULL "
            "UNION ALL SELECT MIN(reminder_at) FROM games g WHERE status = 'active' "
            f"AND (frozen_at IS NULL OR {OUT_OF_TIME_HELD}) "
            "UNION ALL SELECT MIN(expires_at) FROM challenges WHERE status = 'open' "
            f"UNION ALL {NEXT_BIDDING_DUE}) AS due",
            (soon,),
        )
        due = None if row is None else from_db(row[0])
        vacation_end = await next_vacation_end(self._db)
        if due is None or (vacation_end is not None and vacation_end < due):
            return vacation_end
        return due

    async def due(self, at: datetime | None = None) -> DueWork:
        """What is due at `at` (default now), without changing anything."""
        moment = to_db(at or self._clock.now())
        async with self._db.snapshot() as tx:
            timeouts = await tx.fetchall(
                GAME_SELECT + " WHERE g.status = 'active' AND g.deadline_at <= ? "
                f"AND g.frozen_at IS NULL AND NOT {GAME_HAS_PENDING_NEWS} "
                "ORDER BY g.deadline_at, g.id",
                (moment,),
            )
            reminders = await tx.fetchall(
                GAME_SELECT + " WHERE g.status = 'active' AND g.reminder_at <= ? "
                f"AND ((g.deadline_at > ? AND g.frozen_at IS NULL) OR {OUT_OF_TIME_HELD}) "
                "ORDER BY g.reminder_at, g.id",
                (moment, moment),
            )
            challenges = await tx.fetchall(
                CHALLENGE_SELECT + " WHERE c.status = 'open' AND c.expires_at <= ? "
                "ORDER BY c.expires_at, c.id",
                (moment,),
            )
        return DueWork(
            [game_from_row(row) for row in timeouts],
            [game_from_row(row) for row in reminders],
            [challenge_from_row(row) for row in challenges],
        )

    async def run_due(self, at: datetime | None = None) -> DeadlineReport:
        """Settle everything due at `at` (default now): vacations that ran out (their clocks run
        again from when they did), games begun during a vacation (their clocks stop), then
        time-outs (or vacation days taken instead), reminders and expiries."""
        moment = at or self._clock.now()
        self._held_elsewhere = 0
        vacations = await end_due_vacations(self._db, moment)
        await hold_games_begun_on_vacation(self._db, moment)
        work = await self.due(moment)
        endings, taken = [], []
        for game in work.timeouts:
            settled = await self.time_out(game.id, moment)
            if isinstance(settled, VacationReport):
                taken.append(settled)
            elif settled is not None:
                endings.append(settled)
        reminders = []
        for game in work.reminders:
            reminder = await self._claim_reminder(game.id, moment)
            if reminder is not None:
                reminders.append(reminder)
        expired = []
        for challenge in work.expired_challenges:
            async with self._db.transaction() as tx:
                if not await self._held(tx, "challenges", challenge.id):
                    continue
                if await expire_challenge(tx, challenge.id, moment):
                    row = await tx.fetchone(CHALLENGE_SELECT + " WHERE c.id = ?", (challenge.id,))
                    assert row is not None
                    expired.append(challenge_from_row(row))
                    await enqueue(tx, ChallengeSettled(challenge.id), moment)
        started = await close_due_biddings(self._db, moment)
        return DeadlineReport(
            endings,
            reminders,
            expired,
            started_games=started,
            vacations_ended=vacations,
            vacations_taken=taken,
            held_elsewhere=self._held_elsewhere,
        )

    async def time_out(
        self, game_id: int, at: datetime | None = None
    ) -> GameEnding | VacationReport | None:
        """End the game on time if its deadline has passed at `at`; None if it has not (a move
        came first) or the game is over. With no move played a game outside a tournament is
        aborted instead. A player who opted in and has a vacation day left takes it instead of
        the loss (the report of that vacation)."""
        moment = at or self._clock.now()
        async with self._db.transaction() as tx:
            if not await self._held(tx, "games", game_id):
                return None
            game = await fetch_game(tx, game_id)
            if (
                not game.is_active
                or game.deadline_at is None
                or game.deadline_at > moment
                or game.frozen_at is not None
            ):
                return None
            pending = await tx.fetchone(
                f"SELECT {GAME_HAS_PENDING_NEWS} FROM games g WHERE g.id = ?", (game.id,)
            )
            if pending is not None and pending[0]:
                return None
            if game.plies_played == 0 and not (
                await in_tournament(tx, game) or await in_league(tx, game)
            ):
                result = Result(None, ResultKind.ABORT)
            else:
                vacation = await take_vacation_day(tx, game, moment)
                if vacation is not None:
                    return vacation
                result = Result(game.to_move.other, ResultKind.TIME)
            news = GameEnded(game.id, EndingCause.TIME)
            return await finish_game(tx, game, game.position_from_tps(), result, moment, news)

    async def _held(self, tx: Transaction, table: str, row_id: int) -> bool:
        """Take the row for this transaction, unless another process holds it (PostgreSQL):
        False then, and that process's change is left to settle it or to make it not due."""
        held = await tx.fetchone(
            f"SELECT id FROM {table} WHERE id = ?{self._db.skip_locked}", (row_id,)
        )
        if held is None:
            self._held_elsewhere += 1
        return held is not None

    async def _claim_reminder(self, game_id: int, moment: datetime) -> Reminder | None:
        async with self._db.transaction() as tx:
            if not await self._held(tx, "games", game_id):
                return None
            game = await fetch_game(tx, game_id)
            if not game.is_active or game.reminder_at is None or game.reminder_at > moment:
                return None
            deadline = game.deadline_at
            if out_of_time_held(game):  # the turn ends with the player's vacation day
                deadline = await end_of_turn_out_of_time(tx, game)
                if deadline is None or deadline <= moment:  # what else holds the clock decides
                    await set_reminder(tx, game.id, None)
                    return None
            elif game.frozen_at is not None:
                return None
            if deadline is None:
                return None
            # The next of the player's reminder times, if one is left before the deadline.
            offsets = await reminder_offsets(tx, game.guild_id, game.player_to_move.id)
            later = None
            if offsets is not None:
                later = next_reminder(offsets, moment, deadline, moment)
            await set_reminder(tx, game.id, later)
            notice = ReminderDue(game.id, game.player_to_move.id, to_db(deadline), game.ply)
            await enqueue(tx, notice, moment)
            return Reminder(game, game.player_to_move, deadline)
