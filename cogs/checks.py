"""Checks that commands of more than one group make before they act: whether the bot can show
games where a command was used (`/tak challenge`, `/tak play`, the tournaments), and whether an
offer is made to the bot itself (`/tak draw`, `/tak undo`, `/clock pause`)."""

from __future__ import annotations

import discord

from bot.games.model import GamePlace, GameView
from bot.languages import _, ngettext
from cogs.delivery.conversations import Answering, only_private_answers, place_of
from cogs.delivery.sharing import SHAREABLE
from cogs.delivery.table import (
    NEEDED_FOR_THREADS,
    Place,
    is_me,
    missing_permissions,
    permission_name,
)
from cogs.interactions import Refusal
from cogs.words import game_messages


async def check_place(interaction: discord.Interaction, use_threads: bool) -> Place | Answering:
    """Where a game made by the command will be shown: the command's channel in a server that
    installed Bredon, else the conversation, through the command's answer; refused, before
    anything is stored, where the bot cannot show games (or only privately)."""
    if place_of(interaction) is not GamePlace.SERVER:
        if only_private_answers(interaction):
            raise Refusal(game_messages.only_private_here())
        return Answering(interaction)
    channel = interaction.channel
    guild = interaction.guild
    if guild is None or not isinstance(channel, SHAREABLE):
        raise Refusal(_("Games can only be played in a server's text channel."))
    threads = use_threads and isinstance(channel, discord.TextChannel)
    missing = missing_permissions(channel, guild.me, threads=threads)
    if missing:
        fields = {"channel": channel.mention, "permissions": ", ".join(missing)}
        if set(missing) & {permission_name(name) for name in NEEDED_FOR_THREADS}:
            raise Refusal(
                ngettext(
                    "I can't run games in {channel}: I'm missing the {permissions} permission. "
                    "Ask a server manager to grant it (or to turn threads off: "
                    "`/bredon config threads:False`).",
                    "I can't run games in {channel}: I'm missing the {permissions} permissions. "
                    "Ask a server manager to grant them (or to turn threads off: "
                    "`/bredon config threads:False`).",
                    len(missing),
                    **fields,
                )
            )
        raise Refusal(
            ngettext(
                "I can't run games in {channel}: I'm missing the {permissions} permission. "
                "Ask a server manager to grant it.",
                "I can't run games in {channel}: I'm missing the {permissions} permissions. "
                "Ask a server manager to grant them.",
                len(missing),
                **fields,
            )
        )
    return channel


def not_asking_me(what: str) -> str:
    """What the bot says when asked what only a person answers (it answers moves only)."""
    return {
        "draw": _("I don't agree to draws: play on, or resign with `/tak resign`."),
        "undo": _("I don't take moves back: play on, or resign with `/tak resign`."),
        "pause": _("I don't pause games: `/clock vacation start` stops your clocks."),
        "conditions": _(
            "Conditional moves are for games between players: I answer your moves within "
            "moments anyway."
        ),
    }[what]


def refuse_asking_me(interaction: discord.Interaction, game: GameView, what: str) -> None:
    """An offer to the bot itself is refused at once: it would stand unanswered (the bot only
    moves) while the asker waited on their own clock."""
    players = (game.white.id, game.black.id)
    if interaction.user.id in players and any(is_me(interaction.client, p) for p in players):
        raise Refusal(not_asking_me(what))


def server_only(interaction: discord.Interaction) -> int:
    """The server of a command that shows a server's games (a leaderboard, the explorer): it
    is refused outside the servers that installed Bredon, where it would show games of DMs."""
    if place_of(interaction) is not GamePlace.SERVER or interaction.guild_id is None:
        raise Refusal(
            _("This works only in a server that installed Bredon: it shows that server's games.")
        )
    return interaction.guild_id


def only_own_outside_servers(interaction: discord.Interaction, whose: int) -> None:
    """Outside Bredon's servers a player sees only their own record: another's would show
    games of their DMs."""
    if whose != interaction.user.id and place_of(interaction) is not GamePlace.SERVER:
        raise Refusal(_("Outside servers I show only your own games, scores and statistics."))
