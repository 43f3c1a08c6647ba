"""Placements on the `triangular` board: a piece on a cell in one rotation, and the
measures scoring rules read of it (`move.<field>`, `MOVE_FIELDS`; `contact` records,
`CONTACT_FIELDS`). See `engine.topology.triangular` for the grid and its corners.
"""

from __future__ import annotations

from engine.pieces import Piece
from engine.topology.base import Placement
from engine.topology.triangular_grid import _contact_fields, _measures, is_up

__all__ = ["CONTACT_FIELDS", "MOVE_FIELDS", "Contact", "TriangularPlacement"]

MOVE_FIELDS = {
    "edges": "int",  # occupied edge neighbours (0-3)
    "corners_touched": "int",  # corners of the new tile that touch any tile (0-3)
    "vertex_only_corners": "int",  # touched corners that no edge neighbour touches
    "hexagons": "int",  # corners whose five other cells were all occupied
    "bridges": "int",  # occupied edges E whose facing corner touches a vertex-only tile
    "narrow_bridges": "int",  # occupied edges E whose facing corner has the cell across
    "contacts": "list[contact]",  # per corner M, L, R: the record below
    "cell_up": "bool",  # the cell points up
}
CONTACT_FIELDS = {
    "number": "int",  # the tile's number at this corner
    "tiles": "int",  # occupied cells around the point, besides the new tile (0-5)
    "edge_tiles": "int",  # of those, edge neighbours of the new tile (0-2)
    "vertex_tiles": "int",  # of those, cells touching the new tile at this point only (0-3)
    "across": "bool",  # the cell diametrically across the point is occupied
    "facing_edge": "bool",  # the edge opposite this corner is shared with a tile
}


class Contact:
    """What one corner of a candidate placement touches (a `contact` record)."""

    __slots__ = tuple(CONTACT_FIELDS)

    def __init__(self, number, tiles, edge_tiles, vertex_tiles, across, facing_edge):
        self.number, self.tiles, self.edge_tiles = number, tiles, edge_tiles
        self.vertex_tiles, self.across, self.facing_edge = vertex_tiles, across, facing_edge


class TriangularPlacement(Placement):
    """A piece on a cell in one rotation. Measures other than the cheap ones are lazy:
    they come from which of the 12 neighbours are occupied (`_mask`), taken from the
    board when first needed, or when the placement is applied (they describe the board
    before it)."""

    __slots__ = ("piece", "cell", "rotation", "numbers", "edges", "corners_touched", "_board", "_mask",
                 "_contacts", "_found")

    def __init__(self, piece, cell, rotation, numbers, edges, touched, board):
        self.piece, self.cell, self.rotation, self.numbers = piece, cell, rotation, numbers
        self.edges, self.corners_touched, self._board = edges, touched, board
        self._mask = self._contacts = self._found = None

    @property
    def pieces(self) -> tuple[Piece, ...]:
        return (self.piece,)

    @property
    def text(self) -> str:
        return f"{self.piece.name}@{self.cell[0]},{self.cell[1]}r{self.rotation}"

    @property
    def cell_up(self) -> bool:
        return is_up(self.cell)

    def __repr__(self) -> str:
        return f"TriangularPlacement({self.text!r})"

    def _occupancy(self) -> int:
        if self._mask is None:
            self._mask = self._board.occupancy(self.cell)
        return self._mask

    @property
    def contacts(self) -> list[Contact]:
        if self._contacts is None:
            self._contacts = [Contact(number, *fields)
                              for number, fields in zip(self.numbers, _contact_fields(self._occupancy()))]
        return self._contacts

    def _measured(self) -> tuple[int, int, int, int]:
        """(hexagons, bridges, narrow_bridges, vertex_only_corners), kept once read: a
        place action's scoring rules read them several times."""
        found = self._found
        if found is None:
            found = self._found = _measures(self._occupancy())
        return found

    # the four counted measures (`MOVE_FIELDS`), each read from `_measured()`'s tuple
    hexagons = property(lambda self: (self._found or self._measured())[0])
    bridges = property(lambda self: (self._found or self._measured())[1])
    narrow_bridges = property(lambda self: (self._found or self._measured())[2])
    vertex_only_corners = property(lambda self: (self._found or self._measured())[3])
