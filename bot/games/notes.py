"""Private notes: what a player writes down about one of their games (a plan, a line to check),
for their eyes only and for their own PTN export. Owns the ``game_notes`` table."""

from __future__ import annotations

from bot.errors import InvalidSetting
from bot.games.storage import fetch_game
from bot.languages import _, numeral
from bot.store import Database, to_db
from bot.text_safety import strip_unsafe
from bot.timekeeping.clock import Clock

MAX_NOTE = 1500  # characters; shown back in one Discord message with room to spare


class NoteService:
    def __init__(self, db: Database, clock: Clock) -> None:
        self._db = db
        self._clock = clock

    async def write(self, game_id: int, player_id: int, text: str) -> str | None:
        """Keep `text` as the player's note on the game (an empty text deletes it); returns
        the note as kept. Only the game's players have notes on it."""
        if len(text) > MAX_NOTE:  # as typed: cleaning only shortens it, but costs its length
            raise InvalidSetting(
                _(
                    "A note holds at most {most} characters; this one has {count}.",
                    most=numeral(MAX_NOTE),
                    count=numeral(len(text)),
                )
            )
        note = strip_unsafe(text)
        async with self._db.transaction() as tx:
            (await fetch_game(tx, game_id)).color_of(player_id)  # refuses anyone else
            if not note:
                await tx.execute(
                    "DELETE FROM game_notes WHERE game_id = ? AND player_id = ?",
                    (game_id, player_id),
                )
                return None
            await tx.execute(
                "INSERT INTO game_notes (game_id, player_id, text, updated_at) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (game_id, player_id) "
                "DO UPDATE SET text = excluded.text, updated_at = excluded.updated_at",
                (game_id, player_id, note, to_db(self._clock.now())),
            )
        return note

    async def read(self, game_id: int, player_id: int) -> str | None:
        row = await self._db.fetchone(
            "SELECT text FROM game_notes WHERE game_id = ? AND player_id = ?",
            (game_id, player_id),
        )
        return None if row is None else str(row["text"])
