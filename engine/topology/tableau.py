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

from dataclasses import dataclass
from fractions import Fraction
from typing import Iterator, Mapping, Sequence

from engine.diagnostics import Diagnostic, Position, RulecraftError, Severity, define
from engine.pieces import Piece
from engine.topology.base import Board, Topology, Where, register

define("R470", "tableau-no-slots", "a tableau board has neither `rows` nor `slots`")
define("R471", "tableau-bad-row", "a tableau row is not a list of numbers")
define("R472", "tableau-slot-out-of-range", "a slot index that the layout does not have")
define("R473", "tableau-covering-cycle", "slots that cover one another in a cycle")
define("R474", "tableau-row-out-of-range", "`face_down_rows` names a row the layout lacks")
define("R475", "tableau-bad-face-down", "`face_down` is not `all`, `none` or a slot list")
define("R476", "tableau-overlapping-slots", "two slots of one row closer than a card width",
       Severity.WARNING)


@dataclass(frozen=True)
class Slot:
    """A place in the layout; `move.slot` in expressions (`index`, `row`, `tags`)."""

    index: int
    row: int
    tags: tuple[str, ...]


@dataclass(frozen=True)
class Layout:
    """The static part of a tableau, shared by every board of a ruleset."""

    slots: tuple[Slot, ...]
    x: tuple[Fraction, ...]
    covered_by: tuple[tuple[int, ...], ...]  # slot -> the slots lying on it
    covers: tuple[tuple[int, ...], ...]  # slot -> the slots it lies on
    face_down: frozenset[int]
    rows: tuple[tuple[int, ...], ...]  # slot indices per drawn row, back to front

    @property
    def size(self) -> int:
        return len(self.slots)


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _is_index(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class _Checker:
    """Reads a `board` mapping into a `Layout`, collecting every problem on the way."""

    def __init__(self, spec: Mapping, where: Where | None):
        self.spec = spec
        self.where = where
        self.diagnostics: list[Diagnostic] = []

    def at(self, *path) -> Position | None:
        """The position of a value, by its path inside the `board` mapping."""
        return self.where(*path) if self.where is not None else None

    def report(self, code: str, message: str, path: tuple, help: str | None = None) -> None:
        self.diagnostics.append(Diagnostic(code, message, self.at(*path), help))

    def layout(self) -> Layout | None:
        rows = self.read_rows()
        if rows is None:
            return None
        size = sum(len(r) for r in rows) if rows else self.spec.get("slots")
        if rows and self.spec.get("slots") not in (None, size):
            self.report("R471", f"`slots` is {self.spec['slots']} but the rows hold {size}",
                        ("slots",))
        covered_by = self.read_covering(rows, size)
        face_down = self.read_face_down(rows, size)
        tags = self.read_tags(size)
        if covered_by is None or self.has_errors():
            return None
        return self.build(rows, size, covered_by, face_down, tags)

    def has_errors(self) -> bool:
        return any(d.is_error for d in self.diagnostics)

    def read_rows(self) -> list[list[Fraction]] | None:
        rows = self.spec.get("rows")
        if rows is None:
            slots = self.spec.get("slots")
            if not _is_index(slots) or slots < 1:
                self.report("R470", "a tableau board needs `rows` (x positions) or `slots: N`"
                            " with `covers`", ("slots",) if slots is not None else ())
                return None
            return []
        if not isinstance(rows, list) or not rows:
            self.report("R470", "`rows` must be a non-empty list of rows", ("rows",))
            return None
        out = []
        for r, row in enumerate(rows):
            if not isinstance(row, list) or not row or not all(_is_number(x) for x in row):
                self.report("R471", f"row {r} must be a non-empty list of x positions"
                            " (numbers, in card widths)", ("rows", r))
                continue
            xs = [Fraction(str(x)) for x in row]
            self.check_overlap(r, xs)
            out.append(xs)
        return out if len(out) == len(rows) else None

    def check_overlap(self, r: int, xs: list[Fraction]) -> None:
        ordered = sorted(range(len(xs)), key=xs.__getitem__)
        for a, b in zip(ordered, ordered[1:]):
            if xs[b] - xs[a] < 1:
                self.report("R476", f"positions {a} and {b} of row {r} are less than a card"
                            " width apart, so their cards would lie on each other", ("rows", r, b))

    def read_covering(self, rows, size: int) -> list[list[int]] | None:
        covers = self.spec.get("covers")
        if covers is None:
            if not rows:
                self.report("R470", "a layout given by `slots` needs `covers`", ("slots",))
                return None
            return _derive_covering(rows)
        if not isinstance(covers, Mapping):
            self.report("R472", "`covers` must map a slot to the slots lying on it", ("covers",))
            return None
        covered_by: list[list[int]] = [[] for _ in range(size)]
        for key, tops in covers.items():
            below = int(key) if isinstance(key, str) and key.isdigit() else key
            ok = self.check_index(below, size, ("covers", key))
            if not isinstance(tops, list):
                self.report("R472", f"`covers.{key}` must be a list of slots", ("covers", key))
                continue
            for i, top in enumerate(tops):
                if self.check_index(top, size, ("covers", key, i)) and ok:
                    covered_by[below].append(top)
        return self.check_cycles(covered_by)

    def check_index(self, slot: object, size: int, path: tuple) -> bool:
        if _is_index(slot) and 0 <= slot < size:
            return True
        self.report("R472", f"slot {slot!r} is out of range: the layout has slots"
                    f" 0 to {size - 1}", path)
        return False

    def check_cycles(self, covered_by: list[list[int]]) -> list[list[int]] | None:
        cycle = _find_cycle(covered_by)
        if cycle:
            chain = " under ".join(map(str, cycle + [cycle[0]]))
            self.report("R473", f"slots lie on one another in a cycle ({chain}), so none of"
                        " them could ever be taken", ("covers", cycle[0]))
            return None
        return covered_by

    def read_face_down(self, rows, size: int) -> frozenset[int]:
        by_rows = self.spec.get("face_down_rows")
        listed = self.spec.get("face_down")
        if by_rows is not None and listed is not None:
            self.report("R475", "give `face_down_rows` or `face_down`, not both", ("face_down",))
            return frozenset()
        if by_rows is not None:
            return self.rows_face_down(by_rows, rows)
        if listed is None or listed == "none":
            return frozenset()
        if listed == "all":
            return frozenset(range(size))
        if not isinstance(listed, list):
            self.report("R475", "`face_down` must be `all`, `none` or a list of slots",
                        ("face_down",))
            return frozenset()
        return frozenset(s for i, s in enumerate(listed)
                         if self.check_index(s, size, ("face_down", i)))

    def rows_face_down(self, by_rows: object, rows) -> frozenset[int]:
        if not isinstance(by_rows, list):
            self.report("R474", "`face_down_rows` must be a list of row numbers",
                        ("face_down_rows",))
            return frozenset()
        starts = [sum(len(r) for r in rows[:i]) for i in range(len(rows))]
        out: set[int] = set()
        for i, r in enumerate(by_rows):
            if not _is_index(r) or not 0 <= r < len(rows):
                self.report("R474", f"row {r!r} is out of range: the layout has rows 0 to"
                            f" {len(rows) - 1}", ("face_down_rows", i))
                continue
            out.update(range(starts[r], starts[r] + len(rows[r])))
        return frozenset(out)

    def read_tags(self, size: int) -> dict[int, list[str]]:
        tags = self.spec.get("tags") or {}
        out: dict[int, list[str]] = {}
        # The schema checks the shapes (S2xx); what is left is each slot's range.
        for name, slots in tags.items() if isinstance(tags, Mapping) else ():
            if not isinstance(slots, list):
                continue
            for i, slot in enumerate(slots):
                if self.check_index(slot, size, ("tags", name, i)):
                    out.setdefault(slot, []).append(str(name))
        return out

    def build(self, rows, size, covered_by, face_down, tags) -> Layout:
        covers: list[list[int]] = [[] for _ in range(size)]
        for below, tops in enumerate(covered_by):
            for top in tops:
                covers[top].append(below)
        row_of, drawn, xs = _rows_for_drawing(rows, covers, size)
        slots = tuple(Slot(i, row_of[i], tuple(tags.get(i, ()))) for i in range(size))
        return Layout(slots, tuple(xs), tuple(tuple(sorted(c)) for c in covered_by),
                      tuple(tuple(sorted(c)) for c in covers), frozenset(face_down), drawn)


def _derive_covering(rows: list[list[Fraction]]) -> list[list[int]]:
    """Each slot is covered by the slots of the next row less than a card width away."""
    starts = [sum(len(r) for r in rows[:i]) for i in range(len(rows) + 1)]
    covered_by: list[list[int]] = [[] for _ in range(starts[-1])]
    for r in range(len(rows) - 1):
        for i, x in enumerate(rows[r]):
            covered_by[starts[r] + i] = [
                starts[r + 1] + j for j, x2 in enumerate(rows[r + 1]) if abs(x2 - x) < 1
            ]
    return covered_by


def _find_cycle(covered_by: list[list[int]]) -> list[int]:
    """Slots of one covering cycle, or [] (iterative depth-first search)."""
    state = [0] * len(covered_by)  # 0 new, 1 on the path, 2 done
    for root in range(len(covered_by)):
        if state[root]:
            continue
        path, stack = [root], [iter(covered_by[root])]
        state[root] = 1
        while stack:
            nxt = next(stack[-1], None)
            if nxt is None:
                state[path.pop()] = 2
                stack.pop()
            elif state[nxt] == 1:
                return path[path.index(nxt):]
            elif state[nxt] == 0:
                state[nxt] = 1
                path.append(nxt)
                stack.append(iter(covered_by[nxt]))
    return []


def _rows_for_drawing(rows, covers, size):
    """(row of each slot, slots per drawn row, x of each slot).

    A layout given by rows is drawn as written; one given by `covers` alone is drawn in
    levels: a slot lies one level in front of the deepest slot it covers.
    """
    if rows:
        row_of, drawn, xs = [], [], []
        for r, row in enumerate(rows):
            drawn.append(tuple(range(len(row_of), len(row_of) + len(row))))
            row_of += [r] * len(row)
            xs += row
        return row_of, tuple(drawn), xs
    level = [-1] * size

    def depth(s: int) -> int:
        if level[s] < 0:
            level[s] = 1 + max((depth(b) for b in covers[s]), default=-1)
        return level[s]

    for s in range(size):
        depth(s)
    drawn = tuple(tuple(s for s in range(size) if level[s] == r) for r in range(max(level) + 1))
    xs = [Fraction(0)] * size
    for row in drawn:
        for i, s in enumerate(row):
            xs[s] = Fraction(i)
    return level, drawn, xs


def read_layout(spec: Mapping, where: Where | None = None) -> tuple[Layout | None, list[Diagnostic]]:
    """The layout a `board` mapping describes, and every problem found in it."""
    checker = _Checker(spec, where)
    return checker.layout(), checker.diagnostics


class TableauBoard(Board):
    """Cards in the slots of a layout. Clones share the layout; only lists are copied."""

    __slots__ = ("layout", "cards", "cover", "up", "mask", "open", "deal_uids", "_count")

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
    def exposed(self) -> int:
        """`board.exposed`: how many cards may be taken now."""
        return self.open.bit_count()

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
        return other

    def deal(self, pieces: Sequence[Piece]) -> None:
        """Lay one piece in each slot, in slot order; the layout decides which face up."""
        layout = self.layout
        if len(pieces) != layout.size:
            raise ValueError(f"a tableau of {layout.size} slots needs {layout.size} pieces,"
                             f" got {len(pieces)}")
        self.cards = list(pieces)
        self.cover = [len(c) for c in layout.covered_by]
        # A face-down slot with nothing on it would be exposed face down: turn it up.
        self.up = [s not in layout.face_down or not self.cover[s] for s in range(layout.size)]
        self.mask = (1 << layout.size) - 1
        self._find_open()
        self.deal_uids = tuple(p.uid for p in pieces)
        self._count = layout.size

    def _find_open(self) -> None:
        self.open = sum(1 << s for s, c in enumerate(self.cards)
                        if c is not None and not self.cover[s] and self.up[s])

    def iter_exposed(self) -> Iterator[tuple[int, Piece]]:
        cards, bits = self.cards, self.open
        while bits:
            low = bits & -bits
            slot = low.bit_length() - 1
            yield slot, cards[slot]
            bits ^= low

    def is_exposed(self, slot: int) -> bool:
        return (0 <= slot < len(self.cards) and self.cards[slot] is not None
                and not self.cover[slot] and self.up[slot])

    def remove(self, slot: int) -> Piece:
        """Take the exposed card in `slot`; every card it uncovers turns face up."""
        if not self.is_exposed(slot):
            raise ValueError(f"slot {slot} holds no exposed card")
        card = self.cards[slot]
        self.cards[slot] = None
        self.mask &= ~(1 << slot)
        self.open &= ~(1 << slot)
        self._count -= 1
        cover, up = self.cover, self.up
        for below in self.layout.covers[slot]:
            cover[below] -= 1
            if not cover[below]:
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

    def _set(self, cards: list[Piece | None]) -> None:
        layout = self.layout
        for s, tops in enumerate(layout.covered_by):
            if cards[s] is None and any(cards[t] is not None for t in tops):
                raise ValueError(f"slot {s} is empty but a card lies on it")
        self.cards = cards
        self.cover = [sum(1 for t in tops if cards[t] is not None) for tops in layout.covered_by]
        self.up = [s not in layout.face_down or not self.cover[s] for s in range(layout.size)]
        self.mask = sum(1 << s for s, c in enumerate(cards) if c is not None)
        self._find_open()
        self.deal_uids = tuple(c.uid if c is not None else -1 for c in cards)
        self._count = sum(1 for c in cards if c is not None)


@register
class TableauTopology(Topology):
    """Board kind `tableau`: a layout of slots where cards cover cards."""

    kind = "tableau"
    actions = frozenset({"play"})
    board_fields = {"slots": "int", "face_down": "int", "exposed": "int"}
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
                cards[col] = card.name if board.up[s] else "#" * len(card.name)
                if board.is_exposed(s):
                    numbers[col] = str(s)
            lines.append(_line(cards))
            if numbers:
                lines.append(_line(numbers))
        return "\n".join(line.rstrip() for line in lines)


def _line(items: Mapping[int, str]) -> str:
    out = ""
    for col in sorted(items):
        out = out.ljust(col) + items[col].rjust(2)
    return out
