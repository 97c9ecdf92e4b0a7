"""A round robin run through the services from sign-up to the final standings, ratings and
exports, and resumed after a restart."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

from bot.games.model import GameView, MatchStatus
from bot.services import Services
from bot.timekeeping.clock import FakeClock
from bot.tournaments.tournament import TournamentStatus
from tak.ptn import Game
from tests.bot.conftest import with_announcements_delivered
from tests.bot.tournament_helpers import (
    ANN,
    BEN,
    CAT,
    DAN,
    GUILD,
    ROAD_POINTS,
    active_game,
    new_tournament,
    play_round,
    start,
    stronger,
    win,
)

FIELD = (ANN, BEN, CAT, DAN)


def cat_and_dan_split(game: GameView) -> int:
    """The stronger player wins, except that Cat and Dan each win with white (a drawn match)."""
    if {game.white, game.black} == {CAT, DAN}:
        return game.white.id
    return stronger(game)


async def test_a_four_player_round_robin_of_two_game_matches(services: Services) -> None:
    tournament = await new_tournament(services, FIELD, games_per_match=2)
    assert tournament.status is TournamentStatus.SIGNUP and tournament.player_count == 4

    progress = await start(services, tournament.id)
    assert progress.tournament.status is TournamentStatus.RUNNING
    assert progress.tournament.rounds_total == 3 and progress.tournament.current_round == 1
    assert [e.player for e in await services.tournaments.entrants(tournament.id)] == list(FIELD)
    assert [r.number for r in progress.rounds] == [1]
    assert len(progress.games) == 2
    for game in progress.games:  # player 1 of each pairing has white in game 1
        pairing = next(p for p in progress.rounds[0].pairings if p.match_id == game.match_id)
        assert (game.white, game.black, game.match_game) == (pairing.player1, pairing.player2, 1)
        assert game.setup.size == 3 and game.setup.rated

    meetings = set()
    for number in (1, 2, 3):
        current = await services.tournaments.pairings(tournament.id)
        assert current.number == number
        assert not all(pairing.is_decided for pairing in current.pairings)
        meetings |= {frozenset((p.player1, p.player2)) for p in current.pairings}
        last = await play_round(services, tournament.id, cat_and_dan_split)
        assert last is not None and last.tournament is not None
        assert [p.round for p in last.tournament.decided] == [number]
        if number < 3:  # the round's last game began the next round by itself
            assert [r.number for r in last.tournament.rounds] == [number + 1]
            assert len(last.tournament.games) == 2
            assert not last.tournament.finished
    assert len(meetings) == 6  # everyone met everyone

    assert last.tournament.finished and last.tournament.rounds == ()
    final = await services.tournaments.get(tournament.id)
    assert final.status is TournamentStatus.FINISHED and final.winner == ANN
    assert final.finished_at is not None

    rows = [
        (r.player, r.standing.place, r.standing.score, r.standing.game_points)
        for r in await services.tournaments.standings(tournament.id)
    ]
    two_wins = 2 * ROAD_POINTS
    assert rows == [
        (ANN, 1, 9, 3 * two_wins),
        (BEN, 2, 6, 2 * two_wins),
        (CAT, 3, 1, ROAD_POINTS),  # Cat and Dan drew their match: they share third
        (DAN, 3, 1, ROAD_POINTS),
    ]

    # Every game was rated: six each on 3x3, in the order of the results.
    ratings = {p: (await services.ratings.player(GUILD, p.id))[0] for p in FIELD}
    assert all(r.games == 6 and r.size == 3 for r in ratings.values())
    assert ratings[ANN].rating.rating > ratings[BEN].rating.rating > 1500
    assert ratings[CAT].rating.rating < 1500 and ratings[DAN].rating.rating < 1500

    table = list(csv.reader(io.StringIO(await services.tournaments.standings_csv(tournament.id))))
    assert table[0][:3] == ["Place", "Player ID", "Name"]
    assert [(row[0], row[2]) for row in table[1:]] == [
        ("1", "ann"),
        ("2", "ben"),
        ("3", "cat"),
        ("3", "dan"),
    ]


async def test_the_ptn_export_tags_every_game_with_the_event_and_round(services: Services) -> None:
    tournament = await new_tournament(services, (ANN, BEN, CAT), games_per_match=2)
    await start(services, tournament.id)
    for _ in range(3):
        await play_round(services, tournament.id)
    assert (await services.tournaments.get(tournament.id)).status is TournamentStatus.FINISHED

    text = await services.tournaments.games_ptn(tournament.id)
    games = [Game.parse(chunk) for chunk in re.split(r"\n\n(?=\[)", text.strip())]
    assert len(games) == 6  # three matches of two games; each round one player has a bye
    assert {g.tag("Event") for g in games} == {"Spring Open"}
    # Round is digits only for PTN Ninja; a match's two games share their round.
    assert [g.tag("Round") for g in games] == ["1", "1", "2", "2", "3", "3"]
    assert all(g.result is not None and g.tag("Result") == g.result.ptn() for g in games)
    assert all(g.final_position().result is not None for g in games)
    # A single game's record carries the same tags.
    final = next(p for p in (await services.tournaments.pairings(tournament.id, 3)).pairings)
    assert final.match_id is not None
    last_game = (await services.matches.games(final.match_id))[-1]
    record = await services.lookup.record(last_game.id)
    assert record.tag("Event") == "Spring Open" and record.tag("Round") == "3"


async def test_a_restart_mid_tournament_resumes_it(db_path: Path, clock: FakeClock) -> None:
    first = await Services.open(db_path, clock=clock)
    try:
        tournament = await new_tournament(first, FIELD, games_per_match=2)
        await start(first, tournament.id)
        await play_round(first, tournament.id)
        pairing = (await first.tournaments.pairings(tournament.id)).pairings[0]
        assert pairing.round == 2 and pairing.match_id is not None
        game = await active_game(first, pairing.match_id)
        await win(first, game, stronger(game))  # game 1 of a round 2 match
    finally:
        await first.close()

    again = with_announcements_delivered(await Services.open(db_path, clock=clock))
    try:
        resumed = await again.tournaments.get(tournament.id)
        assert resumed.status is TournamentStatus.RUNNING and resumed.current_round == 2
        match = await again.matches.get(pairing.match_id)
        assert match.status is MatchStatus.ACTIVE and match.games_played == 1
        game = await active_game(again, pairing.match_id)
        assert game.match_game == 2 and (game.white, game.black) == (
            pairing.player2,
            pairing.player1,
        )
        await play_round(again, tournament.id)
        await play_round(again, tournament.id)
        final = await again.tournaments.get(tournament.id)
        assert final.status is TournamentStatus.FINISHED and final.winner == ANN
        assert [r.player for r in await again.tournaments.standings(tournament.id)] == list(FIELD)
    finally:
        await again.close()
