"""Puzzles as the players get them: one to solve privately, a server's daily puzzle, answers
rated by Glicko-2 and the daily streak. Owns the ``puzzles``, ``puzzle_mined_games``,
``puzzle_attempts``, ``puzzle_players``, ``puzzle_channels`` and ``daily_puzzles`` tables.

Where puzzles come from: the published set shipped with Bredon (``published.json``, mined from
freely licensed real games by ``scripts/mine_puzzles.py``), loaded once; and the servers' own
finished games (never a game outside Bredon's servers: nothing of a DM's game is shown
elsewhere), each mined once, a batch at a time (:data:`_MINED_PER_LOOK`): in the background, as
a duty of the deadline scheduler (:meth:`PuzzleService.run_due`), and when a puzzle is asked
for. Mining tries every legal move in every position (about 0.2 s a game in pure Python), so it
runs in the bot's background worker process (:attr:`bot.services.Services.background`, shared
with the explorer), never on the event loop nor in a thread, which would share the GIL with
every other player's commands.

Rules (the players' guide says them too):

- Only a player's **first answer** to a puzzle counts: it rates the player against the puzzle
  (each its own Glicko-2 rating period, a solve a win for the player and a loss for the puzzle).
- The **daily puzzle** is one a day (UTC) for each server that chose a channel, posted there once
  with yesterday's solution. Its solution is never shown before the next day: a wrong answer to
  it is told only that it is wrong.
- The **streak** is the days in a row on which the player solved a daily puzzle with their first
  answer, that day. A wrong first answer to the day's puzzle ends it; a day without a solved
  daily puzzle ends it at the end of the next day (it is shown as 0 then).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path

from bot.errors import BredonError, IllegalMove
from bot.games.model import NO_SERVER, GameStatus
from bot.languages import _
from bot.notifications.outbox import DailyPuzzlePosted, enqueue
from bot.players.glicko2 import Rating, update_after_game
from bot.players.model import PlayerRef
from bot.players.storage import save_player
from bot.puzzles.mining import MinedPuzzle, PuzzleKind, mine, puzzle_position
from bot.store import Database, Row, Transaction, to_db
from bot.timekeeping.clock import Clock
from bot.work.attached_files import FileReader, FileTooSlow, ReaderNotStarted
from tak import Color, Opening, Position, TakError

log = logging.getLogger(__name__)
PUBLISHED = Path(__file__).with_name("published.json")
NONE_LEFT_RETRY = timedelta(hours=1)
# Finished games mined per look at most (about 5 s of the worker's time at ~0.2 s a game,
# benchmarks/puzzles.py): the scheduler looks again at once while games are left.
_MINED_PER_LOOK = 20


class NoPuzzleLeft(BredonError):
    def __init__(self) -> None:
        super().__init__(_("You have answered every puzzle there is. New ones come from games."))


class UnknownPuzzle(BredonError):
    def __init__(self, puzzle_id: int) -> None:
        super().__init__(_("There is no puzzle #{puzzle}.", puzzle=puzzle_id))


class NoDailyPuzzle(BredonError):
    def __init__(self) -> None:
        super().__init__(
            _("This server has no daily puzzle: a server manager chooses its channel first.")
        )


@dataclass(frozen=True, slots=True)
class Puzzle:
    """A puzzle as the players see it (its solution stays with the service)."""

    id: int
    tps: str
    komi: float
    stones: int
    caps: int
    kind: PuzzleKind
    source: str | None
    rating: float

    def position(self) -> Position:
        return puzzle_position(self.tps, self.komi, self.stones, self.caps)

    @property
    def to_move(self) -> Color:
        return Color.WHITE if self.tps.split()[1] == "1" else Color.BLACK


@dataclass(frozen=True, slots=True)
class Answer:
    """What an answer did: right or not, whether it counted, the rating it left, the streak."""

    puzzle: Puzzle
    solved: bool
    counted: bool  # the player's first answer to this puzzle
    daily: bool  # the day's puzzle of a server, answered that day
    rating: float
    rating_change: float
    streak: int
    solution: str | None  # shown after a wrong answer, except to a daily puzzle


@dataclass(frozen=True, slots=True)
class PuzzleStats:
    rating: float
    deviation: float
    streak: int
    best_streak: int
    solved: int
    attempted: int


@dataclass(frozen=True, slots=True)
class DailyPuzzle:
    """A server's puzzle of a day, and the day before's solution (shown from this day on)."""

    guild_id: int
    day: date
    puzzle: Puzzle
    yesterday: Puzzle | None
    yesterday_solution: str | None


def day_of(moment: datetime) -> date:
    return moment.astimezone(UTC).date()


_PUZZLE_COLUMNS = "p.id, p.tps, p.komi, p.stones, p.caps, p.kind, p.source, p.rating"


def _puzzle(row: Row) -> Puzzle:
    return Puzzle(
        *(row["id"], row["tps"], float(row["komi"]), row["stones"], row["caps"]),
        *(PuzzleKind(row["kind"]), row["source"], float(row["rating"])),
    )


def read_published(path: Path = PUBLISHED) -> list[tuple[MinedPuzzle, str]]:
    """The shipped puzzles, each with its source (the game and its licence)."""
    rows = json.loads(path.read_text(encoding="utf-8"))["puzzles"]
    return [
        (
            MinedPuzzle(
                row["tps"],
                row["komi"],
                row["stones"],
                row["caps"],
                row["solution"],
                PuzzleKind(row["kind"]),
                row["ply"],
            ),
            row["source"],
        )
        for row in rows
    ]


@dataclass(frozen=True, slots=True)
class _FinishedGame:
    """A finished game as plain data, for the worker process: its set-up and its moves."""

    id: int
    size: int
    komi: float
    stones: tuple[int, int]
    caps: tuple[int, int]
    opening: str
    start_tps: str | None
    moves: tuple[str, ...]

    def start(self) -> Position | None:
        """The game's start; None for one the engine refuses (it holds no puzzle then)."""
        setup = {
            "komi": self.komi,
            "stones": self.stones,
            "caps": self.caps,
            "opening": Opening(self.opening),
        }
        try:
            if self.start_tps:
                return Position.from_tps(self.start_tps, **setup)
            return Position(self.size, **setup)
        except TakError:
            return None


