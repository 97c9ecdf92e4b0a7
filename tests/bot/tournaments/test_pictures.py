"""The bot's tournaments and ratings as the renderer's pictures: checked against the standings
service and the rating service, and drawn."""

from __future__ import annotations

import io

from PIL import Image

from bot.games.model import GameView
from bot.players.glicko2 import Rating, update_after_game
from bot.players.model import PlayerRef
from bot.services import Services
from bot.tournaments.pictures import TournamentPictures
from rendering.bracket import bracket_layout, render_bracket
from rendering.pairings import render_pairings
from rendering.standings import Outcome, render_standings, standings_layout
from tests.bot.tournament_helpers import (
    ANN,
    BEN,
    CAT,
    DAN,
    EVE,
    ORGANIZER,
    new_tournament,
    play_round,
    start,
)

FOUR = (ANN, BEN, CAT, DAN)
ROAD_3X3 = "a3 a1 b1 b3 c1"


def png_size(png: bytes) -> tuple[int, int]:
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    return image.size


async def test_a_round_robin_table_with_its_cross_table(services: Services) -> None:
    tournament = await new_tournament(services, (*FOUR, EVE))
    await start(services, tournament.id)
    while (await services.tournaments.get(tournament.id)).status.value == "running":
        await play_round(services, tournament.id)  # the earlier player wins every match
    table = (await services.pictures.tournament(tournament.id)).standings
    assert table is not None
    rows = await services.tournaments.standings(tournament.id)
    assert [r.name for r in table.rows] == [r.player.name for r in rows]
    assert [r.name for r in table.rows] == ["ann", "ben", "cat", "dan", "eve"]
    scoring = (await services.tournaments.get(tournament.id)).scoring
    for index, (row, standing) in enumerate(zip(table.rows, rows, strict=True)):
        assert row.points == standing.standing.score
        assert row.cross is not None and row.cross[index] is None
        cells = [c for c in row.cross if c is not None]
        assert len(cells) == 4  # everyone met everyone once
        # What the meetings added, plus the bye, is the score.
        assert (
            sum(c.points for c in cells) + standing.standing.byes * scoring.bye_points()
            == row.points
        )
        for other, cell in enumerate(row.cross):
            if cell is not None:
                assert cell.outcome is (Outcome.WIN if index < other else Outcome.LOSS)
    assert [c.short for c in table.tie_breaks] == ["H2H", "SB", "BH"]
    layout = standings_layout(table)
    assert layout.cross
    assert png_size(render_standings(table)) == (layout.picture.width, layout.picture.height)


async def test_a_knockout_bracket_in_progress_then_decided(services: Services) -> None:
    tournament = await new_tournament(services, (ANN, BEN, CAT, DAN, EVE), format="elimination")
    await start(services, tournament.id)
    drawn = (await services.pictures.tournament(tournament.id)).bracket
    assert drawn is not None and len(drawn.rounds) == 3
    # Seeds 1-3 have byes; 4 plays 5; the seeds meet as TournamentService paired them.
    first = [tuple(None if e is None else e.name for e in m.entrants) for m in drawn.rounds[0]]
    assert first == [("ann", None), ("dan", "eve"), ("ben", None), ("cat", None)]
    layout = bracket_layout(drawn)
    assert "champion" not in {label.role for label in layout.picture.labels}

    while (await services.tournaments.get(tournament.id)).status.value == "running":
        await play_round(services, tournament.id)
    drawn = (await services.pictures.tournament(tournament.id)).bracket
    assert drawn is not None
    (final,) = drawn.rounds[2]
    assert [e.name for e in final.entrants if e] == ["ann", "ben"] and final.winner == 0
    layout = bracket_layout(drawn)
    assert layout.picture.labelled("champion").text == "ann"
    assert png_size(render_bracket(drawn))[0] == layout.picture.width


async def test_no_bracket_for_a_round_robin_and_no_table_before_two_players(
    services: Services,
) -> None:
    empty = await new_tournament(services, (ANN,))
    assert await services.pictures.tournament(empty.id) == TournamentPictures(None, None)
    signing = await new_tournament(services, FOUR, name="Autumn Open", format="elimination")
    shown = await services.pictures.tournament(signing.id)
    assert shown.standings is not None and shown.bracket is None  # not started: no seeds


