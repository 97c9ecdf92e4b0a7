"""Conversations Bredon is not a member of: a DM or a group DM between players, or a server
that did not install Bredon, reached because a player installed Bredon to their account.

There Bredon cannot post: it can only answer an interaction, through its token, for 15 minutes
(a response and follow-ups). So the table keeps the latest interaction of each such conversation
(:class:`Conversations`, fed by every interaction as it arrives) and posts a game's news as a
follow-up of the one its player caused (:class:`Answering`); with none still answerable, the
players are told by DM (:meth:`cogs.delivery.table.GameTable.post_for_game`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import discord

from bot.games.model import NO_SERVER, GamePlace
from bot.languages import _

# Discord answers an interaction's token for 15 minutes: a margin for the post itself.
ANSWERABLE_FOR = timedelta(minutes=14)
# Interaction.extras key: the private "thinking…" answer was completed, so follow-ups are new
# messages (Discord turns the first follow-up of a deferred answer into that private answer).
_COMPLETED = "bredon_thinking_completed"


def place_of(interaction: discord.Interaction) -> GamePlace:
    """Where an interaction comes from: a server that installed Bredon (Bredon is one of its
    members), a server without Bredon, or a DM or group DM (Bredon's own DMs are a DM too)."""
    if interaction.guild_id is not None:
        if interaction.client.get_guild(interaction.guild_id) is not None:
            return GamePlace.SERVER
        return GamePlace.ELSEWHERE
    channel = interaction.channel
    if isinstance(channel, discord.GroupChannel) or getattr(channel, "type", None) is (
        discord.ChannelType.group
    ):
        return GamePlace.GROUP_DM
    return GamePlace.DM


def guild_of(interaction: discord.Interaction) -> int:
    """The guild id games made here are kept under: the server's, or :data:`NO_SERVER`."""
    if place_of(interaction) is GamePlace.SERVER and interaction.guild_id is not None:
        return interaction.guild_id
    return NO_SERVER


def only_private_answers(interaction: discord.Interaction) -> bool:
    """Whether Discord lets Bredon answer here only privately: a server without Bredon whose
    channel does not let this member use external apps."""
    return place_of(interaction) is GamePlace.ELSEWHERE and not (
        interaction.permissions.use_external_apps
    )


def conversation_link(guild_id: int | None, channel_id: int) -> str:
    """A link that opens the conversation (a server's channel, or a DM or group DM)."""
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}"


def only_players(*player_ids: int) -> discord.AllowedMentions:
    """Mentions that may ping the players of a game and nobody else."""
    return discord.AllowedMentions(
        everyone=False, roles=False, users=[discord.Object(id) for id in player_ids]
    )


@dataclass(frozen=True, slots=True)
class Answering:
    """A conversation Bredon is not in, reached through an interaction that came from it: what
    is sent goes to everyone there, as a follow-up of that interaction."""

    interaction: discord.Interaction

    @property
    def user_id(self) -> int:
        return self.interaction.user.id

    async def send(self, content: str, **extra: Any) -> discord.WebhookMessage:
        """Post `content` to the conversation (a follow-up, public), after completing the
        private "thinking…" answer of a command if it still is one (else Discord would make
        this post it, privately)."""
        interaction = self.interaction
        thinking = (
            interaction.response.type is discord.InteractionResponseType.deferred_channel_message
        )
        if thinking and not interaction.extras.get(_COMPLETED):
            if (await interaction.original_response()).flags.loading:
                await interaction.edit_original_response(
                    content=_("Shown below, to everyone here.")
                )
            interaction.extras[_COMPLETED] = True
        extra.setdefault("allowed_mentions", discord.AllowedMentions.none())
        return await interaction.followup.send(content, wait=True, **extra)


class Conversations:
    """The latest interaction of each channel, by channel: what the next post of a game
    outside Bredon's servers answers there."""

    def __init__(self) -> None:
        self._latest: dict[int, discord.Interaction] = {}
        # The server of each channel seen in a server without Bredon, for links back to it.
        self._servers: dict[int, int] = {}

    def remember(self, interaction: discord.Interaction) -> None:
        """Keep an interaction where Discord lets it answer for everyone: those of a server
        that installed Bredon too, for a game begun there before it did."""
        channel_id = interaction.channel_id
        if channel_id is None:
            return
        if place_of(interaction) is GamePlace.ELSEWHERE and interaction.guild_id is not None:
            self._servers[channel_id] = interaction.guild_id
        if only_private_answers(interaction):  # the channel allows no more: none answers there
            self._latest.pop(channel_id, None)
            return
        if interaction.type is discord.InteractionType.autocomplete:
            return  # answered by choices only
        now = discord.utils.utcnow()  # those Discord no longer answers are forgotten
        self._latest = {c: i for c, i in self._latest.items() if answerable(i, now)}
        self._latest[channel_id] = interaction

    def answering(self, channel_id: int, player_ids: tuple[int, ...]) -> Answering | None:
        """The conversation's latest interaction, if one of `player_ids` caused it and it can
        still be answered."""
        interaction = self._latest.get(channel_id)
        if interaction is None or interaction.user.id not in player_ids:
            return None
        if not answerable(interaction, discord.utils.utcnow()):
            return None
        return Answering(interaction)

    def link(self, channel_id: int) -> str:
        """A link that opens the conversation (in a server without Bredon, as far as known)."""
        return conversation_link(self._servers.get(channel_id), channel_id)


def answerable(interaction: discord.Interaction, now: datetime) -> bool:
    """Whether Discord still takes follow-ups to `interaction` (with a margin)."""
    return now - interaction.created_at < ANSWERABLE_FOR
