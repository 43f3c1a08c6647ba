"""Drawing a `triangular` board as text: numbers at the corners, `c,r` inside each tile."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.topology.triangular_grid import is_up

if TYPE_CHECKING:
    from engine.topology.triangular import TriangularBoard

# The strokes of a tile in its 3 x 13 box: (line, column, text); spaces leave what is there.
_SHAPES = {
    True: ((1, 4, "/   \\"), (2, 2, "/       \\"), (3, 1, "-" * 11)),
    False: ((0, 1, "-" * 11), (1, 2, "\\       /"), (2, 4, "\\   /")),
}


def render(board: "TriangularBoard") -> str:
    """Tiles as triangles: numbers at the corners, `c,r` inside; `(c,r)` marks an open cell.

    Six columns per half cell width and three lines per row: a line of points (numbers
    joined by `-` along horizontal edges), then the upper and lower halves of the row.
    """
    tiles = board.cells  # a new dict at each reading
    if not tiles:
        return "(empty table: the first tile goes on 0,0 pointing up or 1,0 pointing down)"
    shown = sorted(board.edge_frontier) + list(tiles)
    x0 = min(c for c, _ in shown)
    y0 = min(r for _, r in shown)
    width = 6 * (max(c for c, _ in shown) + 2 - x0) + 4
    lines = [[" "] * width for _ in range(3 * (max(r for _, r in shown) + 1 - y0) + 1)]

    def put(line: int, col: int, text: str) -> None:
        for i, ch in enumerate(text):
            if 0 <= col + i < width and ch != " ":
                lines[line][col + i] = ch

    for cell in shown:  # open cells first, so that tile edges are drawn over them
        c, r = cell
        col, top = 6 * (c - x0), 3 * (r - y0)
        label = f"{c},{r}" if cell in tiles else f"({c},{r})"
        put(top + (2 if is_up(cell) else 1), col + 6 - len(label) // 2, label)
        if cell in tiles:
            for line, dx, strokes in _SHAPES[is_up(cell)]:
                put(top + line, col + dx, strokes)
    for (x, y), number in board.points.items():
        put(3 * (y - y0), 6 * (x - x0), str(number))
    text = "\n".join("".join(line).rstrip() for line in lines).strip("\n")
    return text + "\n" + "c,r names the cell of a tile; (c,r) is an open cell"
