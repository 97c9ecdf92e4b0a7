"""Coins: wallets per player and server, the ledger, and staked games (the University Gambling
Rules; the rules themselves and Bredon's decisions are in :mod:`bot.coins.rules`).

The ledger is the record. Every coin movement is a ledger row written by :func:`_move` (the one
function that writes them) in the transaction of the event that causes it: a grant, a challenge
accepted (the antes), bidding closed (the high bid), a move (a Tak payment), a game's end (the
pot and the bonus, or the refunds). A wallet's balance and a game's pot are sums of their rows,
cached in ``wallets.balance`` and ``stakes.pot`` by the database's triggers in the same statement,
and CHECKed never to go below zero (migration 0007). Coins come into a server only by grants (the
starting balance, given once, and admin grants); every other movement is a transfer between a
player and a pot, so a server's total changes only by its grants.

A staked game goes through three phases: ``bidding`` (the challenge is accepted, the antes are in
the pot, no game yet: both players send a sealed bid before ``bids_due_at``), ``playing`` (the
game exists, white being the high bidder) and ``settled`` (the game ended and the pot is paid
out). Bidding closes when both bids are in, or at its deadline through
:class:`~bot.deadlines.service.DeadlineService` (durable: nothing is kept in memory).
Stakes games are single challenges only: no matches, no tournaments.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any

from bot.coins.rules import (
    TAK_PAYMENT,
    TakState,
    after_move,
    decide_first,
    settlement,
)
from bot.errors import (
    GamblingOff,
    InvalidSetting,
    MustPayOrResign,
    NotBidding,
    NotEnoughCoins,
    NotYourBidding,
    NoUndoWithStakes,
)
from bot.games.challenge_storage import set_first_game
from bot.games.model import ChallengeView, ColourChoice, GameView
from bot.games.storage import fetch_challenge, insert_game
from bot.languages import _
from bot.notifications.outbox import BiddingNews, GameStart, enqueue
from bot.players.model import PlayerRef
from bot.players.storage import save_player
from bot.store import Database, Row, Transaction, from_db, to_db
from bot.timekeeping.clock import Clock
from tak import Position, Result, ResultKind

BID_WINDOW = timedelta(days=1)
MAX_COINS = 1_000_000  # per grant, ante or starting balance
RECENT_ROWS = 10
LEADERBOARD_SIZE = 15


class Phase(StrEnum):
    BIDDING = "bidding"
    PLAYING = "playing"
    SETTLED = "settled"


@dataclass(frozen=True, slots=True)
class WalletSettings:
    guild_id: int
    enabled: bool = False
    starting_balance: int = 100
    ante: int = 10  # the default ante of a challenge with stakes


@dataclass(frozen=True, slots=True)
class StakeView:
    """A staked game: its pot, the sealed bids and the Tak token."""

    id: int
    guild_id: int
    challenge_id: int
    game_id: int | None  # None while bidding
    challenger: PlayerRef
    acceptor: PlayerRef
    ante: int
    pot: int
    phase: Phase
    bids_due_at: datetime
    challenger_bid: int | None
    acceptor_bid: int | None
    tie_to: int
    first_id: int | None
    first_paid: int | None
    token_id: int | None
    owes_id: int | None

    def player(self, player_id: int) -> PlayerRef:
        for player in (self.challenger, self.acceptor):
            if player.id == player_id:
                return player
        raise NotYourBidding()

    def bid_of(self, player_id: int) -> int | None:
        if player_id == self.challenger.id:
            return self.challenger_bid
        return self.acceptor_bid if player_id == self.acceptor.id else None


@dataclass(frozen=True, slots=True)
class LedgerRow:
    id: int
    player_id: int | None  # None: a pot
    stake_id: int | None
    game_id: int | None
    amount: int
    reason: str
    created_at: datetime


@dataclass(frozen=True, slots=True)
class Wallet:
    guild_id: int
    player: PlayerRef
    balance: int
    recent: list[LedgerRow]  # newest first
    exists: bool = True


@dataclass(frozen=True, slots=True)
class CoinNote:
    """What a move did to the coins, for its announcement."""

    paid: int  # what the mover paid with it (a Tak they owed)
    pot: int
    token_id: int | None
    owes_id: int | None

    def fields(self) -> dict[str, Any]:
        return {
            "paid": self.paid,
            "pot": self.pot,
            "token_id": self.token_id,
            "owes_id": self.owes_id,
        }


def coin_fields(note: CoinNote | None) -> dict[str, Any]:
    """A move announcement's coin facts (none for a game without stakes)."""
    return {} if note is None else note.fields()


