"""The opening explorer: how a server's finished games went from a position, by next move.

Positions are matched by the position itself (its TPS less the move number: the board and the
side to move), so a position reached by another move order (a transposition) is found too.
Only games with the standard rules of their size count: the empty board, the standard reserves
and the swap opening, whatever the komi; games against Bredon are left out (the caller names
the bot), since the bot's replies are its search at a level a player chose, not what players
choose, and one player can play it many times a day.

Each server and size has one index, kept in memory and brought up to date at each question:
one query lists the games that count with their results, and only games not indexed yet are
replayed (a game that finishes is indexed at the next question; a corrected result is read
anew, as results are looked up when counting, never stored in the index). Replaying holds the
CPU (about 2 ms a game in pure Python), so it runs in the bot's background worker process
(:attr:`bot.services.Services.background`, shared with the puzzles' mining), never on the
event loop nor in a thread (which shares the GIL with it), in batches of :data:`REPLAY_BATCH`
games. The indexes held are bounded: past :data:`MAX_INDEXED_GAMES` games in all, the index
asked for least recently is dropped (and rebuilt if asked for again).

Beside a server's games, the explorer counts the published real games shipped with Bredon
(:data:`PUBLISHED_GAMES`: PlayTak and tournament games, their sources and licences in the
folder's README), in an index of their own per size, so that a new server's players see how
the community plays a position before their own games do.
"""

from __future__ import annotations

import asyncio
import functools
import json
import re
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from bot.errors import BredonError, InvalidSetting
from bot.games.model import GameSetup, GameStatus
from bot.games.scratch import played
from bot.languages import _
from bot.store import Database
from bot.work.attached_files import FileReader, FileTooSlow, ReaderNotStarted
from tak import STANDARD_RESERVES, Color, Opening, Position, Result, TakError, parse_result

MAX_EXPLORER_PLIES = 100  # a line from the start, not a whole game
ROWS_SHOWN = 10  # next moves listed; the rest are summed in one row
_IN_CHUNK = 500  # game ids per query of their moves
REPLAY_BATCH = 500  # games replayed per call of the worker (about 1 s in pure Python)
# Games indexed in all servers and sizes (about 7 KiB each: 2,000 games of 6x6 hold 14 MiB).
MAX_INDEXED_GAMES = 20_000
PUBLISHED_GAMES = Path(__file__).parent / "real_games" / "games.jsonl"
_Item = TypeVar("_Item")
MOVE_NUMBER = re.compile(r"\d+\.(\.\.)?")


def position_key(position: Position) -> str:
    """The position itself: its TPS without the move number (board and side to move)."""
    return position.tps().rsplit(" ", 1)[0]


def standard_position(size: int) -> Position:
    """The start of a game of `size` with the standard rules (komi leaves the moves alone)."""
    return Position(size, opening=Opening.SWAP)


def is_standard(setup: GameSetup) -> bool:
    """Whether a game's moves can be compared with the explorer's games: no set-up start, the
    standard reserves and the swap opening."""
    return setup.start_tps is None and setup.standard_reserves and setup.opening is Opening.SWAP


def explored_position(start: Position, text: str) -> Position:
    """`start` after the moves of `text` (PTN, space-separated, move numbers such as ``2.`` or
    ``7...`` allowed, as the explorer's answer writes a line); an illegal move is refused with
    the engine's reason. `start` is unchanged."""
    words = [word for word in text.replace(",", " ").split() if not MOVE_NUMBER.fullmatch(word)]
    if len(words) > MAX_EXPLORER_PLIES:
        raise InvalidSetting(
            _("Give at most {most} plies to explore from.", most=MAX_EXPLORER_PLIES)
        )
    position = start.copy()
    list(played(position, words))
    return position


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """A finished game as the explorer replays it: its moves (PTN) and its result."""

    id: int
    moves: tuple[str, ...]
    result: Result


@dataclass(slots=True)
class Tally:
    """How the games counted went: white wins, draws, black wins."""

    white: int = 0
    draws: int = 0
    black: int = 0

    @property
    def games(self) -> int:
        return self.white + self.draws + self.black

    def count(self, result: Result) -> None:
        if result.winner is Color.WHITE:
            self.white += 1
        elif result.winner is Color.BLACK:
            self.black += 1
        else:
            self.draws += 1

    def add(self, other: Tally) -> None:
        self.white += other.white
        self.draws += other.draws
        self.black += other.black

    def percent(self, part: int) -> int:
        """`part` of the games, in whole percent."""
        return round(100 * part / self.games) if self.games else 0


@dataclass(frozen=True, slots=True)
class NextMove:
    """A move played from the position (None: the games that ended there), and how they went."""

    move: str | None
    tally: Tally


