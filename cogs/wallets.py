"""Coins in Discord (the University Gambling Rules): `/coins wallet`, `/coins leaderboard`,
`/bredon gambling`, `/bredon grant`, the Bid button with its sealed-bid form, the bidding
announcements, and the coin lines of a staked game's posts (its start, each move and its end).

The commands are declared in :mod:`cogs.commands`; the rest plugs into
:class:`cogs.table.GameTable` (:func:`install`). Everything the players see after a change comes
out of the outbox like any other announcement.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord
from discord import app_commands

from bot.app import BredonBot, acting, apologise
from bot.coins.service import MAX_COINS, Phase, StakeView
from bot.errors import InvalidSetting, NotBidding
from bot.games.model import GameView
from bot.languages import _
from bot.notifications.outbox import (
    BiddingNews,
    GameEnded,
    GameStart,
    Item,
    MovePlayed,
    Outcome,
    challenge_stream,
    game_stream,
)
from cogs import coin_messages
from cogs.actions import Refusal, player_of
from cogs.arguments import services_of
from cogs.buttons import pressed
from cogs.courier import courier_of
from cogs.formatting import timestamp
from cogs.server import require_manager
from cogs.sharing import answer, wording_for
from cogs.table import GONE, GameTable, Shown

log = logging.getLogger(__name__)


# ----------------------------------------------------------------- sealed bids


class BidButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"bredon:stake:(?P<stake>\d+):bid",
):
    """Under a bidding announcement: opens the sealed-bid form for one of its two players."""

    def __init__(self, stake_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=_("Bid"),
                style=discord.ButtonStyle.primary,
                custom_id=f"bredon:stake:{stake_id}:bid",
            )
        )
        self.stake_id = stake_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> BidButton:
        return cls(int(match["stake"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """The form must be the first answer, so nothing is acknowledged before it."""
        await pressed(
            interaction, "the Bid button", self.stake_id, open_bid_form(interaction, self.stake_id)
        )


def bid_view(stake_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(BidButton(stake_id))
    return view


async def open_bid_form(interaction: discord.Interaction, stake_id: int) -> None:
    services = services_of(interaction)
    stake = await services.wallets.stake(stake_id)
    player = stake.player(interaction.user.id)
    if stake.phase is not Phase.BIDDING:
        raise NotBidding(stake.id, "started")
    wallet = await services.wallets.wallet(stake.guild_id, player, own=False)
    current = stake.bid_of(player.id)
    await interaction.response.send_modal(BidForm(stake, wallet.balance, current))


class BidForm(discord.ui.Modal):
    """One field: the bid, from 0 to what the player holds (after the ante)."""

    def __init__(self, stake: StakeView, balance: int, current: int | None) -> None:
        super().__init__(title=_("Your sealed bid for the first move"), timeout=15 * 60)
        self.stake_id = stake.id
        self.amount: discord.ui.TextInput[BidForm] = discord.ui.TextInput(
            label=_("Coins, 0 to {balance}", balance=balance)[:45],
            placeholder=_("The high bidder plays white and pays the bid"),
            default=None if current is None else str(current),
            custom_id="bid",
            max_length=7,
        )
        self.add_item(self.amount)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        async with acting(interaction):
            text = self.amount.value.strip()
            if not text.isdecimal() or not text.isascii():
                raise InvalidSetting(_("A bid is a whole number of coins, e.g. 5 (or 0)."))
            services = services_of(interaction)
            outcome = await services.wallets.bid(self.stake_id, interaction.user.id, int(text))
            courier = courier_of(interaction.client)
            await courier.deliver_stream(challenge_stream(outcome.stake.challenge_id))
            if outcome.game is None:
                reply = _(
                    "Your sealed bid of {coins} is in. You may change it until the other player "
                    "bids, or bidding closes {closes}.",
                    coins=coin_messages.coins(int(text)),
                    closes=timestamp(outcome.stake.bids_due_at),
                )
            else:
                report = await courier.deliver_stream(game_stream(outcome.game.id))
                starts = _("Both bids are in: game #{game} starts", game=outcome.game.id)
                reply = report.reply(starts, starts)
            await interaction.followup.send(reply, ephemeral=True)

    async def on_error(  # type: ignore[override]  # as discord.py's Modal narrows it
        self, interaction: discord.Interaction, error: Exception, /
    ) -> None:
        await apologise(interaction, error, "the bid form", self.stake_id)


# ----------------------------------------------------------------- what the table shows


class CoinTable:
    """The bidding announcements, and the coin lines of a staked game's posts."""

    def __init__(self, table: GameTable) -> None:
        self.table = table
        self.services = table.services

    async def show_bidding(self, item: Item, news: BiddingNews) -> Shown:
        """Bidding opened: a message with the Bid button in the challenge's channel. Closed:
        that message shows the bids instead (or a new one does, if it is gone)."""
        stake = await self.services.wallets.stake(news.stake_id)
        challenge = await self.services.challenges.get(news.challenge_id)
        posted = item.progress.get("posted")
        if posted is not None:  # a retry after the post went out
            return Shown(posted["link"], Outcome.POSTED)
        if news.closed:
            edited = await self._reveal(item, stake)
            if edited is not None:
                return edited
            view, text = None, coin_messages.bidding_closed_text(stake)
        else:
            view, text = bid_view(stake.id), coin_messages.bidding_open_text(stake)
        try:
            place = await self.table.channel(challenge.channel_id)
            message = await (place.send(text) if view is None else place.send(text, view=view))
        except GONE as error:
            log.info("Bidding %s: its channel refused the post (%s).", stake.id, error)
            return Shown(None, Outcome.GIVEN_UP)  # the game's start says the bids too
        link = message.jump_url
        await self.services.outbox.save_progress(item, posted={"link": link, "id": message.id})
        return Shown(link, Outcome.POSTED)

    async def _reveal(self, item: Item, stake: StakeView) -> Shown | None:
        """Edit the bidding message into the revealed bids; None if it cannot be found."""
        opened = await self.services.outbox.delivered_items(item.stream, BiddingNews.KIND)
        for earlier in opened:
            posted = earlier.progress.get("posted")
            if posted is None or posted.get("link") is None:
                continue
            try:
                message = await (await self.table.posted_message(posted["link"])).edit(
                    content=coin_messages.bidding_closed_text(stake), view=None
                )
            except GONE as error:
                log.info("Bidding %s: its message cannot be edited (%s).", stake.id, error)
                return None
            return Shown(message.jump_url, Outcome.POSTED)
        return None

    async def note(self, game: GameView, payload: object) -> str | None:
        """The coins of a staked game, under its start, each move and its end."""
        if isinstance(payload, MovePlayed):
            if payload.pot is None:
                return None
            mover = game.white if payload.ply % 2 == 1 else game.black
            return coin_messages.move_coins_text(
                game,
                mover.id,
                payload.tak,
                payload.paid,
                payload.pot,
                payload.token_id,
                payload.owes_id,
            )
        if not isinstance(payload, GameStart | GameEnded):
            return None
        stake = await self.services.wallets.stake_of_game(game.id)
        if stake is None:
            return None
        if isinstance(payload, GameStart):
            return coin_messages.bids_text(stake)
        rows = await self.services.wallets.game_rows(stake.id, ("pot", "bonus", "refund"))
        reserve = None
        if game.result is not None and game.result.winner is not None:
            reserve = game.position_from_tps().reserves(game.result.winner).total
        return coin_messages.settlement_text(game, rows, reserve)


