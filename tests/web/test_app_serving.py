"""`python -m bot web`, and the bot with BREDON_WEB_PORT: the pages served from the configured
database, stopped by SIGTERM even while a reader follows a game live."""

from __future__ import annotations

import asyncio
import dataclasses
import http.client
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from bot.guild_settings import Pages
from bot.page_addresses import PageAddresses
from bot.services import Services
from tests.bot.conftest import GUILD, start_game
from tests.bot.test_main_admin_path import bredon, environment
from tests.cogs.test_running_stop import stand_in


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def bredon_web(cwd: Path, port: int) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "bot", "web"],
        cwd=cwd,
        env=environment(BREDON_WEB_PORT=str(port)),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


async def a_game_shown(database: Path) -> str:
    """A game of a server whose pages are on, made beside the running process; its page."""
    services = await Services.open(database, upgrade=False)
    try:
        settings = await services.guilds.get(GUILD)
        await services.guilds.save(dataclasses.replace(settings, pages=Pages.UNLISTED))
        game = await start_game(services, size=5)
        return PageAddresses(await services.guilds.page_secret()).game(game.id)
    finally:
        await services.close()


@pytest.mark.parametrize("alone", [True, False], ids=["bredon web", "inside the bot"])
def test_the_pages_are_served_until_sigterm(tmp_path: Path, alone: bool) -> None:
    assert bredon(tmp_path, "init").returncode == 0
    port = free_port()
    process = (
        bredon_web(tmp_path, port)
        if alone
        else stand_in(tmp_path, BREDON_WEB_PORT=str(port), BREDON_PUBLIC_URL="https://x.example")
    )
    try:
        deadline = time.monotonic() + 120  # a busy machine starts Python slowly
        while True:
            try:
                url = f"http://127.0.0.1:{port}/static/bredon.css"
                with urllib.request.urlopen(url, timeout=5) as response:
                    assert response.status == 200
                    assert "default-src 'self'" in response.headers["Content-Security-Policy"]
                break
            except OSError:
                assert process.poll() is None, process.communicate()
                assert time.monotonic() < deadline
                time.sleep(0.2)
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/game/1/{'A' * 22}", timeout=5)
        except urllib.error.HTTPError as error:
            assert error.code == 404
        page = asyncio.run(a_game_shown(tmp_path / "bredon.sqlite3"))
        following = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        following.request("GET", f"{page}/events")
        live = following.getresponse()
        assert live.status == 200 and live.readline() == b"retry: 3000\n"
    finally:
        process.send_signal(signal.SIGTERM)
        _out, err = process.communicate(timeout=60)  # a stream held open would hang it
    assert process.returncode == 0, err


def test_bredon_web_without_a_database_says_so(tmp_path: Path) -> None:
    done = bredon(tmp_path, "web", BREDON_WEB_PORT=str(free_port()))
    assert done.returncode == 2  # as the bot says it: no database where BREDON_DATABASE points
    assert "init" in done.stderr and "Traceback" not in done.stderr


def test_bredon_web_on_a_port_in_use_says_so(tmp_path: Path) -> None:
    assert bredon(tmp_path, "init").returncode == 0
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        done = bredon(tmp_path, "web", BREDON_WEB_PORT=str(taken.getsockname()[1]))
    assert done.returncode == 2
    assert "BREDON_WEB_PORT" in done.stderr and "Traceback" not in done.stderr
