"""Ratings: Glicko-2 per guild and board size, updated in the transaction that ends a rated game.

Each rated game is its own rating period (:func:`bot.players.glicko2.update_after_game`). A win (on
the
board, by resignation or on time) scores 1, a draw 0.5, a loss 0; aborted games are not rated.
A rating whose deviation is still above :data:`bot.players.glicko2.PROVISIONAL_DEVIATION` is
provisional:
shown with a "?" and left off leaderboards.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.games.model import GameStatus, GameView, RatingChange, check_size
from bot.players.glicko2 import Rating, is_provisional, update_after_game
from bot.players.model import PlayerRef
from bot.store import Database, Row, Transaction, to_db
from tak import Color


@dataclass(frozen=True, slots=True)
class PlayerRating:
    """A player's standing on one board size in one guild."""

    player: PlayerRef
    size: int
    rating: Rating
    games: int

    @property
    def provisional(self) -> bool:
        return is_provisional(self.rating)

    def label(self) -> str:
        """'1623' or, while provisional, '1623?'."""
        return f"{self.rating.rating:.0f}{'?' if self.provisional else ''}"


async def _current(tx: Transaction, guild_id: int, size: int, player_id: int) -> Rating:
    row = await tx.fetchone(
        "SELECT rating, deviation, volatility FROM ratings "
        "WHERE guild_id = ? AND size = ? AND player_id = ?",
        (guild_id, size, player_id),
    )
    return Rating(row["rating"], row["deviation"], row["volatility"]) if row else Rating()


async def ratings_on(tx: Transaction, guild_id: int, size: int) -> dict[int, float]:
    """{player: rating} of everyone rated on this board size in the guild."""
    rows = await tx.fetchall(
        "SELECT player_id, rating FROM ratings WHERE guild_id = ? AND size = ?", (guild_id, size)
    )
    return {row["player_id"]: row["rating"] for row in rows}


async def rate_game(
    tx: Transaction, game: GameView, now: datetime
) -> tuple[RatingChange, RatingChange] | None:
    """Update both players' ratings for a rated game that just finished (white's change first);
    None for an unrated or aborted game."""
    if not game.setup.rated or game.status is not GameStatus.FINISHED:
        return None
    winner = game.winner
    score_white = 0.5 if winner is None else 1.0 if winner.id == game.white.id else 0.0
    players = (game.player(Color.WHITE), game.player(Color.BLACK))
    before = [await _current(tx, game.guild_id, game.setup.size, p.id) for p in players]
    after = update_after_game(before[0], before[1], score_white)
    for player, old, new in zip(players, before, after, strict=True):
        await tx.execute(
            "INSERT INTO ratings (guild_id, size, player_id, rating, deviation, volatility, games, "
            "updated_at) VALUES (?, ?, ?, ?, ?, ?, 1, ?) "
            "ON CONFLICT (guild_id, size, player_id) DO UPDATE SET rating = excluded.rating, "
            "deviation = excluded.deviation, volatility = excluded.volatility, "
            "games = ratings.games + 1, updated_at = excluded.updated_at",
            (
                game.guild_id,
                game.setup.size,
                player.id,
                new.rating,
                new.deviation,
                new.volatility,
                to_db(now),
            ),
        )
        await tx.execute(
            "INSERT INTO rating_changes (game_id, player_id, rating_before, rating_after, "
            "deviation_after) VALUES (?, ?, ?, ?, ?)",
            (game.id, player.id, old.rating, new.rating, new.deviation),
        )
    white_change, black_change = (
        RatingChange(player, old, new)
        for player, old, new in zip(players, before, after, strict=True)
    )
    return white_change, black_change


_RATING_SELECT = (
    "SELECT r.size, r.rating, r.deviation, r.volatility, r.games, p.id, p.name "
    "FROM ratings r JOIN players p ON p.id = r.player_id "
)


def _from_row(row: Row) -> PlayerRating:
    return PlayerRating(
        PlayerRef(row["id"], row["name"]),
        row["size"],
        Rating(row["rating"], row["deviation"], row["volatility"]),
        row["games"],
    )


