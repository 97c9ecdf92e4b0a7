"""Games against the bot, at the service level: the bot accepts, chooses in a worker process and
plays through the normal move path; a stale move is refused; a restart picks the turn up."""

from __future__ import annotations

import os
import random
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.computer import analyst as analyst_module
from bot.computer.analysis_queue import AnalysisStatus
from bot.computer.analyst import Analyst
from bot.computer.opponent import DEFAULT_LEVEL
from bot.computer.player import BotPlayer, Thinker
from bot.players.model import PlayerRef
from bot.services import Services
from bot.settings import DEFAULT_BOT_MOVETIME_MS, Settings, SettingsError
from bot.store import Database, load_migrations
from bot.timekeeping.clock import FakeClock
from tak import Position
from tak.engine import BUILTIN, builtin_choose
from tak.search import MAX_LEVEL, Limits
from tests.bot.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD
from tests.bot.setups import create_bot_challenge, create_challenge

BREDON = PlayerRef(999, "Bredon")
FAKE_ENGINE = Path(__file__).parents[2] / "tak" / "fake_tei_engine.py"


@pytest.fixture
async def thinker() -> AsyncIterator[Thinker]:
    made = Thinker(workers=1, movetime_ms=500)
    yield made
    await made.close()


def bot_player(services: Services, thinker: Thinker, changes: list[str]) -> BotPlayer:
    return BotPlayer(services.opponent, thinker, BREDON, lambda: changes.append("change"))


async def bot_moves(player: BotPlayer) -> None:
    """One look, and the moves it started, to the end."""
    for task in await player.look():
        await task


async def challenge_bot(services: Services, **options: object) -> int:
    options.setdefault("size", 4)
    options.setdefault("player", ALICE)
    challenge = await create_bot_challenge(
        services, guild_id=GUILD, channel_id=CHANNEL, bot=BREDON, **options
    )
    return challenge.id


async def test_the_bot_accepts_and_opens_as_white(services: Services, thinker: Thinker) -> None:
    challenge_id = await challenge_bot(services, level=2, colour="black")
    changes: list[str] = []
    await bot_moves(bot_player(services, thinker, changes))

    challenge = await services.challenges.get(challenge_id)
    assert challenge.status.value == "accepted" and challenge.game_id is not None
    game = await services.games.get(challenge.game_id)
    assert game.white == BREDON and game.black == ALICE
    assert not game.setup.rated  # games against the bot never count for the ratings
    assert await services.opponent.level_of(game.id) == 2
    assert game.ply == 1 and game.last_move is not None
    replayed = Position(4)
    replayed.play(game.last_move)  # a legal first move, placed as the rules say
    assert replayed.tps() == game.tps
    assert changes == ["change", "change"]  # the acceptance, then the move


async def test_the_bot_answers_each_move_until_the_end(
    services: Services, thinker: Thinker
) -> None:
    challenge_id = await challenge_bot(services, level=1, colour="white", size=3)
    player = bot_player(services, thinker, [])
    await bot_moves(player)
    game_id = (await services.challenges.get(challenge_id)).game_id
    assert game_id is not None
    rng = random.Random(5)
    game = await services.games.get(game_id)
    while game.is_active:
        assert game.player_to_move == ALICE
        position = await services.games.position(game_id)
        move = rng.choice(position.legal_moves()).ptn()
        await services.games.move(game_id, ALICE.id, move, expected_ply=game.ply)
        await bot_moves(player)
        game = await services.games.get(game_id)
    assert game.result is not None and game.ply >= 5


async def test_a_move_chosen_twice_is_played_once(services: Services, thinker: Thinker) -> None:
    challenge_id = await challenge_bot(services, level=1, colour="black")
    await services.opponent.accept_waiting(BREDON)
    game_id = (await services.challenges.get(challenge_id)).game_id
    assert game_id is not None
    turn = await services.opponent.turn(game_id, BREDON.id)
    assert turn is not None
    again = await services.opponent.turn(game_id, BREDON.id)  # another process, a retry
    assert again is not None
    choice = await thinker.choose(turn)
    assert choice.chosen_by == BUILTIN
    assert await services.opponent.play(turn, BREDON.id, choice.move.ptn()) is not None
    assert await services.opponent.play(again, BREDON.id, choice.move.ptn()) is None
    game = await services.games.get(game_id)
    assert game.ply == 1
    assert await services.opponent.turn(game_id, BREDON.id) is None  # Alice's turn now
    rows = await services.db.fetchall("SELECT ply FROM moves WHERE game_id = ?", (game_id,))
    assert [row["ply"] for row in rows] == [1]


