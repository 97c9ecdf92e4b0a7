"""`/game conditions` as players use it: a forced line played by condition across a restart, a
deviation clearing the lines, an undo clearing them (their owner told by DM alone), a bank
clock and a Tak payment answered by condition, and the lines private to their owner."""

from __future__ import annotations

from datetime import timedelta

from tests.cogs.commands.test_coins import MOVES, manager
from tests.cogs.commands.test_tak_play import play_bot
from tests.cogs.conftest import World, advance


def everything_shown(world: World, thread) -> str:
    """All the bot posted in the thread and the channel, as anyone there reads it."""
    posts = world.bot_messages(thread) + world.bot_messages(world.channel)
    return "\n".join(m.content for m in posts)


async def bob_waits_with(world: World, lines: str, **options):  # type: ignore[no-untyped-def]
    """A game (5x5) with its first two plies; Bob enters `lines` while Alice is to move;
    returns the game's thread and Bob's reply."""
    thread = await world.start_game(size=5, **options)
    await world.move(world.alice, thread, "a1")
    await world.move(world.bob, thread, "e5")
    return thread, await world.bob.slash(thread, "game conditions add", lines=lines)


async def test_a_forced_line_is_played_by_condition_across_a_restart(world: World, new_bot) -> None:
    alice, bob = world.alice, world.bob
    thread, kept = await bob_waits_with(world, "c3 d4 c4 d5; b2 b3")
    assert kept.ephemeral
    assert kept.response.content.startswith("Kept. Your conditional moves in game #1")
    assert "- `2. c3 d4 3. c4 d5`\n- `2. b2 b3`" in kept.response.content
    mine = await alice.slash(thread, "game conditions show")  # Bob's lines are his alone
    assert mine.ephemeral and mine.response.content.startswith("You have no conditional moves")
    early = await alice.slash(thread, "game conditions add", lines="d4 c3")
    assert early.ephemeral and "It is your move in game #1" in early.response.content
    assert "c4 d5" not in everything_shown(world, thread)

    await world.env.restart_bot(new_bot())
    await world.move(alice, thread, "c3")
    answered, answer = [m.content for m in world.bot_messages(thread)[-2:]]
    assert answered.startswith("**2. c3**") and "**bob** answers by condition:" in answered
    assert answer.startswith("**2... d4** — played by condition")
    assert f"{alice.mention} to move" in answer
    shown = await bob.slash(thread, "game conditions show")
    assert shown.ephemeral and "- `3. c4 d5`" in shown.response.content
    assert "b2" not in shown.response.content  # the other branch is gone with its reply

    await world.move(alice, thread, "c4")
    assert world.last_bot_message(thread).content.startswith("**3... d5** — played by condition")
    game = await world.env.bot.services.games.get(1)
    assert (game.ply, game.player_to_move.id) == (6, alice.id)
    empty = await bob.slash(thread, "game conditions show")
    assert empty.response.content.startswith("You have no conditional moves in game #1")


async def test_a_deviation_clears_the_lines(world: World) -> None:
    alice, bob = world.alice, world.bob
    thread, _ = await bob_waits_with(world, "c3 d4")
    await world.move(alice, thread, "b3")
    last = world.last_bot_message(thread).content
    assert last.startswith("**2. b3**") and f"{bob.mention} to move" in last
    assert "condition" not in last
    shown = await bob.slash(thread, "game conditions show")
    assert shown.response.content.startswith("You have no conditional moves in game #1")
    cleared = await bob.slash(thread, "game conditions clear")
    assert cleared.response.content == "You had no conditional moves in game #1."


async def test_an_undo_clears_the_lines_and_tells_their_owner_alone(world: World) -> None:
    alice, bob = world.alice, world.bob
    thread, _ = await bob_waits_with(world, "c3 d4")
    await bob.slash(thread, "tak undo")
    await alice.click(world.last_bot_message(thread), label="Allow undo")
    told = [m.content for m in bob.user.dm_channel.history()]
    assert told[-1] == (
        "Your conditional moves in game #1 were cleared: a move was taken back, so they no "
        "longer start from the position on the board."
    )
    assert not any("conditional" in m.content for m in alice.user.dm_channel.history())
    assert "conditional" not in everything_shown(world, thread)
    await world.move(bob, thread, "e4")
    await world.move(alice, thread, "c3")
    assert world.last_bot_message(thread).content.startswith("**2. c3**")  # not answered


async def test_a_bank_clock_does_not_run_for_an_answer(world: World) -> None:
    alice = world.alice
    thread, _ = await bob_waits_with(world, "c3 d4", days=1, bank="3d")
    services = world.env.bot.services
    before = await services.games.get(1)
    await advance(world.env, timedelta(hours=30))  # alice spends 6 hours of her bank
    await world.move(alice, thread, "c3")
    after = await services.games.get(1)
    assert after.last_move == "d4"
    assert after.clock_left == (before.clock_left[0] - timedelta(hours=6), before.clock_left[1])
    answer = world.last_bot_message(thread).content
    assert "played by condition" in answer and "bank left 2d 18h" in answer


