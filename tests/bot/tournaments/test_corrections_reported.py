"""Results by hand: an organizer's correction of a tournament game (standings, knockout bracket,
a finished tournament's winner, the log, the news) and a game reported from PlayTak with its
PTN file (a real game counted, forged ones refused with nothing changed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot import errors
from bot.games.model import GameStatus
from bot.notifications.outbox import Headline
from bot.players.model import PlayerRef
from bot.services import Services
from bot.timekeeping.clock import FakeClock
from bot.tournaments import MatchResult, compute_standings
from bot.tournaments.corrections import LogKind, read_reported_game
from tak.ptn import TIE_RULE_COMMENT
from tests.bot.tournament_helpers import (
    ANN,
    BEN,
    CAT,
    DAN,
    ORGANIZER,
    active_game,
    new_tournament,
    play_moves,
    play_round,
    start,
)

REAL_GAMES = Path(__file__).parents[2] / "tak" / "real_games"
DOVE, NOHAT = PlayerRef(501, "dove_queen"), PlayerRef(502, "NohatCoder")


async def correct(services: Services, tournament_id: int, game_id: int, result: str, **kw: object):
    return await services.corrections.correct(
        tournament_id,
        game_id,
        result,
        str(kw.get("reason", "misreported")),
        actor=ORGANIZER,
        is_organizer=True,
    )


async def finished_games(services: Services, tournament_id: int) -> list[int]:
    rows = await services.db.fetchall(
        "SELECT g.id FROM games g JOIN tournament_pairings tp ON tp.match_id = g.match_id "
        "WHERE tp.tournament_id = ? AND g.status = 'finished' ORDER BY g.id",
        (tournament_id,),
    )
    return [row["id"] for row in rows]


async def standings_from_games(services: Services, tournament_id: int) -> list[tuple[int, float]]:
    """The table recomputed from scratch: each decided match summed again from its games."""
    tournament = await services.tournaments.get(tournament_id)
    entrants = [e.player.id for e in await services.tournaments.entrants(tournament_id)]
    rows = await services.db.fetchall(
        "SELECT tp.round, tp.player1_id, tp.player2_id, tp.match_id FROM tournament_pairings tp "
        "WHERE tp.tournament_id = ? AND tp.decided_at IS NOT NULL AND tp.player2_id IS NOT NULL",
        (tournament_id,),
    )
    results = []
    for row in rows:
        games = await services.db.fetchall(
            "SELECT winner_id, points FROM games WHERE match_id = ? AND status = 'finished'",
            (row["match_id"],),
        )
        one = sum(g["points"] for g in games if g["winner_id"] == row["player1_id"])
        two = sum(g["points"] for g in games if g["winner_id"] == row["player2_id"])
        winner = None if one == two else row["player1_id"] if one > two else row["player2_id"]
        results.append(
            MatchResult(row["round"], row["player1_id"], row["player2_id"], one, two, winner)
        )
    byes = await services.db.fetchall(
        "SELECT player1_id FROM tournament_pairings WHERE tournament_id = ? AND player2_id IS NULL",
        (tournament_id,),
    )
    table = compute_standings(entrants, results, [b[0] for b in byes], tournament.scoring)
    return [(row.player, row.score) for row in table]


async def one_game_played(services: Services) -> tuple[int, int]:
    """A two-player tournament of one game, played: its id and the game's."""
    tournament = await new_tournament(services, [ANN, BEN], games_per_match=1)
    await start(services, tournament.id)
    await play_round(services, tournament.id)
    return tournament.id, (await finished_games(services, tournament.id))[0]


async def test_a_correction_changes_the_game_its_match_and_the_standings(
    services: Services,
) -> None:
    tournament = await new_tournament(services, [ANN, BEN, CAT], games_per_match=1)
    await start(services, tournament.id)
    await play_round(services, tournament.id)
    game_id = (await finished_games(services, tournament.id))[0]
    game = await services.games.get(game_id)
    assert game.winner is not None
    loser = "black" if game.winner.id == game.white.id else "white"
    before = [
        (row.player.id, row.standing.score)
        for row in await services.tournaments.standings(tournament.id)
    ]

    change = await correct(services, tournament.id, game_id, loser, reason="  wrong   clicks ")

    corrected = await services.games.get(game_id)
    assert corrected.winner is not None and corrected.winner.id != game.winner.id
    assert corrected.result is not None and corrected.result.ptn() in ("1-0", "0-1")
    assert corrected.ply == game.ply and corrected.tps == game.tps  # the moves stay
    pairing = await services.tournaments.pairing_of_match(game.match_id or 0)
    assert pairing is not None and pairing.winner is not None
    assert pairing.winner.id == corrected.winner.id
    after = [
        (row.player.id, row.standing.score)
        for row in await services.tournaments.standings(tournament.id)
    ]
    assert after != before
    assert sorted(after) == sorted(await standings_from_games(services, tournament.id))
    assert change.entry.kind is LogKind.CORRECTION and change.entry.reason == "wrong clicks"
    assert change.entry.result_before == game.result.ptn()  # type: ignore[union-attr]
    assert [e.id for e in await services.corrections.log(tournament.id)] == [change.entry.id]
    rows = await services.db.fetchall(
        "SELECT payload FROM outbox WHERE stream = ? ORDER BY id", (f"tournament:{tournament.id}",)
    )
    news = [json.loads(row["payload"]) for row in rows]
    assert (Headline.CORRECTED.value, change.entry.id) in [
        (item["headline"], item.get("log_id")) for item in news
    ]


