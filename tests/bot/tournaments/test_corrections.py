"""Corrections in a groups -> knockout tournament (group tables, the knockout re-seeded or the
correction refused, knockout games as in single elimination) and corrections of games played by
a player who was later replaced (the place's holder is credited, as the standings do)."""

from __future__ import annotations

import json

import pytest

from bot import errors
from bot.games.model import GameStatus, GameView
from bot.notifications.outbox import GameStart, TournamentNews
from bot.players.model import PlayerRef
from bot.services import Services
from bot.tournaments import group_tables, qualifiers, snake_groups
from bot.tournaments.tournament import TournamentStatus
from tests.bot.tournament_helpers import (
    ANN,
    BEN,
    CAT,
    DAN,
    EVE,
    ORGANIZER,
    ROAD_POINTS,
    active_game,
    new_tournament,
    play_moves,
    play_round,
    start,
    win,
)
from tests.bot.tournaments.test_corrections_reported import correct
from tests.bot.tournaments.test_rounds_groups import EIGHT, by_seed

NAME = {p.id: p.name for p in (*EIGHT, ANN, BEN, CAT, DAN, EVE)}
ORG = {"actor_id": ORGANIZER.id, "is_organizer": True}


async def game_between(services: Services, tournament_id: int, one: str, two: str) -> GameView:
    """The (only) finished game between the two players, by name."""
    for round_number in range(1, (await services.tournaments.get(tournament_id)).current_round + 1):
        for pairing in (await services.tournaments.pairings(tournament_id, round_number)).pairings:
            names = {pairing.player1.name, pairing.player2 and pairing.player2.name}
            if names == {one, two} and pairing.match_id is not None:
                games = await services.matches.games(pairing.match_id)
                return next(g for g in games if g.status is GameStatus.FINISHED)
    raise AssertionError(f"no game {one} v {two}")


def colour_of(game: GameView, name: str) -> str:
    return "white" if game.white.name == name else "black"


async def knockout_meetings(services: Services, tournament_id: int) -> list[tuple[str, str]]:
    """The current round's pairings, by name (player 1 first)."""
    pairings = (await services.tournaments.pairings(tournament_id)).pairings
    return sorted((p.player1.name, p.player2.name if p.player2 else "-") for p in pairings)


async def seeds_from_scratch(services: Services, tournament_id: int, advance: int) -> list[str]:
    """Who goes through, in knockout seed order, recomputed from every group game's winner."""
    tournament = await services.tournaments.get(tournament_id)
    entrants = await services.tournaments.entrants(tournament_id)
    groups = snake_groups([e.player.id for e in entrants], tournament.group_count or 0)
    results = []
    for number in range(1, tournament.group_stage_rounds + 1):
        for pairing in (await services.tournaments.pairings(tournament_id, number)).pairings:
            results.append(pairing.result())
    tables = group_tables(groups, results, (), tournament.scoring)
    return [NAME[p] for p in qualifiers(tables, advance, {e.player.id for e in entrants})]


async def knockout_seeds(services: Services, tournament_id: int) -> list[str]:
    entrants = await services.tournaments.entrants(tournament_id)
    through = sorted((e for e in entrants if e.knockout_seed), key=lambda e: e.knockout_seed or 0)
    return [e.player.name for e in through]


async def groups_played(services: Services) -> int:
    """Eight players in two groups of four, two through: the three group rounds played by seed
    (A: p1 p4 p5 p8, B: p2 p3 p6 p7), so the semi-finals are p1 v p3 and p2 v p4."""
    tournament = await new_tournament(
        services, EIGHT, format="groups", groups=2, advance=2, games_per_match=1
    )
    await start(services, tournament.id)
    for _ in range(3):
        await play_round(services, tournament.id, by_seed)
    assert await knockout_meetings(services, tournament.id) == [("p1", "p3"), ("p2", "p4")]
    return tournament.id


