"""Drawing one piece, face up or down, by the fields it has (never by the game it is in).

A piece with three `corners` is a triangular tile, with two (or with `pips`) a two-ended
tile (two halves with pips), with `rank` and `suit` a card; any other piece is a square token showing its label (`display.piece_label`,
default its `value`; a joker shows J).
"""

from __future__ import annotations

import math

from engine.render.style import Style
from engine.render.svg import el, group, text

TOKEN = 34  # a token's side
CARD_W, CARD_H = 46, 64
TRI_SIDE = 44
TRI_H = TRI_SIDE * math.sqrt(3) / 2


def piece_size(piece) -> tuple[float, float]:
    """Width and height of a piece drawn on its own (in a hand or on a pile)."""
    if _two_ended(piece):
        return 2 * TOKEN, TOKEN
    if hasattr(piece, "corners"):
        return TRI_SIDE, TRI_H
    if hasattr(piece, "rank") and hasattr(piece, "suit"):
        return CARD_W, CARD_H
    if hasattr(piece, "pips"):
        return 2 * TOKEN, TOKEN
    return TOKEN, TOKEN


def draw_piece(piece, x: float, y: float, style: Style, face_up: bool = True,
               classes: str = "piece") -> str:
    """The piece with its top left corner at (x, y), tagged with its uid."""
    w, h = piece_size(piece)
    if not face_up:
        classes = classes if "back" in classes.split() else classes + " back"
        # a face-down piece does not say what it is: the page must not leak a hidden hand
        return group([el("rect", x=x, y=y, width=w, height=h, rx=4, fill=style.colours["back"],
                         stroke=style.colours["tile_edge"])], class_=classes)
    tag = {"class_": classes, "data_piece": piece.uid, "data_name": piece.name}
    if _two_ended(piece):
        body = pip_tile(tuple(piece.corners), x, y, TOKEN, False, style)
    elif hasattr(piece, "corners"):
        body = triangle(x, y, TRI_SIDE, True, tuple(piece.corners), style)
    elif hasattr(piece, "rank") and hasattr(piece, "suit"):
        body = card_face(piece, x, y, style)
    elif hasattr(piece, "pips"):
        body = pip_tile(tuple(piece.pips), x, y, TOKEN, False, style)
    else:
        body = token(piece_label(piece, style), x, y, TOKEN, style)
    return group(body, **tag)


def _two_ended(piece) -> bool:
    """Two `corners` make a two-ended tile (a line of play's), drawn as two halves."""
    corners = getattr(piece, "corners", None)
    return isinstance(corners, (list, tuple)) and len(corners) == 2


def piece_label(piece, style: Style) -> str:
    """What a token shows: J for a joker, else the labelled attribute (or its name)."""
    if getattr(piece, "joker", False):
        return "J"
    return str(getattr(piece, style.piece_label, piece.name))


def token(label: str, x: float, y: float, side: float, style: Style) -> list[str]:
    """A square tile with its label."""
    c = style.colours
    return [el("rect", x=x + 1, y=y + 1, width=side - 2, height=side - 2, rx=4,
               fill=c["tile"], stroke=c["tile_edge"], stroke_width=1.5),
            text(x + side / 2, y + side / 2, label, font_size=side * 0.45,
                 font_weight="bold", fill=c["ink"])]


def triangle_points(x: float, y: float, side: float, up: bool) -> list[tuple[float, float]]:
    """The corners M, L, R of a triangle in the box at (x, y), apex up or down."""
    h = side * math.sqrt(3) / 2
    if up:
        return [(x + side / 2, y), (x, y + h), (x + side, y + h)]
    return [(x + side / 2, y + h), (x, y), (x + side, y)]


def triangle(x: float, y: float, side: float, up: bool, numbers: tuple, style: Style,
             fill: str | None = None) -> list[str]:
    """A triangular tile with a number near each corner (numbers at M, L, R)."""
    c = style.colours
    corners = triangle_points(x, y, side, up)
    shape = el("polygon", points=_points(corners), fill=fill or c["tile"],
               stroke=c["tile_edge"], stroke_width=1.5, stroke_linejoin="round")
    cx = sum(p[0] for p in corners) / 3
    cy = sum(p[1] for p in corners) / 3
    out = [shape]
    for (px, py), number in zip(corners, numbers):
        out.append(text(px + (cx - px) * 0.55, py + (cy - py) * 0.55, number,
                        font_size=side * 0.24, font_weight="bold", fill=c["ink"],
                        class_="corner"))
    return out


def card_face(piece, x: float, y: float, style: Style) -> list[str]:
    """A card: rank and suit symbol at the corner and the symbol large in the middle."""
    c = style.colours
    suit = str(piece.suit)
    ink = style.suit_colour(suit, str(getattr(piece, "colour", "black")))
    symbol = style.suit_symbol(suit)
    rank = piece.name[: -len(suit)] if piece.name.endswith(suit) else str(piece.rank)
    rank = "10" if rank == "T" else rank
    return [el("rect", x=x, y=y, width=CARD_W, height=CARD_H, rx=5, fill=c["tile"],
               stroke=c["tile_edge"], stroke_width=1.2),
            text(x + 4, y + 11, rank, text_anchor="start", font_size=13,
                 font_weight="bold", fill=ink, class_="rank"),
            text(x + 5, y + 25, symbol, text_anchor="start", font_size=12, fill=ink,
                 class_="suit"),
            text(x + CARD_W / 2 + 4, y + CARD_H / 2 + 8, symbol, font_size=26, fill=ink)]


# Where the pips of 0-9 sit on a half, in thirds of the half's side.
_PIPS = {0: (), 1: ((1, 1),), 2: ((0, 0), (2, 2)), 3: ((0, 0), (1, 1), (2, 2)),
         4: ((0, 0), (0, 2), (2, 0), (2, 2)), 5: ((0, 0), (0, 2), (1, 1), (2, 0), (2, 2)),
         6: ((0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2))}


def pip_tile(ends: tuple, x: float, y: float, side: float, across: bool,
           style: Style) -> list[str]:
    """A tile of two square halves with pips, side by side (or one above the other if `across`)."""
    c = style.colours
    w, h = (side, 2 * side) if across else (2 * side, side)
    out = [el("rect", x=x + 1, y=y + 1, width=w - 2, height=h - 2, rx=4, fill=c["tile"],
              stroke=c["tile_edge"], stroke_width=1.5)]
    mid = (x + 4, y + side, x + w - 4, y + side) if across else (x + side, y + 4, x + side, y + h - 4)
    out.append(el("line", x1=mid[0], y1=mid[1], x2=mid[2], y2=mid[3], stroke=c["tile_edge"]))
    for k, number in enumerate(ends[:2]):
        hx, hy = (x, y + k * side) if across else (x + k * side, y)
        out += _half(int(number), hx, hy, side, c["ink"])
    return out


def _half(number: int, x: float, y: float, side: float, ink: str) -> list[str]:
    spots = _PIPS.get(number)
    if spots is None:  # beyond six: the number itself
        return [text(x + side / 2, y + side / 2, number, font_size=side * 0.45, fill=ink,
                     class_="pips")]
    step = side / 4
    return [el("circle", cx=x + step * (1 + i), cy=y + step * (1 + j), r=side * 0.08,
               fill=ink, class_="pip") for i, j in spots]


def _points(points) -> str:
    return " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
