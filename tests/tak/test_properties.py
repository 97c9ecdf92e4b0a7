"""Properties of the engine over random games of every size.

The oracle functions here re-derive roads and flat counts from the stacks alone (plain BFS over
`Position.stack`), independently of the engine's bitboards.
"""

from __future__ import annotations

from collections import deque
from itertools import pairwise

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tak import (
    Color,
    Direction,
    Piece,
    Placement,
    Position,
    ResultKind,
    Spread,
    format_tps,
    parse_move,
)
from tak.ptn import Game, GamePly

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def games(draw: st.DrawFn, max_plies: int = 120) -> tuple[Position, list]:
    """A position reached by random legal moves, with the moves played."""
    size = draw(st.integers(3, 8), label="size")
    komi = draw(st.sampled_from([0, 0.5, 2, -1]), label="komi")
    position = Position(size, komi=komi)
    plies = draw(st.integers(0, max_plies), label="plies")
    played = []
    for _ in range(plies):
        moves = position.legal_moves()
        if not moves:
            break
        move = moves[draw(st.integers(0, len(moves) - 1))]
        position.push(move)
        played.append(move)
    return position, played


def _road_pieces(position: Position, color: Color) -> set[tuple[int, int]]:
    n = position.size
    return {
        (f, r)
        for f in range(n)
        for r in range(n)
        if position.stack(f, r).owner is color and position.stack(f, r).top is not Piece.WALL
    }


def _oracle_has_road(position: Position, color: Color) -> bool:
    squares = _road_pieces(position, color)
    n = position.size
    for start_edge, is_goal in (
        ({s for s in squares if s[0] == 0}, lambda s: s[0] == n - 1),
        ({s for s in squares if s[1] == 0}, lambda s: s[1] == n - 1),
    ):
        seen = set(start_edge)
        queue = deque(start_edge)
        while queue:
            f, r = queue.popleft()
            if is_goal((f, r)):
                return True
            for nb in ((f + 1, r), (f - 1, r), (f, r + 1), (f, r - 1)):
                if nb in squares and nb not in seen:
                    seen.add(nb)
                    queue.append(nb)
    return False


def _oracle_flats(position: Position, color: Color) -> int:
    n = position.size
    return sum(
        1
        for f in range(n)
        for r in range(n)
        if position.stack(f, r).owner is color and position.stack(f, r).top is Piece.FLAT
    )


@SETTINGS
@given(games())
def test_results_agree_with_the_oracle(game: tuple[Position, list]) -> None:
    position, _ = game
    result = position.result
    roads = {c: _oracle_has_road(position, c) for c in Color}
    full = all(
        position.stack(f, r).height for f in range(position.size) for r in range(position.size)
    )
    out = any(position.reserves(c).total == 0 for c in Color)
    if result is None:
        assert not any(roads.values()) and not full and not out
        assert position.legal_moves()
        return
    if result.kind is ResultKind.ROAD:
        assert roads[result.winner]
        mover = position.to_move.other
        if roads[mover]:
            assert result.winner is mover  # a double road goes to the mover
        road = result.road
        assert set(road) <= _road_pieces(position, result.winner)
        assert all(abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1 for a, b in pairwise(road))
        n = position.size
        ends = {road[0], road[-1]}
        assert ({s[0] for s in ends} == {0, n - 1}) or ({s[1] for s in ends} == {0, n - 1})
    else:
        assert not any(roads.values())
        assert full or out
        white = 2 * _oracle_flats(position, Color.WHITE)
        black = 2 * _oracle_flats(position, Color.BLACK) + int(2 * position.komi)
        expected = None if white == black else Color.WHITE if white > black else Color.BLACK
        assert result.winner is expected


@SETTINGS
@given(games(max_plies=60))
def test_generated_moves_round_trip_and_count(game: tuple[Position, list]) -> None:
    position, _ = game
    moves = position.legal_moves()
    assert len(moves) == len(set(moves)) == position.count_legal_moves()
    for move in moves:
        assert parse_move(move.ptn()) == move
        position.check(move)


@SETTINGS
@given(games(max_plies=60), st.data())
def test_a_move_is_accepted_if_and_only_if_generated(
    game: tuple[Position, list], data: st.DataObject
) -> None:
    position, _ = game
    legal = set(position.legal_moves())
    n = position.size
    last = min(n, 7)  # one past the board where a square exists
    squares = st.tuples(st.integers(0, last), st.integers(0, last))
    placements = st.builds(
        lambda sq, piece: Placement(sq[0], sq[1], piece), squares, st.sampled_from(Piece)
    )
    spreads = st.builds(
        lambda sq, d, drops: Spread(sq[0], sq[1], d, tuple(drops)),
        squares,
        st.sampled_from(Direction),
        st.lists(st.integers(0, 4), min_size=1, max_size=4),
    )
    # Candidates near legal ones (same origin) as well as anywhere.
    for candidate in data.draw(st.lists(placements | spreads, max_size=60)):
        assert position.is_legal(candidate) == (candidate in legal)


