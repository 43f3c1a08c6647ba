"""A small WebDriver BiDi client for Firefox, which serves the protocol itself
(`--remote-debugging-port`): no geckodriver and no browser download, only Debian's
firefox-esr and the `websockets` package. Enough to load the page, run scripts in it and
collect its errors; Playwright drives Chromium for everything else."""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import shutil
import subprocess
import tempfile
from contextlib import asynccontextmanager


def firefox_path() -> str | None:
    """Debian's Firefox (ESR), when installed."""
    return shutil.which("firefox-esr") or shutil.which("firefox")


@asynccontextmanager
async def firefox_session(timeout: float = 60):
    """A headless Firefox with a fresh profile and a BiDi session on its first tab:
    yields `(call, errors)`, where `await call(method, params)` returns the result and
    `errors` collects the page's error log entries."""
    import websockets

    profile = tempfile.mkdtemp(prefix="rulecraft-firefox-")
    browser = subprocess.Popen(
        [firefox_path(), "--headless", "--no-remote", "--profile", profile,
         "--remote-debugging-port", "0"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        address = await asyncio.wait_for(asyncio.to_thread(_listening, browser), timeout)
        async with websockets.connect(f"{address}/session", max_size=None) as ws:
            errors: list[str] = []
            numbers = itertools.count(1)

            async def call(method: str, params: dict):
                number = next(numbers)
                await ws.send(json.dumps({"id": number, "method": method, "params": params}))
                while True:
                    message = json.loads(await asyncio.wait_for(ws.recv(), timeout))
                    if message.get("method") == "log.entryAdded":
                        entry = message["params"]
                        if entry.get("level") == "error":
                            errors.append(entry.get("text", ""))
                    elif message.get("id") == number:
                        if message.get("type") == "error":
                            raise AssertionError(f"{method}: {message.get('message')}")
                        return message["result"]

            await call("session.new", {"capabilities": {}})
            await call("session.subscribe", {"events": ["log.entryAdded"]})
            yield call, errors
    finally:
        browser.kill()
        browser.wait(10)
        shutil.rmtree(profile, ignore_errors=True)


def _listening(browser) -> str:
    """The `ws://host:port` Firefox prints once its remote agent listens."""
    for line in browser.stderr:
        found = re.search(r"WebDriver BiDi listening on (ws://\S+)", line)
        if found:
            return found.group(1)
    raise RuntimeError("Firefox ended without starting its remote agent")


async def evaluate(call, context: str, expression: str):
    """The value of a JavaScript expression in the page (a promise is awaited)."""
    result = await call("script.evaluate", {"expression": expression, "awaitPromise": True,
                                            "target": {"context": context}})
    if result.get("type") == "exception":
        raise AssertionError(result["exceptionDetails"].get("text"))
    return result["result"].get("value")


async def wait_for(call, context: str, expression: str, seconds: float = 15):
    """Wait until a JavaScript expression is true in the page."""
    for _ in range(int(seconds / 0.1)):
        if await evaluate(call, context, f"Boolean({expression})"):
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"the page never had {expression}")
