"""The `triangular` board kind: an unbounded grid of triangles matched corner to corner.

Cells are `(c, r)`, c to the right and r downwards; a cell points up when `c + r` is even.
Its corners are M (the apex, opposite the horizontal edge), L and R (the ends of that
edge), on lattice points `(X, Y)` with `X + Y` odd: an up cell has M (c+1, r), L (c, r+1),
R (c+2, r+1); a down cell M (c+1, r+1), L (c, r), R (c+2, r). Six cells meet at a point,
so a cell has 12 neighbours, 3 sharing an edge. Every touching corner must match, so the
board keeps one number per point and legality is a few look-ups. A piece lists its
`corners` clockwise; rotation k puts `corners[k]` at M and goes on clockwise (M, R, L on
an up cell, M, L, R on a down cell); pieces are never mirrored. The placement measures
(`move.<field>`) are listed in `MOVE_FIELDS` (`rulecraft names RULESET --on place` shows
them with their types; the game guides in docs/games/ show how shipped rulesets use them).
"""

from __future__ import annotations

import re
from typing import Mapping, Sequence

from engine.pieces import Piece
from engine.topology.base import Board, Placement, Topology, corner_mismatches, register
from engine.topology.triangular_catalogue import BY_BIT, Catalogue
from engine.topology.triangular_render import draw, render
from engine.topology.triangular_grid import (
    ACROSS, CORNER_NAMES, EDGE_CELLS, FACING_EDGE, LIMIT, NEIGHBOURS, VERTEX_CELLS, L, M, R, Cell, Point, _HALF,
    _AT_POINT, _FROM_POINT, _ID_EDGES, _ID_OCCUPANCY, _ID_POINTS, _STRIDE, _spin, cell_id, cells_at,
    corner_points, id_cell, is_up, neighbour, rotations,
)
from engine.topology.triangular_open import fitting, lay
from engine.topology.triangular_placement import (
    CONTACT_FIELDS, MOVE_FIELDS, Contact, TriangularPlacement, contacts,
)

__all__ = [
    "ACROSS", "CONTACT_FIELDS", "CORNER_NAMES", "EDGE_CELLS", "FACING_EDGE", "MOVE_FIELDS", "NEIGHBOURS",
    "VERTEX_CELLS", "L", "M", "R", "Catalogue", "Cell", "Contact", "Point", "Triangular", "TriangularBoard",
    "TriangularPlacement", "cells_at", "corner_points", "is_up", "neighbour", "parse_placement_text", "render",
    "rotations",
]

_ENTRY_RE = re.compile(r"[0-9]+(?:-[0-9]+)*\s*@\s*-?[0-9]+\s*,\s*-?[0-9]+(?:\s*r\s*[0-9]+)?")
_PLACE_RE = re.compile(r"^\s*([0-9]+(?:-[0-9]+)*)\s*@\s*(-?[0-9]+)\s*,\s*(-?[0-9]+)\s*(?:r\s*([0-9]+))?\s*$")
_OPENINGS = (((0, 0), True), ((1, 0), False))  # the first tile's cells, and which way they point


class _Listed(TriangularPlacement):
    """A placement as `iter_placements` lists it: made with no arguments and no Python
    `__init__` (C's, about a fifth cheaper than `object.__new__`), its fields then set."""

    __slots__ = ()
    __init__ = object.__init__


