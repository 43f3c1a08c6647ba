"""The `triangular` board kind's part of a generated program (engine/topology/triangular.py).

The board is the kind's own `TriangularBoard` (one field of the state): its grid is
already plain data keyed by ints (the number at each lattice point, the tiles round
each point as bits, the open cells sharing an edge with a tile, each with the
catalogue's slot for the numbers its corners must show). What the program leaves out
is everything around it: moves, views, contexts, placement objects. The board's rules
are the kind's own functions, called with what the program has, never written again
here: laying a tile is `triangular_open.lay` (`place_lines`, as `apply_placement`
calls it), and for an action with no guard and `contact: edge` (the usual) the listing
is `triangular_open.fitting` (`codes_lines`: the open cells some tile of the hand fits,
with their entries, as `iter_placements` walks them), coded as ints.

A placement's code is `cell id << 10 | uid * 3 + rotation` (`cell_id`, the piece's uid,
its rotation), the same for the same placement in any position: the cell, the piece and
the rotation are read back from it, and the catalogue's entry for them
(`B_entries[up][uid * 3 + rotation]`). The opening, a guarded action and `contact:
point` list placement objects (`iter_placements`) and code them so. The measures the
scoring rules read (`move.hexagons`, `move.bridges`, ...) are the local `found` of the
tile laid (what `lay` returns: the measures of its neighbours before it); a guard reads
them through the listed placement's properties.
"""

from __future__ import annotations

from engine.topology.triangular import Triangular
from engine.topology.triangular_catalogue import ENTRIES
from engine.topology.triangular_grid import _HALF, _STRIDE, MASK, id_cell, is_up
from engine.topology.triangular_open import fitting, lay
from engine.topology.triangular_placement import contacts

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
    """The code of a placement object (`iter_placements`' own): its cell's id (`cell_id`,
    its formula in place: a guarded listing codes every placement) and its entry's."""
    c, r = placement.cell
    entry = placement._entry
    return (((r + _HALF) * _STRIDE + c + _HALF) << _SHIFT) + entry[1] * 3 + entry[2]


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
        """The board's constants (`B_*`) the lines read: the kind's own functions."""
        return {"B_new_board": self.topology.new_board, "B_entries": self.entries(),
                "B_code": _code, "B_fitting": fitting,
                "B_lay": lay, "B_contacts": contacts}

    def width(self, kind: str) -> int:
        return _WIDTH

    def empty_lines(self, f: dict) -> list[str]:
        """A new, empty board (`Triangular.new_board`)."""
        return [f"s[{f['board']}] = B_new_board()"]

    def deal_lines(self, f: dict, dealt: str) -> list[str]:
        raise NotImplementedError  # (plan: no deal to a triangular board)

    def place_lines(self, f: dict, code: str, piece: str) -> list[str]:
        """Lay the placement of `code`, its tile (`piece`) taken from the mover's hand by
        identity (`flow._place`): the cell and the catalogue's entry read from the code,
        then `triangular_open.lay` (as `apply_placement` calls it, with no placement
        object). Sets the locals `entry`, `up` and `found` (the measures before the tile,
        the neighbours' mask at `MASK`)."""
        return [
            f"x = {code}", f"cid = x >> {_SHIFT}",  # (the cell id: row * stride + column)
            f"c = (cid & {_STRIDE - 1}) - {_HALF}", f"r = (cid >> {_ROW}) - {_HALF}",
            "up = not (c + r) & 1",
            f"entry = B_entries[up][x & {(1 << _SHIFT) - 1}]", f"{piece} = entry[4]",
            f"s[{f['held']}][mover] -= entry[6]  # (its bit)",
            "hand = hands[mover]",
            "for i, held in enumerate(hand):",
            f"    if held is {piece}:", "        del hand[i]", "        break",
            f"found = B_lay(s[{f['board']}], cid, (c, r), up, entry)",
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
        """`iter_placements`' listing as codes appended to `target`: the open cells some
        tile of the hand fits with their entries (`triangular_open.fitting`, the hand's
        bits the state's), each coded; while the round opens (the opening, or only some
        tiles allowed) `iter_placements`' own placements, coded."""
        plus = f" + {base}" if base else ""
        return [
            "if first:",
            f"    {target} = [B_code(pl){plus} for pl in {self.objects_line(index)[6:]}]",
            "else:",
            f"    {target} = []",
            f"    for x, _, entries in B_fitting(board._edge, s[{f['held']}][seat], board._catalogue):",
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
                          "move.contacts": f"B_contacts(entry[3], found[{MASK}])", "move.cell_up": "up"})
        return names

    def move_arg(self, s: list, f: dict, code: int, game) -> str:
        """The text of the placement of `code` (`2-3-4@1,0r1`, `TriangularPlacement.text`)."""
        c, r = cell = id_cell(code >> _SHIFT)
        entry = self.entries()[is_up(cell)][code & ((1 << _SHIFT) - 1)]
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
