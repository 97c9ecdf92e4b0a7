"""`/profile stats`: a player's record as a picture and a line, one's own or another player's,
privately or shown to the channel, in the asker's language; a short answer for a player with no
finished game, Bredon's own games apart."""

from __future__ import annotations

import simcord

from tests.cogs.commands.test_tak_play import play_bot
from tests.cogs.conftest import World, decoded_image
from tests.cogs.delivery.test_sharing import shown_both_ways
from tests.cogs.discord_locale import discord_in

ROAD_3X3 = ["a3", "a1", "b1", "b3", "c1"]  # white's road on the first rank


async def two_games_alice_won(world: World) -> None:
    alice, bob = world.alice, world.bob
    road = await world.start_game(size=3)
    for ply, move in enumerate(ROAD_3X3):
        await world.move((alice, bob)[ply % 2], road, move)
    resigned = await world.start_game(size=4)
    asked = await bob.slash(resigned, "tak resign")
    await bob.click(asked.response.message, label="Resign")


async def test_stats_answer_with_the_picture_and_the_record_in_a_line(world: World) -> None:
    await two_games_alice_won(world)
    mine = await world.alice.slash(world.channel, "profile stats")
    assert mine.ephemeral
    assert mine.response.content == (
        "**alice**: 2 games in this server, 2 won, 0 lost, 0 drawn; 2.5 plies on average."
    )
    [attachment] = mine.response.message.attachments
    assert attachment.filename == "statistics.png"
    image = await decoded_image(mine.response.message)
    assert image.format == "PNG" and image.width == 800

    on_four = await world.bob.slash(world.channel, "profile stats", size=4)
    assert on_four.response.content == (
        "**bob**: 1 game on 4x4 in this server, 0 won, 1 lost, 0 drawn; 0 plies on average."
    )


async def test_another_players_stats_shown_to_the_channel(world: World) -> None:
    await two_games_alice_won(world)
    post = await shown_both_ways(
        world, world.carol, world.channel, "profile stats", user=world.alice
    )
    assert post.content.startswith("**alice**: 2 games in this server")
    assert [a.filename for a in post.attachments] == ["statistics.png"]


async def test_a_player_without_a_finished_game_gets_a_short_answer(world: World) -> None:
    await world.start_game(size=3)  # still being played
    none_yet = await world.alice.slash(world.channel, "profile stats")
    assert none_yet.response.content == (
        "alice has no finished game against a player in this server yet."
    )
    assert none_yet.response.message.attachments == []


async def test_games_against_bredon_are_counted_apart_and_bredon_keeps_no_record(
    world: World,
) -> None:
    _, thread = await play_bot(world, level=1, size=3, color="white")
    await world.alice.slash(thread, "tak resign")
    [confirm] = [m for m in thread.history(viewer=world.alice) if m.components][-1:]
    await world.alice.click(confirm, label="Resign")
    mine = await world.alice.slash(world.channel, "profile stats")
    assert mine.response.content == (
        "alice has no finished game against a player in this server yet. "
        "Against me: 0 won, 1 lost, 0 drawn."
    )
    bredon = simcord.MemberActor(
        world.env, world.guild, simcord.UserHandle(world.env, world.env.backend.bot_user)
    )
    itself = await world.alice.slash(world.channel, "profile stats", user=bredon)
    assert itself.response.content == "I keep no record of my own games: ask for a player's."


async def test_a_german_discord_gets_the_line_in_german(world: World) -> None:
    await two_games_alice_won(world)
    with discord_in(world.env, world.bob, "de"):
        theirs = await world.bob.slash(world.channel, "profile stats", user=world.alice)
    assert theirs.response.content == (
        "**alice**: 2 Partien auf diesem Server, 2 gewonnen, 0 verloren, 0 remis; "
        "im Schnitt 2,5 Halbzüge."
    )
    assert [a.filename for a in theirs.response.message.attachments] == ["statistics.png"]
