"""The pure rules of a season against an independent scoring written here: random seasons of
round-robin divisions, their final tables and who goes up and down; the order and the cut."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.seasons.divisions import (
    Candidate,
    DivisionPlay,
    divide,
    movements,
    season_order,
    season_outcome,
)
from bot.tournaments import DEFAULT_SCORING, MatchResult, round_robin

WIN, DRAW, LOSS = 3.0, 1.0, 0.0  # the default match points


def independent_table(seeded: list[int], results: list[MatchResult]) -> list[int]:
    """The division's final order by hand: match points, then head-to-head among those tied
    (each tied group split again by its own head-to-head, then Sonneborn-Berger, then
    Buchholz), then seed."""
    points = dict.fromkeys(seeded, 0.0)
    for r in results:
        if r.winner is None:
            points[r.player1] += DRAW
            points[r.player2] += DRAW
        else:
            points[r.winner] += WIN
            loser = r.player2 if r.winner == r.player1 else r.player1
            points[loser] += LOSS

    def earned(player: int, against: set[int]) -> float:
        total = 0.0
        for r in results:
            if player in (r.player1, r.player2):
                other = r.player2 if r.player1 == player else r.player1
                if other in against:
                    total += DRAW if r.winner is None else (WIN if r.winner == player else LOSS)
        return total

    def sonneborn(player: int) -> float:
        total = 0.0
        for r in results:
            if player in (r.player1, r.player2):
                other = r.player2 if r.player1 == player else r.player1
                share = 0.5 if r.winner is None else (1.0 if r.winner == player else 0.0)
                total += points[other] * share
        return total

    def buchholz(player: int) -> float:
        return sum(
            points[r.player2 if r.player1 == player else r.player1]
            for r in results
            if player in (r.player1, r.player2)
        )

    def order(group: list[int], level: int) -> list[int]:
        if len(group) == 1 or level == 3:
            return sorted(group, key=seeded.index)
        if level == 0:  # every player of a round robin met every other: head-to-head counts
            value = {p: earned(p, set(group) - {p}) for p in group}
        else:
            value = {p: (sonneborn if level == 1 else buchholz)(p) for p in group}
        ranked: list[int] = []
        for v in sorted(set(value.values()), reverse=True):
            ranked += order([p for p in group if value[p] == v], level + 1)
        return ranked

    table: list[int] = []
    for score in sorted(set(points.values()), reverse=True):
        table += order([p for p in seeded if points[p] == score], 0)
    return table


def independent_moves(tables: list[list[int]], movers: int) -> dict[int, int]:
    """Up and down by hand: between each two neighbouring divisions, `movers` each way, or half
    of the smaller division when it has fewer than twice that."""
    going = {}
    for index, table in enumerate(tables):
        number = index + 1
        above = tables[index - 1] if index > 0 else []
        below = tables[index + 1] if index + 1 < len(tables) else []
        up = min(movers, len(table) // 2, len(above) // 2)
        down = min(movers, len(table) // 2, len(below) // 2)
        for place, player in enumerate(table):
            if place < up:
                going[player] = number - 1
            elif place >= len(table) - down:
                going[player] = number + 1
            else:
                going[player] = number
    return going


@st.composite
def seasons(draw: st.DrawFn) -> tuple[list[DivisionPlay], int]:
    sizes = draw(st.lists(st.integers(min_value=2, max_value=6), min_size=1, max_size=4))
    movers = draw(st.integers(min_value=0, max_value=3))
    plays, next_id = [], 1
    for size in sizes:
        seeded = list(range(next_id, next_id + size))
        next_id += size
        results = []
        for number, round_ in enumerate(round_robin(seeded), start=1):
            for pairing in round_.pairings:
                points1 = draw(st.integers(min_value=0, max_value=4))
                points2 = draw(st.integers(min_value=0, max_value=4))
                winner = None
                if points1 != points2:
                    winner = pairing.player1 if points1 > points2 else pairing.player2
                results.append(
                    MatchResult(number, pairing.player1, pairing.player2, points1, points2, winner)
                )
        plays.append(DivisionPlay(seeded, results))
    return plays, movers


@given(seasons())
def test_a_seasons_tables_and_moves_equal_an_independent_scoring(
    season: tuple[list[DivisionPlay], int],
) -> None:
    plays, movers = season
    outcome = season_outcome(plays, DEFAULT_SCORING, movers)
    expected = [independent_table(list(p.seeded), list(p.results)) for p in plays]
    assert [[row.player for row in table] for table in outcome.tables] == expected
    assert dict(outcome.next_division) == independent_moves(expected, movers)
    # Nobody moves more than one division, and every division keeps its size.
    for number, table in enumerate(expected, start=1):
        assert all(abs(outcome.next_division[p] - number) <= 1 for p in table)
    sizes = [len(t) for t in expected]
    landed = [
        sum(1 for d in outcome.next_division.values() if d == n) for n in range(1, len(sizes) + 1)
    ]
    assert landed == sizes


@given(st.integers(min_value=1, max_value=60), st.integers(min_value=3, max_value=16))
def test_the_cut_keeps_order_and_sizes_even(count: int, size: int) -> None:
    field = list(range(count))
    divisions = divide(field, size)
    assert [p for d in divisions for p in d] == field
    lengths = [len(d) for d in divisions]
    assert lengths == sorted(lengths, reverse=True) and lengths[0] - lengths[-1] <= 1
    assert (
        len(divisions) == max(1, round(count / size + 1e-9))
        or abs(count / size - len(divisions)) <= 0.5
    )


def test_returning_players_by_division_earned_then_rating_newcomers_last() -> None:
    order = season_order(
        [
            Candidate(1, None, 2000.0),  # a strong newcomer
            Candidate(2, 2, 1500.0),
            Candidate(3, 1, 1400.0),
            Candidate(4, 2, 1600.0),
            Candidate(5, None, None),  # unrated
            Candidate(6, None, 1200.0),
            Candidate(7, 1, None),
        ]
    )
    assert order == [3, 7, 4, 2, 1, 6, 5]


def test_movements_in_small_divisions_move_half_at_most() -> None:
    assert movements([[1, 2, 3], [4, 5]], 2) == {1: 1, 2: 1, 3: 2, 4: 1, 5: 2}
    assert movements([[1, 2], [3, 4, 5, 6]], 2) == {1: 1, 2: 2, 3: 1, 4: 2, 5: 2, 6: 2}
    assert movements([[1, 2]], 1) == {1: 1, 2: 1}
