"""The `triangular` board kind: an unbounded grid of triangles matched corner to corner.

Cells are `(c, r)`, c to the right and r downwards; a cell points up when `c + r` is even.
Its corners are M (the apex, opposite the horizontal edge), L and R (the ends of that
edge), on lattice points `(X, Y)` with `X + Y` odd: an up cell has M (c+1, r), L (c, r+1),
R (c+2, r+1); a down cell M (c+1, r+1), L (c, r), R (c+2, r). Six cells meet at a point,
so a cell has 12 neighbours, 3 sharing an edge. Every touching corner must match, so the
board keeps one number per point and legality is a few look-ups. A piece lists its
`corners` clockwise; rotation k puts `corners[k]` at M and goes on clockwise (M, R, L on
an up cell, M, L, R on a down cell); pieces are never mirrored. The placement measures
(`move.<field>`) are listed in `MOVE_FIELDS`; docs/topology.md has the details.
"""

from __future__ import annotations

import re
from bisect import insort
from operator import itemgetter
from typing import Iterator, Mapping, Sequence

from engine.pieces import Piece
from engine.topology.base import Board, Placement, Topology, register
from engine.topology.triangular_grid import (
    ACROSS, CORNER_NAMES, EDGE_CELLS, FACING_EDGE, NEIGHBOURS, VERTEX_CELLS, L, M, R, Cell, Point, _ALL12, _EDGE3,
    _NB_BITS, _NEIGH, _POINTS, _contact_fields, _measures, _spin, cells_at, corner_points, is_up, neighbour,
    rotations,
)

__all__ = [
    "ACROSS", "CONTACT_FIELDS", "CORNER_NAMES", "EDGE_CELLS", "FACING_EDGE", "MOVE_FIELDS", "NEIGHBOURS",
    "VERTEX_CELLS", "L", "M", "R", "Catalogue", "Cell", "Contact", "Point", "Triangular", "TriangularBoard",
    "TriangularPlacement", "cells_at", "corner_points", "is_up", "neighbour", "parse_placement_text", "render",
    "rotations",
]

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
                 "_contacts")

    def __init__(self, piece, cell, rotation, numbers, edges, touched, board):
        self.piece, self.cell, self.rotation, self.numbers = piece, cell, rotation, numbers
        self.edges, self.corners_touched, self._board = edges, touched, board
        self._mask = self._contacts = None

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

    @property
    def hexagons(self) -> int:
        return _measures(self._occupancy())[0]

    @property
    def bridges(self) -> int:
        return _measures(self._occupancy())[1]

    @property
    def narrow_bridges(self) -> int:
        return _measures(self._occupancy())[2]

    @property
    def vertex_only_corners(self) -> int:
        return _measures(self._occupancy())[3]


_ENTRY_RE = re.compile(r"[0-9]+(?:-[0-9]+)*\s*@\s*-?[0-9]+\s*,\s*-?[0-9]+(?:\s*r\s*[0-9]+)?")
_PLACE_RE = re.compile(r"^\s*([0-9]+(?:-[0-9]+)*)\s*@\s*(-?[0-9]+)\s*,\s*(-?[0-9]+)\s*(?:r\s*([0-9]+))?\s*$")


