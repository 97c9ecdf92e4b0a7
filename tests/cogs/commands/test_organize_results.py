"""Results by hand through the real discord.py: an organizer corrects a result (the reply, the
news in the tournament's channel, the standings and the log follow), and a real PlayTak game is
reported with its PTN file as a command attachment (a forged copy refused, nothing changed)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace

import pytest

from bot.games.model import GameStatus
from bot.players.model import PlayerRef
from bot.text_safety import MAX_MESSAGE
from bot.tournaments.corrections import LogEntry, LogKind
from cogs.words.result_messages import correction_news
from tests.cogs.commands.test_tournament import Club
from tests.cogs.conftest import World

REAL_GAME = Path(__file__).parents[2] / "tak" / "real_games" / "70709.ptn"


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
    assert len(await club.services.corrections.log(tournament.id)) == 1


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
    ptn = await club.services.lookup.ptn(game.id)
    assert "29. 3d2>12 2d3-" in ptn
    tournament = (await club.services.tournaments.in_guild(club.world.guild.id, live_only=False))[0]
    assert tournament.status.value == "finished" and tournament.winner is not None
    assert tournament.winner.id == alice.id


def test_a_long_correction_is_announced_in_whole_lines_within_a_message() -> None:
    """A knockout of 32 seeded again has a line per match: the news keeps whole lines, says how
    many are left for `/tournament log`, and fits Discord's 2,000 characters."""
    tournament = SimpleNamespace(name="Winter Cup")
    seeds = ", ".join(f"{seed}. <@{10**17 + seed}>" for seed in range(1, 33))
    matches = tuple(
        f"Round 8: game #{1000 + i} is stopped; <@{10**17 + i}> and <@{2 * 10**17 + i}> play "
        f"game #{2000 + i}."
        for i in range(16)
    )
    lines = (f"The knockout is seeded again from the corrected group tables: {seeds}.", *matches)
    entry = LogEntry(
        1,
        1,
        LogKind.CORRECTION,
        PlayerRef(1, "olga"),
        7,
        "R-0",
        "0-1",
        "misclick",
        lines,
        datetime(2026, 1, 1, tzinfo=UTC),
    )
    news = correction_news(tournament, entry)  # type: ignore[arg-type]
    assert len(news) <= MAX_MESSAGE
    shown = [line for line in news.splitlines() if line.startswith("- Round 8")]
    assert 0 < len(shown) < len(matches) and all(line[2:] in matches for line in shown)
    assert f"- {lines[0]}" in news
    assert f"… and {len(matches) - len(shown)} more lines: `/tournament log`." in news
    assert news.endswith("The standings follow: `/tournament standings`.")
    short = replace(entry, consequences=lines[:2])
    assert "more line" not in correction_news(tournament, short)  # type: ignore[arg-type]
