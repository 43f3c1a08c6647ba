"""The `triangular` board kind's part of a generated program (engine/topology/triangular.py).

The board is the kind's own `TriangularBoard` (one field of the state): its grid is
already plain data keyed by ints (the number at each lattice point, the tiles round
each point as bits, the open cells sharing an edge with a tile, each with the
catalogue's slot for the numbers its corners must show). What the program leaves out
is everything around it: moves, views, contexts, placement objects. For an action with
no guard and `contact: edge` (the usual) the listing is written out here as code over
the board's open cells (`TriangularBoard.iter_placements`' loop, in its order), giving
int codes; laying a tile is `apply_placement` written out (`place_lines`), calling the
board's `_open_sides` and `_learn` for the cells round it.

A placement's code is `cell id << 10 | uid * 3 + rotation` (`cell_id`, the piece's uid,
its rotation), the same for the same placement in any position: the cell, the piece and
the rotation are read back from it, and the catalogue's entry for them
(`B_entries[up][uid * 3 + rotation]`). The opening, a guarded action and `contact:
point` list placement objects (`iter_placements`) and code them so. The measures the
scoring rules read (`move.hexagons`, `move.bridges`, ...) are the local `found` of the
tile laid (`_measures` of its neighbours before it); a guard reads them through the
listed placement's properties.
"""

from __future__ import annotations

from engine.topology.triangular import (
    _ID_AROUND_PAIRS,
    Contact,
    Triangular,
    TriangularPlacement,
    _learn,
)
from engine.topology.triangular_catalogue import ENTRIES, Catalogue
from engine.topology.triangular_grid import (
    _HALF,
    _MEASURES,
    _PUT,
    _STRIDE,
    LIMIT,
    _contact_fields,
    _measures,
)

#: `move.<field>` -> its index in a placement's `_found` (`TriangularPlacement`)
_FOUND = {"hexagons": 0, "bridges": 1, "narrow_bridges": 2, "vertex_only_corners": 3,
          "edges": 4, "corners_touched": 5}
#: a code's bits below the cell id: uid * 3 + rotation
_SHIFT = 10
#: a cell id's bits below its row (`cell_id`: the stride is a power of two)
_ROW = _STRIDE.bit_length() - 1
assert _STRIDE == 1 << _ROW
#: how many codes a place action spans: every cell id, shifted
_WIDTH = (_STRIDE * _STRIDE) << _SHIFT


def _code(placement) -> int:
    """The code of a placement object (`iter_placements`' own)."""
    c, r = placement.cell
    entry = placement._entry
    return (((r + _HALF) * _STRIDE + c + _HALF) << _SHIFT) + entry[1] * 3 + entry[2]


def _placement(entry: tuple, cell: tuple, board) -> TriangularPlacement:
    """A placement object of the catalogue's `entry` on `cell` (as `iter_placements`
    makes them)."""
    placement = object.__new__(TriangularPlacement)
    placement._entry, placement.pieces, placement.cell = entry, entry[5], cell
    placement._board, placement._found = board, None
    return placement


def _contacts(numbers: tuple, mask: int) -> list:
    """`move.contacts` of a placement showing `numbers` whose neighbours were `mask`
    (`TriangularPlacement.contacts`)."""
    return [Contact(number, *row) for number, row in zip(numbers, _contact_fields(mask))]


def _entries_for(slot: list, fits: int, held: int) -> tuple:
    """The entries of `slot` for the pieces `held` (`fits` of them fit), kept in the slot
    as `iter_placements` keeps them."""
    entries = tuple(entry for entry in Catalogue.entries(slot) if held & entry[6])
    if len(slot[5]) < 64:
        slot[5][fits] = entries
    return entries


