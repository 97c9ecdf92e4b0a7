"""A person's Discord language, as Discord sends it with each interaction (its ``locale``),
honoured on every command from their first one: the rule of `docs/players.md`
("Languages") is the person's choice, else their Discord's, for what is for them alone; the
server's language for what is posted for everyone."""

from __future__ import annotations

import pytest
import simcord

from cogs.client import INVITE_PERMISSIONS, sync_commands
from tests.cogs.conftest import World, grant_bot
from tests.cogs.discord_locale import discord_in


@pytest.fixture
async def german_server(simcord_env: simcord.Env) -> World:
    """A server whose own language is German, with three members who never chose one."""
    env = simcord_env
    await sync_commands(env.bot)
    guild = env.create_guild("Tak-Verein", preferred_locale="de")
    grant_bot(env, guild, INVITE_PERMISSIONS)
    channel = guild.create_text_channel("tak")
    members = [guild.add_member(env.create_user(name)) for name in ("alice", "bob", "carol")]
    return World(env, guild, channel, *members)


# What a member who never chose a language reads, by their Discord's language.
GERMAN = {
    "help": "Bredon: Tak auf Discord",
    "theme": "Das Design deines Bretts: **Standard**.",
    "language": "Sprache: wie dein Discord (jetzt **Deutsch**).",
    "challenge": "Herausforderung #1 steht",
    "not your turn": "In Partie #1 bist du nicht am Zug.",
}
ENGLISH = {
    "help": "Bredon: Tak in Discord",
    "theme": "Your board theme: **default**.",
    "language": "Language: as your Discord (**English** now).",
    "challenge": "Challenge #1 is up",
    "not your turn": "It is not your turn in game #1.",
}


@pytest.mark.parametrize(("locale", "words"), [("de", GERMAN), ("en-US", ENGLISH)])
async def test_every_answer_is_in_the_discords_language_from_the_first_command(
    german_server: World, locale: str, words: dict[str, str]
) -> None:
    """In a German server, Alice's answers follow her Discord (a German one, or an English
    one), from `/tak help` as her first command; the challenge posted is for everyone there,
    so German either way."""
    world = german_server
    alice, bob = world.alice, world.bob
    with discord_in(world.env, alice, locale):
        helped = await alice.slash(world.channel, "tak help")
        assert helped.response.embeds[0].title == words["help"]
        shown = (await alice.slash(world.channel, "profile settings")).response.content
        assert words["theme"] in shown and words["language"] in shown
        challenged = await alice.slash(world.channel, "tak challenge", opponent=bob, color="white")
        assert challenged.response.content.startswith(words["challenge"])
    post = world.last_bot_message(world.channel)
    assert post.content.startswith(f"{alice.mention} fordert {bob.mention} heraus")
    accepted = await bob.click(post, label="Annehmen")
    assert accepted.followups == []
    thread = world.channel.threads[-1]
    await world.move(alice, thread, "a1")
    with discord_in(world.env, alice, locale):
        refused = await world.move(alice, thread, "b1")
        assert refused.response.content == words["not your turn"]
        again = (await alice.slash(world.channel, "profile settings")).response.content
        assert words["language"] in again


async def test_profile_settings_as_the_very_first_command_speaks_the_discords_language(
    german_server: World,
) -> None:
    world = german_server
    with discord_in(world.env, world.carol, "de"):
        shown = (await world.carol.slash(world.channel, "profile settings")).response.content
    assert shown.startswith("Das Design deines Bretts: **Standard**.")
    assert "Sprache: wie dein Discord (jetzt **Deutsch**)." in shown


async def test_a_discord_changed_to_another_language_is_followed(german_server: World) -> None:
    world = german_server
    alice = world.alice
    with discord_in(world.env, alice, "de"):
        await alice.slash(world.channel, "profile settings")
    with discord_in(world.env, alice, "en-GB"):
        shown = (await alice.slash(world.channel, "profile settings")).response.content
    assert "Language: as your Discord (**English** now)." in shown


async def test_the_first_command_that_makes_someone_a_player_remembers_their_discord(
    german_server: World,
) -> None:
    """A challenge as Alice's first command makes her a player: her DMs and digests (worded
    outside any command) are then in her Discord's language, not English for want of a note."""
    world = german_server
    alice = world.alice
    players = world.env.bot.services.players
    with discord_in(world.env, alice, "de"):
        await alice.slash(world.channel, "tak challenge", opponent=world.bob)
    assert (await players.get(alice.id)).discord_locale == "de"
    assert await players.speaks(alice.id) == "de"
