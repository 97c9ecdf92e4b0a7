"""Fair use through the real discord.py (issue 23): each refusal of `/game analysis`, `/tak play`
and `/tak challenge` to the bot says when to ask again or what to finish first, and a game ended
by the ply limit says why under its ending. The limits are set low here (settings)."""

from __future__ import annotations

import pytest
import simcord

from bot.computer import analysis_queue as analysis_module
from bot.play import service as games_module
from bot.work.fair_use import FairUse
from tests.bot.work.test_fair_use import walking_plies
from tests.cogs.commands.test_tournament import WHITE_ROAD
from tests.cogs.conftest import World

FAIR = FairUse(
    analyses_per_player=1,
    analyses_per_server=2,
    bot_games_per_player=1,
    bot_games_per_server=2,
    analysis_max_minutes=1,
)


@pytest.fixture
def simcord_bot(new_bot):
    # 10,000 positions a ply: 5 s a ply, so a minute takes games of up to 12 plies.
    return new_bot(fair_use=FAIR, analysis_nodes=10_000)


@pytest.fixture(autouse=True)
def time_to_think(world: World) -> None:
    world.env.settle_timeout = 30.0  # the bot's moves: a worker process, spawned on first use


async def road_game(world: World) -> int:
    """Alice beats Bob by road on 3x3 in 5 plies; returns the game's number."""
    thread = await world.start_game(size=3)
    for number, move in enumerate(WHITE_ROAD.split()):
        await world.move(world.alice if number % 2 == 0 else world.bob, thread, move)
    game = await world.env.bot.services.lookup.game_in_thread(thread.id, world.guild.id)
    assert game is not None and not game.is_active
    return game.id


async def test_analysis_refusals_say_when_to_ask_again_or_why(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    await world.env.bot.get_cog("AnalysisCog").close()  # nothing is worked: all stays queued
    first, second, third = [await road_game(world) for _ in range(3)]
    queued = await world.alice.slash(world.channel, "game analysis", game=first)
    assert queued.response.content.startswith(f"Analysis of game #{first} queued")

    mine = await world.alice.slash(world.channel, "game analysis", game=second)
    assert mine.ephemeral
    assert mine.response.content == (
        f"You have 1 analysis queued (#{first}), the most a player may have at once: "
        "ask again once the first is posted, in about 25 s."
    )
    await world.bob.slash(world.channel, "game analysis", game=second)
    server = await world.carol.slash(world.channel, "game analysis", game=third)
    assert server.response.content == (
        "This server has 2 analyses queued, the most it may have at once: "
        "ask again once the next is posted, in about 25 s."
    )
    assert await world.env.bot.services.analysis.get(third) is None

    thread = await world.start_game(size=5)
    services = world.env.bot.services
    long_game = (await services.lookup.game_in_thread(thread.id, world.guild.id)).id
    for number, move in enumerate(walking_plies(14)):
        await world.move(world.alice if number % 2 == 0 else world.bob, thread, move)
    await services.games.resign(long_game, world.bob.id)
    await world.env.settle()
    too_long = await world.carol.slash(world.channel, "game analysis", game=long_game)
    assert too_long.response.content == (
        f"Game #{long_game} has 14 plies: its analysis would take about 70 s, more than the "
        "1 min this bot gives one game (games of up to 12 plies)."
    )
    # A game stored before games ended at the limit (a limit of 10 plies for the test).
    monkeypatch.setattr(analysis_module, "MAX_PLIES", 10)
    stored_before = await world.carol.slash(world.channel, "game analysis", game=long_game)
    assert stored_before.response.content == (
        f"Game #{long_game} has 14 plies: a game record holds at most 10 (games now end there), "
        "so it cannot be analysed."
    )


async def test_games_against_the_bot_past_the_limits_are_refused_with_what_to_finish(
    world: World,
) -> None:
    on = await world.alice.slash(world.channel, "tak play", level=1, size=3)
    assert "against me, level 1 (beginner), is on" in on.response.content
    again = await world.alice.slash(world.channel, "tak play", level=1, size=3)
    mine = (
        "You have 1 game against me going (#1), the most a player may have at once: "
        "finish or resign one first."
    )
    assert again.ephemeral and again.response.content == mine
    env = world.env
    bot_member = simcord.MemberActor(
        env, world.guild, simcord.UserHandle(env, env.backend.bot_user)
    )
    challenged = await world.alice.slash(world.channel, "tak challenge", opponent=bot_member)
    assert challenged.response.content == mine

    await world.bob.slash(world.channel, "tak play", level=1, size=3)
    server = await world.carol.slash(world.channel, "tak play", level=1, size=3)
    assert server.response.content == (
        "This server has 2 games against me going, the most it may have at once: "
        "try again when one of them ends."
    )
    rows = await env.bot.services.db.fetchall("SELECT id FROM challenges")
    assert len(rows) == 2  # the refused ones were never posted nor written


@pytest.mark.parametrize(
    ("setup", "winner", "count"),
    [
        ({"komi": 0}, "**alice** (white) wins (1-0)", "(White 2, Black 1)"),
        (  # a tie, which the antiquity tie rule gives to black
            {"komi": 1, "antiquity": True},
            "**bob** (black) wins (0-1)",
            "(White 2, Black 1, komi +1, with the antiquity tie rule (a tied flat count goes to "
            "black))",
        ),
    ],
)
async def test_a_game_ended_by_the_ply_limit_says_so(
    world: World, monkeypatch: pytest.MonkeyPatch, setup: dict[str, object], winner: str, count: str
) -> None:
    """With a limit of 8 plies for the test (2,000 in play): the flats decide, komi and the tie
    rule included."""
    monkeypatch.setattr(games_module, "MAX_PLIES", 8)
    thread = await world.start_game(size=5, **setup)
    for number, move in enumerate(walking_plies(8)):
        await world.move(world.alice if number % 2 == 0 else world.bob, thread, move)
    ending = world.last_bot_message(thread).content
    assert f"Game #1 is over. {winner}." in ending
    assert (
        "The game reached 8 plies, the longest a game may be: the flat count decides, as on a "
        f"full board {count}." in ending
    )
