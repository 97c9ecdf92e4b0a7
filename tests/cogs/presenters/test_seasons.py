"""A season's news in a German server: the divisions of a season that starts, its end with the
division's winner, and a next season that cannot start for want of players."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.cogs.commands.test_season import League
from tests.cogs.conftest import World, advance


@pytest.fixture
async def league(world: World) -> League:
    return League(world)


async def test_a_seasons_news_in_the_servers_language(league: League) -> None:
    olga, alice, bob = league.olga, league.players[0], league.players[1]
    await olga.slash(league.channel, "bredon config", language="de")
    await olga.slash(
        league.channel,
        "organize season create",
        name="Ladder",
        division_size=3,
        period_days=1,
        movers=0,
        games=1,
        size=3,
        komi=0,
        days=1,
    )
    for player in (alice, bob):
        await player.slash(league.channel, "season join")
    await olga.slash(league.channel, "organize season start")
    [started] = [m for m in league.channel_posts() if m.content.startswith("Saison 1 von")]
    assert started.content.startswith("Saison 1 von **Ladder** hat begonnen: Divisionen mit etwa")
    assert started.embeds[0].title == "Saison 1: die Divisionen"
    assert started.embeds[0].fields[0].name == "Division 1"

    assert await league.play_round() == 1
    await advance(league.env, timedelta(days=1))
    over = league.channel_posts()[-1].content
    assert over.startswith("🏁 Saison 1 von **Ladder** ist zu Ende.")
    assert f"🏆 Division 1: {alice.mention} gewinnt." in over
    assert "Aufsteiger" not in over and "Absteiger" not in over  # nobody moves: one division

    left = await bob.slash(league.channel, "season leave")
    assert left.response.content == "You are no longer signed up for season 2 of **Ladder**."
    await advance(league.env, timedelta(days=1))
    assert league.channel_posts()[-1].content.startswith(
        "Saison 2 von **Ladder** kann nicht beginnen: Weniger als zwei Spieler"
    )
