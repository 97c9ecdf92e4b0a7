"""Clocks through Discord: a vacation taken and ended, the Give 1 day button, a pause proposed and
accepted, a bank shown on the turn, reminders at chosen times across a restart (each sent once)."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from cogs.components.buttons import buttons
from tests.cogs.conftest import advance, ask_challenge
from tests.cogs.test_client_restart import labels


async def opened(world, **options):
    """A game after `a1` by Alice and `e5` by Bob (Alice is white and to move)."""
    thread = await world.start_game(size=5, **options)
    await world.move(world.alice, thread, "a1")
    await world.move(world.bob, thread, "e5")
    return thread


async def test_a_vacation_taken_and_ended_through_commands(world) -> None:
    env, alice = world.env, world.alice
    thread = await opened(world, days=1)
    taken = await alice.slash(thread, "clock vacation start", days=5)
    assert taken.ephemeral
    assert "You are on vacation until" in taken.response.content
    assert "(games: #1)" in taken.response.content
    assert "days left this year: 9" in taken.response.content
    news = world.last_bot_message(thread)
    assert news.content.startswith(f"{alice.mention} is on vacation until")

    await advance(env, timedelta(days=2))  # past the one-day deadline: it stands still
    assert "Time is up" not in world.last_bot_message(thread).content
    again = await alice.slash(thread, "clock vacation start", days=1)
    assert "already on vacation" in again.response.content
    ended = await alice.slash(thread, "clock vacation end")
    assert ended.response.content.startswith("Welcome back")
    assert "days left this year: 12" in ended.response.content  # two days begun, and one
    back = world.last_bot_message(thread)
    assert "is back from vacation" in back.content and "Time runs out <t:" in back.content
    status = await alice.slash(thread, "clock vacation status")
    assert "used 2 of 14" in status.response.content

    await advance(env, timedelta(hours=23))
    assert "Time is up" not in world.last_bot_message(thread).content
    await advance(env, timedelta(hours=1, minutes=1))
    assert "wins on time" in world.last_bot_message(thread).content


async def test_vacations_turned_off_by_the_server(world) -> None:
    thread = await opened(world)
    settings = world.env.bot.services.guilds
    current = await settings.get(world.guild.id)
    await settings.save(replace(current, vacation_days=0))
    refused = await world.alice.slash(thread, "clock vacation start")
    assert refused.response.content == "Vacations are turned off in this server."


async def test_the_give_a_day_button_is_for_the_player_waiting(world) -> None:
    alice, bob = world.alice, world.bob
    thread = await opened(world, days=2)
    board = world.last_bot_message(thread)
    assert labels(board) == ["Move", "Give 1 day"]
    own = await alice.click(board, label="Give 1 day")
    assert own.followups[0].content == "It is your move: only your opponent can give you time."
    given = await bob.click(board, label="Give 1 day")
    assert given.followups[0].content == "You gave alice 1d more in game #1."
    news = world.last_bot_message(thread)
    assert news.content.startswith(f"{bob.mention} gave {alice.mention} 1d more in game #1.")
    game = await world.env.bot.services.games.get(1)
    assert game.deadline_at - game.last_move_at == timedelta(days=3)
    twice = await bob.click(board, label="Give 1 day")  # a double click, or a second thought
    assert twice.followups[0].content == (
        "You have already given a day on this turn of game #1: to give more, use `/clock moretime`."
    )
    more = await bob.slash(thread, "clock moretime", time="12h")  # which the command still gives
    assert more.response.content.startswith("You gave alice 12h more")
    game = await world.env.bot.services.games.get(1)
    assert game.deadline_at - game.last_move_at == timedelta(days=3, hours=12)

    await world.move(alice, thread, "c3")
    [earlier] = [m for m in world.bot_messages(thread) if m.id == board.id]
    assert labels(earlier) == []  # alice waits now, but an earlier board has no button left
    latest = world.last_bot_message(thread)
    await bob.slash(thread, "clock vacation start", days=1)  # moves the deadline, not the turn
    await advance(world.env, timedelta(hours=3))
    await bob.slash(thread, "clock vacation end")
    assert (await alice.click(latest, label="Give 1 day")).followups[0].content == (
        "You gave bob 1d more in game #1."
    )


async def test_give_a_day_on_a_board_posted_before_boards_named_their_turn(world) -> None:
    """Boards already posted carry the older button id (the game only): it still gives."""
    thread = await opened(world, days=2)
    old_board = await world.env.bot.get_channel(thread.id).send(
        "An older board", view=buttons(("moretime", 1))
    )
    [posted] = [m for m in world.bot_messages(thread) if m.id == old_board.id]
    given = await world.bob.click(posted, label="Give 1 day")
    assert given.followups[0].content == "You gave alice 1d more in game #1."
    game = await world.env.bot.services.games.get(1)
    assert game.deadline_at - game.last_move_at == timedelta(days=3)


async def test_a_pause_proposed_accepted_and_ended(world) -> None:
    env, alice, bob = world.env, world.alice, world.bob
    thread = await opened(world, days=1)
    asked = await alice.slash(thread, "clock pause")
    assert asked.ephemeral
    proposal = world.last_bot_message(thread)
    assert labels(proposal) == ["Agree to pause", "Keep playing"]
    own = await alice.click(proposal, label="Agree to pause")
    assert own.followups[0].content == "You cannot answer your own proposal."
    await bob.click(proposal, label="Agree to pause")
    assert labels(world.bot_messages(thread)[-2]) == []  # the proposal's buttons are gone
    assert "is paused" in world.last_bot_message(thread).content

    await advance(env, timedelta(days=3))
    assert "Time is up" not in world.last_bot_message(thread).content
    listed = await bob.slash(thread, "tak games")
    [embed] = listed.response.embeds
    assert "the clock stands still: paused by agreement" in (embed.description or "")
    resumed = await bob.slash(thread, "clock resume")
    assert "no longer paused" in resumed.response.content
    assert "ended the pause" in world.last_bot_message(thread).content
    twice = await alice.slash(thread, "clock resume")
    assert twice.response.content == "Game #1 is not paused."


async def test_a_bank_is_shown_on_the_turn_and_in_the_record(world) -> None:
    thread = await world.start_game(size=5, days=1, bank="3d")
    start = world.last_bot_message(thread)
    assert "1d per move + 3d bank" in world.last_bot_message(world.channel).content
    assert "bank left 3d" in start.content
    bad = await ask_challenge(world.alice, world.channel, bank="3d", increment="1d")
    assert bad.response.content == "Choose a bank or an increment, not both."
    ptn = await world.alice.slash(thread, "game ptn")
    text = ptn.response.content + "".join(
        [(await a.read()).decode() for a in ptn.response.attachments]
    )
    assert '[Clock "1d per move + 3d bank"]' in text


async def test_reminders_at_chosen_times_across_a_restart_each_sent_once(world, new_bot) -> None:
    env, alice = world.env, world.alice
    chosen = await alice.slash(world.channel, "clock reminders", times="1d 2h")
    assert (
        chosen.response.content == "You are reminded 1d and 2h before each deadline in this server."
    )
    thread = await opened(world, days=3)  # alice has three days from now

    def reminders() -> list[str]:
        return [m.content for m in world.bot_messages(thread) if "reminder:" in m.content]

    await advance(env, timedelta(days=1, hours=23, minutes=59))
    assert reminders() == []
    await advance(env, timedelta(minutes=2))
    assert len(reminders()) == 1

    await env.restart_bot(new_bot())
    await env.bot.scheduler.stop()  # down across the second reminder time
    await advance(env, timedelta(hours=23))
    await env.restart_bot(new_bot())
    assert len(reminders()) == 2
    await env.restart_bot(new_bot())
    await advance(env, timedelta(minutes=50))
    assert len(reminders()) == 2
    off = await alice.slash(world.channel, "clock reminders", times="off")
    assert off.response.content.startswith("You get no reminders")
    wrong = await alice.slash(world.channel, "clock reminders", times="soon")
    assert "duration like" in wrong.response.content
