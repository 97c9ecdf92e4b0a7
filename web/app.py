"""The pages' web application: routes, their handlers, and the server around them.

Every page first checks its address's token (:class:`bot.page_addresses.PageAddresses`) and that
its server shows pages (:meth:`bot.published.PublishedService.pages`); anything else is the same
404, so a reader cannot tell an address never made from a server with its pages off.
"""

from __future__ import annotations

import asyncio
import logging
import signal
from collections.abc import Awaitable
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from importlib import resources
from typing import Any, TypeVar

import jinja2
from aiohttp import web

from bot.errors import InvalidSetting, UnknownGame, UnknownPlayer, UnknownTournament
from bot.games.model import GameView
from bot.guild_settings import Pages
from bot.health import PortUnavailable
from bot.languages import spoken
from bot.page_addresses import PageAddresses
from bot.published import PublishedService
from bot.services import Services
from bot.settings import Settings, WebPages
from bot.tournaments.groups import group_name
from bot.tournaments.tournament import StandingRow, TournamentView
from rendering.bracket import render_bracket
from rendering.chart import render_rating_history
from rendering.standings import render_standings
from tak import Color, Position
from tak.ptn import Game, move_number
from tak.tinue import with_calls
from web.kept import Kept
from web.live import Live
from web.pictures import THEME, PictureCache, board_drawing
from web.safety import RateLimit, RateLimiter, answer, entity_tag, middlewares, not_modified
from web.words import page_words, result_words

log = logging.getLogger(__name__)

HTML = "text/html"
RECORDS_KEPT = 256  # games' move lists with their Tak and Tinuë marks (worked out in a thread)
PAGES_KEPT = 1024  # game pages as rendered, some 5 to 20 kB each
STATIC = {"bredon.css": "text/css", "bredon.js": "text/javascript", "favicon.svg": "image/svg+xml"}
RECENT_GAMES = 20
DEFAULT_PORT = 8081  # `bredon web` without BREDON_WEB_PORT
Done = TypeVar("Done")


def _environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.PackageLoader("web", "templates"),
        autoescape=True,  # every user string escaped, in every template
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )


def _when(moment: datetime | None) -> str:
    return "" if moment is None else moment.strftime("%Y-%m-%d %H:%M")


def _left(left: timedelta) -> str:
    """Time on a clock, as a chess clock shows it: 2d 04:05 or 04:05:09."""
    seconds = max(0, int(left.total_seconds()))
    days, rest = divmod(seconds, 86_400)
    clock = f"{rest // 3600:02d}:{rest % 3600 // 60:02d}"
    return f"{days}d {clock}" if days else f"{clock}:{rest % 60:02d}"


def _stands(game: GameView) -> tuple[object, ...]:
    """What tells the game as it stands now from how it stood before: a move taken back and
    another played leaves the same ply, but not the same position or time of the last move."""
    return (game.id, game.ply, game.tps, game.last_move_at, game.status)


def _position(record: Game, ply: int) -> Position:
    """The position after the first `ply` plies of the record."""
    position = record.start()
    for played in record.plies[:ply]:
        position.push(played.move)
    return position


@dataclass(frozen=True, slots=True)
class MoveCell:
    text: str
    index: int  # plies from the game's start after it


