"""Discord failing at the worst moment: right after the database accepted a change.

Every announcement goes through the outbox, so once Discord works again each arrives exactly once,
in order, and nobody loses on time or has a game aborted because of the failure. discord.py itself
would retry a 5xx, but SimCord's faults reach the bot directly: each injected failure is one
failed attempt.
"""

from __future__ import annotations

import logging
from datetime import timedelta

import discord
import pytest
import simcord

from bot.notifications.outbox import PAYLOADS
from cogs.delivery.courier import courier_of
from cogs.delivery.table import GameTable
from tests.cogs.commands.test_tournament import WHITE_ROAD, Club
from tests.cogs.conftest import World, advance


@pytest.fixture
async def club(world: World) -> Club:
    return Club(world)


def fail_posts(
    env: simcord.Env,
    place: simcord.ChannelHandle | int,
    status: int = 500,
    times: int | None = 1,
    code: int = 0,
) -> None:
    place_id = place if isinstance(place, int) else place.id
    env.inject_error(
        "POST", f"/channels/{place_id}/messages", status=status, code=code, times=times
    )


def discord_works_again(env: simcord.Env) -> None:
    env.backend.faults.clear()


def contents(world: World, place: simcord.ChannelHandle) -> list[str]:
    return [m.content for m in world.bot_messages(place)]


def count(texts: list[str], part: str) -> int:
    return sum(part in text for text in texts)


@pytest.mark.parametrize("restart", [False, True], ids=["retried", "retried-after-a-restart"])
async def test_a_failed_board_post_after_a_move_is_retried_once_discord_works(
    world: World, new_bot, restart: bool
) -> None:
    env, alice, bob = world.env, world.alice, world.bob
    thread = await world.start_game(size=5)
    fail_posts(env, thread)
    played = await world.move(alice, thread, "a1")
    assert played.response.content == (
        "Your move a1 in game #1 was recorded, but I couldn't post it in the game's thread; "
        "I'll keep trying."
    )
    assert count(contents(world, thread), ". a1**") == 0
    assert (await env.bot.services.games.get(1)).ply == 1  # the move counted

    if restart:
        await env.restart_bot(new_bot())
    await advance(env, timedelta(seconds=31))
    posts = contents(world, thread)
    assert count(posts, ". a1**") == 1
    assert bob.mention in posts[-1]
    answered = await world.move(bob, thread, "e5")
    assert answered.response is None  # the post where they moved says it
    assert [p for p in contents(world, thread) if p.startswith("**1")] == [
        posts[-1],
        contents(world, thread)[-1],
    ]
    assert await env.bot.services.outbox.pending() == 0


async def test_match_game_one_won_while_discord_is_down_game_two_waits_for_it(
    world: World,
) -> None:
    """The winning move of game 1 is saved while every post fails for two days: game 2 is
    created at once but is neither announced nor aborted; when Discord is back the ending comes,
    then game 2's start, once each, and game 2's clock starts from then."""
    env, alice = world.env, world.alice
    thread = await world.start_game(size=3, games=2, days=1, komi=0)
    *opening, winning = WHITE_ROAD.split()
    for ply, text in enumerate(opening):
        await world.move((alice, world.bob)[ply % 2], thread, text)
    fail_posts(env, thread, times=None)
    won = await world.move(alice, thread, winning)
    assert "was recorded, but I couldn't post it" in won.response.content

    await advance(env, timedelta(days=2))
    services = env.bot.services
    game_two = await services.games.get(2)
    assert game_two.is_active and game_two.match_game == 2  # not aborted for want of a move
    assert count(contents(world, thread), "Game #2") == 0

    discord_works_again(env)
    await advance(env, timedelta(hours=1))
    posts = contents(world, thread)
    [ending] = [i for i, text in enumerate(posts) if "Game #1 is over" in text]
    [start] = [i for i, text in enumerate(posts) if "Match game 2 of 2 (game #2) starts" in text]
    assert ending < start
    game_two = await services.games.get(2)
    assert game_two.deadline_at is not None
    assert game_two.deadline_at >= services.clock.now() + timedelta(hours=23)
    assert await services.outbox.pending() == 0


