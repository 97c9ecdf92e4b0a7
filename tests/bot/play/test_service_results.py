"""Full games through the service to every kind of result, and the refusals along the way."""

from __future__ import annotations

import json

import pytest

from bot import errors
from bot.games.model import GameStatus
from bot.notifications.outbox import MovePlayed, Outcome, game_stream
from bot.play.service import GameService
from tak import Color, ResultKind

ROAD_3X3 = "a3 a1 b1 b3 c1"  # white's road along rank 1


async def test_a_road_ends_the_game_and_scores_squares_plus_reserves(
    services, new_game, moves, alice
) -> None:
    game = await new_game(size=3)
    outcomes = await moves(game.id, ROAD_3X3)
    last = outcomes[-1]
    assert last.result is not None and last.result.ptn() == "R-0"
    assert last.result.kind is ResultKind.ROAD
    assert last.ending is not None
    assert last.ending.points == 9 + 7  # 3x3 squares + white's 7 unplayed stones
    assert last.game.status is GameStatus.FINISHED
    assert last.game.winner == alice
    assert last.game.deadline_at is None
    stored = await services.games.get(game.id)
    assert stored == last.game
    assert stored.ply == 5 and stored.tps == last.position.tps()


async def test_tak_is_reported_when_the_mover_threatens_a_road(new_game, moves) -> None:
    game = await new_game(size=3)
    outcomes = await moves(game.id, "a3 a1 b1")
    assert [o.tak for o in outcomes] == [False, False, True]
    assert all(o.result is None for o in outcomes)


# White (a1 b1 a2) threatens c1 and a3 after the last move; Black (c3 b2) cannot block both.
TINUE_3X3 = "c3 a1 b1 b2 a2"


async def test_tinue_is_reported_when_no_reply_stops_the_threat(services, new_game, moves) -> None:
    game = await new_game(size=3)
    outcomes = await moves(game.id, TINUE_3X3)
    assert [(o.tak, o.tinue) for o in outcomes] == [
        (False, False),
        (False, False),
        (True, False),
        (False, False),
        (True, True),  # a Tinuë is a Tak too
    ]
    rows = await services.db.fetchall(
        "SELECT payload FROM outbox WHERE kind = 'move' AND stream = ? ORDER BY id",
        (game_stream(game.id),),
    )
    flags = [(json.loads(r[0])["tak"], json.loads(r[0])["tinue"]) for r in rows]
    assert flags == [(o.tak, o.tinue) for o in outcomes]


async def test_the_checked_way_reports_tinue_too(services, new_game, moves, clock) -> None:
    # A service with nothing cached takes the checked way for every move: the call is worked
    # out before its transaction and used there.
    game = await new_game(size=3)
    await moves(game.id, TINUE_3X3.rsplit(" ", 1)[0])
    cold = GameService(services.db, clock)
    outcome = await cold.move(game.id, game.white.id, "a2")
    assert (outcome.tak, outcome.tinue) == (True, True)


async def test_a_move_announced_before_tinue_existed_still_reads(services, new_game, moves) -> None:
    game = await new_game(size=3)
    await moves(game.id, "c3 a1 b1")
    without_tinue = {
        "sqlite": "json_remove(payload, '$.tinue')",
        "postgresql": "(payload::jsonb - 'tinue')::text",
    }[services.db.engine]
    await services.db.write_one(f"UPDATE outbox SET payload = {without_tinue} WHERE kind = 'move'")
    items = await services.outbox.due(stream=game_stream(game.id), limit=10)
    while items and not isinstance(items[0].payload, MovePlayed):
        await services.outbox.delivered(items[0], Outcome.POSTED)
        items = await services.outbox.due(stream=game_stream(game.id), limit=10)
    assert isinstance(items[0].payload, MovePlayed) and items[0].payload.tinue is False


async def test_running_out_of_pieces_ends_on_flats(new_game, moves) -> None:
    game = await new_game(size=3, komi=0, stones=3)
    last = (await moves(game.id, "a3 c1 b2 c3 a2"))[-1]
    assert last.result is not None and last.result.ptn() == "F-0"
    assert last.result.kind is ResultKind.FLATS
    assert last.ending is not None and last.ending.points == 9


async def test_a_tied_flat_count_is_a_draw_scoring_nothing(new_game, moves) -> None:
    game = await new_game(size=3, komi=1, stones=3)
    last = (await moves(game.id, "a3 c1 b2 c3 a2"))[-1]
    assert last.result is not None and last.result.is_draw
    assert last.ending is not None and last.ending.points == 0
    assert last.game.winner is None


async def test_resignation_scores_the_winner_reserves_at_that_moment(
    services, new_game, moves, bob
) -> None:
    game = await new_game(size=5)
    await moves(game.id, "a1 e5 c3")
    ending = await services.games.resign(game.id, game.white.id)
    assert ending.result.ptn() == "0-1" and ending.result.kind is ResultKind.RESIGNATION
    assert ending.game.winner == bob
    # Black has played one stone (white placed black's flat in the opening): 20 stones + 1 cap.
    assert ending.points == 25 + 21
    with pytest.raises(errors.GameOver):
        await services.games.move(game.id, bob.id, "b2")


