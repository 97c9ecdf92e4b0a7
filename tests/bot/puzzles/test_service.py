"""Puzzles on a real database: stocked from the published set and the server's games, answered
(first answer rated), the daily puzzle posted once a day and the streak across days."""

from __future__ import annotations

import pytest

from bot import errors
from bot.games.model import NO_SERVER, GamePlace, GameRequest
from bot.notifications.outbox import DailyPuzzlePosted
from bot.puzzles.service import (
    NONE_LEFT_RETRY,
    NoDailyPuzzle,
    PuzzleService,
    UnknownPuzzle,
    read_published,
)
from tak import Position
from tests.bot.conftest import ALICE, BOB, CHANNEL, GUILD, play


async def _solution(services, puzzle_id: int) -> str:
    row = await services.db.fetchone("SELECT solution FROM puzzles WHERE id = ?", (puzzle_id,))
    return str(row["solution"])


async def _wrong_move(services, puzzle_id: int) -> str:
    puzzle = await services.puzzles.puzzle(puzzle_id)
    solution = await _solution(services, puzzle_id)
    return next(m.ptn() for m in puzzle.position().legal_moves() if m.ptn() != solution)


async def test_the_published_set_is_loaded_once_and_each_is_a_puzzle(services) -> None:
    published = read_published()
    assert len(published) >= 30
    assert all("MIT" in source or "ISC" in source for _puzzle, source in published)
    assert await services.puzzles.stock() == len(published)
    assert await services.puzzles.stock() == 0
    puzzle = await services.puzzles.next_for(ALICE)
    assert puzzle.source is not None and puzzle.rating == 1500


async def test_a_game_outside_bredons_servers_is_never_mined(services) -> None:
    setup = (await services.guilds.get(NO_SERVER)).game_setup(GameRequest(size=5))
    challenge = await services.challenges.create(
        guild_id=NO_SERVER,
        channel_id=CHANNEL,
        challenger=ALICE,
        opponent=BOB,
        setup=setup,
        colour="white",
        place=GamePlace.DM,
    )
    game = (await services.challenges.accept(challenge.id, BOB)).game
    assert game is not None
    await play(services, game.id, "e5 a1 b1 d1 c1 e4 d2 e3 e1 e2 d2-")  # a puzzle in a server
    await services.puzzles.set_channel(GUILD, CHANNEL)  # puzzles in use
    await services.puzzles.run_due()
    assert await services.puzzles.next_due_at() != services.clock.now()  # nothing left to mine
    assert await services.db.fetchall("SELECT game_id FROM puzzle_mined_games") == []
    assert await services.db.fetchall("SELECT id FROM puzzles WHERE game_id IS NOT NULL") == []


async def test_a_finished_game_is_mined_once(services, clock, new_game, moves) -> None:
    game = await new_game(size=5)
    # White's row on rank 1 lacks d1, black's: only d2- takes it (e2 stops e1<'s Tinuë).
    await moves(game.id, "e5 a1 b1 d1 c1 e4 d2 e3 e1 e2 d2-")
    finished = await services.games.get(game.id)
    assert finished.result is not None
    # No server uses puzzles yet: no CPU is spent mining.
    assert await services.puzzles.next_due_at() is None
    assert await services.puzzles.run_due() == 0
    assert await services.db.fetchall("SELECT game_id FROM puzzle_mined_games") == []
    # Once one does (a daily-puzzle channel), the scheduler's duty mines it in the background:
    # due now, then nothing left but the next daily post.
    await services.puzzles.set_channel(GUILD, CHANNEL)
    await services.puzzles.run_due()  # today's puzzle posted, the game mined first
    await services.puzzles.set_channel(GUILD, None)
    assert await services.puzzles.next_due_at() is None  # nothing to post: no channel
    mined = await services.db.fetchall("SELECT game_id FROM puzzle_mined_games")
    assert [row["game_id"] for row in mined] == [game.id]
    assert await services.puzzles.stock() == 0
    found = await services.db.fetchall(
        "SELECT solution, kind FROM puzzles WHERE game_id = ?", (game.id,)
    )
    assert [(row["solution"], row["kind"]) for row in found] == [("d2-", "road")]