async def test_a_group_correction_during_the_groups_changes_the_table_and_who_goes_through(
    services: Services,
) -> None:
    tournament = await new_tournament(
        services, EIGHT[:4], format="groups", groups=2, advance=1, games_per_match=1
    )
    await start(services, tournament.id)  # A: p1 v p4, B: p2 v p3; one group round
    (first, second) = (await services.tournaments.pairings(tournament.id)).pairings
    game = await win(services, await active_game(services, first.match_id or 0), EIGHT[0].id)
    change = await correct(services, tournament.id, game.game.id, colour_of(game.game, "p4"))
    rows = await services.tournaments.standings(tournament.id)
    assert [r.player.name for r in rows if r.group == 0] == ["p4", "p1"]
    assert not any("knockout" in line.casefold() for line in change.entry.consequences)
    await win(services, await active_game(services, second.match_id or 0), EIGHT[1].id)
    assert await knockout_meetings(services, tournament.id) == [("p4", "p2")]  # A1 v B1


async def test_a_group_correction_after_the_seeding_reseeds_the_knockout(
    services: Services,
) -> None:
    tournament_id = await groups_played(services)
    semis = (await services.tournaments.pairings(tournament_id)).pairings
    old_games = [await active_game(services, p.match_id or 0) for p in semis]
    game = await game_between(services, tournament_id, "p1", "p4")

    change = await correct(services, tournament_id, game.id, colour_of(game, "p4"))

    # Group A now ends p4, p1: the cross-seeding gives A1 v B2 = p4 v p3, B1 v A2 = p2 v p1.
    assert await knockout_seeds(services, tournament_id) == ["p4", "p2", "p1", "p3"]
    assert await knockout_seeds(services, tournament_id) == await seeds_from_scratch(
        services, tournament_id, 2
    )
    assert await knockout_meetings(services, tournament_id) == [("p2", "p1"), ("p4", "p3")]
    assert [(await services.games.get(g.id)).status for g in old_games] == [GameStatus.ABORTED] * 2
    for pairing in (await services.tournaments.pairings(tournament_id)).pairings:
        new_game = await active_game(services, pairing.match_id or 0)
        assert (new_game.white, new_game.black) == (pairing.player1, pairing.player2)
        assert (await services.matches.get(pairing.match_id or 0)).until_decided
    assert sum("play game" in line for line in change.entry.consequences) == 2
    assert len(await services.corrections.log(tournament_id)) == 1

    # p3 v p4 begins; a correction that would change it is refused, changing nothing.
    semis = (await services.tournaments.pairings(tournament_id)).pairings
    playing = next(p for p in semis if p.player2 is not None and p.player2.name == "p3")
    begun = await active_game(services, playing.match_id or 0)
    await play_moves(services, begun.id, "a3")
    game = await game_between(services, tournament_id, "p2", "p3")
    before = (
        await services.tournaments.pairings(tournament_id),
        await knockout_seeds(services, tournament_id),
    )
    with pytest.raises(errors.CorrectionRefused, match=r"p4 v p3 .*already begun"):
        await correct(services, tournament_id, game.id, colour_of(game, "p3"))
    after = (
        await services.tournaments.pairings(tournament_id),
        await knockout_seeds(services, tournament_id),
    )
    assert after == before and len(await services.corrections.log(tournament_id)) == 1
    assert (await services.games.get(game.id)).winner == EIGHT[1]

    # A correction that leaves p4 v p3 alone goes through: p5 passes p1 in group A.
    game = await game_between(services, tournament_id, "p1", "p5")
    await correct(services, tournament_id, game.id, colour_of(game, "p5"))
    assert await knockout_meetings(services, tournament_id) == [("p2", "p5"), ("p4", "p3")]
    assert (await services.games.get(begun.id)).ply == 1  # the game begun goes on


