"""Post-game analysis requests (`/tak analysis`): a durable queue and the results kept.

A request for a finished game of the server writes a row in ``analyses`` (status ``queued``):
the database is the queue, so a restart loses nothing and :class:`bot.analyst.Analyst` finds the
work again. Asking again while queued queues nothing more; once done, the stored result is shown
again. A result is written with its :class:`~bot.services.outbox.AnalysisReady` announcement in
one transaction, so the post in the game's thread exists exactly when the result does.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum

from bot.clock import Clock
from bot.errors import BredonError, GameNotOver, UnknownGame
from bot.services.outbox import AnalysisReady, enqueue
from bot.services.queries import QueryService
from bot.services.views import GAME_SELECT, GameView, game_from_row
from bot.store import Database, to_db

SECONDS_PER_PLY = 0.5  # what one ply costs a worker (benchmarks/analysis.py), for the estimate


class AnalysisStatus(StrEnum):
    QUEUED = "queued"
    DONE = "done"
    FAILED = "failed"


class NothingToAnalyse(BredonError):
    def __init__(self, game_id: int) -> None:
        super().__init__(f"Game #{game_id} ended before any move: there is nothing to analyse.")


@dataclass(frozen=True, slots=True)
class Findings:
    """What a worker found for a game (plain data, made in a worker process)."""

    evaluator: str
    evaluations: tuple[int, ...]
    marks: tuple[str, ...]
    ptn: str
    summary: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class StoredAnalysis:
    game_id: int
    status: AnalysisStatus
    requested_by: int
    findings: Findings | None  # when done


@dataclass(frozen=True, slots=True)
class Queued:
    """The answer to a request: the analysis as it stands, whether this request queued it, and
    how much work is ahead of it."""

    analysis: StoredAnalysis
    new: bool
    ahead: int  # queued games before it
    plies: int  # of the game

    @property
    def estimate_seconds(self) -> int:
        """Seconds until it is posted, roughly: this game and the ones ahead of it (taken as
        as long as this one)."""
        return max(5, round((self.ahead + 1) * max(self.plies, 1) * SECONDS_PER_PLY))


def _stored(row: object) -> StoredAnalysis:
    status = AnalysisStatus(row["status"])  # type: ignore[index]
    findings = None
    if status is AnalysisStatus.DONE:
        findings = Findings(
            row["evaluator"],  # type: ignore[index]
            tuple(json.loads(row["evaluations"])),  # type: ignore[index]
            tuple(json.loads(row["marks"])),  # type: ignore[index]
            row["ptn"],  # type: ignore[index]
            tuple(json.loads(row["summary"])),  # type: ignore[index]
        )
    return StoredAnalysis(row["game_id"], status, row["requested_by"], findings)  # type: ignore[index]


class AnalysisService:
    def __init__(self, db: Database, clock: Clock, queries: QueryService) -> None:
        self._db = db
        self._clock = clock
        self._queries = queries

    async def _finished_game(self, game_id: int, guild_id: int) -> GameView:
        row = await self._db.fetchone(GAME_SELECT + " WHERE g.id = ?", (game_id,))
        game = None if row is None else game_from_row(row)
        if game is None or game.guild_id != guild_id:
            raise UnknownGame(game_id)
        if game.is_active:
            raise GameNotOver(game_id)
        if game.plies_played == 0:  # a game set up from a TPS starts past ply 0
            raise NothingToAnalyse(game_id)
        return game

    async def request(self, game_id: int, guild_id: int, requester_id: int) -> Queued:
        """Queue the analysis of a finished game of this server, unless it is queued or done
        already (then it is left as it is); a failed one is queued again."""
        game = await self._finished_game(game_id, guild_id)
        now = to_db(self._clock.now())
        async with self._db.transaction() as tx:
            changed = await tx.execute(
                "INSERT INTO analyses (game_id, requested_by, requested_at, status) "
                "VALUES (?, ?, ?, 'queued') ON CONFLICT (game_id) DO UPDATE SET "
                "status = 'queued', requested_by = excluded.requested_by, "
                "requested_at = excluded.requested_at, error = NULL WHERE status = 'failed'",
                (game_id, requester_id, now),
            )
            new = changed.rowcount == 1
            row = await tx.fetchone("SELECT * FROM analyses WHERE game_id = ?", (game_id,))
            ahead = await tx.fetchone(
                "SELECT COUNT(*) AS n FROM analyses WHERE status = 'queued' "
                "AND (requested_at, game_id) < (?, ?)",
                (row["requested_at"], game_id),
            )
        return Queued(_stored(row), new, ahead["n"], game.plies_played)

    async def get(self, game_id: int) -> StoredAnalysis | None:
        row = await self._db.fetchone("SELECT * FROM analyses WHERE game_id = ?", (game_id,))
        return None if row is None else _stored(row)

    async def queued(self, limit: int) -> list[int]:
        """Games waiting for their analysis, the longest waiting first."""
        rows = await self._db.fetchall(
            "SELECT game_id FROM analyses WHERE status = 'queued' "
            "ORDER BY requested_at, game_id LIMIT ?",
            (limit,),
        )
        return [row["game_id"] for row in rows]

    async def record(self, game_id: int) -> str:
        """The game's PTN, for the worker."""
        return await self._queries.ptn(game_id)

    async def finish(self, game_id: int, findings: Findings) -> bool:
        """Keep the result and announce it in the game's thread, together; False when it was
        not queued any more (finished by another process)."""
        async with self._db.transaction() as tx:
            done = await tx.execute(
                "UPDATE analyses SET status = 'done', finished_at = ?, evaluator = ?, "
                "evaluations = ?, marks = ?, ptn = ?, summary = ? "
                "WHERE game_id = ? AND status = 'queued'",
                (
                    to_db(self._clock.now()),
                    findings.evaluator,
                    json.dumps(findings.evaluations),
                    json.dumps(findings.marks),
                    findings.ptn,
                    json.dumps(findings.summary),
                    game_id,
                ),
            )
            if done.rowcount != 1:
                return False
            await enqueue(tx, AnalysisReady(game_id), self._clock.now())
        return True

    async def fail(self, game_id: int, error: str) -> None:
        """Give up on a game the worker could not analyse (asking again queues it again)."""
        await self._db.write_one(
            "UPDATE analyses SET status = 'failed', error = ? WHERE game_id = ? "
            "AND status = 'queued'",
            (error[:500], game_id),
        )