class TriangularBoard(Board):
    """The tiles on the table, the number at each lattice point and the open cells."""

    def __init__(self, catalogue: "Catalogue | None" = None):
        self._catalogue = catalogue if catalogue is not None else Catalogue()
        self.cells: dict[Cell, tuple[Piece, tuple[int, int, int], int]] = {}
        self.points: dict[Point, int] = {}
        self.around: dict[Point, int] = {}  # how many tiles meet at each point
        self.edge_frontier: set[Cell] = set()  # empty cells with an occupied edge neighbour
        # Every empty cell touching a tile -> (m, l, r, touched, edges, index key): the
        # numbers its corners must show (None: free), refreshed when a neighbour fills.
        self.open: dict[Cell, tuple] = {}
        self._order: dict[bool, list[Cell]] = {}  # sorted frontiers, until the next tile

    @property
    def count(self) -> int:
        return len(self.cells)

    @property
    def point_frontier(self):
        """Empty cells touching a tile at a point or more."""
        return self.open.keys()

    def clone(self) -> "TriangularBoard":
        new = TriangularBoard.__new__(TriangularBoard)
        new.cells, new.points, new.around = dict(self.cells), dict(self.points), dict(self.around)
        new.edge_frontier, new.open = set(self.edge_frontier), dict(self.open)
        new._order = self._order  # never changed in place: `_put` starts a new one
        new._catalogue = self._catalogue  # a cache of the pieces' rotations, shared
        return new

    # -- placements -------------------------------------------------------------------

    def iter_placements(self, hand: Sequence[Piece], first: bool, rules: object) -> Iterator[TriangularPlacement]:
        """Every matching placement: cells by (row, column), then tiles by their numbers
        (then uid), then rotation; so the order does not depend on the order of the hand.
        The opening goes on (0, 0) pointing up or (1, 0) pointing down; later placements
        come from the frontier that `apply_placement` keeps.
        """
        catalogue, uids = self._catalogue, {piece.uid for piece in hand}
        if not uids <= catalogue.seen:
            catalogue.learn(hand)
        if first and not self.cells:
            for cell in ((0, 0), (1, 0)):
                for piece in sorted(hand, key=lambda p: (tuple(p.attrs["corners"]), p.uid)):
                    for k, nums in rotations(piece.attrs["corners"], cell == (0, 0)):
                        yield TriangularPlacement(piece, cell, k, nums, 0, 0, self)
            return
        point = rules == "point"  # `contact: point` (else `edge`), from compile_place
        info, order, index = self.open, self._order.get(point), catalogue.by_key
        if order is None:
            order = self._order[point] = sorted(self.open if point else self.edge_frontier, key=_ROW_MAJOR)
        held, holders = 0, catalogue.holders  # the hand's uids as a bit set
        for uid in uids:
            held |= 1 << uid
        for cell in order:
            pm, pl, pr, touched, edges, key = info[cell]
            if not holders.get(key, 0) & held:
                continue  # no tile of the hand fits the known corners
            for _, uid, k, nums, piece in index[key]:  # the tiles fitting the known corners
                if uid in uids and (pm is None or pm == nums[0]):
                    yield TriangularPlacement(piece, cell, k, nums, edges, touched, self)

    def apply_placement(self, placement: Placement) -> None:
        """Put the tile down, keeping the point map and both frontiers up to date."""
        assert isinstance(placement, TriangularPlacement)
        cell = placement.cell
        if placement._mask is None:  # measures describe the board before the move
            placement._mask = self.occupancy(cell)
        self._put(cell, placement.piece, placement.numbers, placement.rotation)

    def _put(self, cell: Cell, piece: Piece, numbers, rotation: int) -> None:
        cells, points, around, opened = self.cells, self.points, self.around, self.open
        c, r = cell
        up = (c + r) % 2 == 0
        cells[cell] = (piece, tuple(numbers), rotation)
        fresh = 0  # the corners whose point was unknown until now
        for (dx, dy), number, bit in zip(_POINTS[up], numbers, (1, 2, 4)):
            point = (c + dx, r + dy)
            if point not in points:
                fresh |= bit
            points[point] = number
            around[point] = around.get(point, 0) + 1
        self.edge_frontier.discard(cell)
        opened.pop(cell, None)
        self._order = {}
        for dc, dr in _EDGE3[up]:
            if (c + dc, r + dr) not in cells:
                self.edge_frontier.add((c + dc, r + dr))
        get = points.get
        for dc, dr, shared, edge, nup, (mx, my, lx, ly, rx, ry), (ax, ay, bx, by, ex, ey) in _NEIGH[up]:
            other = (c + dc, r + dr)
            if other in cells or not (edge or shared & fresh or other not in opened):
                continue
            # `_constraints(other)`, inlined with offsets from this cell: the hot spot of apply
            pm, pl, pr = get((c + mx, r + my)), get((c + lx, r + ly)), get((c + rx, r + ry))
            touched = (pm is not None) + (pl is not None) + (pr is not None)
            edges = ((c + ax, r + ay) in cells) + ((c + bx, r + by) in cells) + ((c + ex, r + ey) in cells)
            opened[other] = (pm, pl, pr, touched, edges, (nup, None if touched == 3 else pm, pl, pr))

    def _constraints(self, cell: Cell) -> tuple:
        c, r = cell
        up = (c + r) % 2 == 0
        get, cells = self.points.get, self.cells
        (mx, my), (lx, ly), (rx, ry) = _POINTS[up]
        pm, pl, pr = get((c + mx, r + my)), get((c + lx, r + ly)), get((c + rx, r + ry))
        touched = (pm is not None) + (pl is not None) + (pr is not None)
        (ax, ay), (bx, by), (ex, ey) = _EDGE3[up]
        edges = ((c + ax, r + ay) in cells) + ((c + bx, r + by) in cells) + ((c + ex, r + ey) in cells)
        # The index key names two known corners (or the one there is); M is checked apart.
        key = (up, None if touched == 3 else pm, pl, pr) if touched else None
        return pm, pl, pr, touched, edges, key

    def occupancy(self, cell: Cell) -> int:
        """Which of the 12 neighbours of `cell` hold a tile, as bits in `NEIGHBOURS` order."""
        cells, (c, r), mask = self.cells, cell, 0
        for dc, dr, bit in _NB_BITS[(c + r) % 2 == 0]:
            if (c + dc, r + dr) in cells:
                mask |= bit
        return mask

    def contacts_of(self, cell: Cell, numbers) -> list[Contact]:
        """Per corner M, L, R of a tile about to go on `cell`: what it touches."""
        return [Contact(number, *fields) for number, fields in zip(numbers, _contact_fields(self.occupancy(cell)))]

    def parse_placement(self, text: str, hand: Sequence[Piece], first: bool, rules: object) -> TriangularPlacement:
        """A placement typed as `TILE@C,R` plus `rK` (rotation K); ValueError says why not."""
        tile, cell, rotation = parse_placement_text(text)
        piece = next((p for p in hand if p.name == tile), None)
        if piece is None:
            raise ValueError(f"no tile {tile} in the hand")
        options = [p for p in self.iter_placements([piece], first, rules) if p.cell == cell]
        if rotation is None and len({p.numbers for p in options}) == 1:
            return options[0]
        for p in options:
            if p.rotation == rotation or (rotation is not None and p.numbers == _numbers(piece, cell, rotation)):
                return p
        raise ValueError(self.why_not(piece, cell, rotation, first, rules))

    def why_not(self, piece: Piece, cell: Cell, rotation: int | None, first: bool, rules: object) -> str:
        """A sentence saying why `piece` cannot go on `cell` in `rotation`."""
        where = f"{cell[0]},{cell[1]}"
        if cell in self.cells:
            return f"cell {where} is already occupied"
        if first and not self.cells:
            if cell not in ((0, 0), (1, 0)):
                return f"the first tile goes on 0,0 (pointing up) or 1,0 (pointing down), not {where}"
        elif cell not in (self.open if rules == "point" else self.edge_frontier):
            return f"cell {where} does not " + ("touch a tile" if rules == "point" else "share an edge with a tile")
        if rotation is None:
            return f"no rotation of {piece.name} fits on {where} (or give one: r0, r1 or r2)"
        nums = _numbers(piece, cell, rotation)
        for name, point, number in zip(CORNER_NAMES, corner_points(cell), nums):
            have = self.points.get(point)
            if have is not None and have != number:
                return f"corner {name} of {piece.name}r{rotation} on {where} shows {number}, the table shows {have}"
        return f"{piece.name}r{rotation} cannot go on {where}"

    # -- positions and checks -------------------------------------------------------

    def check_invariants(self) -> list[str]:
        """Problems with the board (empty when sound): every shared corner must agree."""
        problems, seen = [], {}
        for cell, (piece, numbers, _) in self.cells.items():
            for name, point, number in zip(CORNER_NAMES, corner_points(cell), numbers):
                other = seen.setdefault(point, (cell, number))
                if other[1] != number:
                    problems.append(f"point {point}: {cell} corner {name} shows {number}, {other[0]} shows {other[1]}")
                if self.points.get(point) != number:
                    problems.append(f"point {point}: map holds {self.points.get(point)}, {cell} shows {number}")
        for point, count in self.around.items():
            if count != sum(1 for x in cells_at(point) if x in self.cells):
                problems.append(f"point {point}: tile count {count} is stale")
        # The frontiers must be exactly the empty neighbours, with up-to-date constraints.
        touching, edged = set(), set()
        for c, r in self.cells:
            touching.update((c + dc, r + dr) for dc, dr in _ALL12[is_up((c, r))])
            edged.update((c + dc, r + dr) for dc, dr in _EDGE3[is_up((c, r))])
        touching -= self.cells.keys()
        edged -= self.cells.keys()
        if set(self.open) != touching or self.edge_frontier != edged:
            problems.append("the frontier of open cells is not the set of empty neighbours")
        problems += [f"open cell {x}: stale constraints" for x in touching & set(self.open)
                     if self.open[x] != self._constraints(x)]
        return problems

    def load_position(self, text: str, pieces: Sequence[Piece]) -> list[Piece]:
        """Lay out placements in move text (`2-3-4@1,0r1`), taking pieces by name from `pieces`;
        matching is checked, contact is not. Returns the pieces used; ValueError names the entry."""
        entries = [m.group(0) for m in _ENTRY_RE.finditer(text)]
        leftover = [t for t in re.split(r"[\s;,\[\]'\"]+", _ENTRY_RE.sub(" ", text)) if t]
        if leftover:  # separators may be spaces, new lines, commas, semicolons, brackets
            raise ValueError(f"cannot read {leftover[0]!r}: expected TILE@C,RrK entries such as 2-3-4@1,0r1")
        free, used = {}, []
        for piece in pieces:
            free.setdefault(piece.name, piece)
        for index, entry in enumerate(entries):
            where = f"board entry {index + 1} ({entry})"
            tile, cell, rotation = parse_placement_text(entry, where)
            piece = free.pop(tile, None)
            if piece is None:
                raise ValueError(f"{where}: tile {tile} is not in the set or is used twice")
            try:
                self.put_tile(cell, piece, rotation or 0)
            except ValueError as error:
                raise ValueError(f"{where}: {error}") from None
            used.append(piece)
        return used

    def dump_position(self) -> str:
        """The board in the notation `load_position` reads, one tile a line by row then column."""
        return "\n".join(
            f"{self.cells[cell][0].name}@{cell[0]},{cell[1]}r{self.cells[cell][2]}"
            for cell in sorted(self.cells, key=_row_major)
        )

    def key(self) -> object:
        """Equal keys, equal boards: which piece is where, in which rotation."""
        return frozenset((cell, piece.uid, rotation) for cell, (piece, _, rotation) in self.cells.items())

    def pieces_on_board(self) -> list[Piece]:
        """Every tile on the table."""
        return [piece for piece, _, _ in self.cells.values()]

    def put_tile(self, cell: Cell, piece: Piece, rotation: int) -> None:
        """Lay `piece` on `cell` in `rotation` with no contact rule; its corners must match."""
        if cell in self.cells:
            raise ValueError(f"cell {cell[0]},{cell[1]} is already occupied")
        nums = _numbers(piece, cell, rotation)
        for name, point, number in zip(CORNER_NAMES, corner_points(cell), nums):
            if self.points.get(point, number) != number:
                raise ValueError(f"corner {name} shows {number}, the table shows {self.points[point]}")
        self._put(cell, piece, nums, rotation)


