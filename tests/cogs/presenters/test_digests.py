"""Notifications in simulated days: the daily digest at the player's local hour (across a
daylight-saving change, and once after the bot was down across it), offers by DM with a fallback
when DMs are closed, and game threads that stay visible."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import discord
import pytest
import simcord

from cogs.client import INVITE_PERMISSIONS
from cogs.delivery.courier import courier_of
from tests.cogs.commands.test_tournament import Club
from tests.cogs.conftest import World, advance, grant_bot

LONDON = ZoneInfo("Europe/London")


def jump_to(env: simcord.Env, moment: datetime) -> None:
    """The simulated wall clock jumps (nothing runs in between): to reach a date far from
    SimCord's start without simulating every hour, or a bot that was down."""
    env.backend.advance_clock((moment - env.now()).total_seconds())


async def advance_to(env: simcord.Env, moment: datetime) -> None:
    await advance(env, moment - env.now())


def dms(actor: simcord.MemberActor) -> list[discord.Message]:
    return actor.user.dm_channel.history()


def digests(actor: simcord.MemberActor) -> list[discord.Message]:
    return [m for m in dms(actor) if "daily Tak digest" in m.content]


def replies(result: simcord.InteractionResult) -> str:
    return "\n".join([result.response.content or "", *(f.content for f in result.followups)])


async def choose_digest(actor: simcord.MemberActor, world: World, hour: int, zone: str) -> str:
    chosen = await actor.slash(
        world.channel, "profile settings", notify="digest", digest_hour=hour, time_zone=zone
    )
    return replies(chosen)


async def test_the_daily_digest_comes_at_8_in_london_before_and_after_the_clocks_change(
    world: World,
) -> None:
    env, alice, bob = world.env, world.alice, world.bob
    jump_to(env, datetime(2026, 3, 27, 12, tzinfo=UTC))
    reply = await choose_digest(bob, world, 8, "Europe/London")
    assert "daily digest" in reply and "08:00 Europe/London" in reply
    thread = await world.start_game(size=5, days=7)
    [challenged] = dms(bob)  # a challenge cannot wait for the digest
    assert "challenges you" in challenged.content
    await world.move(alice, thread, "a1")  # bob's move now; no DM per move for him
    turn_notice = world.last_bot_message(thread)
    assert bob.mention in turn_notice.content
    policy = env.backend.get_message(thread.id, turn_notice.id).allowed_mentions
    # Shown, but bob is not pinged (SimCord's users=None would mean "every user mentioned").
    assert policy.users is not None and bob.id not in policy.users, policy
    assert dms(bob) == [challenged]

    await advance_to(env, datetime(2026, 3, 28, 7, 59, tzinfo=UTC))
    assert digests(bob) == []
    await advance(env, timedelta(minutes=2))
    [first] = digests(bob)
    assert "Game #1" in first.content and f"/{thread.id}" in first.content
    assert "6 days 4 hours left" in first.content  # moved at 12:00 on 27 March, 7 days

    await advance_to(env, datetime(2026, 3, 29, 6, 59, tzinfo=UTC))  # 07:59 BST
    assert len(digests(bob)) == 1
    await advance(env, timedelta(minutes=2))
    sent = digests(bob)
    assert len(sent) == 2
    local = [m.created_at.astimezone(LONDON) for m in sent]
    assert [(t.day, t.hour, t.minute) for t in local] == [(28, 8, 0), (29, 8, 0)]
    assert [m.created_at.astimezone(UTC).hour for m in sent] == [8, 7]
    assert dms(bob) == [challenged, *sent]  # nothing else came by DM
    assert dms(alice) == []  # alice chose nothing: mentions only


async def test_a_bot_down_across_the_digest_hour_and_a_deadline_sends_each_once(
    world: World, new_bot
) -> None:
    env, alice, bob = world.env, world.alice, world.bob
    await choose_digest(bob, world, 8, "Europe/London")
    thread = await world.start_game(size=5, days=7)
    await world.move(alice, thread, "a1")
    await advance_to(env, datetime(2026, 1, 1, 6, tzinfo=UTC))
    # A second game whose one-day deadline (alice's, at 06:00 on 2 January) falls while the bot
    # is down too.
    quick = await world.start_game(size=4, days=1)
    await world.move(alice, quick, "a1")
    await world.move(bob, quick, "d4")
    await advance_to(env, datetime(2026, 1, 1, 7, tzinfo=UTC))
    assert digests(bob) == []

    old = env.bot  # down from 07:00 on 1 January to 09:00 on 2 January: two digest hours
    assert old.scheduler is not None
    await old.scheduler.stop()
    await courier_of(old).stop()
    jump_to(env, datetime(2026, 1, 2, 9, tzinfo=UTC))
    assert digests(bob) == []
    await env.restart_bot(new_bot())
    await advance(env, timedelta(minutes=5))
    assert len(digests(bob)) == 1
    endings = [m for m in world.bot_messages(quick) if m.content.startswith("Time is up.")]
    assert len(endings) == 1 and "**bob** (black) wins on time (0-1)" in endings[0].content
    await advance(env, timedelta(hours=6))
    assert len(digests(bob)) == 1  # not a second one for the other hour missed
    assert len([m for m in world.bot_messages(quick) if m.content.startswith("Time is up.")]) == 1

    await advance_to(env, datetime(2026, 1, 3, 8, 1, tzinfo=UTC))
    assert len(digests(bob)) == 2
    assert await env.bot.services.outbox.pending() == 0


