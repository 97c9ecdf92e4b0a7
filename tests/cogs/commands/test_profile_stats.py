"""`/profile stats`: a player's record as a picture and a line, one's own or another player's,
privately or shown to the channel; a short answer for a player with no finished game."""

from __future__ import annotations

from tests.cogs.conftest import World, decoded_image
from tests.cogs.delivery.test_sharing import shown_both_ways

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
