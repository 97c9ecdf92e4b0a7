"""Two bot processes on one database file: a position cached in one is never used once the other
has changed the game, even when the change leads back to the same ply and TPS along another
history (a transposition). The other process is a real subprocess, or a second set of services
with its own connection and cache where the test looks inside a move."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from bot.services import Services
from bot.timekeeping.clock import FakeClock
from tak import parse_move

REPO = Path(__file__).resolve().parents[3]

CHILD = (
    "import asyncio, sys\n"
    "from tests.bot.play.test_service_two_processes import in_own_process\n"
    "asyncio.run(in_own_process(*sys.argv[1:]))\n"
)


async def take_steps(services: Services, game_id: int, steps: str) -> None:
    """Each step a move by the player to move, or "undo": the last mover asks, the other
    accepts."""
    for step in steps.split():
        game = await services.games.get(game_id)
        if step == "undo":
            await services.games.request_undo(game_id, game.player(game.to_move.other).id)
            await services.games.accept_undo(game_id, game.player_to_move.id)
        else:
            await services.games.move(game_id, game.player_to_move.id, step, expected_ply=game.ply)


async def in_own_process(path: str, game_id: str, steps: str) -> None:
    """What the child process runs: its own services (connection and cache) on the file."""
    services = await Services.open(path, clock=FakeClock())
    try:
        await take_steps(services, int(game_id), steps)
    finally:
        await services.close()


def other_process(path: Path, game_id: int, steps: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", CHILD, str(path), str(game_id), steps],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        timeout=60,
    )


async def live_log(services: Services, game_id: int) -> list[str]:
    rows = await services.db.fetchall(
        "SELECT ptn FROM moves WHERE game_id = ? AND undone_at IS NULL ORDER BY ply", (game_id,)
    )
    return [row["ptn"] for row in rows]


async def test_an_undo_over_a_transposition_made_by_another_process(
    services, new_game, db_path
) -> None:
    """This process plays a1 e5 b2 d4 c3 d3 and caches the position. The other undoes four
    plies and plays c3 d4 b2 d3: the same ply and TPS, another history. Taking back two plies
    here must take back the other's d3 and b2, leaving a1 e5 c3 d4 in the row and the log,
    and a game both processes go on playing."""
    game = await new_game()
    await take_steps(services, game.id, "a1 e5 b2 d4 c3 d3")
    transposed = await services.games.get(game.id)

    child = other_process(db_path, game.id, "undo undo undo undo c3 d4 b2 d3")
    assert child.returncode == 0, child.stderr
    stored = await services.games.get(game.id)
    assert (stored.ply, stored.tps) == (transposed.ply, transposed.tps)
    assert await live_log(services, game.id) == ["a1", "e5", "c3", "d4", "b2", "d3"]

    await take_steps(services, game.id, "undo undo")
    stored = await services.games.get(game.id)
    assert await live_log(services, game.id) == ["a1", "e5", "c3", "d4"]
    assert stored.tps == (await services.lookup.record(game.id)).final_position().tps()
    assert stored.last_move == "d4"
    position = await services.games.position(game.id)
    assert position.tps() == stored.tps and position.last_move.ptn() == "d4"

    child = other_process(db_path, game.id, "b2 a2")
    assert child.returncode == 0, child.stderr
    await take_steps(services, game.id, "e4 undo e2")
    stored = await services.games.get(game.id)
    assert await live_log(services, game.id) == ["a1", "e5", "c3", "d4", "b2", "a2", "e2"]
    assert stored.tps == (await services.lookup.record(game.id)).final_position().tps()
    assert (await services.games.position(game.id)).tps() == stored.tps


async def test_the_quick_path_does_not_move_on_from_a_transposed_history(
    services, new_game, db_path, clock
) -> None:
    """The other process plays c3 d3 b2 d4 where this one cached b2 d4 c3 d3: the same ply and
    TPS, d4 last instead of d3. The cached game must not take the quick path (its history is
    not the stored one), and taking back e1 and then the other's d4 here leaves b2 last."""
    game = await new_game()
    await take_steps(services, game.id, "a1 e5 b2 d4 c3 d3")
    other = await Services.open(db_path, clock=clock)
    try:
        await take_steps(other, game.id, "undo undo undo undo c3 d3 b2 d4")
    finally:
        await other.close()
    outcome = await services.games.move(game.id, game.white.id, "e1", expected_ply=6)
    assert [m.ptn() for m in outcome.position.moves] == ["e1"]  # loaded, not the cache's
    assert (await services.games.position(game.id)).last_move == parse_move("e1")
    await take_steps(services, game.id, "undo undo")
    assert await live_log(services, game.id) == ["a1", "e5", "c3", "d3", "b2"]
    stored = await services.games.get(game.id)
    assert stored.tps == (await services.lookup.record(game.id)).final_position().tps()
    assert (await services.games.position(game.id)).last_move == parse_move("b2")
