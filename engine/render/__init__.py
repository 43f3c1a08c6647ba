"""Pictures of positions as SVG: one module per board kind, registered by kind name.

A picture is a pure function of the position: `render_svg(state, highlight=...,
last_move=..., seat=...)` returns SVG text and changes nothing. The drawing never names
a game: it follows the board kind, the pieces' fields and the ruleset's `display` hints.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Iterable

from engine.render.marks import Marks, generic_pairs
from engine.render.style import read_style
from engine.render.svg import Picture, document, text
from engine.render.zones import draw_zones

# board kind -> its drawing module (with `draw_board` and `move_pairs`). A new board kind
# is one new module here, named in this mapping.
_KIND_MODULES = {"triangular": "triangular", "square": "square", "tableau": "tableau",
                 "chain": "chain", "none": "nothing"}
BOARD_DRAWINGS: dict[str, ModuleType] = {
    kind: importlib.import_module(f"engine.render.{name}") for kind, name in _KIND_MODULES.items()
}


class NoDrawing(ValueError):
    """The board kind has no drawing module."""


def drawing_for(kind: str) -> ModuleType:
    """The drawing module of a board kind; NoDrawing if there is none."""
    try:
        return BOARD_DRAWINGS[kind]
    except KeyError:
        raise NoDrawing(f"no picture for board kind `{kind}` (pictures: "
                        f"{', '.join(sorted(BOARD_DRAWINGS))})") from None


def move_pairs(state, move) -> list[tuple[int | None, str | None]]:
    """(piece uid, target id) for each piece a move puts somewhere or takes: what a click
    on the piece and then on the target chooses. Empty for a move without pieces."""
    pairs = drawing_for(state.game.model.topology.kind).move_pairs(state, move)
    return pairs or generic_pairs(move)


def render_svg(state, *, highlight=(), last_move=None, seat: int | None = None,
               targets: Iterable[str] = ()) -> str:
    """The position as SVG text: the board, then the hands (`seat`'s face up, the others'
    face down; every hand face up when `seat` is None), the pool and the pile.

    `highlight`: a move, a move's text, or several, whose cells and pieces are marked;
    `last_move` (one move or several, e.g. the computer's replies) is marked in another
    colour; `targets`: target ids drawn as legal.
    """
    model = state.game.model
    style = read_style(getattr(model.ruleset, "data", None))
    marks = Marks(targets=set(targets))
    for move in _moves(state, highlight):
        for uid, target in move_pairs(state, move):
            marks.pieces.add(uid) if uid is not None else None
            marks.highlight.add(target) if target else None
    for move in _moves(state, last_move):
        for uid, target in move_pairs(state, move):
            marks.last.add(target) if target else None
            marks.last_pieces.add(uid) if uid is not None else None
    topology = model.topology
    board = drawing_for(topology.kind).draw_board(state.board, topology, marks, style)
    head = Picture(max(board.width, 300), 22, [text(0, 10, status_line(state), text_anchor="start",
                                                    font_size=13, fill=style.colours["ink"],
                                                    class_="status")])
    zones = draw_zones(state, marks, style, seat, max(board.width, 560))
    parts = [(10, 8, head), (10, 34, board), (10, 44 + board.height, zones)]
    return document(parts, style.colours, getattr(model.ruleset, "title", model.id))


def status_line(state) -> str:
    """Scores and whose turn it is, in one line."""
    scores = "   ".join(f"P{s + 1}: {v}" for s, v in enumerate(state.scores))
    if state.is_over:
        who = "nobody" if state.winner is None else f"P{state.winner + 1}"
        return f"{scores}   game over, winner: {who}"
    return f"{scores}   round {state.round.number}, P{state.to_move + 1} to move"


def _moves(state, highlight) -> list:
    """The moves `highlight` names: legal moves by text, or moves as given."""
    if highlight is None or highlight == ():
        return []
    items = [highlight] if isinstance(highlight, str) or hasattr(highlight, "action") else list(highlight)
    return [state.find_move(m) if isinstance(m, str) else m for m in items if m is not None]


__all__ = ["BOARD_DRAWINGS", "NoDrawing", "drawing_for", "move_pairs", "render_svg", "status_line"]
