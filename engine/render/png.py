"""Turning an SVG picture into PNG with what this machine has: `rsvg-convert`, or a
headless Chromium driven by Playwright (the `browser` extra). Neither: a message saying
how to get one."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

# Flags for a Chromium that must not reach the network or keep a profile.
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
HOW = ("no SVG to PNG converter here: install `rsvg-convert` (Debian: librsvg2-bin), or "
       "Chromium (Debian: chromium) with `pip install 'rulecraft[browser]'`; or write .svg")


class NoConverter(RuntimeError):
    """No way to make a PNG on this machine."""


def chromium_path() -> str | None:
    """The Chromium to drive: $RULECRAFT_CHROMIUM, else chromium on the PATH."""
    found = os.environ.get("RULECRAFT_CHROMIUM") or shutil.which("chromium") \
        or shutil.which("chromium-browser")
    return found if found and Path(found).exists() else None


def svg_to_png(svg: str, out: Path) -> str:
    """Write `svg` as a PNG file; returns the converter used. Raises NoConverter."""
    rsvg = shutil.which("rsvg-convert")
    if rsvg:
        subprocess.run([rsvg, "-o", str(out)], input=svg.encode(), check=True)
        return "rsvg-convert"
    chromium = chromium_path()
    if chromium is None:
        raise NoConverter(HOW)
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        raise NoConverter(HOW) from None
    with tempfile.TemporaryDirectory() as tmp:
        page_file = Path(tmp) / "picture.svg"
        page_file.write_text(svg, encoding="utf-8")
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
            try:
                page = browser.new_page()
                page.goto(page_file.as_uri())
                page.locator("svg").screenshot(path=str(out))
            finally:
                browser.close()
    return "chromium"