@dataclass(frozen=True, slots=True)
class Exploration:
    """How the games went from a position: every next move played, the most played first."""

    size: int
    tps: str
    moves: list[NextMove]
    ended_here: Tally = field(default_factory=Tally)  # games that ended in the position

    @property
    def total(self) -> Tally:
        whole = Tally()
        for row in self.moves:
            whole.add(row.tally)
        whole.add(self.ended_here)
        return whole

    def shown(self, rows: int = ROWS_SHOWN) -> tuple[list[NextMove], Tally | None]:
        """The first `rows` next moves and the rest summed (None: no rest)."""
        if len(self.moves) <= rows:
            return self.moves, None
        rest = Tally()
        for row in self.moves[rows:]:
            rest.add(row.tally)
        return self.moves[:rows], rest


class OpeningIndex:
    """Position → the games that reached it, and at which ply first, for games of one size.

    A game is counted once in a position, under the move it played there the first time (a
    stack moved away and back can bring a position again)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._games: dict[int, FinishedGame] = {}
        # Position → where games first reached it, each as one packed int (:func:`_reached_at`);
        # a position one game reached holds the int itself, not a list: most positions are
        # reached by one game only, and this halves the index's memory.
        self._reached: dict[str, int | list[int]] = {}

    def __contains__(self, game_id: int) -> bool:
        return game_id in self._games

    def __len__(self) -> int:
        """The games indexed."""
        return len(self._games)

    def add(self, games: Sequence[FinishedGame]) -> None:
        """Replay `games` here and index each position they reached."""
        self.record(games, replay(self.size, games))

    def record(self, games: Sequence[FinishedGame], reached: Sequence[Reached]) -> None:
        """Index `games`, each with the positions it reached (:func:`replay`, in the same
        order)."""
        for game, positions in zip(games, reached, strict=True):
            self._games[game.id] = game
            for key, ply in positions:
                self._note(key, _reached_at(game.id, ply))

    def _note(self, key: str, reached: int) -> None:
        earlier = self._reached.get(key)
        if earlier is None:
            self._reached[key] = reached
        elif isinstance(earlier, int):
            self._reached[key] = [earlier, reached]
        else:
            earlier.append(reached)

    def _reached_from(self, key: str) -> list[tuple[int, int]]:
        """The games that reached the position `key`, each with the ply it first did."""
        reached = self._reached.get(key, [])
        return [_game_and_ply(at) for at in ([reached] if isinstance(reached, int) else reached)]

    def set_result(self, game_id: int, result: Result) -> None:
        """A game's result as it is now (corrected by an organizer, for one)."""
        game = self._games[game_id]
        if game.result != result:
            self._games[game_id] = FinishedGame(game.id, game.moves, result)

    def explore(self, position: Position) -> Exploration:
        """How the indexed games went from `position`, by next move, the most played first
        (ties by the move's PTN)."""
        by_move: dict[str, Tally] = {}
        ended = Tally()
        for game_id, ply in self._reached_from(position_key(position)):
            game = self._games[game_id]
            if ply < len(game.moves):
                by_move.setdefault(game.moves[ply], Tally()).count(game.result)
            else:
                ended.count(game.result)
        rows = sorted(by_move.items(), key=lambda item: (-item[1].games, item[0]))
        return Exploration(
            self.size, position.tps(), [NextMove(move, tally) for move, tally in rows], ended
        )


@functools.cache
def published_games(path: Path = PUBLISHED_GAMES) -> dict[int, tuple[FinishedGame, ...]]:
    """The published real games shipped with Bredon, by size (numbered from 1 in the file's
    order)."""
    by_size: dict[int, list[FinishedGame]] = {}
    lines = path.read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines, start=1):
        row = json.loads(line)
        game = FinishedGame(number, tuple(row["moves"].split()), parse_result(row["result"]))
        by_size.setdefault(row["size"], []).append(game)
    return {size: tuple(games) for size, games in by_size.items()}


Reached = list[tuple[str, int]]  # the positions a game reached, each at the ply it first did


def replay(size: int, games: Sequence[FinishedGame]) -> list[Reached]:
    """Each game's positions (:func:`position_key`), each with the ply it first reached it.
    For a worker process: this is the explorer's CPU. A game whose moves do not replay (it
    cannot happen to a game Bredon stored) counts up to its last legal ply."""
    every: list[Reached] = []
    for game in games:
        position = standard_position(size)
        seen: set[str] = set()
        reached: Reached = []
        for ply, move in enumerate((*game.moves, None)):
            key = position_key(position)
            if key not in seen:
                seen.add(key)
                reached.append((key, ply))
            if move is None:
                break
            try:
                position.play(move)
            except TakError:
                break
        every.append(reached)
    return every


_PLY_BITS = 16  # far above the longest game (tak.ptn.MAX_PLIES)


def _reached_at(game_id: int, ply: int) -> int:
    """A game and a ply packed in one int (an int takes a fifth of a pair's memory)."""
    return game_id << _PLY_BITS | ply


def _game_and_ply(reached: int) -> tuple[int, int]:
    return reached >> _PLY_BITS, reached & ((1 << _PLY_BITS) - 1)


