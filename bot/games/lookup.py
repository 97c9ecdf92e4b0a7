"""Finding and reading games: a player's games (all of them, or a page at a time as they stood
at one moment, for `/tak games`; those awaiting their move, for a digest), a channel's or a
thread's game, a game's record (PTN with tags, TPS), and the earlier games a new game's thread
points to.

A page of games is read from one snapshot: the games that were in progress (or over) at the
moment of the first listing, in a fixed order. A game started, ended or moved on since does not
shift the pages, so paging forward and back shows each game once, on the same page each time;
each line still shows the game as it is now (whose move, the clock, or its result).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import Enum

from bot.games.model import GAME_SELECT, GameView, game_from_row
from bot.games.statistics import PlayedMove, PlayerStatistics, statistics_of
from bot.games.storage import fetch_game
from bot.store import Database, Row, from_db, to_db
from tak import Color, ResultKind, parse_move
from tak.ptn import TIE_RULE_COMMENT, Game, GamePly

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


MAX_LIST = 100


class LookupService:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def awaiting(self, player_id: int, guild_id: int) -> list[GameView]:
        """The server's active games in which it is the player's move, soonest deadline first."""
        rows = await self._db.fetchall(
            GAME_SELECT + " WHERE g.guild_id = ? AND g.status = 'active' "
            "AND ? IN (g.white_id, g.black_id) ORDER BY g.deadline_at IS NULL, g.deadline_at, g.id",
            (guild_id, player_id),
        )
        games = [game_from_row(row) for row in rows]
        return [game for game in games if game.player_to_move.id == player_id]

    async def games_for_player(
        self, player_id: int, *, guild_id: int | None = None
    ) -> list[GameView]:
        """The player's active games: those awaiting their move first, each group by deadline."""
        rows = await self._db.fetchall(
            GAME_SELECT + " WHERE g.status = 'active' AND (g.white_id = ? OR g.black_id = ?) "
            "AND (? IS NULL OR g.guild_id = ?) "
            "ORDER BY CASE WHEN (g.ply % 2 = 0) = (g.white_id = ?) THEN 0 ELSE 1 END, "
            "g.deadline_at IS NULL, g.deadline_at, g.id LIMIT ?",
            (player_id, player_id, guild_id, guild_id, player_id, MAX_LIST),
        )
        return [game_from_row(row) for row in rows]

    async def finished_games(
        self, *, guild_id: int | None = None, player_id: int | None = None, limit: int = 25
    ) -> list[GameView]:
        """Games that are over (finished or aborted), the most recent first."""
        rows = await self._db.fetchall(
            GAME_SELECT + " WHERE g.status != 'active' AND (? IS NULL OR g.guild_id = ?) "
            "AND (? IS NULL OR g.white_id = ? OR g.black_id = ?) "
            "ORDER BY g.finished_at DESC, g.id DESC LIMIT ?",
            (guild_id, guild_id, player_id, player_id, player_id, min(limit, MAX_LIST)),
        )
        return [game_from_row(row) for row in rows]

    async def statistics(
        self, player_id: int, guild_id: int, *, bot_id: int | None, size: int | None = None
    ) -> PlayerStatistics:
        """The player's record in the server, on `size` or every size
        (:func:`bot.games.statistics.statistics_of`), read from one snapshot."""
        where = (
            " WHERE g.guild_id = ? AND g.status = 'finished' AND ? IN (g.white_id, g.black_id) "
            "AND (CAST(? AS INTEGER) IS NULL OR g.size = ?)"
        )
        params = (guild_id, player_id, size, size)
        async with self._db.snapshot() as tx:
            rows = await tx.fetchall(
                GAME_SELECT + where + " ORDER BY g.finished_at DESC, g.id DESC", params
            )
            logged = await tx.fetchall(
                "SELECT m.game_id, m.ply, m.ptn, m.player_id, m.played_at FROM moves m "
                "JOIN games g ON g.id = m.game_id" + where + " AND m.undone_at IS NULL "
                "ORDER BY m.game_id, m.ply",
                params,
            )
        # A prolific player's record is tens of thousands of moves: counted off the event loop.
        return await asyncio.to_thread(_statistics, player_id, rows, logged, bot_id)

    async def record(self, game_id: int) -> Game:
        """The game as a PTN record: tags, the live moves, and the result once over."""
        async with self._db.snapshot() as tx:
            game = await fetch_game(tx, game_id)
            rows = await tx.fetchall(
                "SELECT ptn FROM moves WHERE game_id = ? AND undone_at IS NULL ORDER BY ply",
                (game.id,),
            )
            event = await tx.fetchone(
                "SELECT t.name, tp.round FROM tournament_pairings tp "
                "JOIN tournaments t ON t.id = tp.tournament_id WHERE tp.match_id = ?",
                (game.match_id,),
            )
        tags = ptn_tags(game)
        if event is not None:  # a tournament game: the event and its round (digits only)
            tags["Event"] = event["name"]
            tags["Round"] = str(event["round"])
        record = Game(
            tags=tags,
            plies=[GamePly(parse_move(r["ptn"])) for r in rows],
            comments=[TIE_RULE_COMMENT] if game.setup.antiquity else [],
        )
        record.result = game.result
        return record

    async def ptn(self, game_id: int) -> str:
        return (await self.record(game_id)).ptn()

    async def game_in_thread(self, thread_id: int, guild_id: int) -> GameView | None:
        """The game a thread was made for, whatever its age or status; of a match's games
        sharing the thread, the one in progress, else the latest."""
        row = await self._db.fetchone(
            GAME_SELECT + " WHERE g.thread_id = ? AND g.guild_id = ? "
            "ORDER BY g.status = 'active' DESC, g.id DESC LIMIT 1",
            (thread_id, guild_id),
        )
        return None if row is None else game_from_row(row)

    async def tps(self, game_id: int) -> str:
        """The current position in TPS."""
        async with self._db.snapshot() as tx:
            return (await fetch_game(tx, game_id)).tps

    async def games_page(
        self,
        player_id: int,
        guild_id: int,
        listing: Listing,
        *,
        as_of: datetime,
        number: int = 0,
    ) -> GamesPage:
        """A page of the player's games as they stood at `as_of` (:func:`games_page`)."""
        return await games_page(
            self._db,
            player_id=player_id,
            guild_id=guild_id,
            listing=listing,
            as_of=as_of,
            number=number,
        )

    async def earlier_games(self, game: GameView) -> list[GameView]:
        """Finished games whose threads should point to `game`: the game a rematch came from,
        and in a tournament each player's previous game there (the round before). A match's
        next game shares its thread, so needs no pointer."""
        earlier: dict[int, GameView] = {}
        rows = await self._db.fetchall(
            GAME_SELECT + " JOIN challenges c ON c.rematch_of = g.id WHERE c.game_id = ?",
            (game.id,),
        )
        if game.match_id is not None and (game.match_game or 1) == 1:
            for player in (game.white, game.black):
                rows += await self._db.fetchall(
                    GAME_SELECT + " JOIN tournament_pairings p ON p.match_id = g.match_id "
                    "WHERE p.tournament_id = (SELECT tournament_id FROM tournament_pairings "
                    "WHERE match_id = ?) AND g.match_id != ? AND ? IN (g.white_id, g.black_id) "
                    "AND g.status != 'active' ORDER BY g.id DESC LIMIT 1",
                    (game.match_id, game.match_id, player.id),
                )
        for row in rows:
            before = game_from_row(row)
            if before.id != game.id and (before.thread_id or before.channel_id) != (
                game.thread_id or game.channel_id
            ):
                earlier[before.id] = before
        return list(earlier.values())


