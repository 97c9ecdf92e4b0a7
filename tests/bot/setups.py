"""Challenges and tournaments made from keyword settings (``size=5, bank=3 * DAY``), their
values built as the cogs build them: the guild's defaults for what is left out, the time
control checked for the setup's days per move."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.games.model import (
    CHALLENGE_SELECT,
    GAME_SELECT,
    ChallengeView,
    GameRequest,
    GameSetup,
    GameView,
    challenge_from_row,
    game_from_row,
)
from bot.services import Services
from bot.store import to_db

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
    "start",
)
CLOCK = ("bank", "increment", "cap")


def taken(settings: dict[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """The settings named in `names`, taken out of `settings`."""
    return {name: settings.pop(name) for name in names if name in settings}


async def setup_of(services: Services, guild_id: int, settings: dict[str, Any]) -> GameSetup:
    """The setup that the setup's and the time control's keywords of `settings` choose (taken
    out of it)."""
    return (await services.guilds.get(guild_id)).game_setup(request_of(settings))


def request_of(settings: dict[str, Any]) -> GameRequest:
    """The request that the setup's and the time control's keywords of `settings` make (taken
    out of it); a start position as `start_tps` or `start_moves`, as the tests name them."""
    for start in ("start_tps", "start_moves"):
        if start in settings:
            settings["start"] = settings.pop(start)
    return GameRequest(**taken(settings, SETUP_CHOICES + CLOCK))


async def create_challenge(services: Services, **settings: Any) -> ChallengeView:
    setup = await setup_of(services, settings["guild_id"], settings)
    return await services.challenges.create(setup=setup, **settings)


async def create_bot_challenge(services: Services, **settings: Any) -> ChallengeView:
    defaults = await services.guilds.get(settings["guild_id"])
    return await services.opponent.challenge(
        request=request_of(settings), defaults=defaults, **settings
    )


async def open_challenges(
    services: Services, *, guild_id: int | None = None, channel_id: int | None = None
) -> list[ChallengeView]:
    """Challenges that can still be accepted, oldest first, as the table holds them."""
    rows = await services.db.fetchall(
        CHALLENGE_SELECT + " WHERE c.status = 'open' AND c.expires_at > ? "
        "AND (? IS NULL OR c.guild_id = ?) AND (? IS NULL OR c.channel_id = ?) "
        "ORDER BY c.created_at, c.id",
        (to_db(services.clock.now()), guild_id, guild_id, channel_id, channel_id),
    )
    return [challenge_from_row(row) for row in rows]


async def games_in_channel(services: Services, channel_id: int) -> list[GameView]:
    """Active games shown in a channel or in a thread of that id, oldest first."""
    rows = await services.db.fetchall(
        GAME_SELECT + " WHERE g.status = 'active' AND (g.channel_id = ? OR g.thread_id = ?) "
        "ORDER BY g.id",
        (channel_id, channel_id),
    )
    return [game_from_row(row) for row in rows]
