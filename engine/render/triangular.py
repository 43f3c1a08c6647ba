"""SVG of a `triangular` board: tiles with their corner numbers, upright or inverted, and
the open cells next to them as outlines. A cell's target id is `c,r`."""

from __future__ import annotations

import math

from engine.render.marks import Marks
from engine.render.pieces import triangle, triangle_points
from engine.render.style import Style
from engine.render.svg import Picture, el
from engine.topology.triangular_grid import corner_points, is_up

SIDE = 52
HEIGHT = SIDE * math.sqrt(3) / 2
_OPENINGS = ((0, 0), (1, 0))  # where a first tile may go: shown on an empty table


def cell_id(cell) -> str:
    """The target id of a cell: `c,r`, as in the move text `2-3-4@c,r`."""
    return f"{cell[0]},{cell[1]}"


def draw_board(board, topology, marks: Marks, style: Style) -> Picture:
    """The tiles and the open cells, translated so that the leftmost point is at 0."""
    tiles = board.cells
    wanted = {_parse(t) for t in marks.targets | marks.highlight | marks.last}
    shown_open = (set(board.edge_frontier) | {c for c in wanted if c is not None}) - set(tiles)
    if not tiles and not shown_open:
        shown_open = set(_OPENINGS)
    cells = list(shown_open) + list(tiles)
    xs = [p[0] for c in cells for p in corner_points(c)]
    ys = [p[1] for c in cells for p in corner_points(c)]
    x0, y0 = min(xs), min(ys)
    pic = Picture((max(xs) - x0) * SIDE / 2 + 4, (max(ys) - y0) * HEIGHT + 4)

    def box(cell) -> tuple[float, float]:
        c, r = cell
        return (c - x0) * SIDE / 2 + 2, (r - y0) * HEIGHT + 2

    for cell in sorted(shown_open):
        x, y = box(cell)
        pts = triangle_points(x, y, SIDE, is_up(cell))
        cid = cell_id(cell)
        pic.body.append(el("polygon", points=" ".join(f"{a:.1f},{b:.1f}" for a, b in pts),
                           fill="#ffffff", fill_opacity=0, stroke=style.colours["open"],
                           stroke_dasharray="4 3",
                           class_=marks.classes(cid, "cell open"), data_target=cid))
    for cell, (piece, numbers, _rotation) in tiles.items():
        x, y = box(cell)
        cid = cell_id(cell)
        body = triangle(x, y, SIDE, is_up(cell), numbers, style)
        pic.body.append(el("g", "".join(body), class_=marks.classes(cid, "cell tile"),
                           data_target=cid, data_piece=piece.uid))
    return pic


def move_pairs(state, move) -> list[tuple[int | None, str | None]]:
    """A placement's piece and its cell."""
    data = move.data
    cell = getattr(data, "cell", None)
    if cell is None:
        return []
    return [(p.uid, cell_id(cell)) for p in data.pieces]


def _parse(target: str):
    try:
        c, r = target.split(",")
        return int(c), int(r)
    except ValueError:
        return None
