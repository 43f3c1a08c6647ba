"""SVG of the zones around a board: each player's hand, the pool (face down, as a stack
with its count) and the pile (its top piece face up, with its count)."""

from __future__ import annotations

from engine.render.marks import Marks
from engine.render.pieces import draw_piece, piece_size
from engine.render.style import Style
from engine.render.svg import Picture, el, text

GAP = 6
LABEL_W = 110


def draw_zones(state, marks: Marks, style: Style, seat: int | None, width: float) -> Picture:
    """One line per hand (the seat's own face up; all face up when `seat` is None), then
    the pool and the pile side by side."""
    names = state.game.model.zone_names
    pic = Picture(width, 0)
    y = 0.0
    for s, hand in enumerate(state.hands):
        if not hand and state.n == 1:
            continue
        face_up = seat is None or s == seat
        label = f"P{s + 1} {names.get('hand', 'hand')}" + ("" if face_up else f" ({len(hand)})")
        y = _row(pic, y, label, hand, face_up, marks, style, f"hand-{s}")
    x = 0.0
    if state.pool or "pool" in names:
        x = _stack(pic, x, y, f"{names.get('pool', 'pool')}: {len(state.pool)}",
                   state.pool[-1:] , False, style, "pool")
    if state.pile or "pile" in names:
        _stack(pic, x, y, f"{names.get('pile', 'pile')}: {len(state.pile)}",
               state.pile[-1:], True, style, "pile")
    pic.height = y + 90
    return pic


def _row(pic: Picture, y: float, label: str, pieces, face_up: bool, marks: Marks,
         style: Style, zone: str) -> float:
    """A labelled line of pieces; returns the y below it."""
    body = [text(0, y + 18, label, text_anchor="start", font_size=13, fill=style.colours["ink"],
                 class_="zone-label")]
    x, tallest = LABEL_W, 34.0
    for piece in pieces:
        w, h = piece_size(piece)
        if x + w > pic.width and x > LABEL_W:  # wrap a long hand onto the next line
            x, y = LABEL_W, y + tallest + GAP
        cls = "piece hand" + (" highlight" if piece.uid in marks.pieces else "")
        body.append(draw_piece(piece, x, y, style, face_up=face_up, classes=cls))
        x += w + GAP
        tallest = max(tallest, h)
    pic.body.append(el("g", "".join(body), class_=f"zone {zone}", data_zone=zone))
    return y + tallest + 2 * GAP


def _stack(pic: Picture, x: float, y: float, label: str, top, face_up: bool, style: Style,
           zone: str) -> float:
    """A zone as its top piece (or an empty outline) under its label; returns the x after."""
    body = [text(x, y + 12, label, text_anchor="start", font_size=13, fill=style.colours["ink"],
                 class_="zone-label")]
    if top:
        body.append(draw_piece(top[0], x, y + 22, style, face_up=face_up,
                               classes="piece " + zone))
        w = piece_size(top[0])[0]
    else:
        w = 34
        body.append(el("rect", x=x, y=y + 22, width=w, height=34, rx=4, fill="#ffffff", fill_opacity=0,
                       stroke=style.colours["open"], stroke_dasharray="4 3"))
    pic.body.append(el("g", "".join(body), class_=f"zone {zone}", data_zone=zone))
    return x + max(w, 9 * len(label)) + 3 * GAP