async def test_a_restart_picks_up_the_bots_turn(
    db_path: Path, clock: FakeClock, thinker: Thinker
) -> None:
    before = await Services.open(db_path, clock=clock)
    challenge_id = await challenge_bot(before, level=3, colour="white")
    await before.opponent.accept_waiting(BREDON)
    game_id = (await before.challenges.get(challenge_id)).game_id
    assert game_id is not None
    await before.games.move(game_id, ALICE.id, "a1", expected_ply=0)
    await before.close()  # the bot stops before it moves

    after = await Services.open(db_path, clock=clock)
    try:
        assert await after.opponent.games_to_move(BREDON.id, 10) == [(game_id, ALICE.id)]
        await bot_moves(bot_player(after, thinker, []))
        game = await after.games.get(game_id)
        assert game.ply == 2 and game.player_to_move == ALICE
        assert await after.opponent.games_to_move(BREDON.id, 10) == []
    finally:
        await after.close()


async def test_a_game_of_each_player_is_thought_about_the_searches_in_turn(
    services: Services, thinker: Thinker
) -> None:
    for challenger in (ALICE, BOB, CAROL, ALICE):  # one game of a player at a time
        await challenge_bot(services, level=1, colour="black", player=challenger)
    player = bot_player(services, thinker, [])
    started = await player.look()
    assert len(started) == 3  # on one worker, in turn; Alice's second game waits
    for task in started:
        await task
    assert len(await services.opponent.games_to_move(BREDON.id, 10)) == 1
    await bot_moves(player)
    assert await services.opponent.games_to_move(BREDON.id, 10) == []


async def test_a_rematch_keeps_the_level_and_a_bare_challenge_gets_the_default(
    services: Services, alice: PlayerRef
) -> None:
    challenge_id = await challenge_bot(services, level=5, colour="white")
    await services.opponent.accept_waiting(BREDON)
    game_id = (await services.challenges.get(challenge_id)).game_id
    assert game_id is not None
    await services.games.resign(game_id, alice.id)
    await services.challenges.rematch(game_id, alice)
    plain = await create_challenge(
        services, guild_id=GUILD, channel_id=CHANNEL, challenger=alice, opponent=BREDON, rated=False
    )
    accepted = await services.opponent.accept_waiting(BREDON)
    games = [acceptance.game for acceptance in accepted]
    assert [g.id for g in games if g is not None] == [game_id + 1, game_id + 2]
    assert accepted[1].challenge.id == plain.id
    assert await services.opponent.level_of(game_id + 1) == 5
    assert await services.opponent.level_of(game_id + 2) == DEFAULT_LEVEL


async def test_the_strongest_level_falls_back_to_our_own_player_when_the_engine_crashes(
    services: Services,
) -> None:
    engine = Thinker(workers=1, movetime_ms=200, engine=(sys.executable, str(FAKE_ENGINE), "crash"))
    try:
        await challenge_bot(services, level=MAX_LEVEL, colour="black")
        await services.opponent.accept_waiting(BREDON)
        [(game_id, _)] = await services.opponent.games_to_move(BREDON.id, 10)
        turn = await services.opponent.turn(game_id, BREDON.id)
        assert turn is not None
        choice = await engine.choose(turn)
        assert choice.chosen_by == BUILTIN and choice.engine_failure is not None
        assert turn.position.is_legal(choice.move)
    finally:
        await engine.close()


def test_engine_and_bot_settings() -> None:
    settings = Settings.from_mapping(
        {"BREDON_ENGINE": "tiltak tei --hash '64 MB'", "BREDON_BOT_WORKERS": "3"}
    )
    assert settings.engine == ("tiltak", "tei", "--hash", "64 MB")
    assert settings.bot_workers == 3 and settings.bot_movetime_ms == DEFAULT_BOT_MOVETIME_MS
    assert Settings.from_mapping({}).engine is None
    with pytest.raises(SettingsError, match="BREDON_BOT_WORKERS must be a whole number from 1"):
        Settings.from_mapping({"BREDON_BOT_WORKERS": "0"})
    with pytest.raises(SettingsError, match="BREDON_ENGINE must be a command line"):
        Settings.from_mapping({"BREDON_ENGINE": "tiltak 'tei"})


async def test_the_level_is_written_with_the_challenge_or_neither_is(
    services: Services, alice: PlayerRef
) -> None:
    """The bot accepts whatever open challenge it finds: one seen without its level would be
    played at the default level."""

    async def failing_write(tx: object, challenge: object) -> None:
        raise RuntimeError("the process stops here")

    with pytest.raises(RuntimeError):
        await create_challenge(services,
            guild_id=GUILD, channel_id=CHANNEL, challenger=alice, opponent=BREDON,
            rated=False, along=failing_write,
        )  # fmt: skip
    assert await services.opponent.accept_waiting(BREDON) == []
    challenge_id = await challenge_bot(services, level=MAX_LEVEL)
    [accepted] = await services.opponent.accept_waiting(BREDON)
    assert accepted.challenge.id == challenge_id and accepted.game is not None
    assert await services.opponent.level_of(accepted.game.id) == MAX_LEVEL


