"""Matches: N-game series between two players, with colours alternating, scored by points.

Scoring (University Edition multi-game rules, completed for the cases the rulebook leaves open):

- A win on the board (road or flats) scores the number of squares plus the winner's unplayed
  stones and capstones (``Position.points``).
- A win by resignation or on time scores the same: squares plus the winner's unplayed pieces at
  that moment. A win is a win, and a player cannot lower the winner's score by resigning early
  (resigning early leaves the winner more pieces in hand, so it never pays).
- A draw (flat count tied, or agreed) scores 0 for both players and counts as a game played.
- An aborted game (only possible before both players have moved) scores nothing and ends the
  match: status ``aborted``, games already played keep their points. Replaying it instead would
  let a series that nobody plays restart itself forever.

The match ends after N counted games; the player with more points wins it, equal points draw it.
A match created ``until_decided`` (a knockout match in a tournament) goes on when the N games leave
the players level: tiebreak games one at a time, colours still alternating, until one of them leads
after a game. Its :class:`~bot.games.model.TiebreakRule` may give the tiebreak games their own
time control and a most; a match still level after the last tiebreak game ends drawn (its
tournament then sends the better seed through).
All-time guild totals add up every finished game in the guild, single games included.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.games.model import (
    GAME_SELECT,
    GameStatus,
    GameView,
    MatchStatus,
    MatchView,
    TiebreakRule,
    game_from_row,
)
from bot.games.storage import fetch_match, insert_game
from bot.players.model import PlayerRef
from bot.store import Database, Transaction, to_db


@dataclass(frozen=True, slots=True)
class PlayerTotals:
    """A player's all-time record in one guild (finished games; aborted ones do not count)."""

    player: PlayerRef
    games: int
    wins: int
    losses: int
    draws: int
    points: int


async def create_match(
    tx: Transaction,
    *,
    guild_id: int,
    player1_id: int,
    player2_id: int,
    games_total: int,
    now: datetime,
    until_decided: bool = False,
    tiebreaks: TiebreakRule | None = None,
) -> int:
    """A new match; player 1 has white in odd-numbered games. `tiebreaks` (for an
    `until_decided` match) sets its tiebreak games' time control and most."""
    new_id = await tx.insert(
        "INSERT INTO matches (guild_id, player1_id, player2_id, games_total, until_decided, "
        "created_at, tiebreak_days_per_move, tiebreak_clock_bank, tiebreak_clock_increment, "
        "tiebreak_clock_cap, tiebreak_games) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            guild_id,
            player1_id,
            player2_id,
            games_total,
            int(until_decided),
            to_db(now),
            *(tiebreaks or TiebreakRule()).to_db(),
        ),
    )
    return new_id


async def record_game_in_match(
    tx: Transaction, game: GameView, now: datetime
) -> tuple[MatchView | None, GameView | None]:
    """Count a game that just ended in its match: the match after it, and the next game if the
    series goes on (created in the same channel with the colours swapped)."""
    if game.match_id is None:
        return None, None
    match = await fetch_match(tx, game.match_id)
    if match.status is not MatchStatus.ACTIVE:
        return match, None
    if game.status is GameStatus.ABORTED:
        await tx.execute(
            "UPDATE matches SET status = 'aborted', finished_at = ? WHERE id = ?",
            (to_db(now), match.id),
        )
        return await fetch_match(tx, match.id), None
    winner = game.winner
    points = game.points or 0
    points1 = points if winner is not None and winner.id == match.player1.id else 0
    points2 = points if winner is not None and winner.id == match.player2.id else 0
    played = match.games_played + 1
    level = match.points1 + points1 == match.points2 + points2
    tiebreaks_left = match.until_decided and not match.tiebreaks.exhausted(
        played - match.games_total
    )
    finished = played >= match.games_total and not (level and tiebreaks_left)
    await tx.execute(
        "UPDATE matches SET games_played = ?, points1 = points1 + ?, points2 = points2 + ?, "
        "status = ?, finished_at = ? WHERE id = ?",
        (
            played,
            points1,
            points2,
            MatchStatus.FINISHED.value if finished else MatchStatus.ACTIVE.value,
            to_db(now) if finished else None,
            match.id,
        ),
    )
    next_game = None
    if not finished:
        number = (game.match_game or played) + 1
        tiebreak = number - match.games_total if number > match.games_total else None
        white, black = (match.player1, match.player2)
        if number % 2 == 0:
            white, black = black, white
        next_game = await insert_game(
            tx,
            guild_id=game.guild_id,
            channel_id=game.channel_id,
            thread_id=game.thread_id,
            white_id=white.id,
            black_id=black.id,
            setup=game.setup if tiebreak is None else match.tiebreaks.setup(game.setup),
            now=now,
            match_id=match.id,
            match_game=number,
            tiebreak=tiebreak,
            place=game.place,
        )
    return await fetch_match(tx, match.id), next_game


class MatchService:
    """Reading matches and guild standings; matches change only through their games."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def get(self, match_id: int) -> MatchView:
        async with self._db.snapshot() as tx:
            return await fetch_match(tx, match_id)

    async def games(self, match_id: int) -> list[GameView]:
        """The match's games in order (an aborted one included)."""
        async with self._db.snapshot() as tx:
            await fetch_match(tx, match_id)
            rows = await tx.fetchall(
                GAME_SELECT + " WHERE g.match_id = ? ORDER BY g.match_game, g.id", (match_id,)
            )
        return [game_from_row(row) for row in rows]

    async def guild_totals(self, guild_id: int, *, bot_id: int | None = None) -> list[PlayerTotals]:
        """Every player's all-time record in the guild, most points first. Games against the
        bot (`bot_id`) count in their game and match only, not here."""
        rows = await self._db.fetchall(
            "SELECT p.id, p.name, COUNT(*) AS games, "
            "SUM(CASE WHEN g.winner_id = p.id THEN 1 ELSE 0 END) AS wins, "
            "SUM(CASE WHEN g.winner_id != p.id THEN 1 ELSE 0 END) AS losses, "
            "SUM(CASE WHEN g.winner_id IS NULL THEN 1 ELSE 0 END) AS draws, "
            "SUM(CASE WHEN g.winner_id = p.id THEN g.points ELSE 0 END) AS points "
            "FROM games g JOIN players p ON p.id IN (g.white_id, g.black_id) "
            "WHERE g.guild_id = ? AND g.status = 'finished' "
            "AND COALESCE(CAST(? AS BIGINT), 0) NOT IN (g.white_id, g.black_id) "
            "GROUP BY p.id, p.name ORDER BY points DESC, wins DESC, p.name COLLATE BINARY",
            (guild_id, bot_id),
        )
        return [
            PlayerTotals(
                PlayerRef(row["id"], row["name"]),
                row["games"],
                row["wins"],
                row["losses"],
                row["draws"],
                row["points"],
            )
            for row in rows
        ]


async def set_match_points(tx: Transaction, match_id: int, points1: int, points2: int) -> None:
    """The match's score, worked out again after a corrected result."""
    await tx.execute(
        "UPDATE matches SET points1 = ?, points2 = ? WHERE id = ?", (points1, points2, match_id)
    )


async def replace_match_player(tx: Transaction, match_id: int, old_id: int, new_id: int) -> None:
    """`new_id` takes `old_id`'s place in the match, on whichever side they were."""
    await tx.execute(
        "UPDATE matches SET player1_id = CASE player1_id WHEN ? THEN ? ELSE player1_id END, "
        "player2_id = CASE player2_id WHEN ? THEN ? ELSE player2_id END WHERE id = ?",
        (old_id, new_id, old_id, new_id, match_id),
    )
