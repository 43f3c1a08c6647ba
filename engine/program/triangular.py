"""The `triangular` board kind's part of a generated program (engine/topology/triangular.py).

The board is the kind's own `TriangularBoard` (one field of the state): its grid is
already plain data keyed by ints (the number at each lattice point, the tiles round
each point as bits, the open cells with the catalogue's slot for the numbers their
corners must show), and its listing (`iter_placements`) and `apply_placement` are the
tuned loops the interpreter runs, so a program lists the same placements in the same
order by construction. What the program removes is everything around them: moves,
views and contexts.

A placement's move code is its index in the position's listing, kept in the state's
`places` field (a listing is a new list, never changed: a copy shares it), so a code
names a placement of that position only. The measures the scoring rules read
(`move.hexagons`, `move.bridges`, ...) are the placement's `_found` tuple, which
`apply_placement` sets (they describe the board before the tile); a guard reads them
through the placement's properties.
"""

from __future__ import annotations

from engine.topology.triangular import Triangular

#: `move.<field>` -> its index in a placement's `_found` (`TriangularPlacement`)
_FOUND = {"hexagons": 0, "bridges": 1, "narrow_bridges": 2, "vertex_only_corners": 3,
          "edges": 4, "corners_touched": 5}
#: how many codes a place action spans: more than any position lists
_WIDTH = 1 << 20


class TriangularCode:
    """What the generator writes for a triangular board."""

    kind = "triangular"
    #: the state fields the board owns, in order
    fields = ("board", "places")
    #: action kinds whose moves are the board's (a placement of one tile from the hand)
    move_kinds = frozenset({"place"})
    size = 0  # (nothing is dealt onto it)

    def __init__(self, topology: Triangular):
        self.topology = topology

    def constants(self) -> dict:
        """The board's constants (`B_*`) the lines read."""
        return {"B_new_board": self.topology.new_board}

    def width(self, kind: str) -> int:
        return _WIDTH

    def empty_lines(self, f: dict) -> list[str]:
        """A new, empty board (`Triangular.new_board`)."""
        return [f"s[{f['board']}] = B_new_board()", f"s[{f['places']}] = ()"]

    def deal_lines(self, f: dict, dealt: str) -> list[str]:
        raise NotImplementedError  # (plan: no deal to a triangular board)

    def place_lines(self, f: dict, index: str, piece: str) -> list[str]:
        """Lay the placement listed at `index` (local `pl`), its tile (`piece`) taken from
        the mover's hand by identity (`flow._place`)."""
        return [
            f"pl = s[{f['places']}][{index}]", f"{piece} = pl.pieces[0]",
            "hand = hands[mover]",
            "for i, held in enumerate(hand):",
            f"    if held is {piece}:", "        del hand[i]", "        break",
            f"s[{f['board']}].apply_placement(pl)",
            f"s[{f['t_placed']}] += 1", f"s[{f['placed_any']}] = True",
        ]

    def listing_lines(self, f: dict, action: int, seat: str) -> list[str]:
        """Lines setting the local `pls` to the placements of `seat`'s hand
        (`generators._place_moves` before its guard; `first` says whether it opens)."""
        return [
            f"hand = hands[{seat}]", f"first = not s[{f['placed_any']}]",
            f"if first and s[{f['opening']}] is not None:",
            f"    allowed = s[{f['opening']}]",
            "    hand = [p for p in hand if p.uid in allowed]",
            f"pls = s[{f['board']}].iter_placements(hand, first, K_contact[{action}])",
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
            names[f"move.{name}"] = f"{placement}._found[{i}]" if applied else f"{placement}.{name}"
        return names

    def move_arg(self, s: list, f: dict, index: int, game) -> str:
        """The text of the placement listed at `index` (`2-3-4@1,0r1`)."""
        return s[f["places"]][index].text

    def copy_lines(self, f: dict) -> list[str]:
        """The board cloned into the copy `c` of `s` (the listing is shared: never changed)."""
        return [f"c[{f['board']}] = s[{f['board']}].clone()"]
