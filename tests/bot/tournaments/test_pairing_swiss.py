"""Swiss pairings over random result sequences, checked against a brute-force search.

For small fields every possible pairing of every possible bye is enumerated: the produced round
must have the fewest repeat meetings, then the fewest colour clashes, then the bye as low in the
ranking as those allow. So a repeat appears only when no pairing without one existed, and a
player goes two colours over only when nothing without a repeat avoided it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournaments import (
    MatchResult,
    Pairing,
    Round,
    Scoring,
    ScoringSystem,
    TournamentError,
    ranking_scores,
    swiss_round,
)
from tests.bot.tournaments.scored import by_points


def matchings(players: list[int]) -> Iterator[list[frozenset[int]]]:
    """Every way to split an even list into pairs."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for i, partner in enumerate(rest):
        for others in matchings(rest[:i] + rest[i + 1 :]):
            yield [frozenset((first, partner)), *others]


def balances(players: list[int], results: list[MatchResult]) -> dict[int, int]:
    balance = dict.fromkeys(players, 0)
    for r in results:
        balance[r.player1] += 1
        balance[r.player2] -= 1
    return balance


def cost(
    pairs: list[frozenset[int]], met: set[frozenset[int]], balance: dict[int, int]
) -> tuple[int, int]:
    """(repeat meetings, pairs whose players are both one colour over the same way)."""
    repeats = sum(1 for pair in pairs if pair in met)
    clashes = sum(1 for a, b in map(tuple, pairs) if balance[a] * balance[b] > 0)
    return repeats, clashes


def results_of(round_: Round, number: int, chosen: list[int]) -> list[MatchResult]:
    """Results for a round: 0 player 1 wins, 1 player 2 wins, 2 a drawn match."""
    scored = {0: (30, 0), 1: (0, 30), 2: (15, 15)}
    return [
        by_points(number, pairing, *scored[outcome])
        for pairing, outcome in zip(round_.pairings, chosen, strict=True)
    ]


def outcomes(round_: Round) -> st.SearchStrategy[list[int]]:
    count = len(round_.pairings)
    return st.lists(st.integers(0, 2), min_size=count, max_size=count)


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=2, max_value=8), st.data())
def test_swiss_pairs_optimally_over_random_results(size: int, data: st.DataObject) -> None:
    players = [500 + 11 * i for i in range(size)]
    rounds = data.draw(st.integers(min_value=1, max_value=size + 1), label="rounds")
    results: list[MatchResult] = []
    byes: list[int] = []
    clashed = False
    for number in range(1, rounds + 1):
        if size % 2 and len(set(byes)) == size:
            with pytest.raises(TournamentError, match="Every player has had a bye"):
                swiss_round(players, results, byes)
            return
        round_ = swiss_round(players, results, byes)
        seated = [p for pairing in round_.pairings for p in (pairing.player1, pairing.player2)]
        assert sorted(seated + list(round_.byes)) == sorted(players)
        assert len(round_.byes) == size % 2
        assert not set(round_.byes) & set(byes)

        met = {r.players for r in results}
        balance = balances(players, results)
        scores = ranking_scores(players, results, byes)
        ranked = sorted(players, key=lambda p: (-scores[p], players.index(p)))
        eligible = [p for p in ranked if p not in byes] if size % 2 else [None]
        best = min(
            (*cost(pairs, met, balance), -ranked.index(bye) if bye is not None else 0)
            for bye in eligible
            for pairs in matchings([p for p in players if p != bye])
        )
        produced = cost([p.players for p in round_.pairings], met, balance)
        bye_rank = -ranked.index(round_.byes[0]) if round_.byes else 0
        assert (*produced, bye_rank) == best

        for pairing in round_.pairings:
            a, b = pairing.player1, pairing.player2
            assert balance[a] <= balance[b]
        results += results_of(round_, number, data.draw(outcomes(round_)))
        byes += round_.byes
        clashed = clashed or produced[1] > 0
        if not clashed:
            assert all(abs(b) <= 1 for b in balances(players, results).values())


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=9, max_value=40), st.data())
def test_larger_fields_never_repeat_in_a_short_swiss(size: int, data: st.DataObject) -> None:
    players = list(range(1, size + 1))
    results: list[MatchResult] = []
    byes: list[int] = []
    for number in range(1, size.bit_length() + 2):
        round_ = swiss_round(players, results, byes, Scoring(ScoringSystem.GAME_POINTS))
        new = results_of(round_, number, data.draw(outcomes(round_)))
        assert not {r.players for r in new} & {r.players for r in results}
        results += new
        byes += round_.byes
    assert max(Counter(byes).values(), default=0) <= 1


def test_round_one_pairs_top_half_against_bottom_half() -> None:
    round_ = swiss_round([1, 2, 3, 4, 5, 6, 7, 8])
    assert round_.pairings == (Pairing(1, 5), Pairing(2, 6), Pairing(3, 7), Pairing(4, 8))
    assert round_.byes == ()


def test_round_two_pairs_within_score_groups_with_colours_reversed() -> None:
    players = [1, 2, 3, 4, 5, 6, 7, 8]
    first = swiss_round(players)
    # Seeds 1, 6, 3, 8 win.
    results = results_of(first, 1, [0, 1, 0, 1])
    second = swiss_round(players, results)
    # Winners 1, 3, 6, 8 (by seed) play 1 v 6 and 3 v 8; losers 2, 4, 5, 7 play 2 v 5 and 4 v 7.
    assert {p.players for p in second.pairings} == {
        frozenset(pair) for pair in [(1, 6), (3, 8), (2, 5), (4, 7)]
    }
    # Whoever was player 2 in round one is player 1 now.
    assert {p.player1 for p in second.pairings} == {p.player2 for p in first.pairings}


def test_the_bye_goes_to_the_lowest_ranked_without_one() -> None:
    players = [1, 2, 3, 4, 5]
    first = swiss_round(players)
    assert first.byes == (5,)
    results = results_of(first, 1, [0, 0])  # 1 and 2 win
    second = swiss_round(players, results, first.byes)
    # 5 has the bye's points but not the lowest rank: 4 and 3 lost; 4 is seeded lower.
    assert second.byes == (4,)


def test_withdrawn_players_results_still_count() -> None:
    results = [
        by_points(1, Pairing(1, 2), 30, 0),
        by_points(1, Pairing(3, 4), 0, 30),
    ]
    round_ = swiss_round([1, 3, 4], results)  # 2 withdrew
    assert round_.byes == (3,)
    assert round_.pairings == (Pairing(4, 1),)  # 1 was player 1 in round one, 4 was not


def test_a_second_bye_only_when_byes_asked_for_leave_no_one_without_one() -> None:
    players = [1, 2, 3, 4, 5]
    with pytest.raises(TournamentError, match="Every player has had a bye"):
        swiss_round(players, [], [1, 2, 3, 4, 5])
    # 4 and 5 sit out by request; 1, 2 and 3 have all had the odd player's bye.
    first = swiss_round(players, [], [1, 2, 3], sitting_out=[4, 5])
    assert (first.byes, first.requested, first.pairings) == ((3,), (4, 5), (Pairing(1, 2),))
    # Again: 3 has had two, so the bye goes to the lower-ranked of 1 and 2 (2 lost to 1).
    results = results_of(first, 1, [0])
    second = swiss_round(
        players, results, [1, 2, 3, 3], requested_byes=first.requested, sitting_out=[4, 5]
    )
    assert second.byes == (2,)
