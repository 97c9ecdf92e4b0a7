"""Swiss and single elimination run through the services: byes, repeat-free rounds, a bracket
whose drawn match is settled by extra games."""

from __future__ import annotations

from collections import Counter

from bot.games.model import MatchStatus
from bot.services import Services
from bot.tournaments.tournament import TournamentStatus
from tests.bot.tournament_helpers import (
    ANN,
    BEN,
    CAT,
    DAN,
    EVE,
    ROAD_POINTS,
    active_game,
    new_tournament,
    play_round,
    start,
    win,
)

FIVE = (ANN, BEN, CAT, DAN, EVE)


async def test_a_five_player_swiss_of_three_rounds(services: Services) -> None:
    tournament = await new_tournament(
        services, FIVE, format="swiss", swiss_rounds=3, games_per_match=1
    )
    progress = await start(services, tournament.id)
    assert progress.tournament.rounds_total == 3
    for number in (1, 2, 3):
        current = await services.tournaments.pairings(tournament.id)
        assert current.number == number
        assert sum(p.is_bye for p in current.pairings) == 1
        assert len([p for p in current.pairings if p.match_id is not None]) == 2
        last = await play_round(services, tournament.id)
        assert last is not None and last.tournament is not None
        assert last.tournament.finished == (number == 3)

    pairings = [
        p
        for n in (1, 2, 3)
        for p in (await services.tournaments.pairings(tournament.id, n)).pairings
    ]
    byes = [p.player1 for p in pairings if p.is_bye]
    assert len(byes) == len(set(byes)) == 3  # at most one bye each
    meetings = Counter(frozenset((p.player1, p.player2)) for p in pairings if not p.is_bye)
    assert set(meetings.values()) == {1}  # no repeat pairings
    final = await services.tournaments.get(tournament.id)
    assert final.status is TournamentStatus.FINISHED and final.current_round == 3

    table = await services.tournaments.standings(tournament.id)
    assert table[0].player == ANN and table[0].standing.score == 9  # Ann wins every match
    assert all(r.standing.played + r.standing.byes == 3 for r in table)
    assert sum(r.standing.won for r in table) == 6 and sum(r.standing.drawn for r in table) == 0
    # Each player's score: 3 per match won or bye.
    assert all(r.standing.score == 3 * (r.standing.won + r.standing.byes) for r in table)


async def test_elimination_with_a_drawn_match_settled_by_extra_games(services: Services) -> None:
    tournament = await new_tournament(services, FIVE, format="elimination", games_per_match=2)
    progress = await start(services, tournament.id)
    assert progress.tournament.rounds_total == 3
    first = progress.rounds[0]
    # A bracket of eight: seeds 1-3 have byes, 4 (Dan) plays 5 (Eve).
    assert sorted(p.player1.name for p in first.pairings if p.is_bye) == ["ann", "ben", "cat"]
    (match_pairing,) = [p for p in first.pairings if not p.is_bye]
    assert (match_pairing.player1, match_pairing.player2) == (DAN, EVE)
    assert match_pairing.match_id is not None
    match_id = match_pairing.match_id

    game = await active_game(services, match_id)
    await win(services, game, DAN.id)  # Dan with white
    game = await active_game(services, match_id)
    ending = await win(services, game, EVE.id)  # Eve with white: 16-16 after two games
    assert ending.match is not None and ending.match.status is MatchStatus.ACTIVE
    assert ending.tournament is None and ending.next_game is not None
    extra = ending.next_game
    assert extra.match_game == 3 and (extra.white, extra.black) == (DAN, EVE)

    await services.games.offer_draw(extra.id, DAN.id)
    ending = await services.games.accept_draw(extra.id, EVE.id)  # still level: another game
    assert ending.next_game is not None and ending.tournament is None
    fourth = ending.next_game
    assert fourth.match_game == 4 and (fourth.white, fourth.black) == (EVE, DAN)

    ending = await win(services, fourth, EVE.id)
    match = ending.match
    assert match is not None and match.status is MatchStatus.FINISHED
    assert (match.games_played, match.games_total) == (4, 2)
    assert (match.points1, match.points2) == (ROAD_POINTS, 2 * ROAD_POINTS)
    assert ending.tournament is not None
    (decided,) = ending.tournament.decided
    assert decided.winner == EVE and not decided.forfeit
    (second,) = ending.tournament.rounds
    assert second.number == 2
    assert [(p.player1, p.player2) for p in second.pairings] == [(ANN, EVE), (BEN, CAT)]

    last = await play_round(services, tournament.id)  # Ann and Ben go through
    assert last is not None and last.tournament is not None
    (final_round,) = last.tournament.rounds
    assert [(p.player1, p.player2) for p in final_round.pairings] == [(ANN, BEN)]
    last = await play_round(services, tournament.id)
    assert last is not None and last.tournament is not None and last.tournament.finished
    assert last.tournament.tournament.winner == ANN
    assert (await services.tournaments.get(tournament.id)).current_round == 3
