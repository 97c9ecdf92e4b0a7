"""The organizers' entry tools through the real discord.py: a check-in whose no-show is left out
at the start (across a restart), a replacement in the middle of a round robin, a late entrant in
a Swiss, and seeds set by hand."""

from __future__ import annotations

from datetime import timedelta

from tests.cogs.commands.test_tournament import Club, embed_titles
from tests.cogs.conftest import World, advance


def posts_text(club: Club) -> str:
    return "\n".join(message.content for message in club.channel_posts())


def paired_in(club: Club, title: str) -> str:
    """The description of the channel's round post with that title."""
    for message in club.channel_posts():
        for embed in message.embeds:
            if embed.title == title:
                return embed.description or ""
    raise AssertionError(f"no post {title!r} in {embed_titles(club.channel_posts())}")


async def test_a_no_show_is_left_out_at_the_start_after_a_restart(world: World, new_bot) -> None:
    club = Club(world)
    alice, bob, carol, dave = club.players
    created = await club.create(signup_days=2, checkin="1d")
    assert "is open for sign-up" in created.response.content
    for player in club.players:
        await player.slash(club.channel, "tournament join")
    early = await alice.slash(club.channel, "tournament checkin")
    assert early.ephemeral and "Check-in for Spring Open is not open yet" in (
        early.response.content
    )

    await advance(club.env, timedelta(days=1, minutes=1))
    assert "Check-in for **Spring Open** is open" in posts_text(club)
    for player in (alice, bob, carol):
        done = await player.slash(club.channel, "tournament checkin")
        assert done.response.content == "You are checked in for Spring Open. Good luck!"
    again = await bob.slash(club.channel, "tournament checkin")
    assert again.response.content == "You have already checked in for Spring Open."

    await club.env.restart_bot(new_bot())  # nothing of the check-in is kept in memory
    info = await bob.slash(club.channel, "tournament info")
    [checkin] = [f for f in info.response.embeds[0].fields if f.name == "Check-in"]
    assert checkin.value == "Open: 3 of 4 checked in. Still to check in: dave"
    await advance(club.env, timedelta(hours=12))
    reminder = club.channel_posts()[-1].content
    assert reminder.startswith(f"⏰ Reminder: {dave.mention}, check in for **Spring Open**")
    assert alice.mention not in reminder

    started = await club.olga.slash(club.channel, "organize start")
    assert "has started" in started.response.content
    text = posts_text(club)
    assert "**Spring Open** has started!" in text
    assert f"Left out for not checking in: {dave.mention}." in text
    pairings = paired_in(club, "Spring Open: round 1 of 3")
    assert "dave" not in pairings and "alice" in pairings
    info = await alice.slash(club.channel, "tournament info")
    players = info.response.embeds[0].fields[0].value
    assert "dave" not in players and players.count("\n") == 2


async def test_a_replacement_takes_over_a_game_in_the_middle_of_a_round(world: World) -> None:
    club = Club(world)
    _alice, bob, _carol, dave = club.players
    erin = world.guild.add_member(club.env.create_user("erin"))
    club.by_id[erin.id] = erin
    await club.sign_up_and_start()
    [game] = [g for g in await club.active_games() if dave.id in (g.white.id, g.black.id)]

    same = await club.olga.slash(club.channel, "organize replace", old=dave, new=bob)
    assert same.response.content == "That player is already in Spring Open."

    done = await club.olga.slash(club.channel, "organize replace", old=dave, new=erin)
    assert done.ephemeral
    assert done.response.content == (
        f"erin takes dave's place in Spring Open. They take over game #{game.id}."
    )
    assert f"{erin.mention} takes over {dave.mention}'s place in **Spring Open**" in (
        club.channel_posts()[-1].content
    )
    if (await club.services.games.get(game.id)).player_to_move.id != erin.id:
        await club.play(game.id, "a1")
    assert (await club.services.games.get(game.id)).player_to_move.id == erin.id
    await club.play(game.id, "c3")  # erin moves in dave's game, in its thread
    assert (await club.services.games.get(game.id)).player_to_move.id != erin.id
    gone = await dave.slash(club.thread(game.thread_id), "tak move", ptn="b2")
    assert gone.ephemeral and gone.response.content.startswith("You have no game in progress here")

    standings = await erin.slash(club.channel, "tournament standings")
    embed = standings.response.embeds[0]
    assert "erin" in (embed.description or "") and "dave" not in (embed.description or "")
    assert [field.name for field in embed.fields] == ["Replacements"]
    assert "erin replaced dave in round 1" in embed.fields[0].value


async def test_a_late_entrant_joins_a_running_swiss(world: World) -> None:
    club = Club(world)
    erin = world.guild.add_member(club.env.create_user("erin"))
    club.by_id[erin.id] = erin
    await club.create(format="swiss", swiss_rounds=3, games=1)
    for player in club.players:
        await player.slash(club.channel, "tournament join")
    not_yet = await club.olga.slash(club.channel, "organize late", until_round=4)
    assert not_yet.response.content == "Late entrants can start in round 2 to 3 of Spring Open."
    allowed = await club.olga.slash(club.channel, "organize late", until_round=2)
    assert "takes late entries" in allowed.response.content
    await club.olga.slash(club.channel, "organize start")

    joined = await erin.slash(club.channel, "tournament join")
    assert joined.response.content == (
        "You are in **Spring Open** as a late entrant: you start with 0 points and are paired "
        "from round 2."
    )
    assert (
        f"{erin.mention} joins **Spring Open** late, with 0 points, and is paired from round 2."
        in (posts_text(club))
    )
    for game in await club.active_games():
        await club.win(game, game.white.id)
    assert "erin" in paired_in(club, "Spring Open: round 2 of 3")


async def test_seeds_set_by_hand_are_shown_and_refused_once_running(world: World) -> None:
    club = Club(world)
    alice, bob, _carol, dave = club.players
    await club.create()
    for player in club.players:
        await player.slash(club.channel, "tournament join")
    moved = await club.olga.slash(club.channel, "organize seed", player=dave, seed=1)
    [embed] = moved.response.embeds
    assert embed.description == "1. dave\n2. alice\n3. bob\n4. carol"
    up = await club.olga.slash(club.channel, "organize seed", player=bob, move=-1)
    assert up.response.embeds[0].description == "1. dave\n2. bob\n3. alice\n4. carol"
    top = await club.olga.slash(club.channel, "organize seed", player=dave, move=-1)
    assert top.response.content == "That player is already the top seed."
    await club.olga.slash(club.channel, "organize start")
    info = await alice.slash(club.channel, "tournament info")
    assert info.response.embeds[0].fields[0].value == "1. dave\n2. bob\n3. alice\n4. carol"
    late = await club.olga.slash(club.channel, "organize seed", player=dave, seed=2)
    assert "has already started" in late.response.content