async def test_a_new_tournament_round_posted_late_loses_nobody_on_time(club: Club) -> None:
    """The game that completes round 1 is won while the tournament's channel and the game's
    thread refuse every post: round 2 begins in the database but nobody hears of it for two
    days. Then the round, its anchors and games arrive once each and nobody lost on time."""
    env = club.env
    await club.sign_up_and_start(games=1, days=1)
    first, second = await club.active_games()
    await club.win(first, first.white.id)
    *opening, winning = WHITE_ROAD.split()
    await club.play(second.id, " ".join(opening))
    fail_posts(env, club.channel, times=None)
    fail_posts(env, second.thread_id or 0, times=None)
    stored = await club.services.games.get(second.id)
    mover = club.by_id[stored.player_to_move.id]
    late = await mover.slash(club.thread(stored.thread_id), "tak move", ptn=winning)
    assert "was recorded, but I couldn't post it" in late.response.content

    await advance(env, timedelta(days=2))
    round_two = [g for g in await club.active_games() if g.id not in (first.id, second.id)]
    assert len(round_two) == 2 and all(g.is_active and g.ply == 0 for g in round_two)
    titles = [e.title for m in club.channel_posts() for e in m.embeds]
    assert "Spring Open: round 2 of 3" not in titles

    discord_works_again(env)
    await advance(env, timedelta(hours=1))
    posts = club.channel_posts()
    titles = [e.title for m in posts for e in m.embeds]
    assert titles.count("Spring Open: round 2 of 3") == 1
    round_post = next(i for i, m in enumerate(posts) for e in m.embeds if "round 2" in e.title)
    anchors = [i for i, m in enumerate(posts) if "round 2:" in m.content]
    assert len(anchors) == 2 and all(round_post < i for i in anchors)
    for game in round_two:
        stored = await club.services.games.get(game.id)
        assert stored.thread_id is not None and stored.is_active
        starts = [
            m
            for m in club.world.bot_messages(club.thread(stored.thread_id))
            if f"Game #{game.id}" in m.content and "starts" in m.content
        ]
        assert len(starts) == 1
    assert await club.services.outbox.pending() == 0


async def test_a_deleted_thread_moves_the_game_to_its_channel(world: World) -> None:
    env, alice, bob = world.env, world.alice, world.bob
    thread = await world.start_game(size=5, days=1)
    await world.move(alice, thread, "a1")
    env.backend.delete_channel(thread.id)
    await env.settle()

    played = await world.move(bob, world.channel, "e5", game=1)
    assert played.response.content.startswith(
        "You played **e5** in game #1 (the game's thread is gone or closed to me, so elsewhere): "
    )
    assert count(contents(world, world.channel), ". e5**") == 1
    assert (await env.bot.services.games.get(1)).thread_id is None  # from now on, the channel

    await advance(env, timedelta(days=1, minutes=1))
    posts = contents(world, world.channel)
    assert count(posts, "reminder: it is your move in game #1") == 1
    assert count(posts, "Time is up.") == 1


async def test_a_thread_closed_to_the_bot_falls_back_to_the_channel_then_to_dms(
    world: World,
) -> None:
    env, alice, bob = world.env, world.alice, world.bob
    thread = await world.start_game(size=5)
    fail_posts(env, thread, status=403, code=50013, times=None)
    played = await world.move(alice, thread, "a1")
    assert "(the game's thread is gone or closed to me, so elsewhere): https" in (
        played.response.content
    )
    assert count(contents(world, world.channel), ". a1**") == 1

    fail_posts(env, world.channel, status=403, code=50013, times=None)
    answered = await world.move(bob, thread, "e5")
    assert "You played **e5**" in answered.response.content
    for player in (alice, bob):
        dm = player.user.dm_channel.history()[-1]
        assert "I could not post this in the game's channel" in dm.content
        assert ". e5**" in dm.content and dm.attachments


