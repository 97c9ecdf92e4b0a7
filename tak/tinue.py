"""Tak and Tinuë: what the player who has just moved can call.

"Tak" is a road threat: the player who just moved could complete a road with their next move.
"Tinuë" is a Tak that cannot be stopped: every legal reply of the opponent either hands the mover
the game (it completes the mover's road, or ends the game on flats in the mover's favour) or
leaves the mover a move that completes a road at once. A reply that ends the game any other way
(the opponent's own road, which wins even when it completes the mover's too; a flat win for the
opponent; a draw) stops it. Without a Tak there is no Tinuë, even when every reply loses on flats:
that is a lost game, not an unstoppable road.

The answer is exact: a reply is only skipped (taken as stopping nothing) when it provably
leaves some threat intact, see :func:`judge`. :func:`judge_by_brute_force` plays every reply and
every answer to it, for tests.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from enum import Enum

from tak.moves import Color, Move, Piece, Placement, Spread
from tak.position import Position
from tak.ptn import Game, GamePly
from tak.results import ResultKind


class Call(Enum):
    """What the player who just moved may call, with its PTN mark."""

    NONE = ""
    TAK = "'"
    TINUE = "''"

    @property
    def mark(self) -> str:
        """The PTN mark after the move: `'` for Tak, `''` for Tinuë, nothing otherwise."""
        return self.value

    @property
    def word(self) -> str:
        return {Call.NONE: "", Call.TAK: "Tak", Call.TINUE: "Tinuë"}[self]


@dataclass(frozen=True, slots=True)
class Verdict:
    """The mover's road threats, and a reply of the opponent that stops them (if any)."""

    threats: tuple[Move, ...]  # the moves that would complete the mover's road; empty: no Tak
    defence: Move | None  # None with threats: Tinuë

    @property
    def call(self) -> Call:
        if not self.threats:
            return Call.NONE
        return Call.TAK if self.defence is not None else Call.TINUE


def call(position: Position) -> Call:
    """Tak, Tinuë or nothing, for the player who has just moved (not the side to move)."""
    if position.result is not None or not position.has_road_threat(position.to_move.other):
        return Call.NONE
    return judge(position).call


def is_tinue(position: Position) -> bool:
    return call(position) is Call.TINUE


# The Tak marks a PTN file may carry after a move: `'`, `''`, and `"` (read as Tinuë).
_TAK_MARKS = str.maketrans("", "", "'\"")


def with_calls(record: Game) -> Game:
    """A copy of `record` whose every move carries the call it makes (`''` Tinuë, `'` Tak),
    worked out afresh whatever the players typed; other marks (`!`, `?`) are kept after it.
    `record` is left as it was. Slow on long games with many threats: call it in a worker
    thread."""
    positions = record.replay()
    next(positions)  # the start: no move made it
    plies = [
        GamePly(ply.move, call(position).mark + ply.marks.translate(_TAK_MARKS), [*ply.comments])
        for ply, position in zip(record.plies, positions, strict=True)
    ]
    return replace(record, tags=dict(record.tags), plies=plies, comments=[*record.comments])


def judge(position: Position) -> Verdict:
    """The mover's threats and a defence against them; the position is left as it was.

    Pruning, exact by construction: once the opponent is known to have no road of their own in
    one move, a reply can end the game only by completing the mover's road (fine for the
    mover) or by filling the board or emptying the opponent's reserve (flats: played out). A
    reply that cannot end the game and changes none of a threat's squares nor any square
    topped by the mover's road pieces leaves that threat as it was: the road the threat
    completes is still there. Every other reply is played, and the mover's road threats are
    looked for afresh.
    """
    mover = position.to_move.other
    if position.result is not None:
        return Verdict((), None)
    threats = tuple(position.road_threats(mover))
    if not threats:
        return Verdict((), None)
    own_road = next(iter(position.road_threats()), None)
    if own_road is not None:  # the opponent wins at once, by road
        return Verdict(threats, own_road)
    board = _Board(position, mover)
    threat_squares = [board.squares_of(t) for t in threats]
    # A placement is skipped when some threat does not use its square.
    needed_by_all = ~0
    for squares in threat_squares:
        needed_by_all &= squares
    untouchable = [squares | board.mover_roads for squares in threat_squares]
    opponent = position.reserves(position.to_move)
    placement_may_end = opponent.total <= 1 or board.empties <= 1
    for reply in position.legal_moves():
        if isinstance(reply, Placement):
            if not placement_may_end and not needed_by_all >> board.index(reply) & 1:
                continue
        elif len(reply.drops) < board.empties:
            touched = board.squares_of(reply)
            if any(not touched & squares for squares in untouchable):
                continue
        if not _fails_to_stop(position, reply, mover):
            return Verdict(threats, reply)
    return Verdict(threats, None)


def _fails_to_stop(position: Position, reply: Move, mover: Color) -> bool:
    """Whether, after `reply`, the mover has won or can complete a road at once."""
    position.push(reply)
    try:
        result = position.result
        if result is not None:
            return result.winner is mover
        return position.has_road_threat()
    finally:
        position.pop()


class _Board:
    """Squares as bits (`rank * size + file`), read once through the position's public API."""

    def __init__(self, position: Position, mover: Color) -> None:
        n = self.size = position.size
        self.mover_roads = 0
        self.empties = 0
        for rank in range(n):
            for file in range(n):
                stack = position.stack(file, rank)
                if not stack.colors:
                    self.empties += 1
                elif stack.colors[-1] is mover and stack.top is not Piece.WALL:
                    self.mover_roads |= 1 << (rank * n + file)
        self._spread_masks: dict[tuple[int, int, object, int], int] = {}

    def index(self, move: Move) -> int:
        return move.rank * self.size + move.file

    def squares_of(self, move: Move) -> int:
        """The squares a move changes: a placement's square, a spread's origin and drops."""
        if type(move) is Placement:
            return 1 << self.index(move)
        assert isinstance(move, Spread)
        key = (move.file, move.rank, move.direction, len(move.drops))
        mask = self._spread_masks.get(key)
        if mask is None:
            mask = _mask(self.size, [(move.file, move.rank), *move.path()])
            self._spread_masks[key] = mask
        return mask


def _mask(size: int, squares: Iterable[tuple[int, int]]) -> int:
    bits = 0
    for file, rank in squares:
        bits |= 1 << (rank * size + file)
    return bits


def judge_by_brute_force(position: Position) -> Call:
    """The same answer as :func:`call`, by playing every reply and every answer to it and
    reading the result: slow, for checking :func:`call` in tests."""
    if position.result is not None:
        return Call.NONE
    mover = position.to_move.other
    if not position.road_threats(mover):
        return Call.NONE
    for reply in position.legal_moves():
        position.push(reply)
        try:
            if not _mover_wins_now(position, mover):
                return Call.TAK
        finally:
            position.pop()
    return Call.TINUE


def _mover_wins_now(position: Position, mover: Color) -> bool:
    """After the opponent's reply: the mover has won, or has a move that wins by road."""
    if position.result is not None:
        return position.result.winner is mover
    for answer in position.legal_moves():
        position.push(answer)
        result = position.result
        position.pop()
        if result is not None and result.winner is mover and result.kind is ResultKind.ROAD:
            return True
    return False
