"""The season tables (``season_leagues``, ``seasons``, ``season_players``,
``season_divisions``): every write to them, as named operations, and the reads the service
shares; always inside a caller's transaction."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from bot.games.model import GameRequest, GameSetup
from bot.players.model import PlayerRef
from bot.seasons.league import (
    DivisionView,
    LeagueRules,
    LeagueView,
    SeasonStatus,
    SeasonView,
)
from bot.store import Row, Transaction, from_db, to_db, to_db_or_none
from bot.tournaments.tournament import TournamentFormat

_LEAGUE_SELECT = (
    "SELECT l.*, o.name AS organizer_name FROM season_leagues l "
    "JOIN players o ON o.id = l.organizer_id"
)
_SEASON_SELECT = (
    "SELECT s.*, (SELECT COUNT(*) FROM season_players sp WHERE sp.season_id = s.id) "
    "AS player_count FROM seasons s"
)


def _league(row: Row) -> LeagueView:
    created = from_db(row["created_at"])
    assert created is not None
    return LeagueView(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        name=row["name"],
        organizer=PlayerRef(row["organizer_id"], row["organizer_name"]),
        rules=LeagueRules(
            format=TournamentFormat(row["format"]),
            division_size=row["division_size"],
            period_days=row["period_days"],
            movers=row["movers"],
            games_per_match=row["games_per_match"],
        ),
        setup=GameSetup.create(
            GameRequest(),
            size=row["size"],
            komi=row["komi"],
            days_per_move=row["days_per_move"],
        ),
        created_at=created,
    )


def _season(row: Row) -> SeasonView:
    return SeasonView(
        id=row["id"],
        league_id=row["league_id"],
        number=row["number"],
        status=SeasonStatus(row["status"]),
        due_at=from_db(row["due_at"]),
        started_at=from_db(row["started_at"]),
        finished_at=from_db(row["finished_at"]),
        player_count=row["player_count"],
    )


# ----------------------------------------------------------------- reading


async def fetch_league(tx: Transaction, guild_id: int) -> LeagueView | None:
    row = await tx.fetchone(_LEAGUE_SELECT + " WHERE l.guild_id = ?", (guild_id,))
    return None if row is None else _league(row)


async def fetch_league_by_id(tx: Transaction, league_id: int) -> LeagueView:
    row = await tx.fetchone(_LEAGUE_SELECT + " WHERE l.id = ?", (league_id,))
    assert row is not None
    return _league(row)


async def fetch_seasons(tx: Transaction, league_id: int) -> list[SeasonView]:
    """The league's seasons, the first first."""
    rows = await tx.fetchall(
        _SEASON_SELECT + " WHERE s.league_id = ? ORDER BY s.number", (league_id,)
    )
    return [_season(row) for row in rows]


async def fetch_season(tx: Transaction, season_id: int) -> SeasonView:
    row = await tx.fetchone(_SEASON_SELECT + " WHERE s.id = ?", (season_id,))
    assert row is not None
    return _season(row)


async def fetch_due(tx: Transaction, now: datetime) -> list[SeasonView]:
    """Seasons whose start or round deadline has come, the earliest first."""
    rows = await tx.fetchall(
        _SEASON_SELECT + " WHERE s.status IN ('signup', 'running') AND s.due_at <= ? "
        "ORDER BY s.due_at, s.id",
        (to_db(now),),
    )
    return [_season(row) for row in rows]


async def next_due_at(tx: Transaction) -> datetime | None:
    row = await tx.fetchone("SELECT MIN(due_at) FROM seasons WHERE status IN ('signup', 'running')")
    return None if row is None else from_db(row[0])


async def fetch_signups(tx: Transaction, season_id: int) -> list[tuple[int, int | None]]:
    """A season's players and the division each earned last season, in sign-up order."""
    rows = await tx.fetchall(
        "SELECT player_id, earned_division FROM season_players WHERE season_id = ? "
        "ORDER BY joined_at, player_id",
        (season_id,),
    )
    return [(row["player_id"], row["earned_division"]) for row in rows]


async def is_signed_up(tx: Transaction, season_id: int, player_id: int) -> bool:
    row = await tx.fetchone(
        "SELECT 1 FROM season_players WHERE season_id = ? AND player_id = ?",
        (season_id, player_id),
    )
    return row is not None


async def fetch_divisions(tx: Transaction, season: SeasonView) -> list[DivisionView]:
    rows = await tx.fetchall(
        "SELECT division, tournament_id FROM season_divisions WHERE season_id = ? "
        "ORDER BY division",
        (season.id,),
    )
    return [DivisionView(season.number, row["division"], row["tournament_id"]) for row in rows]


async def fetch_places(tx: Transaction, season_id: int) -> list[Row]:
    """A finished season's players: their name, division, place and next division, by division
    and place."""
    return await tx.fetchall(
        "SELECT sp.player_id, p.name, sp.division, sp.place, sp.next_division "
        "FROM season_players sp "
        "JOIN players p ON p.id = sp.player_id WHERE sp.season_id = ? "
        "AND sp.place IS NOT NULL ORDER BY sp.division, sp.place",
        (season_id,),
    )


