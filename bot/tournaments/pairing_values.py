"""The values the tournament logic passes around: who plays whom, who had a bye, how a match ended.

They hold Discord user ids and plain numbers only, so the tournament service can build them from
database rows and the pairing and standings code stays pure.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.errors import BredonError


class TournamentError(BredonError):
    """Pairing or scoring input that does not describe a possible tournament; nothing was made."""


@dataclass(frozen=True, slots=True)
class Pairing:
    """Two players who meet in a match. ``player1`` is player 1 (white) in the match's first game;
    colours then alternate game by game, so this decides game 1 only."""

    player1: int
    player2: int

    def __post_init__(self) -> None:
        if self.player1 == self.player2:
            raise TournamentError(f"Player {self.player1} cannot be paired with themselves.")

    @property
    def players(self) -> frozenset[int]:
        return frozenset((self.player1, self.player2))

    def swapped(self) -> Pairing:
        """The same meeting with the colours reversed (the second cycle of a double round robin)."""
        return Pairing(self.player2, self.player1)


@dataclass(frozen=True, slots=True)
class Round:
    """One round's matches and the players who sit it out with a bye (at most one, except in the
    first round of an elimination bracket whose size is not a power of two, and in a group round,
    one for each group of odd size), and the Swiss players who sit it out because they asked to
    (``requested``: requested byes, which are not the odd player's bye)."""

    pairings: tuple[Pairing, ...]
    byes: tuple[int, ...] = ()
    requested: tuple[int, ...] = ()

    @property
    def players(self) -> frozenset[int]:
        """Everyone with a match or a bye this round."""
        seated = frozenset(p for pairing in self.pairings for p in pairing.players)
        return seated | set(self.byes) | set(self.requested)


@dataclass(frozen=True, slots=True)
class MatchResult:
    """A finished match: the round it belonged to, its pairing (``player1`` had white in game 1),
    the multi-game points each player scored, and the match winner (``None`` for a drawn match).

    The winner is given rather than derived from the points because forfeits and the tiebreak
    games that settle a drawn knockout match (or, after the last of them, the better seed) decide
    it differently from the points alone.
    """

    round: int
    player1: int
    player2: int
    points1: int
    points2: int
    winner: int | None

    def __post_init__(self) -> None:
        if self.player1 == self.player2:
            raise TournamentError(f"Player {self.player1} cannot have played themselves.")
        if self.round < 1:
            raise TournamentError(f"Round numbers start at 1, not {self.round}.")
        if self.points1 < 0 or self.points2 < 0:
            raise TournamentError("Match points scored cannot be negative.")
        if self.winner is not None and self.winner not in (self.player1, self.player2):
            raise TournamentError(
                f"Player {self.winner} cannot win a match between {self.player1} and "
                f"{self.player2}."
            )

    @property
    def players(self) -> frozenset[int]:
        return frozenset((self.player1, self.player2))

    def opponent(self, player: int) -> int:
        return self.player2 if player == self.player1 else self.player1

    def points_of(self, player: int) -> int:
        return self.points1 if player == self.player1 else self.points2

    def fraction_of(self, player: int) -> float:
        """1 for the match winner, 0.5 each for a drawn match, 0 for the loser."""
        if self.winner is None:
            return 0.5
        return 1.0 if self.winner == player else 0.0


def check_players(players: Sequence[int]) -> tuple[int, ...]:
    """The players in seed order, refused when a tournament could not be played with them."""
    field = tuple(players)
    if len(field) < 2:
        raise TournamentError("A tournament needs at least two players.")
    if len(set(field)) != len(field):
        repeated = sorted({p for p in field if field.count(p) > 1})
        raise TournamentError(f"Each player can enter once; repeated: {repeated}.")
    return field
