"""Answers shown to the channel (`public:True`) instead of only to the caller.

A command acknowledges privately first (so a refusal stays private), works out its answer, then
:func:`answer` posts it in the channel where the command was used, under the caller's name, and
gives the caller its link. The bot checks its own permissions there first, as it does before a
challenge (:func:`cogs.delivery.table.missing_permissions`); when one is missing the caller is told
which, and gets the answer privately. A public post pings nobody: its mentions are turned off and
the names in it are escaped (:func:`cogs.words.formatting.display`).

Who may show what: anything a member may look at privately in a server (its games, whoever
plays them, its tournaments, ratings and coins) they may show to its channels. Another server's
game stays unknown here (:func:`cogs.arguments.find_game`), so it can never be shown.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

import discord
from discord import Thread

from bot.games.model import GamePlace
from bot.languages import _, ngettext, speaking
from cogs.delivery.conversations import place_of
from cogs.delivery.courier import courier_of
from cogs.delivery.table import permission_name
from cogs.interactions import player_of
from cogs.words.formatting import display

SILENT = discord.AllowedMentions.none()
# The channels an answer may be shown in (where a command can be used, and messages sent).
SHAREABLE = discord.TextChannel | discord.VoiceChannel | discord.StageChannel | Thread
PUBLIC_OPTION = "Show it to the channel instead of only to you (default: only to you)"


def missing_to_share(
    channel: discord.abc.GuildChannel | discord.Thread,
    me: discord.Member,
    *,
    embed: bool,
    files: bool,
) -> list[str]:
    """The permissions the bot lacks to post this answer in `channel` (by their names in
    Discord's settings)."""
    granted = channel.permissions_for(me)
    needed = ["view_channel"]
    needed.append(
        "send_messages_in_threads" if isinstance(channel, discord.Thread) else "send_messages"
    )
    if embed:
        needed.append("embed_links")
    if files:
        needed.append("attach_files")
    return [permission_name(name) for name in needed if not getattr(granted, name)]


def shared_by(interaction: discord.Interaction) -> str:
    """The small line under a public answer: who asked for it."""
    return "-# " + _("Shown by {player}", player=display(player_of(interaction.user).name))


@asynccontextmanager
async def wording_for(interaction: discord.Interaction, public: bool) -> AsyncIterator[None]:
    """Word an answer inside for whom it is for: with `public` (in a server, in a channel the
    bot may post in), in the server's language, for the channel reads it; else in the
    caller's (as :func:`cogs.interactions.acting` speaks)."""
    channel, guild = interaction.channel, interaction.guild
    shown = (
        public
        and guild is not None
        and place_of(interaction) is GamePlace.SERVER
        and isinstance(channel, SHAREABLE)
        # where the bot cannot post at all, the answer comes to the caller alone (`answer`)
        and not missing_to_share(channel, guild.me, embed=False, files=False)
    )
    if not shown or interaction.guild_id is None:
        yield
        return
    with speaking(await courier_of(interaction.client).table.server_language(interaction.guild_id)):
        yield


async def answer(
    interaction: discord.Interaction,
    public: bool,
    content: str = "",
    *,
    embed: discord.Embed | None = None,
    files: Sequence[discord.File] = (),
    view: discord.ui.View | None = None,
) -> discord.Message | None:
    """Send a command's answer (after :func:`cogs.interactions.acting`): privately, or with
    `public` in the channel, the caller getting its link. Returns the public post, if there is
    one."""
    extra: dict[str, Any] = {"files": list(files)}
    if embed is not None:
        extra["embed"] = embed
    if view is not None:
        extra["view"] = view
    channel = interaction.channel
    guild = interaction.guild
    # Only where Bredon is a member: elsewhere it may not post (Discord says 403), only answer.
    if (
        public
        and guild is not None
        and isinstance(channel, SHAREABLE)
        and place_of(interaction) is GamePlace.SERVER
    ):
        missing = missing_to_share(channel, guild.me, embed=embed is not None, files=bool(files))
        if not missing:
            async with wording_for(interaction, public):
                text = f"{content}\n{shared_by(interaction)}".lstrip()
            posted = await channel.send(text, allowed_mentions=SILENT, **extra)
            link = _("Shown in the channel: {link}", link=posted.jump_url)
            await interaction.followup.send(link, ephemeral=True)
            return posted
        refused = ngettext(
            "I can't show this in {channel}: I'm missing the {permissions} permission there. "
            "Here it is for you only.",
            "I can't show this in {channel}: I'm missing the {permissions} permissions there. "
            "Here it is for you only.",
            len(missing),
            channel=channel.mention,
            permissions=", ".join(missing),
        )
        content = f"{refused}\n{content}".rstrip()
    await interaction.followup.send(content, ephemeral=True, **extra)
    return None
