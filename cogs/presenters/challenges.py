"""Challenges: a new one posted with its buttons, and its message edited once it is settled
(accepted, declined, cancelled or expired)."""

from __future__ import annotations

import logging
from functools import partial

import discord

from bot.games.model import ChallengeView
from bot.languages import _, speaking
from bot.notifications.outbox import ChallengeSettled, Item, Outcome
from cogs.components.buttons import challenge_buttons
from cogs.delivery.conversations import Answering, only_players
from cogs.delivery.table import GONE, UNREACHABLE, GameTable, Place, Shown
from cogs.words import game_messages, notification_messages

log = logging.getLogger(__name__)


async def post_challenge(
    table: GameTable, place: Place | Answering, challenge: ChallengeView
) -> discord.Message:
    """Post a new challenge with its buttons (the caller learns at once if it failed); one
    from a TPS shows its starting board."""
    if challenge.in_server:  # a public post, in the server's language
        language = await table.server_language(challenge.guild_id)
    else:  # in a conversation of players: in the challenger's
        language = await table.services.players.speaks(challenge.challenger.id)
    with speaking(language):
        board = None
        if challenge.setup.start_tps is not None:
            board = await table.position_file(
                challenge.setup.start_position(),
                (_("White"), _("Black")),
                viewer_id=None,
                name=f"challenge-{challenge.id}.png",
            )
        text = game_messages.challenge_text(challenge)
        view = challenge_buttons(challenge)
    mentions = only_players(
        challenge.challenger.id, *([challenge.opponent.id] if challenge.opponent else [])
    )
    message = await (
        place.send(text, view=view, allowed_mentions=mentions)
        if board is None
        else place.send(text, view=view, file=board, allowed_mentions=mentions)
    )
    await table.services.challenges.set_message(challenge.id, message.id)
    if challenge.opponent is not None and not challenge.in_server:  # only a DM reaches them
        async with table.speaking_to(challenge.opponent.id):
            text = notification_messages.conversation_challenge_dm_text(
                challenge.challenger.name, message.jump_url
            )
        try:  # a courtesy: the challenge stands in the conversation whatever happens
            await table.direct_message(challenge.opponent.id, text)
        except UNREACHABLE as error:
            log.info("Challenge %s: its opponent not told by DM (%s).", challenge.id, error)
    elif challenge.opponent is not None and message.guild is not None:
        async with table.speaking_to(challenge.opponent.id):  # a DM: in the opponent's language
            text = notification_messages.challenge_dm_text(
                message.guild.name, challenge.challenger.name, message.jump_url
            )
        await table.tell_by_dm(None, challenge.opponent.id, challenge.guild_id, text, offer=True)
    return message


async def show_settled(table: GameTable, item: Item, news: ChallengeSettled) -> Shown:
    """Show that a challenge is settled and take its buttons away."""
    challenge = await table.services.challenges.get(news.challenge_id)
    if challenge.message_id is None:
        return Shown(None, Outcome.POSTED)
    if not challenge.in_server:  # its message is an answer Bredon cannot edit later
        return await _settle_by_answer(table, challenge)
    try:
        place = await table.channel(challenge.channel_id)
        if not isinstance(place, discord.abc.GuildChannel | discord.Thread):
            return Shown(None, Outcome.GIVEN_UP)
        message = await place.get_partial_message(challenge.message_id).edit(
            content=game_messages.challenge_text(challenge), view=None
        )
    except GONE as error:
        log.info("Challenge %s: its message cannot be edited (%s).", challenge.id, error)
        return Shown(None, Outcome.GIVEN_UP)
    return Shown(message.jump_url, Outcome.POSTED)


async def _settle_by_answer(table: GameTable, challenge: ChallengeView) -> Shown:
    """A challenge in a conversation Bredon is not in loses its buttons when the press that
    settled it was on its message (Discord lets that press edit it)."""
    opponent = None if challenge.opponent is None else challenge.opponent.id
    players = (challenge.challenger.id, opponent or 0, challenge.accepted_by or 0)
    answering = table.conversations.answering(challenge.channel_id, players)
    pressed = None if answering is None else answering.interaction.message
    if answering is None or pressed is None or pressed.id != challenge.message_id:
        return Shown(None, Outcome.POSTED)
    await answering.interaction.edit_original_response(
        content=game_messages.challenge_text(challenge), view=None
    )
    return Shown(None, Outcome.POSTED)


def register(table: GameTable) -> None:
    table.register(ChallengeSettled, partial(show_settled, table))
