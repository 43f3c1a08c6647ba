"""The lattice of the `triangular` board kind: cells, corner points, neighbours, rotations.

The conventions (cells `(c, r)`, corners M, L, R, the 12 neighbours) are described in
`triangular.py`. Besides the public geometry, the precomputed offset and bit tables here
(underscored) are shared with the board in `triangular.py`, whose hot loops read them.
"""

from __future__ import annotations

from typing import Sequence

Cell = tuple[int, int]
Point = tuple[int, int]
M, L, R = 0, 1, 2
CORNER_NAMES = "MLR"

# Neighbour offsets for an up cell; for a down cell the row offset changes sign.
# name -> (dc, dr, edge?, corners touched)
NEIGHBOURS: dict[str, tuple[int, int, bool, tuple[int, ...]]] = {
    "LEFT": (-1, 0, True, (M, L)),
    "RIGHT": (1, 0, True, (M, R)),
    "MIDDLE": (0, 1, True, (L, R)),
    "FAR_LEFT": (-2, 0, False, (L,)),
    "FAR_RIGHT": (2, 0, False, (R,)),
    "LEFT_TO_MIDDLE": (-1, 1, False, (L,)),
    "FAR_LEFT_TO_MIDDLE": (-2, 1, False, (L,)),
    "RIGHT_TO_MIDDLE": (1, 1, False, (R,)),
    "FAR_RIGHT_TO_MIDDLE": (2, 1, False, (R,)),
    "OPPOSITE": (0, -1, False, (M,)),
    "LEFT_TO_OPPOSITE": (-1, -1, False, (M,)),
    "RIGHT_TO_OPPOSITE": (1, -1, False, (M,)),
}
# The edge neighbour that faces each corner (it touches the other two corners).
FACING_EDGE = {M: "MIDDLE", L: "RIGHT", R: "LEFT"}
# Around each corner: the vertex-only cells, and the one diametrically across the point.
VERTEX_CELLS = {
    M: ("OPPOSITE", "LEFT_TO_OPPOSITE", "RIGHT_TO_OPPOSITE"),
    L: ("FAR_LEFT", "LEFT_TO_MIDDLE", "FAR_LEFT_TO_MIDDLE"),
    R: ("FAR_RIGHT", "RIGHT_TO_MIDDLE", "FAR_RIGHT_TO_MIDDLE"),
}
ACROSS = {M: "OPPOSITE", L: "FAR_LEFT_TO_MIDDLE", R: "FAR_RIGHT_TO_MIDDLE"}
EDGE_CELLS = {M: ("LEFT", "RIGHT"), L: ("LEFT", "MIDDLE"), R: ("RIGHT", "MIDDLE")}


def is_up(cell: Cell) -> bool:
    """Whether the cell points up (`c + r` even)."""
    return (cell[0] + cell[1]) % 2 == 0


def neighbour(cell: Cell, name: str) -> Cell:
    """The neighbour `name` (a key of `NEIGHBOURS`) of `cell`."""
    dc, dr, _, _ = NEIGHBOURS[name]
    return (cell[0] + dc, cell[1] + (dr if is_up(cell) else -dr))


def corner_points(cell: Cell) -> tuple[Point, Point, Point]:
    """The lattice points of the corners M, L, R of `cell`."""
    c, r = cell
    if is_up(cell):
        return (c + 1, r), (c, r + 1), (c + 2, r + 1)
    return (c + 1, r + 1), (c, r), (c + 2, r)


def cells_at(point: Point) -> tuple[Cell, ...]:
    """The six cells that meet at lattice point `point`."""
    x, y = point
    return ((x - 2, y - 1), (x - 1, y - 1), (x, y - 1), (x - 2, y), (x - 1, y), (x, y))


def rotations(corners: Sequence[int], up: bool) -> list[tuple[int, tuple[int, int, int]]]:
    """(rotation, numbers at M, L, R) for each distinct rotation of a clockwise triple."""
    out, seen = [], set()
    for k in range(3):
        nums = _spin(corners, k, up)
        if nums not in seen:
            seen.add(nums)
            out.append((k, nums))
    return out


