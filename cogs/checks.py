"""Checks that commands of more than one group make before they act: whether the bot can show
games where a command was used (`/tak challenge`, `/tak play`, the tournaments), and whether an
offer is made to the bot itself (`/tak draw`, `/tak undo`, `/clock pause`)."""

from __future__ import annotations

import discord

from bot.games.model import GameView
from cogs.actions import Refusal
from cogs.sharing import SHAREABLE
from cogs.table import NEEDED_FOR_THREADS, Place, is_me, missing_permissions


async def check_place(interaction: discord.Interaction, use_threads: bool) -> Place:
    """The channel of the command, where a game will be shown; refused, before anything is
    stored, where the bot cannot show games."""
    channel = interaction.channel
    guild = interaction.guild
    if guild is None or not isinstance(channel, SHAREABLE):
        raise Refusal("Games can only be played in a server's text channel.")
    threads = use_threads and isinstance(channel, discord.TextChannel)
    missing = missing_permissions(channel, guild.me, threads=threads)
    if missing:
        several = len(missing) > 1
        thread_rights = set(missing) & set(NEEDED_FOR_THREADS.values())
        fix = " (or to turn threads off: `/bredon config threads:False`)" if thread_rights else ""
        raise Refusal(
            f"I can't run games in {channel.mention}: I'm missing the "
            f"{', '.join(missing)} permission{'s' if several else ''}. "
            f"Ask a server manager to grant {'them' if several else 'it'}{fix}."
        )
    return channel


# What the bot says when asked what only a person answers (it answers moves only).
NOT_ASKING_ME = {
    "draw": "I don't agree to draws: play on, or resign with `/tak resign`.",
    "undo": "I don't take moves back: play on, or resign with `/tak resign`.",
    "pause": "I don't pause games: `/clock vacation start` stops your clocks.",
    "conditions": "Conditional moves are for games between players: I answer your moves within "
    "moments anyway.",
}


def refuse_asking_me(interaction: discord.Interaction, game: GameView, what: str) -> None:
    """An offer to the bot itself is refused at once: it would stand unanswered (the bot only
    moves) while the asker waited on their own clock."""
    players = (game.white.id, game.black.id)
    if interaction.user.id in players and any(is_me(interaction.client, p) for p in players):
        raise Refusal(NOT_ASKING_ME[what])
