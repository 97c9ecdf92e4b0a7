"""Swiss rounds with requested byes and forbidden pairs, checked against a brute-force search.

For small fields every pairing of the players not sitting out, with every possible odd player's
bye, is enumerated: the produced round must have the fewest forbidden pairs (none whenever some
pairing avoids them all), then the fewest repeats, the fewest colour clashes and the bye as low as
those allow. Scores and colour clashes are counted here, not by the code under test, and players
withdraw along the way, keeping their results and their byes (asked for or not).
"""

from __future__ import annotations

import itertools
from collections import Counter

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
    compute_standings,
    forbidden_pairs_met,
    swiss_round,
)
from tests.bot.tournaments.scored import by_points
from tests.bot.tournaments.test_pairing_swiss import balances, matchings, outcomes, results_of


def brute_force_best(
    remaining: list[int],
    ranked: list[int],
    eligible: list[int | None],
    met: set[frozenset[int]],
    forbidden: set[frozenset[int]],
    balance: dict[int, int],
) -> tuple[int, int, int, int]:
    """The best cost by swiss_round's order: forbidden pairs, repeats, clashes, the bye's rank."""
    options = [
        (bye, pairs) for bye in eligible for pairs in matchings([p for p in remaining if p != bye])
    ]
    return min(round_cost(pairs, bye, ranked, met, forbidden, balance) for bye, pairs in options)


def round_cost(
    pairs: list[frozenset[int]],
    bye: int | None,
    ranked: list[int],
    met: set[frozenset[int]],
    forbidden: set[frozenset[int]],
    balance: dict[int, int],
) -> tuple[int, int, int, int]:
    return (
        sum(1 for pair in pairs if pair in forbidden),
        sum(1 for pair in pairs if pair in met),
        sum(1 for a, b in map(tuple, pairs) if one_way(balance[a], balance[b])),
        -ranked.index(bye) if bye is not None else 0,
    )


def one_way(a: int, b: int) -> bool:
    """Both have had white more often than black, or both black more often: a colour clash."""
    return (a > 0 and b > 0) or (a < 0 and b < 0)


def match_points(
    results: list[MatchResult], byes: list[int], requested_byes: list[int]
) -> Counter[int]:
    """The default scoring, counted here rather than by the code under test: 3 a match won or
    an odd player's bye, 1 a drawn match or a bye asked for."""
    points: Counter[int] = Counter()
    for result in results:
        if result.winner is None:
            points[result.player1] += 1
            points[result.player2] += 1
        else:
            points[result.winner] += 3
    for player in byes:
        points[player] += 3
    for player in requested_byes:
        points[player] += 1
    return points


@settings(max_examples=80, deadline=None)
@given(st.integers(min_value=3, max_value=8), st.data())
def test_swiss_honours_requested_byes_and_forbidden_pairs(size: int, data: st.DataObject) -> None:
    players = [700 + 13 * i for i in range(size)]
    all_pairs = [frozenset(pair) for pair in itertools.combinations(players, 2)]
    forbidden = set(data.draw(st.lists(st.sampled_from(all_pairs), max_size=size), label="apart"))
    results: list[MatchResult] = []
    byes: list[int] = []
    requested_byes: list[int] = []
    field = list(players)  # those still in: a player who withdraws keeps their history
    for number in range(1, data.draw(st.integers(1, size), label="rounds") + 1):
        if len(field) > 2 and data.draw(st.booleans(), label="someone withdraws"):
            field.remove(data.draw(st.sampled_from(field), label="who"))
        resting = data.draw(st.lists(st.sampled_from(field), max_size=len(field) - 1, unique=True))
        remaining = [p for p in field if p not in resting]
        scores = match_points(results, byes, requested_byes)
        ranked = sorted(remaining, key=lambda p: (-scores[p], players.index(p)))
        had = Counter(byes)
        fewest = min(had[p] for p in remaining)
        if len(remaining) % 2 and fewest and not resting:
            with pytest.raises(TournamentError, match="Every player has had a bye"):
                swiss_round(field, results, byes, requested_byes=requested_byes)
            return
        # With players sitting out by request, a second bye rather than no round.
        odd = len(remaining) % 2
        eligible = [p for p in ranked if had[p] == fewest] if odd else [None]
        round_ = swiss_round(
            field,
            results,
            byes,
            requested_byes=requested_byes,
            sitting_out=resting,
            forbidden=forbidden,
        )
        assert sorted(round_.requested) == sorted(resting)
        seated = [p for pairing in round_.pairings for p in (pairing.player1, pairing.player2)]
        assert sorted(seated + list(round_.byes)) == sorted(remaining)
        assert all(had[p] == fewest for p in round_.byes)

        met = {r.players for r in results}
        balance = balances(players, results)
        best = brute_force_best(remaining, ranked, eligible, met, forbidden, balance)
        pairs = [p.players for p in round_.pairings]
        bye = round_.byes[0] if round_.byes else None
        produced = round_cost(pairs, bye, ranked, met, forbidden, balance)
        assert produced == best
        assert len(forbidden_pairs_met(round_, forbidden)) == best[0]

        results += results_of(round_, number, data.draw(outcomes(round_)))
        byes += round_.byes
        requested_byes += round_.requested


