"""Whole short games in a real browser: a Tri Peaks deal cleared by clicking the cards
the solver gives, Tri-Ominos and Triolet turns against the computer, hint, undo, the
record downloaded and replayed by `rulecraft replay`, and stepped through in the page."""

from __future__ import annotations

import re

from typer.testing import CliRunner

from engine.cli import app as cli
from tests.browser.play import click_move, play_first_moves, start, view, wait_log


def _replay(path) -> str:
    got = CliRunner().invoke(cli, ["replay", str(path)])
    assert got.exit_code == 0, got.output
    return got.output


def _download_replays(page, path) -> None:
    """The page's record downloaded to `path`, and `rulecraft replay` of it ends with the
    scores the page shows."""
    with page.expect_download() as download:
        page.click("#download")
    download.value.save_as(path)
    assert f"scores: {view(page)['scores']}" in _replay(path)


def test_a_solitaire_deal_cleared_by_clicking_the_solver_cards(page):
    start(page, "tripeaks", seed=5)
    page.click("#solve")
    page.wait_for_function("() => document.getElementById('message').textContent.includes('cleared')")
    assert "can still be cleared" in page.inner_text("#message")
    line = page.evaluate("async () => (await (await fetch(`/api/games/${view.id}/solver`)).json()).line")
    first = line[0].split()[-1] if line[0] != "deal" else None
    if first:  # the first card by keyboard: focus its slot, press Enter
        page.focus(f'#board .slot.exposed:has([data-name="{first}"])')
        page.keyboard.press("Enter")
        wait_log(page, 1)
    for n, move in enumerate(line, 1):
        if n == 1 and first:
            continue
        if move == "deal":
            page.click("#board [data-zone=pool]")
        else:
            name = move.split()[-1]
            page.click(f'#board .slot.exposed [data-name="{name}"]')
        wait_log(page, n)
    final = view(page)
    assert final["over"] and final["reason"] == "cleared"
    assert "game over (cleared)" in page.inner_text("#status")
    assert final["scores"][0] == sum(p["points"] for p in final["log"])


def test_turns_against_the_computer_with_hint_undo_and_the_record(page, tmp_path):
    v = start(page, "triominos", seed=1)
    assert v["seats"] == ["human", "mcts:100"]  # the page's default opponent: the search

    def check(v, before):  # the move is the person's, the last tile laid is marked
        assert not v["log"][before]["computer"]
        if v["log"][-1]["move"].startswith("place "):
            assert page.locator("#board .last").count() == 1

    v = play_first_moves(page, v, 4, check)
    assert any(p["computer"] for p in v["log"])
    page.click("#hint")
    page.wait_for_function("() => document.getElementById('message').textContent.startsWith('Best')")
    message = page.inner_text("#message")
    assert re.search(r"\(rulesets/triominos/\w+\.yaml:\d+\)", message)
    # with others, the search's move too, marked in the list of moves
    found = re.search(r"The search \(mcts:400\) plays: (.+) \(\d+% of visits\)\.", message)
    assert found and page.locator("#moves button.hinted").get_attribute("data-move") == found[1]
    played = len(v["log"])
    page.click("#undo")
    page.wait_for_function(f"() => view.log.length < {played}")
    assert view(page)["your_turn"]
    path = tmp_path / "game.json"
    _download_replays(page, path)
    # the record, loaded again, steps back and forth
    page.click("#new")
    page.set_input_files("#record-file", str(path))
    page.wait_for_selector("#replay:not([hidden])")
    length = view(page)["replay"]["length"]
    page.click("#back")
    page.wait_for_function(f"() => view.replay.cursor === {length - 1}")
    page.click("#first")
    page.wait_for_function("() => view.replay.cursor === 0")
    page.fill("#jump", "2")
    page.click("#go")
    page.wait_for_function("() => view.replay.cursor === 2")
    assert "move 2 of" in page.inner_text("#cursor")


