"""Challenges and tournaments made from keyword settings (``size=5, bank=3 * DAY``), their
values built as the cogs build them: the guild's defaults for what is left out, the time
control checked for the setup's days per move."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.games.model import ChallengeView, GameSetup
from bot.services import Services

SETUP_CHOICES = (
    "size",
    "komi",
    "days_per_move",
    "opening",
    "stones",
    "caps",
    "black_stones",
    "black_caps",
    "rated",
    "antiquity",
    "start_tps",
    "start_moves",
)
CLOCK = ("bank", "increment", "cap")


def taken(settings: dict[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """The settings named in `names`, taken out of `settings`."""
    return {name: settings.pop(name) for name in names if name in settings}


async def setup_of(services: Services, guild_id: int, settings: dict[str, Any]) -> GameSetup:
    """The setup that the setup's and the time control's keywords of `settings` choose (taken
    out of it)."""
    guild = await services.guilds.get(guild_id)
    return guild.game_setup(**taken(settings, SETUP_CHOICES + CLOCK))


async def create_challenge(services: Services, **settings: Any) -> ChallengeView:
    setup = await setup_of(services, settings["guild_id"], settings)
    return await services.challenges.create(setup=setup, **settings)


async def create_bot_challenge(services: Services, **settings: Any) -> ChallengeView:
    setup = await setup_of(services, settings["guild_id"], settings)
    return await services.opponent.challenge(setup=setup, **settings)
