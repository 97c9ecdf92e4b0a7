"""The Bid button under a bidding announcement, and its sealed-bid form (the University
Gambling Rules: the high bidder plays white and pays the bid)."""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot.coins.service import Phase, StakeView
from bot.errors import InvalidSetting, NotBidding
from bot.languages import _
from bot.notifications.outbox import (
    challenge_stream,
    game_stream,
)
from cogs.components.buttons import pressed
from cogs.delivery.courier import courier_of
from cogs.interactions import acting, apologise, services_of
from cogs.words import coin_messages
from cogs.words.formatting import timestamp

log = logging.getLogger(__name__)


class BidButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
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
