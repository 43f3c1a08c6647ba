"""The golden-scenario plumbing of tests/conftest.py: in-place updates keep the file."""

from __future__ import annotations

from tests.conftest import _flow, _update_in_place

TEXT = """\
# a comment that must survive
ruleset: x/y
expect:
  hexagon:
    move: place 5-5-0@1,0r0
    points: 61      # worked out by hand
    breakdown: {tile_value: 10, hexagon: 50}
  other:
    move: draw
    scores: [1, 2]
"""


def test_values_are_replaced_on_their_lines():
    new = _update_in_place("g.yaml", TEXT, {
        "hexagon": {"points": 60, "breakdown": {"tile_value": 10, "hexagon": 50},
                    "scores": [60, 0]},
        "other": {"points": -5, "scores": [1, -3]},
    })
    assert new is None  # `other` has no `points:` to update in place


def test_comments_and_layout_are_kept():
    new = _update_in_place("g.yaml", TEXT, {
        "hexagon": {"points": 60, "breakdown": {"tile_value": 10, "hexagon": 50}},
    })
    assert "# a comment that must survive" in new
    assert "    points: 60      # worked out by hand\n" in new
    assert new.count("\n") == TEXT.count("\n")


def test_flow_style():
    assert _flow({"a": 1, "b": [2, 3]}) == "{a: 1, b: [2, 3]}"
    assert _flow(-5) == "-5"
