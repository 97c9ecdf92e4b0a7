"""Thematic tournaments: every game of the event starts from one position, given as a TPS or
as opening moves, unrated, exported with its TPS start."""

from __future__ import annotations

import random

import pytest

from bot import errors
from bot.services import Services
from bot.tournaments.corrections import read_reported_game
from bot.tournaments.tournament import TournamentStatus
from tak import Position
from tests.bot.tournament_helpers import ANN, BEN, CAT, DAN, new_tournament, start

OPENING = "a1 c3"  # white places black's flat on a1, black white's on c3


def after(moves: str, size: int = 3) -> str:
    position = Position(size)
    for move in moves.split():
        position.play(move)
    return position.tps()


async def test_a_thematic_swiss_starts_every_game_there_across_a_restart(
    services: Services, db_path, clock
) -> None:
    tournament = await new_tournament(
        services,
        (ANN, BEN, CAT, DAN),
        format="swiss",
        swiss_rounds=2,
        games_per_match=1,
        start_moves=OPENING,
    )
    assert tournament.setup.start_tps == after(OPENING) and not tournament.setup.rated
    await start(services, tournament.id)
    for number in (1, 2):
        if number == 2:  # the event, and its start, come back after a restart
            await services.close()
            services = await Services.open(db_path, clock=clock, rng=random.Random(1))
        round_ = await services.tournaments.pairings(tournament.id)
        assert round_.number == number
        for pairing in round_.pairings:
            [game] = await services.matches.games(pairing.match_id)
            assert (game.ply, game.tps, game.setup.rated) == (2, after(OPENING), False)
            ptn = await services.lookup.ptn(game.id)
            assert f'[TPS "{after(OPENING)}"]' in ptn
            await services.games.resign(game.id, game.black.id)
    final = await services.tournaments.get(tournament.id)
    assert final.status is TournamentStatus.FINISHED
    assert final.setup.start_tps == after(OPENING)
    await services.close()


async def test_a_thematic_event_from_a_tps(services: Services) -> None:
    tps = "x2,1/x3/2,x2 1 2"
    tournament = await new_tournament(services, start_tps=tps)
    assert tournament.setup.start_tps == tps and tournament.setup.start_ply == 2


@pytest.mark.parametrize(
    ("settings", "reason"),
    [
        ({"start_moves": OPENING, "rated": True}, "never rated"),
        ({"start_moves": "a1 d4"}, "The opening's move d4"),
        ({"start_moves": "a3 a1 b1 b3 c1 c3"}, "ends the game at c1"),
        ({"start_moves": " , "}, "Give the opening's moves"),
    ],
)
async def test_a_start_that_cannot_be_is_refused_and_nothing_is_made(
    services: Services, settings, reason
) -> None:
    with pytest.raises(errors.InvalidSetting, match=reason):
        await new_tournament(services, **settings)
    assert await services.db.fetchall("SELECT * FROM tournaments") == []


async def test_a_thematic_event_takes_no_game_played_elsewhere(services: Services) -> None:
    """Its games start from its position, which a game played elsewhere cannot show: reporting
    one is refused with why (its games, at a ply above 0, have no move yet and are not begun)."""
    tournament = await new_tournament(
        services, (ANN, BEN), format="round_robin", games_per_match=1, start_moves=OPENING
    )
    await start(services, tournament.id)
    pairing = (await services.tournaments.pairings(tournament.id)).pairings[0]
    [game] = await services.matches.games(pairing.match_id)
    assert game.ply == 2 and game.plies_played == 0
    record = read_reported_game(
        '[Player1 "ann"]\n[Player2 "ben"]\n[Size "3"]\n[Komi "0"]\n\n1. a1 c3 2. c1 b1 3. c2 R-0\n'
    )
    with pytest.raises(errors.ReportRefused, match="thematic event"):
        await services.corrections.report(tournament.id, record, reporter=ANN, is_organizer=True)
    assert (await services.games.get(game.id)).status.value == "active"
