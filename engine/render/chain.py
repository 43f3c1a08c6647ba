"""SVG of a `chain` board (a line of play): the tiles where `ChainBoard.layout()` puts
them, with pips, and each open end as an outline beyond it. An end's target id is its
arm's name (`W`, `E`, `N`, `5-5.S`), as in the move text `0-5@E`; the tile at an arm's
tip carries that id too (a click on it chooses the end, and the last move marks the tile
it laid); on an empty table the one target is `set`."""

from __future__ import annotations

from engine.render.marks import Marks
from engine.render.pieces import pip_tile
from engine.render.style import Style
from engine.render.svg import Picture, el, text

HALF = 26  # pixels per tile half
SET = "set"


def draw_board(board, topology, marks: Marks, style: Style) -> Picture:
    """The laid tiles and the open ends, translated so that everything is in view."""
    layout = board.layout()
    tips = {laid[-1].piece.uid: arm for arm, laid in board.arms.items() if laid}
    boxes = [(t.x, t.y, 1 if t.vertical else 2, 2 if t.vertical else 1) for t in layout.tiles]
    ends = [(e.x + e.dx * 0.5, e.y + e.dy * 0.5, e.arm) for e in layout.ends] or [(0.0, 0.0, SET)]
    boxes += [(x, y, 1, 1) for x, y, _ in ends]
    left = min(x - w / 2 for x, _, w, _ in boxes)
    top = min(y - h / 2 for _, y, _, h in boxes)
    width = max(x + w / 2 for x, _, w, _ in boxes) - left
    height = max(y + h / 2 for _, y, _, h in boxes) - top
    pic = Picture(width * HALF + 4, height * HALF + 4)

    def corner(x: float, y: float, w: float, h: float) -> tuple[float, float]:
        return (x - w / 2 - left) * HALF + 2, (y - h / 2 - top) * HALF + 2

    for x, y, arm in ends:
        w = 2 if arm == SET else 1
        px, py = corner(x, y, w, 1)
        body = el("rect", x=px + 1, y=py + 1, width=w * HALF - 2, height=HALF - 2, rx=3, fill="#ffffff",
                  fill_opacity=0, stroke=style.colours["open"], stroke_dasharray="4 3")
        label = text(px + w * HALF / 2, py + HALF / 2, arm, font_size=9, fill=style.colours["open"])
        pic.body.append(el("g", body + label, class_=marks.classes(arm, "cell open"), data_target=arm))
    for t in layout.tiles:
        w, h = (1, 2) if t.vertical else (2, 1)
        px, py = corner(t.x, t.y, w, h)
        tip = tips.get(t.piece.uid)  # (a click on an arm's tip tile chooses that end)
        body = "".join(pip_tile(t.halves, px, py, HALF, t.vertical, style))
        pic.body.append(el("g", body, class_=marks.classes(tip or "", "cell tile"), data_target=tip,
                           data_piece=t.piece.uid, data_name=t.piece.name))
    return pic


def move_pairs(state, move) -> list[tuple[int | None, str | None]]:
    """A placement's tile and the end it goes on (`set` for the first tile)."""
    end = getattr(move.data, "end", None)
    if end is None:
        return []
    return [(p.uid, end) for p in move.data.pieces]
