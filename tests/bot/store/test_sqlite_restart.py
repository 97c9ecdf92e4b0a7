"""A process that dies mid-move leaves a file from which a new process resumes everything."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from datetime import timedelta
from pathlib import Path

from bot.games.model import ChallengeStatus, GameStatus, MatchStatus
from bot.players.model import PlayerRef
from bot.services import Services
from bot.timekeeping.clock import FakeClock
from tests.bot.conftest import with_announcements_delivered

REPO = Path(__file__).resolve().parents[3]

# Runs in a child process: builds state, then dies with a move half-way through its transaction.
CHILD = textwrap.dedent(
    """
    import asyncio, os, random, sys
    from bot.timekeeping.clock import FakeClock
    from bot.services import Services
    from tests.bot.setups import create_challenge
    from bot.players.model import PlayerRef
    from bot.play.service import GameService
    from tests.databases import transaction_class

    ALICE, BOB, CAROL = PlayerRef(101, "alice"), PlayerRef(202, "bob"), PlayerRef(303, "carol")

    async def main(path):
        s = await Services.open(path, clock=FakeClock(), rng=random.Random(1))
        open_challenge = await create_challenge(
            s,
            guild_id=1, channel_id=2, challenger=CAROL, size=4, komi=0.5
        )
        direct = await create_challenge(
            s,
            guild_id=1, channel_id=2, challenger=ALICE, opponent=BOB, colour="white", size=5
        )
        game = (await s.challenges.accept(direct.id, BOB)).game
        for ply, move in enumerate("a1 e5 c3 c2".split()):
            player = ALICE if ply % 2 == 0 else BOB
            await s.games.move(game.id, player.id, move, expected_ply=ply)
        await s.games.offer_draw(game.id, ALICE.id)
        match_challenge = await create_challenge(
            s,
            guild_id=1, channel_id=2, challenger=ALICE, opponent=CAROL, colour="white",
            size=3, games=3,
        )
        first = (await s.challenges.accept(match_challenge.id, CAROL)).game
        for ply, move in enumerate("a3 a1 b1 b3 c1".split()):
            player = ALICE if ply % 2 == 0 else CAROL
            await s.games.move(first.id, player.id, move, expected_ply=ply)
        print(open_challenge.id, game.id, first.id, first.match_id, flush=True)

        statement_runner = transaction_class(s.db)
        original = statement_runner.execute
        async def die_after_writing(self, sql, params=()):
            changed = await original(self, sql, params)
            if sql.startswith("UPDATE games"):
                os._exit(9)
            return changed
        statement_runner.execute = die_after_writing
        # A fresh service has no cached position, so the move runs in a transaction.
        fresh = GameService(s.db, s.clock)
        await fresh.move(game.id, ALICE.id, "d4", expected_ply=4)
        os._exit(0)  # not reached when the move dies as planned

    asyncio.run(main(sys.argv[1]))
    """
)


async def test_a_new_process_resumes_games_challenges_matches_and_deadlines(
    db_path: Path | str,
) -> None:
    path = db_path
    child = subprocess.run(
        [sys.executable, "-c", CHILD, str(path)],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert child.returncode == 9, child.stderr
    challenge_id, game_id, first_id, match_id = map(int, child.stdout.split())

    clock = FakeClock()
    services = with_announcements_delivered(await Services.open(path, clock=clock))
    try:
        # The game is where the last committed move left it; the half-written move is gone.
        game = await services.games.get(game_id)
        assert game.status is GameStatus.ACTIVE
        assert game.ply == 4 and game.draw_offer_by == 101
        position = await services.games.position(game_id)
        assert position.tps() == game.tps
        assert position.last_move is not None and position.last_move.ptn() == "c2"
        record = await services.lookup.record(game_id)
        assert [ply.move.ptn() for ply in record.plies] == ["a1", "e5", "c3", "c2"]
        clock.advance(days=1)
        outcome = await services.games.move(game_id, 101, "d4", expected_ply=4)
        assert outcome.ply == 5

        # The open challenge can still be taken.
        challenge = await services.challenges.get(challenge_id)
        assert challenge.status is ChallengeStatus.OPEN
        taken = await services.challenges.accept(challenge_id, PlayerRef(404, "dave"))
        assert taken.game.setup.size == 4 and taken.game.setup.komi == 0.5

        # The match counted game 1 and waits in game 2 with the colours swapped.
        match = await services.matches.get(match_id)
        assert match.status is MatchStatus.ACTIVE
        assert (match.games_played, match.points1, match.points2) == (1, 9 + 7, 0)
        first, second = await services.matches.games(match_id)
        assert first.id == first_id and first.result is not None
        assert first.result.ptn() == "R-0"
        assert second.match_game == 2 and second.white.id == 303 and second.is_active

        # Deadlines survived the crash. Game 2 of the match started when game 1 ended (day 0):
        # three days later nobody has moved in it, so it is aborted, and the match with it.
        assert not await services.deadlines.due()
        assert await services.deadlines.next_due_at() == second.reminder_at
        clock.advance(days=2, seconds=1)
        report = await services.deadlines.run_due()
        assert [e.game.id for e in report.endings] == [second.id]
        assert report.endings[0].result.ptn() == "0-0"
        assert report.endings[0].match is not None
        assert report.endings[0].match.status is MatchStatus.ABORTED
        # Bob's clock started with Alice's move on day 1: he loses on time on day 4.
        clock.advance(timedelta(days=1))
        report = await services.deadlines.run_due()
        ended = {e.game.id: e.result.ptn() for e in report.endings}
        assert ended == {game_id: "1-0", taken.game.id: "0-0"}
    finally:
        await services.close()
