"""The league tables (``leagues``, ``league_teams``, ``league_players``, ``league_rounds``,
``league_matches``, ``league_lineups``, ``league_boards``): every write to them, as named
operations, and the reads the service shares; always inside a caller's transaction."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from bot.leagues.model import (
    BoardView,
    LeagueStatus,
    LeagueView,
    MatchView,
    RoundView,
    TeamView,
)
from bot.players.model import PlayerRef
from bot.store import Row, Transaction, from_db, to_db

_LEAGUE_SELECT = (
    "SELECT l.*, o.name AS organizer_name FROM leagues l JOIN players o ON o.id = l.organizer_id"
)


def _moment(text: str) -> datetime:
    moment = from_db(text)
    assert moment is not None
    return moment


def _league(row: Row) -> LeagueView:
    return LeagueView(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        name=row["name"],
        organizer=PlayerRef(row["organizer_id"], row["organizer_name"]),
        boards=row["boards"],
        size=row["size"],
        komi=row["komi"],
        days_per_move=row["days_per_move"],
        round_days=row["round_days"],
        status=LeagueStatus(row["status"]),
        created_at=_moment(row["created_at"]),
        started_at=from_db(row["started_at"]),
        finished_at=from_db(row["finished_at"]),
        cancelled_at=from_db(row["cancelled_at"]),
        legs=row["legs"],
    )


# ----------------------------------------------------------------- leagues


async def insert_league(
    tx: Transaction,
    *,
    guild_id: int,
    channel_id: int,
    name: str,
    organizer_id: int,
    boards: int,
    size: int,
    komi: float,
    days_per_move: int,
    round_days: int,
    legs: int,
    now: datetime,
) -> int:
    return await tx.insert(
        "INSERT INTO leagues (guild_id, channel_id, name, organizer_id, boards, size, komi, "
        "days_per_move, round_days, legs, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            guild_id,
            channel_id,
            name,
            organizer_id,
            boards,
            size,
            komi,
            days_per_move,
            round_days,
            legs,
            to_db(now),
        ),
    )


async def fetch_league(tx: Transaction, league_id: int) -> LeagueView | None:
    row = await tx.fetchone(_LEAGUE_SELECT + " WHERE l.id = ?", (league_id,))
    return None if row is None else _league(row)


async def league_named(tx: Transaction, guild_id: int, name: str) -> LeagueView | None:
    row = await tx.fetchone(
        _LEAGUE_SELECT + " WHERE l.guild_id = ? AND LOWER(l.name) = LOWER(?)", (guild_id, name)
    )
    return None if row is None else _league(row)


async def guild_leagues(tx: Transaction, guild_id: int) -> list[LeagueView]:
    """The server's leagues, the newest first."""
    rows = await tx.fetchall(
        _LEAGUE_SELECT + " WHERE l.guild_id = ? ORDER BY l.id DESC", (guild_id,)
    )
    return [_league(row) for row in rows]


async def mark_started(tx: Transaction, league_id: int, now: datetime) -> None:
    await tx.execute(
        "UPDATE leagues SET status = 'running', started_at = ? WHERE id = ?",
        (to_db(now), league_id),
    )


async def mark_finished(tx: Transaction, league_id: int, now: datetime) -> None:
    await tx.execute(
        "UPDATE leagues SET status = 'finished', finished_at = ? WHERE id = ?",
        (to_db(now), league_id),
    )


async def mark_cancelled(tx: Transaction, league_id: int, now: datetime) -> None:
    await tx.execute(
        "UPDATE leagues SET status = 'finished', finished_at = ?, cancelled_at = ? WHERE id = ?",
        (to_db(now), to_db(now), league_id),
    )


# ----------------------------------------------------------------- teams and rosters


async def insert_team(
    tx: Transaction, league_id: int, name: str, captain_id: int, now: datetime
) -> int:
    return await tx.insert(
        "INSERT INTO league_teams (league_id, name, captain_id, created_at) VALUES (?, ?, ?, ?)",
        (league_id, name, captain_id, to_db(now)),
    )


async def add_player(
    tx: Transaction, league_id: int, team_id: int, player_id: int, now: datetime
) -> None:
    await tx.execute(
        "INSERT INTO league_players (league_id, player_id, team_id, added_at) VALUES (?, ?, ?, ?)",
        (league_id, player_id, team_id, to_db(now)),
    )


async def remove_player(tx: Transaction, league_id: int, player_id: int) -> None:
    await tx.execute(
        "DELETE FROM league_players WHERE league_id = ? AND player_id = ?", (league_id, player_id)
    )


async def delete_team(tx: Transaction, league_id: int, team_id: int) -> None:
    """A team and its roster, before the start (no match names it yet)."""
    await tx.execute(
        "DELETE FROM league_players WHERE league_id = ? AND team_id = ?", (league_id, team_id)
    )
    await tx.execute("DELETE FROM league_teams WHERE id = ?", (team_id,))


async def set_captain(tx: Transaction, team_id: int, captain_id: int) -> None:
    await tx.execute("UPDATE league_teams SET captain_id = ? WHERE id = ?", (captain_id, team_id))


