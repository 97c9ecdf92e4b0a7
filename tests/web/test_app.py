"""The pages through aiohttp's test client, on a real database (SQLite, or PostgreSQL with
BREDON_TEST_POSTGRES): what they show, what they never show, and how they answer."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.errors import StoreBusy, StoreUnwritable
from bot.games.model import NO_SERVER, GamePlace, GameRequest
from bot.guild_settings import Pages
from bot.page_addresses import PublicPages
from bot.players.model import PlayerRef
from bot.services import Services
from bot.settings import WebPages
from bot.store import StoreError
from tests.bot import tournament_helpers as tournaments
from tests.bot.conftest import (
    ALICE,
    BOB,
    CHANNEL,
    GUILD,
    clock,
    db_path,
    play,
    services,
    start_game,
)
from web.app import PageSite
from web.live import STREAMS_PER_ADDRESS
from web.safety import RateLimit

SCRIPT = "<script>alert(1)</script>"
__all__ = ["clock", "db_path", "services"]  # the services' fixtures, as tests/bot has them


async def pages_on(services: Services, pages: Pages = Pages.UNLISTED, guild: int = GUILD) -> None:
    settings = await services.guilds.get(guild)
    await services.guilds.save(dataclasses.replace(settings, pages=pages))


@pytest.fixture
async def site(services: Services) -> AsyncIterator[PageSite]:
    yield PageSite(
        services, WebPages(), rate=RateLimit(burst=1000, per_second=1000), poll_every=0.05
    )


@pytest.fixture
async def client(site: PageSite) -> AsyncIterator[TestClient[object, object]]:
    async with TestClient(TestServer(site.app)) as test_client:
        yield test_client


async def test_a_game_page_shows_the_board_the_moves_and_the_downloads(
    services: Services, site: PageSite, client: TestClient[object, object]
) -> None:
    await pages_on(services)
    game = await start_game(services, size=5)
    await play(services, game.id, "a1 e5 c3 d3")
    url = site.addresses.game(game.id)
    response = await client.get(url, headers={"Accept-Language": "en"})
    assert response.status == 200
    html = await response.text()
    assert "alice" in html and "bob" in html
    for move in ("a1", "e5", "c3", "d3"):
        assert f">{move}</a>" in html
    assert f'{url}/board.png?ply=4"' in html
    assert "og:image" in html and "ptn.ninja" in html
    board = await client.get(f"{url}/board.png?ply=2")
    assert board.status == 200 and board.content_type == "image/png"
    assert (await board.read())[:8] == b"\x89PNG\r\n\x1a\n"
    ptn = await (await client.get(f"{url}/game.ptn")).text()
    assert "1. a1 e5" in ptn and "2. c3 d3" in ptn
    tps = await (await client.get(f"{url}/position.tps?ply=1")).text()
    assert tps == "x5/x5/x5/x5/2,x4 2 1\n"  # the swap: white placed black's stone


async def test_a_page_at_a_ply_marks_it_and_links_its_neighbours(
    services: Services, site: PageSite, client: TestClient[object, object]
) -> None:
    await pages_on(services)
    game = await start_game(services, size=5)
    await play(services, game.id, "a1 e5 c3 d3")
    html = await (await client.get(site.addresses.game(game.id) + "?ply=2")).text()
    assert '<a href="?ply=2" aria-current="step">e5</a>' in html
    assert '<a href="?ply=1" rel="prev"' in html and '<a href="?ply=3" rel="next"' in html


async def test_pages_off_a_wrong_token_and_no_server_all_give_404(
    services: Services, site: PageSite, client: TestClient[object, object]
) -> None:
    game = await start_game(services, size=5)
    url = site.addresses.game(game.id)
    assert (await client.get(url)).status == 404  # the server never turned its pages on
    await pages_on(services)
    assert (await client.get(url)).status == 200
    assert (await client.get(url[:-3] + "abc")).status == 404
    assert (await client.get(f"/game/{game.id}/{'A' * 22}")).status == 404
    assert (await client.get(site.addresses.game(game.id + 1))).status == 404
    await pages_on(services, Pages.OFF)
    assert (await client.get(url)).status == 404
    assert (await client.get(f"{url}/board.png")).status == 404


async def test_a_players_name_is_escaped_everywhere(
    services: Services, site: PageSite, client: TestClient[object, object]
) -> None:
    await pages_on(services, Pages.LISTED)
    game = await start_game(services, size=5)
    await services.players.register(PlayerRef(BOB.id, SCRIPT))
    await play(services, game.id, "a1 e5")
    for url in (
        site.addresses.game(game.id),
        site.addresses.player(GUILD, BOB.id),
        site.addresses.server(GUILD),
    ):
        html = await (await client.get(url)).text()
        assert SCRIPT not in html, url
        assert "&lt;script&gt;" in html, url


async def test_notes_and_conditional_moves_never_appear(
    services: Services, site: PageSite, client: TestClient[object, object]
) -> None:
    await pages_on(services, Pages.LISTED)
    game = await start_game(services, size=5)
    await play(services, game.id, "a1 e5")
    await services.notes.write(game.id, BOB.id, "secret plan zyx")
    await services.conditions.add(game.id, BOB.id, "c3 b2 d4 b4")
    urls = [
        site.addresses.game(game.id),
        site.addresses.game(game.id) + "/game.ptn",
        site.addresses.player(GUILD, BOB.id),
        site.addresses.server(GUILD),
    ]
    for url in urls:
        text = await (await client.get(url)).text()
        assert "zyx" not in text and "b2" not in text, url


async def test_security_headers_and_read_only(
    services: Services, site: PageSite, client: TestClient[object, object]
) -> None:
    await pages_on(services)
    game = await start_game(services, size=5)
    url = site.addresses.game(game.id)
    response = await client.get(url)
    policy = response.headers["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "unsafe-inline" not in policy
    assert response.headers["Referrer-Policy"] == "no-referrer"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    html = await response.text()
    assert "<script>" not in html and " style=" not in html and " on" + "click" not in html
    posted = await client.post(url)
    assert posted.status == 405 and posted.headers["Allow"] == "GET, HEAD"
    assert (await client.head(url)).status == 200


async def test_an_unchanged_page_or_picture_is_answered_304(
    services: Services, site: PageSite, client: TestClient[object, object]
) -> None:
    await pages_on(services)
    game = await start_game(services, size=5)
    await play(services, game.id, "a1 e5")
    url = site.addresses.game(game.id)
    for address in (url, f"{url}/board.png?ply=1", "/static/bredon.css"):
        first = await client.get(address)
        etag = first.headers["ETag"]
        again = await client.get(address, headers={"If-None-Match": etag})
        assert again.status == 304, address
    board = await client.get(f"{url}/board.png")
    await play(services, game.id, "c3")
    moved = await client.get(f"{url}/board.png", headers={"If-None-Match": board.headers["ETag"]})
    assert moved.status == 200


async def test_german_readers_get_german_words(
    services: Services, site: PageSite, client: TestClient[object, object]
) -> None:
    await pages_on(services)
    game = await start_game(services, size=5)
    url = site.addresses.game(game.id)
    english = await (await client.get(url, headers={"Accept-Language": "en"})).text()
    german = await (await client.get(url, headers={"Accept-Language": "de-DE,de;q=0.9"})).text()
    assert 'lang="de"' in german and 'lang="en"' in english
    assert german != english


async def test_too_many_requests_from_one_address_get_429(services: Services) -> None:
    await pages_on(services)
    site = PageSite(services, WebPages(), rate=RateLimit(burst=3, per_second=0.001))
    async with TestClient(TestServer(site.app)) as client:
        statuses = [(await client.get("/static/bredon.css")).status for _ in range(5)]
    assert statuses == [200, 200, 200, 429, 429]


async def test_a_move_made_through_the_service_is_sent_to_an_open_game_page(
    services: Services, site: PageSite, client: TestClient[object, object]
) -> None:
    await pages_on(services)
    game = await start_game(services, size=5)
    response = await client.get(site.addresses.game(game.id) + "/events")
    assert response.headers["Content-Type"] == "text/event-stream"
    assert await response.content.readline() == b"retry: 3000\n"
    await response.content.readline()
    await play(services, game.id, "a1")
    line = await asyncio.wait_for(response.content.readline(), timeout=30)
    assert line == b"event: change\n"
    response.close()


async def test_a_lobby_is_shown_only_where_the_server_lists_its_pages(
    services: Services, site: PageSite, client: TestClient[object, object]
) -> None:
    game = await start_game(services, size=5)
    url = site.addresses.server(GUILD)
    await pages_on(services, Pages.UNLISTED)
    assert (await client.get(url)).status == 404
    await pages_on(services, Pages.LISTED)
    html = await (await client.get(url)).text()
    assert site.addresses.game(game.id) in html


async def test_a_tournament_page_shows_standings_rounds_and_its_bracket(
    services: Services, site: PageSite, client: TestClient[object, object]
) -> None:
    await pages_on(services, Pages.LISTED, guild=tournaments.GUILD)
    players = [tournaments.ANN, tournaments.BEN, tournaments.CAT, tournaments.DAN]
    event = await tournaments.new_tournament(
        services, players, name="Spring <b>Open</b>", format="elimination"
    )
    await tournaments.start(services, event.id)
    await tournaments.play_round(services, event.id)
    url = site.addresses.tournament(event.id)
    html = await (await client.get(url)).text()
    assert "Spring &lt;b&gt;Open&lt;/b&gt;" in html and "<b>Open" not in html
    assert "Round 1" in html and "Round 2" in html
    for player in players:
        assert player.name in html
    round_one = await services.tournaments.pairings(event.id, 1)
    match_id = round_one.pairings[0].match_id
    assert match_id is not None
    for game in await services.matches.games(match_id):
        assert site.addresses.game(game.id) in html
        game_page = await (await client.get(site.addresses.game(game.id))).text()
        assert f'<a href="{url}">Spring &lt;b&gt;Open&lt;/b&gt;</a> · Round 1' in game_page
    for picture in ("standings", "bracket"):
        drawn = await client.get(f"{url}/{picture}.png")
        assert drawn.status == 200 and (await drawn.read())[:4] == b"\x89PNG", picture
    assert (await client.get(site.addresses.tournament(event.id + 1))).status == 404


async def test_a_tournament_result_is_sent_to_an_open_tournament_page(
    services: Services, site: PageSite, client: TestClient[object, object]
) -> None:
    await pages_on(services, guild=tournaments.GUILD)
    event = await tournaments.new_tournament(services, [tournaments.ANN, tournaments.BEN])
    await tournaments.start(services, event.id)
    response = await client.get(site.addresses.tournament(event.id) + "/events")
    assert await response.content.readline() == b"retry: 3000\n"
    await response.content.readline()
    await tournaments.play_round(services, event.id)
    line = await asyncio.wait_for(response.content.readline(), timeout=30)
    assert line == b"event: change\n"
    response.close()


async def test_a_player_page_shows_ratings_their_chart_games_and_head_to_head(
    services: Services, site: PageSite, client: TestClient[object, object]
) -> None:
    await pages_on(services)
    game = await start_game(services, size=5)
    await services.games.resign(game.id, BOB.id)
    url = site.addresses.player(GUILD, BOB.id)
    html = await (await client.get(url)).text()
    assert "5x5" in html and site.addresses.game(game.id) in html
    assert "alice" in html and "0 / 1 / 0" in html  # Bob against Alice: lost one
    chart = await client.get(f"{url}/rating-5.png")
    assert chart.status == 200 and (await chart.read())[:4] == b"\x89PNG"
    assert (await client.get(f"{url}/rating-6.png")).status == 404  # no rated game on 6x6
    stranger = site.addresses.player(GUILD, 999)
    assert (await client.get(stranger)).status == 404


@pytest.mark.postgres_only
async def test_a_move_by_another_process_wakes_the_page_through_listen(
    services: Services, db_path: str
) -> None:
    """The pages' look at the database is an hour away: only PostgreSQL's NOTIFY can wake it."""
    await pages_on(services)
    game = await start_game(services, size=5)
    site = PageSite(services, WebPages(), poll_every=3600)
    elsewhere = await Services.open(db_path, clock=services.clock)
    try:
        async with TestClient(TestServer(site.app)) as client:
            response = await client.get(site.addresses.game(game.id) + "/events")
            assert await response.content.readline() == b"retry: 3000\n"
            await response.content.readline()
            await play(elsewhere, game.id, "a1")
            line = await asyncio.wait_for(response.content.readline(), timeout=30)
            assert line == b"event: change\n"
            response.close()
    finally:
        await elsewhere.close()


async def test_a_groups_event_shows_a_table_a_group(
    services: Services, site: PageSite, client: TestClient[object, object]
) -> None:
    await pages_on(services, guild=tournaments.GUILD)
    players = [tournaments.ANN, tournaments.BEN, tournaments.CAT, tournaments.DAN]
    event = await tournaments.new_tournament(
        services, players, format="groups", groups=2, advance=1, games_per_match=1
    )
    await tournaments.start(services, event.id)
    html = await (await client.get(site.addresses.tournament(event.id))).text()
    assert "<h3>Group A</h3>" in html and "<h3>Group B</h3>" in html
    assert html.index("Group A") < html.index("Group B")


async def test_a_move_taken_back_and_another_played_shows_the_new_one(
    services: Services, site: PageSite, client: TestClient[object, object]
) -> None:
    await pages_on(services)
    game = await start_game(services, size=5)
    await play(services, game.id, "a1 e5 c3")
    url = site.addresses.game(game.id)
    before = await (await client.get(f"{url}/board.png?ply=3")).read()
    assert ">c3</a>" in await (await client.get(url)).text()
    await services.games.request_undo(game.id, game.white.id)
    await services.games.accept_undo(game.id, game.black.id)
    await play(services, game.id, "b2")
    html = await (await client.get(url)).text()
    assert ">b2</a>" in html and ">c3</a>" not in html
    assert await (await client.get(f"{url}/board.png?ply=3")).read() != before
    assert (await (await client.get(f"{url}/game.ptn")).text()).endswith("2. b2\n")


async def test_head_of_an_event_stream_answers_at_once(
    services: Services, site: PageSite, client: TestClient[object, object]
) -> None:
    await pages_on(services)
    game = await start_game(services, size=5)
    response = await asyncio.wait_for(
        client.head(site.addresses.game(game.id) + "/events"), timeout=30
    )
    assert response.status == 200
    assert response.headers["Content-Type"] == "text/event-stream"


async def test_one_address_cannot_open_every_live_stream(
    services: Services, site: PageSite, client: TestClient[object, object]
) -> None:
    await pages_on(services)
    game = await start_game(services, size=5)
    url = site.addresses.game(game.id) + "/events"
    opened = [await client.get(url) for _ in range(STREAMS_PER_ADDRESS)]
    assert {response.status for response in opened} == {200}
    assert (await client.get(url)).status == 503
    opened[0].close()
    await asyncio.sleep(0.5)  # the server notices the reader left at its next write
    await play(services, game.id, "a1")
    async with asyncio.timeout(30):
        while (again := await client.get(url)).status != 200:
            await asyncio.sleep(0.1)
    again.close()
    for response in opened[1:]:
        response.close()


async def test_a_tournament_still_signing_up_has_its_page(
    services: Services, site: PageSite, client: TestClient[object, object]
) -> None:
    await pages_on(services, guild=tournaments.GUILD)
    event = await tournaments.new_tournament(services, [tournaments.ANN], name="Winter Cup")
    url = site.addresses.tournament(event.id)
    html = await (await client.get(url)).text()
    assert "Winter Cup" in html and "Round 1" not in html
    assert (await client.get(f"{url}/bracket.png")).status == 404


@pytest.mark.parametrize(
    "outage",
    [
        StoreError("Cannot connect to PostgreSQL at db:5432 (refused)."),
        StoreUnwritable("PostgreSQL at db:5432 cannot be reached: refused"),
        StoreBusy(),
    ],
    ids=["StoreError", "StoreUnwritable", "StoreBusy"],
)
async def test_a_page_while_the_database_is_unavailable_answers_503(
    services: Services,
    site: PageSite,
    client: TestClient[object, object],
    monkeypatch: pytest.MonkeyPatch,
    outage: Exception,
) -> None:
    """An outage is neither a 500 nor a 404 (the page exists; the database does not answer)."""
    await pages_on(services, Pages.LISTED)
    game = await start_game(services, size=5)
    event = await tournaments.new_tournament(services, [tournaments.ANN, tournaments.BEN])
    await pages_on(services, Pages.LISTED, guild=tournaments.GUILD)
    pages = [
        site.addresses.game(game.id),
        site.addresses.tournament(event.id),
        site.addresses.player(GUILD, BOB.id),
        site.addresses.server(GUILD),
    ]
    assert [(await client.get(url)).status for url in pages] == [200] * 4

    async def unreachable(*_args: object, **_kwargs: object) -> None:
        raise outage

    def refused(*_args: object, **_kwargs: object) -> None:
        raise outage

    for reader in ("fetchone", "fetchall"):
        monkeypatch.setattr(services.db, reader, unreachable)
    monkeypatch.setattr(services.db, "snapshot", refused)  # a context manager: refused at once
    for url in pages:
        response = await client.get(url)
        assert response.status == 503, url
        assert response.headers["Retry-After"]
        text = await response.text()
        assert "Traceback" not in text and "PostgreSQL" not in text
        assert response.headers["Content-Security-Policy"]


async def test_cancelled_events_and_aborted_games_have_their_pages(
    services: Services, site: PageSite, client: TestClient[object, object]
) -> None:
    await pages_on(services, Pages.LISTED)
    await pages_on(services, Pages.LISTED, guild=tournaments.GUILD)
    aborted = await start_game(services, size=5)  # no move at all
    await services.games.abort(aborted.id, BOB.id)
    one_ply = await start_game(services, size=5)
    await play(services, one_ply.id, "a1")
    await services.games.abort(one_ply.id, BOB.id)
    signing_up = await tournaments.new_tournament(
        services, [tournaments.ANN, tournaments.BEN], name="Autumn Cup"
    )
    running = await tournaments.new_tournament(
        services,
        [tournaments.ANN, tournaments.BEN, tournaments.CAT, tournaments.DAN],
        format="elimination",
    )
    await tournaments.start(services, running.id)
    for event in (signing_up, running):
        await services.tournaments.cancel(
            event.id, actor_id=tournaments.ORGANIZER.id, is_organizer=True
        )
    urls = []
    for game in (aborted, one_ply):
        base = site.addresses.game(game.id)
        urls += [base, f"{base}?ply=0", f"{base}/board.png", f"{base}/game.ptn"]
        urls += [f"{base}/position.tps?ply=0", f"{base}?ply=-1", f"{base}?ply=99999"]
    for event in (signing_up, running):
        urls += [site.addresses.tournament(event.id)]
    urls += [site.addresses.player(GUILD, BOB.id), site.addresses.server(GUILD)]
    for url in urls:
        assert (await client.get(url)).status == 200, url


async def test_an_open_game_page_waits_out_a_database_outage(
    services: Services,
    site: PageSite,
    client: TestClient[object, object],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A stream already open when the database stops answering keeps its reader: the next
    change after the outage still arrives (no error, no second answer in the stream)."""
    await pages_on(services)
    game = await start_game(services, size=5)
    response = await client.get(site.addresses.game(game.id) + "/events")
    assert await response.content.readline() == b"retry: 3000\n"
    await response.content.readline()

    async def unreachable(*_args: object, **_kwargs: object) -> None:
        raise StoreUnwritable("PostgreSQL at db:5432 cannot be reached: refused")

    with monkeypatch.context() as outage:
        outage.setattr(services.games, "get", unreachable)
        await services.games.move(game.id, game.player_to_move.id, "a1", expected_ply=0)
        await asyncio.sleep(0.5)  # the stream looks at its game while the outage lasts
    await play(services, game.id, "e5")
    line = await asyncio.wait_for(response.content.readline(), timeout=30)
    assert line == b"event: change\n"
    response.close()