async def test_a_group_correction_that_keeps_the_seeds_leaves_the_knockout_alone(
    services: Services,
) -> None:
    tournament_id = await groups_played(services)
    semis = (await services.tournaments.pairings(tournament_id)).pairings
    game = await game_between(services, tournament_id, "p5", "p8")
    change = await correct(services, tournament_id, game.id, colour_of(game, "p8"))
    assert (await services.tournaments.pairings(tournament_id)).pairings == semis
    assert any("knockout stays" in line for line in change.entry.consequences)


async def test_a_group_correction_is_refused_once_the_knockout_has_moved_on(
    services: Services,
) -> None:
    tournament_id = await groups_played(services)
    await play_round(services, tournament_id, by_seed)  # the semi-finals: p1 and p2 win
    game = await game_between(services, tournament_id, "p1", "p4")
    with pytest.raises(errors.CorrectionRefused, match="knockout's round 2 has begun"):
        await correct(services, tournament_id, game.id, colour_of(game, "p4"))
    assert await knockout_seeds(services, tournament_id) == ["p1", "p2", "p4", "p3"]
    assert (await services.games.get(game.id)).winner == EIGHT[0]


async def test_a_knockout_correction_in_a_groups_tournament_moves_the_winner_on(
    services: Services,
) -> None:
    tournament_id = await groups_played(services)
    await play_round(services, tournament_id, by_seed)  # the semi-finals: p1 and p2 win
    final = (await services.tournaments.pairings(tournament_id)).pairings[0]
    old_final = await active_game(services, final.match_id or 0)
    semi = await game_between(services, tournament_id, "p1", "p3")
    with pytest.raises(errors.CorrectionRefused, match="level"):
        await correct(services, tournament_id, semi.id, "draw")

    change = await correct(services, tournament_id, semi.id, colour_of(semi, "p3"))

    assert await knockout_meetings(services, tournament_id) == [("p2", "p3")]
    assert (await services.games.get(old_final.id)).status is GameStatus.ABORTED
    assert any("play game" in line for line in change.entry.consequences)
    assert await knockout_seeds(services, tournament_id) == ["p1", "p2", "p4", "p3"]
    ending = await play_round(services, tournament_id, by_seed)
    assert ending is not None and ending.tournament is not None and ending.tournament.finished
    assert (await services.tournaments.get(tournament_id)).winner == EIGHT[1]


async def test_a_reseeding_that_leaves_only_forfeits_begins_the_next_round(
    services: Services,
) -> None:
    """Six players, two through from each group: semi-finals p1 v p3 and p2 v p4. p2 and p4
    leave (p4 through on p2's forfeit). Group B corrected for p3 over p2: p1 v p2 and p3 v p4
    are both forfeits, so the round is complete and the final p1 v p3 begins."""
    tournament = await new_tournament(
        services, EIGHT[:6], format="groups", groups=2, advance=2, games_per_match=1
    )
    await start(services, tournament.id)
    for _ in range(3):
        await play_round(services, tournament.id, by_seed)
    assert await knockout_meetings(services, tournament.id) == [("p1", "p3"), ("p2", "p4")]
    semi = (await services.tournaments.pairings(tournament.id)).pairings[0]
    stopped = await active_game(services, semi.match_id or 0)
    for leaving in (EIGHT[1], EIGHT[3]):
        await services.tournaments.withdraw(tournament.id, leaving.id)
    game = await game_between(services, tournament.id, "p2", "p3")

    change = await correct(services, tournament.id, game.id, colour_of(game, "p3"))

    assert await knockout_seeds(services, tournament.id) == ["p1", "p3", "p4", "p2"]
    semis = (await services.tournaments.pairings(tournament.id, 4)).pairings
    assert sorted((p.player1.name, p.player2 and p.player2.name, p.forfeit) for p in semis) == [
        ("p1", "p2", True),
        ("p3", "p4", True),
    ]
    assert (await services.games.get(stopped.id)).status is GameStatus.ABORTED
    assert await knockout_meetings(services, tournament.id) == [("p1", "p3")]
    final = (await services.tournaments.pairings(tournament.id)).pairings[0]
    final_game = await active_game(services, final.match_id or 0)
    starts = await services.db.fetchall(
        "SELECT payload FROM outbox WHERE kind = ?", (GameStart.KIND,)
    )
    assert final_game.id in [json.loads(row["payload"])["game_id"] for row in starts]
    assert any("round 5" in line.casefold() for line in change.entry.consequences)
    # The round begun is announced with the correction (its pairings posted, as any round's).
    news = await services.db.fetchall(
        "SELECT payload FROM outbox WHERE kind = ?", (TournamentNews.KIND,)
    )
    [corrected] = [
        json.loads(row["payload"])
        for row in news
        if json.loads(row["payload"])["log_id"] == change.entry.id
    ]
    assert corrected["rounds"] == [5] and not corrected["finished"]


