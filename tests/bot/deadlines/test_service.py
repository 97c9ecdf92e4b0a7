"""Move deadlines: reminders at 80%, loss on time, aborts when nobody moved, nothing twice."""

from __future__ import annotations

from datetime import timedelta

from bot.games.model import GameStatus
from tak import ResultKind


async def test_each_move_restarts_the_clock_of_the_player_to_move(
    services, clock, new_game, moves
) -> None:
    game = await new_game(days_per_move=2)
    assert game.deadline_at == clock.now() + timedelta(days=2)
    assert game.reminder_at == clock.now() + timedelta(days=1.6)
    clock.advance(days=1)
    outcome = (await moves(game.id, "a1"))[0]
    assert outcome.game.deadline_at == clock.now() + timedelta(days=2)


async def test_a_reminder_then_a_loss_on_time(services, clock, new_game, moves) -> None:
    game = await new_game(days_per_move=1)
    await moves(game.id, "a1 e5 c3")  # black to move
    assert await services.deadlines.next_due_at() == clock.now() + timedelta(days=0.8)
    clock.advance(hours=19)
    assert not await services.deadlines.due()
    clock.advance(minutes=12)
    report = await services.deadlines.run_due()
    assert [(r.game.id, r.player) for r in report.reminders] == [(game.id, game.black)]
    assert report.endings == []
    # Claimed once: asking again sends nothing.
    assert (await services.deadlines.run_due()).reminders == []
    assert await services.deadlines.next_due_at() == clock.now() + timedelta(hours=5, minutes=-12)
    clock.advance(hours=5)
    report = await services.deadlines.run_due()
    assert len(report.endings) == 1
    ending = report.endings[0]
    assert ending.result.ptn() == "1-0" and ending.result.kind is ResultKind.TIME
    assert ending.game.winner == game.white
    assert ending.points == 25 + 20  # white has played one stone and keeps the capstone
    assert (await services.deadlines.run_due()).endings == []
    assert await services.deadlines.next_due_at() is None


async def test_a_game_nobody_moved_in_is_aborted_on_time(services, clock, new_game) -> None:
    game = await new_game(days_per_move=1)
    clock.advance(days=1)
    report = await services.deadlines.run_due()
    assert [e.result.ptn() for e in report.endings] == ["0-0"]
    assert (await services.games.get(game.id)).status is GameStatus.ABORTED


async def test_a_move_that_lands_first_beats_the_time_out(services, clock, new_game, moves) -> None:
    game = await new_game(days_per_move=1)
    await moves(game.id, "a1")
    clock.advance(days=1)
    work = await services.deadlines.due()
    assert [g.id for g in work.timeouts] == [game.id]
    await services.games.move(game.id, game.black.id, "e5", expected_ply=1)
    assert await services.deadlines.time_out(game.id) is None
    assert (await services.games.get(game.id)).is_active


async def test_finished_games_have_no_deadline(services, clock, new_game, moves) -> None:
    game = await new_game(days_per_move=1)
    await moves(game.id, "a1 e5")
    await services.games.resign(game.id, game.white.id)
    clock.advance(days=10)
    assert not await services.deadlines.due()