async def test_an_answer_by_condition_pays_the_tak_it_owes(world: World) -> None:
    alice, bob = world.alice, world.bob
    boss = await manager(world)
    await boss.slash(world.channel, "bredon gambling", enabled=True, starting=100)
    message = await world.challenge(opponent=bob, stakes=True, size=5)
    await bob.click(message, label="Accept")
    bidding = world.last_bot_message(world.channel)
    for player, bid in ((alice, "5"), (bob, "3")):
        form = await player.click(bidding, label="Bid")
        await player.submit_modal(form, {"bid": bid})
    thread = world.channel.threads[-1]
    for ply, move in enumerate(MOVES[:6], start=1):
        await world.move(alice if ply % 2 else bob, thread, move)
    await bob.slash(thread, "game conditions add", lines=f"{MOVES[6]} {MOVES[7]}")
    await world.move(alice, thread, MOVES[6])  # Tak: bob owes 2, his answer pays them
    called, paid = [m.content for m in world.bot_messages(thread)[-2:]]
    assert "**Tak!**" in called and "**bob** answers by condition:" in called
    assert "played by condition" in paid
    assert "bob paid **2** coins for the Tak. Pot: **27** coins" in paid
    wallet = await bob.slash(world.channel, "coins wallet")
    assert "**bob** has **88** coins" in wallet.response.content  # 100 - 10 ante - 2 for the Tak


async def test_conditional_moves_are_for_games_between_players(world: World) -> None:
    _, thread = await play_bot(world, size=5, color="white")
    asked = await world.alice.slash(thread, "game conditions add", lines="c3 d4")
    assert asked.ephemeral and asked.response.content.startswith(
        "Conditional moves are for games between players"
    )


async def test_a_conditional_move_is_picked_on_the_board(world: World) -> None:
    alice, bob = world.alice, world.bob
    thread = await world.start_game(size=5)
    await world.move(alice, thread, "a1")
    await world.move(bob, thread, "e5")
    mine = await alice.slash(thread, "game conditions add")  # her own move first
    assert mine.ephemeral and "It is your move in game #1" in mine.response.content
    opened = await bob.slash(thread, "game conditions add")
    picker = opened.response
    assert opened.ephemeral and picker.content.startswith(
        "A conditional move in game #1: first the reply of **alice** you foresee."
    )
    for steps in ("c3", "c3F"):
        chosen = await bob.select(picker, [steps])
        assert chosen.followups == [], [f.content for f in chosen.followups]
    assert picker.content == "If **alice** plays **c3** in game #1, you answer:"
    for steps in ("d4", "d4F"):
        await bob.select(picker, [steps])
    assert picker.content.startswith("If **alice** plays **c3**, Bredon plays **d4** for you")
    assert len(picker.attachments) == 1  # the board after both
    added = await bob.click(picker, label="Add this conditional move")
    assert added.followups == []
    assert picker.content.startswith("Kept. Your conditional moves in game #1")
    assert "- `2. c3 d4`" in picker.content
    await world.move(alice, thread, "c3")
    assert world.last_bot_message(thread).content.startswith("**2... d4** — played by condition")

    stale = (await bob.slash(thread, "game conditions add")).response  # alice to move again
    await world.move(alice, thread, "c4")
    refused = await bob.select(stale, ["b2"])
    [told] = refused.followups
    assert told.content.startswith("The position has changed in game #1")


async def test_the_mover_is_told_of_the_answer_by_condition(world: World) -> None:
    alice = world.alice
    thread, _ = await bob_waits_with(world, "c3 d4")
    opened = await alice.click(world.last_bot_message(thread), label="Move")
    picker = opened.response
    for steps in ("c3", "c3F"):
        await alice.select(picker, [steps])
    await alice.click(picker, label="Confirm c3")
    assert picker.content.startswith(
        "You played **c3** in game #1; bob answered **d4** by condition: https://"
    )


async def test_without_a_game_lines_go_to_the_one_awaiting_the_opponent(world: World) -> None:
    """Of Bob's two games, one awaits his move and one Alice's: lines typed in the channel go to
    the one where they can apply, without asking which."""
    mine = await world.start_game(size=5)
    await world.move(world.alice, mine, "a1")  # Bob to move here
    theirs = await world.start_game(size=5)
    await world.move(world.alice, theirs, "a1")
    await world.move(world.bob, theirs, "e5")  # Alice to move here
    kept = await world.bob.slash(world.channel, "game conditions add", lines="c3 d4")
    assert kept.response.content.startswith("Kept. Your conditional moves in game #2")


async def test_a_game_answered_by_condition_counts_among_those_awaiting_the_mover(
    world: World,
) -> None:
    """Alice's move is answered at once: that game awaits her again, after the other one."""
    other = await world.start_game(size=5)  # game #1: Alice to move
    thread, _ = await bob_waits_with(world, "c3 d4")  # game #2
    played = await world.move(world.alice, thread, "c3")
    text = played.response.content
    assert "Next: game #1 against bob" in text and "(2 games await your move)" in text
    assert other.id != thread.id
