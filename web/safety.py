"""What every answer of the pages goes through: GET and HEAD only, a per-address rate limit
(429), strict security headers (a Content-Security-Policy allowing nothing inline) and ETags
answered with 304."""

from __future__ import annotations

import hashlib
import ipaddress
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from aiohttp import web

from bot.languages import speaking
from bot.work.waking import store_outage
from web.words import page_words, reader_language

log = logging.getLogger(__name__)

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; img-src 'self'; style-src 'self'; script-src 'self'; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; "
    "frame-ancestors 'none'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    # The addresses are secrets: a link followed elsewhere (PTN Ninja) must not carry them.
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
}
UNAVAILABLE = "The pages cannot read Bredon's database just now: try again in a minute.\n"
MAX_ADDRESSES = 10_000  # the rate limit forgets the longest idle beyond these


@dataclass(frozen=True, slots=True)
class RateLimit:
    """A bucket per client address: `burst` requests at once, refilled at `per_second`."""

    burst: float = 300.0  # a page is some 5 requests; stepping through a game, 2 a step
    per_second: float = 10.0


class RateLimiter:
    def __init__(self, limit: RateLimit, now: Callable[[], float] = time.monotonic) -> None:
        self._limit = limit
        self._now = now
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def allow(self, address: str) -> bool:
        now = self._now()
        tokens, then = self._buckets.pop(address, (self._limit.burst, now))
        tokens = min(self._limit.burst, tokens + (now - then) * self._limit.per_second)
        allowed = tokens >= 1
        self._buckets[address] = (tokens - 1 if allowed else tokens, now)
        if len(self._buckets) > MAX_ADDRESSES:
            self._buckets.popitem(last=False)
        return allowed


def client_address(request: web.Request) -> str:
    """Who asks: the connection's address, or, when that is this machine (a reverse proxy in
    front), the last address the proxy put in X-Forwarded-For."""
    remote = request.remote or ""
    try:
        local = ipaddress.ip_address(remote).is_loopback
    except ValueError:
        local = False
    forwarded = request.headers.get("X-Forwarded-For", "")
    if local and forwarded:
        return forwarded.split(",")[-1].strip()
    return remote


def entity_tag(*parts: object) -> str:
    return '"' + hashlib.sha256(repr(parts).encode()).hexdigest()[:24] + '"'


def not_modified(request: web.Request, etag: str) -> bool:
    wanted = request.headers.get("If-None-Match", "")
    return etag in (tag.strip() for tag in wanted.split(",")) or wanted.strip() == "*"


def answer(
    request: web.Request,
    body: bytes,
    content_type: str,
    *,
    etag: str | None = None,
    cache: str = "no-cache",
    filename: str | None = None,
) -> web.Response:
    """`body` with an ETag (of the body unless given), or 304 when the reader has it."""
    etag = etag or entity_tag(body)
    headers = {"ETag": etag, "Cache-Control": cache, "Vary": "Accept-Language"}
    if filename is not None:
        headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    if not_modified(request, etag):
        return web.Response(status=304, headers=headers)
    return web.Response(body=body, content_type=content_type, headers=headers)


def middlewares(limiter: RateLimiter) -> list[Callable[..., Awaitable[web.StreamResponse]]]:
    @web.middleware
    async def guarded(request: web.Request, handler: Handler) -> web.StreamResponse:
        language = reader_language(request.headers.get("Accept-Language", ""))
        with speaking(language):
            if request.method not in ("GET", "HEAD"):
                response: web.StreamResponse = web.Response(
                    status=405, text="Read-only pages: GET and HEAD only.\n"
                )
                response.headers["Allow"] = "GET, HEAD"
            elif not limiter.allow(client_address(request)):
                response = web.Response(
                    status=429, text=page_words()["too_many"] + "\n", headers={"Retry-After": "5"}
                )
            else:
                try:
                    response = await handler(request)
                except web.HTTPNotFound:
                    response = web.Response(status=404, text=page_words()["not_found"] + "\n")
                except Exception as error:  # an outage: said plainly, logged, no traceback
                    if not store_outage(error):
                        raise
                    log.warning("A page cannot read the database: %s", error)
                    response = web.Response(
                        status=503, text=UNAVAILABLE, headers={"Retry-After": "30"}
                    )
        if not response.prepared:
            response.headers.update(SECURITY_HEADERS)
            response.headers["Content-Language"] = language
        return response

    return [guarded]
