"""Where a game lives (:class:`bot.games.model.GamePlace`): the migration that gave every game
and challenge its place keeps them all, games outside Bredon's servers stay out of every
server's lists and count in their own rating pool, and a challenge there is held to what such
a place allows."""

from __future__ import annotations

import pytest

from bot.errors import InvalidSetting
from bot.games.model import NO_SERVER, GamePlace, GameRequest
from bot.guild_settings import GuildSettings
from bot.services import Services
from bot.store import Database, load_migrations
from bot.store.base import postgres_migrations
from tests.bot.conftest import ALICE, BOB, CHANNEL, GUILD, play, start_game

DM_CHANNEL = 3_000_000_000_000_000_003
ROAD = "a3 a1 b1 b3 c1"  # white's road on a 3x3 board


async def test_the_migration_keeps_every_game_challenge_and_setting(db_path) -> None:
    every = postgres_migrations() if isinstance(db_path, str) else load_migrations()
    before = every[: [m.name.endswith("_places") for m in every].index(True)]
    old = await Database.open(db_path, migrations=before)
    try:
        async with old.transaction() as tx:
            await tx.execute(
                "INSERT INTO players (id, name, created_at, updated_at) VALUES "
                "(101, 'alice', 'x', 'x'), (202, 'bob', 'x', 'x')"
            )
            await tx.execute(
                "INSERT INTO guild_settings (guild_id, size, komi, days_per_move, use_threads, "
                "language) VALUES (?, 7, 2.5, 5, 0, 'de')",
                (GUILD,),
            )
            await tx.execute(
                "INSERT INTO games (id, guild_id, channel_id, white_id, black_id, size, komi, "
                "opening, stones1, stones2, caps1, caps2, rated, days_per_move, tps, created_at) "
                "VALUES (9, ?, ?, 101, 202, 5, 0, 'swap', 21, 21, 1, 1, 1, 3, "
                "'x5/x5/x5/x5/x5 1 1', 'x')",
                (GUILD, CHANNEL),
            )
            await tx.execute(
                "INSERT INTO challenges (id, guild_id, channel_id, challenger_id, colour, size, "
                "komi, opening, days_per_move, games, rated, created_at, expires_at) "
                "VALUES (4, ?, ?, 101, 'white', 6, 2, 'swap', 3, 1, 1, 'x', 'y')",
                (GUILD, CHANNEL),
            )
    finally:
        await old.close()
    upgraded = await Database.open(db_path)
    try:
        game = await upgraded.fetchone("SELECT * FROM games WHERE id = 9")
        challenge = await upgraded.fetchone("SELECT * FROM challenges WHERE id = 4")
        settings = await upgraded.fetchone("SELECT * FROM guild_settings")
    finally:
        await upgraded.close()
    assert game is not None and challenge is not None and settings is not None
    assert (game["guild_id"], game["channel_id"], game["place"]) == (GUILD, CHANNEL, "server")
    assert (challenge["guild_id"], challenge["size"], challenge["place"]) == (GUILD, 6, "server")
    assert (settings["size"], settings["days_per_move"], settings["language"]) == (7, 5, "de")


async def dm_game(services: Services, place: GamePlace = GamePlace.DM):
    setup = (await services.guilds.get(NO_SERVER)).game_setup(GameRequest(size=3))
    challenge = await services.challenges.create(
        guild_id=NO_SERVER,
        channel_id=DM_CHANNEL,
        challenger=ALICE,
        opponent=BOB,
        setup=setup,
        colour="white",
        place=place,
    )
    return (await services.challenges.accept(challenge.id, BOB)).game


async def test_a_game_outside_servers_keeps_its_place_and_the_defaults(services) -> None:
    assert await services.guilds.get(NO_SERVER) == GuildSettings(NO_SERVER)
    game = await dm_game(services, GamePlace.GROUP_DM)
    assert game is not None
    assert (game.place, game.guild_id, game.channel_id) == (GamePlace.GROUP_DM, 0, DM_CHANNEL)
    assert not game.in_server
    assert game.setup.days_per_move == GuildSettings(NO_SERVER).days_per_move


async def test_it_counts_in_the_anywhere_pool_and_in_no_server(services) -> None:
    in_server = await start_game(services)
    game = await dm_game(services)
    assert game is not None
    await play(services, game.id, ROAD)
    anywhere = await services.ratings.player(NO_SERVER, ALICE.id)
    assert [(r.size, r.games) for r in anywhere] == [(3, 1)]
    assert await services.ratings.player(GUILD, ALICE.id) == []
    assert [g.id for g in await services.lookup.games_for_player(BOB.id, guild_id=GUILD)] == [
        in_server.id
    ]
    assert await services.lookup.finished_games(guild_id=GUILD) == []


async def test_a_challenge_outside_servers_is_held_to_what_its_place_allows(services) -> None:
    setup = (await services.guilds.get(NO_SERVER)).game_setup(GameRequest())
    common = {"guild_id": NO_SERVER, "channel_id": DM_CHANNEL, "challenger": ALICE}
    with pytest.raises(InvalidSetting, match="name your opponent"):
        await services.challenges.create(**common, setup=setup, place=GamePlace.GROUP_DM)
    with pytest.raises(InvalidSetting, match="Coins belong to a server"):
        await services.challenges.create(
            **common, opponent=BOB, setup=setup, stakes=True, place=GamePlace.ELSEWHERE
        )
    made = await services.challenges.create(
        **common, opponent=BOB, setup=setup, place=GamePlace.GROUP_DM
    )
    assert made.place is GamePlace.GROUP_DM and made.guild_id == NO_SERVER
