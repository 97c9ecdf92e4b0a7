"""Results by hand through the real discord.py: an organizer corrects a result (the reply, the
news in the tournament's channel, the standings and the log follow), and a real PlayTak game is
reported with its PTN file as a command attachment (a forged copy refused, nothing changed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.services.views import GameStatus
from tests.discord.conftest import World
from tests.discord.test_discord_tournament import Club

REAL_GAME = Path(__file__).parents[1] / "engine" / "real_games" / "70709.ptn"


@pytest.fixture
async def club(world: World) -> Club:
    return Club(world)


async def test_an_organizer_corrects_a_result_and_everything_follows(club: Club) -> None:
    await club.sign_up_and_start(games=1)
    bob = club.players[1]
    for game in await club.active_games():
        await club.win(game, game.white.id)
    rows = await club.services.db.fetchall(
        "SELECT id FROM games WHERE status = 'finished' ORDER BY id"
    )
    game = await club.services.games.get(rows[0]["id"])
    assert game.winner == game.white
    [tournament] = await club.services.tournaments.in_guild(club.world.guild.id)
    before = await club.services.tournaments.standings(tournament.id)

    corrected = await club.olga.slash(
        club.channel, "organize correct", game=game.id, result="black", reason="wrong road"
    )

    assert corrected.ephemeral, corrected.response.content
    assert f"Game #{game.id} corrected to **0-1** (was R-0)" in corrected.response.content
    news = club.channel_posts()[-1].content
    assert "a result is corrected" in news and "wrong road" in news
    after = await club.services.tournaments.standings(tournament.id)
    scores = {row.player.id: row.standing.score for row in after}
    old = {row.player.id: row.standing.score for row in before}
    assert scores[game.black.id] == old[game.black.id] + 3
    assert scores[game.white.id] == old[game.white.id] - 3
    log = await bob.slash(club.channel, "tournament log")
    [embed] = log.response.embeds
    assert f"Game #{game.id} corrected to **0-1**" in (embed.description or "")
    refused = await club.olga.slash(
        club.channel, "organize correct", game=game.id, result="black", reason="again"
    )
    assert "already has the result 0-1" in refused.response.content
    assert len(await club.services.results.log(tournament.id)) == 1


async def test_a_playtak_game_reported_by_its_ptn_file_counts(club: Club) -> None:
    alice, bob = club.players[:2]
    created = await club.create(size=6, games=1)
    assert "is open for sign-up" in created.response.content
    for player in (alice, bob):
        await player.slash(club.channel, "tournament join")
    await club.olga.slash(club.channel, "organize start")
    [game] = await club.active_games()
    assert (game.white.id, game.black.id) == (alice.id, bob.id)
    real = REAL_GAME.read_bytes()

    forged = real.replace(b"29. 3d2>12 2d3-", b"29. 3d2>12 6d3-")
    refused = await bob.slash(
        club.channel, "tournament report", file=("forged.ptn", forged), white=bob
    )
    assert refused.ephemeral
    assert "Move 29" in refused.response.content, refused.response.content
    unchanged = await club.services.games.get(game.id)
    assert unchanged.status is GameStatus.ACTIVE and unchanged.ply == 0

    nameless = await bob.slash(club.channel, "tournament report", file=("70709.ptn", real))
    assert "with the `white` option" in nameless.response.content

    reported = await bob.slash(
        club.channel, "tournament report", file=("70709.ptn", real), white=bob
    )
    assert reported.ephemeral
    assert f"Game #{game.id} counts: **0-R**" in reported.response.content
    counted = await club.services.games.get(game.id)
    assert counted.status is GameStatus.FINISHED and counted.winner is not None
    assert counted.winner.id == alice.id  # NohatCoder, Player 2, is alice here
    assert (counted.white.id, counted.black.id) == (bob.id, alice.id)
    thread = club.thread(counted.thread_id)
    ending = club.world.last_bot_message(thread).content
    assert "reported this game" in ending
    ptn = await club.services.queries.ptn(game.id)
    assert "29. 3d2>12 2d3-" in ptn
    tournament = (await club.services.tournaments.in_guild(club.world.guild.id, live_only=False))[0]
    assert tournament.status.value == "finished" and tournament.winner is not None
    assert tournament.winner.id == alice.id
