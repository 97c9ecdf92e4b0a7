"""What the bot says about coins: wallets, the bidding for the first move, a staked game's pot,
Tak token and payments, and its settlement. Words only; the rules are in
:mod:`bot.coins.rules`."""

from __future__ import annotations

import discord

from bot.coins.rules import TAK_PAYMENT
from bot.coins.service import LedgerRow, StakeView, Wallet, WalletSettings
from bot.games.model import GameView, PlayerRef
from cogs.formatting import display, mention, timestamp

REASONS = {
    "start": "starting coins",
    "grant": "granted by the server",
    "ante": "ante",
    "bid": "bid for the first move",
    "tak": "paid for a Tak",
    "pot": "won the pot",
    "bonus": "reserve bonus",
    "refund": "returned from the pot",
}


def coins(amount: int) -> str:
    return f"**{amount}** coin{'s' * (amount != 1)}"


def ledger_line(row: LedgerRow) -> str:
    where = f", game #{row.game_id}" if row.game_id is not None else ""
    return f"{row.amount:+d} {REASONS[row.reason]}{where} ({timestamp(row.created_at)})"


def wallet_text(wallet: Wallet, settings: WalletSettings) -> str:
    name = display(wallet.player.name)
    if not wallet.exists and not settings.enabled:
        return "Playing for coins is off in this server."
    lines = [f"**{name}** has {coins(wallet.balance)} in this server."]
    if wallet.recent:
        lines.append("Latest movements:")
        lines.extend(ledger_line(row) for row in wallet.recent)
    if not settings.enabled:
        lines.append("Playing for coins is off in this server for now.")
    return "\n".join(lines)


def coin_board_embed(board: list[tuple[PlayerRef, int]]) -> discord.Embed:
    lines = [
        f"{place}. **{display(player.name)}** {amount}"
        for place, (player, amount) in enumerate(board, start=1)
    ]
    empty = "Nobody holds any coins here yet: see `/coins wallet`."
    return discord.Embed(title="Coins", description="\n".join(lines) or empty)


def gambling_text(settings: WalletSettings) -> str:
    state = "on" if settings.enabled else "off"
    return (
        f"Playing for coins: **{state}**. New wallets start with {coins(settings.starting_balance)}"
        f"; a challenge's ante is {coins(settings.ante)} unless its challenger names another."
    )


def bidding_open_text(stake: StakeView) -> str:
    return (
        f"{mention(stake.challenger)} {mention(stake.acceptor)}: the game is played for coins. "
        f"The pot holds {coins(stake.pot)} (an ante of {stake.ante} each).\n"
        "Bid for the first move with the **Bid** button: bids are sealed. The high bidder plays "
        "white and pays the bid into the pot; the other pays nothing. Equal bids are settled by "
        "a coin already flipped; a missing bid counts as 0. "
        f"Bidding closes when both bids are in, or {timestamp(stake.bids_due_at)}."
    )


def _bid(bid: int | None) -> str:
    return "no bid" if bid is None else f"bid {bid}"


def bids_text(stake: StakeView) -> str:
    """The revealed bids and who goes first."""
    first = stake.player(stake.first_id or stake.tie_to)
    tie = (stake.challenger_bid or 0) == (stake.acceptor_bid or 0)
    how = " (equal bids: the coin flip chose them)" if tie else ""
    return (
        f"Bids revealed: {display(stake.challenger.name)} {_bid(stake.challenger_bid)}, "
        f"{display(stake.acceptor.name)} {_bid(stake.acceptor_bid)}. "
        f"**{display(first.name)}** goes first{how} and paid {coins(stake.first_paid or 0)} "
        f"into the pot: it holds {coins(2 * stake.ante + (stake.first_paid or 0))}."
    )


def bidding_closed_text(stake: StakeView) -> str:
    return f"Bidding for game #{stake.game_id} is closed. {bids_text(stake)}"


def move_coins_text(
    game: GameView,
    mover_id: int,
    tak: bool,
    paid: int,
    pot: int,
    token_id: int | None,
    owes_id: int | None,
) -> str:
    """The coins after a move: what the mover paid, who owes now, the pot and the token."""
    mover = game.player(game.color_of(mover_id))
    parts = []
    if paid:
        parts.append(f"{display(mover.name)} paid {coins(paid)} for the Tak.")
    if owes_id is not None:
        parts.append(
            f"{mention(owes_id)} owes {coins(TAK_PAYMENT)} to the pot: paid with your next "
            "move, or resign."
        )
    elif tak:
        parts.append(
            f"No payment for this Tak: {display(game.opponent_of(mover_id).name)} paid for "
            f"{display(mover.name)}'s last one."
        )
    holder = (
        "nobody yet" if token_id is None else display(game.player(game.color_of(token_id)).name)
    )
    parts.append(f"Pot: {coins(pot)}. Tak token: {holder}.")
    return " ".join(parts)


def settlement_text(game: GameView, rows: list[LedgerRow], reserve: int | None) -> str:
    """How a staked game's end paid out: the pot and bonus to the winner, or the refunds."""
    won = sum(r.amount for r in rows if r.reason == "pot")
    bonus = sum(r.amount for r in rows if r.reason == "bonus")
    refunds = [r for r in rows if r.reason == "refund"]
    winner = game.winner
    if winner is not None:
        loser = game.opponent_of(winner.id)
        text = f"{display(winner.name)} takes the pot of {coins(won)}"
        if reserve:
            capped = "" if bonus == reserve else f" (all they had; {reserve} pieces were left)"
            text += (
                f" and a bonus of {coins(bonus)} from {display(loser.name)} for the pieces left "
                f"in reserve{capped}"
            )
        return text + "."
    if not refunds:
        return "The pot was empty."
    names = {game.white.id: game.white.name, game.black.id: game.black.name}
    back = ", ".join(f"{display(names[r.player_id or 0])} {r.amount}" for r in refunds)
    return f"The pot goes back to the players: {back}."