_OFFSETS = {
    up: {name: (dc, dr if up else -dr) for name, (dc, dr, _, _) in NEIGHBOURS.items()} for up in (True, False)
}
_ALL12 = {up: tuple(_OFFSETS[up].values()) for up in (True, False)}
_EDGE3 = {up: tuple(_OFFSETS[up][n] for n in ("LEFT", "RIGHT", "MIDDLE")) for up in (True, False)}
_POINTS = {True: ((1, 0), (0, 1), (2, 1)), False: ((1, 1), (0, 0), (2, 0))}  # M, L, R
# Per orientation, for each of the 12 neighbours (in `NEIGHBOURS` order): its offset,
# the bits of the corners (M, L, R as 1, 2, 4) it shares with the cell, and whether it
# shares an edge. A neighbour's constraints change only through a shared corner that was
# unknown, or a shared edge, so `_put` refreshes only those.
# Then the neighbour's own orientation, its corner points M, L, R and its three edge
# neighbours, as offsets from the cell (flattened).
_NEIGH = {
    up: tuple(
        (dc, dr, sum(1 << k for k in (M, L, R) if name in (*EDGE_CELLS[k], *VERTEX_CELLS[k])),
         NEIGHBOURS[name][2], up == ((dc + dr) % 2 == 0),
         tuple(x for px, py in _POINTS[up == ((dc + dr) % 2 == 0)] for x in (dc + px, dr + py)),
         tuple(x for ex, ey in _EDGE3[up == ((dc + dr) % 2 == 0)] for x in (dc + ex, dr + ey)))
        for name, (dc, dr) in _OFFSETS[up].items()
    )
    for up in (True, False)
}
_BIT = {name: 1 << i for i, name in enumerate(NEIGHBOURS)}
_EDGE_BITS = _BIT["LEFT"] | _BIT["RIGHT"] | _BIT["MIDDLE"]
# Per corner: the bits of its edge cells, of its vertex-only cells, the cell across, the
# edge neighbour facing it; a contact record's fields follow from a 12-bit occupancy mask.
_CORNER_BITS = tuple(
    (sum(_BIT[n] for n in EDGE_CELLS[k]), sum(_BIT[n] for n in VERTEX_CELLS[k]), _BIT[ACROSS[k]],
     _BIT[FACING_EDGE[k]])
    for k in (M, L, R)
)
_NB_BITS = {up: tuple((dc, dr, _BIT[name]) for name, (dc, dr) in _OFFSETS[up].items()) for up in (True, False)}
_CONTACTS: dict[int, tuple] = {}  # occupancy mask -> per corner (tiles, edge, vertex, across, facing)


def _contact_fields(mask: int) -> tuple:
    found = _CONTACTS.get(mask)
    if found is None:
        found = _CONTACTS[mask] = tuple(
            ((mask & e).bit_count() + (mask & v).bit_count(), (mask & e).bit_count(),
             (mask & v).bit_count(), bool(mask & a), bool(mask & f))
            for e, v, a, f in _CORNER_BITS
        )
    return found


_MEASURES: dict[int, tuple[int, ...]] = {}
MASK = 6  # the occupancy mask's index in a `_measures` tuple


def _measures(mask: int) -> tuple[int, ...]:
    """(hexagons, bridges, narrow_bridges, vertex_only_corners, edges, corners_touched,
    `mask`) for an occupancy mask (the placement measures of `MOVE_FIELDS`), kept per mask."""
    found = _MEASURES.get(mask)
    if found is None:
        fields = _contact_fields(mask)
        found = _MEASURES[mask] = (
            sum(1 for tiles, _, _, _, _ in fields if tiles == 5),
            sum(1 for _, _, vertex, _, facing in fields if facing and vertex > 0),
            sum(1 for _, _, _, across, facing in fields if facing and across),
            sum(1 for _, edge, vertex, _, _ in fields if vertex > 0 and edge == 0),
            (mask & _EDGE_BITS).bit_count(),
            sum(1 for tiles, *_ in fields if tiles),
            mask,
        )
    return found


def _spin(corners: Sequence[int], k: int, up: bool) -> tuple[int, int, int]:
    """The numbers at M, L, R with `corners[k]` at M: clockwise is M, R, L on an up cell."""
    a, b, c = corners[k], corners[(k + 1) % 3], corners[(k + 2) % 3]
    return (a, c, b) if up else (a, b, c)


# -- integer ids -----------------------------------------------------------------------
# The board keys its dicts by one int per cell or point rather than a (c, r) tuple: no
# tuple is built and hashed per look-up, a neighbour is `id + delta`, and ids sort in
# row-major order (row, then column), the order placements are listed in. Ids stay below
# 2**30, which CPython handles faster than larger ints: tiles go within `LIMIT` of the
# origin (so their neighbours and corners have ids), far beyond any set of pieces.
_STRIDE = 1 << 15
_HALF = 1 << 14
LIMIT = _HALF - 8  # 2 * LIMIT < 1 << 15: `triangular_open.lay` tests the range with `>> 15`


def cell_id(c: int, r: int) -> int:
    """The id of cell (or lattice point) `(c, r)`; -1 (no cell's id) if out of range."""
    if -_HALF < c < _HALF and -_HALF < r < _HALF:
        return (r + _HALF) * _STRIDE + c + _HALF
    return -1


def id_cell(i: int) -> Cell:
    """The cell (or lattice point) of id `i`."""
    r, c = divmod(i, _STRIDE)
    return c - _HALF, r - _HALF


def _delta(dc: int, dr: int) -> int:
    return dr * _STRIDE + dc


