"""What the pictures show, read from the store: a tournament's standings and bracket, a round's
pairings, a player's rating history. Rendering them (Pillow, tens of ms) is left to the caller,
which can do it off the event loop."""

from __future__ import annotations

from dataclasses import dataclass

from bot import picture_data
from bot.services.tournament_rounds import (
    TournamentFormat,
    fetch_entrants,
    fetch_pairings,
    fetch_place_holders,
    fetch_tournament,
    pairings_by_place,
)
from bot.services.tournaments import TournamentService
from bot.services.views import check_size
from bot.store import Database, from_db
from rendering.bracket import Bracket
from rendering.chart import RatingHistory, RatingPoint
from rendering.pairings import RoundPairings
from rendering.standings import StandingsTable


@dataclass(frozen=True, slots=True)
class TournamentPictures:
    """The standings table (None before two players have joined) and, for a knockout that has
    started, its bracket. A groups -> knockout event that has started has one table a group in
    `groups` instead of `standings`, and its bracket once the groups are over."""

    standings: StandingsTable | None
    bracket: Bracket | None
    groups: tuple[StandingsTable, ...] = ()


class PictureService:
    def __init__(self, db: Database, tournaments: TournamentService) -> None:
        self._db = db
        self._tournaments = tournaments

    async def tournament(self, tournament_id: int) -> TournamentPictures:
        rows = await self._tournaments.standings(tournament_id)
        async with self._db.snapshot() as tx:
            tournament = await fetch_tournament(tx, tournament_id)
            every = await fetch_pairings(tx, tournament_id)
            every = pairings_by_place(every, await fetch_place_holders(tx, tournament_id))
        if any(row.group is not None for row in rows):
            groups = picture_data.group_tables(tournament, rows, every)
            entrants = await self._tournaments.entrants(tournament_id)
            drawn = None
            if sum(1 for e in entrants if e.knockout_seed is not None) >= 2:
                drawn = picture_data.bracket(tournament, entrants, every)
            return TournamentPictures(None, drawn, groups)
        table = picture_data.standings_table(tournament, rows, every) if rows else None
        drawn = None
        if tournament.format is TournamentFormat.ELIMINATION and tournament.current_round:
            entrants = await self._tournaments.entrants(tournament_id)
            drawn = picture_data.bracket(tournament, entrants, every)
        return TournamentPictures(table, drawn)

    async def round(self, tournament_id: int, number: int | None = None) -> RoundPairings:
        """A round's pairings (the current round by default); refused as
        :meth:`TournamentService.pairings` refuses."""
        shown = await self._tournaments.pairings(tournament_id, number)
        async with self._db.snapshot() as tx:
            tournament = await fetch_tournament(tx, tournament_id)
            entrants = await fetch_entrants(tx, tournament_id)
            holders = await fetch_place_holders(tx, tournament_id)
        return picture_data.round_pairings(
            tournament, shown.number, shown.pairings, entrants, holders
        )

    async def rating_history(
        self, guild_id: int, player_id: int, name: str, size: int
    ) -> RatingHistory:
        """The player's rating after each rated game on `size` in the guild, oldest first."""
        check_size(size)
        rows = await self._db.fetchall(
            "SELECT rc.rating_after, g.finished_at FROM rating_changes rc "
            "JOIN games g ON g.id = rc.game_id "
            "WHERE g.guild_id = ? AND g.size = ? AND rc.player_id = ? "
            "ORDER BY g.finished_at, g.id",
            (guild_id, size, player_id),
        )
        points = tuple(
            RatingPoint(row["rating_after"], from_db(row["finished_at"])) for row in rows
        )
        return RatingHistory(name, points, f"{size}x{size}")
