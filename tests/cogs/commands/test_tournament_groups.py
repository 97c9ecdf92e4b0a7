"""A groups -> knockout tournament through the real discord.py, from sign-up to the winner: two
groups played side by side, the group winners into the knockout, whose drawn final is settled by a
tiebreak game with its own time control."""

from __future__ import annotations

import csv
import io
from datetime import timedelta

import pytest

from bot.games.model import GameStatus
from bot.timekeeping.control import ClockKind
from tests.cogs.commands.test_tournament import Club, embed_titles
from tests.cogs.conftest import World


@pytest.fixture
async def club(world: World) -> Club:
    return Club(world)


async def test_groups_then_a_knockout_final_settled_by_a_tiebreak_game(club: Club) -> None:
    alice, bob, carol, dave = club.players
    await club.sign_up_and_start(
        format="groups",
        groups=2,
        advance=1,
        games=1,
        tiebreak_games=2,
        tiebreak_days=2,
        tiebreak_bank="1d",
    )
    *_, announcement = [  # the sign-up call as /organize clocks left it
        m for m in club.channel_posts() if "New tournament: Spring Open" in embed_titles([m])
    ]
    settings = announcement.embeds[0].description or ""
    assert "groups -> knockout (2 round-robin groups, the top 1 of each" in settings
    assert "up to 2 tiebreak games (2d per move + 1d bank)" in settings
    assert "the better seed goes through" in settings

    # Seeds by joining order: group A is alice and dave, group B bob and carol.
    info = await dave.slash(club.channel, "tournament info")
    players = info.response.embeds[0].fields[0].value or ""
    assert players.splitlines() == [
        "1. alice (group A)",
        "2. bob (group B)",
        "3. carol (group B)",
        "4. dave (group A)",
    ]
    assert "Spring Open: round 1 of 2 (groups)" in embed_titles(club.channel_posts())
    group_games = await club.active_games()
    assert sorted({g.white.name, g.black.name} == {"alice", "dave"} for g in group_games) == [
        False,
        True,
    ]
    for game in group_games:
        await club.win(game, alice.id if alice.id in (game.white.id, game.black.id) else bob.id)

    [knockout_post] = [
        m
        for m in club.channel_posts()
        if "Spring Open: round 2 of 2 (knockout)" in embed_titles([m])
    ]
    assert [a.filename for a in knockout_post.attachments] == ["bracket.png"]
    [final] = await club.active_games()
    assert {final.white.id, final.black.id} == {alice.id, bob.id}
    assert final.white.id == alice.id  # alice, seed 1, is the better seed

    thread = club.thread(final.thread_id)
    offered = await bob.slash(thread, "tak draw")
    assert offered.ephemeral
    offer = club.world.last_bot_message(thread)
    await alice.click(offer, label="Accept draw")
    [tiebreak] = await club.active_games()
    assert tiebreak.tiebreak == 1 and tiebreak.match_id == final.match_id
    assert (tiebreak.white.id, tiebreak.black.id) == (bob.id, alice.id)  # colours alternate
    assert tiebreak.setup.days_per_move == 2
    assert tiebreak.setup.clock.kind is ClockKind.BANK
    assert tiebreak.setup.clock.bank == timedelta(days=1)
    posted = [m.content for m in club.world.bot_messages(club.thread(tiebreak.thread_id))]
    [start] = [
        t for t in posted if f"Tiebreak game 1 of the match (game #{tiebreak.id}) starts" in t
    ]
    # Its clock is not the match's: the start says it (issue 38: it said only the deadline).
    assert "2d per move + 1d bank" in start.split("\n")[0]

    await club.win(tiebreak, bob.id)
    assert await club.active_games() == []
    last = club.channel_posts()[-1]
    assert last.content == f"🏆 **Spring Open** is over: {bob.mention} wins!"
    assert [a.filename for a in last.attachments] == [
        "standings-a.png",
        "standings-b.png",
        "bracket.png",
    ]

    asked = await carol.slash(club.channel, "tournament standings", tournament="Spring Open")
    [embed] = asked.response.embeds
    table = embed.description or ""
    assert table.index("**Group A**") < table.index("alice") < table.index("**Group B**")
    assert table.index("**Group B**") < table.index("bob") < table.index("carol")
    assert [a.filename for a in asked.response.attachments] == [
        "standings-a.png",
        "standings-b.png",
        "bracket.png",
    ]

    exported = await dave.slash(club.channel, "tournament export", tournament="Spring Open")
    rows = list(csv.reader(io.StringIO((await exported.response.attachments[0].read()).decode())))
    assert [(row[0], row[1], row[3]) for row in rows[1:]] == [
        ("A", "1", "alice"),
        ("A", "2", "dave"),
        ("B", "1", "bob"),
        ("B", "2", "carol"),
    ]


