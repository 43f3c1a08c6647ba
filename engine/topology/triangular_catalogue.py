"""The rotations of a ruleset's pieces indexed for the `triangular` board kind.

A cell of the board is described by the numbers its corners must show (a key
`(up, m, l, r)`, None where a corner is free); the catalogue lists, under each key, the
rotations of the pieces that fit it, and works out once how a number newly shown at one
of a cell's corners changes the cell's key, so that laying a tile costs a few look-ups
per neighbour.
"""

from __future__ import annotations

from typing import Sequence

from engine.pieces import Piece
from engine.topology.triangular_grid import rotations

# A slot: the entry of one key, changed in place as pieces are learnt (boards' records of
# open cells hold slots, so they see pieces learnt after the record was made).
MASK, ENTRIES, TOUCHED, KEY, SERIAL, BY_BIT, AFTER, SORTED = range(8)


class Catalogue:
    """Every rotation of every piece met so far, by the corners a cell already knows.

    A slot is [the uids listed as a bit set, entries, how many corners the key names, the
    key, a serial number, {bit set of uids: the entries of those pieces}, {4 * v + k: the
    slot whose key is this one's with corner k (M, L, R: 0-2) showing number v}, whether
    the entries are sorted]; the key with no corner known lists every rotation (for the
    first tile). An entry is (corners, uid, rotation, numbers at M, L, R, piece, (piece,), 1 << uid,
    the slots its edge neighbours start from: `edge_slots`), sorted
    (by `entries`, when read: few slots are) so that the order of moves does not depend on
    the order pieces were met (a piece's entries are next to each other).
    Shared by the boards of one ruleset, whose pieces have distinct uids.
    """

    __slots__ = ("seen", "bits", "by_key")

    def __init__(self):
        self.seen = 0  # the uids learnt, as a bit set
        self.bits: list[int | None] = []  # uid -> 1 << uid, None for a uid not learnt
        self.by_key: dict[tuple, list] = {}

    def slot(self, key: tuple) -> list:
        """The slot of `key`, made empty if no piece fits it yet."""
        found = self.by_key.get(key)
        if found is None:  # (key[0] is a bool)
            found = self.by_key[key] = [0, [], 3 - key.count(None), key, len(self.by_key), {}, {}, True]
        return found

    @staticmethod
    def entries(slot: list) -> list:
        """The entries of `slot`, sorted."""
        if not slot[SORTED]:
            slot[ENTRIES].sort()
            slot[SORTED] = True
        return slot[ENTRIES]

    def learn(self, pieces: Sequence[Piece]) -> None:
        """Index the rotations of the pieces not met yet."""
        get, slot_of = self.by_key.get, self.slot
        for piece in pieces:
            uid = piece.uid
            bit = 1 << uid
            if self.seen & bit:
                continue
            self.seen |= bit
            self.bits.extend([None] * (uid + 1 - len(self.bits)))
            self.bits[uid] = bit
            corners = tuple(piece.attrs["corners"])
            for up in (True, False):
                for k, (m, l, r) in rotations(corners, up):
                    entry = (corners, uid, k, (m, l, r), piece, (piece,), bit, self.edge_slots(up, (m, l, r)))
                    for key in ((up, m, l, r), (up, m, l, None), (up, m, None, r), (up, None, l, r),
                                (up, m, None, None), (up, None, l, None), (up, None, None, r),
                                (up, None, None, None)):
                        slot = get(key) or slot_of(key)
                        slot[ENTRIES].append(entry)
                        slot[SORTED] = False
                        slot[MASK] |= bit
                        by_bit = slot[BY_BIT]
                        by_bit[bit] = by_bit.get(bit, ()) + (entry,)

    def edge_slots(self, up: bool, numbers: tuple) -> tuple[list, list, list]:
        """The slots of the edge neighbours LEFT, RIGHT and MIDDLE of a tile showing
        `numbers` (M, L, R) on a cell pointing `up`, knowing only the two corners each
        shares with it: LEFT shows the tile's L and M at its M and R, RIGHT its R and M at
        its M and L, MIDDLE its L and R at its L and R (`triangular_grid._put_geometry`)."""
        m, l, r = numbers
        up = not up
        return self.slot((up, l, None, m)), self.slot((up, r, m, None)), self.slot((up, None, l, r))

    def after(self, slot: list, corner: int, number: int) -> list:
        """The slot of a cell that had `slot`, once its corner `corner` (M, L, R: 0-2) shows
        `number`; kept in `slot` (under `4 * number + corner`)."""
        key = list(slot[KEY])
        key[corner + 1] = number
        found = slot[AFTER][4 * number + corner] = self.slot(tuple(key))
        return found
