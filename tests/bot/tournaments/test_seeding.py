"""Seed order operations and replacement chains, checked against direct constructions."""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.tournaments import TournamentError
from bot.tournaments.seeding import automatic_order, move_by, move_to, place_holders, seed_order

orders = st.lists(st.integers(1, 10_000), min_size=1, max_size=12, unique=True)


@given(orders, st.data())
def test_move_to_puts_the_player_there_and_keeps_the_others_in_order(
    order: list[int], data: st.DataObject
) -> None:
    player = data.draw(st.sampled_from(order))
    seed = data.draw(st.integers(1, len(order)))
    moved = move_to(order, player, seed)
    assert sorted(moved) == sorted(order)
    assert moved[seed - 1] == player
    assert [p for p in moved if p != player] == [p for p in order if p != player]


@given(orders, st.data())
def test_moving_by_places_is_moving_to_the_seed_so_many_places_away(
    order: list[int], data: st.DataObject
) -> None:
    player = data.draw(st.sampled_from(order))
    seed = order.index(player) + 1
    places = data.draw(st.integers(-len(order), len(order)))
    if 1 <= seed + places <= len(order):
        moved = move_by(order, player, places)
        assert moved == move_to(order, player, seed + places)
        assert move_by(moved, player, -places) == tuple(order)  # and back
    else:
        with pytest.raises(TournamentError, match=r"already the (top|last) seed"):
            move_by(order, player, places)


def test_refusals_name_the_problem() -> None:
    with pytest.raises(TournamentError, match="Seeds run from 1 to 3; 4"):
        move_to([1, 2, 3], 2, 4)
    with pytest.raises(TournamentError, match="not in the seed order"):
        move_to([1, 2, 3], 9, 1)
    with pytest.raises(TournamentError, match="already the top seed"):
        move_by([1, 2, 3], 1, -1)


@given(
    st.lists(st.integers(1, 50), unique=True, max_size=10),
    st.dictionaries(st.integers(1, 50), st.floats(0, 3000)),
)
def test_automatic_order_is_rating_then_join_order(
    joined: list[int], ratings: dict[int, float]
) -> None:
    order = automatic_order(joined, ratings)
    rated = [p for p in joined if p in ratings]
    # brute force: best rating first, and among equal ratings the earlier joiner first
    expected_rated = [p for _, _, p in sorted((-ratings[p], joined.index(p), p) for p in rated)]
    assert list(order) == expected_rated + [p for p in joined if p not in ratings]


@given(orders, st.data())
def test_order_set_by_hand_comes_first_then_later_joiners(
    joined: list[int], data: st.DataObject
) -> None:
    by_hand = data.draw(st.permutations(joined[: data.draw(st.integers(1, len(joined)))]))
    manual = {p: 2 * seed for seed, p in enumerate(by_hand, start=1)}  # gaps: players who left
    ratings = {p: float(p) for p in joined}  # ignored once seeds are set by hand
    later = [p for p in joined if p not in manual]
    assert seed_order(joined, manual, ratings) == (*by_hand, *later)


def test_no_seed_by_hand_is_the_automatic_order() -> None:
    assert seed_order([1, 2, 3], {}, {3: 1500.0}) == (3, 1, 2)


@given(st.lists(st.integers(1, 30), min_size=2, max_size=12, unique=True))
def test_a_chain_of_replacements_sends_every_old_place_to_its_holder(people: list[int]) -> None:
    # people[0] is replaced by people[1], who is replaced by people[2], and so on
    chain = list(pairwise(people))
    holders = place_holders(chain)
    assert holders == {p: people[-1] for p in people[:-1]}


def test_separate_replacements_stay_separate() -> None:
    assert place_holders([(1, 2), (3, 4), (2, 5)]) == {1: 5, 2: 5, 3: 4}