async def test_a_rounds_pairings_with_its_bye(services: Services) -> None:
    tournament = await new_tournament(services, (ANN, BEN, CAT))
    await start(services, tournament.id)
    shown = await services.pictures.round(tournament.id)
    assert len(shown.pairings) == 1 and len(shown.byes) == 1
    (pairing,) = shown.pairings
    assert pairing.score is None and {pairing.white, pairing.black, *shown.byes} == {
        "ann",
        "ben",
        "cat",
    }
    assert png_size(render_pairings(shown))[0] > 0


def lower_id(game: GameView) -> int:
    return min(game.white.id, game.black.id)


async def test_a_group_stage_round_labels_each_pairing_with_its_group(services: Services) -> None:
    """Six players in two groups of three (one bye a group each round); a player replaced after
    round 1 still shows in their group there; the knockout round has no group headings."""
    six = (ANN, BEN, CAT, DAN, EVE, PlayerRef(406, "fay"))
    tournament = await new_tournament(
        services, six, format="groups", groups=2, advance=1, games_per_match=1
    )
    await start(services, tournament.id)
    await play_round(services, tournament.id, lower_id)
    await services.entry.replace(
        tournament.id, DAN.id, PlayerRef(407, "gus"), actor_id=ORGANIZER.id, is_organizer=True
    )
    entrants = await services.tournaments.entrants(tournament.id)
    group_of = {e.player.name: f"Group {'AB'[e.group or 0]}" for e in entrants}
    group_of["dan"] = group_of["gus"]
    for number in (1, 2):
        shown = await services.pictures.round(tournament.id, number)
        assert len(shown.pairings) == 2 and len(shown.byes) == 2
        for row in shown.pairings:
            assert row.group == group_of[row.white] == group_of[row.black]
        assert list(shown.bye_groups) == [group_of[name] for name in shown.byes]
        groups = [row.group for row in shown.pairings]
        assert groups == ["Group A", "Group B"]  # each group once, in order
        assert png_size(render_pairings(shown))[0] > 0
    while (await services.tournaments.get(tournament.id)).current_round <= 3:
        await play_round(services, tournament.id, lower_id)
    knockout = await services.pictures.round(tournament.id)
    assert [row.group for row in knockout.pairings] == [""] and knockout.bye_groups == ()


async def test_rating_history_follows_the_rated_games(services, new_game, moves, alice) -> None:
    history = await services.pictures.rating_history(1, alice.id, alice.name, 3)
    assert history.points == ()
    game = await new_game(size=3)
    await moves(game.id, ROAD_3X3)
    unrated = await new_game(size=3, rated=False)
    await moves(unrated.id, ROAD_3X3)
    history = await services.pictures.rating_history(game.guild_id, alice.id, alice.name, 3)
    expected, _ = update_after_game(Rating(), Rating(), 1.0)
    assert [p.rating for p in history.points] == [expected.rating]
    assert history.points[0].when is not None
    other_size = await services.pictures.rating_history(game.guild_id, alice.id, alice.name, 4)
    assert other_size.points == ()


async def test_a_33_player_knockout_is_a_play_in_feeding_a_bracket_of_32(
    services: Services,
) -> None:
    field = [PlayerRef(600 + i, f"player {i + 1:02}") for i in range(33)]
    tournament = await new_tournament(services, field, format="elimination")
    await start(services, tournament.id)
    drawn = (await services.pictures.tournament(tournament.id)).bracket
    assert drawn is not None and len(drawn.rounds[0]) == 32
    played = [m for m in drawn.rounds[0] if all(m.entrants)]
    assert len(played) == 1  # seeds 32 and 33; everyone else waits in round 2
    assert {e.seed for e in played[0].entrants if e} == {32, 33}
    layout = bracket_layout(drawn)
    assert layout.play_in and [len(r) for r in layout.matches[1:]] == [16, 8, 4, 2, 1]
    picture = layout.picture
    assert picture.labelled("slot:1:0:0").text.startswith("player")  # seed 1
    assert (
        " ".join(label.text for label in picture.labels if label.role.startswith("slot:1:0:1"))
        == "winner of P1"
    )

    await play_round(services, tournament.id, lambda game: min(game.white.id, game.black.id))
    drawn = (await services.pictures.tournament(tournament.id)).bracket
    assert drawn is not None
    winner = next(e for e in played[0].entrants if e and e.seed == 32)  # the lower id
    layout = bracket_layout(drawn)
    shown = [lab.text for lab in layout.picture.labels if lab.role.startswith("slot:1:0:1")]
    assert " ".join(shown) == winner.name
    scores = [lab.text for lab in layout.picture.labels if lab.role.startswith("score:0:")]
    assert len(scores) == 2
    assert png_size(render_bracket(drawn))[0] == layout.picture.width
