"""Asymmetric reserves through /tak challenge: a handicap offered, shown and played."""

from __future__ import annotations

from tests.discord.conftest import World


async def test_a_handicap_challenge_says_each_colour_s_pieces_and_is_played(world: World) -> None:
    message = await world.challenge(
        opponent=world.bob, color="white", size=5, black_stones=15, black_caps=0
    )
    assert "white 21 stones and 1 capstone, black 15 stones and 0 capstones" in message.content
    accepted = await world.bob.click(message, label="Accept")
    assert accepted.followups == []
    game = (await world.env.bot.services.lookup.games_for_player(world.alice.id))[0]
    assert game.setup.stones == (21, 15) and game.setup.caps == (1, 0)


async def test_black_s_reserves_too_small_for_a_road_are_refused(world: World) -> None:
    refused = await world.alice.slash(
        world.channel, "tak challenge", opponent=world.bob, size=5, black_stones=3, black_caps=1
    )
    assert refused.ephemeral
    assert refused.response.content.startswith("Each player needs at least 5 pieces")
    assert world.bot_messages(world.channel) == []
