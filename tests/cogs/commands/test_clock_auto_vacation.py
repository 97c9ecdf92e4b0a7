"""Automatic vacation through Discord: chosen with `/profile settings auto_vacation:on`, a day
taken and announced (in the thread, and by DM to a DM player) when the time runs out, the game
going on; with no day left, the loss on time as without it."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import timedelta

from bot.languages import speaking
from bot.notifications.outbox import ClockNews
from cogs.words.clock_messages import clock_news_text
from tests.cogs.commands.test_clock import opened
from tests.cogs.conftest import advance
from tests.cogs.presenters.test_digests import dms, replies


async def test_a_day_taken_and_announced_then_the_player_moves(world) -> None:
    env, alice = world.env, world.alice
    thread = await opened(world, days=1)  # Alice to move, one day
    shown = replies(await alice.slash(world.channel, "profile settings"))
    assert "Automatic vacation: **off**" in shown  # off by default
    chosen = replies(await alice.slash(world.channel, "profile settings", auto_vacation="on"))
    assert "Automatic vacation: **on**" in chosen
    await alice.slash(world.channel, "profile settings", notify="dm")
    told_before = len(dms(alice))

    await advance(env, timedelta(hours=20))
    reminder = world.last_bot_message(thread)
    assert reminder.content.endswith(
        "then an automatic vacation day is taken if you have one left, else the game is lost on "
        "time."
    )
    await advance(env, timedelta(hours=4, minutes=1))
    news = world.last_bot_message(thread)
    assert news.content.startswith(
        f"{alice.mention} was out of time in game #1; an automatic vacation day was taken"
    )
    assert "Vacation days left this year: 13." in news.content
    assert "wins on time" not in news.content
    [dm] = [m for m in dms(alice)[told_before:] if "was out of time" in m.content]
    assert news.content in dm.content and news.jump_url in dm.content
    status = await alice.slash(thread, "clock vacation status")
    assert "used 1 of 14" in status.response.content

    await world.move(alice, thread, "b1")  # during the day: the game goes on
    assert world.last_bot_message(thread).content.startswith("**2. b1**")
    await advance(env, timedelta(days=1))
    back = world.last_bot_message(thread)
    assert "is back from vacation" in back.content and "Time runs out <t:" in back.content
    game = await env.bot.services.games.get(1)
    assert game.is_active and game.ply == 3


async def opted_in(world, vacation_days: int = 14):
    """A one-day game (after `a1 e5`, Alice to move) in a server allowing `vacation_days`, Alice
    opted in to automatic vacation."""
    guilds = world.env.bot.services.guilds
    await guilds.save(replace(await guilds.get(world.guild.id), vacation_days=vacation_days))
    thread = await opened(world, days=1)
    await world.alice.slash(world.channel, "profile settings", auto_vacation="on")
    return thread


async def test_with_no_day_left_the_game_is_lost_on_time(world) -> None:
    env = world.env
    thread = await opted_in(world, vacation_days=1)
    await advance(env, timedelta(days=1, minutes=1))
    assert "the last one left this year" in world.last_bot_message(thread).content
    await advance(env, timedelta(days=1))  # the day ends without a move, and none is left
    assert "wins on time" in world.last_bot_message(thread).content
    assert not (await env.bot.services.games.get(1)).is_active


async def test_the_reminder_promises_no_day_where_none_would_be_taken(world) -> None:
    thread = await opted_in(world, vacation_days=0)
    await advance(world.env, timedelta(hours=20))
    reminder = world.last_bot_message(thread).content
    assert "reminder: it is your move in game #1" in reminder
    assert reminder.endswith(", then the game is lost on time.")


async def test_an_automatic_day_is_extended_not_ended_before_the_move(world) -> None:
    env, alice = world.env, world.alice
    thread = await opted_in(world)
    await advance(env, timedelta(days=1, minutes=1))  # the day is taken
    refused = await alice.slash(thread, "clock vacation end")
    assert refused.response.content.startswith("Move in game #1 first: your time there ran out")
    assert (await env.bot.services.holds.vacation_status(world.guild.id, alice.id)).current
    longer = await alice.slash(thread, "clock vacation start", days=2)
    assert longer.response.content.startswith("You are on vacation until")
    assert "Vacation days left this year: 11." in longer.response.content
    assert world.last_bot_message(thread).content.startswith(f"{alice.mention} is on vacation")


async def test_one_dm_for_a_day_that_stops_several_games(world) -> None:
    """Two games due at once: each thread tells of its own clock, and the player hears of the
    day in one DM that names every game it stopped."""
    env, alice = world.env, world.alice
    first = await opted_in(world)
    await opened(world, days=1)
    await alice.slash(world.channel, "profile settings", notify="dm")
    told_before = len(dms(alice))
    await advance(env, timedelta(days=1, minutes=1))
    news = world.last_bot_message(first).content
    assert "an automatic vacation day was taken: its clock stands still until <t:" in news
    [dm] = [m for m in dms(alice)[told_before:] if "was out of time" in m.content]
    assert dm.content.startswith(news)
    assert "The clocks of your games here stand still until then: #1, #2." in dm.content


async def test_the_last_day_reminds_before_the_loss_and_says_the_game_is_lost_then(world) -> None:
    """One day left and a reminder 2 h before each deadline: the day's notice says the game is
    lost when it ends unless the player moves, and 2 h before that end the reminder comes."""
    env, alice = world.env, world.alice
    await alice.slash(world.channel, "clock reminders", times="2h")
    thread = await opted_in(world, vacation_days=1)

    await advance(env, timedelta(hours=22))  # T - 2h
    assert (
        "an automatic vacation day is taken if you have one"
        in world.last_bot_message(thread).content
    )
    await advance(env, timedelta(hours=2))  # T: the last day is taken
    news = world.last_bot_message(thread).content
    assert news.startswith(
        f"{alice.mention} was out of time in game #1; an automatic vacation day was taken, the "
        "last one left this year: unless they move, the game is lost on time <t:"
    )
    assert "stands still" not in news
    listed = (await alice.slash(world.channel, "tak games")).response
    assert "time ran out: a move is due before the vacation ends" in str(
        [listed.content, *(embed.description for embed in listed.embeds)]
    )
    before_loss = len(world.bot_messages(thread))
    await advance(env, timedelta(hours=21, minutes=59))  # T + 1d - 2h - 1 min: nothing yet
    assert len(world.bot_messages(thread)) == before_loss
    await advance(env, timedelta(minutes=2))  # T + 1d - 2h
    reminder = world.last_bot_message(thread).content
    assert reminder.startswith(f"{alice.mention}, reminder: it is your move in game #1.")
    assert reminder.endswith("then the game is lost on time.")
    await advance(env, timedelta(hours=2))  # T + 1d: the loss
    assert "wins on time" in world.last_bot_message(thread).content


async def test_the_last_days_notice_in_german(world) -> None:
    """The words of the last day's notice as German players read them."""
    thread = await opted_in(world, vacation_days=1)
    await advance(world.env, timedelta(days=1))
    news = await world.env.bot.services.db.fetchone(
        "SELECT payload FROM outbox WHERE kind = 'clock' ORDER BY id DESC"
    )
    assert news is not None
    game = await world.env.bot.services.games.get(1)
    with speaking("de"):
        german = clock_news_text(game, ClockNews(**json.loads(news["payload"])))
    assert german.startswith(
        f"{world.alice.mention} hatte in Partie #1 keine Zeit mehr; ein automatischer Urlaubstag "
        "wurde genommen, der letzte in diesem Jahr: Kommt kein Zug, ist die Partie <t:"
    )
    assert german.endswith(" auf Zeit verloren.")
    assert german.split("<t:")[1].split(":")[0] in world.last_bot_message(thread).content