class TriangularBoard(Board):
    """The tiles on the table, the number at each lattice point and the open cells.

    Cells and points are keyed by their int ids (`cell_id`). The open cells are kept up to
    date as tiles go down, each with a record (id, mask, slot, cell), where
    `slot` is the catalogue's entry for the numbers its corners must show and `mask` its
    uids as they were when the record was made: in `_edge` those sharing an edge with a
    tile that some piece off the table fits (a cell none fits never will: its corners only
    get more numbers, and a piece is in one place, so no hand holds a piece on the table;
    a cell is left out when it opens or learns a number, not when its last piece goes
    down elsewhere), in `_near` every empty cell touching a tile (for `contact: point`: None
    until a placement needs them, then made and kept). A tile changes the records of the
    cells around a point it shows first (their slot) and opens its edge neighbours; the
    others stay as they were (how many edges a cell shares is a measure of its placements,
    read from the board when needed, not kept). The records are sound for the
    pieces the catalogue knew when the board was made or last rebuilt them (`_seen`): they
    are rebuilt (`_relearn`) if it has met more since, which happens only while the
    catalogue still meets new pieces.
    """

    def __init__(self, catalogue: "Catalogue | None" = None):
        self._catalogue = catalogue if catalogue is not None else Catalogue()
        self._seen = self._catalogue.seen  # the uids the records are sound for (see above)
        self._free = -1  # the uids of the pieces not on the table, as a bit set (all at first: -1)
        self._tiles: dict[int, tuple] = {}  # id -> (piece, numbers at M, L, R, rotation, cell)
        self._pts: dict[int, int] = {}  # point id -> its number
        self._round: dict[int, int] = {}  # point id -> which of its six cells hold a tile (`cells_at` bits)
        self._edge: dict[int, tuple] = {}
        self._near: dict[int, tuple] | None = None

    @property
    def count(self) -> int:
        return len(self._tiles)

    @property
    def cells(self) -> dict[Cell, tuple[Piece, tuple[int, int, int], int]]:
        """Cell -> (piece, numbers at M, L, R, rotation), in the order the tiles went down."""
        return {cell: (piece, numbers, rotation) for piece, numbers, rotation, cell in self._tiles.values()}

    @property
    def points(self) -> dict[Point, int]:
        """The number shown at each lattice point a tile covers."""
        return {id_cell(point): number for point, number in self._pts.items()}

    @property
    def edge_frontier(self) -> set[Cell]:
        """Empty cells sharing an edge with a tile."""
        return {id_cell(x) for x in self._empty_neighbours(_ID_EDGES)}

    @property
    def point_frontier(self) -> set[Cell]:
        """Empty cells touching a tile at a point or more."""
        return {rec[3] for rec in self._point_records().values()}

    def _empty_neighbours(self, rows: dict) -> set[int]:
        """The ids of the empty cells at the offsets `rows[up]` (their first items) of a tile."""
        tiles = self._tiles
        return {cid + row[0] for cid, tile in tiles.items() for row in rows[is_up(tile[3])]} - tiles.keys()

    def clone(self) -> "TriangularBoard":
        new = TriangularBoard.__new__(TriangularBoard)
        new._tiles, new._pts, new._edge = self._tiles.copy(), self._pts.copy(), self._edge.copy()
        new._seen, new._free = self._seen, self._free
        new._round = self._round.copy()
        new._near = None if self._near is None else self._near.copy()
        new._catalogue = self._catalogue  # a cache of the pieces' rotations, shared
        return new

    # -- placements -------------------------------------------------------------------

    def iter_placements(self, hand: Sequence[Piece], first: bool, rules: object) -> list[TriangularPlacement]:
        """Every matching placement: cells by (row, column), then tiles by their numbers
        (then uid), then rotation; so the order does not depend on the order of the hand.
        A new list (which a compiled program keeps as its listing: engine/program/).
        The opening goes on (0, 0) pointing up or (1, 0) pointing down; later placements
        come from the open cells that `apply_placement` keeps. `hand` holds a piece once at
        most, and no piece on the table (a piece is in one place).
        """
        catalogue = self._catalogue
        bits, held = catalogue.bits, 0  # the hand's uids as a bit set
        try:
            for piece in hand:  # (+ is |: a hand holds a piece once)
                held += bits[piece.uid]
        except (IndexError, TypeError):  # a piece the catalogue has not met (None, or past the end)
            catalogue.learn(hand)
            return self.iter_placements(hand, first, rules)
        seen = self._seen  # (the same int object unless the catalogue learnt pieces since)
        if seen is not catalogue.seen and seen != catalogue.seen:  # met since the records were made
            self._relearn()
        if first and not self._tiles:
            return self._openings(hand)
        # `contact: point` (else `edge`), from compile_place
        frontier = self._point_records() if rules == "point" else self._edge
        found = []  # a list, not a generator: the callers take every placement
        for _, cell, entries in fitting(frontier, held, catalogue):
            for entry in entries:
                new = _Listed()  # (see `_Listed`)
                new._entry = entry
                new.pieces = entry[5]
                new.cell = cell
                new._board = self
                new._found = None
                found.append(new)
        return found

    def _openings(self, hand: Sequence[Piece]) -> list[TriangularPlacement]:
        found, slot = [], self._catalogue.slot
        for cell, up in _OPENINGS:  # each piece's entries, in the order of the pieces' first ones
            by_bit = slot((up, None, None, None))[BY_BIT]
            for entries in sorted(by_bit[1 << piece.uid] for piece in hand):
                for entry in entries:
                    new = _Listed()
                    new._entry, new.pieces, new.cell = entry, entry[5], cell
                    new._board, new._found = self, None
                    found.append(new)
        return found

    def apply_placement(self, placement: Placement) -> None:
        """Put the tile down, keeping the point map and the open cells up to date
        (`triangular_open.lay`); the placement's measures, read later, describe the board
        before it. `placement` is a `TriangularPlacement` (its fields are read without a
        check)."""
        cell = placement.cell
        c, r = cell  # (the id of a cell too far is no cell's: `lay` says so)
        found = lay(self, (r + _HALF) * _STRIDE + c + _HALF, cell, not (c + r) & 1, placement._entry)
        if placement._found is None:
            placement._found = found

    def _point_records(self) -> dict[int, tuple]:
        """The records of every open cell, made from scratch the first time and kept since."""
        if self._near is None:
            slot_of = self._catalogue.slot
            self._near = {x: self._record(x, slot_of) for x in sorted(self._empty_neighbours(_ID_OCCUPANCY))}
        return self._near

    def _relearn(self) -> None:
        """Bring the records up to the pieces the catalogue knows now: their masks from
        their slots, and the cells sharing an edge that no piece fitted, opened if one
        met since does (their slots are kept: a piece is listed in them when learnt)."""
        catalogue = self._catalogue
        self._seen, edge, slot_of = catalogue.seen, self._edge, catalogue.slot
        for opened in (edge, self._near or {}):
            for x, rec in list(opened.items()):
                opened[x] = (x, rec[2][0], rec[2], rec[3])
        for x in self._empty_neighbours(_ID_EDGES) - edge.keys():
            rec = self._record(x, slot_of)
            if rec[1] & self._free:
                edge[x] = rec

    def _occupancy(self, cid: int, up: bool) -> int:
        get, (dm, dl, dr), (fm, fl, fr) = self._round.get, _ID_POINTS[up], _FROM_POINT[up]
        return fm[get(cid + dm, 0)] | fl[get(cid + dl, 0)] | fr[get(cid + dr, 0)]

    def occupancy(self, cell: Cell) -> int:
        """Which of the 12 neighbours of `cell` hold a tile, as bits in `NEIGHBOURS` order."""
        return self._occupancy(cell_id(*cell), is_up(cell))

    def contacts_of(self, cell: Cell, numbers) -> list[Contact]:
        """Per corner M, L, R of a tile about to go on `cell`: what it touches."""
        return contacts(numbers, self.occupancy(cell))

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
        where, cid = f"{cell[0]},{cell[1]}", cell_id(*cell)
        if cid in self._tiles:
            return f"cell {where} is already occupied"
        if first and not self._tiles:
            if cell not in ((0, 0), (1, 0)):
                return f"the first tile goes on 0,0 (pointing up) or 1,0 (pointing down), not {where}"
        elif not any(cid + delta in self._tiles for delta, *_ in (
                _ID_OCCUPANCY[is_up(cell)] if rules == "point" else _ID_EDGES[is_up(cell)])):
            return f"cell {where} does not " + ("touch a tile" if rules == "point" else "share an edge with a tile")
        if rotation is None:
            return f"no rotation of {piece.name} fits on {where} (or give one: r0, r1 or r2)"
        nums = _numbers(piece, cell, rotation)
        for name, point, number in zip(CORNER_NAMES, corner_points(cell), nums):
            have = self._pts.get(cell_id(*point))
            if have is not None and have != number:
                return f"corner {name} of {piece.name}r{rotation} on {where} shows {number}, the table shows {have}"
        return f"{piece.name}r{rotation} cannot go on {where}"

    # -- positions and checks -------------------------------------------------------

    def check_invariants(self) -> list[str]:
        """Problems with the board (empty when sound): every shared corner must agree, and
        the open cells must be exactly the empty neighbours, with up-to-date records."""
        problems, seen, points = [], {}, self.points
        for cell, (piece, numbers, _) in self.cells.items():
            for name, point, number in zip(CORNER_NAMES, corner_points(cell), numbers):
                other = seen.setdefault(point, (cell, number))
                if other[1] != number:
                    problems.append(f"point {point}: {cell} corner {name} shows {number}, {other[0]} shows {other[1]}")
                if points.get(point) != number:
                    problems.append(f"point {point}: map holds {points.get(point)}, {cell} shows {number}")
        if len(points) != len(seen):
            problems.append("the point map holds points no tile covers")
        round_ = {}
        for cell in self.cells:
            for point, bit in zip(corner_points(cell), _AT_POINT[is_up(cell)]):
                round_[cell_id(*point)] = round_.get(cell_id(*point), 0) | bit
        if round_ != self._round:
            problems.append("the cells holding a tile round some point are not those recorded")
        return problems + self._check_records()

    def _check_records(self) -> list[str]:
        """`check_invariants` for the open cells: those sharing an edge with a tile are open
        unless no piece known fits them, those touching one (once made) are all open, and
        their records are those made from scratch (their masks for the pieces known)."""
        edging, touching = self._empty_neighbours(_ID_EDGES), self._empty_neighbours(_ID_OCCUPANCY)
        problems, stale, seen = [], set(), self._seen
        for opened, cells, what in ((self._edge, edging, "sharing an edge"), (self._near, touching, "touching")):
            if opened is None:
                continue
            fresh = {x: self._record(x, self._catalogue.slot) for x in cells}
            if opened.keys() - cells or any(fresh[x][1] & seen & self._free for x in cells - opened.keys()) or (
                    opened is self._near and opened.keys() != cells):
                problems.append(f"the frontier of open cells {what} is not the set of empty neighbours")
            stale.update(x for x in cells & opened.keys()
                         if opened[x][1] & seen != fresh[x][1] & seen or opened[x][2:] != fresh[x][2:])
        return problems + [f"open cell {id_cell(x)}: stale record" for x in sorted(stale)]

    def _record(self, cid: int, slot_of) -> tuple:
        """The record of open cell `cid`, worked out from scratch, with `slot_of(key)`."""
        r, c = divmod(cid, _STRIDE)
        cell, up, get = (c - _HALF, r - _HALF), not (c + r) & 1, self._pts.get
        dm, dl, dr = _ID_POINTS[up]
        slot = slot_of((up, get(cid + dm), get(cid + dl), get(cid + dr)))
        return (cid, slot[0], slot, cell)

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
        tiles = self._tiles
        return "\n".join(
            f"{tiles[cid][0].name}@{tiles[cid][3][0]},{tiles[cid][3][1]}r{tiles[cid][2]}" for cid in sorted(tiles)
        )

    def key(self) -> object:
        """Equal keys, equal boards: which piece is where, in which rotation."""
        return frozenset((cell, piece.uid, rotation) for piece, _, rotation, cell in self._tiles.values())

    def pieces_on_board(self) -> list[Piece]:
        """Every tile on the table."""
        return [tile[0] for tile in self._tiles.values()]

    def put_tile(self, cell: Cell, piece: Piece, rotation: int) -> None:
        """Lay `piece` on `cell` in `rotation` with no contact rule; its corners must match."""
        cid = cell_id(*cell)
        if cid in self._tiles:
            raise ValueError(f"cell {cell[0]},{cell[1]} is already occupied")
        nums = _numbers(piece, cell, rotation)
        for name, point, number in zip(CORNER_NAMES, corner_points(cell), nums):
            have = self._pts.get(cell_id(*point), number)
            if have != number:
                raise ValueError(f"corner {name} shows {number}, the table shows {have}")
        self.apply_placement(TriangularPlacement(piece, cell, rotation, nums, self))


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

    def check_pieces(self, pieces: Sequence[Piece]) -> dict[str, str]:
        """Each component whose pieces are not tiles with three corners."""
        return corner_mismatches(pieces, 3)

    def learn_pieces(self, pieces: Sequence[Piece]) -> None:
        """The catalogue learns every piece now: boards made after it never rebuild their
        records for a piece met late (`TriangularBoard._relearn`)."""
        self._catalogue.learn(pieces)

    def new_board(self) -> TriangularBoard:
        return TriangularBoard(self._catalogue)

    def render_text(self, board: Board) -> str:
        return render(board)  # type: ignore[arg-type]

    def render_runs(self, board: Board, last: object = None, symbols: bool = False,
                    width: int | None = None):
        """The drawing as styled runs, the tile of the `last` placement marked."""
        return draw(board, getattr(last, "cell", None))  # type: ignore[arg-type]
