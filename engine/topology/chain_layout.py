"""The geometry of a `chain` board, as a person lays it out, and its text drawing.

Coordinates are in tile halves (a tile is 2 long and 1 wide), x to the right and y
downwards, the set's centre at (0, 0); a position is a tile's centre, a multiple of 0.5.
`W` grows to the left, `E` to the right; a spinner's extra arms grow across its own arm
(`N` up and `S` down from a spinner on a horizontal arm, `N` left and `S` right from one on
a vertical arm). Each arm turns once, clockwise, when it gets long (`TURN`), so the four
arms of a spinner near the centre wind round it without meeting; a later spinner's arms
may still cross others, which a picture then overlaps. The text drawing for a terminal
of known width (`draw(..., width=)`, `fitted`) lets the row arms run on as far as the
width allows, turning only the arm that must.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.pieces import Piece
from engine.topology.styled import from_text, plain
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


#: how far an arm runs before it turns (tile halves along a row, then up or down)
TURN = (8, 4)


def layout_of(board, turn: tuple[int, int] | None = TURN) -> Layout:
    """Where each tile of `board` (a ChainBoard) lies and where its open ends are.

    An arm turns once, clockwise, at the first tile that is not a double and would take
    it past `turn` halves from where it starts (`turn[0]` along a row, `turn[1]` up or
    down), as a person turns the line at the table's edge; `turn=None`: straight arms."""
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
        run = None if turn is None else turn[0] if dx else turn[1]
        for t in laid:
            cross = t.double and board.crosswise
            length = 1.0 if cross else 2.0
            if run is not None and not cross and length > run:
                x, y, dx, dy, spot = _corner(t, arm, x, y, dx, dy)
                run = None
            else:
                cx, cy = x + dx * length / 2, y + dy * length / 2
                halves = (t.inner, t.outer) if dx + dy > 0 else (t.outer, t.inner)
                spot = LaidTile(t.piece, cx, cy, (dy != 0) != cross, halves, cross, arm, t.spinner)
                x, y = x + dx * length, y + dy * length
                run = None if run is None else run - length
            placed[id(t)], heading[id(t)] = spot, (dx, dy)
        number = laid[-1].outer if laid else board._root_number(arm)
        ends.append(OpenEnd(arm, number, x, y, dx, dy))
    return Layout(tuple(placed[id(t)] for t in board.tiles), tuple(ends))


def _corner(t, arm: str, x: float, y: float, dx: int, dy: int):
    """A tile turning the arm clockwise: its inner half straight on, its outer half round
    the corner. The new cursor and direction, and the tile."""
    tx, ty = -dy, dx  # clockwise on the page (y downwards)
    cx, cy = x + dx * 0.5 + tx * 0.5, y + dy * 0.5 + ty * 0.5
    halves = (t.inner, t.outer) if tx + ty > 0 else (t.outer, t.inner)
    spot = LaidTile(t.piece, cx, cy, ty != 0, halves, False, arm, t.spinner)
    return x + dx * 0.5 + tx * 1.5, y + dy * 0.5 + ty * 1.5, tx, ty, spot


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


def render(board, width: int | None = None) -> str:
    """The layout in characters: `[5|2]` along a line, doubles and up-down tiles as a
    column of two numbers; each open end marked with its arm's name; then the open ends.
    With `width` (columns), the arms turn only where the line would not fit (`fitted`)."""
    return plain(draw(board, width=width))


def fitted(board, width: int) -> Layout:
    """The layout whose drawing fits `width` columns with the fewest turns: the row arms
    (`W`, `E`) straight if they fit, else turning at the latest tile that lets the line
    fit (a short arm never reaches the turn, so a long one runs on as far as there is
    room), and never earlier than the picture's `TURN`. Arms that grow up and down turn
    as in the picture (a terminal has room downwards, but the moves go under the board)."""
    longest = max((2 * len(laid) for laid in board.arms.values()), default=0)
    for run in range(longest + 2, TURN[0], -1):  # the latest turn first: none at all
        layout = layout_of(board, (run, TURN[1]))
        if not layout.tiles or _width(layout) <= width:
            return layout
    return layout_of(board, TURN)


def _width(layout: Layout) -> int:
    """How many columns the drawing of `layout` takes."""
    columns = [c for _, c in _marks(layout, None)]
    return max(columns) - min(columns) + 1


def draw(board, last=None, width: int | None = None) -> list:
    """`render` as lines of (text, style) runs: tiles `piece`, the tile of the `last`
    placement `last`, the end marks `open`; `width`: the columns there are (`fitted`)."""
    layout = board.layout() if width is None else fitted(board, width)
    if not layout.tiles:
        # Which tiles may open is the ruleset's opening rule (often the highest double only).
        return from_text("(empty table: the first tile laid is the set)")
    latest = getattr(getattr(last, "piece", None), "uid", None)
    marks = _marks(layout, latest)
    left, last_col = min(c for _, c in marks), {}
    for r, c in marks:
        last_col[r] = max(last_col.get(r, c), c)
    lines = []
    for r in range(min(last_col), max(last_col) + 1):
        line: list = []
        for c in range(left, last_col.get(r, left - 1) + 1):
            ch, look = marks.get((r, c), (" ", None))
            if line and line[-1][1] == look:
                line[-1] = (line[-1][0] + ch, look)
            else:
                line.append((ch, look))
        lines.append(line)
    listing = ", ".join(f"{e.arm} {e.number}" for e in layout.ends)
    return lines + [[("open ends: ", None), (listing, "open")]]


def _marks(layout: Layout, latest) -> dict[tuple[int, int], tuple[str, str]]:
    """(row, column) -> (character, style) of every tile and end mark of the drawing."""
    marks: dict[tuple[int, int], tuple[str, str]] = {}
    for t in layout.tiles:
        col, row, look = round(4 * t.x), round(2 * t.y), "last" if t.piece.uid == latest else "piece"
        if t.vertical:
            for dr, ch in ((-1, str(t.halves[0])), (0, "-"), (1, str(t.halves[1]))):
                marks[(row + dr, col)] = (ch, look)
        else:
            for i, ch in enumerate(f"[{t.halves[0]}|{t.halves[1]}]"):
                marks[(row, col - 2 + i)] = (ch, look)
    for end in layout.ends:
        col, row = round(4 * (end.x + end.dx * 0.5)), round(2 * (end.y + end.dy * 0.5))
        marks.setdefault((row, col), (end.arm if len(end.arm) == 1 else "*", "open"))
    return marks
