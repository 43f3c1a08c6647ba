"""Screenshots of the web page for the docs: docs/images/<game>.png, one per game.

Starts `rulecraft serve`'s app on a free port, plays a few moves of each shipped game in
Debian's chromium (through Playwright: the `browser` and `web` extras) and saves the
page. Run from the repository root:

    python scripts/screenshots.py            # every game
    python scripts/screenshots.py triolet    # one game

The games are the shipped ones found in the catalog (the default ruleset of each), with
a fixed seed, so that the pictures change only when the page or the drawing does.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.render.png import CHROMIUM_ARGS, chromium_path  # noqa: E402
from engine.web.catalog import catalog  # noqa: E402
from engine.web.server import running  # noqa: E402

OUT = ROOT / "docs" / "images"
SEED = 3
SEEDS = {"triominos": 1}  # a seed whose first moves make a fuller picture
MOVES = 5  # the player's moves made before the picture


def shoot(page, url: str, game: str) -> Path:
    """Start `game`, make a few best moves by the list, and save the page."""
    page.goto(url)
    page.wait_for_selector("#ruleset option", state="attached")
    page.select_option("#game", game)
    page.fill("#seed", str(SEEDS.get(game, SEED)))
    page.click("#start")
    page.wait_for_selector("#board svg")
    for _ in range(MOVES):
        view = page.evaluate("() => view")
        if view["over"] or not view["moves"]:
            break
        page.locator("#moves button").first.click()
        page.wait_for_function(f"() => view.log.length > {len(view['log'])}")
    page.click("#hint")
    page.wait_for_timeout(300)
    path = OUT / f"{game}.png"
    page.screenshot(path=str(path), full_page=False)
    return path


def main(games: list[str]) -> int:
    chromium = chromium_path()
    if chromium is None:
        print("no chromium: apt-get install -y chromium (or set RULECRAFT_CHROMIUM)")
        return 1
    from playwright.sync_api import sync_playwright

    OUT.mkdir(parents=True, exist_ok=True)
    names = games or [g["name"] for g in catalog()["games"]]
    with running() as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        for game in names:
            print(f"wrote {shoot(page, url, game).relative_to(ROOT)}")
        browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
