"""The addresses of the pages anyone can open (web/): unguessable by default.

Each page's address carries a token, an HMAC of what it shows (``game:12``) with a secret that
only the database (or ``BREDON_WEB_SECRET``) holds: whoever has a link can open that page, and
no one can make up the next game's. The pages and the links Bredon posts both sign here.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from dataclasses import dataclass, field

from bot.guild_settings import GuildService, Pages
from bot.settings import WebPages

TOKEN_LENGTH = 22  # base64 characters: 132 bits


def page_token(secret: str, kind: str, ident: str) -> str:
    digest = hmac.new(secret.encode(), f"{kind}:{ident}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode()[:TOKEN_LENGTH]


@dataclass(frozen=True, slots=True)
class PageAddresses:
    """The paths of the pages (and, with `public_url`, their full addresses)."""

    secret: str = field(repr=False)
    public_url: str = ""  # no trailing slash; "" gives paths only

    def valid(self, kind: str, ident: str, token: str) -> bool:
        # As bytes: compare_digest refuses str beyond ASCII, and a reader may type anything.
        expected = page_token(self.secret, kind, ident).encode()
        return hmac.compare_digest(expected, token.encode("utf-8", "surrogatepass"))

    def _path(self, kind: str, *parts: int) -> str:
        ident = ":".join(map(str, parts))
        joined = "/".join(map(str, parts))
        return f"{self.public_url}/{kind}/{joined}/{page_token(self.secret, kind, ident)}"

    def game(self, game_id: int) -> str:
        return self._path("game", game_id)

    def tournament(self, tournament_id: int) -> str:
        return self._path("tournament", tournament_id)

    def player(self, guild_id: int, player_id: int) -> str:
        return self._path("player", guild_id, player_id)

    def server(self, guild_id: int) -> str:
        return self._path("server", guild_id)


class PublicPages:
    """The full addresses Bredon posts, for servers whose pages are on: none unless the
    operator said where the pages are read (``BREDON_PUBLIC_URL``). The secret is read once."""

    def __init__(self, guilds: GuildService, web: WebPages) -> None:
        self._guilds = guilds
        self._web = web
        self._addresses: PageAddresses | None = None

    async def addresses(self, guild_id: int | None) -> PageAddresses | None:
        if self._web.public_url is None or not guild_id:
            return None
        if (await self._guilds.get(guild_id)).pages is Pages.OFF:
            return None
        if self._addresses is None:
            secret = self._web.secret or await self._guilds.page_secret()
            self._addresses = PageAddresses(secret, self._web.public_url)
        return self._addresses