async def test_a_digest_with_dms_closed_is_a_mention_in_the_thread(world: World) -> None:
    env, alice, bob = world.env, world.alice, world.bob
    await choose_digest(bob, world, 8, "UTC")
    thread = await world.start_game(size=5, days=7)
    await world.move(alice, thread, "a1")
    env.inject_error(
        "POST", f"/channels/{bob.user.dm_channel.id}/messages", status=403, code=50007, times=1
    )
    await advance_to(env, datetime(2026, 1, 1, 8, 1, tzinfo=UTC))
    fallback = world.last_bot_message(thread)
    assert bob.mention in fallback.content and "daily Tak digest" in fallback.content
    assert digests(bob) == []
    told = replies(await bob.slash(world.channel, "tak games"))
    assert "could not send you a direct message" in told
    assert "could not send you" not in replies(await bob.slash(world.channel, "tak games"))


async def test_offers_and_challenges_reach_dm_players_by_dm_with_a_fallback(
    world: World,
) -> None:
    env, alice, bob, carol = world.env, world.alice, world.bob, world.carol
    await bob.slash(world.channel, "profile settings", notify="dm")
    suggested = await carol.autocomplete(world.channel, "profile settings", "time_zone", "york")
    assert {"name": "America/New_York", "value": "America/New_York"} in suggested
    refused = await choose_digest(carol, world, 20, "Mars/Olympus_Mons")
    assert "not a time zone I know" in refused
    assert "a mention" in replies(await carol.slash(world.channel, "profile settings"))  # unchanged
    await choose_digest(carol, world, 20, "America/New_York")
    thread = await world.start_game(size=5)
    await world.move(alice, thread, "a1")
    await world.move(bob, thread, "e5")
    await alice.slash(thread, "tak draw")
    offer = world.last_bot_message(thread)
    assert "offers a draw" in offer.content
    assert "offers a draw" in dms(bob)[-1].content and offer.jump_url in dms(bob)[-1].content

    await world.challenge(alice, opponent=carol)  # carol (digest) hears of it at once
    assert "challenges you" in dms(carol)[-1].content
    carols_dms = len(dms(carol))
    env.inject_error(
        "POST", f"/channels/{carol.user.dm_channel.id}/messages", status=403, code=50007
    )
    await world.challenge(bob, opponent=carol)  # DMs closed: the channel post stands
    assert carol.mention in world.last_bot_message(world.channel).content
    assert len(dms(carol)) == carols_dms
    told = replies(await carol.slash(world.channel, "profile settings"))
    assert "could not send you a direct message" in told


@pytest.mark.parametrize("may_edit", [False, True], ids=["invite-permissions", "may-edit"])
async def test_game_threads_last_a_week_and_reopen_when_the_game_moves_on(
    world: World, may_edit: bool
) -> None:
    """Discord lets whoever may post in a thread unarchive it, and a post unarchives it too;
    SimCord asks for Manage Channels to edit a thread at all and does not unarchive on a post.
    So: with the invite permissions the move is posted in the archived thread all the same (no
    fallback to the channel); with leave to edit, the bot reopens the thread first."""
    env, alice = world.env, world.alice
    if may_edit:
        grant_bot(env, world.guild, INVITE_PERMISSIONS | discord.Permissions(manage_channels=True))
    thread = await world.start_game(size=5)
    metadata = env.backend.get_channel(thread.id).thread_metadata
    assert metadata.auto_archive_duration == 10080
    env.backend.edit_channel(thread.id, {}, thread_metadata={"archived": True})
    await advance(env, timedelta(seconds=1))
    assert env.backend.get_channel(thread.id).thread_metadata.archived

    played = await world.move(alice, thread, "a1")
    assert played.response is None  # the post where they moved says it
    assert ". a1**" in world.last_bot_message(thread).content
    assert env.backend.get_channel(thread.id).thread_metadata.archived is not may_edit


