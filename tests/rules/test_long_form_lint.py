"""Lint explains a long form of `move` written wrong: its code, where (file:line:col, in
the file that wrote the offending value) and the fix; a right one lints clean."""

import pytest

from engine.rules.lint import lint_paths

HEADERS = {
    "triolet": "extends: triolet/standard\nruleset: {game: triolet, title: House}\n",
    "tripeaks": "extends: tripeaks/aisleriot\nruleset: {game: tripeaks, title: House}\n",
    "triominos": "extends: triominos/pressman\nruleset: {game: triominos, title: House}\n",
}

# (game, the actions section, the code, the line:col of the position, words of the fix)
# Lines count from 1 with the two header lines and `actions:`; columns from 1.
CASES = {
    "to-board-on-a-tableau": (
        "tripeaks", "  lay: {kind: move, from: hand, to: board}\n",
        "R492", "4:37", "use a board kind that places pieces"),  # at `board`
    "to-board-from-the-pool": (
        "triominos", "  lay: {kind: move, from: pool, to: board}\n",
        "R492", "4:27", "`from: hand`"),  # at `pool`
    "to-board-without-from": (
        "triominos", "  place: {kind: move, to: board}\n",
        "R492", "4:27", "`from: hand`"),  # at `board`
    "count-0-with-to": (
        "triominos", "  pass: {kind: move, count: 0, to: pile}\n",
        "R497", "4:29", "drop `from:` and `to:`"),  # at `0`
    "random-without-redraw": (
        "triolet", "  exchange:\n    $delete: [max]\n    kind: move\n    from: hand\n"
        "    to: pool\n    at: random\n    count: {up_to: 3}\n",
        "R493", "9:9", "redraw: true"),  # at `random`
    "random-into-the-pile": (
        "triolet", "  swap: {kind: move, from: hand, to: pile, at: random, redraw: true}\n",
        "R493", "4:38", "to: pool"),  # at `pile`
    "at-sideways": (
        "triominos", "  pass: {kind: move, count: 0, at: sideways}\n",
        "R493", "4:36", "`at: random`"),  # at `sideways` (S204 too)
    "exchange-of-two-at-least": (
        "triolet", "  exchange:\n    $delete: [max]\n    kind: move\n    from: hand\n"
        "    to: pool\n    at: random\n    redraw: true\n    count: {min: 2, max: 3}\n",
        "R493", "11:12", "`count: {up_to: n}`"),  # at the count
    "run-on-a-placement": (
        "triominos", "  place: {kind: move, from: hand, to: board, run: true}\n",
        "R493", "4:51", "remove `run:`"),  # at `true`
    "contact-between-zones": (
        "triominos", "  keep: {kind: move, from: hand, to: pile, contact: edge}\n",
        "R493", "4:53", "`to: board`"),  # at `edge`
    "max-kept-from-the-base": (
        "triolet", "  exchange: {kind: move, from: hand, to: pool, at: random, redraw: true,"
        " count: {up_to: 3}}\n",
        "R493", None, "$delete: [max]"),
}


def _lint(tmp_path, write, game: str, actions: str):
    path = write(tmp_path, "house.yaml", HEADERS[game] + "actions:\n" + actions)
    return path, lint_paths([path])


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_mistaken_long_form_is_explained(case, tmp_path, write):
    game, actions, code, where, fix = CASES[case]
    path, found = _lint(tmp_path, write, game, actions)
    (diag,) = [d for d in found if d.code == code]
    assert [d.code for d in found if d.is_error and d.code not in (code, "S204")] == []
    assert diag.is_error and fix in (diag.help or "")
    if where is None:  # `max:` written by the base ruleset, kept by the merge
        assert diag.pos.path.endswith("triolet/standard.yaml")
    else:
        assert (diag.pos.path, f"{diag.pos.line}:{diag.pos.col}") == (str(path), where)


@pytest.mark.parametrize("actions", [
    "  place: {kind: move, from: hand, to: board, contact: point}\n"
    "  pass: {kind: move, count: 0, if: not can_place and pool.count == 0}\n",
    "  draw: {kind: move, from: well, count: {up_to: 1}, to: rack, ends_turn: false}\n",
])
def test_a_right_long_form_lints_clean(actions, tmp_path, write):
    _, found = _lint(tmp_path, write, "triominos", actions)
    assert [d for d in found if d.is_error] == []
