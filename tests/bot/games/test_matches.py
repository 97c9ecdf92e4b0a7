"""Matches: colours alternate, points add up, the series ends after N games, guild totals."""

from __future__ import annotations

from bot.games.model import MatchStatus

ROAD_3X3 = "a3 a1 b1 b3 c1"  # the player with white wins by road: 9 + 7 points


async def test_a_three_game_match(services, new_game, moves, alice, bob) -> None:
    first = await new_game(size=3, games=3)
    assert first.match_id is not None and first.match_game == 1
    assert (first.white, first.black) == (alice, bob)
    ending = (await moves(first.id, ROAD_3X3))[-1].ending
    assert ending is not None and ending.match is not None and ending.next_game is not None
    assert (ending.match.points1, ending.match.points2, ending.match.games_played) == (16, 0, 1)
    second = ending.next_game
    assert second.match_game == 2 and (second.white, second.black) == (bob, alice)
    assert second.channel_id == first.channel_id

    ending = (await moves(second.id, ROAD_3X3))[-1].ending  # Bob wins with white
    assert ending is not None and ending.match is not None and ending.next_game is not None
    assert (ending.match.points1, ending.match.points2) == (16, 16)
    assert ending.match.leader is None
    third = ending.next_game
    assert (third.white, third.black) == (alice, bob)

    await services.games.offer_draw(third.id, bob.id)
    ending = await services.games.accept_draw(third.id, alice.id)
    match = ending.match
    assert match is not None and ending.next_game is None
    assert match.status is MatchStatus.FINISHED and match.games_played == 3
    assert (match.points1, match.points2) == (16, 16)
    assert [g.match_game for g in await services.matches.games(match.id)] == [1, 2, 3]


async def test_the_player_with_more_points_leads(services, new_game, moves, alice, bob) -> None:
    first = await new_game(size=3, games=2)
    ending = (await moves(first.id, ROAD_3X3))[-1].ending
    assert ending is not None and ending.next_game is not None
    second = ending.next_game
    ending = await services.games.resign(second.id, alice.id)  # Bob (white) wins: 9 + 10
    match = ending.match
    assert match is not None and match.status is MatchStatus.FINISHED
    assert (match.points_of(alice.id), match.points_of(bob.id)) == (16, 19)
    assert match.leader == bob


async def test_an_abort_ends_the_match(services, new_game, moves) -> None:
    first = await new_game(size=3, games=3)
    ending = (await moves(first.id, ROAD_3X3))[-1].ending
    assert ending is not None and ending.next_game is not None
    aborted = await services.games.abort(ending.next_game.id, ending.next_game.white.id)
    assert aborted.match is not None and aborted.match.status is MatchStatus.ABORTED
    assert aborted.next_game is None
    assert aborted.match.games_played == 1 and aborted.match.points1 == 16


async def test_guild_totals_count_every_finished_game(
    services, new_game, moves, alice, bob
) -> None:
    await moves((await new_game(size=3)).id, ROAD_3X3)  # Alice +16
    match_game = await new_game(size=3, games=2)
    ending = (await moves(match_game.id, ROAD_3X3))[-1].ending  # Alice +16
    assert ending is not None and ending.next_game is not None
    await services.games.resign(ending.next_game.id, bob.id)  # Alice (black) wins: 9 + 10
    aborted = await new_game(size=3)
    await services.games.abort(aborted.id, alice.id)
    totals = await services.matches.guild_totals(ending.game.guild_id)
    assert [(t.player, t.games, t.wins, t.losses, t.draws, t.points) for t in totals] == [
        (alice, 3, 3, 0, 0, 16 + 16 + 19),
        (bob, 3, 0, 3, 0, 0),
    ]
    assert await services.matches.guild_totals(12345) == []