def ptn_tags(game: GameView) -> dict[str, str]:
    """Player1/2, Date, Size, Komi, Opening, Clock (the time control, in words: PTN Ninja
    accepts any text there), Flats/Caps when not standard, TPS for a set-up start, Result.

    Only tags PTN Ninja knows, with values it accepts: an aborted game has no Result (PTN Ninja
    has no "0-0"), and names are made safe when the file is written (:meth:`Game.ptn`).
    """
    setup = game.setup
    tags = {
        "Site": "Bredon",
        "Player1": game.white.name,
        "Player2": game.black.name,
        "Date": game.created_at.strftime("%Y.%m.%d"),
        "Size": str(setup.size),
        "Komi": f"{setup.base_komi:g}",
        "Opening": setup.opening.value,
        "Clock": setup.clock.ptn_clock(setup.days_per_move),
    }
    if game.match_game is not None:
        tags["Round"] = str(game.match_game)
    if not setup.standard_reserves:
        for name, pair in (("Flats", setup.stones), ("Caps", setup.caps)):
            if pair[0] == pair[1]:
                tags[name] = str(pair[0])
            else:
                tags[f"{name}1"], tags[f"{name}2"] = str(pair[Color.WHITE]), str(pair[Color.BLACK])
    if setup.start_tps is not None:  # PTN Ninja sets the board up from it
        tags["TPS"] = setup.start_tps
    if game.result is not None and game.result.kind is not ResultKind.ABORT:
        tags["Result"] = game.result.ptn()
    return tags


def _statistics(
    player_id: int, rows: Sequence[Row], logged: Sequence[Row], bot_id: int | None
) -> PlayerStatistics:
    """:func:`bot.games.statistics.statistics_of` over the rows :meth:`LookupService.statistics`
    read."""
    moves: dict[int, list[PlayedMove]] = {}
    for row in logged:
        played_at = from_db(row["played_at"])
        assert played_at is not None  # the column is NOT NULL
        moves.setdefault(row["game_id"], []).append(
            PlayedMove(row["ply"], row["ptn"], row["player_id"], played_at)
        )
    games = [game_from_row(row) for row in rows]
    return statistics_of(player_id, games, moves, bot_id=bot_id)
