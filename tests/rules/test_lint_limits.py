"""issue 16 item 9: lint stops after a size out of range (S203) the way simulate refuses
it, instead of building a model of 10^9 players or 2 GB of tiles; and sizes inside the
ranges that still multiply into too many pieces are R427 (no piece built)."""

from __future__ import annotations

import pytest

from engine.rules import check_ruleset
from engine.rules.lint import lint_paths

TRIOMINOS = "extends: triominos/pressman\nruleset: {game: triominos, title: H}\n"
TRIPEAKS = "extends: tripeaks/aisleriot\nruleset: {game: tripeaks, title: H}\n"


@pytest.mark.parametrize("head, body", [
    (TRIOMINOS, "players: {max: 1000000000}"),                       # 10^9 loop iterations
    (TRIOMINOS, "components: {tiles: {values: {max: 100000}}}"),     # 17-32 s, 2 GB
    (TRIOMINOS, "components: {tiles: {corners: 12}}"),
    (TRIPEAKS, "components: {cards: {ranks: 100000}}"),              # 5 s, 329 MB
], ids=["players", "values", "corners", "ranks"])
def test_lint_stops_at_s203_like_simulate(tmp_path, head, body):
    path = tmp_path / "house.yaml"
    path.write_text(head + body + "\n", encoding="utf-8")
    assert [d.code for d in lint_paths([path])] == ["S203"]
    ruleset, diagnostics = check_ruleset(str(path))
    assert ruleset is None and [d.code for d in diagnostics] == ["S203"]


def test_in_range_sizes_that_multiply_are_r427(tmp_path):
    # 6 corners from 100 values: C(100 + 6 - 1, 6) = C(105, 6) = 1,609,344,100 tiles
    path = tmp_path / "house.yaml"
    path.write_text(TRIOMINOS + "components: {tiles: {corners: 6, values: {max: 99}}}\n")
    (problem,) = lint_paths([path])
    assert problem.code == "R427" and "1,609,344,100 tiles" in problem.message
    assert (problem.pos.line, problem.pos.col) == (3, 31)  # at `corners: 6`


def test_the_largest_shipped_like_sets_still_build(tmp_path):
    # 0-9 on 4 corners: C(10 + 4 - 1, 4) = C(13, 4) = 715 tiles, well under 10,000
    path = tmp_path / "house.yaml"
    path.write_text(TRIOMINOS + "components: {tiles: {corners: 4, values: {max: 9}}}\n")
    assert not [d for d in lint_paths([path]) if d.code == "R427"]
