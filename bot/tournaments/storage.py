"""The tournament tables (``tournaments``, ``tournament_players``, ``tournament_pairings``,
``tournament_replacements``, ``tournament_log``): every write to them, as named operations,
always inside a caller's transaction. Their reads and row mappers are in
:mod:`bot.tournaments.rounds`."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from bot.games.model import GameSetup
from bot.store import Transaction, to_db, to_db_or_none
from bot.tournaments.rules import TournamentRules
from bot.tournaments.tournament import EntrantStatus

# ----------------------------------------------------------------- tournaments


async def insert_tournament(
    tx: Transaction,
    *,
    guild_id: int,
    channel_id: int,
    name: str,
    setup: GameSetup,
    rules: TournamentRules,
    signup_deadline: datetime | None,
    checkin_opens_at: datetime | None,
    checkin_remind_at: datetime | None,
    organizer_id: int,
    now: datetime,
) -> int:
    """A new tournament open for sign-up; its id."""
    scoring = rules.scoring
    cursor = await tx.execute(
        "INSERT INTO tournaments (guild_id, channel_id, name, format, swiss_rounds, size, "
        "komi, opening, games_per_match, days_per_move, rated, scoring, match_win, "
        "match_draw, match_loss, tie_breaks, max_players, signup_deadline, organizer_id, "
        "created_at, vacation_allowed, clock_bank, clock_increment, clock_cap, group_count, "
        "group_advance, tiebreak_days_per_move, tiebreak_clock_bank, tiebreak_clock_increment, "
        "tiebreak_clock_cap, tiebreak_games, checkin_opens_at, checkin_remind_at) "
        f"VALUES ({', '.join('?' * 33)})",
        (
            guild_id,
            channel_id,
            name,
            rules.format.value,
            rules.swiss_rounds,
            setup.size,
            setup.base_komi,
            setup.opening.value,
            rules.games_per_match,
            setup.days_per_move,
            int(setup.rated),
            scoring.system.value,
            scoring.match_win,
            scoring.match_draw,
            scoring.match_loss,
            ",".join(kind.value for kind in scoring.tie_breaks),
            rules.max_players,
            to_db_or_none(signup_deadline),
            organizer_id,
            to_db(now),
            int(rules.vacation_allowed),
            *setup.clock.to_db(),
            rules.groups,
            rules.advance,
            *rules.tiebreaks.to_db(),
            to_db_or_none(checkin_opens_at),
            to_db_or_none(checkin_remind_at),
        ),
    )
    assert cursor.lastrowid is not None
    return cursor.lastrowid


async def mark_started(
    tx: Transaction, tournament_id: int, rounds_total: int, now: datetime
) -> None:
    await tx.execute(
        "UPDATE tournaments SET status = 'running', rounds_total = ?, started_at = ? WHERE id = ?",
        (rounds_total, to_db(now), tournament_id),
    )


async def set_current_round(tx: Transaction, tournament_id: int, number: int) -> None:
    await tx.execute(
        "UPDATE tournaments SET current_round = ? WHERE id = ?", (number, tournament_id)
    )


async def mark_finished(
    tx: Transaction, tournament_id: int, winner_id: int | None, now: datetime
) -> None:
    await tx.execute(
        "UPDATE tournaments SET status = 'finished', winner_id = ?, finished_at = ? WHERE id = ?",
        (winner_id, to_db(now), tournament_id),
    )


async def mark_cancelled(tx: Transaction, tournament_id: int, now: datetime) -> None:
    await tx.execute(
        "UPDATE tournaments SET status = 'cancelled', finished_at = ? WHERE id = ?",
        (to_db(now), tournament_id),
    )


async def set_winner(tx: Transaction, tournament_id: int, winner_id: int | None) -> None:
    """A finished tournament's winner, after a correction (None: first place is shared)."""
    await tx.execute(
        "UPDATE tournaments SET winner_id = ? WHERE id = ?", (winner_id, tournament_id)
    )


async def schedule_checkin(
    tx: Transaction, tournament_id: int, opens_at: datetime | None, remind_at: datetime | None
) -> None:
    """When check-in opens and its reminder is due, neither announced yet."""
    await tx.execute(
        "UPDATE tournaments SET checkin_opens_at = ?, checkin_remind_at = ?, "
        "checkin_announced = 0, checkin_reminded = 0 WHERE id = ?",
        (to_db_or_none(opens_at), to_db_or_none(remind_at), tournament_id),
    )


