"""The tournament tables (``tournaments``, ``tournament_players``, ``tournament_pairings``,
``tournament_replacements``, ``tournament_log``, ``tournament_bye_requests``,
``tournament_forbidden_pairs``): every write to them, as named operations, their
row mappers and the reads the services share; always inside a caller's transaction (the log's
reads are :mod:`bot.tournaments.corrections`')."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime

from bot.errors import UnknownTournament
from bot.games.model import (
    GameRequest,
    GameSetup,
    GameView,
    clock_from_row,
    tiebreak_from_row,
)
from bot.players.model import PlayerRef
from bot.store import Row, Transaction, from_db, to_db, to_db_or_none
from bot.tournaments import Scoring, ScoringSystem, TieBreak
from bot.tournaments.rules import TournamentRules, requested_bye_points
from bot.tournaments.seeding import place_holders
from bot.tournaments.tournament import (
    ByeRequest,
    Entrant,
    EntrantStatus,
    PairingView,
    RequestedBye,
    TournamentFormat,
    TournamentStatus,
    TournamentView,
)

# ----------------------------------------------------------------- reading

TOURNAMENT_SELECT = """
SELECT t.*, o.name AS organizer_name, w.name AS winner_name,
    (SELECT COUNT(*) FROM tournament_players tp WHERE tp.tournament_id = t.id) AS player_count
