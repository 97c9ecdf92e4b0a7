"""`python -m bot` as a real process with Discord replaced by a stand-in, for the tests that signal
it or watch it fail (tests/cogs/test_running_stop.py). Run as `python -m tests.cogs.stand_in
[ACTION ...]`, with the settings in the environment as for `python -m bot`.

Discord's HTTP API answers logging in (the bot user :data:`BOT_ID`) and nothing else: every other
request waits for ever, as a Discord that does not answer would. The gateway connection counts
as open, and the bot as ready, until the bot closes it; with ``STAND_IN_GATEWAY=real`` the real
gateway is tried instead (which a machine without the network cannot reach). Everything else is
the real thing: settings, store, cogs, worker processes, signal handling, exit status.

``STAND_IN_PLAYERS=1``: two players play moves in the bot's process, as their commands would, one
after the other (a new game when one ends); each move committed is printed as
``committed GAME PLY``, and the refusal that ends them as ``refused MESSAGE``.
"""

from __future__ import annotations

import asyncio
import os
import runpy
import sys
from typing import Any

import discord
from discord.http import HTTPClient, Route

from bot.errors import BredonError
from bot.services import Services
from tests.bot.conftest import start_game

BOT_ID = 4242
USER = {"id": str(BOT_ID), "username": "Bredon", "discriminator": "0", "avatar": None, "bot": True}
APPLICATION = {
    "id": str(BOT_ID),
    "name": "Bredon",
    "description": "",
    "icon": None,
    "bot_public": True,
    "bot_require_code_grant": False,
    "owner": {**USER, "id": "1", "username": "owner", "bot": False},
    "verify_key": "0" * 64,
    "flags": 0,
}
ANSWERS = {("GET", "/users/@me"): USER, ("GET", "/oauth2/applications/@me"): APPLICATION}


async def request(self: HTTPClient, route: Route, **options: Any) -> Any:
    answer = ANSWERS.get((route.method, route.path))
    if answer is None:
        await asyncio.Event().wait()  # Discord does not answer
    return answer


async def connect(self: discord.Client, *, reconnect: bool = True) -> None:
    self.dispatch("connect")
    playing = None
    if os.environ.get("STAND_IN_PLAYERS"):
        playing = asyncio.create_task(players(self.services))  # type: ignore[attr-defined]
    print("connected", flush=True)
    while not self.is_closed():
        await asyncio.sleep(0.02)
    if playing is not None:
        await playing


async def ready(self: discord.Client) -> None:
    return None


async def players(services: Services) -> None:
    """Moves, one after the other, until the store refuses one (the bot is stopping)."""
    try:
        while True:
            game = await start_game(services, size=6)
            while game.is_active:
                position = game.setup.position_at(game.tps)
                move = position.legal_moves()[0].ptn()
                await services.games.move(
                    game.id, game.player_to_move.id, move, expected_ply=game.ply
                )
                print(f"committed {game.id} {game.ply + 1}", flush=True)
                game = await services.games.get(game.id)
    except BredonError as refusal:
        print(f"refused {refusal.message}", flush=True)


def main() -> None:
    HTTPClient.request = request  # type: ignore[method-assign]
    discord.Client.wait_until_ready = ready  # type: ignore[method-assign]
    if os.environ.get("STAND_IN_GATEWAY") != "real":
        discord.Client.connect = connect  # type: ignore[method-assign]
        discord.AutoShardedClient.connect = connect  # type: ignore[method-assign]
        discord.Client.is_ready = lambda self: True  # type: ignore[method-assign]
    sys.argv = ["bot", *sys.argv[1:]]
    runpy.run_module("bot", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