def _mine_games(games: Iterable[_FinishedGame]) -> list[tuple[int, list[MinedPuzzle]]]:
    """The puzzles in each game (for the worker process)."""
    found = []
    for game in games:
        start = game.start()
        found.append((game.id, [] if start is None else list(mine(start, game.moves))))
    return found


class PuzzleService:
    def __init__(
        self, db: Database, clock: Clock, worker: FileReader, published: Path = PUBLISHED
    ) -> None:
        self._db = db
        self._clock = clock
        self._worker = worker
        self._published = published
        self._stocked_published = False
        self._mining = asyncio.Lock()
        # When a server lacked today's puzzle because none was left: not looked for again before.
        self._none_left_until: datetime | None = None

    # ----------------------------------------------------------------- stocking

    async def stock(self, *, mine_games: bool = True) -> int:
        """Load the published set (once a process) and mine a batch of the finished games not
        mined yet (unless not to `mine_games`); how many puzzles were added."""
        async with self._mining:
            added = 0
            if not self._stocked_published:
                loaded = await asyncio.to_thread(read_published, self._published)
                async with self._db.transaction() as tx:
                    for mined, source in loaded:
                        added += await _save_puzzle(tx, mined, None, source, self._clock.now())
                self._stocked_published = True
            games = await self._unmined_games() if mine_games else []
            if games:
                try:
                    found = await self._worker.run(_mine_games, games)
                except (FileTooSlow, ReaderNotStarted):  # left unmined: tried at the next look
                    log.warning("Mining %d finished games for puzzles failed.", len(games))
                    return added
                async with self._db.transaction() as tx:
                    for game_id, puzzles in found:
                        for mined in puzzles:
                            added += await _save_puzzle(tx, mined, game_id, None, self._clock.now())
                        await tx.execute(
                            "INSERT INTO puzzle_mined_games (game_id, mined_at) VALUES (?, ?) "
                            "ON CONFLICT (game_id) DO NOTHING",
                            (game_id, to_db(self._clock.now())),
                        )
            return added

    async def _mining_left(self) -> bool:
        """Whether finished games are left to mine while puzzles are in use (a server has a
        daily-puzzle channel, or a puzzle was answered): a bot whose players never asked for
        one spends no CPU on them (a player's first ask mines a batch)."""
        row = await self._db.fetchone(
            "SELECT 1 FROM games g WHERE g.status = ? AND g.guild_id != ? AND NOT EXISTS "
            "(SELECT 1 FROM puzzle_mined_games m WHERE m.game_id = g.id) "
            "AND (EXISTS (SELECT 1 FROM puzzle_channels) "
            "OR EXISTS (SELECT 1 FROM puzzle_attempts)) LIMIT 1",
            (GameStatus.FINISHED.value, NO_SERVER),
        )
        return row is not None

    async def _unmined_games(self) -> list[_FinishedGame]:
        async with self._db.snapshot() as tx:
            rows = await tx.fetchall(
                "SELECT g.id, g.size, g.komi, g.opening, g.stones1, g.stones2, g.caps1, g.caps2, "
                "g.start_tps FROM games g WHERE g.status = ? AND g.guild_id != ? AND NOT EXISTS "
                "(SELECT 1 FROM puzzle_mined_games m WHERE m.game_id = g.id) "
                "ORDER BY g.id LIMIT ?",
                (GameStatus.FINISHED.value, NO_SERVER, _MINED_PER_LOOK),
            )
            games = []
            for row in rows:
                moves = await tx.fetchall(
                    "SELECT ptn FROM moves WHERE game_id = ? AND undone_at IS NULL ORDER BY ply",
                    (row["id"],),
                )
                games.append(
                    _FinishedGame(
                        id=row["id"],
                        size=row["size"],
                        komi=row["komi"],
                        stones=(row["stones1"], row["stones2"]),
                        caps=(row["caps1"], row["caps2"]),
                        opening=row["opening"],
                        start_tps=row["start_tps"],
                        moves=tuple(m["ptn"] for m in moves),
                    )
                )
        return games

    # ----------------------------------------------------------------- solving

    async def next_for(self, player: PlayerRef) -> Puzzle:
        """A puzzle the player has not answered, the nearest to their rating; never a server's
        puzzle of today (its solution must stay unseen until tomorrow)."""
        await self.stock()
        today = day_of(self._clock.now()).isoformat()
        stats = await self.stats(player.id)
        row = await self._db.fetchone(
            f"SELECT {_PUZZLE_COLUMNS} FROM puzzles p WHERE NOT EXISTS "
            "(SELECT 1 FROM puzzle_attempts a WHERE a.puzzle_id = p.id AND a.player_id = ?) "
            "AND NOT EXISTS (SELECT 1 FROM daily_puzzles d WHERE d.puzzle_id = p.id "
            "AND d.day >= ?) ORDER BY ABS(p.rating - ?), p.id LIMIT 1",
            (player.id, today, stats.rating),
        )
        if row is None:
            raise NoPuzzleLeft
        return _puzzle(row)

    async def puzzle(self, puzzle_id: int) -> Puzzle:
        row = await self._db.fetchone(
            f"SELECT {_PUZZLE_COLUMNS} FROM puzzles p WHERE p.id = ?", (puzzle_id,)
        )
        if row is None:
            raise UnknownPuzzle(puzzle_id)
        return _puzzle(row)

    async def answer(self, player: PlayerRef, puzzle_id: int, text: str) -> Answer:
        """Judge `text` (a move in PTN) as the answer to the puzzle; a move that is not legal
        there is refused and changes nothing."""
        now = self._clock.now()
        today = day_of(now)
        async with self._db.transaction() as tx:
            row = await tx.fetchone(
                f"SELECT {_PUZZLE_COLUMNS}, p.solution FROM puzzles p WHERE p.id = ?",
                (puzzle_id,),
            )
            if row is None:
                raise UnknownPuzzle(puzzle_id)
            puzzle = _puzzle(row)
            position = puzzle.position()
            try:
                move = position.play(text.strip())
            except TakError as error:
                raise IllegalMove(text.strip(), str(error)) from None
            solved = move.ptn() == row["solution"]
            daily = (
                await tx.fetchone(
                    "SELECT 1 FROM daily_puzzles WHERE puzzle_id = ? AND day = ?",
                    (puzzle_id, today.isoformat()),
                )
                is not None
            )
            await save_player(tx, player, now)
            before = await _player_row(tx, player.id)
            counted = await tx.execute(
                "INSERT INTO puzzle_attempts (puzzle_id, player_id, answer, solved, daily_day, "
                "answered_at) VALUES (?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (puzzle_id, player_id) DO NOTHING",
                (
                    puzzle_id,
                    player.id,
                    move.ptn(),
                    int(solved),
                    today.isoformat() if daily else None,
                    to_db(now),
                ),
            )
            rating = before.rating
            streak = _shown_streak(before.streak, before.streak_day, today)
            if counted:
                mine_after, puzzle_after = update_after_game(
                    before.rating_value, await _puzzle_rating(tx, puzzle_id), float(solved)
                )
                if daily:
                    streak = _next_streak(before.streak, before.streak_day, today, solved)
                    streak_day = today.isoformat() if solved else None
                else:
                    streak_day = before.streak_day
                await tx.execute(
                    "UPDATE puzzle_players SET rating = ?, deviation = ?, volatility = ?, "
                    "streak = ?, best_streak = ?, streak_day = ?, solved = solved + ?, "
                    "attempted = attempted + 1 WHERE player_id = ?",
                    (
                        mine_after.rating,
                        mine_after.deviation,
                        mine_after.volatility,
                        streak if daily else before.streak,
                        max(before.best_streak, streak),
                        streak_day,
                        int(solved),
                        player.id,
                    ),
                )
                await tx.execute(
                    "UPDATE puzzles SET rating = ?, deviation = ?, volatility = ? WHERE id = ?",
                    (
                        puzzle_after.rating,
                        puzzle_after.deviation,
                        puzzle_after.volatility,
                        puzzle_id,
                    ),
                )
                rating = mine_after.rating
        return Answer(
            puzzle,
            solved,
            bool(counted),
            daily,
            rating,
            rating - before.rating,
            streak,
            None if solved or daily else str(row["solution"]),
        )

    async def stats(self, player_id: int) -> PuzzleStats:
        row = await self._db.fetchone(
            "SELECT rating, deviation, streak, best_streak, streak_day, solved, attempted "
            "FROM puzzle_players WHERE player_id = ?",
            (player_id,),
        )
        if row is None:
            fresh = Rating()
            return PuzzleStats(fresh.rating, fresh.deviation, 0, 0, 0, 0)
        today = day_of(self._clock.now())
        return PuzzleStats(
            float(row["rating"]),
            float(row["deviation"]),
            _shown_streak(row["streak"], row["streak_day"], today),
            row["best_streak"],
            row["solved"],
            row["attempted"],
        )

    # ----------------------------------------------------------------- the daily puzzle

    async def set_channel(self, guild_id: int, channel_id: int | None) -> None:
        """Post the server's daily puzzle in `channel_id` from now on (None: no more)."""
        async with self._db.transaction() as tx:
            if channel_id is None:
                await tx.execute("DELETE FROM puzzle_channels WHERE guild_id = ?", (guild_id,))
                return
            await tx.execute(
                "INSERT INTO puzzle_channels (guild_id, channel_id, chosen_at) VALUES (?, ?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET channel_id = excluded.channel_id, "
                "chosen_at = excluded.chosen_at",
                (guild_id, channel_id, to_db(self._clock.now())),
            )

    async def channel(self, guild_id: int) -> int | None:
        row = await self._db.fetchone(
            "SELECT channel_id FROM puzzle_channels WHERE guild_id = ?", (guild_id,)
        )
        return None if row is None else int(row["channel_id"])

    async def daily(self, guild_id: int, day: date | None = None) -> DailyPuzzle:
        """The server's puzzle of `day` (default today), with the day before's solution."""
        day = day or day_of(self._clock.now())
        today = await self._daily_puzzle(guild_id, day)
        if today is None:
            raise NoDailyPuzzle
        yesterday = await self._daily_puzzle(guild_id, day - timedelta(days=1))
        solution = None
        if yesterday is not None:
            row = await self._db.fetchone(
                "SELECT solution FROM puzzles WHERE id = ?", (yesterday.id,)
            )
            solution = None if row is None else str(row["solution"])
        return DailyPuzzle(guild_id, day, today, yesterday, solution)

    async def _daily_puzzle(self, guild_id: int, day: date) -> Puzzle | None:
        row = await self._db.fetchone(
            f"SELECT {_PUZZLE_COLUMNS} FROM daily_puzzles d JOIN puzzles p ON p.id = d.puzzle_id "
            "WHERE d.guild_id = ? AND d.day = ?",
            (guild_id, day.isoformat()),
        )
        return None if row is None else _puzzle(row)

    async def next_due_at(self) -> datetime | None:
        """Now, while finished games are left to mine or a server with a channel lacks today's
        puzzle (an hour after no puzzle was left for one); else the next midnight (UTC); None
        without channels."""
        now = self._clock.now()
        if await self._mining_left():
            return now
        today = day_of(now)
        row = await self._db.fetchone(
            "SELECT COUNT(*) AS waiting, (SELECT COUNT(*) FROM puzzle_channels) AS channels "
            "FROM puzzle_channels c WHERE NOT EXISTS (SELECT 1 FROM daily_puzzles d "
            "WHERE d.guild_id = c.guild_id AND d.day = ?)",
            (today.isoformat(),),
        )
        if row is None or not row["channels"]:
            return None
        if row["waiting"]:
            return max(now, self._none_left_until or now)
        return datetime.combine(today + timedelta(days=1), time(), tzinfo=UTC)

    async def run_due(self) -> int:
        """Choose and announce today's puzzle for every server with a channel that lacks one;
        how many were announced. The choice and its announcement are one transaction, and a
        server has one puzzle a day, so it is posted once even across restarts. First, the
        next finished games are mined (a batch: the scheduler looks again at once while games are
        left), so that they are mined in the background rather than when a player asks."""
        await self.stock(mine_games=await self._mining_left())
        today = day_of(self._clock.now())
        waiting = await self._db.fetchall(
            "SELECT c.guild_id, c.channel_id FROM puzzle_channels c WHERE NOT EXISTS "
            "(SELECT 1 FROM daily_puzzles d WHERE d.guild_id = c.guild_id AND d.day = ?)",
            (today.isoformat(),),
        )
        posted = 0
        for row in waiting:
            async with self._db.transaction() as tx:
                chosen = await tx.fetchone(
                    "SELECT p.id FROM puzzles p WHERE NOT EXISTS (SELECT 1 FROM puzzle_attempts a "
                    "WHERE a.puzzle_id = p.id) AND NOT EXISTS (SELECT 1 FROM daily_puzzles d "
                    "WHERE d.puzzle_id = p.id) ORDER BY p.id LIMIT 1"
                )
                if chosen is None:  # looked for again in an hour, with new games mined
                    self._none_left_until = self._clock.now() + NONE_LEFT_RETRY
                    continue
                added = await tx.execute(
                    "INSERT INTO daily_puzzles (guild_id, day, puzzle_id) VALUES (?, ?, ?) "
                    "ON CONFLICT (guild_id, day) DO NOTHING",
                    (row["guild_id"], today.isoformat(), chosen["id"]),
                )
                if added:
                    payload = DailyPuzzlePosted(
                        row["guild_id"], row["channel_id"], today.isoformat()
                    )
                    await enqueue(tx, payload, self._clock.now())
                    posted += 1
        return posted


