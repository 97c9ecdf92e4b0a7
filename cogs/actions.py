"""What each persistent button does. Every handler runs after the press was acknowledged
(:class:`cogs.buttons.ActionButton`), asks a service, then updates the pressed message and posts
what follows in the game's thread. Refusals raised by the services reach the presser privately.
"""

from __future__ import annotations

import logging

import discord

from bot.errors import BredonError
from bot.services.outbox import game_stream
from bot.services.views import ChallengeView, PlayerRef
from cogs import messages
from cogs.buttons import on_press
from cogs.courier import Courier, courier_of
from cogs.table import GameTable, Place

log = logging.getLogger(__name__)


class Refusal(BredonError):
    """A request the Discord layer itself turns down (the services never see it)."""


def player_of(user: discord.User | discord.Member) -> PlayerRef:
    return PlayerRef(user.id, user.display_name)


def table_of(interaction: discord.Interaction) -> GameTable:
    return courier_of(interaction.client).table


def _courier(interaction: discord.Interaction) -> Courier:
    return courier_of(interaction.client)


async def post_or_withdraw(
    table: GameTable, place: Place, challenge: ChallengeView
) -> discord.Message:
    """Post a new challenge; if Discord refuses, withdraw it, so that no challenge stands that
    nobody can see or accept."""
    try:
        return await table.post_challenge(place, challenge)
    except discord.HTTPException as error:
        log.warning("Challenge %s could not be posted (%s); withdrawn.", challenge.id, error)
        await table.services.challenges.cancel(challenge.id, challenge.challenger.id)
        raise Refusal(
            f"I couldn't post the challenge here (Discord said: {error.text or error.status}), "
            "so it was withdrawn. Please try again, or in another channel."
        ) from None


async def settle_message(interaction: discord.Interaction, text: str) -> None:
    """Replace the pressed message's text and take its buttons away."""
    await interaction.edit_original_response(content=text, view=None)


@on_press("accept")
async def accept_challenge(interaction: discord.Interaction, challenge_id: int) -> None:
    table = table_of(interaction)
    accepted = await table.services.challenges.accept(challenge_id, player_of(interaction.user))
    await settle_message(interaction, messages.challenge_text(accepted.challenge))
    await _courier(interaction).deliver_stream(game_stream(accepted.game.id))


@on_press("decline")
async def decline_challenge(interaction: discord.Interaction, challenge_id: int) -> None:
    challenge = await table_of(interaction).services.challenges.decline(
        challenge_id, interaction.user.id
    )
    await settle_message(interaction, messages.challenge_text(challenge))


@on_press("cancel")
async def cancel_challenge(interaction: discord.Interaction, challenge_id: int) -> None:
    challenge = await table_of(interaction).services.challenges.cancel(
        challenge_id, interaction.user.id
    )
    await settle_message(interaction, messages.challenge_text(challenge))


@on_press("draw-yes")
async def accept_draw(interaction: discord.Interaction, game_id: int) -> None:
    table = table_of(interaction)
    await table.services.games.accept_draw(game_id, interaction.user.id)
    await settle_message(interaction, f"{interaction.user.mention} accepted the draw offer.")
    await _courier(interaction).deliver_stream(game_stream(game_id))


@on_press("draw-no")
async def decline_draw(interaction: discord.Interaction, game_id: int) -> None:
    await table_of(interaction).services.games.decline_draw(game_id, interaction.user.id)
    await settle_message(
        interaction, f"{interaction.user.mention} declined the draw offer; play goes on."
    )


@on_press("undo-yes")
async def accept_undo(interaction: discord.Interaction, game_id: int) -> None:
    await table_of(interaction).services.games.accept_undo(game_id, interaction.user.id)
    await settle_message(interaction, f"{interaction.user.mention} allowed the undo.")
    await _courier(interaction).deliver_stream(game_stream(game_id))


@on_press("undo-no")
async def decline_undo(interaction: discord.Interaction, game_id: int) -> None:
    await table_of(interaction).services.games.decline_undo(game_id, interaction.user.id)
    await settle_message(interaction, f"{interaction.user.mention} refused the undo.")


@on_press("resign")
async def resign(interaction: discord.Interaction, game_id: int) -> None:
    table = table_of(interaction)
    await table.services.games.resign(game_id, interaction.user.id)
    await settle_message(interaction, f"You resigned game #{game_id}.")
    await _courier(interaction).deliver_stream(game_stream(game_id))


@on_press("rematch")
async def rematch(interaction: discord.Interaction, game_id: int) -> None:
    table = table_of(interaction)
    challenge = await table.services.challenges.rematch(game_id, player_of(interaction.user))
    place = await table.channel(challenge.channel_id)
    message = await post_or_withdraw(table, place, challenge)
    await interaction.followup.send(f"Rematch offered: {message.jump_url}", ephemeral=True)