async def test_a_correction_back_to_the_board_result_gets_the_board_kind(
    services: Services,
) -> None:
    tournament_id, game_id = await one_game_played(services)
    road = (await services.games.get(game_id)).result
    assert road is not None
    await correct(services, tournament_id, game_id, "draw")
    drawn = await services.games.get(game_id)
    assert drawn.result is not None and drawn.result.ptn() == "1/2-1/2" and drawn.points == 0
    winner = "white" if road.winner is not None and road.winner.value == 0 else "black"
    await correct(services, tournament_id, game_id, winner)
    again = await services.games.get(game_id)
    assert again.result == road
    assert len(await services.corrections.log(tournament_id)) == 2


async def test_corrections_refused_change_nothing(services: Services) -> None:
    tournament = await new_tournament(services, [ANN, BEN, CAT], games_per_match=1)
    await start(services, tournament.id)
    pairing = next(
        p
        for p in (await services.tournaments.pairings(tournament.id)).pairings
        if p.match_id is not None
    )
    playing = await active_game(services, pairing.match_id or 0)
    with pytest.raises(errors.CorrectionRefused, match="still being played"):
        await correct(services, tournament.id, playing.id, "draw")
    await play_round(services, tournament.id)
    game_id = (await finished_games(services, tournament.id))[0]
    game = await services.games.get(game_id)
    same = "white" if game.winner == game.white else "black"
    with pytest.raises(errors.CorrectionRefused, match="already has the result"):
        await correct(services, tournament.id, game_id, same)
    with pytest.raises(errors.CorrectionRefused, match="reason"):
        await correct(services, tournament.id, game_id, "draw", reason=" ~ ")
    with pytest.raises(errors.NotOrganizer):
        await services.corrections.correct(
            tournament.id, game_id, "draw", "x", actor=ANN, is_organizer=False
        )
    other = await new_tournament(services, [ANN, BEN], name="Other", games_per_match=1)
    await start(services, other.id)
    with pytest.raises(errors.CorrectionRefused, match="not a game of Other"):
        await correct(services, other.id, game_id, "draw")
    assert await services.games.get(game_id) == game
    assert await services.corrections.log(tournament.id) == []


async def test_a_knockout_correction_moves_the_corrected_winner_on(services: Services) -> None:
    tournament = await new_tournament(
        services, [ANN, BEN, CAT, DAN], format="elimination", games_per_match=1
    )
    await start(services, tournament.id)
    await play_round(services, tournament.id)  # ann beats dan, ben beats cat
    final = (await services.tournaments.pairings(tournament.id, 2)).pairings[0]
    old_game = await active_game(services, final.match_id or 0)
    semi = next(
        p
        for p in (await services.tournaments.pairings(tournament.id, 1)).pairings
        if BEN in (p.player1, p.player2)
    )
    ben_game = (await services.matches.games(semi.match_id or 0))[0]
    cat_colour = "white" if ben_game.white == CAT else "black"

    change = await correct(services, tournament.id, ben_game.id, cat_colour)

    moved = (await services.tournaments.pairings(tournament.id, 2)).pairings[0]
    assert {moved.player1, moved.player2} == {ANN, CAT} and moved.player1 == ANN
    assert moved.match_id != final.match_id
    assert (await services.games.get(old_game.id)).status is GameStatus.ABORTED
    new_game = await active_game(services, moved.match_id or 0)
    assert (new_game.white, new_game.black) == (ANN, CAT)
    assert any("play game" in line for line in change.entry.consequences)
    # Once the final has begun, the semi-final can no longer change hands.
    await play_moves(services, new_game.id, "a3")
    with pytest.raises(errors.CorrectionRefused, match="already begun"):
        await correct(
            services, tournament.id, ben_game.id, "white" if cat_colour == "black" else "black"
        )
    # The final corrected after the end: the tournament's winner changes.
    ending = await play_moves(services, new_game.id, "a1 b1 b3 c1")  # ann's white road
    assert ending is not None and ending.tournament is not None and ending.tournament.finished
    assert (await services.tournaments.get(tournament.id)).winner == ANN
    await correct(services, tournament.id, new_game.id, "black")
    assert (await services.tournaments.get(tournament.id)).winner == CAT


# ----------------------------------------------------------------- reported games


async def report_setup(services: Services) -> tuple[int, int]:
    """A 6x6 komi-0 match between the players of the real game 70709 (NohatCoder joins first,
    so Bredon gives them white: the file has them as Player 2)."""
    tournament = await new_tournament(
        services, [NOHAT, DOVE], size=6, komi=0, games_per_match=1, rated=True
    )
    await start(services, tournament.id)
    pairing = (await services.tournaments.pairings(tournament.id)).pairings[0]
    game = await active_game(services, pairing.match_id or 0)
    assert (game.white, game.black) == (NOHAT, DOVE)
    return tournament.id, game.id


