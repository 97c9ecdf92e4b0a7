"""Groups -> knockout and tiebreak games run through the services: snake groups, group rounds side
by side, the right players through to a cross-seeded bracket, tiebreak games with their own time
control, and the better seed through after the last one."""

from __future__ import annotations

import csv
import io
from collections import Counter
from datetime import timedelta
from pathlib import Path

import pytest

from bot.errors import InvalidSetting, NotEnoughPlayers
from bot.games.model import GameView, MatchStatus
from bot.players.model import PlayerRef
from bot.services import Services
from bot.store import Database, load_migrations
from bot.tournaments.tournament import TournamentStatus
from tests.bot.tournament_helpers import (
    CHANNEL,
    GUILD,
    ROAD_POINTS,
    active_game,
    new_tournament,
    play_round,
    start,
    win,
)

EIGHT = tuple(PlayerRef(501 + i, f"p{i + 1}") for i in range(8))  # join order = seed order


def by_seed(game: GameView) -> int:
    """The better seed (the earlier joiner) wins."""
    return min(game.white.id, game.black.id)


def upsets_in_group_b(game: GameView) -> int:
    """The better seed wins, except that p6 and p7 beat p3: group B ends p2, p6, p7, p3."""
    names = {game.white.name, game.black.name}
    if "p3" in names and names & {"p6", "p7"}:
        return max(game.white.id, game.black.id)
    return by_seed(game)


async def test_groups_then_a_cross_seeded_knockout(services: Services) -> None:
    tournament = await new_tournament(
        services, EIGHT, format="groups", groups=2, advance=2, games_per_match=1
    )
    progress = await start(services, tournament.id)
    assert progress.tournament.rounds_total == 3 + 2  # groups of four, then four players
    entrants = await services.tournaments.entrants(tournament.id)
    groups = {e.player.name: e.group for e in entrants}
    assert [n for n, g in groups.items() if g == 0] == ["p1", "p4", "p5", "p8"]
    assert [n for n, g in groups.items() if g == 1] == ["p2", "p3", "p6", "p7"]

    for number in (1, 2, 3):
        current = await services.tournaments.pairings(tournament.id)
        assert current.number == number and len(current.pairings) == 4
        assert all(groups[p.player1.name] == groups[p.player2.name] for p in current.pairings)
        await play_round(services, tournament.id, upsets_in_group_b)

    rows = await services.tournaments.standings(tournament.id)
    assert [r.group for r in rows] == [0] * 4 + [1] * 4
    assert all(r.standing.played == 3 for r in rows)
    # Straightforward: count each player's group wins and rank by wins, then seed.
    wins: Counter[str] = Counter()
    for number in (1, 2, 3):
        for pairing in (await services.tournaments.pairings(tournament.id, number)).pairings:
            assert pairing.winner is not None
            wins[pairing.winner.name] += 1
    seed = {p.name: i for i, p in enumerate(EIGHT)}
    top = {
        g: sorted((n for n in groups if groups[n] == g), key=lambda n: (-wins[n], seed[n]))[:2]
        for g in (0, 1)
    }
    assert [r.player.name for r in rows if r.group == 0][:2] == top[0]
    assert [r.player.name for r in rows if r.group == 1][:2] == top[1]
    assert top == {0: ["p1", "p4"], 1: ["p2", "p6"]}  # the upsets count

    knockout = await services.tournaments.pairings(tournament.id)
    assert knockout.number == 4
    meetings = {frozenset((p.player1.name, p.player2.name)) for p in knockout.pairings}
    a1, a2 = top[0]
    b1, b2 = top[1]
    assert meetings == {frozenset((a1, b2)), frozenset((b1, a2))}  # A1 v B2, B1 v A2
    # A knockout match cannot end drawn: it was created with tiebreak games.
    match = await services.matches.get(knockout.pairings[0].match_id or 0)
    assert match.until_decided and match.tiebreaks.games == 3

    await play_round(services, tournament.id, by_seed)
    last = await play_round(services, tournament.id, by_seed)
    assert last is not None and last.tournament is not None and last.tournament.finished
    final = await services.tournaments.get(tournament.id)
    assert final.status is TournamentStatus.FINISHED and final.current_round == 5
    assert final.winner is not None and final.winner.name == min(a1, b1, key=seed.__getitem__)
    # The group tables are not changed by the knockout.
    assert [r.standing.played for r in await services.tournaments.standings(tournament.id)] == [
        3
    ] * 8

    exported = list(
        csv.reader(io.StringIO(await services.tournaments.standings_csv(tournament.id)))
    )
    assert exported[0][:3] == ["Group", "Place", "Player ID"]
    assert [row[0] for row in exported[1:]] == ["A"] * 4 + ["B"] * 4