async def fetch_teams(tx: Transaction, league_id: int) -> list[TeamView]:
    """The league's teams in the order they were added, each with its roster."""
    teams = await tx.fetchall(
        "SELECT t.*, c.name AS captain_name FROM league_teams t "
        "JOIN players c ON c.id = t.captain_id WHERE t.league_id = ? ORDER BY t.id",
        (league_id,),
    )
    members = await tx.fetchall(
        "SELECT lp.team_id, p.id, p.name FROM league_players lp JOIN players p ON p.id = "
        "lp.player_id WHERE lp.league_id = ? ORDER BY lp.added_at, p.id",
        (league_id,),
    )
    return [
        TeamView(
            id=team["id"],
            league_id=league_id,
            name=team["name"],
            captain=PlayerRef(team["captain_id"], team["captain_name"]),
            roster=tuple(
                PlayerRef(m["id"], m["name"]) for m in members if m["team_id"] == team["id"]
            ),
        )
        for team in teams
    ]


# ----------------------------------------------------------------- rounds and matches


async def insert_round(tx: Transaction, league_id: int, number: int, deadline: datetime) -> None:
    await tx.execute(
        "INSERT INTO league_rounds (league_id, round, lineup_deadline) VALUES (?, ?, ?)",
        (league_id, number, to_db(deadline)),
    )


async def insert_match(
    tx: Transaction, league_id: int, number: int, home_id: int, away_id: int | None
) -> int:
    return await tx.insert(
        "INSERT INTO league_matches (league_id, round, home_team_id, away_team_id) "
        "VALUES (?, ?, ?, ?)",
        (league_id, number, home_id, away_id),
    )


async def fetch_rounds(tx: Transaction, league_id: int) -> list[RoundView]:
    rows = await tx.fetchall(
        "SELECT round, lineup_deadline, begun_at FROM league_rounds WHERE league_id = ? "
        "ORDER BY round",
        (league_id,),
    )
    return [
        RoundView(row["round"], _moment(row["lineup_deadline"]), row["begun_at"] is not None)
        for row in rows
    ]


async def due_rounds(tx: Transaction, now: datetime) -> list[tuple[int, int]]:
    """(league, round) of the running leagues' rounds whose lineups are due and whose games are
    not made yet, the earliest first."""
    rows = await tx.fetchall(
        "SELECT r.league_id, r.round FROM league_rounds r JOIN leagues l ON l.id = r.league_id "
        "WHERE l.status = 'running' AND r.begun_at IS NULL AND r.lineup_deadline <= ? "
        "ORDER BY r.lineup_deadline, r.league_id, r.round",
        (to_db(now),),
    )
    return [(row["league_id"], row["round"]) for row in rows]


async def unreminded_rounds(tx: Transaction) -> list[tuple[int, int, datetime, int]]:
    """(league, round, lineup deadline, days between rounds) of the running leagues' rounds
    whose games are not made and whose captains have not been reminded yet."""
    rows = await tx.fetchall(
        "SELECT r.league_id, r.round, r.lineup_deadline, l.round_days FROM league_rounds r "
        "JOIN leagues l ON l.id = r.league_id "
        "WHERE l.status = 'running' AND r.begun_at IS NULL AND r.reminded = 0 "
        "ORDER BY r.lineup_deadline, r.league_id, r.round"
    )
    return [
        (row["league_id"], row["round"], _moment(row["lineup_deadline"]), row["round_days"])
        for row in rows
    ]


async def claim_reminder(tx: Transaction, league_id: int, number: int) -> bool:
    """Mark the round's reminder sent; False when it already was (another process sent it)."""
    changed = await tx.execute(
        "UPDATE league_rounds SET reminded = 1 WHERE league_id = ? AND round = ? AND reminded = 0",
        (league_id, number),
    )
    return changed == 1


async def teams_with_lineup(tx: Transaction, league_id: int, number: int) -> set[int]:
    """The teams whose captain set a lineup for the round."""
    rows = await tx.fetchall(
        "SELECT DISTINCT ll.team_id FROM league_lineups ll JOIN league_matches m "
        "ON m.id = ll.match_id WHERE m.league_id = ? AND m.round = ?",
        (league_id, number),
    )
    return {row["team_id"] for row in rows}


NEXT_LINEUP_DUE = (
    "SELECT MIN(r.lineup_deadline) FROM league_rounds r JOIN leagues l ON l.id = r.league_id "
    "WHERE l.status = 'running' AND r.begun_at IS NULL"
)


async def claim_round(tx: Transaction, league_id: int, number: int, now: datetime) -> bool:
    """Mark the round begun; False when it already was (another process made its games)."""
    changed = await tx.execute(
        "UPDATE league_rounds SET begun_at = ? WHERE league_id = ? AND round = ? "
        "AND begun_at IS NULL",
        (to_db(now), league_id, number),
    )
    return changed == 1


