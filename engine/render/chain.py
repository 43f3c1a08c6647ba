"""SVG of a `chain` board (a line of play): each tile where the board's `layout()` puts
it, with its pips; doubles across the line; every open end marked with the number it
shows. A target id is an arm's name (`W`, `E`, `N`, ...), or `set` on an empty table."""

from __future__ import annotations

from engine.render.marks import Marks
from engine.render.pieces import pip_tile
from engine.render.style import Style
from engine.render.svg import Picture, el, text

HALF = 30  # a tile's half: a square this wide
MARGIN = HALF


def draw_board(board, topology, marks: Marks, style: Style) -> Picture:
    """The laid tiles and the open ends, translated so that everything is in view."""
    layout = board.layout()
    if not layout.tiles:
        return _empty(marks, style)
    spots = [(t.x, t.y) for t in layout.tiles] + [(e.x + e.dx, e.y + e.dy) for e in layout.ends]
    x0 = min(x for x, _ in spots) - 1.5
    y0 = min(y for _, y in spots) - 1.5
    width = (max(x for x, _ in spots) + 1.5 - x0) * HALF
    height = (max(y for _, y in spots) + 1.5 - y0) * HALF
    pic = Picture(width, height)

    def at(x: float, y: float) -> tuple[float, float]:
        return (x - x0) * HALF, (y - y0) * HALF

    for tile in layout.tiles:
        cx, cy = at(tile.x, tile.y)
        w, h = (HALF, 2 * HALF) if tile.vertical else (2 * HALF, HALF)
        body = pip_tile(tuple(tile.halves), cx - w / 2, cy - h / 2, HALF, tile.vertical, style)
        cls = "tile" + (" double" if tile.crosswise else "") + (" spinner" if tile.spinner else "")
        cls += " last" if tile.piece.uid in marks.last_pieces else ""  # (its end has moved on)
        pic.body.append(el("g", "".join(body), class_=cls, data_piece=tile.piece.uid,
                           data_arm=tile.arm))
    for end in layout.ends:
        pic.body.append(_end(end, at, marks, style))
    return pic


def _end(end, at, marks: Marks, style: Style) -> str:
    """An open end: a dashed square where the next tile would touch, with its number."""
    x, y = at(end.x + end.dx * 0.5, end.y + end.dy * 0.5)
    box = el("rect", x=x - HALF / 2, y=y - HALF / 2, width=HALF, height=HALF, rx=4,
             fill="#ffffff", fill_opacity=0, stroke=style.colours["open"],
             stroke_dasharray="4 3")
    label = text(x, y, end.number, font_size=HALF * 0.45, fill=style.colours["open"],
                 class_="end-number")
    classes = marks.classes(end.arm, "cell end").replace(" last", "")  # the tile is marked
    return el("g", box + label, class_=classes, data_target=end.arm)


def _empty(marks: Marks, style: Style) -> Picture:
    """An empty table: where the first tile (the set) goes."""
    pic = Picture(4 * HALF, 3 * HALF)
    pic.body.append(el("g", el("rect", x=HALF, y=HALF, width=2 * HALF, height=HALF, rx=4,
                               fill="#ffffff", fill_opacity=0, stroke=style.colours["open"],
                               stroke_dasharray="4 3"),
                       class_=marks.classes("set", "cell end"), data_target="set"))
    return pic


def move_pairs(state, move) -> list[tuple[int | None, str | None]]:
    """A tile and the end it is laid on (`set` for the first tile)."""
    data = move.data
    end = getattr(data, "end", None)
    piece = getattr(data, "piece", None)
    if end is None or piece is None:
        return []
    return [(piece.uid, "set" if end not in _arms(state) else end)]


def _arms(state) -> set[str]:
    return {e.arm for e in state.board.layout().ends}
