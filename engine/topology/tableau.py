"""Board kind `tableau`: slots of cards lying on one another, taken one at a time.

A layout is data. `rows` gives the x position of each slot, in card widths, row by row
from the back; a slot is covered by the slots of the next row that overlap it
(|dx| < 1). A layout that is not made of rows lists its covering instead:
`covers: {slot: [the slots lying on it]}` with `slots: N` (a "covered by" table, as
a rules reference would print it). Some slots start face down
(`face_down_rows` or `face_down: all | none | [slots]`) and turn up as soon as nothing
covers them. `tags` name sets of slots (`top: [0, 1, 2]`), which a `play` move reports
as `move.slot.tags`.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Iterator, Mapping, Sequence

from engine.diagnostics import Diagnostic, RulecraftError
from engine.pieces import Piece
from engine.topology.base import Board, Topology, Where, register
from engine.topology.styled import piece_label, piece_style, plain
from engine.topology.tableau_layout import Layout, Slot, read_layout

__all__ = ["Layout", "Slot", "TableauBoard", "TableauTopology", "fresh_deal", "read_layout", "row_counts",
           "uncover"]


class TableauBoard(Board):
    """Cards in the slots of a layout. Clones share the layout; only lists are copied."""

    __slots__ = ("layout", "cards", "cover", "up", "mask", "open", "deal_uids", "_count",
                 "_exposed", "_by_open")

    def __init__(self, layout: Layout):
        self.layout = layout
        self.cards: list[Piece | None] = [None] * layout.size
        # How many cards still lie on each slot: a card is exposed when this is 0.
        self.cover = [0] * layout.size
        self.up = [False] * layout.size
        self.mask = 0  # bit i: slot i holds a card
        self.open = 0  # bit i: slot i holds an exposed card (face up, nothing on it)
        self.deal_uids: tuple[int, ...] = ()
        self._count = 0
        self._exposed: list | None = None  # `exposed_items()`, until the board changes
        # `exposed_items()` by the exposed mask, shared by the clones of one deal: cards
        # never change slots, so the same mask shows the same cards (a search meets
        # each mask many times). A board whose cards are set otherwise gets its own.
        self._by_open: dict = {}

    @property
    def count(self) -> int:
        return self._count

    @property
    def slots(self) -> int:
        """`board.slots`: how many slots the layout has."""
        return self.layout.size

    def capacity(self) -> int:
        """How many pieces a deal lays out: one per slot."""
        return self.layout.size

    def slot_record(self, slot: int) -> Slot:
        """`move.slot` of a play from `slot`."""
        return self.layout.slots[slot]

    @property
    def face_down(self) -> int:
        """`board.face_down`: how many cards on the board are face down."""
        return sum(1 for c, u in zip(self.cards, self.up) if c is not None and not u)

    @property
    def exposed(self) -> list[Piece]:
        """`board.exposed`: the cards that may be taken now, in slot order."""
        return [piece for _, piece in self.exposed_items()]

    @property
    def row_counts(self) -> list[int]:
        """`board.row_counts`: how many cards are left in each row, from the back."""
        return row_counts(self.layout.rows, self.cards)

    def clone(self) -> "TableauBoard":
        other = TableauBoard.__new__(TableauBoard)
        other.layout = self.layout
        other.cards = self.cards[:]
        other.cover = self.cover[:]
        other.up = self.up[:]
        other.mask = self.mask
        other.open = self.open
        other.deal_uids = self.deal_uids
        other._count = self._count
        other._exposed = self._exposed  # the same position: the same (unmodified) list
        other._by_open = self._by_open
        return other

    def deal(self, pieces: Sequence[Piece]) -> None:
        """Lay one piece in each slot, in slot order; the layout decides which face up."""
        layout = self.layout
        if len(pieces) != layout.size:
            raise ValueError(f"a tableau of {layout.size} slots needs {layout.size} pieces,"
                             f" got {len(pieces)}")
        self.cards = list(pieces)
        cover, up, mask, exposed = fresh_deal(layout)
        self.cover = cover[:]
        self.up = up[:]
        self.mask = mask
        self.open = exposed
        self.deal_uids = tuple([p.uid for p in pieces])
        self._count = layout.size
        self._exposed = None
        self._by_open = {}

    def _find_open(self) -> None:
        self._exposed = None
        self.open = sum(1 << s for s, c in enumerate(self.cards)
                        if c is not None and not self.cover[s] and self.up[s])

    def iter_exposed(self) -> Iterator[tuple[int, Piece]]:
        cards, bits = self.cards, self.open
        while bits:
            low = bits & -bits
            slot = low.bit_length() - 1
            yield slot, cards[slot]
            bits ^= low

    def exposed_items(self) -> list[tuple[int, Piece]]:
        found = self._exposed
        if found is None:
            known = self._by_open
            found = known.get(self.open)
            if found is None:
                if len(known) >= _MAX_KNOWN:
                    known.clear()
                found = known[self.open] = list(self.iter_exposed())
            self._exposed = found
        return found

    def iter_reachable(self, depth: int) -> Iterator[tuple[int, Piece]]:
        """Face-up cards with at most `depth` cards still lying on them, in slot order."""
        for slot, card in enumerate(self.cards):
            if card is not None and self.up[slot] and self.cover[slot] <= depth:
                yield slot, card

    def lying_on(self, slot: int) -> tuple:
        cards = self.cards
        return tuple(t for t in self.layout.covered_by[slot] if cards[t] is not None)

    def is_exposed(self, slot: int) -> bool:
        return (0 <= slot < len(self.cards) and self.cards[slot] is not None
                and not self.cover[slot] and self.up[slot])

    def remove(self, slot: int) -> Piece:
        """Take the exposed card in `slot`; every card it uncovers turns face up."""
        if not self.is_exposed(slot):
            raise ValueError(f"slot {slot} holds no exposed card")
        card = self.cards[slot]
        self._exposed = None
        self.cards[slot] = None
        self.mask &= ~(1 << slot)
        self.open &= ~(1 << slot)
        self._count -= 1
        up = self.up
        for below in uncover(self.cover, self.layout.covers[slot]):
            up[below] = True
            self.open |= 1 << below
        return card

    def pieces_on_board(self) -> list[Piece]:
        """The pieces on the board, in slot order."""
        return [c for c in self.cards if c is not None]

    def key(self) -> tuple:
        """Hashable and exact: which cards were dealt where, and which remain.

        The faces need no place in it: a card is up if it was dealt up or if everything
        on it has gone, and cards never come back.
        """
        return (self.deal_uids, self.mask)

    def search_key(self) -> int:
        """The slots that still hold a card, as bits: within a round the deal is fixed."""
        return self.mask

    def hidden_items(self) -> list[tuple[int, Piece]]:
        """(slot, card) for each face-down card."""
        return [(s, c) for s, c in enumerate(self.cards) if c is not None and not self.up[s]]

    def set_hidden(self, slot: int, piece: Piece) -> None:
        """Put `piece` face down in `slot` (which holds a face-down card)."""
        if self.cards[slot] is None or self.up[slot]:
            raise ValueError(f"slot {slot} holds no face-down card")
        self.cards[slot] = piece
        self._by_open = {}  # (no longer the cards of the boards it shared with)

    def check_invariants(self) -> list[str]:
        """Problems with the counts, the mask or the faces; empty when all is well."""
        layout, problems = self.layout, []
        present = [c is not None for c in self.cards]
        if self._count != sum(present):
            problems.append(f"count {self._count} but {sum(present)} cards in the slots")
        if self.mask != sum(1 << s for s, p in enumerate(present) if p):
            problems.append("the slot mask disagrees with the slots")
        for s in range(layout.size):
            lying = sum(1 for t in layout.covered_by[s] if present[t])
            if self.cover[s] != lying:
                problems.append(f"slot {s}: {self.cover[s]} cards counted on it, {lying} lie there")
            if present[s] and not lying and not self.up[s]:
                problems.append(f"slot {s} is uncovered but face down")
            if lying and not present[s]:
                problems.append(f"slot {s} is empty under a card")
            if bool(self.open >> s & 1) != (present[s] and not lying and self.up[s]):
                problems.append(f"slot {s}: the exposed mark is wrong")
        return problems

    def dump_position(self) -> str:
        """One line per drawn row: a card name per slot, `.` for an empty slot."""
        return "\n".join(
            " ".join(self.cards[s].name if self.cards[s] is not None else "." for s in row)
            for row in self.layout.rows
        )

    def load_position(self, text: str, pieces: Sequence[Piece]) -> list[Piece]:
        """Set the board from `dump_position`'s notation, taking `pieces` by name.

        Faces follow from what remains: a card is up if it was dealt up or if nothing
        lies on it. Raises ValueError if a name is unknown or a card lies on an empty slot.
        """
        layout = self.layout
        words = text.split()
        order = [s for row in layout.rows for s in row]
        if len(words) != layout.size:
            raise ValueError(f"a position of this tableau names {layout.size} slots"
                             f" (a card or `.`), got {len(words)}")
        free: dict[str, list[Piece]] = {}
        for piece in reversed(pieces):
            free.setdefault(piece.name.lower(), []).append(piece)
        cards: list[Piece | None] = [None] * layout.size
        for slot, word in zip(order, words):
            if word != ".":
                stack = free.get(word.lower())
                if not stack:
                    raise ValueError(f"`{word}` is not a free piece, or is listed twice")
                cards[slot] = stack.pop()
        self._set(cards)
        return [c for c in cards if c is not None]

    def lay_out(self, cards: Sequence[Piece | None], dealt: Sequence[int] | None = None) -> None:
        """Set the board to `cards`, one per slot (None for an empty slot), the faces
        following from what remains as in `load_position`; `dealt` is the round's deal
        as uids slot by slot (`deal_uids`, which `key` reads; by default the cards
        themselves, -1 for an empty slot)."""
        self._set(list(cards))
        if dealt is not None:
            self.deal_uids = tuple(dealt)

    def _set(self, cards: list[Piece | None]) -> None:
        layout = self.layout
        for s, tops in enumerate(layout.covered_by):
            if cards[s] is None and any(cards[t] is not None for t in tops):
                raise ValueError(f"slot {s} is empty but a card lies on it")
        self.cards = cards
        self._by_open = {}
        self.cover = [sum(1 for t in tops if cards[t] is not None) for tops in layout.covered_by]
        self.up = [s not in layout.face_down or not self.cover[s] for s in range(layout.size)]
        self.mask = sum(1 << s for s, c in enumerate(cards) if c is not None)
        self._find_open()
        self.deal_uids = tuple(c.uid if c is not None else -1 for c in cards)
        self._count = sum(1 for c in cards if c is not None)


def uncover(cover: list[int], below: Sequence[int]) -> list[int]:
    """A card taken off the slots `below` (those it lay on): each has one card fewer
    lying on it (`cover`: the counts by slot, changed in place). The slots with none
    left, in `below`'s order: their cards are exposed now (face up: `TableauBoard.remove`)."""
    freed = []
    for slot in below:
        left = cover[slot] - 1
        cover[slot] = left
        if not left:
            freed.append(slot)
    return freed


