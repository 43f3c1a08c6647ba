"""The `tableau` board kind's part of a generated program (engine/topology/tableau.py).

The board is five fields of the program's state: the piece in each slot (or None), how
many cards still lie on each slot, the exposed slots as a sorted list (as the
hand-written reference keeps them: a listing walks it, a play takes one out and puts
the slots it uncovers in, both in C), how many cards are left, and the slots that hold
a card as bits (the board's part of a search's position key). A card is exposed when it
is there and nothing lies on it (a face-down card turns up as soon as it is uncovered,
so the faces need no field of their own: only what a player may see depends on them,
and that is the interpreter's to show). The board's rules are the kind's own functions,
called with these fields: taking a card lowers the counts of the slots under it and
exposes those left with none (`tableau.uncover`, as `TableauBoard.remove` calls it), a
deal starts from the layout's full counts (`tableau.fresh_deal`, as `TableauBoard.deal`),
and `board.row_counts` is `tableau.row_counts`; the lines below only keep the fields.
"""

from __future__ import annotations

from bisect import insort
from functools import partial

from engine.topology.tableau import TableauTopology, fresh_deal, row_counts, uncover


class TableauCode:
    """What the generator writes for a tableau board."""

    kind = "tableau"
    #: the state fields the board owns, in order
    fields = ("cards", "cover", "exposed", "count", "mask")
    #: action kinds whose moves are the board's (a play takes the card of one slot)
    move_kinds = frozenset({"play"})
    #: the names read from `cards` (a search's forks share it only when none is read)
    shared_names = ("board.row_counts",)

    def __init__(self, topology: TableauTopology):
        self.layout = topology.layout
        self.size = self.layout.size

    def constants(self) -> dict:
        """The board's constants (`B_*`) and helpers (`k_*`) the lines read: a full
        deal's counts and exposed slots (`fresh_deal`: a slot with nothing on it is
        exposed, face-down or not, since a deal turns such a card up)."""
        cover, _, _, exposed = fresh_deal(self.layout)
        return {"B_covers": self.layout.covers, "B_slots": self.layout.slots, "B_cover0": tuple(cover),
                "B_open0": tuple(s for s in range(self.size) if exposed >> s & 1),
                "B_uncover": uncover, "k_insort": insort,
                "k_row_counts": partial(row_counts, self.layout.rows)}

    def slot_values(self) -> tuple:
        """What `move.slot` is at each slot (an expression folded by slot reads it:
        engine/program/fold.py)."""
        return tuple(self.layout.slots)

    def width(self, kind: str) -> int:
        """How many move codes an action of `kind` takes: one per slot."""
        return self.size

    def empty_lines(self, f: dict) -> list[str]:
        """A new, empty board (`TableauTopology.new_board`)."""
        return [f"s[{f['cards']}] = [None] * {self.size}", f"s[{f['cover']}] = [0] * {self.size}",
                f"s[{f['exposed']}] = []", f"s[{f['count']}] = 0", f"s[{f['mask']}] = 0"]

    def deal_lines(self, f: dict, dealt: str) -> list[str]:
        """`board.deal(dealt)`: one card a slot, in slot order (`dealt` is a new list)."""
        return [f"s[{f['cards']}] = {dealt}", f"s[{f['cover']}] = k_list(B_cover0)",
                f"s[{f['exposed']}] = k_list(B_open0)", f"s[{f['count']}] = {self.size}",
                f"s[{f['mask']}] = {fresh_deal(self.layout)[2]}"]

    def remove_lines(self, f: dict, slot: str, piece: str, search: bool = False) -> list[str]:
        """Take the exposed card of `slot` into the local `piece`; each card it uncovers
        becomes exposed (`uncover`, as `TableauBoard.remove`). `search` (a search's
        step): the card stays in `cards`, which a search's forks share
        (`search_copy_lines`): only the exposed slots are read there, and a taken slot is
        never exposed again."""
        take = [] if search else [f"cards[{slot}] = None"]
        return [
            f"cards = s[{f['cards']}]", f"{piece} = cards[{slot}]", *take,
            f"exposed = s[{f['exposed']}]", f"exposed.remove({slot})",
            f"for under in B_uncover(s[{f['cover']}], B_covers[{slot}]):",
            "    k_insort(exposed, under)",
            f"s[{f['count']}] -= 1", f"s[{f['mask']}] ^= 1 << {slot}",
        ]

    def candidates(self, f: dict, slot: str, piece: str) -> tuple[list[str], list[str]]:
        """(lines opening a loop over the exposed cards in slot order, binding `slot`
        and `piece`; lines closing each turn of it): `exposed_items()`."""
        head = [f"cards = s[{f['cards']}]", f"for {slot} in s[{f['exposed']}]:",
                f"    {piece} = cards[{slot}]"]
        return head, []

    def names(self, f: dict) -> dict[str, str]:
        """`board.<field>` -> its text (the fields the program can read)."""
        return {"board.count": f"s[{f['count']}]", "board.slots": str(self.size),
                "board.row_counts": f"k_row_counts(s[{f['cards']}])"}

    def move_names(self, slot: str) -> dict[str, str]:
        """`move.<field>` of a play from `slot` (`PlayMove`)."""
        return {"move.slot": f"B_slots[{slot}]", "move.count": "1"}

    def move_arg(self, s: list, f: dict, slot: int, game) -> str:
        """The text of a play from `slot` (`play Ah`, or `Ah@3` when names repeat)."""
        piece = s[f["cards"]][slot]
        return piece.name if game.unique_names else f"{piece.name}@{slot}"

    def copy_lines(self, f: dict) -> list[str]:
        """The board's lists copied into the copy `c` of `s`."""
        return [f"c[{f['cards']}] = s[{f['cards']}][:]", f"c[{f['cover']}] = s[{f['cover']}][:]",
                f"c[{f['exposed']}] = s[{f['exposed']}][:]"]

    # -- what a search needs (engine/players/solver_program.py) -------------------------
    def search_copy_lines(self, f: dict) -> list[str]:
        """`copy_lines` for a search's forks: `cards` shared, since a search's step
        never changes it (`remove_lines` with `search`)."""
        return [line for line in self.copy_lines(f) if not line.startswith(f"c[{f['cards']}]")]

    def key_field(self, f: dict) -> tuple[int, int]:
        """(the field of the state holding the board's part of a position key, an int,
        the bits it fits in): within a round the deal is fixed, so the slots still
        holding a card tell the board (`TableauBoard.search_key`)."""
        return f["mask"], self.size

    @staticmethod
    def move_code(data) -> int:
        """The code (past its action's base) of a play move's data `(slot, piece)`."""
        return data[0]

    def values(self, board) -> dict:
        """The board's fields for the interpreter's `TableauBoard` (a position the
        search starts from: a scenario, or a match under way)."""
        cards = list(board.cards)
        cover = list(board.cover)
        exposed = [s for s, card in enumerate(cards) if card is not None and not cover[s]]
        return {"cards": cards, "cover": cover, "exposed": exposed,
                "count": sum(1 for card in cards if card is not None), "mask": board.mask}