async def set_lineup(
    tx: Transaction, match_id: int, team_id: int, players: Sequence[int], now: datetime
) -> None:
    """The team's lineup for the match, board 1 first, in place of any earlier one."""
    await tx.execute(
        "DELETE FROM league_lineups WHERE match_id = ? AND team_id = ?", (match_id, team_id)
    )
    for board, player_id in enumerate(players, start=1):
        await tx.execute(
            "INSERT INTO league_lineups (match_id, team_id, board, player_id, set_at) "
            "VALUES (?, ?, ?, ?, ?)",
            (match_id, team_id, board, player_id, to_db(now)),
        )


async def fetch_lineup(tx: Transaction, match_id: int, team_id: int) -> list[int] | None:
    """The lineup the captain set, board 1 first; None when they set none."""
    rows = await tx.fetchall(
        "SELECT player_id FROM league_lineups WHERE match_id = ? AND team_id = ? ORDER BY board",
        (match_id, team_id),
    )
    return [row["player_id"] for row in rows] or None


async def insert_board(
    tx: Transaction,
    match_id: int,
    board: int,
    players: tuple[int | None, int | None],
    *,
    game_id: int | None,
    halves: tuple[int, int] | None,
    now: datetime,
) -> None:
    """A board of a begun match: its game, or (`halves` given) its forfeit, decided at once."""
    decided = None if halves is None else to_db(now)
    home_halves, away_halves = halves or (0, 0)
    await tx.execute(
        "INSERT INTO league_boards (match_id, board, home_player_id, away_player_id, game_id, "
        "home_halves, away_halves, decided_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (match_id, board, *players, game_id, home_halves, away_halves, decided),
    )


async def board_of_game(tx: Transaction, game_id: int) -> tuple[int, int, int] | None:
    """(match, board, home player) of the league game, if it is one and undecided."""
    row = await tx.fetchone(
        "SELECT match_id, board, home_player_id FROM league_boards "
        "WHERE game_id = ? AND decided_at IS NULL",
        (game_id,),
    )
    return None if row is None else (row["match_id"], row["board"], row["home_player_id"])


async def match_of_game(tx: Transaction, game_id: int) -> int | None:
    """The league match whose board the game is played on, if any."""
    row = await tx.fetchone("SELECT match_id FROM league_boards WHERE game_id = ?", (game_id,))
    return None if row is None else int(row["match_id"])


async def league_of_match(tx: Transaction, match_id: int) -> int:
    row = await tx.fetchone("SELECT league_id FROM league_matches WHERE id = ?", (match_id,))
    assert row is not None
    return int(row["league_id"])


async def decide_board(
    tx: Transaction, match_id: int, board: int, halves: tuple[int, int], now: datetime
) -> None:
    await tx.execute(
        "UPDATE league_boards SET home_halves = ?, away_halves = ?, decided_at = ? "
        "WHERE match_id = ? AND board = ?",
        (*halves, to_db(now), match_id, board),
    )


async def decide_match(tx: Transaction, match_id: int, now: datetime) -> None:
    await tx.execute(
        "UPDATE league_matches SET decided_at = ? WHERE id = ? AND decided_at IS NULL",
        (to_db(now), match_id),
    )


_MATCH_SELECT = (
    "SELECT m.*, h.name AS home_name, a.name AS away_name FROM league_matches m "
    "JOIN league_teams h ON h.id = m.home_team_id LEFT JOIN league_teams a ON a.id = "
    "m.away_team_id"
)


async def fetch_matches(
    tx: Transaction, league_id: int, number: int | None = None, *, ids: Sequence[int] = ()
) -> list[MatchView]:
    """The league's matches (of round `number`, or those of `ids`), by round, byes last."""
    where, params = "m.league_id = ?", [league_id]
    if number is not None:
        where += " AND m.round = ?"
        params.append(number)
    rows = await tx.fetchall(
        f"{_MATCH_SELECT} WHERE {where} ORDER BY m.round, m.away_team_id IS NULL, m.id",
        tuple(params),
    )
    if ids:
        rows = [row for row in rows if row["id"] in ids]
    boards = await tx.fetchall(
        "SELECT b.*, hp.name AS home_name, ap.name AS away_name FROM league_boards b "
        "JOIN league_matches m ON m.id = b.match_id "
        "LEFT JOIN players hp ON hp.id = b.home_player_id "
        "LEFT JOIN players ap ON ap.id = b.away_player_id "
        "WHERE m.league_id = ? ORDER BY b.match_id, b.board",
        (league_id,),
    )

    def player(row: Row, side: str) -> PlayerRef | None:
        player_id = row[f"{side}_player_id"]
        return None if player_id is None else PlayerRef(player_id, row[f"{side}_name"])

    return [
        MatchView(
            id=row["id"],
            league_id=league_id,
            round=row["round"],
            home_id=row["home_team_id"],
            home_name=row["home_name"],
            away_id=row["away_team_id"],
            away_name=row["away_name"],
            decided=row["decided_at"] is not None,
            boards=tuple(
                BoardView(
                    board=b["board"],
                    home=player(b, "home"),
                    away=player(b, "away"),
                    game_id=b["game_id"],
                    home_halves=b["home_halves"],
                    away_halves=b["away_halves"],
                    decided=b["decided_at"] is not None,
                )
                for b in boards
                if b["match_id"] == row["id"]
            ),
        )
        for row in rows
    ]
