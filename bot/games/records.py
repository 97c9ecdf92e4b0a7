"""Lists of games and game records (PTN with tags, TPS) for the Discord layer to show."""

from __future__ import annotations

from datetime import datetime

from bot.games.listing import GamesPage, Listing, games_page
from bot.games.model import GAME_SELECT, GameView, game_from_row
from bot.games.storage import fetch_game
from bot.store import Database
from tak import Color, ResultKind, parse_move
from tak.ptn import TIE_RULE_COMMENT, Game, GamePly

MAX_LIST = 100


class QueryService:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def games_for_player(
        self, player_id: int, *, guild_id: int | None = None
    ) -> list[GameView]:
        """The player's active games: those awaiting their move first, each group by deadline."""
        rows = await self._db.fetchall(
            GAME_SELECT + " WHERE g.status = 'active' AND (g.white_id = ? OR g.black_id = ?) "
            "AND (? IS NULL OR g.guild_id = ?) "
            "ORDER BY CASE WHEN (g.ply % 2 = 0) = (g.white_id = ?) THEN 0 ELSE 1 END, "
            "g.deadline_at, g.id LIMIT ?",
            (player_id, player_id, guild_id, guild_id, player_id, MAX_LIST),
        )
        return [game_from_row(row) for row in rows]

    async def games_in_channel(self, channel_id: int) -> list[GameView]:
        """Active games shown in a channel or in a thread of that id, oldest first."""
        rows = await self._db.fetchall(
            GAME_SELECT + " WHERE g.status = 'active' AND (g.channel_id = ? OR g.thread_id = ?) "
            "ORDER BY g.id LIMIT ?",
            (channel_id, channel_id, MAX_LIST),
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
        """A page of the player's games as they stood at `as_of` (:mod:`bot.games.listing`)."""
        return await games_page(
            self._db,
            player_id=player_id,
            guild_id=guild_id,
            listing=listing,
            as_of=as_of,
            number=number,
        )


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