async def test_an_address_with_any_characters_in_its_token_gives_404(
    services: Services, site: PageSite, client: TestClient[object, object]
) -> None:
    await pages_on(services, Pages.LISTED)
    game = await start_game(services, size=5)
    for url in (f"/game/{game.id}/%C3%A9", f"/server/{GUILD}/%E2%80%AE", "/tournament/1/%00"):
        assert (await client.get(url)).status == 404, url


async def test_a_game_outside_bredons_servers_is_never_shown(
    services: Services, site: PageSite, client: TestClient[object, object]
) -> None:
    """A DM's game (kept under NO_SERVER) has no page, even were settings saved for guild 0 (a
    /bredon config sent from a DM) to say pages are listed, nor a player page, nor a lobby."""
    await pages_on(services, Pages.LISTED, guild=NO_SERVER)
    setup = (await services.guilds.get(NO_SERVER)).game_setup(GameRequest(size=5))
    challenge = await services.challenges.create(
        guild_id=NO_SERVER,
        channel_id=CHANNEL,
        challenger=ALICE,
        opponent=BOB,
        setup=setup,
        colour="white",
        place=GamePlace.DM,
    )
    game = (await services.challenges.accept(challenge.id, BOB)).game
    assert game is not None
    await play(services, game.id, "a1 e5")
    base = site.addresses.game(game.id)
    for url in (
        base,
        f"{base}/board.png",
        f"{base}/game.ptn",
        f"{base}/position.tps",
        f"{base}/events",
        site.addresses.player(NO_SERVER, BOB.id),
        site.addresses.server(NO_SERVER),
    ):
        assert (await client.get(url)).status == 404, url
    posted = PublicPages(services.guilds, WebPages(public_url="https://x.org"))
    assert await posted.addresses(NO_SERVER) is None  # no link is posted under a DM's board


async def test_a_live_stream_opened_during_an_outage_answers_503(
    services: Services,
    site: PageSite,
    client: TestClient[object, object],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The game is found, then the database stops answering before the stream's first look:
    a plain 503 (the browser tries again), not a stream cut off after its headers."""
    await pages_on(services)
    game = await start_game(services, size=5)
    found = services.games.get
    looks = 0

    async def fails_after_the_first(game_id: int) -> object:
        nonlocal looks
        looks += 1
        if looks > 1:
            raise StoreUnwritable("PostgreSQL at db:5432 cannot be reached: refused")
        return await found(game_id)

    monkeypatch.setattr(services.games, "get", fails_after_the_first)
    response = await client.get(site.addresses.game(game.id) + "/events")
    assert response.status == 503
    assert looks == 2
