"""Fair use of the shared work (issue 23), at the service level: the limits on queued analyses
and on games against the bot, each refusal saying when to try again or what to finish first;
the queues taking the players in turn; and one ply limit for a game's whole life, from the move
that reaches it to the exported, viewed and analysed record."""

from __future__ import annotations

import asyncio
import itertools
import threading

import pytest

from bot.computer import analysis_queue as analysis_module
from bot.computer.analysis_queue import TooLongToAnalyse, TooManyAnalyses
from bot.computer.analyst import analyse_ptn
from bot.computer.opponent import TooManyBotGames
from bot.computer.player import BotPlayer, Thinker
from bot.errors import GameOver
from bot.players.model import PlayerRef
from bot.services import Services
from bot.settings import Settings, SettingsError
from bot.work.fair_slots import WorkerShares
from bot.work.fair_use import DEFAULT_FAIR_USE, FairUse, listed
from tak import Color, Result, ResultKind
from tak.engine import BUILTIN
from tak.ptn import MAX_PLIES, Game
from tak.search import MAX_LEVEL
from tests.bot.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, play, start_game
from tests.bot.setups import create_bot_challenge, create_challenge

BREDON = PlayerRef(999, "Bredon")
OTHER_GUILD = GUILD + 1


async def finished_game(services: Services, plies: str = "a1 e5 c3") -> int:
    """A game of Alice and Bob with a few moves, resigned by Bob."""
    game = await start_game(services)
    await play(services, game.id, plies)
    await services.games.resign(game.id, BOB.id)
    return game.id


async def test_a_player_may_queue_so_many_analyses_and_is_told_when_to_ask_again(
    services: Services,
) -> None:
    games = [await finished_game(services) for _ in range(4)]
    for game_id in games[:3]:
        assert (await services.analysis.request(game_id, GUILD, ALICE.id)).new
    with pytest.raises(TooManyAnalyses) as refused:
        await services.analysis.request(games[3], GUILD, ALICE.id)
    assert refused.value.message == (
        "You have 3 analyses queued (#1, #2, #3), the most a player may have at once: "
        "ask again once the first is posted, in about 5 s."
    )
    assert await services.analysis.get(games[3]) is None  # nothing changed
    # Asking about one already queued is no new work: answered, never refused.
    again = await services.analysis.request(games[0], GUILD, ALICE.id)
    assert not again.new
    # Another player still may.
    assert (await services.analysis.request(games[3], GUILD, BOB.id)).new


async def test_a_server_may_queue_so_many_analyses(services: Services) -> None:
    fair = FairUse(analyses_per_server=2)
    games = [await finished_game(services) for _ in range(3)]
    await services.analysis.request(games[0], GUILD, ALICE.id, fair_use=fair)
    await services.analysis.request(games[1], GUILD, BOB.id, fair_use=fair)
    with pytest.raises(TooManyAnalyses) as refused:
        await services.analysis.request(games[2], GUILD, CAROL.id, fair_use=fair)
    assert refused.value.message == (
        "This server has 2 analyses queued, the most it may have at once: "
        "ask again once the next is posted, in about 5 s."
    )


async def test_the_analysis_queue_takes_the_players_in_turn(services: Services) -> None:
    alices = [await finished_game(services) for _ in range(3)]
    bobs = await finished_game(services)
    for game_id in alices:
        await services.analysis.request(game_id, GUILD, ALICE.id)
    bob = await services.analysis.request(bobs, GUILD, BOB.id)
    assert bob.ahead == 1  # Alice's first only, not all three
    assert await services.analysis.queued(10) == [alices[0], bobs, alices[1], alices[2]]
    findings = analyse_ptn(await services.analysis.record(alices[0]), 50, None, BUILTIN)
    assert await services.analysis.finish(alices[0], findings)
    # Alice was served last: Bob's goes next, however many Alice has waiting.
    assert await services.analysis.queued(10) == [bobs, alices[1], alices[2]]


async def test_an_analysis_longer_than_allowed_is_refused_up_front_with_the_limit(
    services: Services,
) -> None:
    game_id = await finished_game(services, " ".join(walking_plies(14)))
    slow = FairUse(analysis_max_minutes=1)
    with pytest.raises(TooLongToAnalyse) as refused:
        # 10,000 positions a ply: 5 s a ply, so 14 plies take 70 s.
        await services.analysis.request(game_id, GUILD, ALICE.id, fair_use=slow, nodes=10_000)
    assert refused.value.message == (
        "Game #1 has 14 plies: its analysis would take about 70 s, more than the 1 min this "
        "bot gives one game (games of up to 12 plies)."
    )
    assert await services.analysis.get(game_id) is None


