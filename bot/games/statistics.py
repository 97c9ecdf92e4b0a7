"""A player's record in one server, for `/profile stats`: games by size, colour and kind of
result, their length, the time taken per move, the openings played most and the opponents met
most.

Only finished games count (an aborted game was never played out). Games against Bredon are kept
apart in :attr:`PlayerStatistics.against_bot`: they are practice at a chosen level, with a
partner who answers at once, and `/profile scores` leaves them out of a player's record too.

The time per move is read from the move log: each of the player's moves takes the time since
the move before it (or since the game started), wall-clock time, a vacation or a pause included.
The median is given, so one long holiday does not stand for a player's pace.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from statistics import median
from typing import TypeVar

from bot.games.model import GameStatus, GameView
from bot.players.model import PlayerRef
from tak import Color, ResultKind

MOST_SHOWN = 5  # openings and opponents listed
OPENING_PLIES = 2  # an opening: the game's first two moves (in a swap game, the two placements)
Key = TypeVar("Key")


@dataclass(frozen=True, slots=True)
class Tally:
    """Games won, lost and drawn."""

    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws

    def counted(self, outcome: int) -> Tally:
        """This tally with one more game: `outcome` 1 a win, -1 a loss, 0 a draw."""
        return Tally(
            self.wins + (outcome == 1), self.losses + (outcome == -1), self.draws + (outcome == 0)
        )


@dataclass(frozen=True, slots=True)
class PlayedMove:
    """One live move of the log: its ply, who played it and when."""

    ply: int
    ptn: str
    player_id: int
    played_at: datetime


@dataclass(frozen=True, slots=True)
class OpeningRecord:
    """How the games that began with `moves` (PTN, on `size`) went for the player."""

    size: int
    moves: str
    tally: Tally


@dataclass(frozen=True, slots=True)
class HeadToHead:
    opponent: PlayerRef
    tally: Tally


@dataclass(frozen=True, slots=True)
class PlayerStatistics:
    """`player_id`'s finished games in a server (on one size, or all), Bredon's apart."""

    player_id: int
    overall: Tally = Tally()
    by_size: Mapping[int, Tally] = field(default_factory=dict)
    as_white: Tally = Tally()
    as_black: Tally = Tally()
    wins_by: Mapping[ResultKind, int] = field(default_factory=dict)  # how each win came
    losses_by: Mapping[ResultKind, int] = field(default_factory=dict)
    average_plies: float = 0.0  # plies of each game's own (a TPS start not counted)
    move_seconds: float | None = None  # the median time per move; None without a timed move
    timed_moves: int = 0  # moves whose time is known
    openings: tuple[OpeningRecord, ...] = ()  # the most played first, at most MOST_SHOWN
    opponents: tuple[HeadToHead, ...] = ()  # the most met first, at most MOST_SHOWN
    against_bot: Tally = Tally()

    @property
    def games(self) -> int:
        """Finished games against players (Bredon's not counted)."""
        return self.overall.games


def outcome_for(game: GameView, player_id: int) -> int:
    """1 when `player_id` won `game`, -1 when they lost, 0 for a draw."""
    if game.winner is None:
        return 0
    return 1 if game.winner.id == player_id else -1


def opening_of(moves: Sequence[PlayedMove], size: int) -> str | None:
    """The game's first two moves in PTN, or None for a game shorter than that. An opening and
    its mirror images and rotations are one opening ("f6 a1" is "a1 f6" turned over), written as
    the one of the eight that comes first in PTN's order: the board has no favoured side."""
    first = [move.ptn for move in moves[:OPENING_PLIES]]
    if len(first) != OPENING_PLIES:
        return None
    return min(" ".join(_turned(move, size, turn) for move in first) for turn in range(8))


_PLACEMENT = re.compile(r"([FSC]?)([a-h])([1-8])")


def _turned(move: str, size: int, turn: int) -> str:
    """A placement's PTN after one of the board's eight symmetries (`turn`: its bits swap the
    axes, then mirror the files, then the ranks); any other move is left as it is."""
    placed = _PLACEMENT.fullmatch(move)
    if placed is None:
        return move
    piece, file, rank = placed.groups()
    x, y = ord(file) - ord("a"), int(rank) - 1
    if turn & 1:
        x, y = y, x
    if turn & 2:
        x = size - 1 - x
    if turn & 4:
        y = size - 1 - y
    return f"{piece}{chr(ord('a') + x)}{y + 1}"


def move_times(player_id: int, started: datetime, moves: Sequence[PlayedMove]) -> list[float]:
    """Seconds each of the player's moves took: since the move before, or since `started`."""
    times = []
    before = started
    for move in moves:
        if move.player_id == player_id:
            times.append(max(0.0, (move.played_at - before).total_seconds()))
        before = move.played_at
    return times


def _most(counted: Mapping[Key, Tally]) -> list[Key]:
    """The keys of the most games first; equal ones in the order they came (newest first)."""
    return sorted(counted, key=lambda key: -counted[key].games)[:MOST_SHOWN]


def statistics_of(
    player_id: int,
    games: Iterable[GameView],
    moves: Mapping[int, Sequence[PlayedMove]],
    *,
    bot_id: int | None,
) -> PlayerStatistics:
    """`player_id`'s statistics from `games` (the newest first: ties in the lists keep that
    order) and each game's live moves by ply (`moves`, by game id). Games not finished or not
    the player's are left out; games against `bot_id` only count in `against_bot`."""
    overall = as_white = as_black = against_bot = Tally()
    by_size: dict[int, Tally] = {}
    wins_by: Counter[ResultKind] = Counter()
    losses_by: Counter[ResultKind] = Counter()
    openings: dict[tuple[int, str], Tally] = {}
    opponents: dict[int, Tally] = {}
    names: dict[int, PlayerRef] = {}
    plies = 0
    times: list[float] = []
    for game in games:
        if game.status is not GameStatus.FINISHED or player_id not in (
            game.white.id,
            game.black.id,
        ):
            continue
        outcome = outcome_for(game, player_id)
        opponent = game.opponent_of(player_id)
        if bot_id is not None and opponent.id == bot_id:
            against_bot = against_bot.counted(outcome)
            continue
        overall = overall.counted(outcome)
        size = game.setup.size
        by_size[size] = by_size.get(size, Tally()).counted(outcome)
        if game.color_of(player_id) is Color.WHITE:
            as_white = as_white.counted(outcome)
        else:
            as_black = as_black.counted(outcome)
        assert game.result is not None  # a finished game has one
        if outcome == 1:
            wins_by[game.result.kind] += 1
        elif outcome == -1:
            losses_by[game.result.kind] += 1
        plies += game.plies_played
        played = moves.get(game.id, ())
        times += move_times(player_id, game.created_at, played)
        opening = opening_of(played, size) if game.setup.start_tps is None else None
        if opening is not None:
            key = (size, opening)
            openings[key] = openings.get(key, Tally()).counted(outcome)
        opponents[opponent.id] = opponents.get(opponent.id, Tally()).counted(outcome)
        names.setdefault(opponent.id, opponent)  # the newest name seen
    return PlayerStatistics(
        player_id=player_id,
        overall=overall,
        by_size=dict(sorted(by_size.items())),
        as_white=as_white,
        as_black=as_black,
        wins_by=dict(wins_by),
        losses_by=dict(losses_by),
        average_plies=plies / overall.games if overall.games else 0.0,
        move_seconds=median(times) if times else None,
        timed_moves=len(times),
        openings=tuple(
            OpeningRecord(size, text, openings[(size, text)]) for size, text in _most(openings)
        ),
        opponents=tuple(HeadToHead(names[key], opponents[key]) for key in _most(opponents)),
        against_bot=against_bot,
    )
