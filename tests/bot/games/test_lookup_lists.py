"""Lists of games and game records: PTN with tags, TPS."""

from __future__ import annotations

import pytest

from bot import errors
from tak.ptn import Game
from tests.bot.setups import games_in_channel

ROAD_3X3 = "a3 a1 b1 b3 c1"


async def test_a_players_games_put_those_awaiting_their_move_first(
    services, new_game, moves, alice, bob, carol
) -> None:
    waiting_for_bob = await new_game()
    await moves(waiting_for_bob.id, "a1")
    waiting_for_alice = await new_game()
    finished = await new_game()
    await services.games.resign(finished.id, bob.id)
    assert [g.id for g in await services.lookup.games_for_player(alice.id)] == [
        waiting_for_alice.id,
        waiting_for_bob.id,
    ]
    assert [g.id for g in await services.lookup.games_for_player(bob.id)] == [
        waiting_for_bob.id,
        waiting_for_alice.id,
    ]
    assert await services.lookup.games_for_player(carol.id) == []


async def test_a_game_attached_to_a_thread_is_found_there(services, new_game) -> None:
    first = await new_game()
    second = await new_game()
    await services.games.attach(second.id, thread_id=555, message_id=777)
    in_channel = await games_in_channel(services, first.channel_id)
    assert [g.id for g in in_channel] == [first.id, second.id]
    in_thread = await games_in_channel(services, 555)
    assert [(g.id, g.thread_id, g.message_id) for g in in_thread] == [(second.id, 555, 777)]


async def test_finished_games_newest_first(services, clock, new_game, moves, carol) -> None:
    older = await new_game(size=3)
    await moves(older.id, ROAD_3X3)
    clock.advance(hours=1)
    newer = await new_game()
    await services.games.abort(newer.id, newer.white.id)
    await new_game()  # still being played
    listed = await services.lookup.finished_games(guild_id=older.guild_id)
    assert [g.id for g in listed] == [newer.id, older.id]
    assert await services.lookup.finished_games(player_id=carol.id) == []


async def test_ptn_has_full_tags_and_replays_to_the_stored_position(
    services, new_game, moves
) -> None:
    game = await new_game(size=3, komi=1.5, stones=8, caps=1)
    await moves(game.id, ROAD_3X3)
    text = await services.lookup.ptn(game.id)
    parsed = Game.parse(text)
    expected = {
        "Player1": "alice",
        "Player2": "bob",
        "Date": "2024.01.01",
        "Size": "3",
        "Komi": "1.5",
        "Opening": "swap",
        "Flats": "8",
        "Caps": "1",
        "Result": "R-0",
    }
    assert {name: parsed.tag(name) for name in expected} == expected
    assert parsed.result is not None and parsed.result.ptn() == "R-0"
    stored = await services.games.get(game.id)
    assert parsed.final_position().tps() == stored.tps
    assert await services.lookup.tps(game.id) == stored.tps


async def test_standard_reserves_get_no_flats_or_caps_tags(services, new_game, moves) -> None:
    game = await new_game(size=6)
    await moves(game.id, "a1 f6")
    parsed = Game.parse(await services.lookup.ptn(game.id))
    assert parsed.tag("Flats") is None and parsed.tag("Caps") is None
    assert parsed.tag("Result") is None and len(parsed.plies) == 2
    with pytest.raises(errors.UnknownGame):
        await services.lookup.ptn(424242)
    with pytest.raises(errors.UnknownGame):
        await services.lookup.tps(424242)