@dataclass(frozen=True, slots=True)
class BidOutcome:
    stake: StakeView
    game: GameView | None  # the game, when this bid closed the bidding


# ----------------------------------------------------------------- reading


async def fetch_wallet_settings(tx: Transaction, guild_id: int) -> WalletSettings:
    row = await tx.fetchone("SELECT * FROM wallet_settings WHERE guild_id = ?", (guild_id,))
    if row is None:
        return WalletSettings(guild_id)
    return WalletSettings(guild_id, bool(row["enabled"]), row["starting_balance"], row["ante"])


_STAKE_SELECT = """
SELECT s.*, c.name AS challenger_name, a.name AS acceptor_name
FROM stakes s JOIN players c ON c.id = s.challenger_id JOIN players a ON a.id = s.acceptor_id
"""


def _stake(row: Row) -> StakeView:
    due = from_db(row["bids_due_at"])
    assert due is not None
    return StakeView(
        id=row["id"],
        guild_id=row["guild_id"],
        challenge_id=row["challenge_id"],
        game_id=row["game_id"],
        challenger=PlayerRef(row["challenger_id"], row["challenger_name"]),
        acceptor=PlayerRef(row["acceptor_id"], row["acceptor_name"]),
        ante=row["ante"],
        pot=row["pot"],
        phase=Phase(row["phase"]),
        bids_due_at=due,
        challenger_bid=row["challenger_bid"],
        acceptor_bid=row["acceptor_bid"],
        tie_to=row["tie_to"],
        first_id=row["first_id"],
        first_paid=row["first_paid"],
        token_id=row["token_id"],
        owes_id=row["owes_id"],
    )


async def fetch_stake(tx: Transaction, stake_id: int) -> StakeView:
    row = await tx.fetchone(_STAKE_SELECT + " WHERE s.id = ?", (stake_id,))
    if row is None:
        raise NotBidding(stake_id, "unknown")
    return _stake(row)


async def stake_of_game(tx: Transaction, game_id: int) -> StakeView | None:
    row = await tx.fetchone(_STAKE_SELECT + " WHERE s.game_id = ?", (game_id,))
    return None if row is None else _stake(row)


async def _balance(tx: Transaction, guild_id: int, player_id: int) -> int | None:
    row = await tx.fetchone(
        "SELECT balance FROM wallets WHERE guild_id = ? AND player_id = ?", (guild_id, player_id)
    )
    return None if row is None else int(row["balance"])


def _ledger_row(row: Row) -> LedgerRow:
    created = from_db(row["created_at"])
    assert created is not None
    return LedgerRow(
        row["id"],
        row["player_id"],
        row["stake_id"],
        row["game_id"],
        row["amount"],
        row["reason"],
        created,
    )


# ----------------------------------------------------------------- writing coins


async def _move(
    tx: Transaction,
    guild_id: int,
    payer: int | None,
    payee: int | None,
    amount: int,
    reason: str,
    now: datetime,
    stake: StakeView | None = None,
) -> None:
    """The one writer of the ledger: move `amount` coins from `payer` to `payee` (a player id;
    None is the stake's pot, and a payer of None with no stake is a grant, coins created).
    A movement that would overdraw a wallet is refused with :class:`NotEnoughCoins` (and the
    database's CHECK refuses it too, whoever writes)."""
    if amount == 0:
        return
    stake_id = None if stake is None else stake.id
    game_id = None if stake is None else stake.game_id
    if payer is not None:
        balance = await _balance(tx, guild_id, payer)
        if balance is None or balance < amount:
            raise NotEnoughCoins("You", amount, balance or 0, reason)
    sides = [(payer, -amount), (payee, amount)]
    if stake is None:  # a grant: only the wallet's side (None is no account at all)
        sides = [(player, signed) for player, signed in sides if player is not None]
    for player_id, signed in sides:
        await tx.execute(
            "INSERT INTO ledger (guild_id, player_id, stake_id, game_id, amount, reason, "
            "created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (guild_id, player_id, stake_id, game_id, signed, reason, to_db(now)),
        )


