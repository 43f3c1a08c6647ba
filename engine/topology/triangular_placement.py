"""Placements on the `triangular` board: a piece on a cell in one rotation, and the
measures scoring rules read of it (`move.<field>`, `MOVE_FIELDS`; `contact` records,
`CONTACT_FIELDS`). See `engine.topology.triangular` for the grid and its corners.
"""

from __future__ import annotations

from engine.topology.base import Placement
from engine.topology.triangular_grid import MASK, _contact_fields, _measures, is_up

__all__ = ["CONTACT_FIELDS", "MOVE_FIELDS", "Contact", "TriangularPlacement", "contacts"]

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


def contacts(numbers: tuple, mask: int) -> list[Contact]:
    """`move.contacts` of a tile showing `numbers` (at M, L, R) whose neighbours holding a
    tile are `mask` (`NEIGHBOURS` bits): what each corner touches."""
    return [Contact(number, *row) for number, row in zip(numbers, _contact_fields(mask))]


class TriangularPlacement(Placement):
    """A piece on a cell in one rotation: the catalogue's entry for the piece in that
    rotation (`_entry`: corners, uid, rotation, numbers at M, L, R, piece, `pieces`, the
    uid's bit, the slots its edge neighbours start from: see `Catalogue`), the cell and
    the board it was listed on. The measures (`MOVE_FIELDS` but `cell_up`) come
    from which of the 12 neighbours are occupied: `_found` holds them with that mask last
    (`_measures`), worked out from the board when first read, or set when the placement
    is applied (they describe the board before it). Every position lists every legal
    placement and applies one: a placement costs five stores, and its fields are read
    through `_entry` but `pieces`, which the kernel reads twice per move applied."""

    __slots__ = ("_entry", "pieces", "cell", "_board", "_found", "_contacts")

    def __init__(self, piece, cell, rotation, numbers, board):
        numbers = tuple(numbers)
        sides = board._catalogue.edge_slots(is_up(cell), numbers)  # (the board's own catalogue)
        self._entry = (None, piece.uid, rotation, numbers, piece, (piece,), 1 << piece.uid, sides)
        self.pieces, self.cell, self._board, self._found = self._entry[5], cell, board, None

    piece = property(lambda self: self._entry[4])
    rotation = property(lambda self: self._entry[2])
    numbers = property(lambda self: self._entry[3])

    @property
    def text(self) -> str:
        return f"{self._entry[4].name}@{self.cell[0]},{self.cell[1]}r{self._entry[2]}"

    @property
    def cell_up(self) -> bool:
        return is_up(self.cell)

    def __repr__(self) -> str:
        return f"TriangularPlacement({self.text!r})"

    @property
    def contacts(self) -> list[Contact]:
        try:
            return self._contacts
        except AttributeError:  # (a slot not set: few rulesets read contacts)
            self._contacts = contacts(self._entry[3], (self._found or self._measured())[MASK])
            return self._contacts

    def _measured(self) -> tuple[int, ...]:
        """The measures (`_measures`), kept once read: a place action's scoring rules read
        them several times."""
        found = self._found
        if found is None:
            found = self._found = _measures(self._board.occupancy(self.cell))
        return found

    # the counted measures (`MOVE_FIELDS`), each read from `_measured()`'s tuple
    hexagons = property(lambda self: (self._found or self._measured())[0])
    bridges = property(lambda self: (self._found or self._measured())[1])
    narrow_bridges = property(lambda self: (self._found or self._measured())[2])
    vertex_only_corners = property(lambda self: (self._found or self._measured())[3])
    edges = property(lambda self: (self._found or self._measured())[4])
    corners_touched = property(lambda self: (self._found or self._measured())[5])
