"""Challenges from a TPS position: checked up front, played from there, unrated, exported with
the TPS tag, and no undo back past the start."""

from __future__ import annotations

import random
from datetime import timedelta
from pathlib import Path

import pytest

from bot import errors
from bot.games.model import GameStatus
from bot.players.model import PlayerRef
from bot.services import Services
from bot.store.consistency import applicable
from bot.timekeeping.clock import FakeClock
from tak import Color, Position, ResultKind
from tak.ptn import Game
from tests.bot.conftest import CHANNEL, GUILD, play, start_game
from tests.bot.setups import create_challenge, open_challenges
from tests.tak.test_ptn_ninja_files import assert_ninja_reads

# White has a5 b5 c5 and b1, black a4 b4 c4; black to move (move 4, ply 7).
BLACK_TO_MOVE = "1,1,1,x2/2,2,2,x2/x5/x5/x,1,x3 2 4"


async def challenge(services: Services, challenger: PlayerRef, opponent: PlayerRef, **settings):
    return await create_challenge(
        services,
        guild_id=GUILD,
        channel_id=CHANNEL,
        challenger=challenger,
        opponent=opponent,
        **settings,
    )


async def test_a_tps_challenge_starts_there_unrated_with_the_side_to_move_from_the_tps(
    services: Services, alice: PlayerRef, bob: PlayerRef
) -> None:
    offer = await challenge(services, alice, bob, start_tps=BLACK_TO_MOVE, colour="black")
    assert offer.setup.size == 5 and not offer.setup.rated
    assert offer.setup.start_tps == BLACK_TO_MOVE
    game = (await services.challenges.accept(offer.id, bob)).game
    assert (game.white, game.black) == (bob, alice)  # the colour option still decides
    assert game.ply == 7 and game.plies_played == 0 and game.tps == BLACK_TO_MOVE
    assert game.to_move is Color.BLACK and game.player_to_move == alice
    assert game.deadline_at is not None
    position = await services.games.position(game.id)
    assert position.tps() == BLACK_TO_MOVE and position.last_move is None


async def test_a_tps_game_played_to_a_road_is_unrated_and_exported_with_its_tps(
    services: Services, alice: PlayerRef, bob: PlayerRef
) -> None:
    offer = await challenge(services, alice, bob, start_tps=BLACK_TO_MOVE, colour="white")
    game = (await services.challenges.accept(offer.id, bob)).game
    outcomes = await play(services, game.id, "d4 d5 e4")
    assert [o.tak for o in outcomes] == [True, True, False]  # each threatens the next road
    ending = outcomes[-1].ending
    assert ending is not None and ending.result.kind is ResultKind.ROAD
    assert ending.game.winner == bob and ending.game.status is GameStatus.FINISHED
    assert not ending.ratings
    assert await services.ratings.player(GUILD, alice.id) == []
    text = await services.lookup.ptn(game.id)
    assert f'[TPS "{BLACK_TO_MOVE}"]' in text
    assert_ninja_reads(text)
    assert text.rstrip().endswith("4. -- d4\n5. d5 e4 0-R")
    record = Game.parse(text)  # as PTN Ninja reads it: the start from the TPS tag
    expected = Position.from_tps(BLACK_TO_MOVE, komi=game.setup.komi)
    for move in ("d4", "d5", "e4"):
        expected.play(move)
    assert record.final_position().tps() == expected.tps()
    assert record.result is not None and record.result.ptn() == "0-R"


async def test_undo_and_abort_count_from_the_start_not_from_ply_zero(
    services: Services, alice: PlayerRef, bob: PlayerRef
) -> None:
    offer = await challenge(services, alice, bob, start_tps=BLACK_TO_MOVE, colour="white")
    game = (await services.challenges.accept(offer.id, bob)).game
    with pytest.raises(errors.NothingToUndo):
        await services.games.request_undo(game.id, alice.id)
    await play(services, game.id, "d4")
    await services.games.request_undo(game.id, bob.id)
    rewound = await services.games.accept_undo(game.id, alice.id)
    assert rewound.ply == 7 and rewound.tps == BLACK_TO_MOVE and rewound.last_move is None
    assert (await services.games.position(game.id)).tps() == BLACK_TO_MOVE
    with pytest.raises(errors.NothingToUndo):
        await services.games.request_undo(game.id, alice.id)
    await play(services, game.id, "d4 d5")
    with pytest.raises(errors.TooLateToAbort):
        await services.games.abort(game.id, alice.id)


