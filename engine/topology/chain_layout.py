"""The geometry of a `chain` board, as a person lays it out, and its text drawing.

Coordinates are in tile halves (a tile is 2 long and 1 wide), x to the right and y
downwards, the set's centre at (0, 0); a position is a tile's centre, a multiple of 0.5.
`W` grows to the left, `E` to the right; a spinner's extra arms grow across its own arm
(`N` up and `S` down from a spinner on a horizontal arm, `N` left and `S` right from one on
a vertical arm). Lines that would cross are not bent: a picture may overlap them.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.pieces import Piece
from engine.topology.base import Board  # (a ChainBoard: the chain module imports this one)



@dataclass(frozen=True)
class LaidTile:
    """One tile of the layout: `halves` are its numbers left to right (or top to bottom)."""

    piece: Piece
    x: float
    y: float
    vertical: bool  # its long side runs up and down
    halves: tuple[int, int]
    crosswise: bool  # it lies across its arm (a double)
    arm: str  # the arm it is on (`set` for the first tile)
    spinner: bool


@dataclass(frozen=True)
class OpenEnd:
    """An open end: its arm, the number it shows, where a tile would touch it, which way."""

    arm: str
    number: int
    x: float
    y: float
    dx: int
    dy: int


@dataclass(frozen=True)
class Layout:
    """The tiles in the order they were laid, and the open ends in arm order."""

    tiles: tuple[LaidTile, ...]
    ends: tuple[OpenEnd, ...]


def layout_of(board: "Board") -> Layout:
    """Where each tile of `board` lies and where its open ends are."""
    if not board.tiles:
        return Layout((), ())
    first = board.tiles[0]
    across = first.double and board.crosswise
    placed = {id(first): LaidTile(first.piece, 0.0, 0.0, across, (first.inner, first.outer), across,
                                  "set", first.spinner)}
    heading = {id(first): (1, 0)}  # the direction of each tile's arm
    half = 0.5 if across else 1.0
    starts = {"W": ((-half, 0.0), (-1, 0)), "E": ((half, 0.0), (1, 0))}
    ends = []
    for arm, laid in board.arms.items():
        if arm not in starts:
            starts[arm] = _branch_start(board, arm, placed, heading)
        (x, y), (dx, dy) = starts[arm]
        for t in laid:
            cross = t.double and board.crosswise
            length = 1.0 if cross else 2.0
            cx, cy = x + dx * length / 2, y + dy * length / 2
            halves = (t.inner, t.outer) if dx + dy > 0 else (t.outer, t.inner)
            placed[id(t)] = LaidTile(t.piece, cx, cy, (dy != 0) != cross, halves, cross, arm, t.spinner)
            heading[id(t)] = (dx, dy)
            x, y = x + dx * length, y + dy * length
        number = laid[-1].outer if laid else board._root_number(arm)
        ends.append(OpenEnd(arm, number, x, y, dx, dy))
    return Layout(tuple(placed[id(t)] for t in board.tiles), tuple(ends))


def _branch_start(board: "Board", arm: str, placed: dict, heading: dict):
    """Where an extra arm of a spinner starts: the middle of the spinner's short end."""
    root = board.roots[arm]
    spot, (hx, hy) = placed[id(root)], heading[id(root)]
    side = (hy, -hx) if hx else (-hy, hx)  # N: up from a horizontal arm, left from a vertical one
    if (hx and side[1] > 0) or (hy and side[0] > 0):
        side = (-side[0], -side[1])
    if arm.endswith("S"):
        side = (-side[0], -side[1])
    reach = 1.0 if spot.crosswise else 0.5
    return (spot.x + side[0] * reach, spot.y + side[1] * reach), side


def render(board: "Board") -> str:
    """The layout in characters: `[5|2]` along a line, doubles and up-down tiles as a
    column of two numbers; each open end marked with its arm's name; then the open ends."""
    layout = board.layout()
    if not layout.tiles:
        return "(empty table: any tile may be the set)"
    marks: dict[tuple[int, int], str] = {}
    for t in layout.tiles:
        col, row = round(4 * t.x), round(2 * t.y)
        if t.vertical:
            marks[(row - 1, col)], marks[(row, col)], marks[(row + 1, col)] = str(t.halves[0]), "-", str(t.halves[1])
        else:
            for i, ch in enumerate(f"[{t.halves[0]}|{t.halves[1]}]"):
                marks[(row, col - 2 + i)] = ch
    for end in layout.ends:
        col, row = round(4 * (end.x + end.dx * 0.5)), round(2 * (end.y + end.dy * 0.5))
        label = end.arm if len(end.arm) == 1 else "*"
        marks.setdefault((row, col), label)
    rows = [r for r, _ in marks]
    cols = [c for _, c in marks]
    top, left = min(rows), min(cols)
    grid = [[" "] * (max(cols) - left + 1) for _ in range(max(rows) - top + 1)]
    for (r, c), ch in marks.items():
        grid[r - top][c - left] = ch
    text = "\n".join("".join(line).rstrip() for line in grid)
    listing = ", ".join(f"{e.arm} {e.number}" for e in layout.ends)
    return f"{text}\nopen ends: {listing}"
