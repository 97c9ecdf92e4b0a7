"""The pages in a real browser: headless Chromium (the distribution's package, as CI installs
it) over the DevTools protocol, at a phone's width and a desktop's. Each page renders with no
console error (a script or style the Content-Security-Policy refused would be one), has no
serious accessibility violation (axe-core), and shows nothing private; the arrow keys step
through a game; a move made through the service appears on an open page without a reload.
Screenshots are left in the test's folder (``--basetemp`` keeps them) to be looked at."""

from __future__ import annotations

import json
import os
from collections.abc import AsyncIterator
from importlib import resources
from pathlib import Path

import pytest
from aiohttp.test_utils import TestServer

from bot.guild_settings import Pages
from bot.players.model import PlayerRef
from bot.services import Services
from bot.settings import WebPages
from tests.bot import tournament_helpers as tournaments
from tests.bot.conftest import BOB, GUILD, clock, db_path, play, services, start_game
from tests.web.devtools import CHROMIUM, Tab, chromium
from tests.web.test_app import pages_on
from web.app import PageSite

__all__ = ["clock", "db_path", "services"]  # the services' fixtures, as tests/bot has them

# Without the distribution's chromium a developer's run leaves these out; CI installs it, and
# there (CI set) a missing browser fails the run instead of skipping the check.
pytestmark = pytest.mark.skipif(
    CHROMIUM is None and not os.environ.get("CI"), reason="needs the chromium package"
)

NOTE = "private note qzx"
LONG_NAME = "Bartholomew_the_very_long_named_player_of_tak"  # one word, wider than a phone
# Against the width asked for: a phone (mobile emulation) widens its viewport to the content.
WIDER_THAN = "document.documentElement.scrollWidth > {width}"
WIDTHS = (400, 1280)
# Only the violations axe counts as serious or critical fail the test.
AXE_RUN = """
axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21aa']}})
  .then(r => ({passes: r.passes.length, serious: r.violations
    .filter(v => ['serious', 'critical'].includes(v.impact))
    .map(v => v.id + ': ' + v.nodes.map(n => n.target.join(' ')).join(', '))}))
"""


@pytest.fixture
async def server(services: Services) -> AsyncIterator[tuple[TestServer, PageSite]]:
    site = PageSite(services, WebPages(), poll_every=0.2)
    async with TestServer(site.app, host="127.0.0.1") as test_server:
        yield test_server, site


async def axe_violations(tab: Tab) -> list[str]:
    script = resources.files("axe_core_python").joinpath("axe.min.js").read_text()
    await tab.evaluate(script)
    found = await tab.evaluate(AXE_RUN)
    assert found["passes"] > 0  # axe ran its rules
    return list(found["serious"])


async def test_every_page_in_chromium(
    services: Services, server: tuple[TestServer, PageSite], tmp_path: Path
) -> None:
    test_server, site = server
    await pages_on(services, Pages.LISTED)
    await pages_on(services, Pages.LISTED, guild=tournaments.GUILD)
    game = await start_game(services, size=5)
    await play(services, game.id, "a1 e5 c3 d3 c4 d4")
    await services.notes.write(game.id, BOB.id, NOTE)
    await services.conditions.add(game.id, BOB.id, "b2 b3 b4 a5")
    finished = await start_game(services, size=5)
    await services.games.resign(finished.id, BOB.id)
    await services.players.register(PlayerRef(BOB.id, LONG_NAME))
    event = await tournaments.new_tournament(
        services,
        [tournaments.ANN, tournaments.BEN, tournaments.CAT, tournaments.DAN],
        format="elimination",
    )
    await tournaments.start(services, event.id)
    await tournaments.play_round(services, event.id)
    pages = {
        "game": site.addresses.game(game.id),
        "finished": site.addresses.game(finished.id) + "?ply=0",
        "tournament": site.addresses.tournament(event.id),
        "player": site.addresses.player(GUILD, BOB.id),
        "lobby": site.addresses.server(GUILD),
    }
    async with chromium(tmp_path / "profile") as tab:
        await tab.evaluate("console.error('heard')")
        await tab.until("true")
        assert tab.errors == ["heard"]  # what a page logs is heard
        for width in WIDTHS:
            for name, path in pages.items():
                tab.errors.clear()
                await tab.open(str(test_server.make_url(path)), width)
                await tab.until("document.readyState === 'complete'")
                html = await tab.evaluate("document.documentElement.outerHTML")
                assert NOTE not in html and "b2" not in html, name
                assert await tab.evaluate("document.images.length > 0") or name == "lobby"
                broken = "[...document.images].filter(i => !i.complete || !i.naturalWidth).length"
                assert await tab.until(f"{broken} === 0"), name
                await tab.screenshot(tmp_path / f"{name}-{width}.png")
                # Nothing wider than the screen: a phone's reader never scrolls sideways.
                assert await tab.evaluate(WIDER_THAN.format(width=width)) is False, (name, width)
                assert await axe_violations(tab) == [], (name, width)
                assert tab.errors == [], (name, width)

        # A German reader with a dark screen: the German words, and contrast enough in the dark.
        await tab.send("Network.enable")
        await tab.send("Network.setExtraHTTPHeaders", headers={"Accept-Language": "de"})
        await tab.send(
            "Emulation.setEmulatedMedia",
            features=[{"name": "prefers-color-scheme", "value": "dark"}],
        )
        for name in ("game", "tournament"):
            await tab.open(str(test_server.make_url(pages[name])), 400)
            assert await tab.evaluate("document.documentElement.lang") == "de"
            german = {"game": "Pfeiltasten", "tournament": "einfaches K.-o."}[name]
            assert german in await tab.evaluate("document.body.innerText"), name
            await tab.screenshot(tmp_path / f"{name}-400-de-dark.png")
            assert await axe_violations(tab) == [], name
        await tab.send("Network.setExtraHTTPHeaders", headers={})
        await tab.send("Emulation.setEmulatedMedia", features=[])

        # The keys step through the game, and a move made meanwhile appears without a reload.
        await tab.open(str(test_server.make_url(pages["game"])), 1280)
        await tab.press("ArrowLeft")
        await tab.until("document.getElementById('page').dataset.ply === '5'")
        await tab.press("ArrowLeft")
        await tab.until("document.getElementById('page').dataset.ply === '4'")
        await tab.press("ArrowRight")
        await tab.until("document.getElementById('page').dataset.ply === '5'")
        assert "?ply=5" in await tab.evaluate("location.href")
        await tab.press("ArrowRight")
        await tab.until("document.getElementById('page').dataset.ply === '6'")
        await play(services, game.id, "b4")
        await tab.until("document.getElementById('page').dataset.last === '7'")
        assert await tab.evaluate("document.getElementById('page').dataset.ply") == "7"
        assert ">b4</a>" in await tab.evaluate("document.getElementById('page').innerHTML")
        assert tab.errors == []
        await tab.screenshot(tmp_path / "game-live-1280.png")
    print(json.dumps(sorted(str(p) for p in tmp_path.glob("*.png"))))
