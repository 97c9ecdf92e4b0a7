"""The opening explorer (bot.games.explorer) against an independent count: each game replayed on
its own and compared board by board (stacks and side to move, never the index's TPS key) with
the position asked about."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot import errors
from bot.games.explorer import (
    MAX_EXPLORER_PLIES,
    Exploration,
    ExplorerService,
    FinishedGame,
    OpeningIndex,
    Tally,
    explored_position,
    standard_position,
)
from tak import Color, Position, Result, ResultKind
from tests.bot.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD
from tests.bot.setups import create_challenge

WHITE_ROAD = Result(Color.WHITE, ResultKind.ROAD)
BLACK_FLATS = Result(Color.BLACK, ResultKind.FLATS)
DRAW = Result(None, ResultKind.AGREEMENT)


def brute_force(games: list[FinishedGame], size: int, asked: Position) -> dict[str | None, Tally]:
    """Next move (None: ended there) → how the games went, counting each game that reached
    `asked` once, at the first ply its board and side to move were those of `asked`."""
    wanted = (asked.board().squares, asked.to_move)
    counted: dict[str | None, Tally] = {}
    for game in games:
        position = standard_position(size)
        for ply in range(len(game.moves) + 1):
            if (position.board().squares, position.to_move) == wanted:
                following = game.moves[ply] if ply < len(game.moves) else None
                counted.setdefault(following, Tally()).count(game.result)
                break
            if ply < len(game.moves):
                position.play(game.moves[ply])
    return counted


def as_counts(exploration: Exploration) -> dict[str | None, Tally]:
    counts: dict[str | None, Tally] = {row.move: row.tally for row in exploration.moves}
    if exploration.ended_here.games:
        counts[None] = exploration.ended_here
    return counts


def game_line(line: str) -> tuple[str, ...]:
    return tuple(line.split())


def after(size: int, line: str) -> Position:
    return explored_position(standard_position(size), line)


def test_a_transposition_counts_the_games_of_both_move_orders() -> None:
    games = [
        FinishedGame(1, game_line("a1 e5 c3 d4 c4 d3 b3"), WHITE_ROAD),
        FinishedGame(2, game_line("a1 e5 c4 d3 c3 d4 b2"), BLACK_FLATS),
        FinishedGame(3, game_line("a1 e5 c4 d3 c3 d4 b3"), DRAW),
        FinishedGame(4, game_line("a1 e5 c3 d3 d4 c4"), WHITE_ROAD),  # colours swapped
        FinishedGame(5, game_line("a1 e5 c3 d4 c4 d3"), BLACK_FLATS),  # resigned there
    ]
    index = OpeningIndex(5)
    index.add(games)
    asked = after(5, "a1 e5 c3 d4 c4 d3")
    explored = index.explore(asked)
    assert [(row.move, row.tally) for row in explored.moves] == [
        ("b3", Tally(white=1, draws=1)),
        ("b2", Tally(black=1)),
    ]
    assert explored.ended_here == Tally(black=1)
    assert explored.total == Tally(white=1, draws=1, black=2)
    assert as_counts(explored) == brute_force(games, 5, asked)
    assert explored.tps == asked.tps()


def test_the_rest_beyond_the_rows_shown_is_summed() -> None:
    games = [
        FinishedGame(n, ("a1", "e5", square), WHITE_ROAD if n % 2 else DRAW)
        for n, square in enumerate(f"{file}{rank}" for file in "abcd" for rank in "234")
    ]
    index = OpeningIndex(5)
    index.add(games)
    shown, rest = index.explore(after(5, "a1 e5")).shown(rows=10)
    assert len(shown) == 10 and rest == Tally(white=1, draws=1)
    assert index.explore(after(5, "a1 e5")).shown(rows=12) == (
        index.explore(after(5, "a1 e5")).moves,
        None,
    )


def test_a_corrected_result_is_counted_as_it_is_now() -> None:
    index = OpeningIndex(4)
    index.add([FinishedGame(1, ("a1", "d4", "b2"), WHITE_ROAD)])
    index.set_result(1, DRAW)
    assert index.explore(standard_position(4)).moves[0].tally == Tally(draws=1)


def test_a_line_may_be_numbered_as_the_answer_writes_it() -> None:
    assert after(5, "1. a1 e5 2. c3 d4 3. c4").tps() == after(5, "a1 e5 c3 d4 c4").tps()
    assert after(5, "a1 e5 c3 2... d4").tps() == after(5, "a1 e5 c3 d4").tps()


def test_an_illegal_move_is_refused_with_the_engines_reason() -> None:
    with pytest.raises(errors.IllegalMove, match=r"^f6"):
        after(5, "a1 f6")
    with pytest.raises(errors.InvalidSetting, match=f"at most {MAX_EXPLORER_PLIES}"):
        after(5, " ".join(["a1"] * (MAX_EXPLORER_PLIES + 1)))


OPENINGS = ("a1 d4", "a1 a4", "d4 a1")
RESULTS = (WHITE_ROAD, BLACK_FLATS, DRAW)


def random_game(game_id: int, rng: random.Random) -> FinishedGame:
    """A legal 4x4 game from a common opening, so that positions recur (and transpose)."""
    position = standard_position(4)
    moves = rng.choice(OPENINGS).split()
    for move in moves:
        position.play(move)
    for _ply in range(rng.randint(0, 12)):
        if position.result is not None:
            break
        legal = sorted(position.legal_moves(), key=lambda move: move.ptn())
        moves.append(position.play(rng.choice(legal[:6])).ptn())  # few choices: recurring
    return FinishedGame(game_id, tuple(moves), position.result or rng.choice(RESULTS))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), count=st.integers(1, 25), pick=st.integers(0, 10**6))
def test_the_index_counts_as_replaying_every_game_does(seed: int, count: int, pick: int) -> None:
    rng = random.Random(seed)
    games = [random_game(game_id, rng) for game_id in range(count)]
    index = OpeningIndex(4)
    index.add(games)
    chosen = games[pick % count]
    asked = standard_position(4)
    for move in chosen.moves[: pick % (len(chosen.moves) + 1)]:
        asked.play(move)
    explored = index.explore(asked)
    assert as_counts(explored) == brute_force(games, 4, asked)
    assert [row.tally.games for row in explored.moves] == sorted(
        (row.tally.games for row in explored.moves), reverse=True
    )


# ----------------------------------------------------------------- the service on a database


async def test_the_service_counts_the_servers_finished_standard_games(
    services, new_game, moves
) -> None:
    async def finished(line: str, **setup: object) -> int:
        game = await new_game(**setup)
        await moves(game.id, line)
        await services.games.resign(game.id, BOB.id)
        return game.id

    await finished("a1 e5 c3", size=5)
    await finished("a1 e5 c3 d4", size=5, komi=2.5)  # any komi
    await finished("a1 e5 b2", size=5, stones=20)  # not the standard reserves
    await finished("a1 e5 b3", size=5, opening="no-swap")
    await finished("a1 e5 b4", size=5, start_tps="x5/x5/x5/x5/x5 1 1")
    aborted = await new_game(size=5)
    await moves(aborted.id, "a1")
    await services.games.abort(aborted.id, ALICE.id)
    await moves((await new_game(size=5)).id, "a1 e5 d2")  # still going
    bot_challenge = await create_challenge(
        services, guild_id=GUILD, channel_id=CHANNEL, challenger=ALICE, opponent=CAROL, size=5
    )
    against_bot = (await services.challenges.accept(bot_challenge.id, CAROL)).game
    await moves(against_bot.id, "a1 e5 a2")
    await services.games.resign(against_bot.id, against_bot.white.id)

    start = standard_position(5)
    explored = await services.explorer.explore(GUILD, start, bot_id=CAROL.id)
    assert [(row.move, row.tally) for row in explored.moves] == [("a1", Tally(white=2))]
    explored = await services.explorer.explore(GUILD, after(5, "a1 e5"), bot_id=CAROL.id)
    assert [(row.move, row.tally) for row in explored.moves] == [("c3", Tally(white=2))]

    await finished("a1 e5 a2", size=5)  # finished since: counted at the next question
    explored = await services.explorer.explore(GUILD, after(5, "a1 e5"), bot_id=CAROL.id)
    assert [(row.move, row.tally) for row in explored.moves] == [
        ("c3", Tally(white=2)),
        ("a2", Tally(white=1)),
    ]
    other_size = await services.explorer.explore(GUILD, standard_position(6), bot_id=CAROL.id)
    assert other_size.moves == [] and other_size.total == Tally()


async def test_the_indexes_held_are_bounded_and_one_dropped_is_rebuilt(
    services, new_game, moves
) -> None:
    for size, line in ((5, "a1 e5 c3"), (5, "a1 e5 b2"), (6, "a1 f6 c3"), (6, "a1 f6 d4")):
        game = await new_game(size=size)
        await moves(game.id, line)
        await services.games.resign(game.id, BOB.id)
    explorer = ExplorerService(services.db, services.background, max_games=3)
    first = await explorer.explore(GUILD, after(5, "a1 e5"), bot_id=CAROL.id)
    assert explorer.indexed() == {(GUILD, 5, CAROL.id): 2}
    await explorer.explore(GUILD, standard_position(6), bot_id=CAROL.id)
    # Four games in two indexes is over the bound: the one asked for least recently goes.
    assert explorer.indexed() == {(GUILD, 6, CAROL.id): 2}
    again = await explorer.explore(GUILD, after(5, "a1 e5"), bot_id=CAROL.id)
    assert explorer.indexed() == {(GUILD, 5, CAROL.id): 2}
    assert again == first and {row.move for row in again.moves} == {"c3", "b2"}