def parse_placement_text(text: str, where: str = "move") -> tuple[str, Cell, int | None]:
    """`2-3-4@1,0r1` -> ("2-3-4", (1, 0), 1); the rotation may be left out (None)."""
    match = _PLACE_RE.match(text)
    if not match:
        raise ValueError(f"{where}: expected TILE@C,R or TILE@C,RrK (e.g. 2-3-4@1,0r1), got {text!r}")
    tile, c, r, k = match.groups()
    rotation = int(k) if k is not None else None
    if rotation is not None and rotation > 2:
        raise ValueError(f"{where}: rotation must be r0, r1 or r2, got r{rotation}")
    return tile, (int(c), int(r)), rotation


def _row_major(cell: Cell) -> tuple[int, int]:
    return cell[1], cell[0]


_ROW_MAJOR = itemgetter(1, 0)  # `_row_major` without a Python call per cell


class Catalogue:
    """Every rotation of every piece met so far, by the corners a cell already knows.

    A key is (up, m, l, r) with one or two numbers left as None; an entry is (corners, uid,
    rotation, numbers at M, L, R, piece), kept sorted so that the order of moves does not
    depend on the order pieces were met. Shared by the boards of one ruleset, whose pieces
    have distinct uids.
    """

    __slots__ = ("seen", "by_key", "holders")

    def __init__(self):
        self.seen: set[int] = set()
        self.by_key: dict[tuple, list] = {}
        self.holders: dict[tuple, int] = {}  # key -> the uids listed under it, as a bit set

    def learn(self, pieces: Sequence[Piece]) -> None:
        for piece in pieces:
            if piece.uid in self.seen:
                continue
            self.seen.add(piece.uid)
            corners = tuple(piece.attrs["corners"])
            for up in (True, False):
                for k, (m, l, r) in rotations(corners, up):
                    entry = (corners, piece.uid, k, (m, l, r), piece)
                    for key in ((up, m, l, None), (up, m, None, r), (up, None, l, r),
                                (up, m, None, None), (up, None, l, None), (up, None, None, r)):
                        insort(self.by_key.setdefault(key, []), entry)
                        self.holders[key] = self.holders.get(key, 0) | 1 << piece.uid


