"""Puzzles mined from games: positions where the side to move has exactly one winning move.

Pure: the rules engine (`tak/`) only, no database, so it runs in a worker thread or a script.

A **winning move** here is one that wins by force within the mover's next turn: it ends the game
in the mover's favour at once, or every reply of the opponent either hands the mover the game or
leaves the mover a road in one. A position is a puzzle when exactly one legal move of the side
to move is winning (proved by trying every legal move: :func:`tak.analysis.tactics` plays each
one and judges the Tinuë exactly), and that move is one of two kinds:

- **a road in one that is hard to see**: the road is completed by a spread (a stack moved and
  dropped along a line). A placement that fills the last gap of a road is what every player
  checks first, the gap being plain on the board; a spread changes several squares at once,
  capturing and uncovering pieces, and it is the road in one players walk past (in the 116
  published games of scripts/mine_puzzles.py, the side to move missed a road in one twice, both
  times a spread: of 40 positions whose only roads in one were spreads, and none of 10 whose
  only ones were placements). Roads by placement are left out, so every puzzle asks for more
  than finding a gap;
- **a Tinuë in one**: a move after which the opponent cannot stop a road (`''` in PTN; no road
  in one exists, since the single winning move is this one).

Positions in which the game could end on flats within the three plies a solution is judged over
(the board filling up, a player's last piece placed) are left out: a puzzle is about roads, and
there the Tinuë judge's answer ("no road in one left", not "lost on flats") and a plain count of
forced wins could differ. The opening (the first two plies, each placing the other's piece) has
no puzzles.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import Enum

from tak import Position, Spread, TakError
from tak.analysis import tactics
from tak.moves import Move

# Plies a solution is judged over: the mover's move, the reply, the mover's answer.
JUDGED_PLIES = 3


class PuzzleKind(Enum):
    """What the one winning move does."""

    ROAD = "road"  # completes a road at once, by a spread
    TINUE = "tinue"  # leaves the opponent no defence against a road


@dataclass(frozen=True, slots=True)
class MinedPuzzle:
    """A position (TPS, its game's komi and reserves) and its only winning move (PTN)."""

    tps: str
    komi: float
    stones: int
    caps: int
    solution: str
    kind: PuzzleKind
    ply: int  # the ply of the game the position came before (0: the first move)

    def position(self) -> Position:
        return puzzle_position(self.tps, self.komi, self.stones, self.caps)


def puzzle_position(tps: str, komi: float, stones: int, caps: int) -> Position:
    """A puzzle's position as the engine plays it: its reserves are what the game's leave."""
    return Position.from_tps(tps, komi=komi, stones=stones, caps=caps)


def may_end_on_flats(position: Position) -> bool:
    """Whether the game could end on flats within :data:`JUDGED_PLIES` plies: the board could
    fill up, or a player could place their last piece (the mover places twice, the opponent
    once)."""
    empties = sum(
        not position.stack(file, rank).colors
        for rank in range(position.size)
        for file in range(position.size)
    )
    mover, opponent = position.to_move, position.to_move.other
    return (
        empties <= JUDGED_PLIES
        or position.pieces_left(mover) <= 2
        or position.pieces_left(opponent) <= 1
    )


def only_winning_move(position: Position) -> tuple[Move, PuzzleKind] | None:
    """The side to move's only winning move and its kind, if the position is a puzzle (see the
    module's docstring); None otherwise. The position is left as it was."""
    if position.result is not None or position.ply < 2 or may_end_on_flats(position):
        return None
    found = tactics(position)
    if len(found.roads) + len(found.tinues) != 1:
        return None
    if found.roads:
        (road,) = found.roads
        return (road, PuzzleKind.ROAD) if isinstance(road, Spread) else None
    return found.tinues[0], PuzzleKind.TINUE


def mine(start: Position, moves: Iterable[str]) -> Iterator[MinedPuzzle]:
    """The puzzles among the positions a game reached, in the order played. `start` is the
    game's start (left as it was); the moves are PTN; a move that does not replay ends the game
    there. A game whose players started with different reserves gives none: a puzzle keeps one
    reserve for both."""
    position = start.copy()
    (stones, other_stones), (caps, other_caps) = position.starting_stones, position.starting_caps
    if (stones, caps) != (other_stones, other_caps):
        return
    for ply, move in enumerate((*moves, None)):
        found = only_winning_move(position)
        if found is not None:
            solution, kind = found
            yield MinedPuzzle(
                position.tps(), position.komi, stones, caps, solution.ptn(), kind, ply
            )
        if move is None or position.result is not None:
            return
        try:
            position.play(move)
        except TakError:  # a game that does not replay is mined up to there
            return
