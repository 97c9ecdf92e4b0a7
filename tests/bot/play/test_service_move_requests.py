"""Exactly-once moves: a move's request key is stored with it, so the same request made again is
answered with the move it made (never played twice, nor refused as illegal), and a commit whose
answer was lost is looked up and the player told the truth. The lost answer is simulated by a
store wrapper that raises CommitUnknown after the real commit (or instead of it)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any

import pytest

from bot.errors import CommitUnknown, MoveUnconfirmed, NotYourTurn, StoreUnwritable
from bot.play import service as game_service
from bot.play.service import request_key
from bot.services import Services
from bot.store import Database, Transaction
from tests.bot.conftest import ALICE, BOB

LOST = "the server stopped answering while a change was committed (simulated)"


async def live_moves(services: Services, game_id: int) -> list[tuple[int, str]]:
    rows = await services.db.fetchall(
        "SELECT ply, ptn FROM moves WHERE game_id = ? AND undone_at IS NULL ORDER BY ply",
        (game_id,),
    )
    return [(row["ply"], row["ptn"]) for row in rows]


def lose_the_next_commit_answer(
    db: Database, monkeypatch: pytest.MonkeyPatch, *, committed: bool, silent_after: int = 0
) -> None:
    """The next write transaction raises CommitUnknown as it commits: after the commit took
    place (`committed`) or instead of it. Then `silent_after` calls of the store raise
    StoreUnwritable, as a server still down would."""
    transaction, snapshot = db.transaction, db.snapshot
    left = {"lost": 1, "silent": silent_after}

    def unanswered() -> None:
        if not left["lost"] and left["silent"]:
            left["silent"] -= 1
            raise StoreUnwritable("the server does not answer (simulated)")

    @asynccontextmanager
    async def losing() -> AsyncIterator[Transaction]:
        if not left["lost"]:
            unanswered()
            async with transaction() as tx:
                yield tx
            return
        left["lost"] = 0
        async with transaction() as tx:
            yield tx
            if not committed:
                raise CommitUnknown(LOST)  # rolls back
        raise CommitUnknown(LOST)

    def silent(real: Callable[[], AbstractAsyncContextManager[Transaction]]) -> Any:
        @asynccontextmanager
        async def wrapped() -> AsyncIterator[Transaction]:
            unanswered()
            async with real() as tx:
                yield tx

        return wrapped

    monkeypatch.setattr(db, "transaction", losing)
    monkeypatch.setattr(db, "snapshot", silent(snapshot))
    monkeypatch.setattr(game_service, "LOOK_AGAIN_AFTER", 0.0)


async def test_the_same_request_again_is_the_same_move(services: Services, new_game) -> None:
    """A retried Confirm (same choice, same position) after the move went in: answered with the
    move it made, not refused as a changed position, and not played twice."""
    game = await new_game()
    key = request_key(ALICE.id, game.id, 0, "mark", "a1")
    first = await services.games.move(game.id, ALICE.id, "a1", expected_ply=0, key=key)
    again = await services.games.move(game.id, ALICE.id, "a1", expected_ply=0, key=key)
    assert (again.ply, again.move) == (first.ply, first.move) == (1, "a1")
    assert not first.repeated and again.repeated  # the mover is told nothing more was played
    assert await live_moves(services, game.id) == [(1, "a1")]
    # Still the same move once the game has gone on (the opponent moved, Alice is to move).
    await services.games.move(game.id, BOB.id, "e5", key="interaction:2")
    third = await services.games.move(game.id, ALICE.id, "a1", expected_ply=0, key=key)
    assert (third.ply, third.move) == (1, "a1") and third.repeated
    assert await live_moves(services, game.id) == [(1, "a1"), (2, "e5")]


async def test_a_key_is_no_one_elses_move(services: Services, new_game) -> None:
    """A key that made another player's move does not answer for this one: the refusal stands."""
    game = await new_game()
    await services.games.move(game.id, ALICE.id, "a1", key="interaction:7")
    await services.games.move(game.id, BOB.id, "e5", key="interaction:8")
    with pytest.raises(NotYourTurn):  # Alice is to move; the key made her move, not Bob's
        await services.games.move(game.id, BOB.id, "a1", key="interaction:7")
    assert await live_moves(services, game.id) == [(1, "a1"), (2, "e5")]


