"""The analysis post's graph names the players it plots (not "W/B") and its unit."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.languages import speaking
from cogs.words.analysis_messages import graph_of, graph_words
from rendering import THEMES
from rendering.evaluation import graph_layout, render_evaluation_graph
from tests.cogs.commands.test_game_analysis import finished_game
from tests.cogs.conftest import World
from tests.rendering.test_render_pictures import (
    EVALUATIONS,
    assert_drawn,
    check_legible,
    decoded,
)

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


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_the_graph_in_german_draws_its_words_whole(theme: str) -> None:
    """The German axis, unit and legend are drawn (not clipped) and legible in every theme,
    with a mark of each kind in the legend side by side."""
    with speaking("de"):
        words = graph_words()
    marks = tuple("??" if i == 9 else "?" if i == 19 else "!" if i == 29 else "" for i in range(30))
    graph = replace(EVALUATIONS, scores=EVALUATIONS.scores[:31], marks=marks, words=words)
    layout = graph_layout(graph, theme)
    picture = layout.picture
    image = decoded(render_evaluation_graph(graph, theme))
    axis = assert_drawn(image, picture, "y-axis")
    assert axis.text == "Liegende Steine vorn: ▲ Alice (Weiß) · ▼ Bob (Schwarz)"
    assert assert_drawn(image, picture, "x-axis").text == "Halbzug"
    legend = [assert_drawn(image, picture, f"legend:{mark}").text for mark in ("??", "?", "!")]
    assert legend == ["?? Patzer", "? Fehler", "! Tinuë gefunden"]
    unit = picture.labelled("x-axis").box()
    assert picture.labelled("legend:!").box()[2] < unit[0]  # the legend stops before the unit
    check_legible(picture)
