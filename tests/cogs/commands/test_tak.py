"""A whole game through the real discord.py: challenge, Accept, a thread, every move by
`/tak move` with its board image decoded, "Tak!" exactly when the mover threatens a road, and the
road win announced with the points and a Rematch button."""

from __future__ import annotations

import discord
import pytest
from simcord.backend.errors import OptionError

from tak import Call, Position, tak_call
from tak.ptn import Game
from tests.cogs.conftest import ask_challenge, decoded_image

# Alice (white) builds the a-file, Bob (black) the f-file; the first two plies place the
# opponent's flat. Alice threatens after a5, Bob after f2, and a6 completes Alice's road.
ROAD_GAME = ["f6", "a1", "a2", "f5", "a3", "f4", "a4", "f3", "a5", "f2", "a6"]


def threatened_after_each_ply(moves: list[str]) -> list[bool]:
    """What the engine says, independently of the bot: does the mover threaten a road?"""
    position = Position(6, komi=2)
    threats = []
    for text in moves:
        position.play(text)
        threats.append(position.result is None and position.has_road_threat(position.to_move.other))
    return threats


async def test_two_members_play_a_whole_game_to_a_road_win(world) -> None:
    alice, bob = world.alice, world.bob
    challenge = await world.challenge(opponent=bob, color="white")
    assert alice.mention in challenge.content and bob.mention in challenge.content
    assert "6x6, komi 2" in challenge.content  # the guild's defaults
    labels = [c.label for row in challenge.components for c in row.children]
    assert labels == ["Accept", "Decline", "Cancel"]

    accepted = await bob.click(challenge, label="Accept")
    assert accepted.response.components == []  # the buttons are gone
    [thread] = world.channel.threads
    start = world.last_bot_message(thread)
    assert alice.mention in start.content and "your move" in start.content
    image = await decoded_image(start)
    assert image.format == "PNG" and image.width >= 600

    threats = threatened_after_each_ply(ROAD_GAME)
    players = [alice, bob]
    for ply, text in enumerate(ROAD_GAME):
        mover, waiting = players[ply % 2], players[(ply + 1) % 2]
        result = await world.move(mover, thread, text)
        assert result.response is None  # the post where they moved says it
        posted = world.last_bot_message(thread)
        label = f"{ply // 2 + 1}{'.' if ply % 2 == 0 else '...'} {text}"  # as in the PTN
        assert posted.content.startswith(f"**{label}**"), posted.content
        assert ("Tak!" in posted.content) is threats[ply], (text, posted.content)
        image = await decoded_image(posted)
        assert image.format == "PNG"
        if ply < len(ROAD_GAME) - 1:
            assert waiting.mention in posted.content

    assert threats.count(True) == 2  # the test game does exercise both answers
    final = Position(6, komi=2)
    for text in ROAD_GAME:
        final.play(text)
    ending = world.last_bot_message(thread)
    assert "wins by road (R-0)" in ending.content and "alice" in ending.content
    assert "Road: a1 - a2 - a3 - a4 - a5 - a6" in ending.content
    assert f"scores **{final.points()}** points" in ending.content
    assert [c.label for row in ending.components for c in row.children] == ["Rematch"]
    assert (await decoded_image(ending)).format == "PNG"

    after = await world.move(bob, thread, "e1")
    assert after.ephemeral and "is over" in after.response.content


async def test_move_suggestions_are_the_legal_moves_typed_so_far(world) -> None:
    thread = await world.start_game(size=5)
    first = await world.alice.autocomplete(thread, "tak move", "ptn", "")
    assert len(first) == 25
    typed = await world.alice.autocomplete(thread, "tak move", "ptn", "c")
    assert [c["name"] for c in typed] == ["c1", "c2", "c3", "c4", "c5"]  # opening: flats only
    # Each suggestion carries its game and ply, so it only ever applies to that position.
    assert all(c["value"].startswith(f"{c['name']}@1.0.") for c in typed)
    await world.move(world.alice, thread, "a1")
    await world.move(world.bob, thread, "e5")
    walls = await world.alice.autocomplete(thread, "tak move", "ptn", "sb")
    assert [c["name"] for c in walls] == ["Sb1", "Sb2", "Sb3", "Sb4", "Sb5"]
    outside = await world.alice.autocomplete(world.channel, "tak move", "ptn", "zz")
    assert outside == []


