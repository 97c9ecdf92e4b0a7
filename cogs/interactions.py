"""How every command and button answers: acknowledged at once (:func:`acting`), a refusal shown
privately as it is (:func:`refusals`), anything unexpected logged and apologised for
(:func:`apologise`), in the person's language (:func:`person_language`)."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from typing import Any

import discord
from discord import app_commands

from bot.errors import BredonError
from bot.languages import _, catalogue, speaking
from bot.players.model import PlayerRef
from bot.services import Services
from bot.store import StoreError
from bot.text_safety import message_text, visible_name

log = logging.getLogger(__name__)


class Refusal(BredonError):
    """A request the Discord layer itself turns down (the services never see it)."""


class OnlyInServers(app_commands.CheckFailure):
    """A server-only command asked for where Bredon is not a member (a DM, a group DM, a server
    without Bredon: Discord lists it there no more, but an old list of commands still may): it
    would act on games or settings that are not that server's."""

    @staticmethod
    def text() -> str:
        return _("This works only in a server that installed Bredon.")


def player_of(user: discord.abc.User) -> PlayerRef:
    """The user as a player, under a name safe to show: their display name without control or
    bidi characters; their account name, or "player <id>", when nothing visible is left."""
    name = visible_name(user.display_name) or visible_name(user.name) or f"player {user.id}"
    return PlayerRef(user.id, name)


async def send_private(interaction: discord.Interaction, text: str, **extra: Any) -> None:
    """Answer only the user who acted, whether or not the interaction was answered already."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True, **extra)
    else:
        await interaction.response.send_message(text, ephemeral=True, **extra)


@asynccontextmanager
async def refusals(interaction: discord.Interaction) -> AsyncIterator[None]:
    """Show a refusal by the services (or the Discord layer) to the user, as it is, privately:
    the refusing half of :func:`acting`, and what a button uses after acknowledging its press."""
    try:
        yield
    except BredonError as error:
        await send_private(interaction, message_text(error.message))


async def apologise(
    interaction: discord.Interaction, error: BaseException, action: str, game_id: object = None
) -> None:
    """Log an unexpected failure with what was being done and in which game, and tell the user
    briefly."""
    log.error(
        "%s failed (game %s, user %s, guild %s)",
        action,
        game_id if game_id is not None else "-",
        interaction.user.id,
        interaction.guild_id,
        exc_info=error,
    )
    with speaking(await language_despite_failure(interaction)):
        apology = _(
            "Sorry, something went wrong on my side. It has been logged; please try again later."
        )
    await answer_or_warn(interaction, apology, action)


async def language_despite_failure(interaction: discord.Interaction) -> str:
    """The person's language for the last word on a failure, whatever failed (the store
    too): else their Discord's."""
    try:
        return await person_language(interaction)
    except Exception:  # the failure being answered may be the store's: answer all the same
        log.warning("Could not look up the language of user %s.", interaction.user.id)
        return catalogue().language_for(interaction.locale.value)


async def answer_or_warn(interaction: discord.Interaction, text: str, action: str) -> None:
    """The last word on a failed command: if Discord refuses it too, there is no one left to
    tell but the log."""
    try:
        await send_private(interaction, text)
    except discord.HTTPException:
        log.warning("Could not answer the failure of %s.", action)


def invoked_name(interaction: discord.Interaction) -> str:
    """The command's qualified name as the user's Discord sent it ("tak vacation start")."""
    data: Mapping[str, Any] = interaction.data or {}
    names = [str(data.get("name", ""))]
    options = data.get("options") or []
    while options and options[0].get("type") in (1, 2):  # a subcommand (group)
        names.append(options[0]["name"])
        options = options[0].get("options") or []
    return " ".join(names)


# Interaction.extras key: person_language found no player to note the person's Discord language on.
_NOT_A_PLAYER = "bredon_not_a_player"


@asynccontextmanager
async def acting(interaction: discord.Interaction) -> AsyncIterator[None]:
    """The one way a slash command (or a form) acknowledges and refuses: acknowledged at once,
    privately (Discord allows 3 seconds), and a refusal raised in the body (by the services or
    the Discord layer) reaches the user privately, as it is."""
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)
    with speaking(await person_language(interaction)):
        async with refusals(interaction):
            yield
    if interaction.extras.get(_NOT_A_PLAYER):  # their first command may have made them one
        await person_language(interaction)


async def person_language(interaction: discord.Interaction, *, remember: bool = True) -> str:
    """The language to answer someone in: the one they chose (``/profile settings``), else
    their Discord's, where Bredon speaks it (remembered for what reaches them outside a
    command: DMs, digests; not by a button's press, whose answer cannot wait on a write)."""
    locale = interaction.locale.value
    services = opened_services(interaction)
    if services is None:
        return catalogue().language_for(locale)
    players = services.players
    try:
        language, known = await players.speaks_known(interaction.user.id, locale, remember=remember)
    except (BredonError, StoreError):  # a store that fails: the command itself will say so
        return catalogue().language_for(locale)
    interaction.extras[_NOT_A_PLAYER] = not known
    return language


def opened_services(interaction: discord.Interaction) -> Services | None:
    """The services of the bot an interaction reached; None while it starts (not opened yet)."""
    services = getattr(interaction.client, "services", None)
    return services if isinstance(services, Services) else None


def services_of(interaction: discord.Interaction) -> Services:
    """The services of the bot an interaction reached, typed."""
    services = opened_services(interaction)
    if services is None:
        raise RuntimeError("Bredon's commands run in a BredonBot with its services open")
    return services