async def open_wallet(
    tx: Transaction, settings: WalletSettings, player: PlayerRef, now: datetime
) -> int:
    """The player's balance, opening their wallet first if needed; while gambling is on, a
    wallet gets the server's starting balance once (at the first wallet view or stakes action)."""
    await save_player(tx, player, now)
    await tx.execute(
        "INSERT INTO wallets (guild_id, player_id, created_at) VALUES (?, ?, ?) "
        "ON CONFLICT DO NOTHING",
        (settings.guild_id, player.id, to_db(now)),
    )
    if settings.enabled:
        started = await tx.fetchall(
            "UPDATE wallets SET started = 1 WHERE guild_id = ? AND player_id = ? AND started = 0 "
            "RETURNING player_id",
            (settings.guild_id, player.id),
        )
        if started:
            await _move(
                tx, settings.guild_id, None, player.id, settings.starting_balance, "start", now
            )
    balance = await _balance(tx, settings.guild_id, player.id)
    assert balance is not None
    return balance


# ----------------------------------------------------------------- challenges and bidding


async def check_stakes_offer(
    tx: Transaction,
    guild_id: int,
    challenger: PlayerRef,
    ante: int | None,
    colour: ColourChoice,
    games: int,
    now: datetime,
) -> int:
    """The ante of a new challenge with stakes (None: the server's default), once checked:
    gambling on, a single game, no colour chosen (the bids decide it), and the challenger able
    to pay it. Refusals change nothing (the caller's transaction is rolled back)."""
    settings = await fetch_wallet_settings(tx, guild_id)
    if not settings.enabled:
        raise GamblingOff()
    ante = settings.ante if ante is None else ante
    if not 1 <= ante <= MAX_COINS:
        raise InvalidSetting(_("An ante is from 1 to {most} coins.", most=MAX_COINS))
    if games != 1:
        raise InvalidSetting(_("Stakes are for a single game, not a match."))
    if colour is not ColourChoice.RANDOM:
        raise InvalidSetting(
            _("With stakes the players bid for the first move: leave the colour out.")
        )
    balance = await open_wallet(tx, settings, challenger, now)
    if balance < ante:
        raise NotEnoughCoins("You", ante, balance, "the ante")
    return ante


async def rematch_ante(
    tx: Transaction, game: GameView, player: PlayerRef, now: datetime
) -> int | None:
    """The ante of a rematch of `game`: the same as the game's, checked as for a new challenge;
    None (no stakes) for a game without, or once the server has turned gambling off."""
    stake = await stake_of_game(tx, game.id)
    if stake is None or not (await fetch_wallet_settings(tx, game.guild_id)).enabled:
        return None
    return await check_stakes_offer(
        tx, game.guild_id, player, stake.ante, ColourChoice.RANDOM, 1, now
    )


async def open_bidding(
    tx: Transaction, challenge: ChallengeView, acceptor: PlayerRef, now: datetime, tie_to: int
) -> StakeView:
    """Accepting a challenge with stakes: both antes go to the pot and the sealed bids open
    (the caller marks the challenge accepted). `tie_to` is the coin flipped for equal bids."""
    assert challenge.ante is not None
    settings = await fetch_wallet_settings(tx, challenge.guild_id)
    if not settings.enabled:
        raise GamblingOff()
    ante = challenge.ante
    for player, who in ((acceptor, "You"), (challenge.challenger, challenge.challenger.name)):
        balance = await open_wallet(tx, settings, player, now)
        if balance < ante:
            raise NotEnoughCoins(who, ante, balance, "the ante")
    new_id = await tx.insert(
        "INSERT INTO stakes (guild_id, challenge_id, challenger_id, acceptor_id, ante, "
        "bids_due_at, tie_to, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (
            challenge.guild_id,
            challenge.id,
            challenge.challenger.id,
            acceptor.id,
            ante,
            to_db(now + BID_WINDOW),
            tie_to,
            to_db(now),
        ),
    )
    stake = await fetch_stake(tx, new_id)
    for player in (challenge.challenger, acceptor):
        await _move(tx, challenge.guild_id, player.id, None, ante, "ante", now, stake)
    await enqueue(tx, BiddingNews(challenge.id, stake.id), now)
    return await fetch_stake(tx, stake.id)


