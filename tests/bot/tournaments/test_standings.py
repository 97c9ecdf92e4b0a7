"""Standings: records and both scores add up, tie-breaks apply in the configured order, places
are shared only when everything ties, and the CSV export says the same as the table."""

from __future__ import annotations

import csv
import io
from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.tournaments import (
    MatchResult,
    Pairing,
    Scoring,
    ScoringSystem,
    Standing,
    TieBreak,
    TournamentError,
    compute_standings,
    round_robin,
    standings_csv,
)
from tests.bot.tournaments.scored import by_points

A, B, C, D, E = 11, 22, 33, 44, 55


def result(round_: int, one: int, two: int, points1: int, points2: int) -> MatchResult:
    return by_points(round_, Pairing(one, two), points1, points2)


def rows(table: list[Standing]) -> list[tuple[int, int]]:
    return [(row.place, row.player) for row in table]


def test_a_round_robin_table_with_match_points() -> None:
    results = [
        result(1, A, D, 40, 0),
        result(1, B, C, 20, 20),
        result(2, D, C, 0, 35),
        result(2, A, B, 0, 30),
        result(3, B, D, 31, 0),
        result(3, C, A, 0, 33),
    ]
    table = compute_standings([A, B, C, D], results)
    assert rows(table) == [(1, B), (2, A), (3, C), (4, D)]
    b = table[0]
    assert (b.played, b.won, b.drawn, b.lost, b.byes) == (3, 2, 1, 0, 0)
    assert (b.game_points, b.match_points, b.score) == (81, 7, 7)
    # Scores: B 7, A 6, C 4, D 0. B beat A (6) and D (0), drew C (4): SB 6 + 2; Buchholz 10.
    assert b.tie_breaks == (0, 8, 10)
    by_game_points = compute_standings(
        [A, B, C, D], results, scoring=Scoring(ScoringSystem.GAME_POINTS)
    )
    assert [(row.player, row.score) for row in by_game_points] == [
        (B, 81),
        (A, 73),
        (C, 55),
        (D, 0),
    ]


def test_head_to_head_before_buchholz_and_after() -> None:
    # A and B both score 6. B beat A; A beat the stronger opponents, so A has more Buchholz.
    results = [
        result(1, A, C, 30, 0),
        result(1, B, E, 30, 0),
        result(2, B, A, 30, 0),
        result(2, D, E, 30, 0),
        result(3, A, D, 30, 0),
        result(3, C, B, 30, 0),
    ]
    players = [A, B, C, D, E]
    table = compute_standings(players, results)
    assert [(row.player, row.score) for row in table][:2] == [(B, 6), (A, 6)]
    assert table[0].tie_breaks == (3, 6, 9) and table[1].tie_breaks == (0, 6, 12)
    buchholz_first = Scoring(tie_breaks=(TieBreak.BUCHHOLZ, TieBreak.HEAD_TO_HEAD))
    assert rows(compute_standings(players, results, scoring=buchholz_first))[:2] == [(1, A), (2, B)]


def test_a_head_to_head_cycle_leaves_the_next_tie_break_to_decide() -> None:
    # A beats B, B beats C, C beats A; each also beats one of D, E; D beats E.
    results = [
        result(1, A, B, 30, 0),
        result(2, B, C, 30, 0),
        result(3, C, A, 30, 0),
        result(4, A, D, 30, 0),
        result(4, B, E, 30, 0),
        result(5, C, D, 30, 0),
        result(6, D, E, 30, 0),
    ]
    table = compute_standings([A, B, C, D, E], results)
    assert rows(table) == [(1, A), (1, C), (3, B), (4, D), (5, E)]
    # Head-to-head 3 each; Sonneborn-Berger A 6 + 3, C 6 + 3, B 6 + 0; Buchholz A = C = 15.
    assert [row.tie_breaks for row in table[:3]] == [(3, 9, 15), (3, 9, 15), (3, 6, 12)]


def test_head_to_head_counts_only_when_all_the_tied_players_have_met() -> None:
    # B, C, X, Y all score 3. Buchholz splits {B, C} from {X, Y}; C beat B, so C goes above its
    # better seed; X and Y never met, so they stay tied and share third place.
    X, Y, Z = C, D, E
    B_, C_ = A, B
    results = [
        result(1, B_, X, 30, 0),
        result(1, C_, Y, 0, 30),
        result(2, C_, B_, 30, 0),
        result(2, X, Z, 30, 0),
    ]
    scoring = Scoring(tie_breaks=(TieBreak.BUCHHOLZ, TieBreak.HEAD_TO_HEAD))
    table = compute_standings([B_, C_, X, Y, Z], results, scoring=scoring)
    assert rows(table) == [(1, C_), (2, B_), (3, X), (3, Y), (5, Z)]
    assert [row.tie_breaks for row in table] == [(6, 3), (6, 0), (3, 0), (3, 0), (3, 0)]


