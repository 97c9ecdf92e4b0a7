"""What the bot says about an analysis: the post's text, the evaluation graph's words, and how
long a queued analysis will take."""

from __future__ import annotations

from bot.computer.analysis_queue import Findings, Queued, wait_text
from bot.engine_sentences import swing_line
from bot.games.model import GameView
from bot.languages import _
from cogs.words.game_messages import players_line
from rendering.evaluation import EvaluationGraph, GraphWords

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