async def close_bidding(tx: Transaction, stake: StakeView, now: datetime) -> GameView:
    """Reveal the bids: the high bidder plays white and pays the bid into the pot, and the game
    starts (announced after the bids)."""
    challenger, acceptor = stake.challenger.id, stake.acceptor.id
    result = decide_first(
        (challenger, stake.challenger_bid, await _balance(tx, stake.guild_id, challenger) or 0),
        (acceptor, stake.acceptor_bid, await _balance(tx, stake.guild_id, acceptor) or 0),
        stake.tie_to,
    )
    challenge = await fetch_challenge(tx, stake.challenge_id)
    second = acceptor if result.first_id == challenger else challenger
    game = await insert_game(
        tx,
        guild_id=stake.guild_id,
        channel_id=challenge.channel_id,
        thread_id=None,
        white_id=result.first_id,
        black_id=second,
        setup=challenge.setup,
        now=now,
    )
    # The bids are kept as they counted: a bid over its bidder's balance is the balance, so the
    # revealed bids show why the higher (or a coin flip) won.
    bids = (stake.challenger_bid, stake.acceptor_bid)
    challenger_bid, acceptor_bid = (
        None if bid is None else counted for bid, counted in zip(bids, result.counted, strict=True)
    )
    await tx.execute(
        "UPDATE stakes SET phase = 'playing', game_id = ?, first_id = ?, first_paid = ?, "
        "challenger_bid = ?, acceptor_bid = ? WHERE id = ?",
        (game.id, result.first_id, result.paid, challenger_bid, acceptor_bid, stake.id),
    )
    await set_first_game(tx, challenge.id, game.id)
    playing = await fetch_stake(tx, stake.id)
    await _move(tx, stake.guild_id, result.first_id, None, result.paid, "bid", now, playing)
    news = await enqueue(tx, BiddingNews(challenge.id, stake.id, closed=True), now)
    await enqueue(tx, GameStart(game.id, anchor_message_id=challenge.message_id), now, after=news)
    return game


async def close_due_biddings(db: Database, moment: datetime) -> list[GameView]:
    """Close every bidding whose deadline has passed at `moment` (missing bids count as 0);
    each in its own transaction that re-checks it, so a bid just in time wins."""
    rows = await db.fetchall(
        "SELECT id FROM stakes WHERE phase = 'bidding' AND bids_due_at <= ? ORDER BY id",
        (to_db(moment),),
    )
    games = []
    for row in rows:
        async with db.transaction() as tx:
            stake = await fetch_stake(tx, row["id"])
            if stake.phase is Phase.BIDDING and stake.bids_due_at <= moment:
                games.append(await close_bidding(tx, stake, moment))
    return games


NEXT_BIDDING_DUE = "SELECT MIN(bids_due_at) FROM stakes WHERE phase = 'bidding'"


# ----------------------------------------------------------------- during and after the game


async def stakes_after_move(
    tx: Transaction, game: GameView, mover_id: int, calls_tak: bool, now: datetime
) -> CoinNote | None:
    """A move in a staked game: the mover pays the Tak payment they owed (or the move is
    refused: they must resign), then their own Tak call may make the opponent owe. None for a
    game without stakes."""
    stake = await stake_of_game(tx, game.id)
    if stake is None:
        return None
    opponent = game.opponent_of(mover_id).id
    state = TakState(stake.token_id, stake.owes_id)
    coins = after_move(state, mover_id, opponent, calls_tak)
    if coins.pays:
        balance = await _balance(tx, stake.guild_id, mover_id) or 0
        if balance < TAK_PAYMENT:
            raise MustPayOrResign(game.id, TAK_PAYMENT, balance)
        await _move(tx, stake.guild_id, mover_id, None, TAK_PAYMENT, "tak", now, stake)
    await tx.execute(
        "UPDATE stakes SET token_id = ?, owes_id = ? WHERE id = ?",
        (coins.state.token_id, coins.state.owes_id, stake.id),
    )
    pot = stake.pot + (TAK_PAYMENT if coins.pays else 0)
    return CoinNote(
        TAK_PAYMENT if coins.pays else 0, pot, coins.state.token_id, coins.state.owes_id
    )