async def mark_checkin_announced(tx: Transaction, tournament_id: int) -> None:
    await tx.execute("UPDATE tournaments SET checkin_announced = 1 WHERE id = ?", (tournament_id,))


async def mark_checkin_reminded(tx: Transaction, tournament_id: int) -> None:
    await tx.execute("UPDATE tournaments SET checkin_reminded = 1 WHERE id = ?", (tournament_id,))


async def set_late_entry(tx: Transaction, tournament_id: int, until_round: int | None) -> None:
    """The last round a late entrant can start in (None: no late entries)."""
    await tx.execute(
        "UPDATE tournaments SET late_entry_until = ? WHERE id = ?", (until_round, tournament_id)
    )


# ----------------------------------------------------------------- entrants


async def add_entrant(tx: Transaction, tournament_id: int, player_id: int, now: datetime) -> None:
    """A sign-up."""
    await tx.execute(
        "INSERT INTO tournament_players (tournament_id, player_id, joined_at) VALUES (?, ?, ?)",
        (tournament_id, player_id, to_db(now)),
    )


async def add_late_entrant(
    tx: Transaction, tournament_id: int, player_id: int, first_round: int, now: datetime
) -> None:
    """An entrant of a running tournament: seeded last, checked in, paired from `first_round`."""
    await tx.execute(
        "INSERT INTO tournament_players (tournament_id, player_id, seed, joined_at, "
        "checked_in_at, first_round) VALUES (?, ?, "
        "(SELECT COALESCE(MAX(seed), 0) + 1 FROM tournament_players "
        "WHERE tournament_id = ?), ?, ?, ?)",
        (tournament_id, player_id, tournament_id, to_db(now), to_db(now), first_round),
    )


async def remove_entrant(tx: Transaction, tournament_id: int, player_id: int) -> None:
    """A sign-up taken back (or dropped for not checking in)."""
    await tx.execute(
        "DELETE FROM tournament_players WHERE tournament_id = ? AND player_id = ?",
        (tournament_id, player_id),
    )


async def set_seeds(tx: Transaction, tournament_id: int, order: Sequence[int]) -> None:
    """The players of `order` get seeds 1, 2, 3... in that order."""
    for seed, player_id in enumerate(order, start=1):
        await tx.execute(
            "UPDATE tournament_players SET seed = ? WHERE tournament_id = ? AND player_id = ?",
            (seed, tournament_id, player_id),
        )


async def set_group(tx: Transaction, tournament_id: int, player_id: int, group: int) -> None:
    await tx.execute(
        "UPDATE tournament_players SET group_number = ? WHERE tournament_id = ? AND player_id = ?",
        (group, tournament_id, player_id),
    )


async def set_knockout_seeds(tx: Transaction, tournament_id: int, order: Sequence[int]) -> None:
    """The players of `order` get knockout seeds 1, 2, 3... in that order; the others none."""
    await tx.execute(
        "UPDATE tournament_players SET knockout_seed = NULL WHERE tournament_id = ?",
        (tournament_id,),
    )
    for seed, player_id in enumerate(order, start=1):
        await tx.execute(
            "UPDATE tournament_players SET knockout_seed = ? WHERE tournament_id = ? "
            "AND player_id = ?",
            (seed, tournament_id, player_id),
        )


async def mark_checked_in(
    tx: Transaction, tournament_id: int, player_id: int, now: datetime
) -> None:
    await tx.execute(
        "UPDATE tournament_players SET checked_in_at = ? WHERE tournament_id = ? AND player_id = ?",
        (to_db(now), tournament_id, player_id),
    )


async def mark_left(
    tx: Transaction, tournament_id: int, player_id: int, status: EntrantStatus, now: datetime
) -> None:
    """The entrant withdrew or was disqualified."""
    await tx.execute(
        "UPDATE tournament_players SET status = ?, left_at = ? WHERE tournament_id = ? "
        "AND player_id = ?",
        (status.value, to_db(now), tournament_id, player_id),
    )


