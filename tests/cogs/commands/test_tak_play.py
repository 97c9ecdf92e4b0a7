"""Playing Bredon itself through the real discord.py: `/tak play`, a game to its end, a restart
while the bot is to move, a challenge to the bot's own user, and an engine that dies mid-game."""

from __future__ import annotations

import random
import sys
from datetime import timedelta
from pathlib import Path

import pytest
import simcord

from tak import Position
from tak.engine import Engine
from tests.cogs.conftest import advance
from tests.cogs.delivery.test_courier import contents, count, fail_posts

FAKE_ENGINE = Path(__file__).parents[2] / "tak" / "fake_tei_engine.py"


async def play_bot(world, **options):
    """Alice starts a game against the bot; returns the reply and the game's thread."""
    options.setdefault("level", 1)
    options.setdefault("size", 3)
    result = await world.alice.slash(world.channel, "tak play", **options)
    assert result.ephemeral, result.response.content
    return result, world.channel.threads[-1]


async def alice_plays_on(world, thread, rng: random.Random, plies: int | None = None) -> Position:
    """Alice answers each bot move with a random legal move (the bot's move must be shown
    first), for `plies` of hers or to the end; returns the game's position."""
    services = world.env.bot.services
    game_id = (await services.lookup.game_in_thread(thread.id, world.guild.id)).id
    played = 0
    while plies is None or played < plies:
        game = await services.games.get(game_id)
        if not game.is_active:
            break
        assert game.player_to_move.id == world.alice.id, "the bot did not answer"
        position = await services.games.position(game_id)
        move = rng.choice(position.legal_moves()).ptn()
        result = await world.move(world.alice, thread, move)
        assert result.response is None  # the post where they moved says it
        played += 1
    return await services.games.position(game_id)


async def test_a_whole_game_against_the_bot(world) -> None:
    bot_user = world.env.bot.user
    result, thread = await play_bot(world, level=1, color="black")
    assert "Game #1 against me, level 1 (beginner), is on" in result.response.content
    challenge = world.last_bot_message(world.channel)
    assert challenge.components == []  # accepted at once: no buttons left
    opening = world.bot_messages(thread)[1]
    # white: the bot moved first, placing alice's stone
    assert f"— **{bot_user.name}** placed **alice**'s first stone" in opening.content
    assert world.alice.mention in world.last_bot_message(thread).content

    position = await alice_plays_on(world, thread, random.Random(3))
    assert position.result is not None
    ending = world.last_bot_message(thread)
    assert position.result.ptn() in ending.content
    game = await world.env.bot.services.games.get(1)
    assert not game.setup.rated
    assert await world.env.bot.services.ratings.player(world.guild.id, world.alice.id) == []


async def test_a_restart_while_the_bot_is_to_move(world, new_bot) -> None:
    _, thread = await play_bot(world, level=2, size=4, color="white")
    await alice_plays_on(world, thread, random.Random(1), plies=2)
    services = world.env.bot.services
    # The bot is stopped before it answers Alice's third move.
    await world.env.bot.get_cog("OpponentCog").close()
    await world.move(world.alice, thread, "d4")
    game = await services.games.get(1)
    assert game.ply == 5 and game.player_to_move.id == world.env.bot.user.id

    await world.env.restart_bot(new_bot())
    game = await world.env.bot.services.games.get(1)
    assert game.ply == 6 and game.player_to_move.id == world.alice.id
    assert world.last_bot_message(thread).content.startswith("**3... ")  # the bot's ply 6
    await alice_plays_on(world, thread, random.Random(2), plies=1)


async def test_a_challenge_to_the_bot_is_accepted_at_once(world) -> None:
    env = world.env
    bot_user = simcord.UserHandle(env, env.backend.bot_user)
    bot_member = simcord.MemberActor(env, world.guild, bot_user)
    refused = await world.alice.slash(
        world.channel, "tak challenge", opponent=bot_member, size=3, stakes=True
    )
    assert refused.response.content == "I don't play for coins: challenge me without stakes."
    await world.challenge(opponent=bot_member, size=3, color="white")
    [thread] = world.channel.threads
    game = await world.env.bot.services.games.get(1)
    assert game.black.id == world.env.bot.user.id and not game.setup.rated
    await alice_plays_on(world, thread, random.Random(4), plies=2)


async def test_an_engine_that_dies_mid_game_does_not_stop_it(
    world, new_bot, tmp_path, monkeypatch, caplog
) -> None:
    # The engine's stderr is read for as long as it runs: input from outside, which SimCord
    # must be told of to know the bot is idle meanwhile.
    drain = Engine._drain_stderr

    async def declared(engine: Engine, process: object) -> None:
        await world.env.external_wait(drain(engine, process), reason="a TEI engine's stderr")

    monkeypatch.setattr(Engine, "_drain_stderr", declared)
    marker = tmp_path / "crashed"
    engine = (sys.executable, str(FAKE_ENGINE), "crash-once", str(marker))
    await world.env.restart_bot(new_bot(engine=engine, bot_movetime_ms=200))
    _, thread = await play_bot(world, level=5, size=3, color="white")
    await alice_plays_on(world, thread, random.Random(6), plies=3)
    assert marker.exists()  # the engine crashed on its first search; the game went on
    failures = [r for r in caplog.records if r.name == "tak.engine"]
    assert len(failures) == 1 and "Bredon plays this move itself" in failures[0].getMessage()