async def test_withdrawal_during_the_groups_sends_the_next_player_through(
    services: Services,
) -> None:
    tournament = await new_tournament(
        services, EIGHT[:6], format="groups", groups=2, advance=1, games_per_match=1
    )
    await start(services, tournament.id)
    await play_round(services, tournament.id, by_seed)
    await play_round(services, tournament.id, by_seed)
    await services.tournaments.withdraw(tournament.id, EIGHT[0].id)  # p1 leads group A
    await play_round(services, tournament.id, by_seed)
    final = await services.tournaments.pairings(tournament.id)
    assert final.number == 4
    # p1 keeps their results (first in A) but has left: p4, A's best still in, meets p2.
    rows = await services.tournaments.standings(tournament.id)
    assert rows[0].player.name == "p1"
    assert {final.pairings[0].player1.name, final.pairings[0].player2.name} == {"p2", "p4"}


async def test_a_whole_group_withdrawn_leaves_one_player_through_who_wins(
    services: Services,
) -> None:
    tournament = await new_tournament(
        services, EIGHT[:4], format="groups", groups=2, advance=1, games_per_match=1
    )
    await start(services, tournament.id)  # A: p1, p4; B: p2, p3; one group round
    await services.tournaments.withdraw(tournament.id, EIGHT[1].id)
    await services.tournaments.withdraw(tournament.id, EIGHT[2].id)
    await play_round(services, tournament.id, by_seed)
    final = await services.tournaments.get(tournament.id)
    assert final.status is TournamentStatus.FINISHED and final.current_round == 1
    assert final.winner == EIGHT[0]
    seeds = {e.player.name: e.knockout_seed for e in await services.tournaments.entrants(final.id)}
    assert seeds == {"p1": 1, "p2": None, "p3": None, "p4": None}


async def draw(services: Services, game: GameView) -> GameView | None:
    """Agree a draw at once; the match's next game, if any."""
    await services.games.offer_draw(game.id, game.white.id)
    ending = await services.games.accept_draw(game.id, game.black.id)
    return ending.next_game


async def level_after_two_games(services: Services, **settings: object) -> tuple[int, GameView]:
    """A two-player knockout whose two games are drawn: the match id and its tiebreak game 1."""
    tournament = await new_tournament(
        services, EIGHT[:2], format="elimination", games_per_match=2, **settings
    )
    progress = await start(services, tournament.id)
    match_id = progress.rounds[0].pairings[0].match_id
    assert match_id is not None
    second = await draw(services, await active_game(services, match_id))
    assert second is not None and second.tiebreak is None and second.match_game == 2
    tiebreak = await draw(services, second)
    assert tiebreak is not None
    return match_id, tiebreak


async def test_tiebreak_games_have_their_own_time_control(services: Services) -> None:
    _, first = await level_after_two_games(
        services, tiebreak_days=3, tiebreak_bank=timedelta(days=2)
    )
    assert first.tiebreak == 1 and first.match_game == 3
    assert first.setup.days_per_move == 3 and first.setup.clock.bank == timedelta(days=2)
    assert first.deadline_at == first.created_at + timedelta(days=5)  # the move plus the bank
    assert (first.white.name, first.black.name) == ("p1", "p2")  # colours still alternate
    second = await draw(services, first)
    assert second is not None and second.tiebreak == 2 and second.setup.days_per_move == 3
    assert (second.white.name, second.black.name) == ("p2", "p1")
    ending = await win(services, second, EIGHT[1].id)
    assert ending.match is not None and ending.match.status is MatchStatus.FINISHED
    assert ending.tournament is not None and ending.tournament.finished
    assert ending.tournament.tournament.winner == EIGHT[1]
    assert ending.match.points2 == ROAD_POINTS


async def test_without_a_tiebreak_clock_the_tournaments_own_is_used(services: Services) -> None:
    _, first = await level_after_two_games(services, days_per_move=2)
    assert first.tiebreak == 1 and first.setup.days_per_move == 2
    assert first.setup.clock.bank == timedelta(0)