FROM tournaments t JOIN players o ON o.id = t.organizer_id LEFT JOIN players w ON w.id = t.winner_id
"""

_PAIRING_SELECT = """
SELECT tp.*, p1.name AS player1_name, p2.name AS player2_name, w.name AS winner_name
FROM tournament_pairings tp JOIN players p1 ON p1.id = tp.player1_id
LEFT JOIN players p2 ON p2.id = tp.player2_id LEFT JOIN players w ON w.id = tp.winner_id
"""


def _player(row: Row, prefix: str) -> PlayerRef | None:
    player_id = row[f"{prefix}_id"]
    return None if player_id is None else PlayerRef(player_id, row[f"{prefix}_name"])


def _moment(text: str) -> datetime:
    moment = from_db(text)
    assert moment is not None
    return moment


def tournament_from_row(row: Row) -> TournamentView:
    """A row of :data:`TOURNAMENT_SELECT`."""
    match_win = row["match_win"]
    requested_bye = RequestedBye(row["requested_bye"])
    organizer = _player(row, "organizer")
    assert organizer is not None
    return TournamentView(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        name=row["name"],
        format=TournamentFormat(row["format"]),
        swiss_rounds=row["swiss_rounds"],
        setup=replace(
            GameSetup.create(
                GameRequest(
                    opening=row["opening"], rated=bool(row["rated"]), start=row["start_tps"]
                ),
                size=row["size"],
                komi=row["komi"],
                days_per_move=row["days_per_move"],
            ),
            clock=clock_from_row(row),
        ),
        games_per_match=row["games_per_match"],
        scoring=Scoring(
            system=ScoringSystem(row["scoring"]),
            match_win=match_win,
            match_draw=row["match_draw"],
            match_loss=row["match_loss"],
            bye_match_points=match_win,
            requested_bye_match_points=requested_bye_points(requested_bye, row["match_draw"]),
            tie_breaks=tuple(TieBreak(name) for name in row["tie_breaks"].split(",") if name),
        ),
        max_players=row["max_players"],
        signup_deadline=from_db(row["signup_deadline"]),
        organizer=organizer,
        status=TournamentStatus(row["status"]),
        current_round=row["current_round"],
        rounds_total=row["rounds_total"],
        winner=_player(row, "winner"),
        player_count=row["player_count"],
        created_at=_moment(row["created_at"]),
        started_at=from_db(row["started_at"]),
        finished_at=from_db(row["finished_at"]),
        vacation_allowed=bool(row["vacation_allowed"]),
        group_count=row["group_count"],
        group_advance=row["group_advance"],
        tiebreaks=tiebreak_from_row(row),
        requested_bye=requested_bye,
    )


def _pairing_from_row(row: Row) -> PairingView:
    player1 = _player(row, "player1")
    assert player1 is not None
    return PairingView(
        id=row["id"],
        tournament_id=row["tournament_id"],
        round=row["round"],
        player1=player1,
        player2=_player(row, "player2"),
        match_id=row["match_id"],
        points1=row["points1"],
        points2=row["points2"],
        winner=_player(row, "winner"),
        forfeit=bool(row["forfeit"]),
        decided_at=from_db(row["decided_at"]),
        requested=bool(row["requested"]),
    )


async def fetch_tournament(tx: Transaction, tournament_id: int) -> TournamentView:
    row = await tx.fetchone(TOURNAMENT_SELECT + " WHERE t.id = ?", (tournament_id,))
    if row is None:
        raise UnknownTournament(tournament_id)
    return tournament_from_row(row)


async def fetch_entrants(tx: Transaction, tournament_id: int) -> list[Entrant]:
    """The players in seed order (before the start: those seeded by hand, then join order),
    withdrawn ones included."""
    rows = await tx.fetchall(
        "SELECT tp.*, p.name FROM tournament_players tp JOIN players p ON p.id = tp.player_id "
        "WHERE tp.tournament_id = ? ORDER BY tp.seed IS NULL, tp.seed, tp.joined_at, tp.rowid",
        (tournament_id,),
    )
    return [
        Entrant(
            PlayerRef(row["player_id"], row["name"]),
            row["seed"],
            EntrantStatus(row["status"]),
            _moment(row["joined_at"]),
            row["group_number"],
            row["knockout_seed"],
        )
        for row in rows
    ]


async def fetch_pairings(
    tx: Transaction, tournament_id: int, round_number: int | None = None
) -> list[PairingView]:
    """The pairings of one round, or of every round, in order."""
    rows = await tx.fetchall(
        _PAIRING_SELECT + " WHERE tp.tournament_id = ? AND (? IS NULL OR tp.round = ?) "
        "ORDER BY tp.round, tp.id",
        (tournament_id, round_number, round_number),
    )
    return [_pairing_from_row(row) for row in rows]


async def pairing_of_match(tx: Transaction, match_id: int) -> PairingView | None:
    row = await tx.fetchone(_PAIRING_SELECT + " WHERE tp.match_id = ?", (match_id,))
    return None if row is None else _pairing_from_row(row)


async def in_tournament(tx: Transaction, game: GameView) -> bool:
    """Whether the game belongs to a tournament match."""
    if game.match_id is None:
        return False
    row = await tx.fetchone(
        "SELECT 1 FROM tournament_pairings WHERE match_id = ?", (game.match_id,)
    )
    return row is not None


async def fetch_pairing(tx: Transaction, pairing_id: int) -> PairingView:
    row = await tx.fetchone(_PAIRING_SELECT + " WHERE tp.id = ?", (pairing_id,))
    assert row is not None
    return _pairing_from_row(row)


async def fetch_place_holders(tx: Transaction, tournament_id: int) -> dict[int, int]:
    """{replaced player: who holds their place now} (see :func:`bot.tournaments.place_holders`)."""
    rows = await tx.fetchall(
        "SELECT old_id, new_id FROM tournament_replacements WHERE tournament_id = ? "
        "ORDER BY replaced_at, rowid",
        (tournament_id,),
    )
    return place_holders((row["old_id"], row["new_id"]) for row in rows)


# ----------------------------------------------------------------- tournaments


# The columns of a tournament's game setup and rules, in the order of :func:`_rules_values`.
RULES_COLUMNS = (
    "format",
    "swiss_rounds",
    "size",
    "komi",
    "opening",
    "games_per_match",
    "days_per_move",
    "rated",
    "scoring",
    "match_win",
    "match_draw",
    "match_loss",
    "tie_breaks",
    "max_players",
    "vacation_allowed",
    "clock_bank",
    "clock_increment",
    "clock_cap",
    "group_count",
    "group_advance",
    "tiebreak_days_per_move",
    "tiebreak_clock_bank",
    "tiebreak_clock_increment",
    "tiebreak_clock_cap",
    "tiebreak_games",
    "start_tps",
    "requested_bye",
)


def _rules_values(setup: GameSetup, rules: TournamentRules) -> tuple[object, ...]:
    scoring = rules.scoring
    return (
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
        int(rules.vacation_allowed),
        *setup.clock.to_db(),
        rules.groups,
        rules.advance,
        *rules.tiebreaks.to_db(),
        setup.start_tps,
        rules.requested_bye.value,
    )


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
    columns = (
        "guild_id",
        "channel_id",
        "name",
        "signup_deadline",
        "organizer_id",
        "created_at",
        "checkin_opens_at",
        "checkin_remind_at",
        *RULES_COLUMNS,
    )
    return await tx.insert(
        f"INSERT INTO tournaments ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
        (
            guild_id,
            channel_id,
            name,
            to_db_or_none(signup_deadline),
            organizer_id,
            to_db(now),
            to_db_or_none(checkin_opens_at),
            to_db_or_none(checkin_remind_at),
            *_rules_values(setup, rules),
        ),
    )


async def update_rules(
    tx: Transaction, tournament_id: int, setup: GameSetup, rules: TournamentRules
) -> None:
    """A tournament's game setup and rules changed (before it starts)."""
    assignments = ", ".join(f"{column} = ?" for column in RULES_COLUMNS)
    await tx.execute(
        f"UPDATE tournaments SET {assignments} WHERE id = ?",
        (*_rules_values(setup, rules), tournament_id),
    )


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


async def mark_paced(tx: Transaction, tournament_id: int) -> None:
    """Rounds after the first begin only when released (a season's period, :mod:`bot.seasons`)."""
    await tx.execute("UPDATE tournaments SET paced = 1 WHERE id = ?", (tournament_id,))


