"""The `none` board kind (a game played in zones alone): no board to draw; the zones are
drawn below it as for any game."""

from __future__ import annotations

from engine.render.marks import Marks
from engine.render.style import Style
from engine.render.svg import Picture


def draw_board(board, topology, marks: Marks, style: Style) -> Picture:
    """Nothing: an empty strip."""
    return Picture(10, 0)


def move_pairs(state, move) -> list[tuple[int | None, str | None]]:
    """None of its own: the generic pairs (a piece and the zone it goes to) apply."""
    return []