async def test_nobody_moving_from_the_start_aborts_the_game_on_time(
    services: Services, clock: FakeClock, alice: PlayerRef, bob: PlayerRef
) -> None:
    offer = await challenge(services, alice, bob, start_tps=BLACK_TO_MOVE, days_per_move=2)
    game = (await services.challenges.accept(offer.id, bob)).game
    clock.advance(timedelta(days=2, seconds=1))
    ending = await services.deadlines.time_out(game.id)
    assert ending is not None and ending.result.kind is ResultKind.ABORT


@pytest.mark.parametrize(
    ("settings", "words"),
    [
        ({"start_tps": "x5/x5/x5/x5 1 1"}, "That TPS cannot start a game: Rank 4"),
        ({"start_tps": "x6/x6/x6/x6/x6/x6 1 1", "size": 5}, "6x6 board, but the size asked"),
        ({"start_tps": "1,1,1/x3/x3 2 3"}, "already over in that position: White wins by road"),
        (
            {"start_tps": "1,1,1,x2/1,1,1,x2/2,2,x3/x5/x5 2 4", "stones": 5, "caps": 0},
            "more than the 5 and 0 white has",
        ),
        ({"start_tps": BLACK_TO_MOVE, "rated": True}, "never rated"),
        ({"start_tps": BLACK_TO_MOVE, "stakes": True}, "not played for coins"),
    ],
)
async def test_a_tps_that_cannot_start_a_game_is_refused_and_nothing_is_stored(
    services: Services, alice: PlayerRef, bob: PlayerRef, settings: dict, words: str
) -> None:
    with pytest.raises(errors.InvalidSetting, match=words):
        await challenge(services, alice, bob, **settings)
    assert await open_challenges(services) == []


async def test_the_start_survives_a_restart_and_a_rematch_starts_there_again(
    db_path: Path, clock: FakeClock, alice: PlayerRef, bob: PlayerRef
) -> None:
    services = await Services.open(db_path, clock=clock, rng=random.Random(1))
    offer = await challenge(services, alice, bob, start_tps=BLACK_TO_MOVE, colour="white")
    game = (await services.challenges.accept(offer.id, bob)).game
    await play(services, game.id, "d4")
    await services.close()
    services = await Services.open(db_path, clock=clock, rng=random.Random(1))
    try:
        again = await services.games.get(game.id)
        assert again.setup.start_tps == BLACK_TO_MOVE and again.plies_played == 1
        await services.games.request_undo(game.id, bob.id)
        assert (await services.games.accept_undo(game.id, alice.id)).tps == BLACK_TO_MOVE
        await services.games.resign(game.id, alice.id)
        rematch = await services.challenges.rematch(game.id, bob)
        assert rematch.setup.start_tps == BLACK_TO_MOVE and not rematch.setup.rated
    finally:
        await services.close()


async def test_every_game_of_a_match_from_a_tps_starts_there_with_the_colours_swapped(
    services: Services, alice: PlayerRef, bob: PlayerRef
) -> None:
    offer = await challenge(services, alice, bob, start_tps=BLACK_TO_MOVE, colour="white", games=2)
    first = (await services.challenges.accept(offer.id, bob)).game
    ending = (await play(services, first.id, "d4 d5 e4"))[-1].ending
    assert ending is not None and ending.next_game is not None
    second = ending.next_game
    assert (second.white, second.black) == (bob, alice)
    assert second.setup.start_tps == BLACK_TO_MOVE and second.tps == BLACK_TO_MOVE
    assert second.ply == 7 and second.player_to_move == alice and not second.setup.rated


async def test_games_from_a_tps_keep_the_database_consistent_for_check(
    services, alice, bob
) -> None:
    """`check`'s rule that a game's ply is where its live moves lead holds for a game set up from
    a TPS (ply 7, no move), after its moves and after an undo."""
    offer = await challenge(services, alice, bob, start_tps=BLACK_TO_MOVE, colour="white")
    game = (await services.challenges.accept(offer.id, bob)).game
    plain = await start_game(services)

    async def broken() -> dict[str, int]:
        counts = {}
        version = await services.db.schema_version()
        for check in applicable({"games", "moves", "wallets", "stakes", "ledger"}, version):
            row = await services.db.fetchone(check.query)
            assert row is not None
            counts[check.broken] = int(row[0])
        return {what: count for what, count in counts.items() if count}

    assert await broken() == {}
    await play(services, game.id, "e1 d5")
    await play(services, plain.id, "a1 e5 c3")
    assert await broken() == {}
    await services.games.request_undo(game.id, alice.id)
    await services.games.accept_undo(game.id, bob.id)
    assert await broken() == {}
