"""Challenges: an invitation to a game or a match, direct (to one member) or open (first taker).

Settings left out come from the guild's defaults. A challenge is open until it is accepted,
declined (by the addressed member), cancelled (by the challenger) or it expires; nobody can accept
their own. Accepting creates the game (and the match, for more than one game) in one transaction.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from datetime import timedelta

from bot.coins.service import StakeView, check_stakes_offer, open_bidding, rematch_ante
from bot.errors import (
    ChallengeClosed,
    ChallengeExpired,
    ChallengeNotForYou,
    ChallengeYourself,
    GameNotOver,
    InvalidSetting,
    NotYourChallenge,
    OpenChallengeDecline,
    RematchPending,
    TooManyChallenges,
)
from bot.games.matches import create_match
from bot.games.model import (
    CHALLENGE_SELECT,
    MAX_MATCH_GAMES,
    ChallengeStatus,
    ChallengeView,
    ColourChoice,
    GameSetup,
    GameView,
    MatchView,
    PlayerRef,
    challenge_from_row,
)
from bot.games.storage import (
    fetch_challenge,
    fetch_game,
    fetch_match,
    insert_game,
)
from bot.guild_settings import fetch_guild_settings
from bot.notifications.outbox import ChallengeSettled, GameStart, enqueue
from bot.players.storage import save_player
from bot.store import Database, Transaction, to_db
from bot.timekeeping.clock import Clock
from bot.timekeeping.control import TimeControl
from tak import Opening, TPSError, parse_tps

DEFAULT_LIFETIME = timedelta(days=7)
MAX_OPEN_CHALLENGES = 10  # per user, so that nobody floods a channel with challenges

ChallengeWrite = Callable[[Transaction, ChallengeView], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class Acceptance:
    challenge: ChallengeView
    game: GameView | None  # the first game; None while the players bid for it (stakes)
    match: MatchView | None  # for a challenge to more than one game
    stake: StakeView | None = None  # a challenge with stakes: its bidding


class ChallengeService:
    def __init__(self, db: Database, clock: Clock, rng: random.Random | None = None) -> None:
        self._db = db
        self._clock = clock
        self._rng = rng or random.Random()

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        challenger: PlayerRef,
        opponent: PlayerRef | None = None,
        size: int | None = None,
        komi: float | None = None,
        colour: ColourChoice | str = ColourChoice.RANDOM,
        opening: Opening | str = Opening.SWAP,
        stones: int | None = None,
        caps: int | None = None,
        days_per_move: int | None = None,
        games: int = 1,
        rated: bool | None = None,
        antiquity: bool | None = None,
        lifetime: timedelta = DEFAULT_LIFETIME,
        stakes: bool = False,
        ante: int | None = None,
        bank: timedelta | None = None,
        increment: timedelta | None = None,
        cap: timedelta | None = None,
        start_tps: str | None = None,
        along: ChallengeWrite | None = None,
    ) -> ChallengeView:
        """A new open challenge; None settings take the guild's defaults (the antiquity tie
        rule gives a tied flat count to black, see :class:`GameSetup`). With `stakes` (or an `ante`)
        it is played for coins (:mod:`bot.coins.service`). A `bank`, or an `increment` with
        its `cap`, adds to days per move (:mod:`bot.timekeeping.control`). A `start_tps` sets
        the game up from that position: the size is the TPS's, and the game is unrated (`rated`
        left as None is rated only from the empty board). `along` writes what belongs to the
        challenge in its transaction (a challenge to the bot: its level)."""
        if opponent is not None and opponent.id == challenger.id:
            raise ChallengeYourself()
        if start_tps is not None:
            if stakes or ante is not None:
                raise InvalidSetting(
                    "A game from a TPS position is not played for coins: leave out the stakes."
                )
            if size is None:  # the TPS's own; a TPS that is not one is refused with the setup
                with contextlib.suppress(TPSError):
                    size = parse_tps(start_tps).size
        if rated is None:
            rated = start_tps is None
        if not 1 <= games <= MAX_MATCH_GAMES:
            raise InvalidSetting(f"A match has 1 to {MAX_MATCH_GAMES} games.")
        try:
            colour = ColourChoice(colour)
        except ValueError:
            raise InvalidSetting("The colour must be 'white', 'black' or 'random'.") from None
        async with self._db.transaction() as tx:
            defaults = await fetch_guild_settings(tx, guild_id)
            setup = defaults.game_setup(
                size=size,
                komi=komi,
                days_per_move=days_per_move,
                opening=opening,
                stones=stones,
                caps=caps,
                rated=rated,
                antiquity=antiquity,
                start_tps=start_tps,
            )
            if stakes or ante is not None:
                now = self._clock.now()
                ante = await check_stakes_offer(tx, guild_id, challenger, ante, colour, games, now)
            clock = TimeControl.create(setup.days_per_move, bank=bank, increment=increment, cap=cap)
            challenge = await self._insert(
                tx,
                guild_id=guild_id,
                channel_id=channel_id,
                challenger=challenger,
                opponent=opponent,
                colour=colour,
                setup=replace(setup, clock=clock),
                games=games,
                lifetime=lifetime,
                rematch_of=None,
                ante=ante,
            )
            if along is not None:
                await along(tx, challenge)
            return challenge

    async def _insert(
        self,
        tx: Transaction,
        *,
        guild_id: int,
        channel_id: int,
        challenger: PlayerRef,
        opponent: PlayerRef | None,
        colour: ColourChoice,
        setup: GameSetup,
        games: int,
        lifetime: timedelta,
        rematch_of: int | None,
        ante: int | None = None,
    ) -> ChallengeView:
        now = self._clock.now()
        row = await tx.fetchone(
            "SELECT COUNT(*) FROM challenges WHERE challenger_id = ? AND status = 'open' "
            "AND expires_at > ?",
            (challenger.id, to_db(now)),
        )
        if row is not None and row[0] >= MAX_OPEN_CHALLENGES:
            raise TooManyChallenges(MAX_OPEN_CHALLENGES)
        await save_player(tx, challenger, now)
        if opponent is not None:
            await save_player(tx, opponent, now)
        stones, caps = setup.stones[0], setup.caps[0]
        cursor = await tx.execute(
            "INSERT INTO challenges (guild_id, channel_id, challenger_id, opponent_id, colour, "
            "size, komi, opening, stones, caps, days_per_move, games, rated, rematch_of, "
            "created_at, expires_at, ante, antiquity, clock_bank, clock_increment, clock_cap, "
            "start_tps) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                guild_id,
                channel_id,
                challenger.id,
                None if opponent is None else opponent.id,
                colour.value,
                setup.size,
                setup.base_komi,
                setup.opening.value,
                None if setup.standard_reserves else stones,
                None if setup.standard_reserves else caps,
                setup.days_per_move,
                games,
                int(setup.rated),
                rematch_of,
                to_db(now),
                to_db(now + lifetime),
                ante,
                int(setup.antiquity),
                *setup.clock.to_db(),
                setup.start_tps,
            ),
        )
        assert cursor.lastrowid is not None
        return await fetch_challenge(tx, cursor.lastrowid)

    async def accept(self, challenge_id: int, player: PlayerRef) -> Acceptance:
        """`player` takes the challenge: the game starts now (white to move)."""
        now = self._clock.now()
        async with self._db.transaction() as tx:
            challenge = await self._open(tx, challenge_id)
            if player.id == challenge.challenger.id:
                raise ChallengeYourself()
            if challenge.opponent is not None and challenge.opponent.id != player.id:
                raise ChallengeNotForYou()
            await save_player(tx, player, now)
            if challenge.ante is not None:  # played for coins: the players bid for white
                await tx.execute(
                    "UPDATE challenges SET status = 'accepted', accepted_by = ?, closed_at = ? "
                    "WHERE id = ?",
                    (player.id, to_db(now), challenge.id),
                )
                await enqueue(tx, ChallengeSettled(challenge.id), now)
                tie_to = self._rng.choice((challenge.challenger.id, player.id))
                stake = await open_bidding(tx, challenge, player, now, tie_to)
                return Acceptance(await fetch_challenge(tx, challenge.id), None, None, stake)
            challenger_white = {
                ColourChoice.WHITE: True,
                ColourChoice.BLACK: False,
                ColourChoice.RANDOM: self._rng.random() < 0.5,
            }[challenge.colour]
            white, black = (challenge.challenger.id, player.id)
            if not challenger_white:
                white, black = black, white
            match_id = None
            if challenge.games > 1:
                match_id = await create_match(
                    tx,
                    guild_id=challenge.guild_id,
                    player1_id=white,
                    player2_id=black,
                    games_total=challenge.games,
                    now=now,
                )
            game = await insert_game(
                tx,
                guild_id=challenge.guild_id,
                channel_id=challenge.channel_id,
                thread_id=None,
                white_id=white,
                black_id=black,
                setup=challenge.setup,
                now=now,
                match_id=match_id,
                match_game=None if match_id is None else 1,
            )
            await tx.execute(
                "UPDATE challenges SET status = 'accepted', accepted_by = ?, game_id = ?, "
                "closed_at = ? WHERE id = ?",
                (player.id, game.id, to_db(now), challenge.id),
            )
            await enqueue(tx, ChallengeSettled(challenge.id), now)
            await enqueue(tx, GameStart(game.id, anchor_message_id=challenge.message_id), now)
            match = None if match_id is None else await fetch_match(tx, match_id)
            return Acceptance(await fetch_challenge(tx, challenge.id), game, match)

    async def decline(self, challenge_id: int, player_id: int) -> ChallengeView:
        """The addressed member says no. Open challenges cannot be declined."""
        async with self._db.transaction() as tx:
            challenge = await self._open(tx, challenge_id)
            if challenge.opponent is None:
                raise OpenChallengeDecline()
            if challenge.opponent.id != player_id:
                raise ChallengeNotForYou()
            return await self._close(tx, challenge, ChallengeStatus.DECLINED)

    async def cancel(self, challenge_id: int, player_id: int) -> ChallengeView:
        """The challenger withdraws."""
        async with self._db.transaction() as tx:
            challenge = await self._open(tx, challenge_id)
            if challenge.challenger.id != player_id:
                raise NotYourChallenge("cancel")
            return await self._close(tx, challenge, ChallengeStatus.CANCELLED)

    async def rematch(
        self, game_id: int, player: PlayerRef, *, lifetime: timedelta = DEFAULT_LIFETIME
    ) -> ChallengeView:
        """After a game, challenge the opponent again with the same settings and the colours
        swapped (a whole new match of the same length if the game was part of one); a game
        played for coins is rematched for the same ante, the bids deciding the colours."""
        async with self._db.transaction() as tx:
            game = await fetch_game(tx, game_id)
            if game.is_active:
                raise GameNotOver(game.id)
            colour = game.color_of(player.id)
            pending = await tx.fetchone(
                "SELECT id FROM challenges WHERE rematch_of = ? AND status = 'open' "
                "AND expires_at > ?",
                (game.id, to_db(self._clock.now())),
            )
            if pending is not None:
                raise RematchPending(game.id, pending["id"])
            games = 1
            if game.match_id is not None:
                games = (await fetch_match(tx, game.match_id)).games_total
            ante = await rematch_ante(tx, game, player, self._clock.now())
            return await self._insert(
                tx,
                guild_id=game.guild_id,
                channel_id=game.channel_id,
                challenger=player,
                opponent=game.opponent_of(player.id),
                colour=ColourChoice.RANDOM if ante else ColourChoice(str(colour.other)),
                setup=game.setup,
                games=games,
                lifetime=lifetime,
                rematch_of=game.id,
                ante=ante,
            )

    async def get(self, challenge_id: int) -> ChallengeView:
        async with self._db.snapshot() as tx:
            return await fetch_challenge(tx, challenge_id)

    async def open_challenges(
        self, *, guild_id: int | None = None, channel_id: int | None = None
    ) -> list[ChallengeView]:
        """Challenges that can still be accepted, oldest first."""
        rows = await self._db.fetchall(
            CHALLENGE_SELECT + " WHERE c.status = 'open' AND c.expires_at > ? "
            "AND (? IS NULL OR c.guild_id = ?) AND (? IS NULL OR c.channel_id = ?) "
            "ORDER BY c.created_at, c.id",
            (to_db(self._clock.now()), guild_id, guild_id, channel_id, channel_id),
        )
        return [challenge_from_row(row) for row in rows]

    async def set_message(self, challenge_id: int, message_id: int) -> ChallengeView:
        """Remember the message that shows the challenge (to edit its buttons later)."""
        async with self._db.transaction() as tx:
            await fetch_challenge(tx, challenge_id)
            await tx.execute(
                "UPDATE challenges SET message_id = ? WHERE id = ?", (message_id, challenge_id)
            )
            return await fetch_challenge(tx, challenge_id)

    async def _open(self, tx: Transaction, challenge_id: int) -> ChallengeView:
        challenge = await fetch_challenge(tx, challenge_id)
        if not challenge.is_open:
            raise ChallengeClosed(challenge.id, challenge.status.value)
        if challenge.expires_at <= self._clock.now():
            raise ChallengeExpired(challenge.id)
        return challenge

    async def _close(
        self, tx: Transaction, challenge: ChallengeView, status: ChallengeStatus
    ) -> ChallengeView:
        now = self._clock.now()
        await tx.execute(
            "UPDATE challenges SET status = ?, closed_at = ? WHERE id = ?",
            (status.value, to_db(now), challenge.id),
        )
        await enqueue(tx, ChallengeSettled(challenge.id), now)
        return await fetch_challenge(tx, challenge.id)