class PageSite:
    """The application on `services`; :meth:`start` and :meth:`stop` around it (or hand
    :attr:`app` to a test client)."""

    def __init__(
        self,
        services: Services,
        settings: WebPages,
        *,
        rate: RateLimit | None = None,
        poll_every: float = 1.0,
    ) -> None:
        self._services = services
        self._settings = settings
        self._published = PublishedService(services.db, services.clock)
        self._addresses: PageAddresses | None = None
        self._pictures = PictureCache()
        self._records: Kept[Game] = Kept(RECORDS_KEPT)
        self._game_pages: Kept[bytes] = Kept(PAGES_KEPT)
        self._tournament_pages: Kept[bytes] = Kept(PAGES_KEPT // 8)
        self._templates = _environment()
        self._static = {
            name: resources.files("web").joinpath("static", name).read_bytes() for name in STATIC
        }
        self.live = Live(self._published, poll_every)
        self.app = web.Application(middlewares=middlewares(RateLimiter(rate or RateLimit())))
        self.app.on_startup.append(self._opened)
        self.app.on_shutdown.append(self._closing)
        get = self.app.router.add_get
        get("/static/{name}", self.static)
        get("/game/{id:\\d+}/{token}", self.game)
        get("/game/{id:\\d+}/{token}/board.png", self.board)
        get("/game/{id:\\d+}/{token}/game.ptn", self.ptn)
        get("/game/{id:\\d+}/{token}/position.tps", self.tps)
        get("/game/{id:\\d+}/{token}/events", self.game_events)
        get("/tournament/{id:\\d+}/{token}", self.tournament)
        get("/tournament/{id:\\d+}/{token}/{picture:standings|bracket}.png", self.table)
        get("/tournament/{id:\\d+}/{token}/events", self.tournament_events)
        get("/player/{guild:\\d+}/{id:\\d+}/{token}", self.player)
        get("/player/{guild:\\d+}/{id:\\d+}/{token}/rating-{size:\\d}.png", self.chart)
        get("/server/{guild:\\d+}/{token}", self.server)
        self._runner: web.AppRunner | None = None

    # ----------------------------------------------------------------- running

    async def _opened(self, app: web.Application) -> None:
        secret = self._settings.secret or await self._services.guilds.page_secret()
        self._addresses = PageAddresses(secret, self._settings.public_url or "")
        await self.live.start()

    async def _closing(self, app: web.Application) -> None:
        await self.live.stop()

    async def start(self, host: str, port: int) -> int:
        """Listen (port 0: any free port); returns the port."""
        self._runner = web.AppRunner(self.app, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, host, port).start()
        bound = int(self._runner.addresses[0][1])
        public = self._settings.public_url or "none set: BREDON_PUBLIC_URL"
        log.info("Pages at http://%s:%d/ (public address: %s).", host, bound, public)
        return bound

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def addresses(self) -> PageAddresses:
        assert self._addresses is not None, "the application has not started"
        return self._addresses

    # ----------------------------------------------------------------- checks

    def _token(self, request: web.Request, kind: str, *parts: str) -> None:
        if not self.addresses.valid(kind, ":".join(parts), request.match_info["token"]):
            raise web.HTTPNotFound()

    async def _shown(self, guild_id: int | None) -> Pages:
        pages = await self._published.pages(guild_id)
        if pages is Pages.OFF:
            raise web.HTTPNotFound()
        return pages

    async def _game(self, request: web.Request) -> tuple[GameView, Pages]:
        game_id = request.match_info["id"]
        self._token(request, "game", game_id)
        try:
            game = await self._services.games.get(int(game_id))
        except UnknownGame:
            raise web.HTTPNotFound() from None
        return game, await self._shown(game.guild_id)

    async def _record(self, game: GameView) -> Game:
        """The game's moves with the Tak and Tinuë each made (kept while the game stands)."""
        key = _stands(game)
        if (record := self._records.get(key)) is not None:
            return record
        record = await asyncio.to_thread(with_calls, await self._services.lookup.record(game.id))
        return self._records.put(key, record)

    def _render(self, template: str, **values: Any) -> bytes:
        html = self._templates.get_template(template).render(
            w=page_words(), language=spoken(), **values
        )
        return html.encode()

    def _page(self, request: web.Request, template: str, **values: Any) -> web.Response:
        return answer(request, self._render(template, **values), HTML)

    def _absolute(self, request: web.Request, path: str) -> str:
        """A full address for link previews: the public one, else the one asked."""
        return path if path.startswith("http") else f"{request.scheme}://{request.host}{path}"

    def _links(self, pages: Pages) -> PageAddresses | None:
        """The addresses of the server's other pages, linked only where it lists them."""
        return self.addresses if pages is Pages.LISTED else None

    # ----------------------------------------------------------------- static

    async def static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in self._static:
            raise web.HTTPNotFound()
        return answer(request, self._static[name], STATIC[name], cache="public, max-age=3600")

    # ----------------------------------------------------------------- a game

    def _ply(self, request: web.Request, last: int) -> int:
        """The `?ply=` asked for, within the game (the latest when left out or malformed)."""
        text = request.query.get("ply", "")
        return min(int(text), last) if text.isascii() and text.isdigit() and len(text) < 6 else last

    async def game(self, request: web.Request) -> web.Response:
        game, pages = await self._game(request)
        # The same game as it stands, at the same ply, for the same reader: the same page.
        ply = self._ply(request, game.plies_played)
        key = (repr(game), ply, spoken(), pages, request.host)
        html = self._game_pages.get(key)
        if html is None:
            html = self._game_pages.put(key, await self._game_html(request, game, pages))
        return answer(request, html, HTML)

    async def _game_html(self, request: web.Request, game: GameView, pages: Pages) -> bytes:
        event = None  # the tournament the game is played in, and its round
        if game.match_id is not None:
            pairing = await self._services.tournaments.pairing_of_match(game.match_id)
            if pairing is not None:
                tournament = await self._services.tournaments.get(pairing.tournament_id)
                event = (tournament, pairing.round)
        record = await self._record(game)
        last = len(record.plies)
        ply = self._ply(request, last)
        start = game.setup.start_ply
        rows: list[tuple[str, MoveCell | None, MoveCell | None]] = []
        for index, played in enumerate(record.plies):
            absolute = start + index
            cell = MoveCell(played.move.ptn() + played.marks, index + 1)
            if absolute % 2 == 0 or not rows:
                rows.append((move_number(absolute - absolute % 2), None, None))
            number, white, black = rows[-1]
            rows[-1] = (number, cell, black) if absolute % 2 == 0 else (number, white, cell)
        base = self.addresses.game(game.id)
        clocks = [
            (player.name, _left(left))
            for player, left in (
                (game.white, game.left_of(Color.WHITE)),
                (game.black, game.left_of(Color.BLACK)),
            )
            if left is not None
        ]
        return self._render(
            "game.html",
            game=game,
            ply=ply,
            last=last,
            rows=rows,
            base=base,
            result=None
            if game.result is None
            else result_words(game.result, game.white.name, game.black.name),
            clocks=clocks if game.is_active else [],
            deadline=_when(game.deadline_at) if game.is_active else "",
            ninja=record.ninja_url(),
            image=self._absolute(request, f"{base}/board.png"),
            url=self._absolute(request, base),
            links=self._links(pages),
            event=event,
            addresses=self.addresses,
        )

    async def board(self, request: web.Request) -> web.Response:
        game, _pages = await self._game(request)
        record = await self._record(game)
        last = len(record.plies)
        ply = self._ply(request, last)
        key = ("board", *_stands(game), ply, spoken())
        etag = entity_tag(*key)
        # A game over hardly changes (an organizer may correct its result): kept for an hour.
        cache = "no-cache" if game.is_active else "private, max-age=3600"
        if not_modified(request, etag):
            return answer(request, b"", "image/png", etag=etag, cache=cache)
        drawing = board_drawing(game, _position(record, ply), ply == last)
        png = await self._pictures.get(key, drawing)
        return answer(request, png, "image/png", etag=etag, cache=cache)

    async def ptn(self, request: web.Request) -> web.Response:
        game, _pages = await self._game(request)
        text = (await self._record(game)).ptn()
        return answer(request, text.encode(), "application/x-ptn", filename=f"bredon-{game.id}.ptn")

    async def tps(self, request: web.Request) -> web.Response:
        game, _pages = await self._game(request)
        record = await self._record(game)
        ply = self._ply(request, len(record.plies))
        return answer(
            request,
            (_position(record, ply).tps() + "\n").encode(),
            "text/plain",
            filename=f"bredon-{game.id}-ply-{ply}.tps",
        )

    async def game_events(self, request: web.Request) -> web.StreamResponse:
        game, _pages = await self._game(request)

        async def stamp() -> tuple[int, str]:
            now = await self._services.games.get(game.id)
            return now.ply, now.status.value

        return await self.live.stream(request, stamp)

    # ----------------------------------------------------------------- a tournament

    async def _tournament(self, request: web.Request) -> tuple[TournamentView, Pages]:
        tournament_id = request.match_info["id"]
        self._token(request, "tournament", tournament_id)
        try:
            tournament = await self._services.tournaments.get(int(tournament_id))
        except UnknownTournament:
            raise web.HTTPNotFound() from None
        return tournament, await self._shown(tournament.guild_id)

    async def tournament(self, request: web.Request) -> web.Response:
        tournament, pages = await self._tournament(request)
        # Unchanged since it was last shown (one read), for the same reader: the same page.
        stamp = await self._published.tournament_stamp(tournament.id)
        key = (tournament.id, stamp, repr(tournament), spoken(), pages, request.host)
        html = self._tournament_pages.get(key)
        if html is None:
            html = self._tournament_pages.put(
                key, await self._tournament_html(request, tournament, pages)
            )
        return answer(request, html, HTML)

    async def _tournament_html(
        self, request: web.Request, tournament: TournamentView, pages: Pages
    ) -> bytes:
        services = self._services
        standings = await services.tournaments.standings(tournament.id)
        rounds = [
            await services.tournaments.pairings(tournament.id, number)
            for number in range(tournament.current_round, 0, -1)
        ]
        games: dict[int, list[GameView]] = {}
        for round_ in rounds:
            for pairing in round_.pairings:
                if pairing.match_id is not None:
                    games[pairing.match_id] = await services.matches.games(pairing.match_id)
        pictures = await services.pictures.tournament(tournament.id)
        base = self.addresses.tournament(tournament.id)
        tables: dict[str, list[StandingRow]] = {}
        for row in standings:  # a groups -> knockout event: a table a group, group A's first
            heading = (
                ""
                if row.group is None
                else page_words()["group"].format(group=group_name(row.group))
            )
            tables.setdefault(heading, []).append(row)
        return self._render(
            "tournament.html",
            tournament=tournament,
            tables=tables,
            rounds=rounds,
            games=games,
            has_standings=pictures.standings is not None,
            has_bracket=pictures.bracket is not None,
            base=base,
            url=self._absolute(request, base),
            image=self._absolute(request, f"{base}/standings.png")
            if pictures.standings is not None
            else "",
            when=_when,
            addresses=self.addresses,
            links=self._links(pages),
        )

    async def table(self, request: web.Request) -> web.Response:
        tournament, _pages = await self._tournament(request)
        pictures = await self._services.pictures.tournament(tournament.id)
        kind = request.match_info["picture"]
        shown = pictures.standings if kind == "standings" else pictures.bracket
        key = (kind, tournament.id, repr(shown))
        if pictures.standings is not None and kind == "standings":
            drawing = partial(render_standings, pictures.standings, THEME)
        elif pictures.bracket is not None and kind == "bracket":
            drawing = partial(render_bracket, pictures.bracket, THEME)
        else:
            raise web.HTTPNotFound()
        return answer(request, await self._pictures.get(key, drawing), "image/png")

    async def tournament_events(self, request: web.Request) -> web.StreamResponse:
        tournament, _pages = await self._tournament(request)

        return await self.live.stream(
            request, partial(self._published.tournament_stamp, tournament.id)
        )

    # ----------------------------------------------------------------- a player

    async def _player(self, request: web.Request) -> tuple[int, Any, Pages]:
        guild, player_id = request.match_info["guild"], request.match_info["id"]
        self._token(request, "player", guild, player_id)
        pages = await self._shown(int(guild))
        try:
            player = await self._services.players.get(int(player_id))
        except UnknownPlayer:
            raise web.HTTPNotFound() from None
        return int(guild), player, pages

    async def player(self, request: web.Request) -> web.Response:
        guild, player, pages = await self._player(request)
        services = self._services
        ratings = await services.ratings.player(guild, player.id)
        recent = await services.lookup.finished_games(
            guild_id=guild, player_id=player.id, limit=RECENT_GAMES
        )
        active = await services.lookup.games_for_player(player.id, guild_id=guild)
        if not (ratings or recent or active):
            raise web.HTTPNotFound()  # no one this server knows
        base = self.addresses.player(guild, player.id)
        return self._page(
            request,
            "player.html",
            player=player,
            ratings=ratings,
            recent=recent,
            active=active,
            opponents=await self._published.head_to_head(guild, player.id),
            base=base,
            url=self._absolute(request, base),
            image=self._absolute(request, base),
            result_words=result_words,
            addresses=self.addresses,
            links=self._links(pages),
            guild=guild,
        )

    async def chart(self, request: web.Request) -> web.Response:
        guild, player, _pages = await self._player(request)
        size = int(request.match_info["size"])
        try:
            history = await self._services.pictures.rating_history(
                guild, player.id, player.name, size
            )
        except InvalidSetting:  # no such board size
            raise web.HTTPNotFound() from None
        if not history.points:
            raise web.HTTPNotFound()
        key = ("chart", guild, player.id, size, repr(history))
        png = await self._pictures.get(key, lambda: render_rating_history(history, THEME))
        return answer(request, png, "image/png")

    # ----------------------------------------------------------------- a server

    async def server(self, request: web.Request) -> web.Response:
        guild = request.match_info["guild"]
        self._token(request, "server", guild)
        if await self._shown(int(guild)) is not Pages.LISTED:
            raise web.HTTPNotFound()
        lobby = await self._published.lobby(int(guild))
        events = await self._services.tournaments.in_guild(int(guild))
        return self._page(
            request,
            "server.html",
            lobby=lobby,
            events=events,
            addresses=self.addresses,
            guild=int(guild),
            url=self._absolute(request, self.addresses.server(int(guild))),
        )


async def _opened_site(settings: Settings, *, upgrade: bool) -> tuple[Services, PageSite]:
    services = await Services.open(settings.database, upgrade=upgrade)
    site = PageSite(services, settings.web)
    port = settings.web.port if settings.web.port is not None else DEFAULT_PORT
    try:
        await site.start(settings.web.host, port)
    except OSError as error:
        await services.close()
        raise PortUnavailable(
            f"The pages cannot listen on {settings.web.host} port {port} "
            f"({error.strerror or error}): set BREDON_WEB_PORT to a free port."
        ) from None
    return services, site


async def serve_pages(settings: Settings) -> None:
    """`bredon web`: the pages alone, on the configured database, until SIGTERM or SIGINT."""
    services, site = await _opened_site(settings, upgrade=False)
    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signal_number in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signal_number, stopping.set)
    try:
        await stopping.wait()
    finally:
        await site.stop()
        await services.close()


async def alongside(settings: Settings, running: Awaitable[Done]) -> Done:
    """Run `running` (the bot) with the pages beside it when ``BREDON_WEB_PORT`` is set. The
    pages open the database first (migrating it where the bot would: BREDON_MIGRATE_ON_START)."""
    if settings.web.port is None:
        return await running
    services, site = await _opened_site(settings, upgrade=settings.migrate_on_start)
    try:
        return await running
    finally:
        await site.stop()
        await services.close()
