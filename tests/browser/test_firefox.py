"""The page in Firefox (Debian's firefox-esr, driven over WebDriver BiDi): it loads its
catalog, starts a game, draws the board and takes a move by a click, with no script error.
Skipped with the reason when Firefox or `websockets` is missing."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.browser.firefox import evaluate, firefox_path, firefox_session, wait_for

try:
    import websockets  # noqa: F401
except ImportError:
    WHY = "the `websockets` package is not installed (it is in the `test` extra)"
else:
    WHY = None if firefox_path() else "no Firefox (Debian: apt-get install -y firefox-esr)"


@pytest.mark.skipif(WHY is not None, reason=WHY or "")
def test_a_tri_peaks_deal_plays_in_firefox(server_url):
    # In its own thread: the Chromium tests' Playwright owns this thread's event loop.
    with ThreadPoolExecutor(1) as worker:
        worker.submit(asyncio.run, _play(server_url)).result()


async def _play(url: str) -> None:
    async with firefox_session() as (call, errors):
        tree = await call("browsingContext.getTree", {})
        tab = tree["contexts"][0]["context"]
        await call("browsingContext.navigate", {"context": tab, "url": url, "wait": "complete"})
        await wait_for(call, tab, "document.querySelectorAll('#ruleset option').length")
        await evaluate(call, tab, """(() => {
            const game = document.querySelector('#game');
            game.value = 'tripeaks';
            game.dispatchEvent(new Event('input', {bubbles: true}));
            game.dispatchEvent(new Event('change', {bubbles: true}));
            document.querySelector('#seed').value = '1';
            document.querySelector('#start').click();
        })()""")
        await wait_for(call, tab, "document.querySelector('#board svg')")
        # Tri Peaks deals 28 cards: the bottom row's 10 face up, 18 face down above them
        assert await evaluate(call, tab, "document.querySelectorAll('#board .piece.back').length") >= 18
        await evaluate(call, tab, "document.querySelector('#moves button[data-move]').click()")
        await wait_for(call, tab, "view && view.log.length >= 1")
        assert errors == [], errors
