"""Asymmetric reserves through /tak challenge: a handicap offered, shown and played."""

from __future__ import annotations

from datetime import timedelta

from tests.bot.setups import open_challenges
from tests.cogs.conftest import World, ask_challenge


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
    refused = await ask_challenge(
        world.alice, world.channel, opponent=world.bob, size=5, black_stones=3, black_caps=1
    )
    assert refused.ephemeral
    assert refused.response.content.startswith("Each player needs at least 5 pieces")
    assert world.bot_messages(world.channel) == []


async def test_the_custom_rules_form_refuses_what_it_cannot_read(world: World) -> None:
    before = len(world.bot_messages(world.channel))
    for fields, words in [
        ({"pieces": "21-1"}, "Write the pieces as stones/capstones, e.g. 21/1"),
        ({"rules": "swap tinue"}, "the tie rule antiquity or no-antiquity (not tinue)"),
        ({"clock": "7d"}, "Write the time control as a bank, e.g. bank 7d"),
        ({"clock": "bank 7x"}, "bank"),
        ({"pieces": "201/1"}, "The number of stones must be from 0 to 200."),
    ]:
        form = await world.alice.slash(world.channel, "tak challenge", custom=True, size=5)
        refused = await world.alice.submit_modal(form, fields)
        assert refused.ephemeral and words in refused.response.content, refused.response.content
    assert len(world.bot_messages(world.channel)) == before
    form = await world.alice.slash(world.channel, "tak challenge", opponent=world.bob, custom=True)
    asked = await world.alice.submit_modal(
        form, {"pieces": "30/1 28/0", "rules": "no-swap", "clock": "+1d max 10d", "start": "a1 f6"}
    )
    assert "is up" in asked.response.content, asked.response.content
    [challenge] = await open_challenges(world.env.bot.services, guild_id=world.guild.id)
    setup = challenge.setup
    assert (setup.stones, setup.caps, setup.opening.value) == ((30, 28), (1, 0), "no-swap")
    assert setup.clock.cap == timedelta(days=10) and setup.start_ply == 2 and not setup.rated
