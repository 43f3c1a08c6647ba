"""Board kind `none`: a game played in zones alone (a patience of piles and stacks).

The board holds nothing; every piece lives in a zone (`zones:` of the ruleset) and moves
between zones with `move` actions.
"""

from __future__ import annotations

from typing import Iterator, Sequence

from engine.pieces import Piece
from engine.topology.base import Board, Topology, register


class EmptyBoard(Board):
    """A board with no places: `board.count` is always 0."""

    __slots__ = ()

    @property
    def count(self) -> int:
        return 0

    def clone(self) -> "EmptyBoard":
        return self  # nothing in it changes

    def capacity(self) -> int:
        return 0

    def iter_exposed(self) -> Iterator[tuple[int, Piece]]:
        return iter(())

    def exposed_items(self) -> list:
        return []

    def key(self) -> tuple:
        return ()

    def pieces_on_board(self) -> list[Piece]:
        return []

    def dump_position(self) -> str:
        return ""

    def load_position(self, text: str, pieces: Sequence[Piece]) -> list[Piece]:
        if text.strip():
            raise ValueError("a board of kind `none` holds no pieces")
        return []


_EMPTY = EmptyBoard()


@register
class NoBoardTopology(Topology):
    """Board kind `none`: no board at all."""

    kind = "none"

    def new_board(self) -> EmptyBoard:
        return _EMPTY

    def render_text(self, board: Board) -> str:
        return ""
