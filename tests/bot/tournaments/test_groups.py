"""Groups -> knockout: snake groups, group rounds, who goes through, and the cross-seeded bracket,
each checked against a straightforward computation of its own."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournaments import (
    MatchResult,
    Scoring,
    TournamentError,
    bracket_slots,
    elimination_round,
    elimination_winner,
    group_rounds,
    group_tables,
    qualifiers,
    snake_groups,
)
from tests.bot.tournaments.scored import by_points

NO_TIE_BREAKS = Scoring(tie_breaks=())


def snake_by_rows(players: list[int], count: int) -> list[list[int]]:
    """The snake written out: cut the seed list into rows of `count`, reverse every other row,
    and read the columns."""
    rows = [players[i : i + count] for i in range(0, len(players), count)]
    groups: list[list[int]] = [[] for _ in range(count)]
    for number, row in enumerate(rows):
        ordered = row if number % 2 == 0 else [None] * (count - len(row)) + row[::-1]
        for column, player in enumerate(ordered):
            if player is not None:
                groups[column].append(player)
    return groups


def test_the_briefs_snake_for_eight_players_in_two_groups() -> None:
    assert snake_groups([1, 2, 3, 4, 5, 6, 7, 8], 2) == ((1, 4, 5, 8), (2, 3, 6, 7))


@given(st.integers(4, 40), st.data())
def test_snake_matches_the_rows_written_out(count: int, data: st.DataObject) -> None:
    groups = data.draw(st.integers(2, min(8, count // 2)))
    players = list(range(100, 100 + count))
    assert [list(g) for g in snake_groups(players, groups)] == snake_by_rows(players, groups)


@pytest.mark.parametrize(("count", "groups"), [(5, 3), (3, 2), (10, 1), (40, 9)])
def test_impossible_group_counts_are_refused(count: int, groups: int) -> None:
    with pytest.raises(TournamentError):
        snake_groups(range(count), groups)


@given(st.integers(4, 24), st.data())
def test_group_rounds_meet_everyone_in_the_group_once_and_nobody_outside(
    count: int, data: st.DataObject
) -> None:
    groups = snake_groups(range(count), data.draw(st.integers(2, min(8, count // 2))))
    group_of = {p: g for g, members in enumerate(groups) for p in members}
    rounds = group_rounds(groups)
    met = Counter(frozenset(p.players) for r in rounds for p in r.pairings)
    expected = {frozenset(pair) for g in groups for pair in itertools.combinations(g, 2)}
    assert set(met) == expected and set(met.values()) == {1}
    assert len(rounds) == max(len(g) - 1 + len(g) % 2 for g in groups)
    for r in rounds:  # nobody plays twice in a round, and every group plays side by side
        seen = [p for pairing in r.pairings for p in pairing.players] + list(r.byes)
        assert len(seen) == len(set(seen))
        assert all(group_of[p.player1] == group_of[p.player2] for p in r.pairings)


def play_groups(
    groups: tuple[tuple[int, ...], ...], data: st.DataObject
) -> tuple[list[MatchResult], list[int]]:
    results, byes = [], []
    for number, r in enumerate(group_rounds(groups), start=1):
        byes += r.byes
        for pairing in r.pairings:
            points = data.draw(st.tuples(st.integers(0, 2), st.integers(0, 2)))
            results.append(by_points(number, pairing, *points))
    return results, byes


@settings(max_examples=150)
@given(st.integers(4, 20), st.data())
def test_the_right_players_go_through(count: int, data: st.DataObject) -> None:
    """Without tie-breaks a group ranks by match points, then seed: sort it that way here."""
    players = list(range(1, count + 1))
    groups = snake_groups(players, data.draw(st.integers(2, min(8, count // 2))))
    advance = data.draw(st.integers(1, min(len(g) for g in groups)))
    active = set(data.draw(st.sets(st.sampled_from(players), min_size=count - 2)))
    results, byes = play_groups(groups, data)
    tables = group_tables(groups, results, byes, NO_TIE_BREAKS)

    points = Counter({p: 0.0 for p in players})
    for result in results:
        for p in result.players:
            points[p] += 3 if result.winner == p else 1 if result.winner is None else 0
    for p in byes:
        points[p] += 3
    straightforward = [
        [p for p in sorted(g, key=lambda p: (-points[p], p)) if p in active][:advance]
        for g in groups
    ]
    expected = [top[r] for r in range(advance) for top in straightforward if r < len(top)]
    assert qualifiers(tables, advance, active) == expected


def bracket_round_one(seeded: list[int], group_of: dict[int, int]) -> list[tuple[int, int]]:
    slots = bracket_slots(seeded, group_of)
    pairs = zip(slots[0::2], slots[1::2], strict=True)
    return [(a, b) for a, b in pairs if a is not None and b is not None]


def test_two_groups_two_through_cross_over() -> None:
    a1, b1, a2, b2 = 1, 2, 3, 4
    group_of = {a1: 0, a2: 0, b1: 1, b2: 1}
    first = elimination_round([a1, b1, a2, b2], group_of=group_of)
    assert first is not None
    assert {p.players for p in first.pairings} == {frozenset((a1, b2)), frozenset((b1, a2))}


def test_four_groups_two_through_winners_meet_runners_up_of_other_groups() -> None:
    seeded = [11, 21, 31, 41, 12, 22, 32, 42]  # A1 B1 C1 D1 A2 B2 C2 D2: tens are the group
    pairs = bracket_round_one(seeded, {p: p // 10 for p in seeded})
    assert pairs == [(11, 42), (41, 12), (21, 32), (31, 22)]


def test_three_groups_two_through_avoid_the_standard_c1_v_c2() -> None:
    seeded = [11, 21, 31, 12, 22, 32]  # the standard bracket would pair C1 (31) with C2 (32)
    pairs = bracket_round_one(seeded, {p: p // 10 for p in seeded})
    assert all(a // 10 != b // 10 for a, b in pairs)
    assert len(pairs) == 2


def clash_free_pairing_exists(players: list[int], group_of: dict[int, int]) -> bool:
    """Brute force: some perfect pairing of `players` with no two of one group together."""
    if not players:
        return True
    first, rest = players[0], players[1:]
    return any(
        group_of[first] != group_of[other]
        and clash_free_pairing_exists([p for p in rest if p != other], group_of)
        for other in rest
    )


@settings(max_examples=200)
@given(st.integers(2, 6), st.integers(1, 4), st.data())
def test_cross_seeding_avoids_same_group_meetings_whenever_possible(
    group_count: int, advance: int, data: st.DataObject
) -> None:
    players = [10 * g + r for r in range(advance) for g in range(1, group_count + 1)]
    # Withdrawals can leave some groups with fewer players through.
    left_out = data.draw(st.sets(st.sampled_from(players), max_size=len(players) - 2))
    seeded = [p for p in players if p not in left_out]
    group_of = {p: p // 10 for p in seeded}
    slots = bracket_slots(seeded, group_of)
    assert sorted(p for p in slots if p is not None) == sorted(seeded)
    plain = bracket_slots(seeded)
    # The byes (empty seats) and the better seed of each meeting stay where the standard
    # bracket puts them; only their opponents move.
    assert [p is None for p in slots] == [p is None for p in plain]
    assert slots[0::2] == plain[0::2]
    pairs = bracket_round_one(seeded, group_of)
    playing = [p for pair in pairs for p in pair]
    if clash_free_pairing_exists(sorted(playing), group_of):
        assert all(group_of[a] != group_of[b] for a, b in pairs)
    else:
        assert slots == plain


@given(st.integers(2, 5), st.integers(1, 3), st.data())
def test_a_cross_seeded_bracket_plays_to_one_winner(
    group_count: int, advance: int, data: st.DataObject
) -> None:
    seeded = [10 * g + r for r in range(advance) for g in range(1, group_count + 1)]
    if len(seeded) < 2:
        return
    group_of = {p: p // 10 for p in seeded}
    results: list[MatchResult] = []
    number = 0
    while (current := elimination_round(seeded, results, group_of=group_of)) is not None:
        number += 1
        for pairing in current.pairings:
            winner = data.draw(st.sampled_from(sorted(pairing.players)))
            results.append(MatchResult(number, pairing.player1, pairing.player2, 1, 0, winner))
    winner = elimination_winner(seeded, results, group_of=group_of)
    assert winner is not None
    assert all(r.winner == winner for r in results if winner in r.players)
    assert len(results) == len(seeded) - 1
