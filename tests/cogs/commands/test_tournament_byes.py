"""Byes asked for in a Swiss through the real discord.py: what the round posts and the standings
say of them."""

from __future__ import annotations

import discord
import pytest

from tests.cogs.commands.test_tournament import Club, embed_titles
from tests.cogs.conftest import World


@pytest.fixture
async def club(world: World) -> Club:
    return Club(world)


def round_post(club: Club, title: str) -> discord.Embed:
    [embed] = [
        embed
        for message in club.channel_posts()
        for embed in message.embeds
        if embed.title == title
    ]
    return embed


async def play_the_round(club: Club) -> None:
    """White wins every game of the current round (one game a match)."""
    for game in await club.active_games():
        await club.win(game, game.white.id)


async def test_a_second_bye_is_announced_and_requested_byes_are_explained(club: Club) -> None:
    club.players.append(club.olga)  # five players
    await club.sign_up_and_start(format="swiss", swiss_rounds=4, games=1)
    await play_the_round(club)
    await play_the_round(club)  # round 3 is paired
    had_bye = set()
    for number in (1, 2, 3):
        asked = await club.olga.slash(club.channel, "tournament pairings", round=number)
        [embed] = asked.response.embeds
        had_bye |= {
            line.split("**")[1] for line in (embed.description or "").splitlines() if "bye" in line
        }
    without = [p for p in club.players if p.name not in had_bye]
    assert len(without) == 2
    for player in without:
        asked = await player.slash(club.channel, "tournament bye", round=4)
        assert "will sit out round 4 of Spring Open" in asked.response.content
    await play_the_round(club)

    assert "Spring Open: round 4 of 4" in embed_titles(club.channel_posts())
    fourth = round_post(club, "Spring Open: round 4 of 4").description or ""
    [second] = [line for line in fourth.splitlines() if "has a second bye" in line]
    assert second.split()[0] in had_bye
    assert "the byes asked for left an odd number to pair" in second
    for player in without:
        assert f"**{player.name}** has a bye (requested)" in fourth

    standings = await club.olga.slash(club.channel, "tournament standings")
    [embed] = standings.response.embeds
    assert embed.footer.text is not None
    assert embed.footer.text.endswith(
        "+Nb: byes, those asked for included (one scores 1 point, as a draw)."
    )