def row_counts(rows: Sequence[Sequence[int]], cards: Sequence[Piece | None]) -> list[int]:
    """`board.row_counts`: how many of `cards` (by slot, None where taken) are left in
    each row of `rows`, from the back."""
    return [sum([1 for slot in row if cards[slot] is not None]) for row in rows]


_FRESH: dict[int, tuple] = {}
#: the most exposed masks a deal's boards remember (then they start again)
_MAX_KNOWN = 1 << 18


def fresh_deal(layout: Layout) -> tuple[list[int], list[bool], int, int]:
    """A full deal's covering counts, faces, slot mask and exposed mask: the same for
    every deal of a layout, so worked out once (kept by the layout's identity)."""
    found = _FRESH.get(id(layout))
    if found is None or found[0] is not layout:
        cover = [len(c) for c in layout.covered_by]
        # A face-down slot with nothing on it would be exposed face down: turn it up.
        up = [s not in layout.face_down or not cover[s] for s in range(layout.size)]
        exposed = sum(1 << s for s in range(layout.size) if not cover[s] and up[s])
        found = _FRESH[id(layout)] = (layout, cover, up, (1 << layout.size) - 1, exposed)
    return found[1:]


@register
class TableauTopology(Topology):
    """Board kind `tableau`: a layout of slots where cards cover cards."""

    kind = "tableau"
    actions = frozenset({"play"})
    board_fields = {"slots": "int", "face_down": "int", "exposed": "list[piece]",
                    "row_counts": "list[int]"}
    move_fields = {"play": {"slot": "slot"}}
    record_types = {"slot": {"index": "int", "row": "int", "tags": "list[str]"}}

    def __init__(self, spec: Mapping):
        super().__init__(spec)
        layout, diagnostics = read_layout(spec)
        if layout is None:
            raise RulecraftError(diagnostics)
        self.layout = layout

    @classmethod
    def check_spec(cls, spec: Mapping, where: Where) -> list[Diagnostic]:
        return read_layout(spec, where)[1]

    def new_board(self) -> TableauBoard:
        return TableauBoard(self.layout)

    def render_text(self, board: TableauBoard) -> str:
        """Rows as laid out, `##` face down, and the slot number under each exposed card."""
        return plain(self.render_runs(board))

    def render_runs(self, board: TableauBoard, last: object = None, symbols: bool = False,
                    width: int | None = None):
        """The drawing as styled runs: cards by colour (`red`, `black`, `piece`), face
        down ones `hidden`, slot numbers `axis`; `symbols` draws suits as symbols."""
        layout = self.layout
        left = min(layout.x, default=Fraction(0))
        lines = []
        for row in layout.rows:
            cards, numbers = {}, {}
            for s in row:
                col = int((layout.x[s] - left) * 4)
                card = board.cards[s]
                if card is None:
                    continue
                if board.up[s]:
                    cards[col] = (piece_label(card, symbols), piece_style(card))
                else:
                    cards[col] = ("#" * len(card.name), "hidden")
                if board.is_exposed(s):
                    numbers[col] = (str(s), "axis")
            lines.append(_line(cards))
            if numbers:
                lines.append(_line(numbers))
        return lines

    def why_not_exposed(self, board: TableauBoard, slot: int) -> str | None:
        """Why the card of `slot` cannot be taken now, in words; None if it can."""
        if not 0 <= slot < self.layout.size:
            return f"there is no slot {slot} (0 to {self.layout.size - 1})"
        if board.cards[slot] is None:
            return f"slot {slot} is empty"
        lying = [t for t in self.layout.covered_by[slot] if board.cards[t] is not None]
        if lying:
            return (f"{board.cards[slot].name if board.up[slot] else 'the card'} in slot "
                    f"{slot} is covered by slot{'s' if len(lying) > 1 else ''} "
                    + ", ".join(map(str, lying)))
        if not board.up[slot]:
            return f"the card in slot {slot} is face down"
        return None


def _line(items: Mapping[int, tuple]) -> list:
    """Runs placing each (text, style) right-aligned in two columns from its column."""
    runs, width = [], 0
    for col in sorted(items):
        text, style = items[col]
        if col > width:
            runs.append((" " * (col - width), None))
            width = col
        runs.append((text.rjust(2), style))
        width += len(text.rjust(2))
    return runs
