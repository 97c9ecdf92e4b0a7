"""The analysis post's graph names the players it plots (not "W/B") and its unit."""

from __future__ import annotations

from cogs.analysis import graph_of
from rendering.evaluation import graph_layout, render_evaluation_graph
from tests.discord.conftest import World
from tests.discord.test_discord_analysis import finished_game

POSTED = "**Analysis of game #1**"


async def test_the_posted_graph_names_white_and_black(world: World) -> None:
    thread = await finished_game(world)
    await world.alice.slash(world.channel, "game analysis", game=1)
    await world.env.settle()
    [post] = [m for m in world.bot_messages(thread) if POSTED in m.content]
    services = world.env.bot.services
    game = await services.games.get(1)
    stored = await services.analysis.get(1)
    assert stored is not None and stored.findings is not None
    graph = graph_of(game, stored.findings)
    assert (graph.white, graph.black) == (game.white.name, game.black.name)
    axis = graph_layout(graph).picture.labelled("y-axis").text
    assert axis == f"Flats ahead: ▲ {game.white.name} (White) · ▼ {game.black.name} (Black)"
    assert await post.attachments[0].read() == render_evaluation_graph(graph)