async def test_a_game_longer_than_a_record_is_refused_up_front(
    services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game stored before games ended at the limit (here: a limit of 2 plies for the test)."""
    game_id = await finished_game(services)
    monkeypatch.setattr(analysis_module, "MAX_PLIES", 2)
    with pytest.raises(TooLongToAnalyse) as refused:
        await services.analysis.request(game_id, GUILD, ALICE.id)
    assert refused.value.message == (
        "Game #1 has 3 plies: a game record holds at most 2 (games now end there), "
        "so it cannot be analysed."
    )


async def challenge_bot(services: Services, player: PlayerRef, **options: object) -> int:
    challenge = await create_bot_challenge(
        services,
        guild_id=options.pop("guild_id", GUILD),  # type: ignore[arg-type]
        channel_id=CHANNEL,
        player=player,
        bot=BREDON,
        level=1,
        size=4,
        **options,  # type: ignore[arg-type]
    )
    return challenge.id


async def test_a_player_may_have_so_many_games_against_the_bot_and_is_told_which(
    services: Services,
) -> None:
    for _ in range(3):
        await challenge_bot(services, ALICE)
    with pytest.raises(TooManyBotGames) as refused:
        await challenge_bot(services, ALICE)
    assert refused.value.message == (
        "You have 3 games against me going (challenge #1, challenge #2, challenge #3), the most "
        "a player may have at once: finish or resign one first."
    )
    await services.opponent.accept_waiting(BREDON)
    with pytest.raises(TooManyBotGames) as refused:
        await challenge_bot(services, ALICE)  # now counted as games
    assert "(#1, #2, #3)" in refused.value.message
    await challenge_bot(services, BOB)  # another player may
    with pytest.raises(TooManyBotGames):  # the share is a player's, in all their servers
        await challenge_bot(services, ALICE, guild_id=OTHER_GUILD)
    await services.games.resign(1, ALICE.id)
    await challenge_bot(services, ALICE, guild_id=OTHER_GUILD)  # one ended: room for one more


async def test_a_server_may_have_so_many_games_against_the_bot(services: Services) -> None:
    fair = FairUse(bot_games_per_server=2)
    await challenge_bot(services, ALICE, fair_use=fair)
    await challenge_bot(services, BOB, fair_use=fair)
    with pytest.raises(TooManyBotGames) as refused:
        await challenge_bot(services, CAROL, fair_use=fair)
    assert refused.value.message == (
        "This server has 2 games against me going, the most it may have at once: "
        "try again when one of them ends."
    )
    rows = await services.db.fetchall("SELECT id FROM challenges")
    assert len(rows) == 2  # the refused one was not written
    await challenge_bot(services, CAROL, fair_use=fair, guild_id=OTHER_GUILD)  # another server


async def test_a_challenge_past_the_limit_made_another_way_is_declined(
    services: Services,
) -> None:
    """A challenge to the bot made without its service (a rematch): the bot declines what it
    cannot take."""
    for _ in range(3):
        await challenge_bot(services, ALICE)
    plain = await create_challenge(
        services, guild_id=GUILD, channel_id=CHANNEL, challenger=ALICE, opponent=BREDON, rated=False
    )
    accepted = await services.opponent.accept_waiting(BREDON)
    assert len(accepted) == 3
    assert (await services.challenges.get(plain.id)).status.value == "declined"


async def bot_to_move_everywhere(services: Services, players: list[PlayerRef]) -> None:
    """A game against the bot for each of `players` (in that order), each opened by the player."""
    fair = FairUse(bot_games_per_player=10)
    for player in players:
        await challenge_bot(services, player, colour="white", fair_use=fair)
    await services.opponent.accept_waiting(BREDON, fair)
    for game_id, player in enumerate(players, start=1):
        await services.games.move(game_id, player.id, "a1")


async def started_games(player: BotPlayer) -> list[int]:
    """The games one look starts thinking in, thought to the end."""
    started = await player.look()
    for task in started:
        await task
    return sorted(int(task.get_name().rsplit("-", 1)[1]) for task in started)


async def test_the_bot_thinks_about_one_game_of_a_player_at_a_time(services: Services) -> None:
    await bot_to_move_everywhere(services, [ALICE] * 5 + [BOB])
    # Alice's longest-waiting game and Bob's: not Alice's first two, nor all five.
    assert await services.opponent.games_to_move(BREDON.id, 3) == [(1, ALICE.id), (6, BOB.id)]
    thinker = Thinker(workers=2, movetime_ms=500)
    try:
        assert await started_games(BotPlayer(services.opponent, thinker, BREDON, lambda: None)) == [
            1,
            6,
        ]
    finally:
        await thinker.close()
    assert await services.opponent.games_to_move(BREDON.id, 3) == [(2, ALICE.id)]


async def test_the_bot_takes_the_players_in_turn_not_the_longest_waiting_game(
    services: Services,
) -> None:
    await bot_to_move_everywhere(services, [ALICE, ALICE, ALICE, BOB])
    thinker = Thinker(workers=1, movetime_ms=500)
    try:
        player = BotPlayer(services.opponent, thinker, BREDON, lambda: None)
        # Alice's second game waits longer than Bob's, but Bob's comes first: one game of a
        # player at a time, the longest waiting of each.
        assert await started_games(player) == [1, 4]
        assert await started_games(player) == [2]
        assert await started_games(player) == [3]
    finally:
        await thinker.close()


def walking_plies(count: int) -> list[str]:
    """A 5x5 game that never ends on the board: the opening flats, a White flat at c3, then
    each side walks its flat up and down the edge for ever."""
    walks = itertools.cycle(["a1+", "e5-", "a2-", "e4+"])
    return ["a1", "e5", "c3", *itertools.islice(walks, count - 3)]


async def test_a_game_ends_at_the_ply_limit_and_its_record_is_read_and_analysed(
    services: Services,
) -> None:
    game = await start_game(services, komi=0)
    plies = walking_plies(MAX_PLIES)
    for ply, move in enumerate(plies[:-1]):
        player = ALICE if ply % 2 == 0 else BOB
        outcome = await services.games.move(game.id, player.id, move)
        assert outcome.ending is None
    last = await services.games.move(game.id, BOB.id, plies[-1])
    assert last.ending is not None and last.position.result is None  # the board goes on
    # White has two flats to Black's one: White wins on the count, written 1-0.
    assert last.ending.result == Result(Color.WHITE, ResultKind.OTHER)
    ended = await services.games.get(game.id)
    assert not ended.is_active and ended.plies_played == MAX_PLIES
    with pytest.raises(GameOver):
        await services.games.move(game.id, ALICE.id, "e4+")

    record = Game.parse(await services.lookup.ptn(game.id))  # exported, then viewed
    assert len(record.plies) == MAX_PLIES and record.result is not None
    assert record.result.ptn() == "1-0"
    queued = await services.analysis.request(game.id, GUILD, ALICE.id)  # at the defaults
    assert queued.new and queued.estimate_seconds == MAX_PLIES * 0.5
    assert DEFAULT_FAIR_USE.analysis_max_minutes * 60 >= queued.estimate_seconds


def test_the_limits_are_settings() -> None:
    assert Settings.from_mapping({}).fair_use == DEFAULT_FAIR_USE
    set_ = Settings.from_mapping(
        {"BREDON_BOT_GAMES_PER_PLAYER": "5", "BREDON_ANALYSIS_MAX_MINUTES": "90"}
    )
    assert set_.fair_use == FairUse(bot_games_per_player=5, analysis_max_minutes=90)
    with pytest.raises(SettingsError) as refused:
        Settings.from_mapping({"BREDON_ANALYSES_PER_SERVER": "0"})
    assert str(refused.value) == (
        "BREDON_ANALYSES_PER_SERVER must be a whole number from 1 to 10000."
    )


def test_a_refusal_names_a_few_games_however_high_the_limit() -> None:
    games = [f"#{number}" for number in range(1, 10_001)]  # the highest limit a server may set
    assert listed(games[:5]) == "#1, #2, #3, #4, #5"
    assert listed(games) == "#1, #2, #3, #4, #5 and 9,995 more"


async def test_long_jobs_leave_a_worker_to_short_ones_in_the_order_asked() -> None:
    shares = WorkerShares(2)
    order: list[str] = []
    release = {name: asyncio.Event() for name in ("long1", "long2", "short1", "short2")}

    async def job(name: str, *, long: bool) -> None:
        async with shares.share(long=long):
            order.append(name)
            await release[name].wait()

    tasks = [asyncio.create_task(job("long1", long=True))]
    await asyncio.sleep(0)
    tasks.append(asyncio.create_task(job("long2", long=True)))  # waits: one long at a time
    tasks.append(asyncio.create_task(job("short1", long=False)))  # takes the other worker
    tasks.append(asyncio.create_task(job("short2", long=False)))  # waits for a worker
    for _ in range(5):
        await asyncio.sleep(0)
    assert order == ["long1", "short1"]
    release["short1"].set()
    await tasks[2]
    assert order == ["long1", "short1", "short2"]  # not long2: the other worker is long1's
    release["short2"].set()
    release["long1"].set()
    await asyncio.gather(tasks[0], tasks[3])
    assert order[-1] == "long2"
    release["long2"].set()
    await tasks[1]


async def test_one_worker_takes_long_jobs_too() -> None:
    shares = WorkerShares(1)
    async with asyncio.timeout(60):
        async with shares.share(long=True):
            pass
        async with shares.share(long=False):
            pass


def think_forever() -> None:
    """A long job that never ends (a worker's work: pickled by name)."""
    threading.Event().wait()


async def test_a_beginner_move_is_chosen_while_long_searches_hold_their_share(
    services: Services,
) -> None:
    """Two long jobs (the strongest level's searches, analyses) never hold both workers: a
    level-1 move is chosen while they run and wait."""
    await bot_to_move_everywhere(services, [ALICE])
    thinker = Thinker(workers=2, movetime_ms=500)
    try:
        stuck = [asyncio.create_task(thinker.run(think_forever, long=True)) for _ in range(2)]
        turn = await services.opponent.turn(1, BREDON.id)
        assert turn is not None and turn.level < MAX_LEVEL
        async with asyncio.timeout(120):  # generous: only a worker held by them never answers
            choice = await thinker.choose(turn)
        assert turn.position.is_legal(choice.move)
        assert not any(task.done() for task in stuck)
    finally:
        await thinker.close()
    await asyncio.gather(*stuck, return_exceptions=True)
