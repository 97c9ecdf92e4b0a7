"""When a turn ends and when its player is reminded: the deadline from the time control and the
player's clock, the reminders from the times the player chose (:data:`reminder_offsets` table).

Shared by everything that starts a turn (a new game, a move, an undo, a late notice) and by what
moves a deadline (more time, a clock that ran again), always inside the caller's transaction.
A clock that stands still (``frozen_at``) counts from the moment it stopped: when it runs again,
the deadline and the reminder move on by the time it stood still (:mod:`bot.deadlines.holds`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.games.model import REMINDER_FRACTION, GameView
from bot.store import Transaction, to_db
from bot.timekeeping.control import TimeControl
from tak import Color

MAX_REMINDERS = 5
MAX_REMINDER_OFFSET = timedelta(days=30)

# SQL: whether vacations may hold game g's clock (a tournament may forbid them).
VACATION_ALLOWED = (
    "COALESCE((SELECT t.vacation_allowed FROM tournament_pairings tp "
    "JOIN tournaments t ON t.id = tp.tournament_id WHERE tp.match_id = g.match_id), 1) = 1"
)
# SQL: whether a vacation of one of game g's players holds its clock at a moment (given twice).
VACATION_HOLDS = (
    "EXISTS (SELECT 1 FROM vacations v WHERE v.guild_id = g.guild_id "
    "AND v.player_id IN (g.white_id, g.black_id) AND v.started_at <= ? "
    f"AND COALESCE(v.ended_at, v.ends_at) > ?) AND {VACATION_ALLOWED}"
)
# SQL: game g's clock stopped with its turn's time run out (see :func:`out_of_time_held`).
OUT_OF_TIME_HELD = "(g.frozen_at IS NOT NULL AND g.deadline_at <= g.frozen_at)"


def out_of_time_held(game: GameView) -> bool:
    """Whether the game's clock stopped with its player's time run out (an automatic vacation
    day before their move): the turn then ends when what holds the clock lets go, so its
    reminder is a moment in real time, not one that moves on with the clock."""
    return (
        game.frozen_at is not None
        and game.deadline_at is not None
        and game.deadline_at <= game.frozen_at
    )


async def clock_held(tx: Transaction, game_id: int, at: datetime) -> bool:
    """Whether a pause or a vacation stops the game's clock at `at`."""
    row = await tx.fetchone(
        f"SELECT g.paused_at IS NOT NULL OR ({VACATION_HOLDS}) FROM games g WHERE g.id = ?",
        (to_db(at), to_db(at), game_id),
    )
    return bool(row and row[0])


async def reminder_offsets(
    tx: Transaction, guild_id: int, player_id: int
) -> tuple[timedelta, ...] | None:
    """How long before a deadline the player wants reminding, latest first; None: the default
    (once, at 80% of the time for the move)."""
    row = await tx.fetchone(
        "SELECT offsets FROM reminder_offsets WHERE guild_id = ? AND player_id = ?",
        (guild_id, player_id),
    )
    if row is None:
        return None
    return decode_offsets(row["offsets"])


def decode_offsets(text: str) -> tuple[timedelta, ...]:
    return tuple(sorted((timedelta(seconds=int(v)) for v in text.split(",") if v), reverse=True))


def encode_offsets(offsets: Sequence[timedelta]) -> str:
    return ",".join(str(int(o.total_seconds())) for o in sorted(set(offsets), reverse=True))


def next_reminder(
    offsets: tuple[timedelta, ...] | None, start: datetime, deadline: datetime, after: datetime
) -> datetime | None:
    """The first reminder later than `after` for a turn from `start` to `deadline`; None when no
    reminder is left. The default reminder (no offsets chosen) comes once, at 80% of the turn."""
    if offsets is None:
        candidates = [start + (deadline - start) * REMINDER_FRACTION]
    else:
        candidates = [deadline - offset for offset in offsets]
    later = [moment for moment in candidates if after < moment < deadline]
    return min(later) if later else None


@dataclass(frozen=True, slots=True)
class Turn:
    """A turn's deadline, its first reminder, and both clocks (white, black) as the turn starts."""

    deadline: datetime
    reminder: datetime | None
    left: tuple[timedelta | None, timedelta | None]

    def left_seconds(self) -> tuple[int | None, int | None]:
        return (_seconds(self.left[0]), _seconds(self.left[1]))


def _seconds(span: timedelta | None) -> int | None:
    return None if span is None else int(span.total_seconds())


async def turn_for(
    tx: Transaction,
    game: GameView,
    to_move: Color,
    left: tuple[timedelta | None, timedelta | None],
    now: datetime,
) -> Turn:
    """`to_move`'s turn starting now (where the clock stopped, if it stands still)."""
    start = game.frozen_at or now
    player = game.player(to_move)
    own = left[0 if to_move is Color.WHITE else 1]
    deadline = start + game.setup.clock.allowance(game.setup.days_per_move, own)
    offsets = await reminder_offsets(tx, game.guild_id, player.id)
    return Turn(deadline, next_reminder(offsets, start, deadline, start), left)


async def turn_after_move(tx: Transaction, game: GameView, now: datetime) -> Turn:
    """The opponent's turn after the player to move in `game` moves now: the mover's clock keeps
    what the time control leaves it (see :mod:`bot.timekeeping.control`)."""
    mover = game.to_move
    left = list(game.clock_left)
    index = 0 if mover is Color.WHITE else 1
    if game.deadline_at is not None:
        remaining = game.deadline_at - (game.frozen_at or now)
        left[index] = game.setup.clock.left_after_move(left[index], remaining)
    return await turn_for(tx, game, mover.other, (left[0], left[1]), now)


async def turn_after_undo(tx: Transaction, game: GameView, now: datetime) -> Turn:
    """The turn of the player whose last move in `game` is taken back, starting now."""
    mover = game.to_move.other
    left = list(game.clock_left)
    index = 0 if mover is Color.WHITE else 1
    left[index] = game.setup.clock.taken_back(left[index])
    return await turn_for(tx, game, mover, (left[0], left[1]), now)


def starting_clocks(
    clock: TimeControl, days_per_move: int
) -> tuple[timedelta | None, timedelta | None]:
    start = clock.starting_left(days_per_move)
    return (start, start)
