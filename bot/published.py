"""What a server's web pages show (web/), read here so that the pages hold no SQL: the lobby's
open challenges and games in progress, a player's opponents, and the stamp that says a page has
something new to show.

Only what a server publishes is read: the pages ask :meth:`PublishedService.pages` first, and a
server that never turned its pages on (or a game of no server) is off.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from bot.games.model import (
    CHALLENGE_SELECT,
    GAME_SELECT,
    ChallengeView,
    GameView,
    challenge_from_row,
    game_from_row,
)
from bot.guild_settings import Pages, fetch_guild_settings
from bot.notifications.outbox import OUTBOX_CHANNEL
from bot.players.model import PlayerRef
from bot.store import Database, to_db
from bot.timekeeping.clock import Clock

_TOURNAMENT_STAMP = (
    "status",
    "current_round",
    "winner_id",
    "decided",
    "logged",
    "entered",
    "active",
    "games",
)
LOBBY_LIMIT = 50  # challenges, games: a page a phone can scroll
HEAD_TO_HEAD_GAMES = 500  # the most recent finished games counted against each opponent


@dataclass(frozen=True, slots=True)
class Lobby:
    challenges: list[ChallengeView]  # open ones, oldest first
    games: list[GameView]  # in progress, the most recently moved first


@dataclass(frozen=True, slots=True)
class HeadToHead:
    opponent: PlayerRef
    won: int
    lost: int
    drawn: int


class PublishedService:
    def __init__(self, db: Database, clock: Clock) -> None:
        self._db = db
        self._clock = clock

    async def pages(self, guild_id: int | None) -> Pages:
        """The server's choice; OFF for a game of no server."""
        if not guild_id:
            return Pages.OFF
        async with self._db.snapshot() as tx:
            return (await fetch_guild_settings(tx, guild_id)).pages

    async def lobby(self, guild_id: int) -> Lobby:
        async with self._db.snapshot() as tx:
            challenges = await tx.fetchall(
                CHALLENGE_SELECT + " WHERE c.guild_id = ? AND c.status = 'open' "
                "AND c.expires_at > ? ORDER BY c.created_at, c.id LIMIT ?",
                (guild_id, to_db(self._clock.now()), LOBBY_LIMIT),
            )
            games = await tx.fetchall(
                GAME_SELECT + " WHERE g.guild_id = ? AND g.status = 'active' "
                "ORDER BY COALESCE(g.last_move_at, g.created_at) DESC, g.id DESC LIMIT ?",
                (guild_id, LOBBY_LIMIT),
            )
        return Lobby(
            [challenge_from_row(row) for row in challenges], [game_from_row(row) for row in games]
        )

    async def head_to_head(self, guild_id: int, player_id: int) -> list[HeadToHead]:
        """The player's record against each opponent in the server's finished games (the most
        recent :data:`HEAD_TO_HEAD_GAMES`), the most played first."""
        rows = await self._db.fetchall(
            GAME_SELECT + " WHERE g.guild_id = ? AND g.status = 'finished' "
            "AND ? IN (g.white_id, g.black_id) ORDER BY g.finished_at DESC, g.id DESC LIMIT ?",
            (guild_id, player_id, HEAD_TO_HEAD_GAMES),
        )
        names: dict[int, PlayerRef] = {}
        tally: dict[int, Counter[str]] = {}
        for game in map(game_from_row, rows):
            opponent = game.opponent_of(player_id)
            names[opponent.id] = opponent
            winner = game.winner
            outcome = "drawn" if winner is None else "won" if winner.id == player_id else "lost"
            tally.setdefault(opponent.id, Counter())[outcome] += 1
        records = [
            HeadToHead(names[i], count["won"], count["lost"], count["drawn"])
            for i, count in tally.items()
        ]
        return sorted(records, key=lambda r: (-(r.won + r.lost + r.drawn), r.opponent.name))

    async def stamp(self) -> int:
        """Grows whenever something a page shows may have changed: every move, ending and
        tournament result is announced through the outbox in its own transaction, so its
        highest id is one cheap read (its primary key) for every page at once."""
        row = await self._db.fetchone("SELECT COALESCE(MAX(id), 0) AS n FROM outbox")
        return 0 if row is None else int(row["n"])

    async def tournament_stamp(self, tournament_id: int) -> tuple[object, ...]:
        """What changes when a tournament's page would: its stage, its round, a result decided
        or corrected (its log), a player in or out, a match's next game begun; one read."""
        row = await self._db.fetchone(
            "SELECT t.status, t.current_round, t.winner_id, "
            "(SELECT COUNT(*) FROM tournament_pairings p "
            " WHERE p.tournament_id = t.id AND p.decided_at IS NOT NULL) AS decided, "
            "(SELECT COALESCE(MAX(l.id), 0) FROM tournament_log l "
            " WHERE l.tournament_id = t.id) AS logged, "
            "(SELECT COUNT(*) FROM tournament_players e WHERE e.tournament_id = t.id) AS entered, "
            "(SELECT COUNT(*) FROM tournament_players e "
            " WHERE e.tournament_id = t.id AND e.status = 'active') AS active, "
            "(SELECT COUNT(*) FROM games g JOIN tournament_pairings p ON p.match_id = g.match_id "
            " WHERE p.tournament_id = t.id) AS games "
            "FROM tournaments t WHERE t.id = ?",
            (tournament_id,),
        )
        return () if row is None else tuple(row[name] for name in _TOURNAMENT_STAMP)

    async def follow(self, changed: Callable[[], None]) -> None:
        """Call `changed` when another process announces something (PostgreSQL's
        ``LISTEN``; nothing on SQLite): a wake-up sooner than the next look at :meth:`stamp`."""
        await self._db.listen(OUTBOX_CHANNEL, lambda _payload: changed())
