"""Bredon in each person's and each server's language: a player's choice in `/profile
settings` (else their Discord's), a server's in `/bredon config` (else the server's own,
Discord's preferred locale); private answers in the person's, announcements in the server's
(a digest, which is a DM, in its player's)."""

from __future__ import annotations

import discord

from bot.notifications.outbox import DigestDue, MovePlayed
from cogs.client import INVITE_PERMISSIONS, sync_commands
from cogs.delivery.courier import courier_of
from tests.cogs.conftest import World, grant_bot


async def test_a_player_chooses_german_and_back(world) -> None:
    alice = world.alice
    chosen = await alice.slash(world.channel, "profile settings", language="de")
    assert chosen.ephemeral
    assert "Sprache: **Deutsch**." in chosen.response.content
    assert "Das Design deines Bretts: **Standard**." in chosen.response.content

    helped = await alice.slash(world.channel, "tak help")
    [embed] = helped.response.embeds
    assert (
        embed.title == "Bredon: Tak auf Discord" and "/tak herausfordern" in embed.fields[0].value
    )
    others = await world.bob.slash(world.channel, "tak help")  # Bob's Discord is in English
    assert others.response.embeds[0].title == "Bredon: Tak in Discord"

    back = await alice.slash(world.channel, "profile settings", language="discord")
    assert "Language: as your Discord (**English** now)." in back.response.content
    helped = await alice.slash(world.channel, "tak help")
    assert helped.response.embeds[0].title == "Bredon: Tak in Discord"


async def test_a_server_speaks_its_own_language_unless_its_managers_choose(simcord_env) -> None:
    env = simcord_env
    await sync_commands(env.bot)
    guild = env.create_guild("Tak-Verein", preferred_locale="de")
    grant_bot(env, guild, INVITE_PERMISSIONS)
    channel = guild.create_text_channel("tak")
    role = guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    boss = guild.add_member(env.create_user("boss"), roles=[role])
    table = courier_of(env.bot).table

    shown = await boss.slash(channel, "bredon config")
    assert "the server's own language (**Deutsch** now)" in shown.response.content
    assert await table.server_language(guild.id) == "de"
    chosen = await boss.slash(channel, "bredon config", language="en")
    assert "Posts here are in **English**." in chosen.response.content
    assert await table.server_language(guild.id) == "en"
    await boss.slash(channel, "bredon config", language="server")
    assert await table.server_language(guild.id) == "de"


async def test_announcements_are_worded_for_whom_they_are_for(world: World) -> None:
    """A move is announced in the server's language; a digest (a DM) in its player's."""
    table = courier_of(world.env.bot).table
    thread = await world.start_game()
    await world.move(world.alice, thread, "a1")
    role = world.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    boss = world.guild.add_member(world.env.create_user("boss"), roles=[role])
    await boss.slash(world.channel, "bredon config", language="de")
    await world.bob.slash(world.channel, "profile settings", language="en")
    move = MovePlayed(game_id=1, ply=1, move="a1", tps="x6/x6/x6/x6/x6/2,x5 2 1", tak=False)
    assert await table.audience_language(move) == "de"
    digest = DigestDue(player_id=world.bob.id, guild_id=world.guild.id, due_at="")
    assert await table.audience_language(digest) == "en"
    await world.alice.slash(world.channel, "profile settings", language="de")
    digest = DigestDue(player_id=world.alice.id, guild_id=world.guild.id, due_at="")
    assert await table.audience_language(digest) == "de"


async def test_a_public_answer_the_bot_cannot_post_is_worded_for_its_caller(world: World) -> None:
    """In a German server, an English caller's `public:True` answer that the channel refuses
    comes to the caller alone, so in the caller's language."""
    role = world.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    boss = world.guild.add_member(world.env.create_user("boss"), roles=[role])
    await boss.slash(world.channel, "bredon config", language="de")
    me = world.guild.me
    assert me is not None
    closed = world.guild.create_text_channel(
        "closed", overwrites={me: discord.PermissionOverwrite(send_messages=False)}
    )
    shown = await world.carol.slash(closed, "profile scores", public=True)
    assert shown.ephemeral
    assert shown.response.content.startswith(f"I can't show this in <#{closed.id}>")
    assert "carol has no finished games in this server yet." in shown.response.content