@SETTINGS
@given(games(max_plies=80))
def test_push_then_pop_restores_everything(game: tuple[Position, list]) -> None:
    position, _ = game
    before = position.tps()
    reference = Position.from_tps(before, komi=position.komi)
    for move in position.legal_moves():
        position.push(move)
        position.pop()
    assert position.tps() == before
    assert position.result == reference.result
    assert position.legal_moves() == reference.legal_moves()
    assert position.road_threats() == reference.road_threats()
    for color in Color:
        assert position.flat_count(color) == reference.flat_count(color)
        assert position.reserves(color) == reference.reserves(color)


def _oracle_groups(squares: set[tuple[int, int]]) -> list[set[tuple[int, int]]]:
    groups, left = [], set(squares)
    while left:
        group, queue = set(), deque([min(left, key=lambda s: (s[1], s[0]))])
        while queue:
            f, r = queue.popleft()
            if (f, r) in left:
                left.discard((f, r))
                group.add((f, r))
                queue.extend(((f + 1, r), (f - 1, r), (f, r + 1), (f, r - 1)))
        groups.append(group)
    return groups


def _bits(position: Position, squares: set[tuple[int, int]]) -> int:
    return sum(1 << (r * position.size + f) for f, r in squares)


@SETTINGS
@given(games())
def test_bitboards_groups_and_spans_agree_with_the_stacks(game: tuple[Position, list]) -> None:
    position, _ = game
    n, geo = position.size, position.geometry
    stacks = {(f, r): position.stack(f, r) for f in range(n) for r in range(n)}
    tall = {s for s, stack in stacks.items() if stack.height > 1}
    capstones = {s for s, stack in stacks.items() if stack.top is Piece.CAP and stack.height}
    assert position.tall_stacks == _bits(position, tall)
    for (f, r), stack in stacks.items():  # the plain-int view the search reads
        colours, top = position.square(r * n + f)
        assert colours == tuple(int(c) for c in stack.colors)
        assert not colours or top == int(stack.top)  # an empty square's top means nothing
    assert position.capstones == _bits(position, capstones)
    for color in Color:
        road = _road_pieces(position, color)
        walls = {s for s, st in stacks.items() if st.owner is color and st.top is Piece.WALL}
        assert position.road_pieces(color) == _bits(position, road)
        assert position.wall_pieces(color) == _bits(position, walls)
        expected = _oracle_groups(road)
        assert geo.groups(position.road_pieces(color)) == [_bits(position, g) for g in expected]
        spans = [max(len({f for f, _ in g}), len({r for _, r in g})) for g in expected]
        assert [geo.span(_bits(position, g)) for g in expected] == spans


@SETTINGS
@given(games())
def test_tps_round_trip(game: tuple[Position, list]) -> None:
    position, _ = game
    text = position.tps()
    assert text == format_tps(position.board())  # the fast writer and the general one agree
    again = Position.from_tps(text, komi=position.komi)
    assert again.tps() == text
    assert again.ply == position.ply
    assert again.result == position.result
    for color in Color:
        assert again.reserves(color) == position.reserves(color)


@SETTINGS
@given(games(max_plies=90))
def test_road_threats_are_exactly_the_winning_moves(game: tuple[Position, list]) -> None:
    position, _ = game
    for color in Color:
        # Ask for either player by giving them the move (the bot asks for the one who just moved).
        board, player, number = position.tps().split()
        flipped = f"{board} {3 - int(player)} {number}" if color is not position.to_move else None
        subject = Position.from_tps(flipped) if flipped else position.copy()
        if subject.is_opening or subject.result is not None:
            continue
        winning = []
        for move in subject.legal_moves():
            subject.push(move)
            result = subject.result
            if result is not None and result.kind is ResultKind.ROAD and result.winner is color:
                winning.append(move)
            subject.pop()
        assert sorted(map(str, position.road_threats(color))) == sorted(map(str, winning))
        assert position.has_road_threat(color) == bool(winning)


@SETTINGS
@given(games(max_plies=80), st.lists(st.sampled_from(["'", "!", "?", "''", "!?"]), max_size=80))
def test_ptn_game_round_trip(game: tuple[Position, list], marks: list[str]) -> None:
    position, played = game
    plies = [
        GamePly(move, marks[i] if i < len(marks) else "", ["note"] if i % 7 == 3 else [])
        for i, move in enumerate(played)
    ]
    record = Game(
        tags={
            "Player1": "alice",
            "Player2": 'bob "the" builder',
            "Size": str(position.size),
            "Komi": str(position.komi),
        },
        plies=plies,
        result=position.result,
    )
    text = record.ptn()
    again = Game.parse(text)
    assert again.tags["Player2"] == "bob ''the'' builder"  # PTN Ninja has no escapes for `"`
    again.tags["Player2"] = record.tags["Player2"]
    assert again == record
    assert Game.parse(text).ptn() == text
    assert again.final_position().tps() == position.tps()