async def test_tournament_pairings_reach_dm_players_and_old_threads_point_to_the_next_round(
    world: World,
) -> None:
    club = Club(world)
    alice, bob, carol, dave = club.players
    await bob.slash(world.channel, "profile settings", notify="dm")
    await choose_digest(carol, world, 9, "Europe/Paris")
    await club.sign_up_and_start(games=1)

    round_one = await club.active_games()
    assert len(round_one) == 2
    for player in (bob, carol):
        [game] = [g for g in round_one if player.id in (g.white.id, g.black.id)]
        told = [m.content for m in dms(player) if "round 1 of 3" in m.content]
        assert len(told) == 1 and f"your game #{game.id}" in told[0], dms(player)
        assert len(dms(player)) == 1  # the pairing DM stands for the turn notice's
    for player in (alice, dave):  # mentions only: nothing by DM
        assert not any("round 1" in m.content for m in player.user.dm_channel.history())

    for game in round_one:
        await club.win(game, game.white.id)
    await advance(world.env, timedelta(seconds=5))
    round_two = [g for g in await club.active_games() if g.id not in {r.id for r in round_one}]
    assert len(round_two) == 2
    for old in round_one:
        posts = world.bot_messages(club.thread(old.thread_id))
        pointers = [m.content for m in posts if "Next:" in m.content]
        players = {old.white.id, old.black.id}
        expected = {g.id for g in round_two if players & {g.white.id, g.black.id}}
        assert {int(text.split("#")[1].split(",")[0]) for text in pointers} == expected
        assert len(pointers) == len(expected) == 2  # one for each player's next game


async def test_a_digest_dm_that_fails_for_now_is_retried_and_arrives_once(world: World) -> None:
    env, alice, bob = world.env, world.alice, world.bob
    await choose_digest(bob, world, 8, "America/New_York")
    thread = await world.start_game(size=5, days=7)
    await world.move(alice, thread, "a1")
    env.inject_error("POST", f"/channels/{bob.user.dm_channel.id}/messages", status=500, times=1)
    await advance_to(env, datetime(2026, 1, 1, 13, 0, 5, tzinfo=UTC))  # 08:00 EST
    assert digests(bob) == []
    await advance(env, timedelta(minutes=1))  # the courier's first retry is 30 s later
    [digest] = digests(bob)
    assert "Game #1" in digest.content
    await advance(env, timedelta(hours=6))
    assert len(digests(bob)) == 1
    assert world.last_bot_message(thread).content.startswith("**1. a1**")


async def test_a_finished_games_thread_points_to_its_rematch(world: World) -> None:
    alice, bob = world.alice, world.bob
    thread = await world.start_game(size=5)
    await world.move(alice, thread, "a1")
    await bob.slash(thread, "tak resign")
    confirm = [m for m in thread.history(viewer=bob) if "Resign" in str(m.components)][-1]
    await bob.click(confirm, label="Resign")
    ending = world.last_bot_message(thread)
    await bob.click(ending, label="Rematch")
    await alice.click(world.last_bot_message(world.channel), label="Accept")
    new_thread = world.channel.threads[-1]
    assert new_thread.id != thread.id
    pointer = world.last_bot_message(thread)
    assert pointer.content.startswith("Next: game #2, **bob** (white) vs **alice** (black)")
    assert f"/{new_thread.id}/" in pointer.content  # the new game's first post


async def test_a_reminder_reaches_a_digest_player_by_dm_at_once(world: World) -> None:
    env, alice, bob = world.env, world.alice, world.bob
    await choose_digest(bob, world, 8, "Asia/Tokyo")  # 23:00 UTC: after the reminder
    thread = await world.start_game(size=5, days=1)
    await world.move(alice, thread, "a1")
    await advance(env, timedelta(hours=19, minutes=13))  # 80% of a day is 19 h 12 min
    assert "reminder" in world.last_bot_message(thread).content
    reminders = [m for m in dms(bob) if "reminder" in m.content]
    assert len(reminders) == 1 and f"/{thread.id}/" in reminders[0].content
    assert digests(bob) == []


async def test_a_digest_discord_refused_all_day_gives_way_to_the_next_one(world: World) -> None:
    env, alice, bob = world.env, world.alice, world.bob
    await choose_digest(bob, world, 8, "UTC")
    thread = await world.start_game(size=5, days=7)
    await world.move(alice, thread, "a1")
    env.inject_error("POST", f"/channels/{bob.user.dm_channel.id}/messages", status=500, times=None)
    await advance_to(env, datetime(2026, 1, 2, 5, tzinfo=UTC))  # 21 hours of failures
    env.backend.faults.clear()
    await advance(env, timedelta(hours=2))  # 07:00: the stale digest was dropped, not sent
    assert digests(bob) == []
    await advance_to(env, datetime(2026, 1, 2, 8, 1, tzinfo=UTC))
    assert len(digests(bob)) == 1
    assert await env.bot.services.outbox.pending() == 0
