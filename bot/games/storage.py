"""Reads and writes that several services share, always inside a caller's transaction."""

from __future__ import annotations

import sqlite3
from datetime import datetime

from bot.errors import UnknownChallenge, UnknownGame, UnknownMatch
from bot.games.model import (
    CHALLENGE_SELECT,
    GAME_SELECT,
    MATCH_SELECT,
    ChallengeView,
    GameSetup,
    GameView,
    MatchView,
    PlayerRef,
    challenge_from_row,
    game_from_row,
    match_from_row,
)
from bot.store import Transaction, to_db, to_db_or_none
from bot.timekeeping.turns import clock_held, next_reminder, reminder_offsets, starting_clocks


async def fetch_game(tx: Transaction, game_id: int) -> GameView:
    return game_from_row(await _game_row(tx, game_id))


async def fetch_game_version(tx: Transaction, game_id: int) -> tuple[GameView, int]:
    """The game and the version of its position (see :mod:`bot.games.service`)."""
    row = await _game_row(tx, game_id)
    return game_from_row(row), row["version"]


async def _game_row(tx: Transaction, game_id: int) -> sqlite3.Row:
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


async def save_player(tx: Transaction, player: PlayerRef, now: datetime) -> None:
    """Create the player, or refresh the display name they go by now."""
    await tx.execute(
        "INSERT INTO players (id, name, created_at, updated_at) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (id) DO UPDATE SET name = excluded.name, updated_at = excluded.updated_at "
        "WHERE name IS NOT excluded.name",
        (player.id, player.name, to_db(now), to_db(now)),
    )


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
    cursor = await tx.execute(
        "INSERT INTO games (guild_id, channel_id, thread_id, white_id, black_id, size, komi, "
        "opening, stones1, stones2, caps1, caps2, rated, days_per_move, tps, deadline_at, "
        "reminder_at, match_id, match_game, created_at, antiquity, clock_bank, clock_increment, "
        "clock_cap, clock_left1, clock_left2, tiebreak, start_tps, ply) "
        f"VALUES ({', '.join('?' * 29)})",
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
        ),
    )
    assert cursor.lastrowid is not None
    if await clock_held(tx, cursor.lastrowid, now):
        await tx.execute(
            "UPDATE games SET frozen_at = ? WHERE id = ?", (to_db(now), cursor.lastrowid)
        )
    return await fetch_game(tx, cursor.lastrowid)
