"""The gambling rules' pure functions against the rulebook's wording."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from bot.coins.rules import TakState, after_move, decide_first, settlement

A, B = 1, 2


def run(calls: list[bool]) -> list[int]:
    """Alternate moves A, B, A...; `calls[i]` says whether move i calls Tak. Returns who paid,
    in order."""
    state, payers = TakState(), []
    for number, calls_tak in enumerate(calls):
        mover, opponent = (A, B) if number % 2 == 0 else (B, A)
        coins = after_move(state, mover, opponent, calls_tak)
        if coins.pays:
            payers.append(mover)
        state = coins.state
    return payers


def test_the_rulebook_sequence() -> None:
    """A calls, B pays; A calls again, B does not pay; B calls, A pays."""
    #       A calls  B      A calls  B calls  A
    calls = [True, False, True, True, False]
    assert run(calls) == [B, A]
    state = TakState()
    first = after_move(state, A, B, True)
    assert first == after_move(state, A, B, True) and first.state == TakState(A, B)
    paid = after_move(first.state, B, A, False)
    assert paid.pays and paid.state == TakState(A, None)
    again = after_move(paid.state, A, B, True)
    assert again.state == TakState(A, None)  # B is not forced to pay twice in a row
    back = after_move(again.state, B, A, True)
    assert not back.pays and back.state == TakState(B, A)
    assert after_move(back.state, A, B, False).pays


@given(st.lists(st.booleans(), max_size=60))
def test_nobody_pays_twice_in_a_row(calls: list[bool]) -> None:
    payers = run(calls)
    assert all(one != two for one, two in itertools.pairwise(payers))
    # Every Tak call by a player who does not hold the token is paid for by the next move.
    expected, holder = [], None
    for number, calls_tak in enumerate(calls[:-1]):
        mover = A if number % 2 == 0 else B
        if calls_tak and holder != mover:
            holder = mover
            expected.append(B if mover == A else A)
    assert payers == expected


@given(
    st.none() | st.integers(0, 50),
    st.none() | st.integers(0, 50),
    st.integers(0, 50),
    st.integers(0, 50),
    st.sampled_from((A, B)),
)
def test_the_high_bid_goes_first(bid_a, bid_b, balance_a, balance_b, tie_to) -> None:
    result = decide_first((A, bid_a, balance_a), (B, bid_b, balance_b), tie_to)
    worth = {A: min(bid_a or 0, balance_a), B: min(bid_b or 0, balance_b)}
    best = max(worth.values())
    winners = sorted(p for p in worth if worth[p] == best)
    assert result.first_id == (tie_to if len(winners) == 2 else winners[0])
    assert result.paid == best
    assert result.counted == (worth[A], worth[B])


@given(st.integers(0, 100), st.integers(0, 30), st.integers(0, 100), st.integers(0, 100))
def test_the_end_reward_moves_only_what_exists(paid_a, paid_b, reserve, loser_balance) -> None:
    pot = paid_a + paid_b
    win = settlement(A, B, pot, {A: paid_a, B: paid_b}, reserve, loser_balance)
    assert sum(p.amount for p in win if p.payer is None) == pot
    assert sum(p.amount for p in win if p.payer == B) == min(reserve, loser_balance)
    assert all(p.payee == A and p.amount > 0 for p in win)
    draw = settlement(None, None, pot, {A: paid_a, B: paid_b}, reserve, loser_balance)
    assert {p.payee: p.amount for p in draw} == {p: v for p, v in ((A, paid_a), (B, paid_b)) if v}
