"""The ``players`` table's writes, always inside a caller's transaction."""

from __future__ import annotations

from datetime import datetime

from bot.players.model import NotifyMode, PlayerRef
from bot.store import Transaction, to_db


async def save_player(tx: Transaction, player: PlayerRef, now: datetime) -> None:
    """Create the player, or refresh the display name they go by now."""
    await tx.execute(
        "INSERT INTO players (id, name, created_at, updated_at) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (id) DO UPDATE SET name = excluded.name, updated_at = excluded.updated_at "
        "WHERE players.name IS DISTINCT FROM excluded.name",
        (player.id, player.name, to_db(now), to_db(now)),
    )


async def set_theme(tx: Transaction, player_id: int, theme: str | None, now: datetime) -> None:
    await tx.execute(
        "UPDATE players SET theme = ?, updated_at = ? WHERE id = ?",
        (theme, to_db(now), player_id),
    )


async def set_notify(tx: Transaction, player_id: int, mode: NotifyMode, now: datetime) -> None:
    await tx.execute(
        "UPDATE players SET notify = ?, updated_at = ? WHERE id = ?",
        (mode.value, to_db(now), player_id),
    )


async def set_auto_vacation(tx: Transaction, player_id: int, on: bool, now: datetime) -> None:
    await tx.execute(
        "UPDATE players SET auto_vacation = ?, updated_at = ? WHERE id = ?",
        (int(on), to_db(now), player_id),
    )


async def set_language(
    tx: Transaction, player_id: int, language: str | None, now: datetime
) -> None:
    await tx.execute(
        "UPDATE players SET language = ?, updated_at = ? WHERE id = ?",
        (language, to_db(now), player_id),
    )


async def note_locale(tx: Transaction, player_id: int, locale: str) -> int:
    """Remember the Discord language a player's command came in, if it changed (no write
    otherwise); how many rows changed."""
    return await tx.execute(
        "UPDATE players SET discord_locale = ? WHERE id = ? AND discord_locale IS DISTINCT FROM ?",
        (locale, player_id, locale),
    )
