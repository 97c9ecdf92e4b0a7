"""What the bot says about coins: wallets, the bidding for the first move, a staked game's pot,
Tak token and payments, and its settlement. Words only; the rules are in
:mod:`bot.coins.rules`."""

from __future__ import annotations

import discord

from bot.coins.rules import TAK_PAYMENT
from bot.coins.service import LedgerRow, StakeView, Wallet, WalletSettings
from bot.games.model import GameView
from bot.languages import _, ngettext, numeral
from bot.players.model import PlayerRef
from cogs.words.formatting import display, mention, timestamp


def reason_text(reason: str) -> str:
    """What a ledger row's reason means, in the language spoken."""
    reasons = {
        "start": _("starting coins"),
        "grant": _("granted by the server"),
        "ante": _("ante"),
        "bid": _("bid for the first move"),
        "tak": _("paid for a Tak"),
        "pot": _("won the pot"),
        "bonus": _("reserve bonus"),
        "refund": _("returned from the pot"),
    }
    return reasons[reason]


def coins(amount: int) -> str:
    return ngettext("**{count}** coin", "**{count}** coins", amount)


def ledger_line(row: LedgerRow) -> str:
    fields = {
        "amount": numeral(row.amount, sign=True),
        "reason": reason_text(row.reason),
        "when": timestamp(row.created_at),
    }
    if row.game_id is None:
        return _("{amount} {reason} ({when})", **fields)
    return _("{amount} {reason}, game #{game} ({when})", game=row.game_id, **fields)


def wallet_text(wallet: Wallet, settings: WalletSettings) -> str:
    name = display(wallet.player.name)
    if not wallet.exists and not settings.enabled:
        return _("Playing for coins is off in this server.")
    lines = [_("**{name}** has {coins} in this server.", name=name, coins=coins(wallet.balance))]
    if wallet.recent:
        lines.append(_("Latest movements:"))
        lines.extend(ledger_line(row) for row in wallet.recent)
    if not settings.enabled:
        lines.append(_("Playing for coins is off in this server for now."))
    return "\n".join(lines)


def coin_board_embed(board: list[tuple[PlayerRef, int]]) -> discord.Embed:
    lines = [
        f"{place}. **{display(player.name)}** {amount}"
        for place, (player, amount) in enumerate(board, start=1)
    ]
    empty = _("Nobody holds any coins here yet: see `/coins wallet`.")
    return discord.Embed(title=_("Coins"), description="\n".join(lines) or empty)


def gambling_text(settings: WalletSettings) -> str:
    return _(
        "Playing for coins: **{state}**. New wallets start with {starting}; a challenge's ante "
        "is {ante} unless its challenger names another.",
        state=_("on") if settings.enabled else _("off"),
        starting=coins(settings.starting_balance),
        ante=coins(settings.ante),
    )


def bidding_open_text(stake: StakeView) -> str:
    return _(
        "{challenger} {acceptor}: the game is played for coins. The pot holds {pot} (an ante of "
        "{ante} each).\nBid for the first move with the **Bid** button: bids are sealed. The high "
        "bidder plays white and pays the bid into the pot; the other pays nothing. Equal bids "
        "are settled by a coin already flipped; a missing bid counts as 0. Bidding closes when "
        "both bids are in, or {closes}.",
        challenger=mention(stake.challenger),
        acceptor=mention(stake.acceptor),
        pot=coins(stake.pot),
        ante=stake.ante,
        closes=timestamp(stake.bids_due_at),
    )


def _bid(bid: int | None) -> str:
    return _("no bid") if bid is None else _("bid {amount}", amount=bid)


def bids_text(stake: StakeView) -> str:
    """The revealed bids and who goes first."""
    first = stake.player(stake.first_id or stake.tie_to)
    tie = (stake.challenger_bid or 0) == (stake.acceptor_bid or 0)
    fields = {
        "challenger": display(stake.challenger.name),
        "challenger_bid": _bid(stake.challenger_bid),
        "acceptor": display(stake.acceptor.name),
        "acceptor_bid": _bid(stake.acceptor_bid),
        "first": display(first.name),
        "paid": coins(stake.first_paid or 0),
        "pot": coins(2 * stake.ante + (stake.first_paid or 0)),
    }
    if tie:
        return _(
            "Bids revealed: {challenger} {challenger_bid}, {acceptor} {acceptor_bid}. **{first}** "
            "goes first (equal bids: the coin flip chose them) and paid {paid} into the pot: it "
            "holds {pot}.",
            **fields,
        )
    return _(
        "Bids revealed: {challenger} {challenger_bid}, {acceptor} {acceptor_bid}. **{first}** "
        "goes first and paid {paid} into the pot: it holds {pot}.",
        **fields,
    )


def bidding_closed_text(stake: StakeView) -> str:
    return _(
        "Bidding for game #{game} is closed. {bids}", game=stake.game_id, bids=bids_text(stake)
    )


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
        parts.append(
            _("{player} paid {coins} for the Tak.", player=display(mover.name), coins=coins(paid))
        )
    if owes_id is not None:
        parts.append(
            _(
                "{player} owes {coins} to the pot: paid with your next move, or resign.",
                player=mention(owes_id),
                coins=coins(TAK_PAYMENT),
            )
        )
    elif tak:
        parts.append(
            _(
                "No payment for this Tak: {opponent} paid for {player}'s last one.",
                opponent=display(game.opponent_of(mover_id).name),
                player=display(mover.name),
            )
        )
    holder = (
        _("nobody yet") if token_id is None else display(game.player(game.color_of(token_id)).name)
    )
    parts.append(_("Pot: {pot}. Tak token: {holder}.", pot=coins(pot), holder=holder))
    return " ".join(parts)


def settlement_text(game: GameView, rows: list[LedgerRow], reserve: int | None) -> str:
    """How a staked game's end paid out: the pot and bonus to the winner, or the refunds."""
    won = sum(r.amount for r in rows if r.reason == "pot")
    bonus = sum(r.amount for r in rows if r.reason == "bonus")
    refunds = [r for r in rows if r.reason == "refund"]
    winner = game.winner
    if winner is not None:
        fields = {"winner": display(winner.name), "pot": coins(won)}
        if not reserve:
            return _("{winner} takes the pot of {pot}.", **fields)
        fields |= {"bonus": coins(bonus), "loser": display(game.opponent_of(winner.id).name)}
        if bonus == reserve:
            return _(
                "{winner} takes the pot of {pot} and a bonus of {bonus} from {loser} for the "
                "pieces left in reserve.",
                **fields,
            )
        return _(
            "{winner} takes the pot of {pot} and a bonus of {bonus} from {loser} for the pieces "
            "left in reserve (all they had; {pieces} pieces were left).",
            pieces=reserve,
            **fields,
        )
    if not refunds:
        return _("The pot was empty.")
    names = {game.white.id: game.white.name, game.black.id: game.black.name}
    back = ", ".join(f"{display(names[r.player_id or 0])} {r.amount}" for r in refunds)
    return _("The pot goes back to the players: {back}.", back=back)
