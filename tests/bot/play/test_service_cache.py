"""The in-memory positions: a cached game moves with one statement, a stale cache is never used."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot import errors
from bot.play.service import GameService
from bot.services import Services
from bot.store import Database, load_migrations, to_db
from tak import Position
from tests.bot.conftest import ALICE, BOB
from tests.databases import transaction_class


async def test_a_cached_game_moves_without_reading_it_again(
    services, new_game, moves, monkeypatch
) -> None:
    """The quick path: one conditional update and its announcement, no read of the game or its
    move log; only the next player's reminder times are looked up (by primary key)."""
    game = await new_game()
    await moves(game.id, "a1")  # the game is now cached
    statements: list[str] = []
    statement_runner = transaction_class(services.db)
    for name in ("execute", "fetchall"):  # fetchone and insert go through fetchall
        original = getattr(statement_runner, name)

        async def recording(self, sql, params=(), _original=original):
            words = sql.split()
            table = words[3] if words[0] == "SELECT" else words[2]
            statements.append(words[0] + " " + table)
            return await _original(self, sql, params)

        monkeypatch.setattr(statement_runner, name, recording)
    for turn, text in enumerate(["e5", "c3", "d4"]):
        statements.clear()
        await services.games.move(game.id, (game.black, game.white)[turn % 2].id, text)
        expected = ["SELECT reminder_offsets", "UPDATE SET", "INSERT outbox"]
        assert statements == expected, statements
    outcome = (await moves(game.id, "e4"))[-1]
    assert outcome.game == await services.games.get(game.id)
    assert [m.ptn() for m in outcome.position.moves] == ["a1", "e5", "c3", "d4", "e4"]


async def test_a_change_behind_the_cache_is_noticed(services, new_game, moves, clock) -> None:
    """Another process (a second service here) undoes a move and plays another in its place:
    the first service's cache has the same ply but not the same position."""
    game = await new_game()
    await moves(game.id, "a1 e5 c3")
    other = GameService(services.db, clock)
    await other.request_undo(game.id, game.white.id)
    await other.accept_undo(game.id, game.black.id)
    await other.move(game.id, game.white.id, "b2", expected_ply=2)
    # The first service still caches ply 3 with c3; black's reply must see b2 instead.
    with pytest.raises(errors.IllegalMove):
        await services.games.move(game.id, game.black.id, "b2", expected_ply=3)
    outcome = await services.games.move(game.id, game.black.id, "c3", expected_ply=3)
    assert [m.ptn() for m in outcome.position.moves] == ["c3"]  # loaded from the stored TPS
    assert outcome.game == await services.games.get(game.id)
    assert outcome.position.tps() == (await services.lookup.record(game.id)).final_position().tps()


@pytest.mark.sqlite_only
async def test_a_game_logged_before_the_log_kept_positions_is_replayed(db_path, clock) -> None:
    """Moves logged before migration 0005 have no TPS: such a game still loads, moves and
    takes back moves, replaying its log where a TPS is missing."""
    migrations = load_migrations()
    old = await Database.open(db_path, migrations=migrations[:4])
    # The game as the code of then wrote it (today's code writes columns added since).
    position = Position(5, komi=2)
    now = to_db(clock.now())
    for player in (ALICE, BOB):
        await old.write_one(
            "INSERT INTO players (id, name, created_at, updated_at) VALUES (?, ?, ?, ?)",
            (player.id, player.name, now, now),
        )
    [row] = await old.write_one(
        "INSERT INTO games (guild_id, channel_id, white_id, black_id, size, komi, opening, "
        "stones1, stones2, caps1, caps2, rated, days_per_move, tps, deadline_at, created_at) "
        "VALUES (1, 2, ?, ?, 5, 2, 'swap', 21, 21, 1, 1, 1, 3, ?, ?, ?) RETURNING id",
        (ALICE.id, BOB.id, position.tps(), to_db(clock.now() + timedelta(days=3)), now),
    )
    game_id = row[0]
    for ply, text in enumerate(["a1", "e5", "c3", "c4"]):  # as the code of then wrote them
        position.play(text)
        await old.write_one(
            "UPDATE games SET ply = ?, tps = ?, last_ptn = ?, last_player_id = ?, "
            "last_move_at = ? WHERE id = ?",
            (ply + 1, position.tps(), text, (ALICE, BOB)[ply % 2].id, to_db(clock.now()), game_id),
        )
    await old.close()

    services = await Services.open(db_path, clock=clock)
    try:
        assert (await services.games.position(game_id)).tps() == position.tps()
        await services.games.move(game_id, ALICE.id, "d3", expected_ply=4)
        await services.games.request_undo(game_id, ALICE.id)  # takes back d3
        await services.games.accept_undo(game_id, BOB.id)
        await services.games.request_undo(game_id, BOB.id)  # and c4
        rewound = await services.games.accept_undo(game_id, ALICE.id)
        assert (rewound.ply, rewound.last_move) == (3, "c3")
        position.pop()
        assert rewound.tps == position.tps()
        outcome = await services.games.move(game_id, BOB.id, "b4", expected_ply=3)
        position.play("b4")
        assert outcome.game.tps == position.tps()
    finally:
        await services.close()


async def test_refusals_on_a_cached_game_are_the_precise_ones(services, new_game, moves) -> None:
    game = await new_game()
    await moves(game.id, "a1")
    with pytest.raises(errors.NotYourTurn):
        await services.games.move(game.id, game.white.id, "b2")
    with pytest.raises(errors.PositionChanged):
        await services.games.move(game.id, game.black.id, "b2", expected_ply=0)
    with pytest.raises(errors.IllegalMove, match="occupied"):
        await services.games.move(game.id, game.black.id, "a1")
    assert (await services.games.get(game.id)).ply == 1
