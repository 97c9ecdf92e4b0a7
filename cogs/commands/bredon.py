"""`/bredon`: the server's settings (server managers): `config`, the defaults for new games,
threads and typed moves; `gambling` and `grant`, the coins (the commands' names and groups are
declared in :mod:`cogs.commands.tree`)."""

from __future__ import annotations

import dataclasses
from typing import Any

import discord
from discord import app_commands

from bot.coins.service import MAX_COINS
from bot.guild_settings import MAX_VACATION_DAYS, Pages
from bot.languages import _
from bot.page_addresses import PublicPages
from cogs.arguments import BoardSize, Days, Komi, bredon
from cogs.delivery.courier import courier_of
from cogs.interactions import Refusal, acting, player_of, services_of
from cogs.translation import language_choices
from cogs.words import coin_messages, game_messages, puzzle_messages

FOLLOW_SERVER = "server"  # /bredon config language: as the server's own (Discord's)


def require_manager(interaction: discord.Interaction) -> None:
    """Every `/bredon` command checks this itself: Discord shows the group to server managers
    only, but a manager may grant it to others (Server Settings -> Integrations)."""
    if not interaction.permissions.manage_guild:
        raise Refusal(_("Only members with the Manage Server permission can change this."))


@app_commands.describe(
    size="Default board size, 3 to 8",
    komi="Default komi, in halves",
    days="Default days per move",
    threads="Give each game its own thread",
    organizer="A role that may run tournaments besides the server managers",
    typed_moves="Play moves typed as plain messages in a game's thread (if the bot reads them)",
    antiquity="New challenges use the antiquity tie rule: a tied flat count goes to black",
    vacation_days="Vacation days each player may take a year (0 turns vacations off)",
    language="The language of Bredon's posts here (default: the server's own)",
    pages="Web pages of this server's games, tournaments and players (off by default)",
)
@app_commands.choices(
    language=language_choices(FOLLOW_SERVER, "The server's own"),
    pages=[
        app_commands.Choice(name="Off", value=Pages.OFF.value),
        app_commands.Choice(
            name="Unlisted: only to whoever has a link", value=Pages.UNLISTED.value
        ),
        app_commands.Choice(name="Listed: also a lobby page", value=Pages.LISTED.value),
    ],
)
async def config(
    interaction: discord.Interaction,
    size: BoardSize | None = None,
    komi: Komi | None = None,
    days: Days | None = None,
    threads: bool | None = None,
    organizer: discord.Role | None = None,
    typed_moves: bool | None = None,
    antiquity: bool | None = None,
    vacation_days: app_commands.Range[int, 0, MAX_VACATION_DAYS] | None = None,
    language: str | None = None,
    pages: str | None = None,
) -> None:
    """Server defaults: new games, threads, typed moves, web pages"""
    async with acting(interaction):
        require_manager(interaction)
        bot = bredon(interaction)
        current = await bot.services.guilds.get(interaction.guild_id or 0)
        changes: dict[str, Any] = {
            "size": size,
            "komi": komi,
            "days_per_move": days,
            "use_threads": threads,
            "organizer_role_id": organizer.id if organizer else None,
            "typed_moves": typed_moves,
            "antiquity": antiquity,
            "vacation_days": vacation_days,
        }
        changed = {name: value for name, value in changes.items() if value is not None}
        if language is not None:
            changed["language"] = None if language == FOLLOW_SERVER else language
        if pages is not None:
            changed["pages"] = Pages(pages)
        if changed:
            current = await bot.services.guilds.save(dataclasses.replace(current, **changed))
        reading = bot.settings.typed_moves
        guild_language = await courier_of(bot).table.server_language(current.guild_id)
        text = game_messages.guild_settings_text(
            current, reads_typed_moves=reading, language=guild_language
        )
        public = PublicPages(bot.services.guilds, bot.settings.web)
        addresses = await public.addresses(current.guild_id)
        text += "\n" + game_messages.pages_text(current.pages, addresses, current.guild_id)
        await interaction.followup.send(text, ephemeral=True)


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


@app_commands.describe(
    channel="Where to post the daily puzzle (each day, UTC)",
    stop="Post no more daily puzzles here",
)
async def puzzles(
    interaction: discord.Interaction,
    channel: discord.TextChannel | None = None,
    stop: bool = False,
) -> None:
    """The daily puzzle: the channel it is posted in"""
    async with acting(interaction):
        require_manager(interaction)
        bot = bredon(interaction)
        guild_id = interaction.guild_id or 0
        if stop:
            await bot.services.puzzles.set_channel(guild_id, None)
        elif channel is not None:
            await bot.services.puzzles.set_channel(guild_id, channel.id)
            bot.wake_scheduler()  # today's puzzle goes out now
        chosen = await bot.services.puzzles.channel(guild_id)
        await interaction.followup.send(puzzle_messages.channel_text(chosen), ephemeral=True)