@pytest.mark.error_logs
async def test_an_announcement_nobody_can_receive_is_logged_and_blocks_nothing(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    env, alice, bob = world.env, world.alice, world.bob
    thread = await world.start_game(size=5)
    other = await world.start_game(size=5, opponent=world.carol)
    for place in (thread, world.channel, alice.user.dm_channel, bob.user.dm_channel):
        fail_posts(env, place, status=403, code=50013, times=None)
    with caplog.at_level(logging.ERROR):
        played = await world.move(alice, thread, "a1")
    recorded, next_game = played.response.content.splitlines()
    assert recorded == (
        "Your move a1 in game #1 was recorded, but Discord refused the post everywhere (the "
        "game's thread, its channel and the players' DMs); a server manager should check my "
        "permissions."
    )
    assert next_game.startswith("Next: game #2 against carol, ply 0 (time runs out <t:")
    assert "Could not deliver announcement" in caplog.text and "game:1" in caplog.text
    assert await env.bot.services.outbox.pending() == 0  # given up, not stuck
    other_move = await world.move(alice, other, "a1")
    assert other_move.response is None  # game 2 posts where she moved


async def test_a_failed_reminder_holds_the_time_out_until_it_is_delivered(world: World) -> None:
    env, alice, bob = world.env, world.alice, world.bob
    thread = await world.start_game(size=5, days=1)
    await world.move(alice, thread, "a1")
    await world.move(bob, thread, "e5")
    fail_posts(env, thread, times=None)
    await advance(env, timedelta(days=1, hours=6))  # past the reminder and the deadline
    services = env.bot.services
    assert (await services.games.get(1)).is_active
    discord_works_again(env)
    await advance(env, timedelta(hours=1))
    posts = contents(world, thread)
    assert count(posts, "reminder: it is your move in game #1") == 1
    assert (await services.games.get(1)).is_active  # alice got her time back
    await advance(env, timedelta(days=1))
    assert count(contents(world, thread), "Time is up.") == 1


@pytest.mark.parametrize(
    ("denied", "named"),
    [
        ("send_messages", "Send Messages"),
        ("attach_files", "Attach Files"),
        ("create_public_threads", "Create Public Threads"),
    ],
)
async def test_no_challenge_where_the_bot_cannot_show_the_game(
    world: World, denied: str, named: str
) -> None:
    env = world.env
    me = world.guild.me
    assert me is not None
    closed = world.guild.create_text_channel(
        "closed", overwrites={me: discord.PermissionOverwrite(**{denied: False})}
    )
    await env.settle()
    result = await world.alice.slash(closed, "tak challenge", opponent=world.bob)
    assert result.ephemeral
    assert f"I'm missing the {named}" in result.response.content
    assert await env.bot.services.db.fetchall("SELECT id FROM challenges") == []
    assert world.bot_messages(closed) == []


async def test_a_challenge_discord_refuses_to_post_is_withdrawn(world: World) -> None:
    env = world.env
    fail_posts(env, world.channel, status=403, code=50013, times=1)
    result = await world.alice.slash(world.channel, "tak challenge", opponent=world.bob)
    assert "I couldn't post the challenge here" in result.response.content
    [row] = await env.bot.services.db.fetchall("SELECT status FROM challenges")
    assert row["status"] == "cancelled"


async def test_a_loss_on_time_posted_late_is_posted_once(world: World, new_bot) -> None:
    """The time-out is saved while its post fails, across a restart: it arrives once after."""
    env, alice, bob = world.env, world.alice, world.bob
    thread = await world.start_game(size=5, days=1)
    await world.move(alice, thread, "a1")
    await world.move(bob, thread, "e5")
    await advance(env, timedelta(hours=20))  # the reminder, delivered
    fail_posts(env, thread, times=None)
    await advance(env, timedelta(hours=5))  # past the deadline: the time-out is saved
    services = env.bot.services
    assert not (await services.games.get(1)).is_active
    assert count(contents(world, thread), "Time is up.") == 0
    await env.restart_bot(new_bot())
    discord_works_again(env)
    await advance(env, timedelta(hours=1))
    assert count(contents(world, thread), "Time is up.") == 1
    assert await env.bot.services.outbox.pending() == 0


async def test_an_offer_sent_by_dm_then_a_move_posts_the_board_once(world: World) -> None:
    env, alice, bob = world.env, world.alice, world.bob
    thread = await world.start_game(size=5)
    await world.move(alice, thread, "a1")
    fail_posts(env, thread, status=403, code=50013, times=None)
    fail_posts(env, world.channel, status=403, code=50013, times=None)
    await alice.slash(thread, "tak draw")  # the offer reaches both players by DM
    assert "offers a draw" in bob.user.dm_channel.history()[-1].content
    played = await world.move(bob, thread, "e5")  # cancels the offer, which has no buttons to lose
    assert "You played **e5**" in played.response.content
    boards = [m for m in alice.user.dm_channel.history() if ". e5**" in m.content]
    assert len(boards) == 1
    assert await env.bot.services.outbox.pending() == 0


async def test_a_failing_courtesy_dm_does_not_post_the_board_again(world: World) -> None:
    env, alice, bob = world.env, world.alice, world.bob
    await bob.slash(world.channel, "profile settings", notify="dm")
    thread = await world.start_game(size=5)
    fail_posts(env, bob.user.dm_channel, status=500, times=None)
    await world.move(alice, thread, "a1")
    await advance(env, timedelta(seconds=120))
    assert count(contents(world, thread), ". a1**") == 1
    assert await env.bot.services.outbox.pending() == 0


async def test_a_late_turn_notice_shows_the_deadline_that_holds(world: World) -> None:
    env, alice = world.env, world.alice
    thread = await world.start_game(size=5, days=1)
    fail_posts(env, thread, times=None)
    await world.move(alice, thread, "a1")
    await advance(env, timedelta(hours=30))  # Discord is down past bob's deadline
    discord_works_again(env)
    await advance(env, timedelta(hours=1))
    [notice] = [m for m in world.bot_messages(thread) if ". a1**" in m.content]
    shown = int(notice.content.split("<t:")[1].split(":")[0])
    assert shown > notice.created_at.timestamp() + 20 * 3600  # about a day from now, not past
    stored = (await env.bot.services.games.get(1)).deadline_at
    assert stored is not None and int(stored.timestamp()) == shown


@pytest.mark.error_logs
async def test_a_deleted_tournament_channel_gives_up_the_news_and_dms_the_games(
    club: Club, caplog: pytest.LogCaptureFixture
) -> None:
    env = club.env
    await club.sign_up_and_start(games=1, days=1)
    first, second = await club.active_games()
    await club.win(first, first.white.id)
    *opening, winning = WHITE_ROAD.split()
    await club.play(second.id, " ".join(opening))
    lobby = club.world.guild.create_text_channel("lobby")
    env.backend.delete_channel(club.channel.id)  # its game threads go with it
    await env.settle()
    stored = await club.services.games.get(second.id)
    mover = club.by_id[stored.player_to_move.id]
    await mover.slash(lobby, "tak move", ptn=winning, game=second.id)
    await advance(env, timedelta(seconds=60))
    assert "tournament:1" in caplog.text and "Could not deliver announcement" in caplog.text
    assert await club.services.outbox.pending() == 0  # nothing stuck
    started = [
        m.content
        for player in club.players
        for m in player.user.dm_channel.history()
        if "starts" in m.content
    ]
    assert len(started) == 4  # round 2's two games, each to both players


async def test_a_declined_challenge_is_shown_declined_even_if_discord_fails_first(
    world: World,
) -> None:
    env = world.env
    message = await world.challenge(opponent=world.bob)
    env.inject_error("PATCH", f"/channels/{world.channel.id}/messages/{message.id}", times=1)
    await world.bob.click(message, label="Decline")
    assert (await env.bot.services.challenges.get(1)).status.value == "declined"
    await advance(env, timedelta(seconds=31))
    shown = next(m for m in world.bot_messages(world.channel) if m.id == message.id)
    assert shown.content.endswith("Declined.") and shown.components == []
    assert await env.bot.services.outbox.pending() == 0


async def test_a_new_tournament_whose_announcement_fails_is_announced_once_discord_works(
    club: Club,
) -> None:
    """The tournament is saved while its channel refuses the sign-up post: the organizer is told
    it will follow, and it does, once."""
    env = club.env
    fail_posts(env, club.channel)
    created = await club.create()
    assert created.response.content == (
        "**Spring Open** is open for sign-up, but I couldn't announce it here yet; I'll keep "
        "trying. Start it with `/organize start` once the players are in."
    )
    titles = [e.title for m in club.channel_posts() for e in m.embeds]
    assert "New tournament: Spring Open" not in titles
    joined = await club.world.alice.slash(club.channel, "tournament join")
    assert joined.response.content.startswith("You are in")  # the tournament exists

    await advance(env, timedelta(seconds=31))
    titles = [e.title for m in club.channel_posts() for e in m.embeds]
    assert titles.count("New tournament: Spring Open") == 1
    assert await club.services.outbox.pending() == 0


async def test_every_kind_of_announcement_has_a_presenter(world) -> None:
    bot = world.env.bot
    assert courier_of(bot).table.unshown_kinds() == []
    bare = GameTable(bot, bot.services)  # before any presenter has registered
    assert bare.unshown_kinds() == sorted(PAYLOADS)
