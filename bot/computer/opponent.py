"""Games against Bredon itself: challenges to the bot's own user, its level, whose turn it is.

A game against the bot is a normal game whose player row is the bot's Discord user: the same
threads, boards, Tak calls and deadlines. How it counts: never rated (so never on a
leaderboard), never for coins (a challenge to the bot with stakes is declined), never in a
tournament (the bot joins none); points count in the game and its match only.

The database is the queue: a challenge addressed to the bot is accepted by :meth:`accept_waiting`,
and a game whose turn is the bot's is found by :meth:`games_to_move`, after any restart. A move
is played with the ply and mark of the position it was chosen for, so a move chosen twice (two
processes, a retry after a restart) is refused the second time, never played twice.

Fair use (:mod:`bot.work.fair_use`): a player, and a server, may have only so many games against the
bot going (an open challenge to it counts as one), and :meth:`games_to_move` gives one game a
player, so that the bot can take the players in turn.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from typing import NamedTuple

from bot.errors import BredonError, GameOver, InvalidSetting, NotYourTurn, PositionChanged
from bot.games.model import (
    CHALLENGE_SELECT,
    ChallengeView,
    ColourChoice,
    GamePlace,
    GameRequest,
    GameView,
    challenge_from_row,
)
from bot.guild_settings import GuildSettings
from bot.languages import _, ngettext
from bot.play.challenges import Acceptance, ChallengeService
from bot.play.outcomes import MoveOutcome
from bot.play.service import GameService, position_mark
from bot.players.model import PlayerRef
from bot.store import Database, Transaction, to_db
from bot.timekeeping.clock import Clock
from bot.work.fair_use import DEFAULT_FAIR_USE, FairUse, listed
from tak import Position
from tak.search import MAX_LEVEL, MIN_LEVEL

log = logging.getLogger(__name__)

DEFAULT_LEVEL = 3  # a challenge to the bot that names no level (`/tak challenge @Bredon`)


@dataclass(frozen=True, slots=True)
class BotTurn:
    """A position the bot is to move in, as read: the move chosen must be played there."""

    game: GameView
    position: Position
    level: int

    @property
    def mark(self) -> str:
        return position_mark(self.game.tps)


class BotGame(NamedTuple):
    """A game where the bot is to move, and its opponent there."""

    game_id: int
    player_id: int


class TooManyBotGames(BredonError):
    """A player or a server has as many games against the bot going as fair use allows."""


# The bot's live games of a server and of a player (in any server), with the opponent and the
# server of each: an active game, or an open challenge to the bot not yet expired (it becomes a
# game as soon as the bot looks).
_LIVE_BOT_GAMES = (
    "SELECT 'game' AS kind, id, guild_id, "
    "CASE white_id WHEN ?1 THEN black_id ELSE white_id END AS player FROM games "
    "WHERE status = 'active' AND (white_id = ?1 OR black_id = ?1) "
    "AND (guild_id = ?2 OR ?3 IN (white_id, black_id)) "
    "UNION ALL SELECT 'challenge', id, guild_id, challenger_id FROM challenges "
    "WHERE opponent_id = ?1 AND status = 'open' AND expires_at > ?4 "
    "AND (guild_id = ?2 OR challenger_id = ?3) ORDER BY kind DESC, id"
)


def check_level(level: int) -> int:
    if not MIN_LEVEL <= level <= MAX_LEVEL:
        raise InvalidSetting(
            _("The level must be {least} to {most}.", least=MIN_LEVEL, most=MAX_LEVEL)
        )
    return level


class OpponentService:
    def __init__(
        self, db: Database, clock: Clock, challenges: ChallengeService, games: GameService
    ) -> None:
        self._db = db
        self._clock = clock
        self._challenges = challenges
        self._games = games

    async def challenge(
        self,
        *,
        guild_id: int,
        channel_id: int,
        player: PlayerRef,
        bot: PlayerRef,
        level: int,
        request: GameRequest,
        defaults: GuildSettings,
        colour: ColourChoice | str = ColourChoice.RANDOM,
        games: int = 1,
        fair_use: FairUse = DEFAULT_FAIR_USE,
        place: GamePlace = GamePlace.SERVER,
    ) -> ChallengeView:
        """`player` challenges the bot at `level` to `games` games set up as `request` asks
        (`defaults` for what it leaves out), always unrated: a `rated` asked is let go rather
        than refused (even from a TPS); :meth:`accept_waiting` takes it. Refused when the player
        or the server already has as many games against the bot going as `fair_use` allows
        (checked in the challenge's own transaction, so two at once cannot both slip through)."""
        check_level(level)

        async def write_level(tx: Transaction, challenge: ChallengeView) -> None:
            # The new challenge is in the count: refuse only what goes past the limit.
            await self._check_room(tx, guild_id, player.id, bot.id, fair_use, counting=1)
            await tx.execute(
                "INSERT INTO bot_levels (challenge_id, level) VALUES (?, ?)", (challenge.id, level)
            )

        return await self._challenges.create(
            guild_id=guild_id,
            channel_id=channel_id,
            challenger=player,
            opponent=bot,
            setup=defaults.game_setup(replace(request, rated=False)),  # never rated
            colour=colour,
            games=games,
            along=write_level,  # so the bot never sees the challenge without its level
            place=place,
        )

    async def _check_room(
        self,
        tx: Transaction,
        guild_id: int,
        player_id: int,
        bot_id: int,
        fair_use: FairUse,
        *,
        counting: int = 0,
        games_only: bool = False,
    ) -> None:
        """The check, in `tx`; `counting` of the live games found are the one being asked for,
        and `games_only` leaves out the open challenges (the one being accepted among them)."""
        rows = await tx.fetchall(
            _LIVE_BOT_GAMES,
            (bot_id, guild_id, player_id, to_db(self._clock.now())),
        )
        live = [row for row in rows if row["kind"] == "game" or not games_only]
        own = [row for row in live if row["player"] == player_id]
        server = [row for row in live if row["guild_id"] == guild_id]
        had, server_had = len(own) - counting, len(server) - counting  # the new one left out
        if had >= fair_use.bot_games_per_player:
            games = listed(
                [
                    _("challenge #{challenge}", challenge=row["id"])
                    if row["kind"] == "challenge"
                    else f"#{row['id']}"
                    for row in own[:had]
                ]
            )
            raise TooManyBotGames(
                ngettext(
                    "You have {count} game against me going ({games}), the most a player may "
                    "have at once: finish or resign one first.",
                    "You have {count} games against me going ({games}), the most a player may "
                    "have at once: finish or resign one first.",
                    had,
                    games=games,
                )
            )
        if server_had >= fair_use.bot_games_per_server:
            raise TooManyBotGames(
                ngettext(
                    "This server has {count} game against me going, the most it may have at "
                    "once: try again when one of them ends.",
                    "This server has {count} games against me going, the most it may have at "
                    "once: try again when one of them ends.",
                    server_had,
                )
            )

    async def accept_waiting(
        self, bot: PlayerRef, fair_use: FairUse = DEFAULT_FAIR_USE
    ) -> list[Acceptance]:
        """Accept every open challenge addressed to the bot (declining one played for coins, or
        one past the challenger's or the server's share of games against the bot); a rematch
        keeps the level of the game it follows."""
        rows = await self._db.fetchall(
            CHALLENGE_SELECT + " WHERE c.opponent_id = ? AND c.status = 'open' "
            "AND c.expires_at > ? ORDER BY c.id",
            (bot.id, to_db(self._clock.now())),
        )
        accepted = []
        for challenge in map(challenge_from_row, rows):
            try:
                if challenge.ante is not None or not await self._has_room(challenge, bot, fair_use):
                    await self._challenges.decline(challenge.id, bot.id)
                    continue
                if challenge.rematch_of is not None:
                    level = await self.level_of(challenge.rematch_of)
                    await self._db.write_one(
                        "INSERT INTO bot_levels (challenge_id, level) VALUES (?, ?) "
                        "ON CONFLICT DO NOTHING",
                        (challenge.id, level),
                    )
                accepted.append(await self._challenges.accept(challenge.id, bot))
            except BredonError as error:  # taken back or expired meanwhile
                log.info("Challenge %s to the bot not taken: %s", challenge.id, error.message)
        return accepted

    async def _has_room(self, challenge: ChallengeView, bot: PlayerRef, fair_use: FairUse) -> bool:
        """Whether accepting keeps the challenger and the server within their share (a rematch
        or a `/tak challenge` to the bot is checked when the bot takes it)."""
        try:
            async with self._db.snapshot() as tx:
                await self._check_room(
                    tx,
                    challenge.guild_id,
                    challenge.challenger.id,
                    bot.id,
                    fair_use,
                    games_only=True,
                )
        except TooManyBotGames as refused:
            log.info("Challenge %s to the bot declined: %s", challenge.id, refused.message)
            return False
        return True

    async def games_to_move(self, bot_id: int, limit: int) -> list[BotGame]:
        """Games where the bot is to move, one a player (their longest-waiting), the longest
        waiting first; :class:`bot.computer.player.BotPlayer` takes the players in turn from
        them."""
        rows = await self._db.fetchall(
            "SELECT id, player FROM (SELECT id, last_move_at, "
            "CASE white_id WHEN ?1 THEN black_id ELSE white_id END AS player, "
            "ROW_NUMBER() OVER (PARTITION BY CASE white_id WHEN ?1 THEN black_id ELSE white_id "
            "END ORDER BY COALESCE(last_move_at, created_at), id) AS turn FROM games "
            "WHERE status = 'active' AND ((white_id = ?1 AND ply % 2 = 0) "
            "OR (black_id = ?1 AND ply % 2 = 1))) AS waiting WHERE turn = 1 "
            "ORDER BY last_move_at IS NOT NULL, last_move_at, id LIMIT ?2",
            (bot_id, limit),
        )
        return [BotGame(row["id"], row["player"]) for row in rows]

    async def level_of(self, game_id: int) -> int:
        """The level of the challenge that started the game (or its match), else the default."""
        row = await self._db.fetchone(
            "SELECT l.level FROM challenges c JOIN bot_levels l ON l.challenge_id = c.id "
            "WHERE c.game_id = (SELECT COALESCE((SELECT MIN(first.id) FROM games first "
            "WHERE first.match_id = g.match_id), g.id) FROM games g WHERE g.id = ?)",
            (game_id,),
        )
        return DEFAULT_LEVEL if row is None else int(row["level"])

    async def turn(self, game_id: int, bot_id: int) -> BotTurn | None:
        """The position to move in, or None when it is not the bot's move there (any more)."""
        game = await self._games.get(game_id)
        if not game.is_active or game.player_to_move.id != bot_id:
            return None
        position = await self._games.position(game_id)
        if position.ply != game.ply:  # moved meanwhile: the next look sees the new state
            return None
        return BotTurn(game, position, await self.level_of(game_id))

    async def play(self, turn: BotTurn, bot_id: int, move: str) -> MoveOutcome | None:
        """Play the bot's `move` where it was chosen; None if the game moved on meanwhile
        (an undo, a resignation, the same move already played by another process)."""
        try:
            return await self._games.move(
                turn.game.id, bot_id, move, expected_ply=turn.game.ply, expected_mark=turn.mark
            )
        except (PositionChanged, GameOver, NotYourTurn) as error:
            log.info("The bot's move %s in game %s was refused: %s", move, turn.game.id, error)
            return None
