"""The ``challenges`` table: every write to it, as named operations, always inside a caller's
transaction (reads: :func:`bot.games.storage.fetch_challenge` and ``CHALLENGE_SELECT``)."""

from __future__ import annotations

from datetime import datetime

from bot.games.model import ChallengeStatus, ColourChoice, GamePlace, GameSetup
from bot.store import Transaction, to_db


async def insert_challenge(
    tx: Transaction,
    *,
    guild_id: int,
    channel_id: int,
    challenger_id: int,
    opponent_id: int | None,
    colour: ColourChoice,
    setup: GameSetup,
    games: int,
    rematch_of: int | None,
    ante: int | None,
    now: datetime,
    expires_at: datetime,
    place: GamePlace = GamePlace.SERVER,
) -> int:
    """A new open challenge (its reserves stored only when not the size's standard, black's
    only when not white's); its id."""
    (stones, black_stones), (caps, black_caps) = setup.stones, setup.caps
    standard = setup.standard_reserves
    new_id = await tx.insert(
        "INSERT INTO challenges (guild_id, channel_id, challenger_id, opponent_id, colour, "
        "size, komi, opening, stones, caps, stones2, caps2, days_per_move, games, rated, "
        "rematch_of, created_at, expires_at, ante, antiquity, clock_bank, clock_increment, "
        "clock_cap, start_tps, place) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            guild_id,
            channel_id,
            challenger_id,
            opponent_id,
            colour.value,
            setup.size,
            setup.base_komi,
            setup.opening.value,
            None if standard else stones,
            None if standard else caps,
            None if black_stones == stones else black_stones,
            None if black_caps == caps else black_caps,
            setup.days_per_move,
            games,
            int(setup.rated),
            rematch_of,
            to_db(now),
            to_db(expires_at),
            ante,
            int(setup.antiquity),
            *setup.clock.to_db(),
            setup.start_tps,
            place.value,
        ),
    )
    return new_id


async def mark_accepted(
    tx: Transaction, challenge_id: int, player_id: int, game_id: int | None, now: datetime
) -> None:
    """`player_id` took the challenge; `game_id` is its first game (None: not begun yet)."""
    await tx.execute(
        "UPDATE challenges SET status = 'accepted', accepted_by = ?, game_id = ?, closed_at = ? "
        "WHERE id = ?",
        (player_id, game_id, to_db(now), challenge_id),
    )


async def set_first_game(tx: Transaction, challenge_id: int, game_id: int) -> None:
    """The first game of a challenge accepted before its game began (the bids decided it)."""
    await tx.execute("UPDATE challenges SET game_id = ? WHERE id = ?", (game_id, challenge_id))


async def close(tx: Transaction, challenge_id: int, status: ChallengeStatus, now: datetime) -> None:
    """The challenge is declined or cancelled."""
    await tx.execute(
        "UPDATE challenges SET status = ?, closed_at = ? WHERE id = ?",
        (status.value, to_db(now), challenge_id),
    )


async def expire(tx: Transaction, challenge_id: int, now: datetime) -> bool:
    """Close the challenge as expired if it is open and past its time at `now`; whether it was."""
    changed = await tx.execute(
        "UPDATE challenges SET status = 'expired', closed_at = ? "
        "WHERE id = ? AND status = 'open' AND expires_at <= ?",
        (to_db(now), challenge_id, to_db(now)),
    )
    return changed == 1


async def set_message(tx: Transaction, challenge_id: int, message_id: int) -> None:
    """The message that shows the challenge (to edit its buttons later)."""
    await tx.execute(
        "UPDATE challenges SET message_id = ? WHERE id = ?", (message_id, challenge_id)
    )
