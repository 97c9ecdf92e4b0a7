"""Property test of corrections: over a random rated round robin whose games end by roads, with
random corrections made between them, the standings and the ratings are always what
recomputing from scratch gives: the table from each match's games, and Glicko-2 replayed with
:func:`bot.players.glicko2.update_after_game` over the games in the order they ended, each with the
result the test itself tracked (not read back from the bot)."""

from __future__ import annotations

import asyncio
import math
import random
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot import errors
from bot.games.model import GameView
from bot.players.glicko2 import Rating, update_after_game
from bot.services import Services
from bot.timekeeping.clock import FakeClock
from tests.bot.tournament_helpers import ANN, BEN, CAT, DAN, GUILD, ORGANIZER, new_tournament, win
from tests.bot.tournaments.test_corrections_reported import finished_games, standings_from_games

PLAYERS = (ANN, BEN, CAT, DAN)
SCORE = {"white": 1.0, "black": 0.0, "draw": 0.5}


def scratch_ratings(games: list[tuple[int, int, str]]) -> dict[int, Rating]:
    current: dict[int, Rating] = {}
    for white, black, result in games:
        before = (current.get(white, Rating()), current.get(black, Rating()))
        current[white], current[black] = update_after_game(*before, SCORE[result])
    return current


async def check_against_scratch(
    services: Services, tournament_id: int, results: dict[int, tuple[int, int, str]]
) -> None:
    table = [
        (row.player.id, row.standing.score)
        for row in await services.tournaments.standings(tournament_id)
    ]
    assert sorted(table) == sorted(await standings_from_games(services, tournament_id))
    expected = scratch_ratings(list(results.values()))  # in the order the games ended
    rows = await services.db.fetchall(
        "SELECT player_id, rating, deviation, volatility FROM ratings WHERE guild_id = ?",
        (GUILD,),
    )
    assert {row["player_id"] for row in rows} == set(expected)
    for row in rows:
        want = expected[row["player_id"]]
        assert math.isclose(row["rating"], want.rating, abs_tol=1e-9)
        assert math.isclose(row["deviation"], want.deviation, abs_tol=1e-9)
        assert math.isclose(row["volatility"], want.volatility, abs_tol=1e-12)


async def run_scenario(data: st.DataObject) -> None:
    with tempfile.TemporaryDirectory() as folder:
        clock = FakeClock()
        services = await Services.open(
            Path(folder) / "bredon.sqlite3", clock=clock, rng=random.Random(1)
        )
        try:
            count = data.draw(st.integers(3, 4), label="players")
            tournament = await new_tournament(services, PLAYERS[:count], games_per_match=1)
            await services.tournaments.start(
                tournament.id, actor_id=ORGANIZER.id, is_organizer=True
            )
            results: dict[int, tuple[int, int, str]] = {}  # game id: white, black, result
            while (await services.tournaments.get(tournament.id)).status.value == "running":
                game = await next_game(services, tournament.id)
                colour = data.draw(st.sampled_from(("white", "black")), label="road")
                clock.advance(minutes=5)
                await win(services, game, (game.white if colour == "white" else game.black).id)
                results[game.id] = (game.white.id, game.black.id, colour)
                for _ in range(data.draw(st.integers(0, 2), label="corrections")):
                    finished = await finished_games(services, tournament.id)
                    target = data.draw(st.sampled_from(finished), label="game")
                    new = data.draw(st.sampled_from(("white", "black", "draw")), label="to")
                    try:
                        await services.corrections.correct(
                            tournament.id,
                            target,
                            new,
                            "test",
                            actor=ORGANIZER,
                            is_organizer=True,
                        )
                    except errors.CorrectionRefused:
                        assert results[target][2] == new  # only "no change" is refused here
                    else:
                        results[target] = (*results[target][:2], new)
                    await check_against_scratch(services, tournament.id, results)
            await check_against_scratch(services, tournament.id, results)
        finally:
            await services.close()


async def next_game(services: Services, tournament_id: int) -> GameView:
    for pairing in (await services.tournaments.pairings(tournament_id)).pairings:
        if not pairing.is_decided and pairing.match_id is not None:
            games = await services.matches.games(pairing.match_id)
            return next(g for g in games if g.is_active)
    raise AssertionError("a running round robin has an undecided match")


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_corrections_give_the_standings_and_ratings_of_a_recomputation(
    data: st.DataObject,
) -> None:
    asyncio.run(run_scenario(data))
