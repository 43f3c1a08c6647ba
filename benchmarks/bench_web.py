"""How fast `rulecraft serve` answers: the first page load after the server starts, and
a move against the greedy agent. Prints figures; it is not a test (targets: a board on
the page within 1 s of the start, a greedy answer within 0.3 s).

    python benchmarks/bench_web.py [--moves 10]

The first figure is measured in Debian's chromium (Playwright) when it is there: from
just before the server starts to the first board drawn on the page (the catalog loaded,
a game started). Without chromium, the same requests are timed over HTTP (httpx). The
second is the median round trip of `POST /api/games/{id}/move` for the best listed move
in each shipped game's default ruleset against one greedy agent; the answer includes the
agent's reply, the new picture and the ranked moves.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx  # noqa: E402

from engine.render.png import CHROMIUM_ARGS, chromium_path  # noqa: E402
from engine.web.server import running  # noqa: E402


def first_load() -> tuple[float, float, str]:
    """Seconds from the server's start to listening, from then to a board on the page,
    and how the page was measured."""
    chromium = chromium_path()
    if chromium is None:
        started = time.perf_counter()
        with running() as url, httpx.Client(base_url=url) as http:
            listening = time.perf_counter()
            http.get("/")
            http.get("/static/app.js")
            catalog = http.get("/api/catalog").json()
            http.post("/api/games", json={"ruleset": catalog["games"][0]["rulesets"][0]["id"],
                                          "seats": ["human", "greedy"], "seed": 1})
            return listening - started, time.perf_counter() - listening, "httpx"
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        page = browser.new_page()
        started = time.perf_counter()
        with running() as url:
            listening = time.perf_counter()
            page.goto(url)
            page.wait_for_selector("#ruleset option", state="attached")
            page.click("#start")
            page.wait_for_selector("#board svg")
            took = time.perf_counter() - listening
        browser.close()
    return listening - started, took, "chromium"


def greedy_answers(moves: int) -> dict[str, float]:
    """Median seconds of a move's round trip per game (with the greedy reply)."""
    out = {}
    with running() as url, httpx.Client(base_url=url, timeout=30) as http:
        for game in http.get("/api/catalog").json()["games"]:
            ruleset = next((r for r in game["rulesets"] if r["default"]), game["rulesets"][0])
            seats = ["human"] + ["greedy"] * (max(ruleset["players"]["min"], 2) - 1)
            if ruleset["players"]["max"] < 2:
                continue  # a solitaire has no computer to answer
            view = http.post("/api/games", json={"ruleset": ruleset["id"], "seats": seats,
                                                 "seed": 1}).json()
            times = []
            for _ in range(moves):
                if view["over"] or not view["moves"]:
                    break
                started = time.perf_counter()
                view = http.post(f"/api/games/{view['id']}/move",
                                 json={"move": view["moves"][0]["text"]}).json()
                times.append(time.perf_counter() - started)
            out[ruleset["id"]] = statistics.median(times)
    return out


def server_cpu() -> tuple[float, float, float]:
    """CPU seconds (this process, so little affected by other load) of the imports, of
    the first board (page, script, catalog, a new game of the first game's default
    ruleset) and of one move against greedy, all in process through Starlette's client."""
    import warnings

    warnings.filterwarnings("ignore")  # Starlette's note about its test client's httpx
    c0 = time.process_time()
    from starlette.testclient import TestClient

    from engine.web.app import create_app
    c1 = time.process_time()
    client = TestClient(create_app())
    client.get("/")
    client.get("/static/app.js")
    game = client.get("/api/catalog").json()["games"][0]
    rid = next((r for r in game["rulesets"] if r["default"]), game["rulesets"][0])["id"]
    view = client.post("/api/games", json={"ruleset": rid, "seats": ["human", "greedy"],
                                           "seed": 1}).json()
    c2 = time.process_time()
    client.post(f"/api/games/{view['id']}/move", json={"move": view["moves"][0]["text"]})
    return c1 - c0, c2 - c1, time.process_time() - c2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=10)
    args = parser.parse_args()
    imports, board, move = server_cpu()
    print(f"server CPU: imports {imports:.2f} s, the first board {board:.2f} s, "
          f"a move against greedy {move * 1000:.0f} ms")
    start, took, how = first_load()
    print(f"server start (imports, listening): {start:.2f} s")
    print(f"first page load with a board, once listening: {took:.2f} s ({how})")
    for rid, median in greedy_answers(args.moves).items():
        print(f"a move against greedy, answered (median of {args.moves}): {median * 1000:.0f} ms  {rid}")


if __name__ == "__main__":
    main()
