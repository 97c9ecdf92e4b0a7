"""A player's games, a page at a time, as they stood at one moment (for `/tak games`).

Each page is read from the same snapshot: the games that were in progress (or over) at the
moment of the first listing, in a fixed order. A game started, ended or moved on since does not
shift the pages, so paging forward and back shows each game once, on the same page each time;
each line still shows the game as it is now (whose move, the clock, or its result).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import Enum

from bot.games.model import GAME_SELECT, GameView, game_from_row
from bot.store import Database, to_db

PAGE_SIZE = 8  # lines of at most ~400 characters fit an embed's 4,096 with room to spare


class Listing(Enum):
    ACTIVE = "active"
    FINISHED = "finished"


# Which games a listing holds, as they stood at the moment (each `?`).
_AT_MOMENT = {
    Listing.ACTIVE: "g.created_at <= ? AND (g.finished_at IS NULL OR g.finished_at > ?)",
    Listing.FINISHED: "g.status != 'active' AND g.finished_at <= ?",
}
_ORDER = {
    Listing.ACTIVE: "g.id",  # oldest first: a new game never comes before an old one
    Listing.FINISHED: "g.finished_at DESC, g.id DESC",  # the most recent first
}


@dataclass(frozen=True, slots=True)
class GamesPage:
    """One page of a listing: its games as they are now, and where it stands in the listing."""

    games: list[GameView]
    number: int  # 0-based
    pages: int  # at least 1
    total: int  # games in the whole listing
    awaiting: list[int]  # the listing's games (any page) now awaiting the player's move
    as_of: datetime

    @property
    def has_previous(self) -> bool:
        return self.number > 0

    @property
    def has_next(self) -> bool:
        return self.number + 1 < self.pages


async def games_page(
    db: Database,
    *,
    player_id: int,
    guild_id: int,
    listing: Listing,
    as_of: datetime,
    number: int,
    page_size: int = PAGE_SIZE,
) -> GamesPage:
    """Page `number` of the player's games in the server as they stood at `as_of` (a page past
    the end shows the last one)."""
    where = (
        f" WHERE g.guild_id = ? AND (g.white_id = ? OR g.black_id = ?) AND {_AT_MOMENT[listing]}"
    )
    moments = [to_db(as_of)] * _AT_MOMENT[listing].count("?")
    params = (guild_id, player_id, player_id, *moments)
    async with db.snapshot() as tx:
        count = await tx.fetchone("SELECT COUNT(*) AS n FROM games g" + where, params)
        total = count["n"] if count is not None else 0
        pages = max(1, -(-total // page_size))
        number = min(max(number, 0), pages - 1)
        rows = await tx.fetchall(
            GAME_SELECT + where + f" ORDER BY {_ORDER[listing]} LIMIT ? OFFSET ?",
            (*params, page_size, number * page_size),
        )
        waiting = await tx.fetchall(
            "SELECT g.id FROM games g" + where + " AND g.status = 'active' "
            "AND (g.ply % 2 = 0) = (g.white_id = ?) ORDER BY g.id",
            (*params, player_id),
        )
    return GamesPage(
        games=[game_from_row(row) for row in rows],
        number=number,
        pages=pages,
        total=total,
        awaiting=[row["id"] for row in waiting],
        as_of=as_of,
    )