# ----------------------------------------------------------------- commands


@app_commands.describe(user="Whose wallet (default: yours)")
async def wallet(interaction: discord.Interaction, user: discord.Member | None = None) -> None:
    """Your coins (or someone's) and their latest movements"""
    async with acting(interaction):
        services = services_of(interaction)
        guild_id = interaction.guild_id or 0
        whose = user or interaction.user
        own = whose.id == interaction.user.id
        found = await services.wallets.wallet(guild_id, player_of(whose), own=own)
        settings = await services.wallets.settings(guild_id)
        await interaction.followup.send(coin_messages.wallet_text(found, settings), ephemeral=True)


async def leaderboard(interaction: discord.Interaction, public: bool = False) -> None:
    """The server's coin leaderboard"""
    async with acting(interaction):
        board = await services_of(interaction).wallets.leaderboard(interaction.guild_id or 0)
        async with wording_for(interaction, public):
            embed = coin_messages.coin_board_embed(board)
        await answer(interaction, public, embed=embed)


@app_commands.describe(
    enabled="Allow challenges for coins (off by default)",
    starting="Coins a player's wallet starts with (given once)",
    ante="The default ante of a challenge for coins",
)
async def gambling(
    interaction: discord.Interaction,
    enabled: bool | None = None,
    starting: app_commands.Range[int, 0, MAX_COINS] | None = None,
    ante: app_commands.Range[int, 1, MAX_COINS] | None = None,
) -> None:
    """Playing for coins: on or off, starting coins, ante"""
    async with acting(interaction):
        require_manager(interaction)
        settings = await services_of(interaction).wallets.configure(
            interaction.guild_id or 0, enabled=enabled, starting_balance=starting, ante=ante
        )
        await interaction.followup.send(coin_messages.gambling_text(settings), ephemeral=True)


@app_commands.describe(user="Who gets them", amount="Coins; negative to take back")
async def grant(
    interaction: discord.Interaction,
    user: discord.Member,
    amount: app_commands.Range[int, -MAX_COINS, MAX_COINS],
) -> None:
    """Give a member coins (a negative amount takes some back)"""
    async with acting(interaction):
        require_manager(interaction)
        if user.bot:
            raise Refusal(_("Bots do not play for coins."))
        services = services_of(interaction)
        balance = await services.wallets.grant(interaction.guild_id or 0, player_of(user), amount)
        fields = {
            "coins": coin_messages.coins(abs(amount)),
            "member": user.mention,
            "balance": coin_messages.coins(balance),
        }
        if amount > 0:
            text = _("Granted {coins} to {member}: they now have {balance}.", **fields)
        else:
            text = _("Took back {coins} from {member}: they now have {balance}.", **fields)
        await interaction.followup.send(text, ephemeral=True)


def install(bot: BredonBot, table: GameTable) -> None:
    """The Bid button, the bidding announcements and the coin lines of a staked game's posts."""
    bot.add_dynamic_items(BidButton)
    coin_table = CoinTable(table)
    table.register(BiddingNews, coin_table.show_bidding)
    table.notes.append(coin_table.note)