async def test_a_rematch_against_the_bot_is_accepted_at_once_at_the_same_level(world) -> None:
    _, thread = await play_bot(world, level=2, size=4, color="black")
    await world.alice.slash(thread, "tak resign")
    [confirm] = [m for m in thread.history(viewer=world.alice) if m.components][-1:]
    await world.alice.click(confirm, label="Resign")
    ending = world.last_bot_message(thread)
    offered = await world.alice.click(ending, label="Rematch")
    assert "Rematch offered" in offered.followups[0].content
    services = world.env.bot.services
    rematch = await services.challenges.get(2)
    assert rematch.rematch_of == 1 and rematch.game_id == 2  # accepted, not left to a poll
    game = await services.games.get(2)
    assert game.white.id == world.alice.id and game.thread_id == world.channel.threads[-1].id
    assert await services.opponent.level_of(2) == 2
    await alice_plays_on(world, world.channel.threads[-1], random.Random(7), plies=2)


async def test_draws_undo_and_pauses_asked_of_the_bot_are_answered_at_once(world) -> None:
    """The bot answers moves only: an offer it never answers would stand while the asker's
    clock runs. It is refused with the reason, and nothing is posted or changed."""
    _, thread = await play_bot(world, level=1, size=5, color="black")
    await alice_plays_on(world, thread, random.Random(1), plies=1)
    posted = len(world.bot_messages(thread))
    for command, answer in (
        ("tak draw", "I don't agree to draws: play on, or resign with `/tak resign`."),
        ("tak undo", "I don't take moves back: play on, or resign with `/tak resign`."),
        ("clock pause", "I don't pause games: `/clock vacation start` stops your clocks."),
    ):
        asked = await world.alice.slash(thread, command)
        assert asked.ephemeral and asked.response.content == answer
    game = await world.env.bot.services.games.get(1)
    assert (game.draw_offer_by, game.undo_request_by, game.pause_offer_by) == (None, None, None)
    assert len(world.bot_messages(thread)) == posted


async def test_the_bots_move_is_saved_and_shown_once_when_discord_fails_its_post(
    world, new_bot
) -> None:
    """The bot answers Alice's move (after a restart) while Discord fails its post: the move is
    saved at once and shown, once, when Discord works again; then play goes on."""
    _, thread = await play_bot(world, level=1, size=4, color="white")
    await world.env.bot.get_cog("OpponentCog").close()
    await world.move(world.alice, thread, "a1")
    fail_posts(world.env, thread, times=1)
    await world.env.restart_bot(new_bot())
    services = world.env.bot.services
    game = await services.games.get(1)
    assert game.ply == 2 and game.player_to_move.id == world.alice.id
    bot_move = f"**1... {game.last_move}**"
    assert count(contents(world, thread), bot_move) == 0
    await advance(world.env, timedelta(seconds=31))
    assert count(contents(world, thread), bot_move) == 1
    assert world.alice.mention in world.last_bot_message(thread).content
    assert await services.outbox.pending() == 0
    await alice_plays_on(world, thread, random.Random(8), plies=1)


async def test_games_against_the_bot_stay_out_of_the_all_time_scores(world) -> None:
    """docs/players.md: the points of a game against the bot count in the game and its match
    only."""
    _, thread = await play_bot(world, level=1, size=3, color="white")
    await world.alice.slash(thread, "tak resign")
    [confirm] = [m for m in thread.history(viewer=world.alice) if m.components][-1:]
    await world.alice.click(confirm, label="Resign")
    assert "TestBot scores" in world.last_bot_message(thread).content
    scores = (await world.alice.slash(thread, "profile scores")).response.content
    assert scores.startswith("alice has no finished games in this server yet."), scores
    bot_member = simcord.MemberActor(
        world.env, world.guild, simcord.UserHandle(world.env, world.env.backend.bot_user)
    )
    theirs = await world.alice.slash(thread, "profile scores", user=bot_member)
    assert theirs.response.content.startswith(
        "Games against me count in their own game and match only: I keep no score."
    )


@pytest.mark.error_logs
async def test_the_bot_answers_a_move_whose_post_discord_refused_everywhere(world) -> None:
    """A move given up (thread, channel and DMs all refuse it) is settled like a shown one: the
    bot answers it at once, not at its next look at the database minutes later."""
    _, thread = await play_bot(world, level=1, size=4, color="black")
    for place in (thread, world.channel, world.alice.user.dm_channel):
        fail_posts(world.env, place, status=403, code=50013, times=None)
    played = await world.move(world.alice, thread, "a1")
    assert "Discord refused the post everywhere" in played.response.content
    game = await world.env.bot.services.games.get(1)
    assert game.ply == 3 and game.player_to_move.id == world.alice.id  # the bot has answered
