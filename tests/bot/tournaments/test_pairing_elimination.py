"""Single elimination: seeded bracket, byes for the top seeds, one winner after ceil(log2 N)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.tournaments import (
    MatchResult,
    Pairing,
    TournamentError,
    elimination_round,
    elimination_round_count,
    elimination_winner,
)


def win(round_number: int, pairing: Pairing, winner: int) -> MatchResult:
    return MatchResult(round_number, pairing.player1, pairing.player2, 0, 0, winner)


def test_eight_seeds_meet_in_bracket_order_and_favourites_reach_the_final() -> None:
    players = [10, 20, 30, 40, 50, 60, 70, 80]
    results: list[MatchResult] = []
    seen = []
    while (round_ := elimination_round(players, results)) is not None:
        seen.append([(p.player1, p.player2) for p in round_.pairings])
        results += [win(len(seen), p, p.player1) for p in round_.pairings]
    assert seen == [
        [(10, 80), (40, 50), (20, 70), (30, 60)],
        [(10, 40), (20, 30)],
        [(10, 20)],
    ]
    assert elimination_winner(players, results) == 10


def test_top_seeds_get_the_byes() -> None:
    first = elimination_round([1, 2, 3, 4, 5, 6])
    assert first is not None
    assert first.byes == (1, 2)
    assert first.pairings == (Pairing(4, 5), Pairing(3, 6))
    second = elimination_round(
        [1, 2, 3, 4, 5, 6], [win(1, Pairing(4, 5), 5), win(1, Pairing(3, 6), 6)]
    )
    assert second is not None
    assert second.pairings == (Pairing(1, 5), Pairing(2, 6)) and second.byes == ()


@given(st.integers(min_value=2, max_value=40), st.data())
def test_the_bracket_closes_with_one_winner(size: int, data: st.DataObject) -> None:
    players = [3 * i + 1 for i in range(size)]
    results: list[MatchResult] = []
    rounds = 0
    alive = set(players)
    while (round_ := elimination_round(players, results)) is not None:
        rounds += 1
        assert elimination_winner(players, results) is None
        assert round_.players == alive
        assert len(round_.byes) == (2 ** math.ceil(math.log2(size)) - size if rounds == 1 else 0)
        for pairing in round_.pairings:
            if pairing.players == {players[0], players[1]}:
                assert len(alive) == 2, "the top two seeds met before the final"
            winner = data.draw(st.sampled_from(sorted(pairing.players)))
            results.append(win(rounds, pairing, winner))
            (loser,) = pairing.players - {winner}
            alive.discard(loser)
    assert rounds == elimination_round_count(size) == math.ceil(math.log2(size))
    assert len(alive) == 1
    assert elimination_winner(players, results) == alive.pop() == results[-1].winner


def test_a_drawn_match_must_be_settled_by_extra_games() -> None:
    drawn = MatchResult(1, 1, 2, 20, 20, None)
    with pytest.raises(TournamentError, match="1 v 2 is drawn: an elimination match needs extra"):
        elimination_round([1, 2], [drawn])


def test_a_round_with_a_missing_result_is_not_finished() -> None:
    with pytest.raises(TournamentError, match="Round 1 is not finished: 2 v 3 has no result"):
        elimination_round([1, 2, 3, 4], [win(1, Pairing(1, 4), 1)])


def test_results_outside_the_bracket_are_refused() -> None:
    with pytest.raises(TournamentError, match="not in the bracket"):
        elimination_round([1, 2, 3, 4], [win(1, Pairing(1, 2), 1)])