async def settle_stakes(
    tx: Transaction, game: GameView, position: Position, result: Result, now: datetime
) -> None:
    """A staked game ended (in the ending's transaction): the winner takes the pot and the bonus
    of their reserve's unplayed pieces from the loser, as far as the loser's balance goes; a
    draw or an abort gives back what each player put in."""
    stake = await stake_of_game(tx, game.id)
    if stake is None or stake.phase is not Phase.PLAYING:
        return
    rows = await tx.fetchall(
        "SELECT player_id, -SUM(amount) AS paid FROM ledger WHERE stake_id = ? "
        "AND player_id IS NOT NULL GROUP BY player_id",
        (stake.id,),
    )
    paid_in = {row["player_id"]: row["paid"] for row in rows}
    winner = loser = None
    reserve = 0
    if result.winner is not None and result.kind is not ResultKind.ABORT:
        winner = game.player(result.winner).id
        loser = game.player(result.winner.other).id
        reserve = position.reserves(result.winner).total
    loser_balance = 0 if loser is None else await _balance(tx, stake.guild_id, loser) or 0
    for payout in settlement(winner, loser, stake.pot, paid_in, reserve, loser_balance):
        await _move(
            tx, stake.guild_id, payout.payer, payout.payee, payout.amount, payout.reason, now, stake
        )
    await tx.execute(
        "UPDATE stakes SET phase = 'settled', owes_id = NULL, settled_at = ? WHERE id = ?",
        (to_db(now), stake.id),
    )


async def refuse_undo_with_stakes(tx: Transaction, game: GameView) -> None:
    if await stake_of_game(tx, game.id) is not None:
        raise NoUndoWithStakes(game.id)


# ----------------------------------------------------------------- the service