async def test_groups_are_dealt_from_the_checked_in_players_only(world: World) -> None:
    """Five sign up, bob does not check in: the groups are dealt by seed from the other four
    (with bob, group A would have had three players), and the knockout begins with the group
    winners."""
    club = Club(world)
    alice, bob, carol, dave = club.players
    erin = world.guild.add_member(club.env.create_user("erin"))
    club.by_id[erin.id] = erin
    await club.create(format="groups", groups=2, advance=1, games=1)
    for player in (*club.players, erin):
        joined = await player.slash(club.channel, "tournament join")
        assert joined.response.content.startswith("You are in")
    opened = await club.olga.slash(club.channel, "organize checkin open")
    assert "Check-in for Spring Open is open" in opened.response.content
    for player in (alice, carol, dave, erin):
        done = await player.slash(club.channel, "tournament checkin")
        assert done.response.content == "You are checked in for Spring Open. Good luck!"

    started = await club.olga.slash(club.channel, "organize start")
    assert "has started" in started.response.content
    posts = "\n".join(m.content for m in club.channel_posts())
    assert f"Left out for not checking in: {bob.mention}." in posts
    info = await dave.slash(club.channel, "tournament info")
    assert (info.response.embeds[0].fields[0].value or "").splitlines() == [
        "1. alice (group A)",
        "2. carol (group B)",
        "3. dave (group B)",
        "4. erin (group A)",
    ]
    [round_one] = [
        m
        for m in club.channel_posts()
        if embed_titles([m]) == ["Spring Open: round 1 of 2 (groups)"]
    ]
    assert "bob" not in (round_one.embeds[0].description or "")
    games = await club.active_games()
    assert sorted(sorted((g.white.name, g.black.name)) for g in games) == [
        ["alice", "erin"],
        ["carol", "dave"],
    ]
    pairings = await bob.slash(club.channel, "tournament pairings")
    assert [a.filename for a in pairings.response.attachments] == ["pairings.png"]
    for game in games:
        await club.win(game, alice.id if alice.id in (game.white.id, game.black.id) else dave.id)

    [knockout] = [
        m
        for m in club.channel_posts()
        if "Spring Open: round 2 of 2 (knockout)" in embed_titles([m])
    ]
    assert [a.filename for a in knockout.attachments] == ["bracket.png"]
    [final] = await club.active_games()
    assert (final.white.id, final.black.id) == (alice.id, dave.id)  # A1 (seed 1) has white


async def test_a_group_result_corrected_after_the_seeding_changes_the_final(club: Club) -> None:
    """Group A's game corrected for dave once the final (alice v bob) is paired: the final not
    begun is stopped and dave meets bob instead; once it has begun, a correction that would
    change it again is refused and changes nothing."""
    alice, bob, carol, dave = club.players
    await club.sign_up_and_start(format="groups", groups=2, advance=1, games=1)
    group_games = await club.active_games()
    for game in group_games:
        await club.win(game, alice.id if alice.id in (game.white.id, game.black.id) else bob.id)
    [old_final] = await club.active_games()
    [group_a] = [g for g in group_games if alice.id in (g.white.id, g.black.id)]
    dave_colour = "white" if group_a.white.id == dave.id else "black"

    corrected = await club.olga.slash(
        club.channel, "organize correct", game=group_a.id, result=dave_colour, reason="misclick"
    )

    assert corrected.ephemeral and "corrected to" in corrected.response.content
    [final] = await club.active_games()
    assert (final.white.id, final.black.id) == (dave.id, bob.id)
    assert (await club.services.games.get(old_final.id)).status is GameStatus.ABORTED
    news = "\n".join(m.content for m in club.channel_posts()[-3:])
    assert "a result is corrected" in news and "seeded again" in news
    assert f"play game #{final.id}" in news
    assert (
        f"<@{dave.id}>, your move"
        in club.world.last_bot_message(club.thread(final.thread_id)).content
    )

    await club.play(final.id, "a3")
    alice_colour = "black" if dave_colour == "white" else "white"
    refused = await club.olga.slash(
        club.channel, "organize correct", game=group_a.id, result=alice_colour, reason="again"
    )
    assert "which has already begun" in refused.response.content
    assert [g.id for g in await club.active_games()] == [final.id]
    [tournament] = await club.services.tournaments.in_guild(club.world.guild.id)
    assert len(await club.services.corrections.log(tournament.id)) == 1
    assert carol.id not in (final.white.id, final.black.id)
