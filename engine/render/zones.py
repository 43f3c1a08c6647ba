"""SVG of the zones around a board: each player's hand, the pool (face down, as a stack
with its count), the pile (its top piece face up, with its count), and every other zone
a ruleset declares (`state.zones`: a stack as its top and count, a row or a fan as all
its pieces; a row of zones as columns side by side), each piece face down where its seat
may not see it. A declared zone's target id is `key:index`."""

from __future__ import annotations

from engine.render.marks import Marks
from engine.render.pieces import CARD_H, CARD_W, draw_piece, piece_size
from engine.render.style import Style
from engine.render.svg import Picture, el, text

GAP = 6
LABEL_W = 110
FAN_STEP = 0.32  # a fan drawn down a column: each piece this much of its height below the last


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
    y += 90
    for zone in _declared(state):
        y = _declared_zone(pic, y, state, zone, marks, style, seat)
    pic.height = y
    return pic


def _declared(state) -> list:
    """The zones a ruleset declares beyond pool, hands and pile (none before the kernel
    keeps named zones)."""
    table = getattr(state.game.model, "zones", None)
    if table is None or not hasattr(table, "extra") or not getattr(state, "zones", None):
        return []
    return [z for z in table.extra() if z.key in state.zones]


def _hidden(state, seat: int | None) -> set[int]:
    """Ids of the pieces `seat` may not see (all face-down ones when it is None)."""
    try:
        from engine.kernel.zones import hidden_from
    except ImportError:  # pragma: no cover - a kernel without named zones
        return set()
    return {id(p) for pieces in hidden_from(state, seat).values() for p in pieces}


def _declared_zone(pic: Picture, y: float, state, zone, marks: Marks, style: Style,
                   seat: int | None) -> float:
    """A declared zone: a row of them (`count` above one) as columns side by side, as
    the piles of a patience lie; a single zone as a line, its label first."""
    if len(state.zones[zone.key]) > 1:
        return _zone_columns(pic, y, state, zone, marks, style, seat)
    hidden = _hidden(state, seat)
    for i, pieces in enumerate(state.zones[zone.key]):
        target = f"{zone.key}:{i}"
        label = f"{zone.label}[{i}]" if len(state.zones[zone.key]) > 1 else zone.label
        shown = pieces[-1:] if zone.shape == "stack" else pieces
        body = [text(0, y + 18, f"{label} ({len(pieces)})", text_anchor="start", font_size=13,
                     fill=style.colours["ink"], class_="zone-label")]
        x, tallest = LABEL_W, 34.0
        for piece in shown:
            w, h = piece_size(piece)
            body.append(draw_piece(piece, x, y, style, face_up=id(piece) not in hidden,
                                   classes="piece zoned"))
            x += (w + GAP) if zone.shape != "fan" else w * 0.45
            tallest = max(tallest, h)
        if not shown:
            body.append(_outline(x, y, 34, 34, style))
        pic.body.append(el("g", "".join(body), class_=marks.classes(target, "zone declared"),
                           data_zone=zone.key, data_target=target))
        y += tallest + 2 * GAP
    return y


def _zone_columns(pic: Picture, y: float, state, zone, marks: Marks, style: Style,
                  seat: int | None) -> float:
    """A row of zones under the row's name, one column each: its index and count above,
    then its top (a stack) or all its pieces going down (a fan overlapping, a row not);
    an empty zone as a dashed outline. Returns the y below the longest column."""
    hidden = _hidden(state, seat)
    ink = style.colours["ink"]
    pic.body.append(text(0, y + 14, zone.label, text_anchor="start", font_size=13, fill=ink,
                         class_="zone-label"))
    top, bottom = y + 40, y + 40
    x = 0.0
    for i, pieces in enumerate(state.zones[zone.key]):
        target = f"{zone.key}:{i}"
        body = [text(x, top - 6, f"[{i}] {len(pieces)}", text_anchor="start", font_size=11,
                     fill=ink, class_="zone-label")]
        shown = pieces[-1:] if zone.shape == "stack" else pieces
        w, h = piece_size(shown[0]) if shown else (CARD_W, CARD_H)
        step = h * FAN_STEP if zone.shape == "fan" else h + GAP
        py = top
        for piece in shown:
            body.append(draw_piece(piece, x, py, style, face_up=id(piece) not in hidden,
                                   classes="piece zoned"))
            py += step
        if not shown:
            body.append(_outline(x, top, w, h, style))
        pic.body.append(el("g", "".join(body), class_=marks.classes(target, "zone declared"),
                           data_zone=zone.key, data_target=target))
        bottom = max(bottom, top + h + (len(shown) - 1) * step if shown else top + h)
        x += w + 3 * GAP
    return bottom + 2 * GAP


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
        body.append(_outline(x, y + 22, w, 34, style))
    pic.body.append(el("g", "".join(body), class_=f"zone {zone}", data_zone=zone))
    return x + max(w, 9 * len(label)) + 3 * GAP


def _outline(x: float, y: float, w: float, h: float, style: Style) -> str:
    """An empty zone's place: a dashed outline."""
    return el("rect", x=x, y=y, width=w, height=h, rx=4, fill="#ffffff", fill_opacity=0,
              stroke=style.colours["open"], stroke_dasharray="4 3")
