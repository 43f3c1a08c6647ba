"""SVG of a `tableau` board: the cards in their slots, back rows first, face-down cards as
backs, empty slots left out (a slot of the last move stays as an outline). A slot's
target id is its number."""

from __future__ import annotations

from fractions import Fraction

from engine.render.marks import Marks
from engine.render.pieces import CARD_H, CARD_W, draw_piece
from engine.render.style import Style
from engine.render.svg import Picture, el

STEP_X = CARD_W + 6  # one card width in the layout
STEP_Y = CARD_H * 0.5  # rows overlap by half a card


def draw_board(board, topology, marks: Marks, style: Style) -> Picture:
    """Row by row from the back, so that a covering card is drawn over what it covers."""
    layout = board.layout
    left = min(layout.x, default=Fraction(0))
    width = (max(layout.x, default=Fraction(0)) - left) * STEP_X + CARD_W + 4
    pic = Picture(float(width), len(layout.rows) * STEP_Y + CARD_H * 0.5 + 4)
    for r, row in enumerate(layout.rows):
        for slot in row:
            x, y = float((layout.x[slot] - left) * STEP_X) + 2, r * STEP_Y + 2
            pic.body.append(_slot(board, slot, x, y, marks, style))
    return pic


def _slot(board, slot: int, x: float, y: float, marks: Marks, style: Style) -> str:
    card = board.cards[slot]
    sid = str(slot)
    if card is None:
        if sid not in marks.last:
            return ""
        return el("rect", x=x, y=y, width=CARD_W, height=CARD_H, rx=5, fill="#ffffff", fill_opacity=0,
                  stroke=style.colours["last"], stroke_dasharray="4 3",
                  class_=marks.classes(sid, "slot empty"), data_target=sid)
    exposed = board.is_exposed(slot)
    base = "slot exposed" if exposed else "slot"
    face = draw_piece(card, x, y, style, face_up=bool(board.up[slot]),
                      classes="piece")
    return el("g", face, class_=marks.classes(sid, base), data_target=sid)


def move_pairs(state, move) -> list[tuple[int | None, str | None]]:
    """A play: the card taken and its slot."""
    data = move.data
    if isinstance(data, tuple) and len(data) == 2 and isinstance(data[0], int):
        slot, piece = data
        return [(piece.uid, str(slot))]
    return []
