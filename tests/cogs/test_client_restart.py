"""What survives a restart (buttons, games, deadlines), and simulated time passing deadlines."""

from __future__ import annotations

from datetime import timedelta

import discord

from tests.cogs.conftest import advance


def labels(message) -> list[str]:
    return [c.label for row in message.components for c in row.children]


async def test_after_a_restart_old_buttons_work_and_the_game_goes_on(world, new_bot) -> None:
    env, alice, bob = world.env, world.alice, world.bob
    thread = await world.start_game(size=5)
    await world.move(alice, thread, "a1")
    await world.move(bob, thread, "e5")
    await alice.slash(thread, "tak draw")
    offer = world.last_bot_message(thread)
    pending = await world.challenge(challenger=world.carol, opponent=bob)

    old_bot = env.bot
    await env.restart_bot(new_bot())
    assert env.bot is not old_bot and env.bot.is_ready()

    await bob.click(offer, label="Decline draw")  # a button from before the restart
    assert "declined the draw" in world.last_bot_message(thread).content
    played = await world.move(alice, thread, "b2")
    assert played.response is None  # the post where they moved says it
    assert "**2. b2**" in world.last_bot_message(thread).content
    await bob.click(pending, label="Accept")
    assert "Game #2" in world.last_bot_message(world.channel.threads[-1]).content


async def test_a_reminder_then_a_loss_on_time(world) -> None:
    env, alice, bob = world.env, world.alice, world.bob
    thread = await world.start_game(size=5, days=1)
    await world.move(alice, thread, "a1")
    await world.move(bob, thread, "e5")  # alice has a day from now
    posted = len(world.bot_messages(thread))

    await advance(env, timedelta(hours=19))
    assert len(world.bot_messages(thread)) == posted  # 80% of the day has not passed yet
    await advance(env, timedelta(hours=1))
    reminder = world.last_bot_message(thread)
    assert reminder.content.startswith(f"{alice.mention}, reminder: it is your move in game #1")

    await advance(env, timedelta(hours=3, minutes=59))
    assert world.last_bot_message(thread).id == reminder.id  # only one reminder a turn
    await advance(env, timedelta(minutes=2))
    ending = world.last_bot_message(thread)
    assert ending.content.startswith("Time is up.")
    assert "**bob** (black) wins on time (0-1)" in ending.content
    late = await world.move(alice, thread, "b2")
    assert late.response.content == "Game #1 is over (0-1)."


async def test_a_deadline_missed_while_the_bot_was_down_is_settled_at_start(world, new_bot) -> None:
    env, alice, bob = world.env, world.alice, world.bob
    thread = await world.start_game(size=5, days=1)
    await world.move(alice, thread, "a1")
    await world.move(bob, thread, "e5")
    # The bot is down for two days: simulated time passes with a bot whose scheduler never runs.
    await env.restart_bot(new_bot())
    await env.bot.scheduler.stop()
    await advance(env, timedelta(days=2))
    assert "Time is up" not in world.last_bot_message(thread).content
    await env.restart_bot(new_bot())  # the schedule is rebuilt from the database
    assert "**bob** (black) wins on time (0-1)" in world.last_bot_message(thread).content


async def test_reminders_by_dm_fall_back_to_the_thread_when_dms_are_closed(world) -> None:
    env, alice, bob = world.env, world.alice, world.bob
    await alice.slash(world.channel, "profile settings", notify="dm")
    await bob.slash(world.channel, "profile settings", notify="dm")
    thread = await world.start_game(size=5, days=1)
    turn_notice = alice.user.dm_channel.history()[-1]
    assert "It is your move in game #1" in turn_notice.content

    await world.move(alice, thread, "a1")
    assert "It is your move in game #1" in bob.user.dm_channel.history()[-1].content
    dms_before = len(alice.user.dm_channel.history())
    dm_path = f"/channels/{alice.user.dm_channel.id}/messages"
    env.inject_error("POST", dm_path, status=403, code=50007, times=1)
    await world.move(bob, thread, "e5")  # alice's DMs are "closed" for this one message
    assert ". e5**" in world.last_bot_message(thread).content
    assert alice.mention in world.last_bot_message(thread).content  # the mention still stands
    assert len(alice.user.dm_channel.history()) == dms_before  # the DM did fail

    await advance(env, timedelta(hours=20))
    assert world.last_bot_message(thread).content.startswith(f"{alice.mention}, reminder")
    assert "reminder" in alice.user.dm_channel.history()[-1].content


async def test_an_open_challenge_expires(world) -> None:
    challenge = await world.challenge(size=5)
    await advance(world.env, timedelta(days=7, minutes=1))
    expired = world.last_bot_message(world.channel)
    assert expired.id == challenge.id and "Expired" in expired.content
    assert labels(expired) == []
    assert isinstance(expired, discord.Message)
