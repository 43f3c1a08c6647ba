"""Drawing a `triangular` board as text: numbers at the corners, `c,r` inside each tile."""

from __future__ import annotations

from engine.topology.styled import plain
from engine.topology.triangular_grid import is_up

# A board here is any object with a triangular board's `cells`, `points` and
# `edge_frontier` (a `TriangularBoard`): this module does not import the board kind, which
# imports it.

# The strokes of a tile in its 3 x 13 box: (line, column, text); spaces leave what is there.
_SHAPES = {
    True: ((1, 4, "/   \\"), (2, 2, "/       \\"), (3, 1, "-" * 11)),
    False: ((0, 1, "-" * 11), (1, 2, "\\       /"), (2, 4, "\\   /")),
}


def render(board) -> str:
    """Tiles as triangles: numbers at the corners, `c,r` inside; `(c,r)` marks an open cell."""
    return plain(draw(board))


def draw(board, last=None) -> list:
    """The drawing as styled runs: tile strokes and corner numbers (`piece`), the tile
    the last move laid (`last`), open cells (`open`), the legend line (`axis`).

    Six columns per half cell width and three lines per row: a line of points (numbers
    joined by `-` along horizontal edges), then the upper and lower halves of the row.
    """
    tiles = board.cells  # a new dict at each reading
    if not tiles:
        return [[("(empty table: the first tile goes on 0,0 pointing up or 1,0 pointing "
                  "down)", "axis")]]
    shown = sorted(board.edge_frontier) + list(tiles)
    x0 = min(c for c, _ in shown)
    y0 = min(r for _, r in shown)
    width = 6 * (max(c for c, _ in shown) + 2 - x0) + 4
    height = 3 * (max(r for _, r in shown) + 1 - y0) + 1
    lines = [[" "] * width for _ in range(height)]
    styles: list[list] = [[None] * width for _ in range(height)]

    def put(line: int, col: int, text: str, style: str) -> None:
        for i, ch in enumerate(text):
            if 0 <= col + i < width and ch != " ":
                lines[line][col + i] = ch
                styles[line][col + i] = style

    for cell in shown:  # open cells first, so that tile edges are drawn over them
        c, r = cell
        col, top = 6 * (c - x0), 3 * (r - y0)
        style = "open" if cell not in tiles else "last" if cell == last else "piece"
        label = f"{c},{r}" if cell in tiles else f"({c},{r})"
        put(top + (2 if is_up(cell) else 1), col + 6 - len(label) // 2, label, style)
        if cell in tiles:
            for line, dx, strokes in _SHAPES[is_up(cell)]:
                put(top + line, col + dx, strokes, style)
    for (x, y), number in board.points.items():
        put(3 * (y - y0), 6 * (x - x0), str(number), "piece")
    out = _trimmed([_runs(chars, marks) for chars, marks in zip(lines, styles)])
    return out + [[("c,r names the cell of a tile; (c,r) is an open cell", "axis")]]


def _trimmed(lines: list) -> list:
    """The lines without the blank ones above and below the drawing."""
    filled = [i for i, line in enumerate(lines) if "".join(t for t, _ in line).strip()]
    return lines[filled[0]:filled[-1] + 1] if filled else []


def _runs(chars: list, styles: list) -> list:
    """One line's characters grouped into runs of one style, trailing blanks dropped."""
    text = "".join(chars).rstrip()
    runs: list = []
    for ch, style in zip(text, styles):
        style = style if ch != " " else None
        if runs and runs[-1][1] == style:
            runs[-1] = (runs[-1][0] + ch, style)
        else:
            runs.append((ch, style))
    return runs
