"""Conversations Bredon is not a member of, as Discord sends their interactions. SimCord sends
every interaction from a server that installed the bot (or from the bot's own DMs); when a
player installed Bredon to their account, Discord sends those of a DM or group DM between
players (``context`` 2, no guild, the channel as a DM or group DM) and those of a server
without Bredon (``context`` 0, that server's id), each with ``authorizing_integration_owners``
naming the player's user install. :func:`elsewhere` puts that on the wire: it rewrites the
interactions of one SimCord channel, which stands for the conversation (what is answered there
is kept in it). The bot is given no access to that channel, so nothing but an interaction's
answer can reach it."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any, Literal

import discord
import simcord

from tests.cogs.conftest import World
from tests.cogs.discord_locale import rewriting

USER_INSTALL = "1"
GUILD_CONTEXT, PRIVATE_CHANNEL = 0, 2
DM_TYPE, GROUP_DM_TYPE = 1, 3
USE_EXTERNAL_APPS = 1 << 50
# The server without Bredon, as Discord names it in the interactions from there.
FOREIGN_GUILD = 4_000_000_000_000_000_004

Kind = Literal["dm", "group_dm", "server_without_bredon"]


def conversation(world: World, name: str = "friends") -> simcord.ChannelHandle:
    """A SimCord channel standing for a conversation Bredon is not in: the bot may not see it."""
    me = world.guild.me
    assert me is not None
    return world.guild.create_text_channel(
        name, overwrites={me: discord.PermissionOverwrite(view_channel=False)}
    )


def _sender(payload: Mapping[str, Any]) -> dict[str, Any]:
    return payload.get("member", {}).get("user") or payload.get("user") or {}


@contextmanager
def elsewhere(
    env: simcord.Env,
    channel: simcord.ChannelHandle,
    kind: Kind,
    members: list[simcord.MemberActor],
    *,
    external_apps: bool = True,
) -> Iterator[None]:
    """While it lasts, the interactions from `channel` come from a DM, a group DM (between
    `members`) or a server without Bredon (where `external_apps` says whether the channel lets
    the member use external apps), each from the player's own install of Bredon."""

    def rewrite(event: str, payload: Mapping[str, Any]) -> None:
        if event != "INTERACTION_CREATE" or payload.get("channel_id") != str(channel.id):
            return
        assert isinstance(payload, dict)  # what SimCord emits: the payload itself
        user = _sender(payload)
        payload["authorizing_integration_owners"] = {USER_INSTALL: user["id"]}
        if kind == "server_without_bredon":
            payload["guild_id"] = str(FOREIGN_GUILD)
            payload["context"] = GUILD_CONTEXT
            permissions = int(payload["member"]["permissions"]) & ~USE_EXTERNAL_APPS
            if external_apps:
                permissions |= USE_EXTERNAL_APPS
            payload["member"]["permissions"] = str(permissions)
            payload.pop("app_permissions", None)
            return
        for key in ("guild_id", "member", "guild_locale", "app_permissions"):
            payload.pop(key, None)
        payload["user"] = user
        payload["context"] = PRIVATE_CHANNEL
        recipients = [
            {"id": str(m.id), "username": m.name, "discriminator": "0", "avatar": None}
            for m in members
            if str(m.id) != user["id"]
        ]
        payload["channel"] = {
            "id": str(channel.id),
            "type": DM_TYPE if kind == "dm" else GROUP_DM_TYPE,
            "recipients": recipients,
            **({"name": "Tak friends", "owner_id": str(members[0].id)} if kind != "dm" else {}),
        }
        resolved = payload.get("data", {}).get("resolved")
        if resolved:
            resolved.pop("members", None)  # a DM has users, not members
        message = payload.get("message")
        if message:
            message.pop("guild_id", None)
            message.pop("member", None)

    with rewriting(env, rewrite):
        yield
