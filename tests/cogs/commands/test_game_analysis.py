"""`/game analysis` through the real discord.py: a finished game's analysis is queued, worked in
the worker processes and posted in the game's thread (graph + annotated PTN); asked again, it is
shown from storage; across a restart and after a 500 on the post, it still arrives once."""

from __future__ import annotations

import io
from datetime import timedelta

from PIL import Image

from tak.ptn import Game
from tests.cogs.commands.test_tournament import WHITE_ROAD
from tests.cogs.conftest import World, advance
from tests.cogs.delivery.test_courier import contents, count, fail_posts

POSTED = "**Analysis of game #1**"


async def finished_game(world: World):
    """Alice (white) beats Bob by road on 3x3 (her last ply blunders nothing: Bob's do)."""
    thread = await world.start_game(size=3)
    for number, move in enumerate(WHITE_ROAD.split()):
        await world.move(world.alice if number % 2 == 0 else world.bob, thread, move)
    game = await world.env.bot.services.games.get(1)
    assert not game.is_active
    return thread


async def analysis_post(world: World, thread):
    [post] = [m for m in world.bot_messages(thread) if POSTED in m.content]
    graph, ptn = post.attachments
    image = Image.open(io.BytesIO(await graph.read()))
    assert image.format == "PNG" and image.size == (800, 520)
    return post, Game.parse((await ptn.read()).decode())


async def test_a_finished_game_is_analysed_and_posted_in_its_thread(world: World) -> None:
    alice, bob = world.alice, world.bob
    thread = await world.start_game(size=3)
    early = await alice.slash(thread, "game analysis", game=1)
    assert early.response.content == "Game #1 is still being played."
    for number, move in enumerate(WHITE_ROAD.split()):
        await world.move(alice if number % 2 == 0 else bob, thread, move)

    asked = await bob.slash(world.channel, "game analysis", game=1)
    assert asked.ephemeral
    assert asked.response.content.startswith("Analysis of game #1 queued: it will be posted")
    await world.env.settle()
    post, annotated = await analysis_post(world, thread)
    assert "evaluated by Bredon (built-in)" in post.content
    # Black's 2... b3 (a Tak of its own) let White's road through (c1): named, a blunder.
    assert "2... b3'?? (Allows a road in one: c1.)" in post.content
    assert [p.move.ptn() for p in annotated.plies] == WHITE_ROAD.split()
    assert annotated.plies[3].marks.endswith("??")
    assert annotated.plies[3].comments == ["Allows a road in one: c1."]
    assert annotated.comments[0] == "Annotated by Bredon"

    again = await alice.slash(world.channel, "game analysis", game=1)  # shown from storage
    assert again.ephemeral and POSTED in again.response.content
    assert len(again.response.attachments) == 2
    assert count(contents(world, thread), POSTED) == 1  # not posted (nor queued) twice
    row = await world.env.bot.services.db.fetchone("SELECT COUNT(*) AS n FROM analyses")
    assert row["n"] == 1

    unknown = await alice.slash(world.channel, "game analysis", game=9)
    assert unknown.response.content == "There is no game #9."


async def test_asking_twice_queues_once_and_a_restart_resumes_the_work(
    world: World, new_bot
) -> None:
    thread = await finished_game(world)
    # The analyst is stopped: the request is only in the database.
    await world.env.bot.get_cog("AnalysisCog").close()
    first = await world.alice.slash(world.channel, "game analysis", game=1)
    second = await world.bob.slash(world.channel, "game analysis", game=1)
    assert first.response.content.startswith("Analysis of game #1 queued")
    assert second.response.content.startswith("Game #1 is already queued for analysis")
    assert count(contents(world, thread), POSTED) == 0

    # A restart settles only once the resumed analysis is done: a light search (the marks here
    # are exact ones).
    await world.env.restart_bot(new_bot(analysis_nodes=100))
    await world.env.settle()
    await analysis_post(world, thread)
    assert count(contents(world, thread), POSTED) == 1


async def test_a_500_on_the_post_is_retried_once(world: World, caplog) -> None:
    env = world.env
    thread = await finished_game(world)
    fail_posts(env, thread, status=500, times=1)
    # The request settles once the worker process has analysed the game and the post failed;
    # the courier's retry, 30 s later, waits for simulated time.
    await world.alice.slash(world.channel, "game analysis", game=1)
    await advance(env, timedelta(seconds=31))
    refused = [r for r in caplog.records if "(analysis, game:1): 500" in r.getMessage()]
    assert len(refused) == 1  # Discord refused the first post
    await analysis_post(world, thread)
    assert count(contents(world, thread), POSTED) == 1
    assert await env.bot.services.outbox.pending() == 0


async def test_the_post_quotes_the_players_names_without_pinging_or_formatting(
    world: World,
) -> None:
    mallory = world.guild.add_member(
        world.env.create_user("mallory", global_name=f"<@{world.bob.id}> **loud** @everyone")
    )
    thread = await world.start_game(size=3, opponent=mallory)
    for number, move in enumerate(WHITE_ROAD.split()):
        await world.move(world.alice if number % 2 == 0 else mallory, thread, move)
    await world.alice.slash(world.channel, "game analysis", game=1)
    await world.env.settle()
    post, _ = await analysis_post(world, thread)
    assert world.bob.id not in {user.id for user in post.mentions}, post.content
    assert not post.mention_everyone and "\\*\\*loud\\*\\*" in post.content, post.content


async def test_a_game_from_a_position_ended_before_any_move_has_nothing_to_analyse(
    world: World,
) -> None:
    """A game set up from a TPS starts past ply 0: no move of its own is what counts."""
    thread = await world.start_game(size=3, tps="x3/x,1,x/x3 1 2")
    await world.alice.slash(thread, "tak resign")
    [confirm] = [m for m in thread.history(viewer=world.alice) if m.components][-1:]
    await world.alice.click(confirm, label="Resign")
    assert not (await world.env.bot.services.games.get(1)).is_active
    asked = await world.bob.slash(thread, "game analysis", game=1)
    nothing = "Game #1 ended before any move: there is nothing to analyse."
    assert asked.response.content == nothing
    assert await world.env.bot.services.analysis.get(1) is None
