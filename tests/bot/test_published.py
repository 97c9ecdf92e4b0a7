"""What the pages read: a server's choice (off for a game of no server), its lobby, a player's
record against each opponent, and the stamp that grows with every move."""

from __future__ import annotations

import dataclasses

from bot.guild_settings import Pages
from bot.published import PublishedService
from bot.services import Services
from tests.bot import tournament_helpers as tournaments
from tests.bot.conftest import ALICE, BOB, CHANNEL, GUILD, play, start_game
from tests.bot.setups import create_challenge


async def test_pages_are_off_until_turned_on_and_for_no_server(services: Services) -> None:
    published = PublishedService(services.db, services.clock)
    assert await published.pages(GUILD) is Pages.OFF
    assert await published.pages(None) is Pages.OFF
    assert await published.pages(0) is Pages.OFF
    settings = await services.guilds.get(GUILD)
    await services.guilds.save(dataclasses.replace(settings, pages=Pages.LISTED))
    assert await published.pages(GUILD) is Pages.LISTED
    assert await published.pages(GUILD + 1) is Pages.OFF


async def test_the_lobby_and_head_to_head(services: Services) -> None:
    published = PublishedService(services.db, services.clock)
    first = await start_game(services, size=5)
    await services.games.resign(first.id, BOB.id)
    second = await start_game(services, size=5)
    challenge = await create_challenge(
        services, guild_id=GUILD, channel_id=CHANNEL, challenger=ALICE, opponent=None, size=5
    )
    lobby = await published.lobby(GUILD)
    assert [game.id for game in lobby.games] == [second.id]
    assert [c.id for c in lobby.challenges] == [challenge.id]
    assert (await published.lobby(GUILD + 1)).games == []
    [record] = await published.head_to_head(GUILD, BOB.id)
    assert (record.opponent.id, record.won, record.lost, record.drawn) == (ALICE.id, 0, 1, 0)


async def test_the_stamp_grows_with_a_move(services: Services) -> None:
    published = PublishedService(services.db, services.clock)
    game = await start_game(services, size=5)
    before = await published.stamp()
    await play(services, game.id, (await services.games.legal_moves(game.id))[0])
    assert await published.stamp() > before


async def test_a_tournaments_stamp_changes_with_a_result(services: Services) -> None:
    published = PublishedService(services.db, services.clock)
    event = await tournaments.new_tournament(services, [tournaments.ANN], games_per_match=2)
    signed_up = await published.tournament_stamp(event.id)
    await services.tournaments.join(event.id, tournaments.BEN)
    two = await published.tournament_stamp(event.id)
    assert two != signed_up
    await tournaments.start(services, event.id)
    started = await published.tournament_stamp(event.id)
    assert started != two
    elsewhere = await start_game(services, size=5)
    await play(services, elsewhere.id, "a1")
    assert await published.tournament_stamp(event.id) == started  # another game's move
    [pairing] = (await services.tournaments.pairings(event.id)).pairings
    assert pairing.match_id is not None
    first = await tournaments.active_game(services, pairing.match_id)
    await tournaments.win(services, first, tournaments.ANN.id)  # the match's second game begins
    second = await published.tournament_stamp(event.id)
    assert not (await services.tournaments.pairings(event.id)).pairings[0].is_decided
    assert second != started
    await tournaments.play_round(services, event.id)
    assert await published.tournament_stamp(event.id) != second
    assert await published.tournament_stamp(event.id + 1) == ()