# The finished games that count: this server, this size, standard rules, not against `bot`.
_COUNTED = (
    "FROM games g WHERE g.guild_id = ? AND g.size = ? AND g.status = ? "
    "AND g.start_tps IS NULL AND g.opening = ? AND g.stones1 = ? AND g.stones2 = ? "
    "AND g.caps1 = ? AND g.caps2 = ? AND g.white_id != ? AND g.black_id != ? "
    "AND g.result IS NOT NULL"
)


class ExplorerBusy(BredonError):
    """The worker replaying the server's games failed to start or took too long."""

    def __init__(self) -> None:
        super().__init__(
            _("I could not go through this server's games just now; please try again in a minute.")
        )


class ExplorerService:
    """The explorer's indexes, one a server and size, kept up to date as games finish; the
    games are replayed in the bot's background `worker` process, a batch at a time."""

    def __init__(
        self, db: Database, worker: FileReader, *, max_games: int = MAX_INDEXED_GAMES
    ) -> None:
        self._db = db
        self._max_games = max_games
        self._indexes: OrderedDict[tuple[int, int, int], OpeningIndex] = OrderedDict()
        self._locks: dict[tuple[int, int, int], asyncio.Lock] = {}
        self._replayer = worker
        self._published: dict[int, OpeningIndex] = {}
        self._published_lock = asyncio.Lock()

    async def explore(self, guild_id: int, position: Position, *, bot_id: int) -> Exploration:
        """How the server's finished games of the position's size went from `position`.
        Raises :class:`ExplorerBusy` when the games could not be replayed."""
        key = (guild_id, position.size, bot_id)
        lock = self._locks.setdefault(key, asyncio.Lock())
        async with lock:
            index = self._indexes.pop(key, None) or OpeningIndex(position.size)
            try:
                await self._update(index, guild_id, bot_id)
            finally:  # what was replayed is kept, also when a later batch failed
                self._keep(key, index)
            return index.explore(position)

    async def explore_published(self, position: Position) -> Exploration:
        """How the published real games of the position's size went from `position` (their
        index made at the first question of the size). Raises :class:`ExplorerBusy` when the
        games could not be replayed."""
        async with self._published_lock:
            index = self._published.get(position.size)
            if index is None:
                index = OpeningIndex(position.size)
                games = published_games().get(position.size, ())
                await self._add(index, games)
                self._published[position.size] = index
        return index.explore(position)

    def indexed(self) -> dict[tuple[int, int, int], int]:
        """The indexes held (server, size, bot) → their games, the least recently asked first."""
        return {key: len(index) for key, index in self._indexes.items()}

    def _keep(self, key: tuple[int, int, int], index: OpeningIndex) -> None:
        """Hold `index` as the most recently asked, dropping the least recently asked while
        the indexes hold more than the bound (never the one just asked for)."""
        self._indexes[key] = index
        while len(self._indexes) > 1 and sum(map(len, self._indexes.values())) > self._max_games:
            self._indexes.popitem(last=False)

    async def _update(self, index: OpeningIndex, guild_id: int, bot_id: int) -> None:
        stones, caps = STANDARD_RESERVES[index.size]
        params = (
            *(guild_id, index.size, GameStatus.FINISHED.value, Opening.SWAP.value),
            *(stones, stones, caps, caps, bot_id, bot_id),
        )
        new: list[tuple[int, Result]] = []
        async with self._db.snapshot() as tx:
            rows = await tx.fetchall("SELECT g.id, g.result " + _COUNTED, params)
            for row in rows:
                result = parse_result(row["result"])
                if row["id"] in index:
                    index.set_result(row["id"], result)
                else:
                    new.append((row["id"], result))
            moves: dict[int, list[str]] = {game_id: [] for game_id, _result in new}
            for chunk in _chunks([game_id for game_id, _result in new]):
                marks = ", ".join("?" * len(chunk))
                for row in await tx.fetchall(
                    f"SELECT game_id, ptn FROM moves WHERE undone_at IS NULL "
                    f"AND game_id IN ({marks}) ORDER BY game_id, ply",
                    tuple(chunk),
                ):
                    moves[row["game_id"]].append(row["ptn"])
        games = [FinishedGame(game_id, tuple(moves[game_id]), result) for game_id, result in new]
        await self._add(index, games)

    async def _add(self, index: OpeningIndex, games: Sequence[FinishedGame]) -> None:
        """Index `games`, replayed in the worker a batch at a time."""
        for batch in _chunks(games, REPLAY_BATCH):
            try:
                reached = await self._replayer.run(replay, index.size, batch)
            except (FileTooSlow, ReaderNotStarted):
                raise ExplorerBusy() from None
            index.record(batch, reached)


def _chunks(items: Sequence[_Item], size: int = _IN_CHUNK) -> Iterable[Sequence[_Item]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]
