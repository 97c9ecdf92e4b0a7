"""Post-game analysis in Discord: `/game analysis game:` and the post in the game's thread.

The request is queued (:mod:`bot.computer.analysis_queue`) and worked by
:class:`bot.computer.analyst.Analyst`
in the worker processes; the result is an outbox announcement
(:class:`~bot.notifications.outbox.AnalysisReady`) shown here: the evaluation graph, the annotated
PTN
as a file and the biggest swings, in the game's thread. Asking for a finished analysis again
shows it from storage, privately.

Also the note under a game ended by the ply limit (:func:`bot.play.service.ply_limit_result`):
a game that reaches the longest record every tool here reads ends by the flat count, and its
ending says so.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import BredonBot, acting
from bot.computer.analysis_queue import Findings, Queued, wait_text
from bot.computer.analyst import Analyst
from bot.computer.player import Thinker
from bot.engine_sentences import swing_line
from bot.games.model import GameView
from bot.languages import _
from bot.notifications.outbox import AnalysisReady, Item
from cogs.courier import Courier
from cogs.game_messages import players_line
from cogs.table import GameTable, Post, Shown
from rendering.evaluation import EvaluationGraph, GraphWords, render_evaluation_graph

MAX_MESSAGE = 2000


def graph_words() -> GraphWords:
    """The graph's words in the language spoken."""
    return GraphWords(
        axis=_("Flats ahead: ▲ {white} (White) · ▼ {black} (Black)"),
        ply=_("Ply"),
        white=_("White"),
        black=_("Black"),
        marks=(("??", _("blunder")), ("?", _("mistake")), ("!", _("Tinuë found"))),
    )


def graph_of(game: GameView, findings: Findings) -> EvaluationGraph:
    result = f" · {game.result.ptn()}" if game.result is not None else ""
    return EvaluationGraph(
        _("{white} vs {black}", white=game.white.name, black=game.black.name),
        tuple(score / 100 for score in findings.evaluations),
        findings.marks,
        _(
            "Game #{game} · {size}x{size}{result} · {evaluator}",
            game=game.id,
            size=game.setup.size,
            result=result,
            evaluator=findings.evaluator,
        ),
        white=game.white.name,
        black=game.black.name,
        words=graph_words(),
    )


def analysis_text(game: GameView, findings: Findings) -> str:
    """The post: who evaluated, how many marks, and the biggest swings."""
    counts = [
        f"{findings.marks.count(mark)} {mark}"
        for mark in ("??", "?", "!")
        if mark in findings.marks
    ]
    lines = [
        _(
            "**Analysis of game #{game}**: {players}, evaluated by {evaluator}. Marks: {marks}.",
            game=game.id,
            players=players_line(game),
            evaluator=findings.evaluator,
            marks=", ".join(counts) or _("none"),
        ),
    ]
    if findings.summary:
        lines.append(_("Biggest swings (flats, + is White ahead):"))
        lines += [f"- {swing_line(line)}" for line in findings.summary]
    lines.append(_("The annotated game is attached: open it in ptn.ninja to step through it."))
    return "\n".join(lines)[:MAX_MESSAGE]


def queued_text(queued: Queued, game_id: int) -> str:
    wait = wait_text(queued.estimate_seconds)
    ahead = _(" ({count} ahead of it)", count=queued.ahead) if queued.ahead else ""
    if queued.new:
        return _(
            "Analysis of game #{game} queued{ahead}: it will be posted in its thread in {wait}.",
            game=game_id,
            ahead=ahead,
            wait=wait,
        )
    return _(
        "Game #{game} is already queued for analysis{ahead}: expect it in {wait}.",
        game=game_id,
        ahead=ahead,
        wait=wait,
    )


class AnalysisCog(commands.Cog):
    """`/game analysis` and the analyses' posts; it works in the bot player's worker processes
    (`thinker`)."""

    def __init__(self, bot: BredonBot, courier: Courier, thinker: Thinker) -> None:
        self.bot = bot
        self.courier = courier
        self.table: GameTable = courier.table
        self.thinker = thinker
        self.analyst: Analyst | None = None

    async def cog_load(self) -> None:
        self.table.register(AnalysisReady, self.show)
        self.analyst = Analyst(
            self.bot.services.analysis,
            self.thinker,
            self.courier.kick,
            engine=self.bot.settings.engine,
            nodes=self.bot.settings.analysis_nodes,
        )
        self.analyst.start()  # it needs the database only, not Discord

    async def close(self) -> None:
        if self.analyst is not None:
            await self.analyst.stop()
            self.analyst = None

    async def cog_unload(self) -> None:
        await self.close()

    async def _files(self, game: GameView, findings: Findings, viewer_id: int | None) -> Post:
        theme = await self.table.theme_for(viewer_id)
        png = await self.table.draw(render_evaluation_graph, graph_of(game, findings), theme)
        ptn = (f"bredon-{game.id}-analysis.ptn", findings.ptn.encode())
        return Post(
            analysis_text(game, findings), png, f"bredon-{game.id}-analysis.png", more=(ptn,)
        )

    async def show(self, item: Item, ready: AnalysisReady) -> Shown:
        services = self.bot.services
        game = await services.games.get(ready.game_id)
        stored = await services.analysis.get(ready.game_id)
        assert stored is not None and stored.findings is not None
        post = await self._files(game, stored.findings, None)
        return await self.table.post_for_game(item, game, post)

    @app_commands.describe(game="The game's number (#), a finished game of this server")
    async def analysis(
        self, interaction: discord.Interaction, game: app_commands.Range[int, 1]
    ) -> None:
        """A finished game analysed: evaluation graph and annotated PTN"""
        async with acting(interaction):
            services = self.bot.services
            settings = self.bot.settings
            queued = await services.analysis.request(
                game,
                interaction.guild_id or 0,
                interaction.user.id,
                fair_use=settings.fair_use,
                nodes=settings.analysis_nodes,
            )
            findings = queued.analysis.findings
            if findings is None:
                if self.analyst is not None:
                    self.analyst.kick()
                await interaction.followup.send(queued_text(queued, game), ephemeral=True)
                return
            view = await services.games.get(game)
            post = await self._files(view, findings, interaction.user.id)
            await interaction.followup.send(post.text, ephemeral=True, **post.kwargs())