async def is_paced(tx: Transaction, tournament_id: int) -> bool:
    row = await tx.fetchone("SELECT paced FROM tournaments WHERE id = ?", (tournament_id,))
    return row is not None and bool(row["paced"])


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
    requested: bool = False,
) -> None:
    """Insert a pairing of round `number`, or rewrite the pairing `row_id` (its score reset);
    `requested`: a bye the player asked for."""
    player1, player2 = players
    values = (
        player1,
        player2,
        match_id,
        winner_id,
        int(player2 is not None and match_id is None),  # decided unplayed: a forfeit
        to_db_or_none(decided_at),
        int(requested),
    )
    if row_id is None:
        await tx.execute(
            "INSERT INTO tournament_pairings (player1_id, player2_id, match_id, winner_id, "
            "forfeit, decided_at, requested, tournament_id, round) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (*values, tournament_id, number),
        )
    else:
        await tx.execute(
            "UPDATE tournament_pairings SET player1_id = ?, player2_id = ?, match_id = ?, "
            "winner_id = ?, forfeit = ?, decided_at = ?, requested = ?, points1 = 0, "
            "points2 = 0 WHERE id = ? AND tournament_id = ? AND round = ?",
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


# ----------------------------------------------------------------- requested byes, forbidden pairs


async def fetch_bye_requests(
    tx: Transaction,
    tournament_id: int,
    round_number: int | None = None,
    *,
    of_players_in: bool = False,
) -> list[ByeRequest]:
    """The byes asked for (of one round, or all), by round then player; `of_players_in`: only
    those of players still in (not of one who left or was replaced)."""
    still_in = (
        "AND EXISTS (SELECT 1 FROM tournament_players tp WHERE tp.tournament_id = r.tournament_id "
        "AND tp.player_id = r.player_id AND tp.status = 'active') "
        if of_players_in
        else ""
    )
    rows = await tx.fetchall(
        "SELECT r.player_id, p.name, r.round FROM tournament_bye_requests r "
        "JOIN players p ON p.id = r.player_id "
        "WHERE r.tournament_id = ? AND (? IS NULL OR r.round = ?) "
        + still_in
        + "ORDER BY r.round, p.name, r.player_id",
        (tournament_id, round_number, round_number),
    )
    return [ByeRequest(PlayerRef(row["player_id"], row["name"]), row["round"]) for row in rows]


async def add_bye_request(
    tx: Transaction,
    tournament_id: int,
    player_id: int,
    round_number: int,
    requested_by: int,
    now: datetime,
) -> None:
    await tx.execute(
        "INSERT INTO tournament_bye_requests (tournament_id, player_id, round, requested_by, "
        "requested_at) VALUES (?, ?, ?, ?, ?)",
        (tournament_id, player_id, round_number, requested_by, to_db(now)),
    )


async def remove_bye_request(
    tx: Transaction, tournament_id: int, player_id: int, round_number: int
) -> None:
    await tx.execute(
        "DELETE FROM tournament_bye_requests WHERE tournament_id = ? AND player_id = ? "
        "AND round = ?",
        (tournament_id, player_id, round_number),
    )


async def fetch_forbidden_pairs(
    tx: Transaction, tournament_id: int
) -> list[tuple[PlayerRef, PlayerRef]]:
    """The pairs kept apart, in the order they were declared."""
    rows = await tx.fetchall(
        "SELECT f.player1_id, a.name AS player1_name, f.player2_id, b.name AS player2_name "
        "FROM tournament_forbidden_pairs f JOIN players a ON a.id = f.player1_id "
        "JOIN players b ON b.id = f.player2_id WHERE f.tournament_id = ? "
        "ORDER BY f.added_at, f.player1_id, f.player2_id",
        (tournament_id,),
    )
    pairs = []
    for row in rows:
        first, second = _player(row, "player1"), _player(row, "player2")
        assert first is not None and second is not None
        pairs.append((first, second))
    return pairs


async def add_forbidden_pair(
    tx: Transaction, tournament_id: int, pair: tuple[int, int], now: datetime
) -> None:
    await tx.execute(
        "INSERT INTO tournament_forbidden_pairs (tournament_id, player1_id, player2_id, "
        "added_at) VALUES (?, ?, ?, ?)",
        (tournament_id, *sorted(pair), to_db(now)),
    )


async def remove_forbidden_pair(tx: Transaction, tournament_id: int, pair: tuple[int, int]) -> None:
    await tx.execute(
        "DELETE FROM tournament_forbidden_pairs WHERE tournament_id = ? AND player1_id = ? "
        "AND player2_id = ?",
        (tournament_id, *sorted(pair)),
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
    consequences: str,
    now: datetime,
) -> int:
    """A correction or report in the tournament's log (`consequences` as the log keeps them:
    :mod:`bot.tournaments.corrections`); its id."""
    new_id = await tx.insert(
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
            consequences,
            to_db(now),
        ),
    )
    return new_id
