"""Round robin pairings: Berger tables, everyone meets everyone, byes spread, colours swapped."""

from __future__ import annotations

import re
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.tournaments import Pairing, TournamentError, round_robin

fields = st.integers(min_value=2, max_value=24).map(lambda n: [1000 + 7 * i for i in range(n)])


def test_six_players_follow_the_fide_berger_table() -> None:
    table = [
        [(1, 6), (2, 5), (3, 4)],
        [(6, 4), (5, 3), (1, 2)],
        [(2, 6), (3, 1), (4, 5)],
        [(6, 5), (1, 4), (2, 3)],
        [(3, 6), (4, 2), (5, 1)],
    ]
    rounds = round_robin([1, 2, 3, 4, 5, 6])
    assert [[(p.player1, p.player2) for p in r.pairings] for r in rounds] == table
    assert all(r.byes == () for r in rounds)


def test_five_players_sit_out_in_turn() -> None:
    rounds = round_robin([1, 2, 3, 4, 5])
    assert [r.byes for r in rounds] == [(1,), (4,), (2,), (5,), (3,)]
    assert rounds[0].pairings == (Pairing(2, 5), Pairing(3, 4))


@given(fields)
def test_everyone_meets_everyone_once(players: list[int]) -> None:
    rounds = round_robin(players)
    assert len(rounds) == len(players) - 1 + len(players) % 2
    meetings = Counter(p.players for r in rounds for p in r.pairings)
    assert meetings == Counter(frozenset(pair) for pair in combinations(players, 2))
    for r in rounds:
        seated = [p for pairing in r.pairings for p in (pairing.player1, pairing.player2)]
        assert sorted(seated + list(r.byes)) == sorted(players)
        assert len(r.byes) == len(players) % 2
    assert Counter(b for r in rounds for b in r.byes) == Counter(
        players if len(players) % 2 else []
    )


@given(fields)
def test_colours_are_within_one_of_even(players: list[int]) -> None:
    first = Counter(p.player1 for r in round_robin(players) for p in r.pairings)
    second = Counter(p.player2 for r in round_robin(players) for p in r.pairings)
    assert all(abs(first[p] - second[p]) <= 1 for p in players)


@given(fields)
def test_double_round_robin_meets_twice_with_colours_swapped(players: list[int]) -> None:
    single = round_robin(players)
    double = round_robin(players, double=True)
    assert double[: len(single)] == single
    for first, second in zip(single, double[len(single) :], strict=True):
        assert second.pairings == tuple(p.swapped() for p in first.pairings)
        assert second.byes == first.byes
    directed = Counter((p.player1, p.player2) for r in double for p in r.pairings)
    assert directed == Counter((a, b) for a in players for b in players if a != b)
    byes = Counter(b for r in double for b in r.byes)
    assert set(byes.values()) <= {2} and len(byes) == len(players) * (len(players) % 2)


@pytest.mark.parametrize(
    ("players", "message"),
    [([1], "at least two players"), ([1, 2, 1], "repeated: [1]")],
)
def test_impossible_fields_are_refused(players: list[int], message: str) -> None:
    with pytest.raises(TournamentError, match=re.escape(message)):
        round_robin(players)