async def test_draw_by_agreement_and_offers_lapse_on_a_move(services, new_game, moves) -> None:
    game = await new_game()
    white, black = game.white.id, game.black.id
    await moves(game.id, "a1 e5")
    offered = await services.games.offer_draw(game.id, white)
    assert offered.draw_offer_by == white
    with pytest.raises(errors.DrawAlreadyOffered):
        await services.games.offer_draw(game.id, white)
    with pytest.raises(errors.DrawAlreadyOffered, match="accept or decline"):
        await services.games.offer_draw(game.id, black)
    with pytest.raises(errors.OwnRequest):
        await services.games.accept_draw(game.id, white)
    await moves(game.id, "c3")
    assert (await services.games.get(game.id)).draw_offer_by is None
    with pytest.raises(errors.NoDrawOffer):
        await services.games.accept_draw(game.id, black)
    await services.games.offer_draw(game.id, black)
    declined = await services.games.decline_draw(game.id, white)
    assert declined.draw_offer_by is None and declined.is_active
    await services.games.offer_draw(game.id, black)
    ending = await services.games.accept_draw(game.id, white)
    assert ending.result.ptn() == "1/2-1/2" and ending.result.kind is ResultKind.AGREEMENT
    assert ending.points == 0 and ending.game.status is GameStatus.FINISHED


async def test_abort_only_before_both_players_have_moved(services, new_game, moves) -> None:
    game = await new_game()
    await moves(game.id, "a1")
    ending = await services.games.abort(game.id, game.black.id)
    assert ending.result.ptn() == "0-0" and ending.game.status is GameStatus.ABORTED
    assert ending.points == 0

    later = await new_game()
    await moves(later.id, "a1 e5")
    with pytest.raises(errors.TooLateToAbort):
        await services.games.abort(later.id, later.white.id)


async def test_refusals_are_specific_and_change_nothing(services, new_game, carol) -> None:
    game = await new_game()
    white, black = game.white.id, game.black.id
    with pytest.raises(errors.NotYourTurn):
        await services.games.move(game.id, black, "a1")
    with pytest.raises(errors.NotInGame):
        await services.games.move(game.id, carol.id, "a1")
    with pytest.raises(errors.IllegalMove) as illegal:
        await services.games.move(game.id, white, "Ca1")
    assert illegal.value.reason  # the engine's sentence
    with pytest.raises(errors.IllegalMove):
        await services.games.move(game.id, white, "zz9")
    with pytest.raises(errors.IllegalMove):
        await services.games.move(game.id, white, "a9")
    with pytest.raises(errors.UnknownGame):
        await services.games.move(999_999, white, "a1")
    with pytest.raises(errors.PositionChanged):
        await services.games.move(game.id, white, "a1", expected_ply=3)
    assert await services.games.get(game.id) == game
    assert await services.db.fetchall("SELECT * FROM moves") == []


async def test_undo_needs_the_opponent_and_rewinds_one_ply(services, new_game, moves) -> None:
    game = await new_game()
    white, black = game.white.id, game.black.id
    with pytest.raises(errors.NothingToUndo):
        await services.games.request_undo(game.id, white)
    await moves(game.id, "a1 e5 c3")
    requested = await services.games.request_undo(game.id, white)
    assert requested.undo_request_by == white
    with pytest.raises(errors.OwnRequest):
        await services.games.accept_undo(game.id, white)
    with pytest.raises(errors.UndoAlreadyRequested, match="accept or decline"):
        await services.games.request_undo(game.id, black)
    rewound = await services.games.accept_undo(game.id, black)
    assert rewound.ply == 2 and rewound.to_move is Color.WHITE
    position = await services.games.position(game.id)
    assert position.tps() == rewound.tps and position.ply == 2
    # The undone move stays in the log, marked; the replacement takes its ply.
    await moves(game.id, "d4")
    rows = await services.db.fetchall("SELECT ply, ptn, undone_at FROM moves ORDER BY id")
    assert [(r["ply"], r["ptn"], r["undone_at"] is not None) for r in rows] == [
        (1, "a1", False),
        (2, "e5", False),
        (3, "c3", True),
        (3, "d4", False),
    ]
    assert "3. d4" not in await services.lookup.ptn(game.id)  # ply 3 is white's move 2
    assert "2. d4" in await services.lookup.ptn(game.id)
    with pytest.raises(errors.NotYourMoveToTakeBack):  # black is to move: d4 is white's
        await services.games.request_undo(game.id, black)
    await services.games.request_undo(game.id, white)
    declined = await services.games.decline_undo(game.id, black)
    assert declined.undo_request_by is None and declined.ply == 3
    with pytest.raises(errors.NoUndoRequest):
        await services.games.accept_undo(game.id, black)


async def test_legal_moves_for_autocompletion(services, new_game, moves) -> None:
    game = await new_game(size=3)
    assert len(await services.games.legal_moves(game.id)) == 9
    await moves(game.id, ROAD_3X3)
    assert await services.games.legal_moves(game.id) == []
