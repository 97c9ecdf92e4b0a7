"""The miner against an independent brute force: every puzzle has exactly one winning first move.

The brute force here counts, for every legal move of the side to move, whether it wins by force
within three plies: the game won at once, or every reply either won by the mover or answered by a
move that wins. It shares nothing with the miner but the engine's legal moves and results.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.puzzles.mining import PuzzleKind, may_end_on_flats, mine, only_winning_move
from bot.puzzles.service import read_published
from tak import Color, Position, Spread
from tak.moves import Move
from tak.ptn import Game

REAL_GAMES = Path(__file__).parents[2] / "tak" / "real_games"  # see its README


def _won_by(position: Position, mover: Color) -> bool:
    return position.result is not None and position.result.winner is mover


def _wins_at_once(position: Position, move: Move, mover: Color) -> bool:
    position.push(move)
    try:
        return _won_by(position, mover)
    finally:
        position.pop()


def _wins_within_three_plies(position: Position, move: Move) -> bool:
    mover = position.to_move
    position.push(move)
    try:
        if position.result is not None:
            return position.result.winner is mover
        for reply in position.legal_moves():
            position.push(reply)
            try:
                if position.result is not None:
                    if position.result.winner is not mover:
                        return False
                    continue
                if not any(_wins_at_once(position, a, mover) for a in position.legal_moves()):
                    return False
            finally:
                position.pop()
        return True
    finally:
        position.pop()


def winning_moves(position: Position) -> list[Move]:
    if position.result is not None:
        return []
    return [m for m in position.legal_moves() if _wins_within_three_plies(position, m)]


def check(position: Position) -> PuzzleKind | None:
    """The miner's answer agrees with the brute force; returns the kind found, if any."""
    found = only_winning_move(position)
    if found is not None:
        move, kind = found
        assert winning_moves(position) == [move], position.tps()
        assert (kind is PuzzleKind.ROAD) == _wins_at_once(position, move, position.to_move)
        if kind is PuzzleKind.ROAD:
            assert isinstance(move, Spread)
        return kind
    if position.result is None and position.ply >= 2 and not may_end_on_flats(position):
        winners = winning_moves(position)
        if len(winners) == 1:  # a unique win the miner passed over must be a placed road
            (move,) = winners
            assert _wins_at_once(position, move, position.to_move), position.tps()
            assert not isinstance(move, Spread), position.tps()
    return None


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """A position reached by legal moves on a small board, biased towards stacks and roads."""
    size = draw(st.sampled_from([3, 4, 4, 5]), label="size")
    position = Position(size)
    for _ in range(draw(st.integers(4, 40), label="plies")):
        moves = position.legal_moves()
        if not moves:
            break
        spreads = [m for m in moves if isinstance(m, Spread)]
        pool = spreads if spreads and draw(st.booleans()) else moves
        position.push(pool[draw(st.integers(0, len(pool) - 1))])
        if position.result is not None:
            position.pop()
            break
    return position


@st.composite
def near_puzzles(draw: st.DrawFn) -> Position:
    """A published puzzle's position after a few more legal moves: random play rarely makes a
    puzzle (one in hundreds), its neighbourhood often does, or nearly (two winning moves)."""
    seeds = read_published()
    mined, _source = seeds[draw(st.integers(0, len(seeds) - 1), label="puzzle")]
    position = mined.position()
    for _ in range(draw(st.integers(0, 2), label="plies")):
        moves = position.legal_moves()
        position.push(moves[draw(st.integers(0, len(moves) - 1))])
        if position.result is not None:
            position.pop()
            break
    return position


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_a_puzzle_has_exactly_one_winning_first_move(position: Position) -> None:
    check(position)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(near_puzzles())
def test_near_a_puzzle_the_miner_agrees_with_brute_force(position: Position) -> None:
    check(position)


def test_every_position_of_real_games_agrees_with_brute_force() -> None:
    """Real games reach the positions random ones rarely do: both kinds of puzzle are found,
    and each is confirmed."""
    kinds: list[PuzzleKind] = []
    for path in sorted(REAL_GAMES.glob("*.ptn")):
        game = Game.parse(path.read_text())
        for position in game.replay():
            kind = check(position)
            if kind is not None:
                kinds.append(kind)
    assert set(kinds) == {PuzzleKind.ROAD, PuzzleKind.TINUE}


def test_mine_names_the_ply_and_solution_of_each_puzzle() -> None:
    game = Game.parse((REAL_GAMES / "asgardiator-v4.ptn").read_text())
    moves = [ply.move.ptn() for ply in game.plies]
    puzzles = list(mine(game.start(), moves))
    assert puzzles
    for puzzle in puzzles:
        position = game.start()
        for move in moves[: puzzle.ply]:
            position.play(move)
        assert puzzle.tps == position.tps()
        assert puzzle.position().tps() == position.tps()
        found = only_winning_move(position)
        assert found is not None and found[0].ptn() == puzzle.solution


def test_a_game_with_different_reserves_gives_no_puzzle() -> None:
    game = Game.parse((REAL_GAMES / "asgardiator-v4.ptn").read_text())
    moves = [ply.move.ptn() for ply in game.plies]
    start = Position(5, stones=(21, 20))
    assert not list(mine(start, moves))


def test_every_shipped_puzzle_has_exactly_one_winning_first_move() -> None:
    """The published set, as shipped: its solution is the only winning move, by brute force."""
    for mined, source in read_published():
        position = mined.position()
        assert [move.ptn() for move in winning_moves(position)] == [mined.solution], source