class WalletService:
    """Wallet views, grants, settings and sealed bids."""

    def __init__(self, db: Database, clock: Clock) -> None:
        self._db = db
        self._clock = clock

    async def settings(self, guild_id: int) -> WalletSettings:
        async with self._db.snapshot() as tx:
            return await fetch_wallet_settings(tx, guild_id)

    async def configure(
        self,
        guild_id: int,
        *,
        enabled: bool | None = None,
        starting_balance: int | None = None,
        ante: int | None = None,
    ) -> WalletSettings:
        """Change what is given (None keeps it). The starting balance applies to wallets
        opened from now on."""
        if starting_balance is not None and not 0 <= starting_balance <= MAX_COINS:
            raise InvalidSetting(
                _("The starting balance is from 0 to {most} coins.", most=MAX_COINS)
            )
        if ante is not None and not 1 <= ante <= MAX_COINS:
            raise InvalidSetting(_("The ante is from 1 to {most} coins.", most=MAX_COINS))
        async with self._db.transaction() as tx:
            current = await fetch_wallet_settings(tx, guild_id)
            changed = replace(
                current,
                enabled=current.enabled if enabled is None else enabled,
                starting_balance=(
                    current.starting_balance if starting_balance is None else starting_balance
                ),
                ante=current.ante if ante is None else ante,
            )
            await tx.execute(
                "INSERT INTO wallet_settings (guild_id, enabled, starting_balance, ante) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET "
                "enabled = excluded.enabled, starting_balance = excluded.starting_balance, "
                "ante = excluded.ante",
                (guild_id, int(changed.enabled), changed.starting_balance, changed.ante),
            )
            return changed

    async def wallet(self, guild_id: int, player: PlayerRef, *, own: bool) -> Wallet:
        """A balance and its latest movements. Looking at one's `own` wallet opens it (with the
        starting balance, while gambling is on); looking at someone else's changes nothing."""
        now = self._clock.now()
        # Someone else's wallet is only read: no write lock (the Bid form must open in 3 s).
        async with self._db.transaction() if own else self._db.snapshot() as tx:
            settings = await fetch_wallet_settings(tx, guild_id)
            if own:
                await open_wallet(tx, settings, player, now)
            balance = await _balance(tx, guild_id, player.id)
            rows = await tx.fetchall(
                # A row written while bidding names the game it led to.
                "SELECT l.id, l.player_id, l.stake_id, COALESCE(l.game_id, s.game_id) AS game_id, "
                "l.amount, l.reason, l.created_at FROM ledger l "
                "LEFT JOIN stakes s ON s.id = l.stake_id WHERE l.guild_id = ? AND l.player_id = ? "
                "ORDER BY l.id DESC LIMIT ?",
                (guild_id, player.id, RECENT_ROWS),
            )
        recent = [_ledger_row(row) for row in rows]
        return Wallet(guild_id, player, balance or 0, recent, exists=balance is not None)

    async def grant(self, guild_id: int, player: PlayerRef, amount: int) -> int:
        """An admin creates (or, negative, takes back) coins; returns the new balance. A
        wallet never goes below zero."""
        if amount == 0 or abs(amount) > MAX_COINS:
            raise InvalidSetting(
                _("A grant is from 1 to {most} coins, or minus that.", most=MAX_COINS)
            )
        now = self._clock.now()
        async with self._db.transaction() as tx:
            settings = await fetch_wallet_settings(tx, guild_id)
            balance = await open_wallet(tx, settings, player, now)
            if balance + amount < 0:
                raise NotEnoughCoins(player.name, -amount, balance, "taking back")
            payer, payee = (None, player.id) if amount > 0 else (player.id, None)
            await _move(tx, guild_id, payer, payee, abs(amount), "grant", now)
            new = await _balance(tx, guild_id, player.id)
            assert new is not None
            return new

    async def leaderboard(self, guild_id: int) -> list[tuple[PlayerRef, int]]:
        rows = await self._db.fetchall(
            "SELECT w.player_id, p.name, w.balance FROM wallets w JOIN players p "
            "ON p.id = w.player_id WHERE w.guild_id = ? AND w.balance > 0 "
            "ORDER BY w.balance DESC, p.name COLLATE BINARY LIMIT ?",
            (guild_id, LEADERBOARD_SIZE),
        )
        return [(PlayerRef(row["player_id"], row["name"]), row["balance"]) for row in rows]

    async def stake(self, stake_id: int) -> StakeView:
        async with self._db.snapshot() as tx:
            return await fetch_stake(tx, stake_id)

    async def stake_of_game(self, game_id: int) -> StakeView | None:
        async with self._db.snapshot() as tx:
            return await stake_of_game(tx, game_id)

    async def game_rows(self, stake_id: int, reasons: tuple[str, ...]) -> list[LedgerRow]:
        """The staked game's ledger rows of those reasons, oldest first (e.g. its settlement)."""
        marks = ", ".join("?" * len(reasons))
        rows = await self._db.fetchall(
            f"SELECT * FROM ledger WHERE stake_id = ? AND reason IN ({marks}) "
            "AND player_id IS NOT NULL AND amount > 0 ORDER BY id",
            (stake_id, *reasons),
        )
        return [_ledger_row(row) for row in rows]

    async def bid(self, stake_id: int, player_id: int, amount: int) -> BidOutcome:
        """A sealed bid for the first move (changeable until bidding closes). The second bid in
        closes the bidding and starts the game."""
        now = self._clock.now()
        async with self._db.transaction() as tx:
            stake = await fetch_stake(tx, stake_id)
            stake.player(player_id)
            if stake.phase is not Phase.BIDDING:
                raise NotBidding(stake.id, "started")
            if stake.bids_due_at <= now:
                raise NotBidding(stake.id, "late")
            balance = await _balance(tx, stake.guild_id, player_id) or 0
            if amount < 0:
                raise InvalidSetting(_("A bid is 0 coins or more."))
            if amount > balance:
                raise NotEnoughCoins("You", amount, balance, "that bid")
            if player_id == stake.challenger.id:
                sql = "UPDATE stakes SET challenger_bid = ? WHERE id = ?"
            else:
                sql = "UPDATE stakes SET acceptor_bid = ? WHERE id = ?"
            await tx.execute(sql, (amount, stake.id))
            stake = await fetch_stake(tx, stake.id)
            game = None
            if stake.challenger_bid is not None and stake.acceptor_bid is not None:
                game = await close_bidding(tx, stake, now)
                stake = await fetch_stake(tx, stake.id)
            return BidOutcome(stake, game)