async def test_after_the_last_tiebreak_game_the_better_seed_goes_through(
    services: Services,
) -> None:
    match_id, first = await level_after_two_games(services, tiebreak_games=2)
    second = await draw(services, first)
    assert second is not None and second.tiebreak == 2
    assert await draw(services, second) is None  # no third tiebreak game
    match = await services.matches.get(match_id)
    assert match.status is MatchStatus.FINISHED and match.games_played == 4
    assert match.points1 == match.points2 == 0
    pairing = await services.tournaments.pairing_of_match(match_id)
    assert pairing is not None and pairing.winner == EIGHT[0] and not pairing.forfeit
    tournament = await services.tournaments.get(pairing.tournament_id)
    assert tournament.status is TournamentStatus.FINISHED and tournament.winner == EIGHT[0]


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"format": "groups", "advance": 1}, "2 to 8 groups"),
        ({"format": "groups", "groups": 9, "advance": 1}, "2 to 8 groups"),
        ({"format": "groups", "groups": 2}, "players of each group go through"),
        ({"format": "round_robin", "groups": 2, "advance": 1}, "Only a groups"),
        ({"format": "swiss", "swiss_rounds": 3, "tiebreak_games": 2}, "Only knockout"),
        ({"format": "round_robin", "tiebreak_days": 2}, "Only knockout"),
        ({"format": "elimination", "tiebreak_games": 10}, "1 to 9 tiebreak games"),
        ({"format": "elimination", "tiebreak_days": 31}, "Days per move"),
        (
            {
                "format": "elimination",
                "tiebreak_bank": timedelta(days=1),
                "tiebreak_increment": timedelta(hours=6),
            },
            "bank or an increment",
        ),
    ],
)
async def test_bad_settings_are_refused(
    services: Services, settings: dict[str, object], message: str
) -> None:
    with pytest.raises(InvalidSetting, match=message):
        await new_tournament(services, **settings)
    assert await services.tournaments.in_guild(GUILD) == []


async def test_groups_need_more_players_than_go_through(services: Services) -> None:
    tournament = await new_tournament(services, EIGHT[:5], format="groups", groups=2, advance=2)
    with pytest.raises(NotEnoughPlayers, match="at least 6 players"):
        await start(services, tournament.id)
    assert (await services.tournaments.get(tournament.id)).status is TournamentStatus.SIGNUP
    assert all(e.group is None for e in await services.tournaments.entrants(tournament.id))


@pytest.mark.sqlite_only
async def test_the_upgrade_keeps_every_tournament(db_path: Path) -> None:
    """A file made before the groups format keeps its tournaments, players and pairings, and
    their links, when the tournaments table is rebuilt."""
    every = load_migrations()
    before = every[: [m.name.endswith("groups_tiebreaks") for m in every].index(True)]
    old = await Database.open(db_path, migrations=before)
    async with old.transaction() as tx:
        await tx.execute(
            "INSERT INTO players (id, name, created_at, updated_at) VALUES "
            "(900, 'org', 'x', 'x'), (1, 'a', 'x', 'x'), (2, 'b', 'x', 'x')"
        )
        await tx.execute(
            "INSERT INTO tournaments (id, guild_id, channel_id, name, format, size, komi, "
            "opening, games_per_match, days_per_move, rated, scoring, match_win, match_draw, "
            "match_loss, tie_breaks, max_players, organizer_id, status, current_round, "
            "created_at, clock_bank) VALUES (7, ?, ?, 'Old', 'elimination', 5, 0, 'swap', 2, 3, "
            "1, 'match_points', 3, 1, 0, 'buchholz', 8, 900, 'running', 1, 'x', 3600)",
            (GUILD, CHANNEL),
        )
        await tx.execute(
            "INSERT INTO tournament_players (tournament_id, player_id, seed, joined_at) "
            "VALUES (7, 1, 1, 'x'), (7, 2, 2, 'x')"
        )
        await tx.execute(
            "INSERT INTO tournament_pairings (tournament_id, round, player1_id, player2_id) "
            "VALUES (7, 1, 1, 2)"
        )
    await old.close()

    upgraded = await Database.open(db_path)
    try:
        row = await upgraded.fetchone("SELECT * FROM tournaments WHERE id = 7")
        assert row is not None
        assert (row["name"], row["format"], row["clock_bank"], row["status"]) == (
            "Old",
            "elimination",
            3600,
            "running",
        )
        assert row["tiebreak_games"] is None and row["group_count"] is None
        assert await upgraded.fetchall("PRAGMA foreign_key_check") == []
        players = await upgraded.fetchone(
            "SELECT COUNT(*) FROM tournament_players WHERE tournament_id = 7"
        )
        assert players is not None and players[0] == 2
        async with upgraded.transaction() as tx:  # the new format is accepted
            await tx.execute("UPDATE tournaments SET format = 'groups' WHERE id = 7")
    finally:
        await upgraded.close()
