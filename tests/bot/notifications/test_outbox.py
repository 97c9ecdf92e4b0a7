"""The outbox below Discord: written with the change, handed out in order, claimed once, retried
with backoff, and fair to the player whose notice came late."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from bot.deadlines.service import DeadlineService
from bot.notifications.outbox import (
    BACKOFF_MAX,
    GameEnded,
    GameStart,
    MovePlayed,
    Outcome,
    backoff,
    game_stream,
)
from bot.services import Services
from tests.bot.conftest import deliver_everything


async def test_a_move_and_its_announcement_are_written_together(services, new_game, moves, clock):
    game = await new_game()
    await moves(game.id, "a1 e5")
    pending = await services.outbox.due(stream=game_stream(game.id))
    assert [type(item.payload) for item in pending] == [GameStart]  # the head of the stream
    kinds = await deliver_everything(services, clock)
    assert kinds == [
        "challenge_closed:challenge:1",  # accepted: its message shows it and loses its buttons
        *(f"{kind}:game:{game.id}" for kind in ("game_start", "move", "move")),
    ]
    played = await services.db.fetchall("SELECT payload FROM outbox WHERE kind = 'move'")
    assert ['"move": "a1"' in row[0] for row in played] == [True, False]


async def test_a_match_ending_comes_before_the_next_game(services, new_game, moves, clock):
    game = await new_game(size=3, games=2, komi=0)
    await moves(game.id, "a3 a1 b1 b3 c1")
    kinds = await deliver_everything(services, clock)
    ending = kinds.index(f"ending:game:{game.id}")
    start = kinds.index(f"game_start:game:{game.id + 1}")
    assert ending < start
    [row] = await services.db.fetchall("SELECT payload FROM outbox WHERE kind = 'ending'")
    assert '"match_points": [' in row[0] and f'"next_game_id": {game.id + 1}' in row[0]


async def test_an_item_waits_while_an_older_one_of_its_stream_is_retried(
    services, new_game, moves, clock
):
    game = await new_game()
    stream = game_stream(game.id)
    [first] = await services.outbox.due(stream=stream)
    claimed = await services.outbox.claim(first.id)
    assert claimed is not None
    assert await services.outbox.claim(first.id) is None  # claimed once
    retry_at = await services.outbox.failed(claimed, "HTTP 500")
    assert retry_at == clock.now() + timedelta(seconds=30)
    await moves(game.id, "a1")
    assert await services.outbox.due(stream=stream) == []  # the move waits behind the start
    assert await deliver_everything(services, clock) == ["challenge_closed:challenge:1"]
    assert await services.outbox.next_due_at() == retry_at
    clock.advance(seconds=30)
    assert await deliver_everything(services, clock) == [f"game_start:{stream}", f"move:{stream}"]


def test_backoff_doubles_up_to_an_hour() -> None:
    assert [backoff(n).total_seconds() for n in range(1, 5)] == [30, 60, 120, 240]
    assert backoff(8) == BACKOFF_MAX and backoff(10_000) == BACKOFF_MAX


async def test_a_late_turn_notice_gives_its_player_the_time_back(services, new_game, moves, clock):
    game = await new_game(days_per_move=1)
    await deliver_everything(services, clock)
    await moves(game.id, "a1")
    before = await services.games.get(game.id)
    [notice] = await services.outbox.due()
    assert isinstance(notice.payload, MovePlayed)
    clock.advance(hours=30)  # Discord was down past the deadline
    assert not await DeadlineService(services.db, clock).due()  # held: the notice is pending
    claimed = await services.outbox.claim(notice.id)
    assert claimed is not None
    await services.outbox.failed(claimed, "HTTP 500")  # the time is given back once, not twice
    clock.advance(seconds=30)
    again = await services.outbox.claim(notice.id)
    assert again is not None
    assert await services.outbox.delivered(again, Outcome.POSTED)
    assert not await services.outbox.delivered(claimed, Outcome.POSTED)  # its claim is gone
    after = await services.games.get(game.id)
    assert before.deadline_at is not None and after.deadline_at is not None
    assert after.deadline_at - before.deadline_at == timedelta(hours=30, seconds=30)


async def test_a_late_reminder_leaves_the_time_it_was_meant_to_give(
    services: Services, new_game, moves, clock
):
    game = await new_game(days_per_move=1)
    await moves(game.id, "a1 e5")
    clock.advance(hours=20)
    report = await services.deadlines.run_due()
    [reminder] = report.reminders
    [item] = await services.outbox.due()
    clock.advance(hours=10)  # delivered 6 hours after the deadline
    claimed = await services.outbox.claim(item.id)
    assert claimed is not None
    await services.outbox.delivered(claimed, Outcome.POSTED)
    stored = await services.games.get(game.id)
    assert stored.deadline_at == clock.now() + (reminder.deadline - item.created_at)


async def test_a_failure_in_the_second_time_out_keeps_the_first_ones_announcement(
    services, new_game, moves, clock, monkeypatch
):
    games = [await new_game(days_per_move=1) for _ in range(2)]
    for game in games:
        await moves(game.id, "a1")
    clock.advance(days=1, seconds=1)
    await deliver_everything(services, clock)
    deadlines = DeadlineService(services.db, clock)
    original = DeadlineService.time_out
    calls = 0

    async def failing_second(self, game_id, at=None):
        nonlocal calls
        calls += 1
        if calls == 2:
            raise RuntimeError("database error")
        return await original(self, game_id, at)

    monkeypatch.setattr(DeadlineService, "time_out", failing_second)
    with pytest.raises(RuntimeError):
        await deadlines.run_due()
    endings = await services.db.fetchall(
        "SELECT stream FROM outbox WHERE kind = 'ending' AND delivered_at IS NULL"
    )
    assert [row[0] for row in endings] == [game_stream(games[0].id)]
    monkeypatch.setattr(DeadlineService, "time_out", original)
    report = await deadlines.run_due()
    assert [e.game.id for e in report.endings] == [games[1].id]
    assert await services.outbox.pending() == 2


async def test_endings_say_how_the_game_ended(services, new_game, moves, bob):
    game = await new_game()
    await moves(game.id, "a1 e5")
    await services.games.resign(game.id, bob.id)
    [row] = await services.db.fetchall("SELECT payload FROM outbox WHERE kind = 'ending'")
    ended = GameEnded(**json.loads(row[0]))
    assert ended.cause == "resign" and ended.by == bob.id
