"""A season league through the real discord.py: eight players in two divisions of four, each
round paired at its period's end by simulated time, games played by `/tak move`, the bot
restarted in the middle, to the season's end with promotion and relegation and the next season's
divisions; the tables and the hall of fame; refusals; German words."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.bot.setups import games_in_channel
from tests.cogs.commands.test_tournament import Club
from tests.cogs.conftest import World, advance
from tests.cogs.discord_locale import discord_in

WEEK = timedelta(days=7)


class League(Club):
    """The club of the tournament tests with four more players: eight, and an organizer."""

    def __init__(self, world: World) -> None:
        super().__init__(world)
        others = [world.guild.add_member(self.env.create_user(name)) for name in "efgh"]
        self.players = [*self.players, *others]
        self.by_id.update({actor.id: actor for actor in others})

    async def play_round(self) -> int:
        """Every game in progress won by the player earlier in the list, by `/tak move` in its
        thread; how many were played."""
        order = [p.id for p in self.players]
        played = 0
        for game in await self.active_games():
            await self.win(game, min(game.white.id, game.black.id, key=order.index))
            played += 1
        return played


def divisions_posted(league: League, season: int):
    """The fields of the post naming a season's divisions, one a division."""
    title = f"Season {season}: the divisions"
    [post] = [m for m in league.channel_posts() if m.embeds and m.embeds[0].title == title]
    return post.embeds[0].fields


@pytest.fixture
async def league(world: World) -> League:
    return League(world)


async def test_a_season_of_eight_across_a_restart_to_promotion_and_relegation(
    league: League, new_bot
) -> None:
    olga, players = league.olga, league.players
    made = await olga.slash(
        league.channel,
        "organize season create",
        name="Ladder",
        division_size=4,
        period_days=7,
        movers=1,
        games=1,
        size=3,
        komi=0,
        days=3,
    )
    assert made.ephemeral and made.response.content.startswith("**Ladder** is ready"), (
        made.response.content
    )
    for player in players:
        joined = await player.slash(league.channel, "season join")
        assert joined.response.content.startswith("You are in season 1 of **Ladder**")
    again = await players[0].slash(league.channel, "season join")
    assert again.response.content == "You are already signed up for season 1 of Ladder."

    started = await olga.slash(league.channel, "organize season start")
    assert "Season 1 of **Ladder** has started" in started.response.content
    [divisions] = [
        m
        for m in league.channel_posts()
        if m.embeds and "the divisions" in (m.embeds[0].title or "")
    ]
    top, bottom = divisions.embeds[0].fields
    assert top.value == ", ".join(p.mention for p in players[:4])
    assert bottom.value == ", ".join(p.mention for p in players[4:])
    assert await league.play_round() == 4

    # Round 2 waits for the period's end, paired then by the scheduler.
    await advance(league.env, WEEK - timedelta(hours=1))
    assert await games_in_channel(league.services, league.channel.id) == []
    await advance(league.env, timedelta(hours=1))
    assert len(await games_in_channel(league.services, league.channel.id)) == 4
    deadline = int((league.services.clock.now() + WEEK).timestamp())
    assert any(
        m.content
        == "⏰ Season 1 of **Ladder**: the round's deadline has passed and the next round is "
        f"paired in every division; its deadline is <t:{deadline}:R>."
        for m in league.channel_posts()
    )

    await league.env.restart_bot(new_bot())  # the season's timer is in the database
    assert await league.play_round() == 4
    await advance(league.env, WEEK)
    assert await league.play_round() == 4
    await advance(league.env, WEEK)

    a, b, c, d, e, f, g, h = players
    [over] = [m for m in league.channel_posts() if "Season 1 of **Ladder** is over" in m.content]
    assert f"🏆 Division 1: {a.mention} wins." in over.content
    assert f"🏆 Division 2: {e.mention} wins." in over.content
    assert f"⬆️ Promoted: {e.mention} (to division 1)." in over.content
    assert f"⬇️ Relegated: {d.mention} (to division 2)." in over.content

    table = await b.slash(league.channel, "season standings", season=1, division=2)
    embed = table.response.embeds[0]
    assert embed.title == "Ladder, season 1: final standings"
    assert "Division 2" in (embed.description or "") and "Division 1" not in (
        embed.description or ""
    )
    fame = await b.slash(league.channel, "season halloffame")
    assert fame.response.embeds[0].description == "Season 1: division 1: alice, division 2: e"

    # Season 2 starts a period later by itself, with the promoted and the relegated swapped.
    await advance(league.env, WEEK)
    second = [
        m
        for m in league.channel_posts()
        if m.embeds and m.embeds[0].title == "Season 2: the divisions"
    ]
    top2, bottom2 = second[0].embeds[0].fields
    # Seeded by the division earned, then by rating (the season's games were rated).
    assert set(top2.value.split(", ")) == {p.mention for p in (a, b, c, e)}
    assert set(bottom2.value.split(", ")) == {p.mention for p in (d, f, g, h)}


async def test_refusals_and_german_words(league: League) -> None:
    alice = league.players[0]
    none_yet = await alice.slash(league.channel, "season join")
    assert none_yet.response.content == (
        "This server has no season league yet: an organizer makes one with /organize season create."
    )
    await league.olga.slash(league.channel, "organize season create", name="Ladder")
    early = await league.olga.slash(league.channel, "organize season start")
    assert (
        early.response.content == "season 1 of Ladder needs at least 2 players to start; it has 0."
    )
    ended = await league.olga.slash(league.channel, "organize season end")
    assert ended.response.content == "No season of Ladder is running."
    left = await alice.slash(league.channel, "season leave")
    assert left.response.content == "You are not signed up for a season of Ladder."
    with discord_in(league.env, alice, "de"):
        joined = await alice.slash(league.channel, "season join")
        fame = await alice.slash(league.channel, "season halloffame")
    assert joined.response.content.startswith("Du bist in Saison 1 von **Ladder**")
    assert fame.response.embeds[0].description == "Noch keine Saison ist zu Ende."
