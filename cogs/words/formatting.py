"""How every wording module writes names, mentions and times in a Discord message."""

from __future__ import annotations

from datetime import datetime

import discord

from bot.players.model import PlayerRef


def display(name: str) -> str:
    """A name (or other user text) as it may stand in a message: no markdown, no mentions."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(name))


def mention(player: PlayerRef | int) -> str:
    return f"<@{player if isinstance(player, int) else player.id}>"


def timestamp(moment: datetime) -> str:
    """A time every reader sees in their own time zone, e.g. "in 2 days"."""
    return f"<t:{int(moment.timestamp())}:R>"


def mention_role(role_id: int) -> str:
    return f"<@&{role_id}>"