async def fetch_winners(tx: Transaction, league_id: int) -> list[Row]:
    """Each finished season's division winners, the newest season first."""
    return await tx.fetchall(
        "SELECT s.number, sp.division, sp.player_id, p.name FROM season_players sp "
        "JOIN seasons s ON s.id = sp.season_id JOIN players p ON p.id = sp.player_id "
        "WHERE s.league_id = ? AND s.status = 'finished' AND sp.place = 1 "
        "ORDER BY s.number DESC, sp.division",
        (league_id,),
    )


# ----------------------------------------------------------------- writing


async def insert_league(
    tx: Transaction,
    *,
    guild_id: int,
    channel_id: int,
    name: str,
    organizer_id: int,
    rules: LeagueRules,
    setup: GameSetup,
    now: datetime,
) -> int:
    return await tx.insert(
        "INSERT INTO season_leagues (guild_id, channel_id, name, organizer_id, format, "
        "division_size, period_days, movers, games_per_match, size, komi, days_per_move, "
        "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            guild_id,
            channel_id,
            name,
            organizer_id,
            rules.format.value,
            rules.division_size,
            rules.period_days,
            rules.movers,
            rules.games_per_match,
            setup.size,
            setup.base_komi,
            setup.days_per_move,
            to_db(now),
        ),
    )


async def update_league(
    tx: Transaction, league_id: int, channel_id: int, rules: LeagueRules, setup: GameSetup
) -> None:
    await tx.execute(
        "UPDATE season_leagues SET channel_id = ?, format = ?, division_size = ?, "
        "period_days = ?, movers = ?, games_per_match = ?, size = ?, komi = ?, "
        "days_per_move = ? WHERE id = ?",
        (
            channel_id,
            rules.format.value,
            rules.division_size,
            rules.period_days,
            rules.movers,
            rules.games_per_match,
            setup.size,
            setup.base_komi,
            setup.days_per_move,
            league_id,
        ),
    )


async def insert_season(
    tx: Transaction, league_id: int, number: int, due_at: datetime | None
) -> int:
    """A season open for sign-up (starting by itself at `due_at`, if given)."""
    return await tx.insert(
        "INSERT INTO seasons (league_id, number, status, due_at) VALUES (?, ?, 'signup', ?)",
        (league_id, number, to_db_or_none(due_at)),
    )


async def set_due(tx: Transaction, season_id: int, due_at: datetime | None) -> None:
    await tx.execute(
        "UPDATE seasons SET due_at = ? WHERE id = ?", (to_db_or_none(due_at), season_id)
    )


async def mark_started(
    tx: Transaction, season_id: int, now: datetime, round_deadline: datetime
) -> None:
    await tx.execute(
        "UPDATE seasons SET status = 'running', started_at = ?, due_at = ? WHERE id = ?",
        (to_db(now), to_db(round_deadline), season_id),
    )


async def mark_finished(tx: Transaction, season_id: int, now: datetime) -> None:
    await tx.execute(
        "UPDATE seasons SET status = 'finished', finished_at = ?, due_at = NULL WHERE id = ?",
        (to_db(now), season_id),
    )


async def add_player(
    tx: Transaction, season_id: int, player_id: int, earned: int | None, now: datetime
) -> None:
    """A sign-up (`earned`: the division last season sent them to)."""
    await tx.execute(
        "INSERT INTO season_players (season_id, player_id, joined_at, earned_division) "
        "VALUES (?, ?, ?, ?)",
        (season_id, player_id, to_db(now), earned),
    )


async def set_earned(tx: Transaction, season_id: int, player_id: int, earned: int) -> None:
    await tx.execute(
        "UPDATE season_players SET earned_division = ? WHERE season_id = ? AND player_id = ?",
        (earned, season_id, player_id),
    )


async def remove_player(tx: Transaction, season_id: int, player_id: int) -> None:
    await tx.execute(
        "DELETE FROM season_players WHERE season_id = ? AND player_id = ?",
        (season_id, player_id),
    )


async def add_division(
    tx: Transaction, season_id: int, number: int, tournament_id: int, players: Sequence[int]
) -> None:
    await tx.execute(
        "INSERT INTO season_divisions (season_id, division, tournament_id) VALUES (?, ?, ?)",
        (season_id, number, tournament_id),
    )
    for player_id in players:
        await tx.execute(
            "UPDATE season_players SET division = ? WHERE season_id = ? AND player_id = ?",
            (number, season_id, player_id),
        )


async def set_place(
    tx: Transaction, season_id: int, player_id: int, division: int, place: int, going_to: int
) -> None:
    """A player's place in their division's final table (a late entrant's division with it),
    and the division it sends them to next season."""
    await tx.execute(
        "UPDATE season_players SET division = ?, place = ?, next_division = ? "
        "WHERE season_id = ? AND player_id = ?",
        (division, place, going_to, season_id, player_id),
    )
