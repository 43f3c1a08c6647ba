"""SVG of a `square` board: the grid with its legend cells coloured and labelled, tokens
as tiles with their values, the start cell's star, row letters and column numbers. A
cell's target id is its name as typed (`H8`)."""

from __future__ import annotations

from engine.render.marks import Marks
from engine.render.pieces import token
from engine.render.style import PALETTE, Style
from engine.render.svg import Picture, el, text
from engine.topology.square_text import row_label

CELL = 34
MARGIN = 20  # room for the row letters and column numbers
_PLAIN = "."


def draw_board(board, topology, marks: Marks, style: Style) -> Picture:
    """Every cell of the grid, then the tokens on it."""
    topo = topology
    pic = Picture(MARGIN + topo.width * CELL + 4, MARGIN + topo.height * CELL + 4)
    pic.body += _rulers(topo)
    colours = _mark_colours(topo, style)
    for y in range(topo.height):
        for x in range(topo.width):
            pic.body.append(_cell(board, topo, x, y, marks, style, colours))
    return pic


def _rulers(topo) -> list[str]:
    out = [text(MARGIN + x * CELL + CELL / 2, MARGIN / 2, x + 1, font_size=10, class_="ruler")
           for x in range(topo.width)]
    out += [text(MARGIN / 2, MARGIN + y * CELL + CELL / 2, row_label(y), font_size=10,
                 class_="ruler") for y in range(topo.height)]
    return out


def _mark_colours(topo, style: Style) -> dict[str, str]:
    """A colour per legend mark: the hint's, else the palette in order of first use."""
    marks = []
    for mark in topo.marks:
        if mark != _PLAIN and mark not in marks and len(mark) == 1 and mark.strip():
            marks.append(mark)
    return {m: str(style.cells.get(m, {}).get("colour") or PALETTE[i % len(PALETTE)])
            for i, m in enumerate(marks)}


def _cell(board, topo, x: int, y: int, marks: Marks, style: Style, colours: dict) -> str:
    i = topo.index(x, y)
    px, py = MARGIN + x * CELL, MARGIN + y * CELL
    name = topo.label(i)
    mark = topo.marks[i]
    fill = colours.get(mark, style.colours["cell"])
    body = [el("rect", x=px, y=py, width=CELL, height=CELL, fill=fill,
               stroke=style.colours["grid"])]
    attrs = topo.attrs[i] or {}
    if board.v[i] >= 0:
        label = f"{board.v[i]}"
        body += token(label, px + 1, py + 1, CELL - 2, style)
        if board.jk[i]:
            body.append(text(px + CELL - 6, py + 7, "J", font_size=8, class_="joker"))
        piece = board.piece.get(i) if isinstance(board.piece, dict) else None
        return el("g", "".join(body), class_=marks.classes(name, "cell token"),
                  data_target=name, data_piece=getattr(piece, "uid", None))
    if attrs.get("start"):
        body.append(text(px + CELL / 2, py + CELL / 2, "\u2605", font_size=CELL * 0.6,
                         fill=style.colours["ink"], class_="star"))
    elif mark in colours:
        label = str(style.cells.get(mark, {}).get("label") or mark)
        body.append(text(px + CELL / 2, py + CELL / 2, label, font_size=CELL * 0.38,
                         fill=style.colours["ink"], class_="premium"))
    return el("g", "".join(body), class_=marks.classes(name, "cell empty"), data_target=name)


def move_pairs(state, move) -> list[tuple[int | None, str | None]]:
    """Each token of a play and the cell it goes on."""
    data = move.data
    cells = getattr(data, "cells", None)
    if cells is None:
        return []
    topo = state.game.model.topology
    return [(p.uid, topo.label(c)) for p, c in zip(data.pieces, cells)]
