"""Challenges: an invitation to a game or a match, direct (to one member) or open (first taker).

A challenge's games are set up as a :class:`~bot.games.model.GameSetup` its caller built, the
guild's defaults standing in for settings left out
(:meth:`bot.guild_settings.GuildSettings.game_setup`). A challenge is open until it is accepted,
declined (by the addressed member), cancelled (by the challenger) or it expires; nobody can accept
their own. Accepting creates the game (and the match, for more than one game) in one transaction.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
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
from bot.games import challenge_storage
from bot.games.matches import create_match
from bot.games.model import (
    MAX_MATCH_GAMES,
    NO_SERVER,
    ChallengeStatus,
    ChallengeView,
    ColourChoice,
    GamePlace,
    GameSetup,
    GameView,
    MatchView,
)
from bot.games.storage import (
    fetch_challenge,
    fetch_game,
    fetch_match,
    insert_game,
)
from bot.languages import _
from bot.notifications.outbox import ChallengeSettled, GameStart, enqueue
from bot.players.model import PlayerRef
from bot.players.storage import save_player
from bot.store import Database, Transaction, to_db
from bot.timekeeping.clock import Clock

DEFAULT_LIFETIME = timedelta(days=7)
MAX_OPEN_CHALLENGES = 10  # per user, so that nobody floods a channel with challenges

ChallengeWrite = Callable[[Transaction, ChallengeView], Awaitable[None]]


def check_place(
    place: GamePlace, guild_id: int, opponent: PlayerRef | None, *, staked: bool
) -> None:
    """What a challenge outside Bredon's servers may be: kept under :data:`NO_SERVER` (so no
    server shows it), not played for coins (a server's), and in a group DM addressed to one of
    its members (an open challenge would be taken by whoever is quickest)."""
    if place is GamePlace.SERVER:
        return
    if guild_id != NO_SERVER:
        raise ValueError(f"A challenge in a {place} is kept outside every server")
    if staked:
        raise InvalidSetting(_("Coins belong to a server: challenge without stakes here."))
    if place is GamePlace.GROUP_DM and opponent is None:
        raise InvalidSetting(_("In a group DM, name your opponent: `/tak challenge opponent:`."))


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
        setup: GameSetup,
        colour: ColourChoice | str = ColourChoice.RANDOM,
        games: int = 1,
        stakes: bool = False,
        ante: int | None = None,
        lifetime: timedelta = DEFAULT_LIFETIME,
        along: ChallengeWrite | None = None,
        place: GamePlace = GamePlace.SERVER,
    ) -> ChallengeView:
        """A new open challenge to play `games` games set up as `setup` (built with the guild's
        defaults, see :meth:`bot.guild_settings.GuildSettings.game_setup`). With `stakes` (or
        an `ante`) it is played for coins (:mod:`bot.coins.service`), which a game from a TPS
        position is not. `along` writes what belongs to the challenge in its transaction (a
        challenge to the bot: its level)."""
        if opponent is not None and opponent.id == challenger.id:
            raise ChallengeYourself()
        check_place(place, guild_id, opponent, staked=stakes or ante is not None)
        if setup.start_tps is not None and (stakes or ante is not None):
            raise InvalidSetting(
                _("A game from a TPS position is not played for coins: leave out the stakes.")
            )
        if not 1 <= games <= MAX_MATCH_GAMES:
            raise InvalidSetting(_("A match has 1 to {most} games.", most=MAX_MATCH_GAMES))
        try:
            colour = ColourChoice(colour)
        except ValueError:
            raise InvalidSetting(_("The colour must be 'white', 'black' or 'random'.")) from None
        async with self._db.transaction() as tx:
            if stakes or ante is not None:
                now = self._clock.now()
                ante = await check_stakes_offer(tx, guild_id, challenger, ante, colour, games, now)
            challenge = await self._insert(
                tx,
                guild_id=guild_id,
                channel_id=channel_id,
                challenger=challenger,
                opponent=opponent,
                colour=colour,
                setup=setup,
                games=games,
                lifetime=lifetime,
                rematch_of=None,
                ante=ante,
                place=place,
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
        place: GamePlace = GamePlace.SERVER,
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
        challenge_id = await challenge_storage.insert_challenge(
            tx,
            guild_id=guild_id,
            channel_id=channel_id,
            challenger_id=challenger.id,
            opponent_id=None if opponent is None else opponent.id,
            colour=colour,
            setup=setup,
            games=games,
            rematch_of=rematch_of,
            ante=ante,
            now=now,
            expires_at=now + lifetime,
            place=place,
        )
        return await fetch_challenge(tx, challenge_id)

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
                await challenge_storage.mark_accepted(tx, challenge.id, player.id, None, now)
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
                place=challenge.place,
            )
            await challenge_storage.mark_accepted(tx, challenge.id, player.id, game.id, now)
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
                place=game.place,
            )

    async def get(self, challenge_id: int) -> ChallengeView:
        async with self._db.snapshot() as tx:
            return await fetch_challenge(tx, challenge_id)

    async def set_message(self, challenge_id: int, message_id: int) -> ChallengeView:
        """Remember the message that shows the challenge (to edit its buttons later)."""
        async with self._db.transaction() as tx:
            await fetch_challenge(tx, challenge_id)
            await challenge_storage.set_message(tx, challenge_id, message_id)
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
        await challenge_storage.close(tx, challenge.id, status, now)
        await enqueue(tx, ChallengeSettled(challenge.id), now)
        return await fetch_challenge(tx, challenge.id)
