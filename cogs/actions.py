"""What each persistent button does. Every handler runs after the press was acknowledged
(:class:`cogs.buttons.ActionButton`), asks a service, then updates the pressed message and posts
what follows in the game's thread. Refusals raised by the services reach the presser privately.
"""

from __future__ import annotations

import discord

from bot.services.views import PlayerRef
from cogs import messages
from cogs.buttons import on_press
from cogs.table import GameTable


def player_of(user: discord.User | discord.Member) -> PlayerRef:
    return PlayerRef(user.id, user.display_name)


def table_of(interaction: discord.Interaction) -> GameTable:
    cog = interaction.client.get_cog("TakCog")  # type: ignore[attr-defined]
    return cog.table  # type: ignore[union-attr]


async def settle_message(interaction: discord.Interaction, text: str) -> None:
    """Replace the pressed message's text and take its buttons away."""
    await interaction.edit_original_response(content=text, view=None)


@on_press("accept")
async def accept_challenge(interaction: discord.Interaction, challenge_id: int) -> None:
    table = table_of(interaction)
    accepted = await table.services.challenges.accept(challenge_id, player_of(interaction.user))
    await settle_message(interaction, messages.challenge_text(accepted.challenge))
    await table.open_game(accepted.game, anchor=interaction.message)


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
    ending = await table.services.games.accept_draw(game_id, interaction.user.id)
    await settle_message(interaction, f"{interaction.user.mention} accepted the draw offer.")
    await table.post_ending(ending)


@on_press("draw-no")
async def decline_draw(interaction: discord.Interaction, game_id: int) -> None:
    await table_of(interaction).services.games.decline_draw(game_id, interaction.user.id)
    await settle_message(
        interaction, f"{interaction.user.mention} declined the draw offer; play goes on."
    )


@on_press("undo-yes")
async def accept_undo(interaction: discord.Interaction, game_id: int) -> None:
    table = table_of(interaction)
    taken_back = (await table.services.games.get(game_id)).last_move
    game = await table.services.games.accept_undo(game_id, interaction.user.id)
    await settle_message(interaction, f"{interaction.user.mention} allowed the undo.")
    await table.post_board(
        game, f"**{taken_back}** was taken back in game #{game.id}.\n{messages.your_move(game)}"
    )


@on_press("undo-no")
async def decline_undo(interaction: discord.Interaction, game_id: int) -> None:
    await table_of(interaction).services.games.decline_undo(game_id, interaction.user.id)
    await settle_message(interaction, f"{interaction.user.mention} refused the undo.")


@on_press("resign")
async def resign(interaction: discord.Interaction, game_id: int) -> None:
    table = table_of(interaction)
    ending = await table.services.games.resign(game_id, interaction.user.id)
    await settle_message(interaction, f"You resigned game #{game_id}.")
    await table.post_ending(ending, f"{interaction.user.mention} resigned.")


@on_press("rematch")
async def rematch(interaction: discord.Interaction, game_id: int) -> None:
    table = table_of(interaction)
    challenge = await table.services.challenges.rematch(game_id, player_of(interaction.user))
    message = await table.post_challenge(await table.channel(challenge.channel_id), challenge)
    await interaction.followup.send(f"Rematch offered: {message.jump_url}", ephemeral=True)