def test_a_square_board_by_clicks_and_by_keyboard(page, tmp_path):
    v = start(page, "triolet", seed=1)
    # each listed move with its points: "+N" for a play, nothing after an exchange
    # (whose "0" would read as a token)
    shown = page.eval_on_selector_all("#moves button > span:first-child",
                                      "els => els.map(e => e.textContent.trim())")
    assert shown == [m["text"] + (f"  +{m['points']}" if m["points"] else "") for m in v["moves"]]
    assert any(m["text"].startswith("exchange") for m in v["moves"])
    before = len(v["log"])
    multi = next((m for m in v["moves"] if len(m["pairs"]) >= 2), v["moves"][0])
    click_move(page, multi)
    v = wait_log(page, before + 2)
    assert v["log"][before]["move"] == multi["text"]
    typed = v["moves"][0]["text"]
    page.focus("#move-text")
    page.keyboard.type(typed.removeprefix("place "))
    page.keyboard.press("Enter")
    v = wait_log(page, before + 4)
    assert v["log"][before + 2]["move"] == typed
    page.focus("#hint")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.getElementById('message').textContent.startsWith('Best')")
    _download_replays(page, tmp_path / "triolet.json")


def test_a_line_of_play_game_to_its_end(page, tmp_path):
    import pytest

    from engine.web.catalog import catalog

    if "dominoes" not in {g["name"] for g in catalog()["games"]}:
        pytest.skip("no `chain` board ruleset is shipped yet")
    # four players, three of them the computer: the match (to 61) ends in a few hands
    v = start(page, "dominoes", seed=0, players=4)
    v = play_first_moves(page, v, 400)
    assert v["over"] and "game over" in page.inner_text("#status")
    _download_replays(page, tmp_path / "line.json")


def test_render_writes_a_png(server_url, tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    golden = Path(__file__).parents[1] / "render" / "golden" / "tableau.yaml"
    out = tmp_path / "board.png"
    # a process of its own: Playwright's sync API runs one instance per thread, and this
    # session's browser is one already
    got = subprocess.run([sys.executable, "-m", "engine", "render", str(golden), "-o", str(out)],
                         capture_output=True, text=True)
    assert got.returncode == 0, got.stderr
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def _shown(page, selector: str) -> bool:
    return page.locator(selector).is_visible()


def test_stepping_a_record_shows_only_its_own_controls(page, tmp_path):
    v = start(page, "tripeaks", seed=5)
    assert _shown(page, "#hint") and _shown(page, "#undo") and _shown(page, "#restart")
    click_move(page, v["moves"][0])
    wait_log(page, 1)
    with page.expect_download() as download:
        page.click("#download")
    path = tmp_path / "game.json"
    download.value.save_as(path)
    page.click("#new")
    page.set_input_files("#record-file", str(path))
    page.wait_for_selector("#replay:not([hidden])")
    page.screenshot(path=str(tmp_path / "replay.png"))
    # nobody plays a record: no hint, undo, restart or solver, only the stepping controls
    for control in ("#hint", "#undo", "#restart", "#solve", "#moves-panel", "#move-text"):
        assert not _shown(page, control), control
    assert _shown(page, "#first") and _shown(page, "#download") and _shown(page, "#new")
    page.keyboard.press("h")  # the keys of hint and undo do nothing either
    page.keyboard.press("u")
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("() => view.replay.cursor === 0")
    assert page.inner_text("#message") == ""
    # a game started afterwards has its controls again
    page.click("#new")
    start(page, "tripeaks", seed=5)
    assert _shown(page, "#hint") and _shown(page, "#undo") and _shown(page, "#restart")


def test_a_ruleset_without_undo_has_no_undo_button(page):
    page.select_option("#game", "tripeaks")
    page.select_option("#ruleset", "tripeaks/pysol-scored")
    page.fill("#seed", "5")
    page.click("#start")
    page.wait_for_selector("#board svg")
    v = view(page)
    assert v["undo"] is False and not _shown(page, "#undo")
    assert _shown(page, "#hint") and _shown(page, "#restart")
    click_move(page, v["moves"][0])
    wait_log(page, 1)
    page.keyboard.press("u")  # the key does nothing: the move stays
    page.keyboard.press("h")
    page.wait_for_function("() => document.getElementById('message').textContent.startsWith('Best')")
    assert len(view(page)["log"]) == 1
