"""Who plays in which place: the seed order (automatic, or set by hand) and replacements.

Pure functions over player ids, so the tournament services can keep the rules in one place and
the tests can check them against brute force.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from bot.languages import _
from bot.tournaments.pairing_values import TournamentError


def automatic_order(players: Sequence[int], ratings: Mapping[int, float]) -> tuple[int, ...]:
    """Seeds as Bredon sets them without an organizer: rated players first, best rating first,
    then the unrated ones; `players` are in join order, which breaks every tie."""
    return tuple(sorted(players, key=lambda p: (p not in ratings, -ratings.get(p, 0.0))))


def seed_order(
    players: Sequence[int], manual: Mapping[int, int], ratings: Mapping[int, float]
) -> tuple[int, ...]:
    """The seed order at the start. Without seeds set by hand, :func:`automatic_order`. With
    them, the players seeded by hand in their seeds' order, then whoever joined after the order
    was set, in join order (`players` are in join order; `manual` maps player to seed)."""
    if not manual:
        return automatic_order(players, ratings)
    seeded = sorted((p for p in players if p in manual), key=lambda p: manual[p])
    return (*seeded, *(p for p in players if p not in manual))


def _index(order: Sequence[int], player: int) -> int:
    try:
        return list(order).index(player)
    except ValueError:
        raise TournamentError(f"Player {player} is not in the seed order.") from None


def move_to(order: Sequence[int], player: int, seed: int) -> tuple[int, ...]:
    """`player` at `seed` (1 is the top), everyone else keeping their order."""
    if not 1 <= seed <= len(order):
        raise TournamentError(
            _("Seeds run from 1 to {last}; {seed} is not one of them.", last=len(order), seed=seed)
        )
    _index(order, player)
    rest = [p for p in order if p != player]
    rest.insert(seed - 1, player)
    return tuple(rest)


def move_by(order: Sequence[int], player: int, places: int) -> tuple[int, ...]:
    """`player` `places` seeds lower (negative: higher), refused past either end."""
    seed = _index(order, player) + 1 + places
    if seed < 1:
        raise TournamentError(_("That player is already the top seed."))
    if seed > len(order):
        raise TournamentError(_("That player is already the last seed."))
    return move_to(order, player, seed)


def place_holders(replacements: Iterable[tuple[int, int]]) -> dict[int, int]:
    """Each replaced player's place as it stands now: {old: player who holds the place}.

    `replacements` are (old, new) pairs in the order they happened; a chain (b replaced a, then
    c replaced b) sends a and b to c.
    """
    holder: dict[int, int] = {}
    for old, new in replacements:
        for earlier, current in holder.items():
            if current == old:
                holder[earlier] = new
        holder[old] = new
    return holder