async def replace_entrant(tx: Transaction, tournament_id: int, old_id: int, new_id: int) -> None:
    """`new_id` takes `old_id`'s entry (its seed and group), active and not checked in."""
    await tx.execute(
        "UPDATE tournament_players SET player_id = ?, status = 'active', left_at = NULL, "
        "checked_in_at = NULL WHERE tournament_id = ? AND player_id = ?",
        (new_id, tournament_id, old_id),
    )


async def log_replacement(
    tx: Transaction, tournament_id: int, old_id: int, new_id: int, round: int, now: datetime
) -> None:
    await tx.execute(
        "INSERT INTO tournament_replacements (tournament_id, old_id, new_id, round, "
        "replaced_at) VALUES (?, ?, ?, ?, ?)",
        (tournament_id, old_id, new_id, round, to_db(now)),
    )


# ----------------------------------------------------------------- pairings


async def write_pairing(
    tx: Transaction,
    tournament_id: int,
    number: int,
    players: tuple[int, int | None],
    *,
    row_id: int | None,
    match_id: int | None = None,
    winner_id: int | None = None,
    decided_at: datetime | None = None,
) -> None:
    """Insert a pairing of round `number`, or rewrite the pairing `row_id` (its score reset)."""
    player1, player2 = players
    values = (
        player1,
        player2,
        match_id,
        winner_id,
        int(player2 is not None and match_id is None),  # decided unplayed: a forfeit
        to_db_or_none(decided_at),
    )
    if row_id is None:
        await tx.execute(
            "INSERT INTO tournament_pairings (player1_id, player2_id, match_id, winner_id, "
            "forfeit, decided_at, tournament_id, round) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (*values, tournament_id, number),
        )
    else:
        await tx.execute(
            "UPDATE tournament_pairings SET player1_id = ?, player2_id = ?, match_id = ?, "
            "winner_id = ?, forfeit = ?, decided_at = ?, points1 = 0, points2 = 0 "
            "WHERE id = ? AND tournament_id = ? AND round = ?",
            (*values, row_id, tournament_id, number),
        )


async def decide_pairing(
    tx: Transaction,
    pairing_id: int,
    points: tuple[int, int],
    winner_id: int | None,
    forfeit: bool,
    now: datetime,
) -> None:
    """An undecided pairing's result."""
    await tx.execute(
        "UPDATE tournament_pairings SET points1 = ?, points2 = ?, winner_id = ?, forfeit = ?, "
        "decided_at = ? WHERE id = ? AND decided_at IS NULL",
        (*points, winner_id, int(forfeit), to_db(now), pairing_id),
    )


async def rescore_pairing(
    tx: Transaction, pairing_id: int, points: tuple[int, int], winner_id: int | None
) -> None:
    """A decided pairing's score and winner, after a corrected result."""
    await tx.execute(
        "UPDATE tournament_pairings SET points1 = ?, points2 = ?, winner_id = ? WHERE id = ?",
        (*points, winner_id, pairing_id),
    )


async def replace_pairing_player(
    tx: Transaction, pairing_id: int, old_id: int, new_id: int
) -> None:
    """`new_id` takes `old_id`'s place in the pairing, on whichever side they were."""
    await tx.execute(
        "UPDATE tournament_pairings "
        "SET player1_id = CASE player1_id WHEN ? THEN ? ELSE player1_id END, "
        "player2_id = CASE player2_id WHEN ? THEN ? ELSE player2_id END WHERE id = ?",
        (old_id, new_id, old_id, new_id, pairing_id),
    )


# ----------------------------------------------------------------- the log


async def write_log(
    tx: Transaction,
    tournament_id: int,
    *,
    kind: str,
    actor_id: int,
    game_id: int,
    before: str | None,
    after: str,
    reason: str,
    consequences: Sequence[str],
    now: datetime,
) -> int:
    """A correction or report in the tournament's log; its id."""
    cursor = await tx.execute(
        "INSERT INTO tournament_log (tournament_id, kind, actor_id, game_id, result_before, "
        "result_after, reason, consequences, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            tournament_id,
            kind,
            actor_id,
            game_id,
            before,
            after,
            reason,
            "\n".join(consequences),
            to_db(now),
        ),
    )
    assert cursor.lastrowid is not None
    return cursor.lastrowid