async def test_a_real_playtak_game_reported_counts(services: Services, clock: FakeClock) -> None:
    tournament_id, game_id = await report_setup(services)
    text = (REAL_GAMES / "70709.ptn").read_text()

    change = await services.corrections.report(
        tournament_id, read_reported_game(text), reporter=DOVE, is_organizer=False
    )

    game = await services.games.get(game_id)
    assert game.status is GameStatus.FINISHED and game.result is not None
    assert game.result.ptn() == "0-R" and game.winner == NOHAT
    assert (game.white, game.black) == (DOVE, NOHAT)  # the file's colours
    exported = await services.lookup.ptn(game_id)
    assert "29. 3d2>12 2d3-" in exported and "0-R" in exported
    assert exported.count(".") >= 29
    tournament = await services.tournaments.get(tournament_id)
    assert tournament.winner == NOHAT and tournament.status.value == "finished"
    assert change.entry.kind is LogKind.REPORT and change.entry.result_after == "0-R"
    assert await services.ratings.changes_for_game(game_id) is not None


async def test_a_file_that_says_only_who_won_counts_as_the_boards_road(services: Services) -> None:
    # PlayTak's games database and engine matches write 0-1 for Black's road.
    tournament_id, game_id = await report_setup(services)
    text = (REAL_GAMES / "70709.ptn").read_text().replace("0-R", "0-1")
    await services.corrections.report(
        tournament_id, read_reported_game(text), reporter=DOVE, is_organizer=False
    )
    game = await services.games.get(game_id)
    assert game.result is not None and game.result.ptn() == "0-R" and game.winner == NOHAT
    assert "0-R" in await services.lookup.ptn(game_id)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda t: t.replace("29. 3d2>12 2d3-", "29. 3d2>12 6d3-"), "Move 29"),
        (lambda t: t.replace("0-R", "R-0"), "contradicts the board"),
        (lambda t: t.replace("0-R", "1-0"), "contradicts the board"),
        (lambda t: t.replace('[Size "6"]', '[Size "6"]\n[Komi "2"]'), "komi"),
        (lambda t: t.replace('[Result "0-R"]\n', "").split("29.")[0], "no result"),
        (lambda t: t.split("29.")[0], "game goes on"),
        (lambda t: t.replace("dove_queen", "someone"), "with the `white` option"),
        (
            lambda t: t.replace("\n1.", f"\n{{{TIE_RULE_COMMENT}}}\n1.", 1),
            "The file plays the antiquity tie rule; this tournament's game does not.",
        ),
    ],
)
async def test_a_forged_or_unfitting_file_is_refused(
    services: Services, edit: object, message: str
) -> None:
    tournament_id, game_id = await report_setup(services)
    before = await services.games.get(game_id)
    text = edit((REAL_GAMES / "70709.ptn").read_text())  # type: ignore[operator]
    with pytest.raises(errors.ReportRefused, match=message):
        await services.corrections.report(
            tournament_id, read_reported_game(text), reporter=DOVE, is_organizer=False
        )
    assert await services.games.get(game_id) == before
    assert await services.corrections.log(tournament_id) == []


async def test_a_report_needs_a_waiting_game_and_the_right_size(services: Services) -> None:
    tournament_id, game_id = await report_setup(services)
    five = (REAL_GAMES / "79555.ptn").read_text()
    with pytest.raises(errors.ReportRefused, match="5x5 game; this tournament plays 6x6"):
        await services.corrections.report(
            tournament_id, read_reported_game(five), reporter=DOVE, is_organizer=False
        )
    text = (REAL_GAMES / "70709.ptn").read_text()
    with pytest.raises(errors.NotOrganizer):
        await services.corrections.report(
            tournament_id,
            read_reported_game(text),
            reporter=ANN,
            is_organizer=False,
            white_id=DOVE.id,
        )
    await play_moves(services, game_id, "a1")
    with pytest.raises(errors.ReportRefused, match="already has moves"):
        await services.corrections.report(
            tournament_id, read_reported_game(text), reporter=DOVE, is_organizer=False
        )


async def test_an_organizer_reports_by_naming_white(services: Services) -> None:
    tournament_id, game_id = await report_setup(services)
    text = (REAL_GAMES / "70709.ptn").read_text().replace("dove_queen", "Guest12")
    await services.corrections.report(
        tournament_id,
        read_reported_game(text),
        reporter=ORGANIZER,
        is_organizer=True,
        white_id=NOHAT.id,
    )
    game = await services.games.get(game_id)
    assert (game.white, game.black) == (NOHAT, DOVE) and game.winner == DOVE


async def test_a_server_manager_who_never_played_corrects_and_is_logged(
    services: Services,
) -> None:
    tournament_id, game_id = await one_game_played(services)
    manager = PlayerRef(950, "mod")
    await services.corrections.correct(
        tournament_id, game_id, "draw", "agreed draw", actor=manager, is_organizer=True
    )
    [entry] = await services.corrections.log(tournament_id)
    assert entry.actor == manager and entry.reason == "agreed draw"