def _numbers(piece: Piece, cell: Cell, rotation: int) -> tuple[int, int, int]:
    return _spin(piece.corners, rotation, is_up(cell))


@register
class Triangular(Topology):
    """An unbounded triangular grid; pieces match every corner they touch."""

    kind = "triangular"
    actions = frozenset({"place"})
    board_fields: dict[str, str] = {}
    move_fields = {"place": dict(MOVE_FIELDS)}
    record_types = {"contact": dict(CONTACT_FIELDS)}

    def compile_place(self, action: Mapping) -> str:
        """`contact`: which open cells are candidates, `edge` (default) or `point`."""
        return str(action.get("contact", "edge"))

    def __init__(self, spec: Mapping):
        super().__init__(spec)
        self._catalogue = Catalogue()  # the rotations of this ruleset's pieces, for every board

    def new_board(self) -> TriangularBoard:
        return TriangularBoard(self._catalogue)

    def render_text(self, board: Board) -> str:
        return render(board)  # type: ignore[arg-type]


# The strokes of a tile in its 3 x 13 box: (line, column, text); spaces leave what is there.
_SHAPES = {
    True: ((1, 4, "/   \\"), (2, 2, "/       \\"), (3, 1, "-" * 11)),
    False: ((0, 1, "-" * 11), (1, 2, "\\       /"), (2, 4, "\\   /")),
}


