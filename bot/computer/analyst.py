"""The analyst: analyses the games queued by `/game analysis`, one at a time, off the event loop.

The search runs in the bot's worker processes (:class:`bot.computer.player.Thinker`, bounded by
``BREDON_BOT_WORKERS`` and shared with the bot's moves). The queue is the database
(:mod:`bot.computer.analysis_queue`): every look (at the start, when kicked after a request, and at
least daily) takes the longest-waiting game, so a restart resumes the work queued.

With ``BREDON_ENGINE`` set, the positions are evaluated by the TEI engine when it reports scores
(``info ... score cp``); an engine that is missing, fails or reports none leaves the whole game to
Bredon's own player, so that one graph never mixes two scales. The exact checks (roads in one,
Tinuë) are always Bredon's own.

A store that cannot answer (:func:`bot.work.waking.store_outage`) fails no analysis: the game
stays queued and the loop looks again when the store is back; only a bug marks one failed.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence

from bot.computer.analysis_queue import AnalysisService, Findings
from bot.computer.player import Thinker
from bot.work.waking import Waker, store_outage
from tak.analysis import DEFAULT_NODES, analyse, describe, evaluate_position, white_score
from tak.engine import BUILTIN, Engine, EngineError, EngineUnsupportedGame
from tak.ptn import Game
from tak.search import Limits

log = logging.getLogger(__name__)

# A request kicks the analyst of the process that took it, and each start looks: a daily look
# is only for work left by a process that stopped. (A look after a failure comes sooner.)
POLL_SECONDS = 86_400.0
RETRY_SECONDS = 600.0
ENGINE_MOVETIME_MS = 300  # per position: a 60-ply game in about 20 s
SWINGS = 3  # in the summary
_TEI_TAGS = ("flats", "flats1", "flats2", "caps", "caps1", "caps2", "opening")


def analyse_ptn(
    ptn: str, nodes: int, evaluations: Sequence[int] | None, evaluator: str
) -> Findings:
    """The whole analysis of one game, as plain data: what a worker process runs."""
    game = Game.parse(ptn)
    analysis = analyse(game, nodes=nodes, evaluations=evaluations)
    start = game.start()
    return Findings(
        evaluator,
        analysis.evaluations,
        tuple(note.mark for note in analysis.notes),
        analysis.ptn(),
        tuple(describe(note, start) for note in analysis.swings(SWINGS)),
    )


class Analyst:
    """Works through the analysis queue, one game at a time."""

    def __init__(
        self,
        service: AnalysisService,
        thinker: Thinker,
        on_change: Callable[[], None],
        *,
        engine: Sequence[str] | None = None,
        nodes: int = DEFAULT_NODES,
        poll_seconds: float = POLL_SECONDS,
    ) -> None:
        self._service = service
        self._thinker = thinker
        self._on_change = on_change  # an announcement was written
        self._command = list(engine) if engine else None
        self._engine: Engine | None = None
        self.nodes = nodes
        self._poll_seconds = poll_seconds
        self._waker = Waker()

    def start(self, before: Callable[[], Awaitable[object]] | None = None) -> None:
        self._waker.start(
            self._look,
            before,
            failure="The analyst's look at its queue failed; looking again later.",
            retry_after=RETRY_SECONDS,
            name="bredon-analyst",
        )

    async def stop(self) -> None:
        await self._waker.halt()
        await self._close_engine()

    def kick(self) -> None:
        self._waker.kick()

    async def _look(self) -> float:
        for game_id in await self._service.queued(1):
            await self.analyse(game_id)
            return 0.0  # maybe more waiting
        return self._poll_seconds

    async def analyse(self, game_id: int) -> None:
        """Analyse one queued game and store the result (a bug marks it failed, never loops; a
        store that cannot answer raises, the game still queued)."""
        try:
            ptn = await self._service.record(game_id)
            scores, evaluator = await self._engine_scores(Game.parse(ptn))
            findings = await self._thinker.run(
                analyse_ptn, ptn, self.nodes, scores, evaluator, long=True
            )
        except (asyncio.CancelledError, OSError):
            raise  # stopped: still queued for the next start
        except Exception as error:
            if store_outage(error):
                raise  # still queued: the loop tries again when the store answers
            log.exception("Could not analyse game %s.", game_id)
            await self._service.fail(game_id, repr(error))
            return
        if await self._service.finish(game_id, findings):
            self._on_change()

    async def _engine_scores(self, game: Game) -> tuple[list[int] | None, str]:
        """The engine's evaluations (White's side), or None and Bredon's name to do it."""
        if self._command is None or any(game.tag(t) for t in _TEI_TAGS):
            return None, BUILTIN
        scores = []
        try:
            if self._engine is None or not self._engine.alive:
                await self._close_engine()
                self._engine = await Engine.start(self._command)
            for position in game.replay():
                if position.result is not None:
                    scores.append(evaluate_position(position))
                    continue
                score = await self._engine.evaluate(
                    position, Limits(movetime_ms=ENGINE_MOVETIME_MS)
                )
                if score is None:
                    log.info("%s reports no scores: Bredon evaluates.", self._engine.id.name)
                    return None, BUILTIN
                scores.append(white_score(score, position.to_move))
        except EngineUnsupportedGame as error:  # the engine is fine, the game is not its
            log.info("%s Bredon evaluates.", error)
            return None, BUILTIN
        except EngineError as error:
            log.warning("The engine failed in an analysis (%s): Bredon evaluates.", error)
            await self._close_engine()
            return None, BUILTIN
        return scores, self._engine.id.name

    async def _close_engine(self) -> None:
        engine, self._engine = self._engine, None
        if engine is not None:
            await engine.close()