# ----------------------------------------------------------------- replaced players


@pytest.mark.parametrize(
    ("replaced", "final", "corrected_final"),
    [
        (ANN, ("eve", "ben"), ("ben", "dan")),  # the old winner's place is eve's
        (DAN, ("ann", "ben"), ("ben", "eve")),  # the new winner's place is eve's
    ],
)
async def test_a_knockout_correction_credits_the_place_of_a_replaced_player(
    services: Services,
    replaced: PlayerRef,
    final: tuple[str, str],
    corrected_final: tuple[str, str],
) -> None:
    """ann beats dan, then `replaced` is replaced by eve; the semi corrected for dan puts dan's
    place in the final."""
    tournament = await new_tournament(
        services, [ANN, BEN, CAT, DAN], format="elimination", games_per_match=1
    )
    await start(services, tournament.id)
    await play_round(services, tournament.id)  # ann beats dan, ben beats cat
    await services.entry.replace(tournament.id, replaced.id, EVE, **ORG)
    assert await knockout_meetings(services, tournament.id) == [final]
    semi = await game_between(services, tournament.id, "ann", "dan")
    change = await correct(services, tournament.id, semi.id, colour_of(semi, "dan"))
    assert await knockout_meetings(services, tournament.id) == [corrected_final]
    new_final = (await services.tournaments.pairings(tournament.id)).pairings[0]
    game = await active_game(services, new_final.match_id or 0)
    assert (game.white.name, game.black.name) == corrected_final
    assert any(f"play game #{game.id}" in line for line in change.entry.consequences)


async def test_a_correction_in_a_match_taken_over_counts_both_players_games(
    services: Services,
) -> None:
    """ben wins game 1 and is replaced by eve, who wins game 2; game 2 corrected for ann: the
    match is ann's game 2 against ben's game 1, as the games say."""
    tournament = await new_tournament(services, [ANN, BEN], games_per_match=2)
    progress = await start(services, tournament.id)
    match_id = progress.rounds[0].pairings[0].match_id or 0
    first = await win(services, await active_game(services, match_id), BEN.id)
    await services.entry.replace(tournament.id, BEN.id, EVE, **ORG)
    ending = await win(services, await active_game(services, match_id), EVE.id)
    assert ending.tournament is not None and ending.tournament.tournament.winner == EVE
    second = ending.game

    await correct(services, tournament.id, second.id, colour_of(second, "ann"))

    corrected = await services.games.get(second.id)
    assert corrected.winner == ANN and first.game.points == ROAD_POINTS
    pairing = await services.tournaments.pairing_of_match(match_id)
    assert pairing is not None and (pairing.player1, pairing.player2) == (ANN, EVE)
    assert (pairing.points1, pairing.points2) == (corrected.points, ROAD_POINTS)
    expected = ANN if (corrected.points or 0) > ROAD_POINTS else None
    assert pairing.winner == expected
    finished = await services.tournaments.get(tournament.id)
    assert finished.status is TournamentStatus.FINISHED and finished.winner == expected
    rows = {r.player.id: r.standing for r in await services.tournaments.standings(tournament.id)}
    assert BEN.id not in rows and rows[EVE.id].lost == (expected is not None)