class TriangularCode:
    """What the generator writes for a triangular board."""

    kind = "triangular"
    #: the state fields the board owns, in order
    fields = ("board",)
    #: action kinds whose moves are the board's (a placement of one tile from the hand)
    move_kinds = frozenset({"place"})
    size = 0  # (nothing is dealt onto it)
    #: the listing reads the hand as a bit set (the state's `held`)
    uses_held = True

    def __init__(self, topology: Triangular):
        self.topology = topology
        self._entries = None

    def entries(self) -> tuple:
        """`[up][uid * 3 + rotation]` -> the catalogue's entry (the topology's catalogue
        has learnt every piece when the game was built: `Game`, `learn_pieces`)."""
        if self._entries is None:
            catalogue = self.topology._catalogue
            tables = []
            for up in (False, True):
                listed = catalogue.slot((up, None, None, None))[ENTRIES]
                table = [None] * (3 * (max((e[1] for e in listed), default=0) + 1))
                for entry in listed:
                    table[entry[1] * 3 + entry[2]] = entry
                tables.append(tuple(table))
            self._entries = tuple(tables)
        return self._entries

    def constants(self) -> dict:
        """The board's constants (`B_*`) the lines read."""
        return {"B_new_board": self.topology.new_board, "B_entries": self.entries(),
                "B_bits": self.topology._catalogue.bits, "B_code": _code,
                "B_entries_for": _entries_for, "B_placement": _placement,
                "B_put": _PUT, "B_found": _MEASURES, "B_measures": _measures,
                "B_around": _ID_AROUND_PAIRS, "B_learn": _learn, "B_contacts": _contacts}

    def width(self, kind: str) -> int:
        return _WIDTH

    def empty_lines(self, f: dict) -> list[str]:
        """A new, empty board (`Triangular.new_board`)."""
        return [f"s[{f['board']}] = B_new_board()"]

    def deal_lines(self, f: dict, dealt: str) -> list[str]:
        raise NotImplementedError  # (plan: no deal to a triangular board)

    def place_lines(self, f: dict, code: str, piece: str) -> list[str]:
        """Lay the placement of `code`, its tile (`piece`) taken from the mover's hand by
        identity (`flow._place`): `TriangularBoard.apply_placement` written out, with
        the cell and the catalogue's entry read from the code and no placement object
        (a far cell: the board's own method, which says why not). Sets the locals
        `entry`, `up`, `mask` and `found` (the measures before the tile, `_measures`)."""
        return [
            f"x = {code}", f"cid = x >> {_SHIFT}",  # (the cell id: row * stride + column)
            f"c = (cid & {_STRIDE - 1}) - {_HALF}", f"r = (cid >> {_ROW}) - {_HALF}",
            "up = not (c + r) & 1",
            f"entry = B_entries[up][x & {(1 << _SHIFT) - 1}]", f"{piece} = entry[4]",
            f"s[{f['held']}][mover] -= entry[6]  # (its bit)",
            "hand = hands[mover]",
            "for i, held in enumerate(hand):",
            f"    if held is {piece}:", "        del hand[i]", "        break",
            f"board = s[{f['board']}]",
            f"if (c + {LIMIT} | r + {LIMIT}) >> 15:  # (too far: the board says so)",
            "    board.apply_placement(B_placement(entry, (c, r), board))",
            "dm, dl, dr, fm, fl, fr, bm, bl, br, _, _, _, _ = B_put[up]",
            "pts, round_, edge = board._pts, board._round, board._edge",
            "free = board._free = board._free - entry[6]",
            "at_m, at_l, at_r = cid + dm, cid + dl, cid + dr",
            "a_m, a_l, a_r = round_.get(at_m, 0), round_.get(at_l, 0), round_.get(at_r, 0)",
            "mask = fm[a_m] | fl[a_l] | fr[a_r]",
            "found = B_found.get(mask) or B_measures(mask)",
            "round_[at_m], round_[at_l], round_[at_r] = a_m | bm, a_l | bl, a_r | br",
            f"board._tiles[cid] = ({piece}, entry[3], entry[2], (c, r))",
            "edge.pop(cid, None)",
            "if not (a_m and a_l and a_r):",
            "    around, catalogue, (n0, n1, n2) = B_around[up], board._catalogue, entry[3]",
            "    if not a_m:", "        pts[at_m] = n0",
            "        B_learn(edge, cid, around[0], n0, catalogue, free)",
            "    if not a_l:", "        pts[at_l] = n1",
            "        B_learn(edge, cid, around[1], n1, catalogue, free)",
            "    if not a_r:", "        pts[at_r] = n2",
            "        B_learn(edge, cid, around[2], n2, catalogue, free)",
            "board._open_sides(cid, c, r, up, mask, entry[7], free)",
            "if board._near is not None:",
            "    board._put_near(cid, (c, r), up, (not a_m, not a_l, not a_r))",
            f"s[{f['t_placed']}] += 1", f"s[{f['placed_any']}] = True",
        ]

    def listing_lines(self, f: dict, action, index: int, seat: str) -> list[str]:
        """Lines setting the local `pls` to the placement objects of `seat`'s hand, or
        None when `codes_lines` lists codes directly (`generators._place_moves` before
        its guard; `first` says whether it opens)."""
        return [
            f"hand = hands[{seat}]", f"first = not s[{f['placed_any']}]",
            f"if first and s[{f['opening']}] is not None:",
            f"    allowed = s[{f['opening']}]",
            "    hand = [p for p in hand if p.uid in allowed]",
            f"board = s[{f['board']}]",
        ]

    def direct(self, action) -> bool:
        """Whether the listing is written out as code (no guard, `contact: edge`)."""
        return action.guard is None and getattr(action, "rules", "edge") == "edge"

    def objects_line(self, index: int) -> str:
        return f"pls = board.iter_placements(hand, first, K_contact[{index}])"

    def codes_lines(self, f: dict, index: int, target: str, base: int) -> list[str]:
        """`iter_placements`' listing as code: the open cells some tile of the hand fits,
        by id, then each slot's entries for those tiles, as codes appended to `target`
        (the opening from `iter_placements`' own)."""
        plus = f" + {base}" if base else ""
        return [
            "if first and not board._tiles:",
            f"    {target} = [B_code(pl){plus} for pl in {self.objects_line(index)[6:]}]",
            "else:",  # (the hand's bits: kept, unless an opening allows only some)
            f"    held = s[{f['held']}][seat]",
            "    if first:",
            "        held = 0",
            "        for p in hand:",
            "            held += B_bits[p.uid]",
            "    fitting = []",  # (a loop, not a comprehension: no frame of its own)
            "    for rec in board._edge.values():",
            "        if rec[1] & held:",
            "            fitting.append(rec)",
            "    if len(fitting) > 1:",
            "        fitting.sort()",
            f"    {target} = []",
            "    for x, mask, slot, _ in fitting:",
            "        fits = mask & held",
            "        entries = slot[5].get(fits)",
            "        if entries is None:",
            "            entries = B_entries_for(slot, fits, held)",
            f"        x = (x << {_SHIFT}){plus}",
            "        for e in entries:",
            f"            {target}.append(x + e[1] * 3 + e[2])",
        ]

    def names(self, f: dict) -> dict[str, str]:
        """`board.<field>` -> its text (the fields the program can read)."""
        return {"board.count": f"s[{f['board']}].count"}

    def move_names(self, placement: str, applied: bool) -> dict[str, str]:
        """`move.<field>` of `placement` (`PlaceMove`): its measures from `_found` once
        applied (set then), else through its properties; `first` is the local saying
        whether it opens the round."""
        names = {"move.opening": "first", "move.count": "1",
                 "move.value": f"{placement}.pieces[0].value",
                 "move.pieces": f"k_list({placement}.pieces)",
                 "move.contacts": f"{placement}.contacts", "move.cell_up": f"{placement}.cell_up"}
        for name, i in _FOUND.items():
            names[f"move.{name}"] = f"found[{i}]" if applied else f"{placement}.{name}"
        if applied:  # (no placement object: the locals of `place_lines`)
            names.update({"move.value": "entry[4].value", "move.pieces": "k_list(entry[5])",
                          "move.contacts": "B_contacts(entry[3], mask)", "move.cell_up": "up"})
        return names

    def move_arg(self, s: list, f: dict, code: int, game) -> str:
        """The text of the placement of `code` (`2-3-4@1,0r1`, `TriangularPlacement.text`)."""
        r, c = divmod(code >> _SHIFT, _STRIDE)
        c, r = c - _HALF, r - _HALF
        entry = self.entries()[not (c + r) & 1][code & ((1 << _SHIFT) - 1)]
        return f"{entry[4].name}@{c},{r}r{entry[2]}"

    @staticmethod
    def move_code(data) -> int:
        """The code (past its action's base) of a place move's placement."""
        return _code(data)

    def values(self, board) -> dict:
        """The board's field for the interpreter's `TriangularBoard` (a position a search
        starts from): a clone of it."""
        return {"board": board.clone()}

    def copy_lines(self, f: dict) -> list[str]:
        """The board cloned into the copy `c` of `s`."""
        return [f"c[{f['board']}] = s[{f['board']}].clone()"]