class RatingService:
    """Reading ratings; they change only when rated games end."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def leaderboard(self, guild_id: int, size: int, limit: int = 25) -> list[PlayerRating]:
        """The guild's established players on one board size, best first (provisional excluded)."""
        check_size(size)
        rows = await self._db.fetchall(
            _RATING_SELECT + "WHERE r.guild_id = ? AND r.size = ? ORDER BY r.rating DESC, "
            "p.name COLLATE BINARY",
            (guild_id, size),
        )
        established = [rating for rating in map(_from_row, rows) if not rating.provisional]
        return established[:limit]

    async def player(self, guild_id: int, player_id: int) -> list[PlayerRating]:
        """A player's ratings in the guild, one per board size played rated, by size."""
        rows = await self._db.fetchall(
            _RATING_SELECT + "WHERE r.guild_id = ? AND r.player_id = ? ORDER BY r.size",
            (guild_id, player_id),
        )
        return [_from_row(row) for row in rows]

    async def changes_for_game(self, game_id: int) -> tuple[RatingChange, RatingChange] | None:
        """What a finished rated game did to its players' ratings (white's first), as stored."""
        rows = await self._db.fetchall(
            "SELECT rc.*, p.name, g.white_id FROM rating_changes rc "
            "JOIN players p ON p.id = rc.player_id JOIN games g ON g.id = rc.game_id "
            "WHERE rc.game_id = ? ORDER BY rc.player_id != g.white_id",
            (game_id,),
        )
        if len(rows) != 2:
            return None
        white, black = (
            RatingChange(
                PlayerRef(row["player_id"], row["name"]),
                Rating(row["rating_before"]),
                Rating(row["rating_after"], row["deviation_after"]),
            )
            for row in rows
        )
        return white, black


def replay_ratings(
    games: list[tuple[int, int, float]],
) -> tuple[dict[int, Rating], list[tuple[Rating, Rating, Rating, Rating]]]:
    """Every player's rating after `games` (white, black, white's score) rated in that order
    from scratch, and each game's ratings before and after it (white before, black before,
    white after, black after)."""
    current: dict[int, Rating] = {}
    steps = []
    for white, black, score_white in games:
        before = (current.get(white, Rating()), current.get(black, Rating()))
        after = update_after_game(before[0], before[1], score_white)
        current[white], current[black] = after
        steps.append((*before, *after))
    return current, steps


async def rerate_from(tx: Transaction, guild_id: int, size: int, game_id: int) -> None:
    """Rate the guild's rated games on `size` again after a result changed, from `game_id` on:
    the games are replayed from scratch in the order they were rated (the order of their
    rating_changes rows), and what changed is rewritten: the rating_changes rows of `game_id`
    and every later game, and the current ratings of the players of those games. Game counts
    stay: a corrected result is still one game."""
    rows = await tx.fetchall(
        "SELECT rc.game_id, MIN(rc.rowid) AS rated_as, g.white_id, g.black_id, g.winner_id "
        "FROM rating_changes rc JOIN games g ON g.id = rc.game_id "
        "WHERE g.guild_id = ? AND g.size = ? "
        "GROUP BY rc.game_id, g.white_id, g.black_id, g.winner_id ORDER BY rated_as",
        (guild_id, size),
    )
    games = [
        (
            row["white_id"],
            row["black_id"],
            0.5 if row["winner_id"] is None else float(row["winner_id"] == row["white_id"]),
        )
        for row in rows
    ]
    current, steps = replay_ratings(games)
    first = next((i for i, row in enumerate(rows) if row["game_id"] == game_id), None)
    if first is None:
        return
    touched: set[int] = set()
    for row, (white_before, black_before, white_after, black_after) in zip(
        rows[first:], steps[first:], strict=True
    ):
        for player_id, old, new in (
            (row["white_id"], white_before, white_after),
            (row["black_id"], black_before, black_after),
        ):
            await tx.execute(
                "UPDATE rating_changes SET rating_before = ?, rating_after = ?, "
                "deviation_after = ? WHERE game_id = ? AND player_id = ?",
                (old.rating, new.rating, new.deviation, row["game_id"], player_id),
            )
            touched.add(player_id)
    for player_id in sorted(touched):
        rating = current[player_id]
        await tx.execute(
            "UPDATE ratings SET rating = ?, deviation = ?, volatility = ? "
            "WHERE guild_id = ? AND size = ? AND player_id = ?",
            (rating.rating, rating.deviation, rating.volatility, guild_id, size, player_id),
        )