def test_a_requested_bye_does_not_use_up_the_odd_players_bye() -> None:
    players = [1, 2, 3]
    first = swiss_round(players, sitting_out=[3])
    assert first.requested == (3,) and first.byes == ()
    assert {p.players for p in first.pairings} == {frozenset((1, 2))}
    results = results_of(first, 1, [0])  # 1 beats 2
    second = swiss_round(players, results, first.byes, requested_byes=first.requested)
    # 3 has a draw's points from the requested bye, 2 none: 2 is lowest and gets the bye.
    assert second.byes == (2,)
    # A requested bye scoring nothing leaves 3 last; it is not the odd player's bye, so 3 can
    # still get that, where an odd player's bye in round 1 would have ruled 3 out.
    zero = Scoring(requested_bye_match_points=0.0)
    assert swiss_round(players, [], [], zero, requested_byes=[3]).byes == (3,)
    assert swiss_round(players, [], [3], zero).byes == (2,)


def test_a_forbidden_pair_is_paired_only_when_nothing_else_is_possible() -> None:
    players = [1, 2, 3, 4]
    assert swiss_round(players).pairings[0].players == frozenset((1, 3))
    apart = [frozenset((1, 3))]
    round_ = swiss_round(players, forbidden=apart)
    assert not forbidden_pairs_met(round_, apart)
    # Two players only and they must not meet: they meet anyway, named as such.
    both = swiss_round(players, sitting_out=[2, 4], forbidden=apart)
    assert forbidden_pairs_met(both, apart) == [Pairing(1, 3)]


def test_as_few_forbidden_pairs_as_possible_before_fewer_repeats() -> None:
    # 1 may meet nobody; 1 v 3 and 2 v 4, then 4 v 1 and 3 v 2 were played, 1 and 2 winning.
    apart = [frozenset(pair) for pair in ((1, 2), (3, 4), (1, 3), (1, 4))]
    first = results_of(Round((Pairing(1, 3), Pairing(2, 4))), 1, [0, 0])
    second = results_of(Round((Pairing(4, 1), Pairing(3, 2))), 2, [1, 1])
    round_ = swiss_round([1, 2, 3, 4], first + second, forbidden=apart)
    # 1 v 2 and 3 v 4 would be two forbidden pairs; one, with two repeats, is better.
    assert [p.players for p in forbidden_pairs_met(round_, apart)] == [frozenset((1, 3))]
    assert {p.players for p in round_.pairings} == {frozenset((1, 3)), frozenset((2, 4))}


def test_players_outside_the_field_cannot_ask_for_a_bye() -> None:
    with pytest.raises(TournamentError, match=r"Players \[9\] asked for a bye"):
        swiss_round([1, 2, 3], sitting_out=[9])


def test_requested_byes_score_a_draw_or_nothing() -> None:
    result = by_points(1, Pairing(1, 2), 2, 0)
    half = Scoring(match_draw=1.0, requested_bye_match_points=1.0)
    zero = Scoring(requested_bye_match_points=0.0)
    for scoring, expected in ((half, 1.0), (zero, 0.0)):
        table = compute_standings([1, 2, 3], [result], [], scoring, requested_byes=[3])
        row = next(r for r in table if r.player == 3)
        assert (row.match_points, row.score, row.byes, row.played) == (expected, expected, 1, 0)
    game_points = Scoring(ScoringSystem.GAME_POINTS, requested_bye_match_points=1.0)
    table = compute_standings([1, 2, 3], [result], [], game_points, requested_byes=[3])
    row = next(r for r in table if r.player == 3)
    assert (row.game_points, row.score, row.match_points) == (0, 0, 1.0)
