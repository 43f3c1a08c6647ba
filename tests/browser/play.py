"""Driving the page as a person would: choosing a game, moving by clicks."""

from __future__ import annotations


def start(page, game: str, seed: int, players: int | None = None) -> dict:
    """Choose `game` (its default ruleset), the seed, and start; returns the view."""
    page.select_option("#game", game)
    if players is not None:
        page.fill("#players", str(players))
        page.dispatch_event("#players", "change")
    page.fill("#seed", str(seed))
    page.click("#start")
    page.wait_for_selector("#board svg")
    return view(page)


def settle(page) -> None:
    """Wait until the page has no request under way."""
    page.wait_for_function("() => inflight === 0")


def view(page) -> dict:
    """The page's current view of the game (what the server last sent)."""
    return page.evaluate("() => view")


def wait_log(page, length: int) -> dict:
    page.wait_for_function(f"() => view && view.log.length >= {length}")
    return view(page)


def click_move(page, move: dict) -> None:
    """Make `move` (an entry of view.moves) by clicking its pieces and targets on the
    board; where the clicks leave a choice (a rotation, a shorter play), pick it from
    the list or play the selection, as a person would."""
    before = len(view(page)["log"])
    for _uid, target, name in move["pairs"]:
        if len(view(page)["log"]) > before:  # an earlier click already made it
            return
        board_piece = page.locator(f'#board [data-target="{target}"] [data-name="{name}"]')
        if board_piece.count():  # a piece taken from where it lies: one click
            board_piece.first.click()
            continue
        page.locator(f'#board .piece.hand[data-name="{name}"]').first.click()
        page.locator(f'#board [data-target="{target}"]').first.click()
        settle(page)
    if not move["pairs"]:
        page.locator(f'#moves button[data-move="{move["text"]}"]').click()
        return
    settle(page)
    if len(view(page)["log"]) > before:
        return
    listed = page.locator(f'#moves button[data-move="{move["text"]}"]')
    if listed.count():
        listed.click()
    else:
        page.click("#play-selection")


def play_first_moves(page, v: dict, turns: int, each=None) -> dict:
    """Up to `turns` turns of the person, each the first listed move made by clicks, until
    the game is over; after each, waits for the move and the computer's replies (the
    person to move again, or the end) and calls `each(view, log length before)`. The
    last view."""
    for _ in range(turns):
        if v["over"]:
            break
        before = len(v["log"])
        click_move(page, v["moves"][0])
        page.wait_for_function(f"() => view.log.length > {before} && (view.your_turn || view.over)")
        v = view(page)
        if each is not None:
            each(v, before)
    return v