# Per orientation: the ids of the corner points M, L, R and of the 12 neighbours with
# their occupancy bits, as deltas from the cell's id.
_ID_POINTS = {up: tuple(_delta(dx, dy) for dx, dy in _POINTS[up]) for up in (True, False)}
_ID_OCCUPANCY = {up: tuple((_delta(dc, dr), bit) for dc, dr, bit in _NB_BITS[up]) for up in (True, False)}
# Per orientation, for each of the 12 neighbours (in `NEIGHBOURS` order): its id delta,
# its offset, its bit in an occupancy mask, whether it shares an edge, its orientation,
# the bits of the cell's corners it shares (M, L, R as 1, 2, 4), and for its corners M,
# L, R the index of the cell's corner on the same point (0-2), or 3, 4, 5 where none is
# (its own corner's index plus 3).
_ID_NEIGH = {
    up: tuple(
        (_delta(dc, dr), dc, dr, 1 << i, int(edge), nup, shared,
         *(_POINTS[up].index((x, y)) if (x, y) in _POINTS[up] else 3 + k
           for k, (x, y) in enumerate(((mx, my), (lx, ly), (rx, ry)))))
        for i, (dc, dr, shared, edge, nup, (mx, my, lx, ly, rx, ry), _) in enumerate(_NEIGH[up])
    )
    for up in (True, False)
}
# Per orientation, for each of the cell's corners M, L, R: the five other cells meeting at
# its point, as (id delta, the index of their own corner there); and the same with, for a
# cell not known yet, its orientation, its column and row offsets, and the id deltas of its
# corner points M, L, R (all deltas from the cell's id).
_ID_AROUND_FULL = {
    up: tuple(
        tuple((row[0], k, row[5], row[1], row[2], *(row[0] + d for d in _ID_POINTS[row[5]]))
              for row in _ID_NEIGH[up] for k in range(3) if row[7 + k] == j)
        for j in range(3)
    )
    for up in (True, False)
}
# The same as {id delta: the index of their own corner there} (the five deltas differ).
_ID_AROUND = {up: tuple(dict(row[:2] for row in rows) for rows in _ID_AROUND_FULL[up]) for up in (True, False)}
# Per orientation, the three edge neighbours (LEFT, RIGHT, MIDDLE): their id delta,
# occupancy bit, orientation, column and row offsets, and the id deltas of their corner
# points M, L, R.
_ID_EDGES = {
    up: tuple((row[0], row[3], row[5], row[1], row[2], *(row[0] + d for d in _ID_POINTS[row[5]]))
              for row in _ID_NEIGH[up] if row[4])
    for up in (True, False)
}


def _round_point(up: bool) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """For a cell pointing `up`, per corner M, L, R: its bit among the six cells round the
    corner's point (`cells_at` order), and for each set (6 bits) of those cells holding a
    tile, which of the cell's neighbours they are (occupancy bits, `NEIGHBOURS` order)."""
    cell = (0, 0) if up else (1, 0)
    names = {offset: name for name, offset in _OFFSETS[up].items()}
    own, tables = [], []
    for point in corner_points(cell):
        round_ = cells_at(point)
        own.append(1 << round_.index(cell))
        bits = [0 if other == cell else _BIT[names[(other[0] - cell[0], other[1] - cell[1])]] for other in round_]
        tables.append(tuple(sum(bit for i, bit in enumerate(bits) if m >> i & 1) for m in range(64)))
    return tuple(own), tuple(tables)


# The board keeps, per lattice point, which of its six cells hold a tile: a cell's
# occupancy is then three look-ups, one per corner, and laying a tile three updates.
_AT_POINT = {up: _round_point(up)[0] for up in (True, False)}
_FROM_POINT = {up: _round_point(up)[1] for up in (True, False)}


def _put_geometry(up: bool) -> tuple:
    """What laying a tile on a cell pointing `up` reads (`triangular_open.lay`):
    the id deltas of its corner points M, L, R, their `_FROM_POINT` tables and `_AT_POINT`
    bits, and for its edge neighbours LEFT, RIGHT and MIDDLE (ids -1, +1 and the one
    returned last) the id delta of the corner each does not share with it. LEFT shows the
    cell's L at its M and the cell's M at its R, RIGHT the cell's R and M at its M and L,
    MIDDLE the cell's L and R at its L and R, in both orientations: checked here."""
    dm, dl, dr = _ID_POINTS[up]
    (ld, lbit, *_, lm, ll, lr), (rd, rbit, *_, rm, rl, rr), (md, mbit, *_, mm, ml, mr) = _ID_EDGES[up]
    if (ld, rd, lbit, rbit, mbit) != (-1, 1, 1, 2, 4) or (lm, lr, rm, rl, ml, mr) != (dl, dm, dr, dm, dl, dr):
        raise AssertionError("the edge neighbours do not share the corners `apply_placement` expects")
    return (dm, dl, dr, *_FROM_POINT[up], *_AT_POINT[up], ll, rr, mm, md)


_PUT = {up: _put_geometry(up) for up in (True, False)}
