"""A finished analysis, in the game's thread: the evaluation graph, the annotated PTN as a file and
the biggest swings (asked for again, the same post privately:
:mod:`cogs.commands.game_analysis`)."""

from __future__ import annotations

from functools import partial

from bot.computer.analysis_queue import Findings
from bot.games.model import GameView
from bot.notifications.outbox import AnalysisReady, Item
from cogs.delivery.table import GameTable, Post, Shown
from cogs.words.analysis_messages import analysis_text, graph_of
from rendering.evaluation import render_evaluation_graph


async def analysis_post(
    table: GameTable, game: GameView, findings: Findings, viewer_id: int | None
) -> Post:
    """The graph in the viewer's theme (the server's default for a post), the text and the PTN."""
    theme = await table.theme_for(viewer_id)
    png = await table.draw(render_evaluation_graph, graph_of(game, findings), theme)
    ptn = (f"bredon-{game.id}-analysis.ptn", findings.ptn.encode())
    return Post(analysis_text(game, findings), png, f"bredon-{game.id}-analysis.png", more=(ptn,))


async def show_analysis(table: GameTable, item: Item, ready: AnalysisReady) -> Shown:
    services = table.services
    game = await services.games.get(ready.game_id)
    stored = await services.analysis.get(ready.game_id)
    assert stored is not None and stored.findings is not None
    post = await analysis_post(table, game, stored.findings, None)
    return await table.post_for_game(item, game, post)


def register(table: GameTable) -> None:
    table.register(AnalysisReady, partial(show_analysis, table))
