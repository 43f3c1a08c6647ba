"""Browser tests: the page driven in Debian's chromium by Playwright, against a server on
a free port. One browser for the whole session. Without chromium, Playwright or the `web`
extra, every test here is skipped with the reason."""

from __future__ import annotations

import pytest

from engine.render.png import CHROMIUM_ARGS, chromium_path


def _missing() -> str | None:
    for module, extra in (("starlette", "web"), ("uvicorn", "web"), ("playwright", "browser")):
        try:
            __import__(module)
        except ImportError:
            return f"the `{extra}` extra is not installed (pip install '.[{extra}]')"
    if chromium_path() is None:
        return "no chromium (Debian: apt-get install -y chromium; or set RULECRAFT_CHROMIUM)"
    return None


MISSING = _missing()


@pytest.fixture(scope="session")
def server_url():
    if MISSING:
        pytest.skip(MISSING)
    from engine.web.server import running

    with running() as url:
        yield url


@pytest.fixture(scope="session")
def browser(server_url):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        launched = pw.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser, server_url):
    context = browser.new_context(viewport={"width": 1280, "height": 1000}, accept_downloads=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server_url)
    page.wait_for_selector("#ruleset option", state="attached")
    yield page
    context.close()
    assert errors == [], errors  # no script error on the page