@pytest.mark.sqlite_only
async def test_challenges_at_the_old_levels_5_and_6_play_at_the_strongest_after_the_upgrade(
    db_path: Path, clock: FakeClock
) -> None:
    """Migration 0018: six levels became five (the old level 5 could not beat level 4 70%)."""
    migrations = load_migrations()
    [five_levels] = [m for m in migrations if m.name == "0018_five_bot_levels"]
    older = await Database.open(db_path, migrations=migrations[: five_levels.version - 1])
    # Rows as a bot of that schema stored them (today's code writes columns it did not have).
    async with older.transaction() as tx:
        for who in (ALICE, BREDON):
            await tx.execute(
                "INSERT INTO players (id, name, created_at, updated_at) VALUES (?, ?, ?, ?)",
                (who.id, who.name, "2024-01-01", "2024-01-01"),
            )
        ids = []
        for level in (3, 5, 6):
            ids.append(
                await tx.insert(
                    "INSERT INTO challenges (guild_id, channel_id, challenger_id, opponent_id, "
                    "colour, size, komi, opening, days_per_move, games, rated, created_at, "
                    "expires_at) VALUES (?, ?, ?, ?, 'random', 6, 2, 'swap', 1, 1, 0, ?, ?)",
                    (GUILD, CHANNEL, ALICE.id, BREDON.id, "2024-01-01", "2024-01-02"),
                )
            )
            await tx.execute(
                "INSERT INTO bot_levels (challenge_id, level) VALUES (?, ?)", (ids[-1], level)
            )
    await older.close()
    upgraded = await Database.open(db_path)
    try:
        rows = await upgraded.fetchall("SELECT challenge_id, level FROM bot_levels ORDER BY 1")
        assert [(row["challenge_id"], row["level"]) for row in rows] == list(
            zip(ids, (3, MAX_LEVEL, MAX_LEVEL), strict=True)
        )
    finally:
        await upgraded.close()


async def test_a_worker_process_that_dies_does_not_stop_the_bot(
    services: Services, thinker: Thinker, caplog: pytest.LogCaptureFixture
) -> None:
    """A worker killed (the out-of-memory killer, a crash) breaks the whole process pool: the
    bot must start a new one, not fail every move from then on."""
    challenge_id = await challenge_bot(services, level=1, colour="black")
    player = bot_player(services, thinker, [])
    await bot_moves(player)  # the bot opens: its worker process is running
    game_id = (await services.challenges.get(challenge_id)).game_id
    assert game_id is not None
    for process in list(thinker._executor._processes.values()):
        os.kill(process.pid, signal.SIGKILL)
        process.join()
    await services.games.move(game_id, ALICE.id, "a1", expected_ply=1)
    await bot_moves(player)
    await bot_moves(player)  # a second look, if the first one found the pool broken
    game = await services.games.get(game_id)
    assert game.ply == 3 and game.player_to_move == ALICE


def kill_own_worker(*_args: object) -> None:
    """Work that kills the worker process running it, every time (pickled by name)."""
    os.kill(os.getpid(), signal.SIGKILL)


async def test_an_analysis_that_kills_its_worker_every_time_fails_instead_of_looping(
    services: Services, thinker: Thinker, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The work is tried on one new pool, then the analysis is marked failed (asking again
    queues it again); it is not left queued to kill the pools at every look."""
    challenge_id = await challenge_bot(services, level=1, colour="black")
    player = bot_player(services, thinker, [])
    await bot_moves(player)
    game_id = (await services.challenges.get(challenge_id)).game_id
    assert game_id is not None
    await services.games.move(game_id, ALICE.id, "a1", expected_ply=1)
    await services.games.resign(game_id, ALICE.id)
    await services.analysis.request(game_id, GUILD, ALICE.id)
    monkeypatch.setattr(analyst_module, "analyse_ptn", kill_own_worker)
    analyst = Analyst(services.analysis, thinker, lambda: None)
    await analyst.analyse(game_id)
    stored = await services.analysis.get(game_id)
    assert stored is not None and stored.status is AnalysisStatus.FAILED
    assert await services.analysis.queued(1) == []
    chosen = await thinker.run(builtin_choose, 1, 0, Position(4), Limits(depth=1))
    assert Position(4).is_legal(chosen.move)  # the pool that took the broken one's place works


async def test_a_challenge_to_the_bot_is_unrated_whatever_its_setup(services: Services) -> None:
    challenge = await create_bot_challenge(
        services, guild_id=GUILD, channel_id=CHANNEL, player=ALICE, bot=BREDON, level=1, rated=True
    )
    assert not challenge.setup.rated
    assert not (await services.challenges.get(challenge.id)).setup.rated


async def test_a_rating_asked_of_the_bot_from_a_position_is_let_go_not_refused(
    services: Services,
) -> None:
    """A person's game from a TPS asked rated is refused; the bot's service lets it go, as its
    games are never rated (its service decides, not the command)."""
    tps = "x3/x3/x2,1 2 1"
    challenge = await create_bot_challenge(
        services,
        guild_id=GUILD,
        channel_id=CHANNEL,
        player=ALICE,
        bot=BREDON,
        level=1,
        rated=True,
        start_tps=tps,
    )
    assert not challenge.setup.rated and challenge.setup.start_tps == tps