async def test_a_commit_whose_answer_was_lost_is_reported_as_played(
    services: Services, new_game, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = await new_game()
    await services.games.move(game.id, ALICE.id, "a1")
    lose_the_next_commit_answer(services.db, monkeypatch, committed=True)
    outcome = await services.games.move(game.id, BOB.id, "e5", key="interaction:1")
    assert (outcome.ply, outcome.move) == (2, "e5")
    assert not outcome.repeated  # the first answer Bob gets: told as played, not as a repeat
    assert await live_moves(services, game.id) == [(1, "a1"), (2, "e5")]


async def test_a_commit_that_did_not_happen_is_reported_as_not_saved_and_can_be_made_again(
    services: Services, new_game, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = await new_game()
    lose_the_next_commit_answer(services.db, monkeypatch, committed=False)
    with pytest.raises(StoreUnwritable) as refused:
        await services.games.move(game.id, ALICE.id, "a1", key="interaction:1")
    assert not isinstance(refused.value, CommitUnknown)  # known: not saved
    assert await live_moves(services, game.id) == []
    again = await services.games.move(game.id, ALICE.id, "a1", key="interaction:1")
    assert again.ply == 1 and await live_moves(services, game.id) == [(1, "a1")]


async def test_a_store_that_cannot_say_yet_is_told_and_the_retry_is_recognised(
    services: Services, new_game, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The commit happened, but the store stays silent while Bredon looks: the player is told
    it may be saved; the same request later (the store back) is answered as played."""
    game = await new_game()
    key = request_key(ALICE.id, game.id, 0, "mark", "a1")
    looks = game_service.LOST_COMMIT_LOOKS
    lose_the_next_commit_answer(services.db, monkeypatch, committed=True, silent_after=looks)
    with pytest.raises(MoveUnconfirmed) as unconfirmed:
        await services.games.move(game.id, ALICE.id, "a1", expected_ply=0, key=key)
    assert "may or may not be saved" in unconfirmed.value.message
    outcome = await services.games.move(game.id, ALICE.id, "a1", expected_ply=0, key=key)
    assert (outcome.ply, outcome.move) == (1, "a1")
    assert await live_moves(services, game.id) == [(1, "a1")]


async def test_a_move_taken_back_can_be_made_again_by_the_same_request(
    services: Services, new_game
) -> None:
    """After an undo the position is the one the request was made in: the same choice plays the
    move again rather than answering with the move taken back."""
    game = await new_game()
    key = request_key(ALICE.id, game.id, 0, "mark", "a1")
    await services.games.move(game.id, ALICE.id, "a1", expected_ply=0, key=key)
    await services.games.request_undo(game.id, ALICE.id)
    await services.games.accept_undo(game.id, BOB.id)
    assert await live_moves(services, game.id) == []
    again = await services.games.move(game.id, ALICE.id, "a1", expected_ply=0, key=key)
    assert again.ply == 1 and await live_moves(services, game.id) == [(1, "a1")]


async def test_a_move_is_taken_back_without_reading_every_request(services: Services) -> None:
    """The undo forgets its move's request by the game and ply: an index, not a read of the
    whole table (which grows with every move; on PostgreSQL, a whole-table read in a
    SERIALIZABLE transaction conflicts with every move made meanwhile)."""
    if services.db.engine == "postgresql":
        plan = await services.db.fetchall(
            "SELECT indexdef FROM pg_indexes WHERE tablename = 'move_requests'"
        )
        assert any("(game_id, ply)" in row["indexdef"] for row in plan), plan
    else:
        plan = await services.db.fetchall(
            "EXPLAIN QUERY PLAN DELETE FROM move_requests WHERE game_id = ? AND ply = ?", (1, 1)
        )
        assert any("USING" in row["detail"] and "INDEX" in row["detail"] for row in plan)
