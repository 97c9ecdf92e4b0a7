"""The University Gambling Rules as pure functions: no store, no clock, so they can be tested
exhaustively. :mod:`bot.coins.service` applies them to the ledger.

The rulebook (University Edition, "University Gambling Rules"), and what Bredon decided where it
leaves a choice open:

- Ante: each player puts the ante in the pot when the challenge is accepted.
- Bidding: both players bid privately for the right to go first (to play white). The high bidder
  goes first and pays the bid into the pot; the other pays nothing. Equal bids are settled by a
  coin flipped when bidding opened (``tie_to``); a missing bid counts as 0. A bid is worth at
  most what its bidder holds when bidding closes.
- Calling Tak: when the bot calls Tak for a player, the opponent owes :data:`TAK_PAYMENT` coins,
  paid with their next move (or they resign). A player is never forced to pay twice in a row: the
  *token* remembers who last called a Tak that cost a payment, and a Tak by the token's holder
  costs nothing. The obligation passes back and forth only when the other player calls Tak.
- End reward: the winner takes the pot plus a bonus of the pieces left in the winner's reserve,
  paid by the loser as far as their balance goes. A draw or an abort gives each player back what
  they put in the pot (ante, bid and Tak payments).
"""

from __future__ import annotations

from dataclasses import dataclass

TAK_PAYMENT = 2


@dataclass(frozen=True, slots=True)
class TakState:
    """Who last called a Tak that cost a payment (the token), and who owes one now."""

    token_id: int | None = None
    owes_id: int | None = None


@dataclass(frozen=True, slots=True)
class MoveCoins:
    """What a move does under the rules: whether its player pays the debt they owed, and the
    state after it."""

    pays: bool
    state: TakState


def after_move(state: TakState, mover: int, opponent: int, calls_tak: bool) -> MoveCoins:
    """The mover pays what they owed with this move; then their Tak call, if any, makes the
    opponent owe, unless the mover already holds the token."""
    pays = state.owes_id == mover
    owes = None if pays else state.owes_id
    token = state.token_id
    if calls_tak and token != mover:
        token, owes = mover, opponent
    return MoveCoins(pays, TakState(token, owes))


@dataclass(frozen=True, slots=True)
class BidResult:
    first_id: int  # who goes first (white)
    paid: int  # what they put in the pot
    counted: tuple[int, int]  # each side's bid as it counted (capped by their balance)


def decide_first(
    challenger: tuple[int, int | None, int],
    acceptor: tuple[int, int | None, int],
    tie_to: int,
) -> BidResult:
    """Each side is (player id, bid or None when missing, balance now). The high bid, capped by
    its bidder's balance, wins; equal bids go to `tie_to`."""
    offers = {
        player: min(0 if bid is None else bid, balance)
        for player, bid, balance in (challenger, acceptor)
    }
    best = max(offers.values())
    leaders = [player for player, offer in offers.items() if offer == best]
    first = tie_to if len(leaders) == 2 else leaders[0]
    return BidResult(first, offers[first], (offers[challenger[0]], offers[acceptor[0]]))


@dataclass(frozen=True, slots=True)
class Payout:
    """One movement of the settlement: from a player (None: the pot) to a player."""

    payer: int | None
    payee: int
    amount: int
    reason: str  # 'pot', 'bonus' or 'refund'


def settlement(
    winner: int | None,
    loser: int | None,
    pot: int,
    paid_in: dict[int, int],
    reserve_left: int,
    loser_balance: int,
) -> list[Payout]:
    """How a staked game's end moves coins. `paid_in` is what each player put in the pot; with
    no winner (a draw, an abort) it all goes back. Zero movements are left out."""
    if winner is None or loser is None:
        payouts = [Payout(None, player, amount, "refund") for player, amount in paid_in.items()]
    else:
        bonus = min(reserve_left, loser_balance)
        payouts = [Payout(None, winner, pot, "pot"), Payout(loser, winner, bonus, "bonus")]
    return [payout for payout in payouts if payout.amount > 0]