async def test_the_first_answer_counts_and_a_wrong_one_shows_the_solution(services) -> None:
    puzzle = await services.puzzles.next_for(ALICE)
    wrong = await _wrong_move(services, puzzle.id)
    answer = await services.puzzles.answer(ALICE, puzzle.id, wrong)
    assert not answer.solved and answer.counted and not answer.daily
    assert answer.solution == await _solution(services, puzzle.id)
    assert answer.rating < 1500 and answer.rating_change < 0
    again = await services.puzzles.answer(ALICE, puzzle.id, answer.solution)
    assert again.solved and not again.counted and again.rating == answer.rating
    assert (await services.puzzles.puzzle(puzzle.id)).rating > 1500
    assert (await services.puzzles.next_for(ALICE)).id != puzzle.id
    stats = await services.puzzles.stats(ALICE.id)
    assert (stats.solved, stats.attempted) == (0, 1)


async def test_an_illegal_answer_is_refused_and_changes_nothing(services) -> None:
    puzzle = await services.puzzles.next_for(ALICE)
    with pytest.raises(errors.IllegalMove):
        await services.puzzles.answer(ALICE, puzzle.id, "z9")
    with pytest.raises(UnknownPuzzle):
        await services.puzzles.answer(ALICE, 999_999, "a1")
    assert await services.db.fetchall("SELECT * FROM puzzle_attempts") == []


async def test_the_daily_puzzle_is_posted_once_a_day_and_the_streak_counts_days(
    services, clock
) -> None:
    assert await services.puzzles.next_due_at() is None
    with pytest.raises(NoDailyPuzzle):
        await services.puzzles.daily(GUILD)
    await services.puzzles.set_channel(GUILD, CHANNEL)
    assert await services.puzzles.next_due_at() == clock.now()
    assert await services.puzzles.run_due() == 1
    assert await services.puzzles.run_due() == 0  # once a day, however often it looks
    items = await services.outbox.due()
    assert [item.payload for item in items] == [
        DailyPuzzlePosted(GUILD, CHANNEL, clock.now().date().isoformat())
    ]
    first = await services.puzzles.daily(GUILD)
    assert first.yesterday is None
    # Never handed out privately on its day.
    for _ in range(3):
        assert (await services.puzzles.next_for(BOB)).id != first.puzzle.id
    solved = await services.puzzles.answer(
        ALICE, first.puzzle.id, await _solution(services, first.puzzle.id)
    )
    assert solved.daily and solved.solved and solved.streak == 1
    wrong = await services.puzzles.answer(
        BOB, first.puzzle.id, await _wrong_move(services, first.puzzle.id)
    )
    assert wrong.daily and not wrong.solved and wrong.solution is None and wrong.streak == 0

    clock.advance(days=1)
    assert await services.puzzles.next_due_at() == clock.now()
    assert await services.puzzles.run_due() == 1
    second = await services.puzzles.daily(GUILD)
    assert second.puzzle.id != first.puzzle.id
    assert second.yesterday is not None and second.yesterday.id == first.puzzle.id
    assert second.yesterday_solution == await _solution(services, first.puzzle.id)
    answer = await services.puzzles.answer(
        ALICE, second.puzzle.id, await _solution(services, second.puzzle.id)
    )
    assert answer.streak == 2
    assert (await services.puzzles.stats(ALICE.id)).streak == 2

    clock.advance(days=2)  # a day without a solved daily puzzle ends the streak
    stats = await services.puzzles.stats(ALICE.id)
    assert (stats.streak, stats.best_streak, stats.solved) == (0, 2, 2)


def test_each_published_puzzle_replays_from_its_tps() -> None:
    for mined, _source in read_published():
        position = mined.position()
        assert isinstance(position, Position) and position.is_legal(mined.solution)


async def test_a_restart_posts_no_second_daily_puzzle_and_none_left_waits(services, clock) -> None:
    await services.puzzles.set_channel(GUILD, CHANNEL)
    assert await services.puzzles.run_due() == 1
    restarted = PuzzleService(services.db, clock, services.background)
    assert await restarted.run_due() == 0
    assert len(await services.outbox.due()) == 1
    # Every puzzle used: the next day waits an hour between looks rather than spinning.
    await restarted.stock()  # the published set loaded: not loaded again
    async with services.db.transaction() as tx:
        await tx.execute(
            "DELETE FROM puzzles WHERE id NOT IN (SELECT puzzle_id FROM daily_puzzles)"
        )
    clock.advance(days=1)
    assert await restarted.run_due() == 0
    assert await restarted.next_due_at() == clock.now() + NONE_LEFT_RETRY