async def test_mistakes_are_refused_privately_and_change_nothing(world) -> None:
    alice, bob, carol = world.alice, world.bob, world.carol
    thread = await world.start_game(size=5)
    await world.move(alice, thread, "a1")
    posted = len(world.bot_messages(thread))

    out_of_turn = await world.move(alice, thread, "b2")
    assert out_of_turn.ephemeral
    assert out_of_turn.response.content == "It is not your turn in game #1."
    occupied = await world.move(bob, thread, "a1")
    assert occupied.ephemeral
    assert occupied.response.content == (
        "a1 is occupied, and pieces can only be placed on empty squares."  # named once
    )
    wall_first = await world.move(bob, thread, "Sb2")
    assert wall_first.ephemeral and wall_first.response.content.startswith("Sb2: ")
    nonsense = await world.move(bob, thread, "z9")
    assert nonsense.ephemeral and nonsense.response.content.startswith("z9 is not a square")
    outsider = await world.move(carol, thread, "b2")  # not her game, and she has none
    assert outsider.ephemeral
    assert outsider.response.content.startswith("You have no game in progress here.")
    named = await world.move(carol, thread, "b2", game=1)
    assert named.response.content == "You are not playing in game #1."
    unknown = await world.move(bob, thread, "b2", game=99)
    assert unknown.response.content == "There is no game #99."
    assert len(world.bot_messages(thread)) == posted  # nothing was played or announced

    played = await world.move(bob, thread, "b2")
    assert played.response is None  # the post where they moved says it


async def test_challenges_that_cannot_be_made_or_taken(world) -> None:
    alice, bob, carol = world.alice, world.bob, world.carol
    myself = await alice.slash(world.channel, "tak challenge", opponent=alice)
    assert myself.ephemeral
    assert myself.response.content == "You cannot accept or address your own challenge."
    robot = world.guild.add_member(world.env.create_user("robot", bot=True))
    to_bot = await alice.slash(world.channel, "tak challenge", opponent=robot)
    assert to_bot.ephemeral and "Bots cannot play" in to_bot.response.content
    odd_komi = await alice.slash(world.channel, "tak challenge", opponent=bob, komi=2.3)
    assert odd_komi.ephemeral and odd_komi.response.content.startswith("Komi must be")
    # Bounded options are refused by Discord's client before the bot sees them.
    for option, value in (("days", 99), ("size", 9), ("komi", 5), ("games", 0)):
        with pytest.raises(OptionError, match=f"Option '{option}' of 'tak challenge' must be"):
            await alice.slash(world.channel, "tak challenge", opponent=bob, **{option: value})
    broken = await ask_challenge(
        alice, world.channel, opponent=bob, stones=0, caps=1, opening="swap"
    )
    assert broken.response.content.startswith("Each player needs at least one stone")
    assert world.bot_messages(world.channel) == []

    challenge = await world.challenge(opponent=bob)
    intruder = await carol.click(challenge, label="Accept")
    [refusal] = intruder.followups
    assert refusal.ephemeral and refusal.content == "This challenge is addressed to someone else."
    own = await alice.click(challenge, label="Accept")
    assert own.followups[0].content == "You cannot accept or address your own challenge."
    assert world.channel.threads == []
    declined = await bob.click(challenge, label="Decline")
    assert "Declined." in declined.response.content and declined.response.components == []


async def test_an_open_challenge_is_taken_by_the_first_member_who_accepts(world) -> None:
    challenge = await world.challenge(color="black")
    assert "open challenge" in challenge.content
    assert [c.label for row in challenge.components for c in row.children] == ["Accept", "Cancel"]
    await world.carol.click(challenge, label="Accept")
    [thread] = world.channel.threads
    start = world.last_bot_message(thread)
    assert world.carol.mention in start.content  # carol is white: alice asked for black
    assert isinstance(world.env.bot.get_channel(thread.id), discord.Thread)


async def test_tinue_is_announced_and_marked_in_the_ptn_export(world) -> None:
    # 3x3: after a2, White (a1 b1 a2) threatens c1 and a3, and Black (c3 b2) can block only one.
    alice, bob = world.alice, world.bob
    thread = await world.start_game(size=3, komi=0)
    game = ["c3", "a1", "b1", "b2", "a2"]
    expected = []
    position = Position(3)
    for text in game:
        position.play(text)
        expected.append(tak_call(position))
    assert expected[-1] is Call.TINUE and expected[2] is Call.TAK  # independent of the bot
    for ply, text in enumerate(game):
        await world.move([alice, bob][ply % 2], thread, text)
        posted = world.last_bot_message(thread).content
        assert ("Tinuë!" in posted) is (expected[ply] is Call.TINUE), posted
        assert ("Tak!" in posted) is (expected[ply] is Call.TAK), posted

    ptn = await bob.slash(thread, "game ptn")
    [attachment] = ptn.response.message.attachments
    text = (await attachment.read()).decode()
    assert "2. b1' b2\n3. a2''" in text
    assert [ply.marks for ply in Game.parse(text).plies] == [c.mark for c in expected]
