"""`/game note` and `/game scratch` as players use them: private to their owner, kept across a
restart, in the owner's own PTN export only; a scratch board never touches the game."""

from __future__ import annotations

from tak.ptn import Game
from tests.cogs.conftest import World


async def exported(actor, thread, **options) -> str:
    ptn = await actor.slash(thread, "game ptn", **options)
    [attachment] = ptn.response.message.attachments
    return (await attachment.read()).decode()


async def test_a_note_is_its_owners_alone_and_survives_a_restart(world: World, new_bot) -> None:
    alice, bob, carol = world.alice, world.bob, world.carol
    thread = await world.start_game()
    kept = await alice.slash(thread, "game note", text="Plan: take the c file")
    assert kept.ephemeral
    assert kept.response.content == (
        "Kept your note on game #1 (only you see it):\n> Plan: take the c file"
    )
    await world.env.restart_bot(new_bot())
    shown = await alice.slash(thread, "game note")
    assert shown.ephemeral and shown.response.content.endswith("> Plan: take the c file")
    theirs = await bob.slash(thread, "game note")
    assert theirs.response.content.startswith("You have no note on game #1")
    outsider = await carol.slash(thread, "game note", text="peeking")
    assert outsider.ephemeral and outsider.response.content.startswith("You have no game")
    named = await carol.slash(thread, "game note", game=1, text="peeking")
    assert named.ephemeral and "not playing in game #1" in named.response.content

    own = await exported(alice, thread)
    assert Game.parse(own).comments[-1] == "Note by alice: Plan: take the c file"
    assert "take the c file" not in await exported(bob, thread)
    await alice.slash(thread, "game ptn", public=True)
    [public] = world.last_bot_message(thread).attachments
    assert "take the c file" not in (await public.read()).decode()

    deleted = await alice.slash(thread, "game note", text="-")
    assert deleted.response.content == "Your note on game #1 is deleted."
    assert "take the c file" not in await exported(alice, thread)


async def test_a_scratch_board_shows_a_line_privately_and_plays_nothing(world: World) -> None:
    alice, bob = world.alice, world.bob
    thread = await world.start_game(size=5)
    await world.move(alice, thread, "a1")
    await world.move(bob, thread, "e5")
    before = len(world.bot_messages(thread))
    tried = await bob.slash(thread, "game scratch", moves="e4 a2 e3 a3 e2")
    assert tried.ephemeral
    assert tried.response.content.startswith(
        "Scratch board of game #1 from ply 2: 2. e4 a2 3. e3 a3 4. e2'"
    )
    assert len(tried.response.attachments) == 1  # the board after the line
    refused = await bob.slash(thread, "game scratch", moves="e4 a9")
    assert refused.ephemeral and refused.response.content.startswith("a9")
    assert not refused.response.attachments
    game = await world.env.bot.services.games.get(1)
    assert game.ply == 2 and len(world.bot_messages(thread)) == before


async def test_a_note_of_many_lines_is_shown_within_a_message(world: World) -> None:
    thread = await world.start_game()
    note = "\n".join(["c"] * 750)  # 1,499 characters, twice that once each line is quoted
    kept = await world.alice.slash(thread, "game note", text=note)
    assert kept.ephemeral and len(kept.response.content) <= 2000
    assert kept.response.content.startswith("Kept your note on game #1 (only you see it):\n> c\n")
    assert await world.env.bot.services.notes.read(1, world.alice.id) == note  # kept whole