def test_everything_tied_shares_first_place() -> None:
    # A beats B, C beats D, B beats C, D beats A: 3 points each, nobody met all the others.
    results = [
        result(1, A, B, 30, 0),
        result(1, C, D, 30, 0),
        result(2, B, C, 30, 0),
        result(2, D, A, 30, 0),
    ]
    table = compute_standings([A, B, C, D], results)
    assert rows(table) == [(1, A), (1, B), (1, C), (1, D)]
    assert {row.tie_breaks for row in table} == {(0, 3, 6)}


def test_byes_count_as_match_wins_but_not_for_buchholz() -> None:
    results = [result(1, A, B, 25, 5), result(2, B, C, 0, 30), result(3, A, C, 10, 10)]
    scoring = Scoring(bye_game_points=20)
    table = compute_standings([A, B, C], results, byes=[C, B, A], scoring=scoring)
    by_player = {row.player: row for row in table}
    assert by_player[A].byes == 1 and by_player[A].played == 2
    assert by_player[A].match_points == 3 + 1 + 3
    assert by_player[A].game_points == 25 + 10 + 20
    # Buchholz: B (3 from the bye) + C (3 + 1 + 3).
    assert by_player[A].tie_breaks[2] == 3 + 7


@given(st.integers(min_value=2, max_value=9), st.booleans(), st.data())
def test_totals_add_up_and_the_order_follows_the_tie_breaks(
    size: int, double: bool, data: st.DataObject
) -> None:
    players = [100 + i for i in range(size)]
    results: list[MatchResult] = []
    byes: list[int] = []
    for number, round_ in enumerate(round_robin(players, double=double), start=1):
        for pairing in round_.pairings:
            points = data.draw(st.tuples(st.integers(0, 3), st.integers(0, 3)))
            results.append(by_points(number, pairing, *points))
        byes += round_.byes
    order = data.draw(st.permutations(list(TieBreak)))
    system = data.draw(st.sampled_from(list(ScoringSystem)))
    scoring = Scoring(system, tie_breaks=tuple(order))
    table = compute_standings(players, results, byes, scoring)

    assert sorted(row.player for row in table) == sorted(players)
    assert sum(row.won for row in table) == sum(row.lost for row in table)
    assert sum(row.played for row in table) == 2 * len(results)
    assert all(row.played == row.won + row.drawn + row.lost for row in table)
    assert sum(row.byes for row in table) == len(byes)
    assert sum(row.game_points for row in table) == sum(r.points1 + r.points2 for r in results)
    assert sum(row.match_points for row in table) == pytest.approx(
        sum(3 if r.winner is not None else 2 for r in results) + 3 * len(byes)
    )
    keys = [(row.score, *row.tie_breaks) for row in table]
    assert keys == sorted(keys, reverse=True)
    for before, after in pairwise(table):
        same = (before.score, *before.tie_breaks) == (after.score, *after.tie_breaks)
        assert (before.place == after.place) == same
        if same:
            assert players.index(before.player) < players.index(after.player)
    assert table[0].place == 1
    assert all(row.place == i + 1 or row.place == table[i - 1].place for i, row in enumerate(table))


def test_csv_export_reads_back_as_the_table() -> None:
    results = [result(1, A, B, 30, 0), result(1, C, D, 12, 12)]
    scoring = Scoring(match_draw=0.5, match_win=1, bye_match_points=1)
    table = compute_standings([A, B, C, D], results, scoring=scoring)
    text = standings_csv(table, scoring, names={A: "Ann, the first", B: 'Bo "B"'})
    parsed = list(csv.reader(io.StringIO(text)))
    assert parsed[0] == [
        "Place",
        "Player ID",
        "Name",
        "Played",
        "Won",
        "Drawn",
        "Lost",
        "Byes",
        "Game points",
        "Match points",
        "head-to-head",
        "Sonneborn-Berger",
        "Buchholz",
    ]
    assert parsed[1] == [
        "1",
        str(A),
        "Ann, the first",
        "1",
        "1",
        "0",
        "0",
        "0",
        "30",
        "1",
        "0",
        "0",
        "0",
    ]
    assert [line[2] for line in parsed[1:]] == ["Ann, the first", "", "", 'Bo "B"']
    assert [line[9] for line in parsed[1:]] == ["1", "0.5", "0.5", "0"]
    assert len(parsed) == 5


def test_results_for_strangers_are_refused() -> None:
    with pytest.raises(TournamentError, match="Player 99 has a result but is not in the field"):
        compute_standings([A, B], [result(1, A, 99, 1, 0)])
    with pytest.raises(TournamentError, match="Player 99 has a bye but is not in the field"):
        compute_standings([A, B], [], byes=[99])
