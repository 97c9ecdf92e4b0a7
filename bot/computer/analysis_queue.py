"""Post-game analysis requests (`/game analysis`): a durable queue and the results kept.

A request for a finished game of the server writes a row in ``analyses`` (status ``queued``):
the database is the queue, so a restart loses nothing and :class:`bot.computer.analyst.Analyst`
finds the
work again. Asking again while queued queues nothing more; once done, the stored result is shown
again. A result is written with its :class:`~bot.notifications.outbox.AnalysisReady` announcement in
one transaction, so the post in the game's thread exists exactly when the result does.

Fair use (:mod:`bot.work.fair_use`): a player, and a server, may have only so many analyses queued,
and a game whose analysis would take longer than the limit (or that is longer than a PTN record,
stored before games ended there) is refused up front, with the reason. The queue takes the
players in turn, the one served longest ago first, so that another player's request waits for
one analysis at most, however many one player has queued.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum

from bot.errors import BredonError, GameNotOver, UnknownGame
from bot.games.lookup import LookupService
from bot.games.model import GAME_SELECT, GameView, game_from_row
from bot.languages import _, ngettext, numeral
from bot.notifications.outbox import AnalysisReady, enqueue
from bot.store import Database, Transaction, to_db
from bot.timekeeping.clock import Clock
from bot.work.fair_use import DEFAULT_FAIR_USE, FairUse, listed
from tak.analysis import DEFAULT_NODES
from tak.ptn import MAX_PLIES

# What one ply costs a worker at DEFAULT_NODES positions (benchmarks/analysis.py): the estimates.
SECONDS_PER_PLY = 0.5


class AnalysisStatus(StrEnum):
    QUEUED = "queued"
    DONE = "done"
    FAILED = "failed"


class NothingToAnalyse(BredonError):
    def __init__(self, game_id: int) -> None:
        super().__init__(
            _("Game #{game} ended before any move: there is nothing to analyse.", game=game_id)
        )


def wait_text(seconds: float) -> str:
    """'about 40 s', 'about 12 min'."""
    seconds = max(5, round(seconds))
    if seconds < 120:
        return _("about {seconds} s", seconds=seconds)
    return _("about {minutes} min", minutes=round(seconds / 60))


class TooLongToAnalyse(BredonError):
    """A game longer than a record holds, or than the analysis time allowed (the message says
    which)."""


class TooManyAnalyses(BredonError):
    """A player or a server has as many analyses queued as fair use allows."""


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
    ahead: int  # queued games analysed before it, the players taken in turn
    plies: int  # of the game
    wait_seconds: float = 0.0  # until it is done: its own plies and those of the games ahead

    @property
    def estimate_seconds(self) -> int:
        """Seconds until it is posted, roughly."""
        return max(5, round(self.wait_seconds))


def seconds_per_ply(nodes: int) -> float:
    """What a ply costs a worker when every position is searched to `nodes` positions."""
    return SECONDS_PER_PLY * nodes / DEFAULT_NODES


# The queue in the order it is worked, the players in turn: each one's longest-waiting analysis
# (the player served longest ago, or never, first), then each one's second, and so on. A failure
# counts as served (fail() writes finished_at).
_FAIR_ORDER = (
    "WITH served AS (SELECT requested_by, MAX(finished_at) AS at FROM analyses "
    "WHERE status != 'queued' GROUP BY requested_by), "
    "queue AS (SELECT game_id, requested_by, requested_at, ROW_NUMBER() OVER (PARTITION BY "
    "requested_by ORDER BY requested_at, game_id) AS turn FROM analyses WHERE status = 'queued') "
    "SELECT q.game_id, q.requested_by, g.guild_id, "
    "(SELECT COUNT(*) FROM moves m WHERE m.game_id = q.game_id AND m.undone_at IS NULL) "
    "AS plies FROM queue q JOIN games g ON g.id = q.game_id "
    "LEFT JOIN served s USING (requested_by) "
    "ORDER BY q.turn, s.at IS NOT NULL, s.at, q.requested_at, q.game_id"
)


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
    def __init__(self, db: Database, clock: Clock, lookup: LookupService) -> None:
        self._db = db
        self._clock = clock
        self._lookup = lookup

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

    async def request(
        self,
        game_id: int,
        guild_id: int,
        requester_id: int,
        *,
        fair_use: FairUse = DEFAULT_FAIR_USE,
        nodes: int = DEFAULT_NODES,
    ) -> Queued:
        """Queue the analysis of a finished game of this server, unless it is queued or done
        already (then it is left as it is); a failed one is queued again. New work is refused
        up front when the game is too long to analyse or the requester or the server has as
        many analyses queued as `fair_use` allows."""
        game = await self._finished_game(game_id, guild_id)
        per_ply = seconds_per_ply(nodes)
        now = to_db(self._clock.now())
        async with self._db.transaction() as tx:
            row = await tx.fetchone("SELECT * FROM analyses WHERE game_id = ?", (game_id,))
            new = row is None or row["status"] == AnalysisStatus.FAILED
            if new:
                _check_length(game, per_ply, fair_use)
                await self._check_room(tx, guild_id, requester_id, per_ply, fair_use)
                await tx.execute(
                    "INSERT INTO analyses (game_id, requested_by, requested_at, status) "
                    "VALUES (?, ?, ?, 'queued') ON CONFLICT (game_id) DO UPDATE SET "
                    "status = 'queued', requested_by = excluded.requested_by, "
                    "requested_at = excluded.requested_at, error = NULL",
                    (game_id, requester_id, now),
                )
                row = await tx.fetchone("SELECT * FROM analyses WHERE game_id = ?", (game_id,))
            queue = await self._queue(tx)
        ahead = next((n for n, entry in enumerate(queue) if entry.game_id == game_id), 0)
        wait = done_in(queue, game_id, per_ply)
        return Queued(_stored(row), new, ahead, game.plies_played, wait)

    async def _queue(self, tx: Transaction) -> list[InQueue]:
        """Every queued analysis, in the order they are worked."""
        return [
            InQueue(row["game_id"], row["requested_by"], row["guild_id"], row["plies"])
            for row in await tx.fetchall(_FAIR_ORDER)
        ]

    async def _check_room(
        self, tx: Transaction, guild_id: int, requester_id: int, per_ply: float, fair_use: FairUse
    ) -> None:
        """Refuse a request past the requester's or the server's share of the queue, saying
        when a place frees up: when the first of theirs is done."""
        queue = await self._queue(tx)
        ours = [entry for entry in queue if entry.guild_id == guild_id]
        own = [entry for entry in queue if entry.requester_id == requester_id]  # any server
        if len(own) >= fair_use.analyses_per_player:
            games = listed([f"#{entry.game_id}" for entry in own])
            raise TooManyAnalyses(
                ngettext(
                    "You have {count} analysis queued ({games}), the most a player may have at "
                    "once: ask again once the first is posted, in {wait}.",
                    "You have {count} analyses queued ({games}), the most a player may have at "
                    "once: ask again once the first is posted, in {wait}.",
                    len(own),
                    games=games,
                    wait=wait_text(done_in(queue, own[0].game_id, per_ply)),
                )
            )
        if len(ours) >= fair_use.analyses_per_server:
            raise TooManyAnalyses(
                ngettext(
                    "This server has {count} analysis queued, the most it may have at once: ask "
                    "again once the next is posted, in {wait}.",
                    "This server has {count} analyses queued, the most it may have at once: ask "
                    "again once the next is posted, in {wait}.",
                    len(ours),
                    wait=wait_text(done_in(queue, ours[0].game_id, per_ply)),
                )
            )

    async def get(self, game_id: int) -> StoredAnalysis | None:
        row = await self._db.fetchone("SELECT * FROM analyses WHERE game_id = ?", (game_id,))
        return None if row is None else _stored(row)

    async def queued(self, limit: int) -> list[int]:
        """Games waiting for their analysis, in the order they are worked: the players in turn,
        the one served longest ago first (see :data:`_FAIR_ORDER`)."""
        rows = await self._db.fetchall(_FAIR_ORDER + " LIMIT ?", (limit,))
        return [row["game_id"] for row in rows]

    async def record(self, game_id: int) -> str:
        """The game's PTN, for the worker."""
        return await self._lookup.ptn(game_id)

    async def finish(self, game_id: int, findings: Findings) -> bool:
        """Keep the result and announce it in the game's thread, together; False when it was
        not queued any more (finished by another process)."""
        async with self._db.transaction() as tx:
            changed = await tx.execute(
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
            if changed != 1:
                return False
            await enqueue(tx, AnalysisReady(game_id), self._clock.now())
        return True

    async def fail(self, game_id: int, error: str) -> None:
        """Give up on a game the worker could not analyse (asking again queues it again)."""
        await self._db.write_one(
            "UPDATE analyses SET status = 'failed', error = ?, finished_at = ? WHERE game_id = ? "
            "AND status = 'queued'",
            (error[:500], to_db(self._clock.now()), game_id),
        )


@dataclass(frozen=True, slots=True)
class InQueue:
    game_id: int
    requester_id: int
    guild_id: int
    plies: int


def done_in(queue: list[InQueue], game_id: int, per_ply: float) -> float:
    """Seconds until the analysis of `game_id` is done, roughly: the games before it in the
    queue and itself (the one in progress counted whole); 0 when it is not queued."""
    plies = 0
    for entry in queue:
        plies += max(entry.plies, 1)
        if entry.game_id == game_id:
            return plies * per_ply
    return 0.0


def _check_length(game: GameView, per_ply: float, fair_use: FairUse) -> None:
    """Refuse up front a game the analyst would not finish: longer than a PTN record (a game
    stored before games ended at that length) or than the analysis time allowed."""
    plies = game.plies_played
    if plies > MAX_PLIES:
        raise TooLongToAnalyse(
            _(
                "Game #{game} has {plies} plies: a game record holds at most {most} (games now "
                "end there), so it cannot be analysed.",
                game=game.id,
                plies=numeral(plies),
                most=numeral(MAX_PLIES),
            )
        )
    limit = fair_use.analysis_max_minutes * 60
    if plies * per_ply > limit:
        raise TooLongToAnalyse(
            _(
                "Game #{game} has {plies} plies: its analysis would take {wait}, more than the "
                "{minutes} min this bot gives one game (games of up to {most} plies).",
                game=game.id,
                plies=numeral(plies),
                wait=wait_text(plies * per_ply),
                minutes=fair_use.analysis_max_minutes,
                most=numeral(int(limit / per_ply)),
            )
        )
