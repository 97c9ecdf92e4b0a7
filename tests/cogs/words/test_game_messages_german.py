"""A whole game in a German-speaking server between a German-speaking and an English-speaking
player: what the server reads (the challenge, its buttons, the thread's boards and moves, Tak and
the result) is German; what each player alone reads is in their own language."""

from __future__ import annotations

import discord

from tests.cogs.commands.test_tak import ROAD_GAME
from tests.cogs.conftest import World, ask_challenge, decoded_image


def labels(message: discord.Message) -> list[str]:
    return [c.label for row in message.components for c in row.children]


async def test_a_game_in_a_german_server_between_a_german_and_an_english_player(
    world: World,
) -> None:
    alice, bob = world.alice, world.bob
    role = world.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    boss = world.guild.add_member(world.env.create_user("boss"), roles=[role])
    await boss.slash(world.channel, "bredon config", language="de")
    await alice.slash(world.channel, "profile settings", language="de")  # bob: English

    asked = await alice.slash(world.channel, "tak challenge", opponent=bob, color="white")
    assert asked.ephemeral and asked.response.content.startswith("Herausforderung #1 steht: ")
    challenge = world.last_bot_message(world.channel)
    assert f"{alice.mention} fordert {bob.mention} heraus und spielt als Weiß" in challenge.content
    assert "6x6, Komi 2, Eröffnung mit Tausch" in challenge.content
    assert "gewertet" in challenge.content and "offen bis" in challenge.content
    assert labels(challenge) == ["Annehmen", "Ablehnen", "Zurückziehen"]

    await bob.click(challenge, label="Annehmen")
    assert "Angenommen von" in world.bot_messages(world.channel)[0].content
    [thread] = world.channel.threads
    assert thread.name == "Partie 1: alice gegen bob"
    start = world.last_bot_message(thread)
    assert start.content.startswith("Partie #1 beginnt: **alice** (Weiß) gegen **bob** (Schwarz)")
    assert f"{alice.mention}, du bist am Zug: mit `/tak ziehen`" in start.content
    assert labels(start) == ["Ziehen", "1 Tag schenken"]
    picker = (await alice.click(start, label="Ziehen")).response  # alice's own: German
    assert picker.content == "Dein Zug in Partie #1: wähle ihn unten Schritt für Schritt."
    assert "PTN tippen" in str(picker.components)

    # Each player's own answer, away from the thread, in their language.
    mine = await world.move(alice, world.channel, ROAD_GAME[0], game=1)
    assert mine.response.content.startswith("Du hast **f6** in Partie #1 gespielt: https://")
    theirs = await world.move(bob, world.channel, ROAD_GAME[1], game=1)
    assert theirs.response.content.startswith("You played **a1** in game #1: https://")
    swap = world.bot_messages(thread)[-2]
    assert "**alice** hat den ersten Stein von **bob** gesetzt" in swap.content
    [listed] = (await alice.slash(world.channel, "tak games")).response.embeds
    assert listed.title == "Laufende Partien" and "du bist am Zug" in (listed.description or "")
    [listed] = (await bob.slash(world.channel, "tak games")).response.embeds
    assert listed.title == "Games in progress" and "alice to move" in (listed.description or "")
    # Shown to the channel by bob: the post in the server's language, his link in his.
    shown = await bob.slash(world.channel, "tak board", game=1, public=True)
    assert shown.response.content.startswith("Shown in the channel: https://")
    post = world.last_bot_message(world.channel)
    assert "**alice** (Weiß) gegen **bob** (Schwarz), Halbzug 2: alice ist am Zug" in post.content
    assert post.content.endswith("-# Gezeigt von bob")
    # A refusal from the Discord layer (no game named, none in progress): each in theirs.
    refused = await world.carol.slash(world.channel, "tak move", ptn="a2")
    assert refused.response.content.startswith("You have no game in progress here.")
    await world.carol.slash(world.channel, "profile settings", language="de")
    refused = await world.carol.slash(world.channel, "tak move", ptn="a2")
    assert refused.response.content.startswith("Du hast hier keine laufende Partie.")

    players = [alice, bob]
    for ply, text in enumerate(ROAD_GAME[2:], start=2):
        await world.move(players[ply % 2], thread, text)
        posted = world.last_bot_message(thread)
        if ply < len(ROAD_GAME) - 1:
            assert "ist am Zug" in posted.content, posted.content
    assert sum("**Tak!**" in m.content for m in world.bot_messages(thread)) == 2

    ending = world.last_bot_message(thread)
    assert "Partie #1 ist vorbei. **alice** (Weiß) gewinnt durch Straße (R-0)." in ending.content
    assert "Straße: a1 - a2 - a3 - a4 - a5 - a6" in ending.content
    assert "alice erhält **" in ending.content
    assert labels(ending) == ["Revanche"]
    assert (await decoded_image(ending)).format == "PNG"

    after = await world.move(bob, thread, "e1")
    assert after.ephemeral and "is over" in after.response.content  # bob's own: English


async def test_the_longest_german_challenge_fits_a_message(world: World) -> None:
    """Every option that adds words to a challenge at once, in a German server."""
    role = world.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    boss = world.guild.add_member(world.env.create_user("boss"), roles=[role])
    await boss.slash(world.channel, "bredon config", language="de")
    tps = "x5/x5/x2,1,x2/x5/x5 2 1"
    asked = await ask_challenge(
        world.alice,
        world.channel,
        color="random",
        size=5,
        komi=2.5,
        opening="no-swap",
        stones=20,
        caps=1,
        black_stones=19,
        black_caps=0,
        games=3,
        antiquity=True,
        increment="1d",
        maximum="10d",
        tps=tps,
    )
    assert asked.ephemeral, asked.response.content
    challenge = world.last_bot_message(world.channel)
    text = challenge.content
    assert "**offene Herausforderung**" in text and "mit ausgelosten Farben" in text
    assert "Eröffnung ohne Tausch" in text and "der Antiquity-Regel" in text
    assert "Weiß 20 Steine und 1 Deckstein, Schwarz 19 Steine und 0 Decksteine" in text
    assert "aus einer vorgegebenen Stellung (Zug 1, Schwarz am Zug)" in text
    assert "ein Match über 3 Partien" in text
    assert len(text) <= 2000, text
