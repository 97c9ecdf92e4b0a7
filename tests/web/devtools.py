"""Headless Chromium driven over the DevTools protocol with aiohttp's websocket client: enough to
open a page at a width, read what it logged, press keys, evaluate JavaScript and take a
screenshot, with no driver or browser package beyond the distribution's ``chromium``."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import json
import shutil
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
START_TIMEOUT = 60.0  # seconds for the browser to say where it listens, on a busy machine
KEYS = {"ArrowLeft": 37, "ArrowRight": 39}


class Tab:
    """One page of the browser, with every console message and error it reported."""

    def __init__(self, socket: aiohttp.ClientWebSocketResponse) -> None:
        self._socket = socket
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._events: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.errors: list[str] = []
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for message in self._socket:
            data = json.loads(message.data)
            if "id" in data:
                future = self._waiting.pop(data["id"])
                if "error" in data:
                    future.set_exception(RuntimeError(data["error"]["message"]))
                else:
                    future.set_result(data.get("result", {}))
                continue
            method, params = data.get("method"), data.get("params", {})
            if method == "Runtime.exceptionThrown":
                self.errors.append(params["exceptionDetails"].get("text", "exception"))
            elif method == "Runtime.consoleAPICalled" and params["type"] in ("error", "assert"):
                self.errors.append(" ".join(str(a.get("value")) for a in params["args"]))
            elif method == "Log.entryAdded" and params["entry"]["level"] == "error":
                self.errors.append(params["entry"]["text"] + " " + params["entry"].get("url", ""))
            await self._events.put(data)

    async def send(self, method: str, **params: Any) -> dict[str, Any]:
        number = next(self._ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[number] = future
        await self._socket.send_json({"id": number, "method": method, "params": params})
        return await asyncio.wait_for(future, 60)

    async def open(self, url: str, width: int) -> None:
        """Load `url` at `width` CSS pixels (a phone's from 500 down), until its load event."""
        await self.send(
            "Emulation.setDeviceMetricsOverride",
            width=width,
            height=900,
            deviceScaleFactor=1,
            mobile=width < 500,
        )
        while not self._events.empty():
            self._events.get_nowait()
        await self.send("Page.navigate", url=url)
        while (await asyncio.wait_for(self._events.get(), 60)).get("method") != (
            "Page.loadEventFired"
        ):
            pass

    async def evaluate(self, expression: str) -> Any:
        result = await self.send(
            "Runtime.evaluate", expression=expression, awaitPromise=True, returnByValue=True
        )
        if "exceptionDetails" in result:
            raise RuntimeError(result["exceptionDetails"].get("text", expression))
        return result["result"].get("value")

    async def press(self, key: str) -> None:
        for kind in ("keyDown", "keyUp"):
            await self.send(
                "Input.dispatchKeyEvent",
                type=kind,
                key=key,
                code=key,
                windowsVirtualKeyCode=KEYS[key],
            )

    async def until(self, expression: str, timeout: float = 30.0) -> Any:
        """Wait until `expression` is truthy in the page; its value."""
        async with asyncio.timeout(timeout):
            while not (value := await self.evaluate(expression)):
                await asyncio.sleep(0.1)
        return value

    async def screenshot(self, path: Path) -> None:
        shot = await self.send("Page.captureScreenshot", format="png", captureBeyondViewport=True)
        path.write_bytes(base64.b64decode(shot["data"]))

    async def close(self) -> None:
        self._reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._reader
        await self._socket.close()


@contextlib.asynccontextmanager
async def chromium(profile: Path) -> AsyncIterator[Tab]:
    """A headless Chromium with one tab, its logs on; ended on leaving."""
    assert CHROMIUM is not None
    process = subprocess.Popen(
        [
            CHROMIUM,
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--remote-debugging-port=0",
            f"--user-data-dir={profile}",
            "about:blank",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        port_file = profile / "DevToolsActivePort"
        async with asyncio.timeout(START_TIMEOUT):
            while not port_file.exists() or not port_file.read_text().strip():
                await asyncio.sleep(0.1)
        port = port_file.read_text().split()[0]
        async with aiohttp.ClientSession() as session:
            async with session.put(f"http://127.0.0.1:{port}/json/new?about:blank") as response:
                target = await response.json()
            socket = await session.ws_connect(target["webSocketDebuggerUrl"], max_msg_size=0)
            tab = Tab(socket)
            try:
                for domain in ("Page", "Runtime", "Log"):
                    await tab.send(f"{domain}.enable")
                yield tab
            finally:
                await tab.close()
    finally:
        process.terminate()
        process.wait(30)
