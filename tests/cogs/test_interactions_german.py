"""A German-speaking player's refusals in German, through Discord: the services' sentences and
the engine's, in the asker's language whatever the other player speaks."""

from __future__ import annotations

from tests.cogs.conftest import World, ask_challenge


async def test_a_german_players_illegal_moves_are_refused_in_german(world: World) -> None:
    alice, bob = world.alice, world.bob
    await bob.slash(world.channel, "profile settings", language="de")
    thread = await world.start_game(size=5)
    await world.move(alice, thread, "a1")

    occupied = await world.move(bob, thread, "a1")
    assert occupied.ephemeral
    assert occupied.response.content == (
        "a1 ist besetzt, und Steine können nur auf leere Felder gesetzt werden."
    )
    wall_first = await world.move(bob, thread, "Sb2")
    assert wall_first.response.content == (
        "Sb2: Keine Mauern in den ersten beiden Halbzügen: Da setzt jeder einen liegenden Stein "
        "in der Farbe des Gegenübers."
    )
    off_board = await world.move(bob, thread, "f1")
    assert off_board.response.content == (
        "f1 ist kein Feld auf diesem 5x5-Brett, es hat die Linien a bis e und die Reihen 1 bis 5."
    )
    await world.move(bob, thread, "e5")
    out_of_turn = await world.move(bob, thread, "b2")
    assert out_of_turn.ephemeral
    assert out_of_turn.response.content == "In Partie #1 bist du nicht am Zug."

    english = await world.move(alice, thread, "e5")  # Alice's Discord speaks English
    assert english.response.content == (
        "e5 is occupied, and pieces can only be placed on empty squares."
    )
    assert (await world.env.bot.services.games.get(1)).ply == 2


async def test_a_german_player_is_refused_a_challenge_in_german(world: World) -> None:
    alice, carol = world.alice, world.carol
    await carol.slash(world.channel, "profile settings", language="de")
    challenge = await world.challenge(opponent=world.bob)
    intruder = await carol.click(challenge, label="Accept")
    [refusal] = intruder.followups
    assert refusal.ephemeral and refusal.content == "Diese Herausforderung gilt jemand anderem."
    own = await alice.click(challenge, label="Accept")
    assert own.followups[0].content == "You cannot accept or address your own challenge."
    assert world.channel.threads == []
    broken = await ask_challenge(
        carol, world.channel, opponent=alice, stones=0, caps=1, opening="swap"
    )
    assert broken.ephemeral and broken.response.content == (
        "Jeder braucht mindestens einen Stein für die Eröffnung: Der erste Zug jedes Spielers "
        "setzt einen liegenden Stein des Gegenübers."
    )
