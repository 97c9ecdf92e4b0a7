"""The ``games`` and ``moves`` tables: every write to them, as named operations, and the
reads that several services share; always inside a caller's transaction."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from bot.errors import UnknownChallenge, UnknownGame, UnknownMatch
from bot.games.model import (
    CHALLENGE_SELECT,
    GAME_SELECT,
    MATCH_SELECT,
    ChallengeView,
    GamePlace,
    GameSetup,
    GameStatus,
    GameView,
    MatchView,
    challenge_from_row,
    game_from_row,
    match_from_row,
)
from bot.games.turns import (
    Turn,
    clock_held,
    next_reminder,
    reminder_offsets,
    starting_clocks,
)
from bot.store import Row, Transaction, from_db, to_db, to_db_or_none
from tak import Position, Result


async def fetch_game(tx: Transaction, game_id: int) -> GameView:
    return game_from_row(await _game_row(tx, game_id))


async def fetch_game_version(tx: Transaction, game_id: int) -> tuple[GameView, int]:
    """The game and the version of its position (see :mod:`bot.play.service`)."""
    row = await _game_row(tx, game_id)
    return game_from_row(row), row["version"]


async def _game_row(tx: Transaction, game_id: int) -> Row:
    row = await tx.fetchone(GAME_SELECT + " WHERE g.id = ?", (game_id,))
    if row is None:
        raise UnknownGame(game_id)
    return row


async def fetch_challenge(tx: Transaction, challenge_id: int) -> ChallengeView:
    row = await tx.fetchone(CHALLENGE_SELECT + " WHERE c.id = ?", (challenge_id,))
    if row is None:
        raise UnknownChallenge(challenge_id)
    return challenge_from_row(row)


async def fetch_match(tx: Transaction, match_id: int) -> MatchView:
    row = await tx.fetchone(MATCH_SELECT + " WHERE m.id = ?", (match_id,))
    if row is None:
        raise UnknownMatch(match_id)
    return match_from_row(row)


async def insert_game(
    tx: Transaction,
    *,
    guild_id: int,
    channel_id: int,
    thread_id: int | None,
    white_id: int,
    black_id: int,
    setup: GameSetup,
    now: datetime,
    match_id: int | None = None,
    match_game: int | None = None,
    tiebreak: int | None = None,
    place: GamePlace = GamePlace.SERVER,
) -> GameView:
    """A new game at the start position (the empty board or the setup's TPS), with the first
    deadline, of the player to move there, running from `now`, or standing still from `now` when
    a player is on vacation (so the start post shows it). A tournament's pairing must be stored
    first: its tournament may forbid vacations. `tiebreak` numbers a match's tiebreak games."""
    start = setup.start_position()
    left = starting_clocks(setup.clock, setup.days_per_move)
    first = start.to_move
    deadline = now + setup.clock.allowance(setup.days_per_move, left[first])
    offsets = await reminder_offsets(tx, guild_id, (white_id, black_id)[first])
    reminder = next_reminder(offsets, now, deadline, now)
    seconds = [None if span is None else int(span.total_seconds()) for span in left]
    new_id = await tx.insert(
        "INSERT INTO games (guild_id, channel_id, thread_id, white_id, black_id, size, komi, "
        "opening, stones1, stones2, caps1, caps2, rated, days_per_move, tps, deadline_at, "
        "reminder_at, match_id, match_game, created_at, antiquity, clock_bank, clock_increment, "
        "clock_cap, clock_left1, clock_left2, tiebreak, start_tps, ply, place) "
        f"VALUES ({', '.join('?' * 30)})",
        (
            guild_id,
            channel_id,
            thread_id,
            white_id,
            black_id,
            setup.size,
            setup.base_komi,
            setup.opening.value,
            *setup.stones,
            *setup.caps,
            int(setup.rated),
            setup.days_per_move,
            start.tps(),
            to_db(deadline),
            to_db_or_none(reminder),
            match_id,
            match_game,
            to_db(now),
            int(setup.antiquity),
            *setup.clock.to_db(),
            *seconds,
            tiebreak,
            setup.start_tps,
            start.ply,
            place.value,
        ),
    )
    if await clock_held(tx, new_id, now):
        await stop_clock(tx, new_id, now)
    return await fetch_game(tx, new_id)


# SQL for "this game is played for coins" (games unaliased), for a write's RETURNING.
STAKED = "EXISTS (SELECT 1 FROM stakes s WHERE s.game_id = games.id)"
# ... and for "a player has conditional moves in it" (bot.games.conditions).
HAS_LINES = "EXISTS (SELECT 1 FROM conditional_moves c WHERE c.game_id = games.id)"

# Advance an active game by one ply from the ply and version it is known at; the trigger logs
# the move.
_ADVANCE = (
    "UPDATE games SET ply = ?, tps = ?, last_ptn = ?, last_player_id = ?, last_move_at = ?, "
    "deadline_at = ?, reminder_at = ?, clock_left1 = ?, clock_left2 = ?, draw_offer_by = NULL, "
    "undo_request_by = NULL, version = version + 1 "
    "WHERE id = ? AND ply = ? AND version = ? AND status = 'active'"
)
# ... only if the stored game is also as the mover saw it: no offer or request pending (the
# process may not know of it) and the same deadline and standstill (more time, a pause or a
# vacation change them without a new version).
_AS_SEEN = (
    " AND draw_offer_by IS NULL AND undo_request_by IS NULL"
    " AND deadline_at IS NOT DISTINCT FROM ? AND frozen_at IS NOT DISTINCT FROM ?"
)


@dataclass(frozen=True, slots=True)
class MoveWrite:
    """A move to store: `game`, stored at `version`, advanced to `position` (TPS `tps`) by
    `player_id` at `now`, with the next `turn`."""

    game: GameView
    version: int
    position: Position
    tps: str
    player_id: int
    now: datetime
    turn: Turn

    def params(self) -> tuple[object, ...]:
        """The parameters of :data:`_ADVANCE`."""
        move = self.position.last_move
        assert move is not None
        return (
            self.position.ply,
            self.tps,
            move.ptn(),
            self.player_id,
            to_db(self.now),
            to_db(self.turn.deadline),
            to_db_or_none(self.turn.reminder),
            *self.turn.left_seconds(),
            self.game.id,
            self.game.ply,
            self.version,
        )


async def record_move(tx: Transaction, move: MoveWrite) -> bool:
    """Store `move`; False if the stored game is not at its ply and version any more."""
    changed = await tx.execute(_ADVANCE, move.params())
    return changed == 1


async def record_move_as_seen(tx: Transaction, move: MoveWrite) -> Row | None:
    """Store `move` only if the stored game is also as its `game` shows it (no offer pending,
    the same deadline and standstill): the row after it, with ``staked`` (see
    :data:`STAKED`) and ``has_lines`` (:data:`HAS_LINES`), or None."""
    game = move.game
    rows = await tx.fetchall(
        _ADVANCE + _AS_SEEN + f" RETURNING *, {STAKED} AS staked, {HAS_LINES} AS has_lines",
        (*move.params(), to_db_or_none(game.deadline_at), to_db_or_none(game.frozen_at)),
    )
    return rows[0] if rows else None


async def claim_request(
    tx: Transaction, key: str, game_id: int, ply: int, player_id: int, now: datetime
) -> bool:
    """Store `key` as the request that made the move at `ply`; False (nothing stored) if a
    move was made by that request already. On PostgreSQL it waits for a transaction still
    claiming the same key, so that a False or True is final once that one has ended."""
    changed = await tx.execute(
        "INSERT INTO move_requests (request_key, game_id, ply, player_id, made_at) "
        "VALUES (?, ?, ?, ?, ?) ON CONFLICT (request_key) DO NOTHING",
        (key, game_id, ply, player_id, to_db(now)),
    )
    return changed == 1


async def move_made_by(tx: Transaction, key: str) -> Row | None:
    """The move request `key` made (``game_id``, ``ply``, ``player_id``), or None."""
    return await tx.fetchone(
        "SELECT game_id, ply, player_id FROM move_requests WHERE request_key = ?", (key,)
    )


async def record_reported_move(
    tx: Transaction, game_id: int, position: Position, player_id: int, now: datetime
) -> bool:
    """Advance an active game by the ply of a game played elsewhere (its clock untouched);
    False if the game is not at the ply before `position` any more."""
    move = position.last_move
    assert move is not None
    changed = await tx.execute(
        "UPDATE games SET ply = ?, tps = ?, last_ptn = ?, last_player_id = ?, "
        "last_move_at = ?, version = version + 1 WHERE id = ? AND ply = ? "
        "AND status = 'active'",
        (
            position.ply,
            position.tps(),
            move.ptn(),
            player_id,
            to_db(now),
            game_id,
            position.ply - 1,
        ),
    )
    return changed == 1


async def take_back_move(
    tx: Transaction, game: GameView, position: Position, turn: Turn, now: datetime
) -> tuple[GameView, int]:
    """Mark the game's last move undone in the log (never deleted) and rewind the game to
    `position`, the one before it, with `turn`: the game after it and its new version. The
    request that made the move is forgotten: made again, it plays the move again."""
    await tx.execute(
        "UPDATE moves SET undone_at = ? WHERE game_id = ? AND ply = ? AND undone_at IS NULL",
        (to_db(now), game.id, game.ply),
    )
    await tx.execute("DELETE FROM move_requests WHERE game_id = ? AND ply = ?", (game.id, game.ply))
    previous = await tx.fetchone(
        "SELECT ptn, player_id, played_at FROM moves WHERE game_id = ? AND ply = ? "
        "AND undone_at IS NULL",
        (game.id, position.ply),
    )
    last_ptn: str | None = None if previous is None else previous["ptn"]
    last_at: str | None = None if previous is None else previous["played_at"]
    tps = position.tps()
    updated = await tx.fetchall(
        "UPDATE games SET ply = ?, tps = ?, last_ptn = ?, last_player_id = ?, "
        "last_move_at = ?, deadline_at = ?, reminder_at = ?, clock_left1 = ?, "
        "clock_left2 = ?, undo_request_by = NULL, draw_offer_by = NULL, "
        "version = version + 1 WHERE id = ? RETURNING version",
        (
            position.ply,
            tps,
            last_ptn,
            None if previous is None else previous["player_id"],
            last_at,
            to_db(turn.deadline),
            to_db_or_none(turn.reminder),
            *turn.left_seconds(),
            game.id,
        ),
    )
    rewound = replace(
        game,
        ply=position.ply,
        tps=tps,
        last_move=last_ptn,
        last_move_at=from_db(last_at),
        deadline_at=turn.deadline,
        reminder_at=turn.reminder,
        clock_left=turn.left,
        undo_request_by=None,
        draw_offer_by=None,
    )
    return rewound, updated[0]["version"]


async def end_game(
    tx: Transaction,
    game: GameView,
    status: GameStatus,
    result: Result,
    points: int,
    now: datetime,
) -> GameView:
    """Store the end of an active game: its result and score; no deadline, reminder or pending
    offer any more. The game as it ends (its result as stored: a road is on the position)."""
    winner_id = None if result.winner is None else game.player(result.winner).id
    await tx.execute(
        "UPDATE games SET status = ?, result = ?, result_kind = ?, winner_id = ?, points = ?, "
        "finished_at = ?, deadline_at = NULL, reminder_at = NULL, draw_offer_by = NULL, "
        "undo_request_by = NULL WHERE id = ?",
        (status.value, result.ptn(), result.kind.value, winner_id, points, to_db(now), game.id),
    )
    return replace(
        game,
        status=status,
        result=Result(result.winner, result.kind),
        points=points,
        finished_at=now,
        deadline_at=None,
        reminder_at=None,
        draw_offer_by=None,
        undo_request_by=None,
    )


async def correct_result(tx: Transaction, game: GameView, result: Result, points: int) -> None:
    """Give a finished game another result and score."""
    winner_id = None if result.winner is None else game.player(result.winner).id
    await tx.execute(
        "UPDATE games SET result = ?, result_kind = ?, winner_id = ?, points = ? WHERE id = ?",
        (result.ptn(), result.kind.value, winner_id, points, game.id),
    )


async def set_colours(tx: Transaction, game_id: int, white_id: int, black_id: int) -> None:
    """Who plays which colour, in a game not begun."""
    await tx.execute(
        "UPDATE games SET white_id = ?, black_id = ? WHERE id = ? AND ply = 0",
        (white_id, black_id, game_id),
    )


async def hand_over_active_games(
    tx: Transaction, match_id: int, old_id: int, new_id: int
) -> list[int]:
    """`new_id` takes `old_id`'s place in the match's active games, their requests by the old
    player dropped; a new version makes cached copies stale. The ids of the games changed."""
    rows = await tx.fetchall(
        "UPDATE games SET white_id = CASE white_id WHEN ? THEN ? ELSE white_id END, "
        "black_id = CASE black_id WHEN ? THEN ? ELSE black_id END, "
        "draw_offer_by = NULLIF(draw_offer_by, ?), "
        "undo_request_by = NULLIF(undo_request_by, ?), version = version + 1 "
        "WHERE match_id = ? AND status = 'active' AND ? IN (white_id, black_id) "
        "RETURNING id",
        (old_id, new_id, old_id, new_id, old_id, old_id, match_id, old_id),
    )
    return [row["id"] for row in rows]


async def set_draw_offer(tx: Transaction, game: GameView, player_id: int | None) -> GameView:
    """Who offers a draw in the game (None: nobody)."""
    await tx.execute("UPDATE games SET draw_offer_by = ? WHERE id = ?", (player_id, game.id))
    return replace(game, draw_offer_by=player_id)


async def set_undo_request(tx: Transaction, game: GameView, player_id: int | None) -> GameView:
    """Who asks to take back the last move in the game (None: nobody)."""
    await tx.execute("UPDATE games SET undo_request_by = ? WHERE id = ?", (player_id, game.id))
    return replace(game, undo_request_by=player_id)


async def set_pause_offer(tx: Transaction, game_id: int, player_id: int | None) -> None:
    """Who proposes a pause in the game (None: nobody)."""
    await tx.execute("UPDATE games SET pause_offer_by = ? WHERE id = ?", (player_id, game_id))


async def start_pause(tx: Transaction, game_id: int, now: datetime) -> None:
    """The pause proposed is agreed: paused from `now`, no proposal pending."""
    await tx.execute(
        "UPDATE games SET paused_at = ?, pause_offer_by = NULL WHERE id = ?",
        (to_db(now), game_id),
    )


async def end_pause(tx: Transaction, game_id: int) -> None:
    await tx.execute("UPDATE games SET paused_at = NULL WHERE id = ?", (game_id,))


async def stop_clock(tx: Transaction, game_id: int, since: datetime) -> None:
    """The game's clock stands still from `since`."""
    await tx.execute("UPDATE games SET frozen_at = ? WHERE id = ?", (to_db(since), game_id))


async def restart_clock(
    tx: Transaction, game_id: int, deadline: datetime | None, reminder: datetime | None
) -> None:
    """The game's clock runs again, towards `deadline` with the next reminder at `reminder`."""
    await tx.execute(
        "UPDATE games SET frozen_at = NULL, deadline_at = ?, reminder_at = ? WHERE id = ?",
        (to_db_or_none(deadline), to_db_or_none(reminder), game_id),
    )


async def set_deadline(tx: Transaction, game_id: int, deadline: datetime) -> None:
    await tx.execute("UPDATE games SET deadline_at = ? WHERE id = ?", (to_db(deadline), game_id))


async def set_reminder(tx: Transaction, game_id: int, reminder: datetime | None) -> None:
    """When the player to move is reminded next (None: not any more this turn)."""
    await tx.execute(
        "UPDATE games SET reminder_at = ? WHERE id = ?", (to_db_or_none(reminder), game_id)
    )


async def extend_deadline_of_turn(
    tx: Transaction, game_id: int, ply: int | None, named: str, deadline: datetime
) -> None:
    """Move the deadline of an active game's turn at `ply` (None: the turn whose deadline is
    `named`, as stored) to `deadline`, if that is later."""
    await tx.execute(
        "UPDATE games SET deadline_at = MAX(deadline_at, ?) WHERE id = ? "
        "AND status = 'active' AND deadline_at IS NOT NULL "
        "AND (ply = ? OR (? IS NULL AND deadline_at = ?))",
        (to_db(deadline), game_id, ply, ply, named),
    )


async def extend_turn(tx: Transaction, game_id: int, turn: Turn) -> None:
    """The game's deadline and reminder as `turn` sets them, if that deadline is later."""
    await tx.execute(
        "UPDATE games SET deadline_at = ?, reminder_at = ? WHERE id = ? AND deadline_at < ?",
        (to_db(turn.deadline), to_db_or_none(turn.reminder), game_id, to_db(turn.deadline)),
    )


async def mark_day_given(tx: Transaction, game_id: int) -> None:
    """A day was given on the game's current turn (its version), by a board's button."""
    await tx.execute("UPDATE games SET day_given_version = version WHERE id = ?", (game_id,))


async def show_in(
    tx: Transaction, game_id: int, *, thread_id: int | None, message_id: int | None
) -> None:
    """Where the game is shown: its thread and its board message (None: unchanged)."""
    await tx.execute(
        "UPDATE games SET thread_id = COALESCE(?, thread_id), "
        "message_id = COALESCE(?, message_id) WHERE id = ?",
        (thread_id, message_id, game_id),
    )


async def forget_thread(tx: Transaction, game_id: int) -> None:
    """The game's thread is gone: it is shown in its channel from now on."""
    await tx.execute("UPDATE games SET thread_id = NULL WHERE id = ?", (game_id,))