def render(board: TriangularBoard) -> str:
    """Tiles as triangles: numbers at the corners, `c,r` inside; `(c,r)` marks an open cell.

    Six columns per half cell width and three lines per row: a line of points (numbers
    joined by `-` along horizontal edges), then the upper and lower halves of the row.
    """
    if not board.cells:
        return "(empty table: the first tile goes on 0,0 pointing up or 1,0 pointing down)"
    shown = sorted(board.edge_frontier) + list(board.cells)
    x0 = min(c for c, _ in shown)
    y0 = min(r for _, r in shown)
    width = 6 * (max(c for c, _ in shown) + 2 - x0) + 4
    lines = [[" "] * width for _ in range(3 * (max(r for _, r in shown) + 1 - y0) + 1)]

    def put(line: int, col: int, text: str) -> None:
        for i, ch in enumerate(text):
            if 0 <= col + i < width and ch != " ":
                lines[line][col + i] = ch

    for cell in shown:  # open cells first, so that tile edges are drawn over them
        c, r = cell
        col, top = 6 * (c - x0), 3 * (r - y0)
        label = f"{c},{r}" if cell in board.cells else f"({c},{r})"
        put(top + (2 if is_up(cell) else 1), col + 6 - len(label) // 2, label)
        if cell in board.cells:
            for line, dx, strokes in _SHAPES[is_up(cell)]:
                put(top + line, col + dx, strokes)
    for (x, y), number in board.points.items():
        put(3 * (y - y0), 6 * (x - x0), str(number))
    text = "\n".join("".join(line).rstrip() for line in lines).strip("\n")
    return text + "\n" + "c,r names the cell of a tile; (c,r) is an open cell"