# ----------------------------------------------------------------- the tables' rows


async def _save_puzzle(
    tx: Transaction, mined: MinedPuzzle, game_id: int | None, source: str | None, now: datetime
) -> int:
    fresh = Rating()
    return await tx.execute(
        "INSERT INTO puzzles (tps, komi, stones, caps, solution, kind, game_id, source, rating, "
        "deviation, volatility, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (tps, komi, stones, caps) DO NOTHING",
        (
            *(mined.tps, mined.komi, mined.stones, mined.caps, mined.solution),
            *(mined.kind.value, game_id, source),
            *(fresh.rating, fresh.deviation, fresh.volatility, to_db(now)),
        ),
    )


@dataclass(frozen=True, slots=True)
class _PlayerRow:
    rating_value: Rating
    streak: int
    best_streak: int
    streak_day: str | None

    @property
    def rating(self) -> float:
        return self.rating_value.rating


async def _player_row(tx: Transaction, player_id: int) -> _PlayerRow:
    """The player's puzzle row, made with a fresh rating if they had none."""
    fresh = Rating()
    await tx.execute(
        "INSERT INTO puzzle_players (player_id, rating, deviation, volatility) "
        "VALUES (?, ?, ?, ?) ON CONFLICT (player_id) DO NOTHING",
        (player_id, fresh.rating, fresh.deviation, fresh.volatility),
    )
    row = await tx.fetchone(
        "SELECT rating, deviation, volatility, streak, best_streak, streak_day "
        "FROM puzzle_players WHERE player_id = ?",
        (player_id,),
    )
    assert row is not None
    return _PlayerRow(
        Rating(float(row["rating"]), float(row["deviation"]), float(row["volatility"])),
        row["streak"],
        row["best_streak"],
        row["streak_day"],
    )


async def _puzzle_rating(tx: Transaction, puzzle_id: int) -> Rating:
    row = await tx.fetchone(
        "SELECT rating, deviation, volatility FROM puzzles WHERE id = ?", (puzzle_id,)
    )
    assert row is not None
    return Rating(float(row["rating"]), float(row["deviation"]), float(row["volatility"]))


def _shown_streak(streak: int, streak_day: str | None, today: date) -> int:
    """The streak as it stands today: still alive if a daily was solved today or yesterday."""
    if streak_day is None:
        return 0
    last = date.fromisoformat(streak_day)
    return streak if today - last <= timedelta(days=1) else 0


def _next_streak(streak: int, streak_day: str | None, today: date, solved: bool) -> int:
    """The streak after a first answer to today's daily puzzle."""
    if not solved:
        return 0
    if streak_day == today.isoformat():
        return streak  # another server's daily, solved the same day: the day counts once
    return _shown_streak(streak, streak_day, today) + 1
