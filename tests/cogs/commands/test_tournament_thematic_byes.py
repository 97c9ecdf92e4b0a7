"""A thematic Swiss through the real discord.py, from its TPS start to the end, with requested
byes (asked, withdrawn, given by the organizer, refused once paired) and a pair kept apart: each
round's announcement and pairings picture mark the requested bye, the pair never meets, and the
table scores a requested bye as a draw."""

from __future__ import annotations

from tests.cogs.commands.test_tournament import Club, embed_titles, table_rows
from tests.cogs.conftest import World, decoded_image

# Black flats on a3 and c3, white flats on a1 and b1, white to move: c1 is white's road.
START = "2,x,2/x3/1,1,x 1 3"


async def test_a_thematic_swiss_with_requested_byes_and_a_pair_kept_apart(world: World) -> None:
    club = Club(world)
    alice, bob, carol, dave = club.players
    created = await club.create(format="swiss", swiss_rounds=3, games=1, start=START)
    assert "is open for sign-up" in created.response.content, created.response.content
    post = club.channel_posts()[-1]  # the sign-up call as /organize settings left it
    assert "Requested byes:** 1 point, as a draw" in (post.embeds[0].description or "")
    for player in club.players:
        await player.slash(club.channel, "tournament join")

    asked = await bob.slash(club.channel, "tournament bye", round=1)
    assert asked.ephemeral and asked.response.content.startswith(
        "You will sit out round 1 of Spring Open with a requested bye (1 point, as a draw)."
    ), asked.response.content
    await dave.slash(club.channel, "tournament bye", round=2)
    taken_back = await dave.slash(club.channel, "tournament bye", round=2, withdraw=True)
    assert taken_back.response.content == "You will be paired in round 2 of Spring Open after all."
    given = await club.olga.slash(club.channel, "organize bye", player=carol.user, round=2)
    assert given.response.content.startswith("carol will sit out round 2"), given.response.content
    apart = await club.olga.slash(
        club.channel, "organize forbid", player1=alice.user, player2=dave.user
    )
    assert "alice and dave will not be paired together" in apart.response.content
    info = await dave.slash(club.channel, "tournament info")
    fields = {field.name: field.value for field in info.response.embeds[0].fields}
    assert fields["Byes asked for"] == "Round 1: bob\nRound 2: carol"
    assert fields["Kept apart"] == "alice – dave"

    await club.olga.slash(club.channel, "organize start")
    late = await bob.slash(club.channel, "tournament bye", round=1, withdraw=True)
    assert late.response.content.startswith("Round 1 of Spring Open is already paired")

    met: list[frozenset[int]] = []
    for number, resting in ((1, bob), (2, carol), (3, None)):
        [announced] = [
            m
            for m in club.channel_posts()
            if f"Spring Open: round {number} of 3" in embed_titles([m])
        ]
        text = announced.embeds[0].description or ""
        if resting is not None:
            assert f"**{resting.user.name}** has a bye (requested)" in text, text
        else:
            assert "(requested)" not in text
        shown = await alice.slash(club.channel, "tournament pairings", round=number)
        assert (await decoded_image(shown.response)).format == "PNG"
        games = await club.active_games()
        assert len(games) == (1 if resting is not None else 2)
        for game in games:
            assert game.tps.startswith("2,x,2/x3/1,1,x")  # from the thematic start
            met.append(frozenset((game.white.id, game.black.id)))
            await club.play(game.id, "c1")  # white's road

    assert frozenset((alice.id, dave.id)) not in met
    final = club.channel_posts()[-1]
    assert "Spring Open** is over" in final.content, final.content
    assert {row[1] for row in table_rows(final.embeds[0])} == {"alice", "bob", "carol", "dave"}
    [found] = await club.services.tournaments.in_guild(world.guild.id, live_only=False)
    first = await club.services.pictures.round(found.id, 1)
    assert first.bye_mark(first.byes.index("bob")) == "bye (requested)"
    table = {r.player.name: r.standing for r in await club.services.tournaments.standings(found.id)}
    # Bob and Carol each sat out one round with a requested bye: 1 point, counted in the byes;
    # a match won and an odd player's bye score 3.
    for name in ("bob", "carol"):
        row = table[name]
        assert row.played + row.byes == 3
        assert row.score == 3 * (row.won + row.byes - 1) + 1


async def test_a_round_robin_bye_is_announced_as_a_forfeit(world: World) -> None:
    club = Club(world)
    bob = club.players[1]
    await club.sign_up_and_start(games=1)
    asked = await bob.slash(club.channel, "tournament bye", round=2)
    assert asked.response.content.startswith(
        "You will forfeit your round 2 match of Spring Open (a round robin's schedule is fixed)"
    ), asked.response.content
    strength = [p.id for p in club.players]
    for game in await club.active_games():  # round 1
        await club.win(game, min(game.white.id, game.black.id, key=strength.index))
    [announced] = [
        m for m in club.channel_posts() if "Spring Open: round 2 of 3" in embed_titles([m])
    ]
    # Round 2 of four by Berger's tables: alice v bob (and carol v dave, played).
    assert "alice wins by forfeit (a bye was asked for)" in (announced.embeds[0].description or "")
    assert len(await club.active_games()) == 1
