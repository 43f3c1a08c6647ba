"""Boards of the `square` kind: the index the play generator reads, laying plays, positions.

Cells are indices into a flat list padded with sentinels (see `square.py`). `v[i]` is
the value a cell holds (a joker's declared value), `EMPTY` or `EDGE`; `jk[i]` says
whether the piece there is a joker. Every run rule is a (lowest, highest) sum bound per
run length, so the values a new cell may take form one interval: the generator narrows
each cell to an interval and the whole line to a sum range before it tries the hand.
"""

from __future__ import annotations

from operator import is_
from typing import Iterator, Sequence

from engine.pieces import Piece
from engine.topology.base import Board
from engine.topology.square_moves import find_plays
from engine.topology.square_placement import (EDGE, EMPTY, Line, Placed, SquarePlacement,
                                               lay_cell, lay_many, lay_two)
from engine.topology.square_text import read_cells, read_play, run_problem, why_illegal

# (`Square` and `PlaceRules` are annotated by name only: `square.py` sits above this module)
__all__ = ["EDGE", "EMPTY", "Line", "Placed", "SquareBoard", "SquarePlacement"]


class LayTables:
    """What laying a play reads of a square topology, worked out once per topology:
    `near[c]`, the bits of the cells beside cell `c`; `bases[c]`, the fields of a
    `placed` record on `c` that do not depend on the play (the cell's attributes, x,
    y), in the order `_measure` gives them; `empty`, the values of an empty board's
    cells (`SquareBoard.v`: -1 empty, -2 a sentinel)."""

    def __init__(self, topo):
        stride, cells = topo.stride, topo.cell_bits
        self.empty = [-1 if attrs is not None else -2 for attrs in topo.attrs]
        self.near = [0] * len(topo.attrs)
        self.bases: list[dict | None] = [None] * len(topo.attrs)
        for c, attrs in enumerate(topo.attrs):
            if attrs is None:
                continue
            beside = 1 << (c + 1) | 1 << (c + stride)
            beside |= (1 << (c - 1) if c >= 1 else 0) | (1 << (c - stride) if c >= stride else 0)
            self.near[c] = beside & cells
            self.bases[c] = {**attrs, "value": 0, "declared": 0, "joker": False,
                             "x": c % stride, "y": c // stride - 1, "max_line": 1,
                             "lines_through": None}
        self.shapes: list[dict] = [{} for _ in topo.attrs]

    def record(self, c: int, m: int, n: int, lead: bool, value: int, declared: int) -> Placed:
        """The `placed` record of a piece of `value` (declared `declared`) laid on cell `c`,
        whose runs across and along the play are `m` and `n` long (`lead`: see `shape`)."""
        shape = self.shapes[c].get((m, n, lead)) or self.shape(c, m, n, lead)
        fields = shape.copy()  # (the keys in order; a copy is the cheapest dict)
        fields["value"] = value
        fields["declared"] = declared
        record = Placed()
        record.__dict__ = fields
        return record

    def shape(self, c: int, m: int, n: int, lead: bool) -> dict:
        """The fields of a `placed` record on cell `c` whose runs across and along the
        play are `m` and `n` long (`lead`: the first cell of a column play, whose row is
        found first) but for its value and declared value, kept in `shapes[c]` (the list
        `lines_through` is shared by the records of that shape: records are never
        changed). `max_line`: a run that is no line has length 1, the default."""
        if m > 1:
            through = ([m, n] if lead else [n, m]) if n > 1 else [m]
        else:
            through = [n] if n > 1 else []
        found = self.shapes[c][(m, n, lead)] = {
            **self.bases[c], "max_line": max(m, n), "lines_through": through}
        return found


def lay_tables(topo) -> LayTables:
    """The `LayTables` of a square topology (kept on it)."""
    found = topo.__dict__.get("lay_tables")
    if found is None:
        found = topo.lay_tables = LayTables(topo)
    return found


class SquareBoard(Board):
    """A square board's pieces; `v`, `jk`, `piece` are flat lists over padded cells."""

    def __init__(self, topo: "Square"):
        self.topo = topo
        self.v = lay_tables(topo).empty[:]  # (a new board for every game: a copy, no loop)
        self.jk = [False] * len(self.v)
        self.jokers = 0  # how many cells hold a joker (none: measures skip looking)
        self.piece: dict[int, Piece] = {}
        self.rules = None
        self._reindex()

    def _reindex(self) -> None:
        """Rebuild the run index from the cells: for each empty cell and each direction,
        the (length, sum) of the run just before and just after it (laying a play leaves
        a filled cell's as they were: they are never read); and the anchors."""
        v = self.v
        self.back: tuple[list, list] = ([(0, 0)] * len(v), [(0, 0)] * len(v))
        self.ahead: tuple[list, list] = ([(0, 0)] * len(v), [(0, 0)] * len(v))
        # Bit sets for the generator's first cells: the anchors (empty cells next to a
        # piece; bit i: cell i), the filled cells and the cells of each `cross` interval
        # (`by_iv`), these two in the layout of `Square.both` (the board transposed above).
        self.anchor_bits = self.filled = 0
        # per direction: the bit set of values of a `cross` interval -> its cells (keyed
        # by the values, an int, rather than the interval, a tuple hashed at each lookup)
        self.by_iv: tuple[dict, dict] = ({}, {})
        self.cross: tuple[list, list] = ([None] * len(v), [None] * len(v))
        self.cross_for = None  # the rules `cross` was worked out for (None: not yet)
        self._rows = None  # their `cross` by length then sum (`_cross_rows`)
        self.tables = lay_tables(self.topo)
        self._plays = None  # (the hand as a tuple, rules, first, the plays): until the board changes
        self.starts: dict = {}  # the generator's first cells, until the board changes
        cells = list(self.piece)
        self._index_runs(cells, self._runs_through(cells))
        self._bind()

    def _bind(self) -> None:
        """`by_dir[k]`: what `square_placement.lay_cell` reads along direction `k`, in one tuple (one
        load rather than eight); made again whenever one of these objects is replaced."""
        v, both, rows, back, ahead, cross, by_iv = (
            self.v, self.topo.both, self._rows, self.back, self.ahead, self.cross, self.by_iv)
        self.by_dir = ((v, both, rows, back[0], ahead[0], cross[0], by_iv[0], 1),
                       (v, both, rows, back[1], ahead[1], cross[1], by_iv[1], self.topo.stride))

    def crosses(self, rules: "PlaceRules") -> tuple[list, list]:
        """For each empty cell and direction, (low, high, touches, bits): the values a new
        piece there may take given the run it joins that way, also as a bit set; None if
        none may. `touches`: that run has other pieces."""
        if self.cross_for is not rules:
            self.cross_for, self._rows = rules, _cross_rows(rules)
            self._bind()
            empty = not self.piece and rules.empty_index
            if empty and empty[0] is self.topo:
                # every game starts on an empty board: its index is worked out once
                _, cross, by_iv = empty
                for k in (0, 1):
                    self.cross[k][:] = cross[k]
                    self.by_iv[k].clear()
                    self.by_iv[k].update(by_iv[k])
                self._keep_blank(rules)
                return self.cross
            for k in (0, 1):
                self.cross[k][:] = [self._cross_at(c, k) if x == EMPTY else None
                                    for c, x in enumerate(self.v)]
                self.by_iv[k].clear()
                both = self.topo.both
                for c, iv in enumerate(self.cross[k]):
                    if iv is not None:
                        self.by_iv[k][iv[3]] = self.by_iv[k].get(iv[3], 0) | both[c]
            if not self.piece:
                rules.empty_index = (self.topo, (self.cross[0][:], self.cross[1][:]),
                                     (dict(self.by_iv[0]), dict(self.by_iv[1])))
                self._keep_blank(rules)
        return self.cross

    def _keep_blank(self, rules: "PlaceRules") -> None:
        """Keep a copy of this empty board, its `cross` intervals worked out for `rules`,
        on the topology: `Square.new_board` copies it for every game rather than build a
        board (the copies share nothing that a board changes)."""
        blank = self.topo.empty_board
        if blank is None or blank.cross_for is not rules:
            blank = self.topo.empty_board = self.clone()
            blank.rules, blank.starts = None, {}

    def fresh(self) -> "SquareBoard":
        """A new board like this blank one (`_keep_blank`): a copy with its own generator cache."""
        board = self.clone()
        board.starts = {}
        return board

    def fit_bits(self, mask: int) -> tuple[int, int]:
        """Per direction, the empty cells whose `cross` interval takes a value of the bit
        set `mask` (the board keeps its cells by interval, and there are few intervals),
        in the layout of `Square.both`."""
        across = down = 0
        for bits, cells in self.by_iv[0].items():
            if bits & mask:
                across |= cells
        for bits, cells in self.by_iv[1].items():
            if bits & mask:
                down |= cells
        return across, down

    def _cross_at(self, c: int, k: int):
        n1, s1 = self.back[k][c]
        n2, s2 = self.ahead[k][c]
        return self.cross_for.cross(n1 + n2, s1 + s2)

    @property
    def count(self) -> int:
        return len(self.piece)

    @property
    def width(self) -> int:
        return self.topo.width

    @property
    def height(self) -> int:
        return self.topo.height

    def capacity(self) -> int:
        """How many cells the board has (a square board is never dealt onto)."""
        return self.topo.width * self.topo.height

    def pieces_on_board(self) -> list[Piece]:
        return [self.piece[c] for c in sorted(self.piece)]

    def clone(self) -> "SquareBoard":
        other = SquareBoard.__new__(SquareBoard)
        other.topo, other.v, other.jk = self.topo, self.v[:], self.jk[:]
        other.jokers = self.jokers
        other.piece, other.rules, other.cross_for = dict(self.piece), self.rules, self.cross_for
        other._rows, other.tables = self._rows, self.tables
        other.cross = (self.cross[0][:], self.cross[1][:])
        other._plays = None  # plays refer to the board they were made on
        other.starts = self.starts  # replaced, never changed, when a board changes
        other.back = (self.back[0][:], self.back[1][:])
        other.ahead = (self.ahead[0][:], self.ahead[1][:])
        other.anchor_bits, other.filled = self.anchor_bits, self.filled
        other.by_iv = (dict(self.by_iv[0]), dict(self.by_iv[1]))
        other._bind()
        return other

    def key(self) -> tuple:
        """A hashable picture of the board, for solvers."""
        return tuple(self.v), tuple(i for i, j in enumerate(self.jk) if j)

    def run_through(self, c: int, d: int, new=()) -> list[int]:
        """The cells of the maximal run through `c` along step `d` (`new` counts as filled)."""
        v = self.v
        a = c
        while v[a - d] >= 0 or (a - d) in new:
            a -= d
        b = c
        while v[b + d] >= 0 or (b + d) in new:
            b += d
        return list(range(a, b + d, d))

    # ------------------------------------------------------------- generation
    def iter_placements(self, hand: Sequence[Piece], first: bool, rules: "PlaceRules"
                        ) -> Iterator[SquarePlacement]:
        """Every legal play, each once, by number of pieces, arrangement, then cells."""
        self.rules = rules  # kept for check_invariants
        # the same hand may be asked again before the board changes (can_place...): it is
        # known by its pieces' identities (comparing pieces calls their `__eq__`). In a
        # game the board or the hand has changed at almost every call: the check is cheap
        # when it fails, and nothing is built for it but the hand's tuple, kept with them.
        known = self._plays
        if known is None or known[1] is not rules or known[2] != first \
                or len(known[0]) != len(hand) or not all(map(is_, known[0], hand)):
            known = self._plays = (tuple(hand), rules, first,
                                   find_plays(self, hand, first, rules))
        return iter(known[3])

    # ------------------------------------------------------------- typed plays
    def parse_placement(self, text: str, hand: Sequence[Piece], first: bool,
                        rules: "PlaceRules") -> SquarePlacement:
        """A typed play such as `H8=4 H9=11` (a joker: `H8=J7`); ValueError says why not."""
        self.rules = rules
        placement = read_play(self, text, hand, rules)
        reason = why_illegal(self, placement, first, rules)
        if reason:
            raise ValueError(reason)
        return placement

    def apply_placement(self, placement: SquarePlacement) -> None:
        """Lay the play's pieces and bring the run index up to date; its measures, if not
        read yet, are worked out from the runs its cells now lie in (as they read on the
        board before, counting the play's cells as filled)."""
        cells = placement.cells
        if len(cells) > 1 or self.cross_for is None:
            if len(cells) == 2 and self.cross_for is not None:
                lay_two(self, placement)
            else:
                lay_many(self, placement)
            return
        # one piece (half the plays of a game): no loop, no big integer made but the two sets
        c, flags = cells[0], placement.flags
        self.v[c], self.piece[c] = placement.values[0], placement.pieces[0]
        if flags:
            self.jk[c] = flags[0]
            self.jokers += sum(flags)
        filled = self.filled = self.filled | self.topo.both[c]
        # the anchors gain the empty cells next to the new piece, and lose it (`x &
        # ~filled` without the negative integer, which costs more than two operations)
        anchors = self.anchor_bits | self.tables.near[c]
        self.anchor_bits = anchors ^ (anchors & filled)
        self._plays, self.starts = None, {}
        row = lay_cell(self, 0, c)
        column = lay_cell(self, 1, c)
        if placement._placed is None:  # the kernel scores the move after applying it
            if flags is None and not self.jokers:
                placement._measure_one(self, row, column)
            else:
                placement._measure_laid(self, 0, row, [column])

    def _lay_anyhow(self, placement: SquarePlacement) -> None:
        """`apply_placement` once the pieces are down, for a play not in one run, or on a
        board whose `cross` intervals were never asked for: the measures from a walk of
        the board, the index rebuilt from the cells. A game never comes here (its plays
        are legal, and it lists them before laying one); tests and tools may."""
        if placement._placed is None:
            placement._measure(self)  # (the play's cells count as filled: they are)
        rules = self.cross_for
        self._reindex()
        if rules is not None:
            self.crosses(rules)

    def _runs_through(self, cells) -> list[tuple]:
        """(direction, step, first cell, last cell, length, sum) of every maximal run
        through the cells, each once."""
        v, stride = self.v, self.topo.stride
        seen, out = set(), []
        for c in cells:
            for k, d in ((0, 1), (1, stride)):
                a = c
                while v[a - d] >= 0:
                    a -= d
                if (d, a) in seen:
                    continue
                seen.add((d, a))
                b, total = a, v[a]
                while v[b + d] >= 0:
                    b += d
                    total += v[b]
                out.append((k, d, a, b, (b - a) // d + 1, total))
        return out

    def _index_runs(self, cells, runs) -> None:
        """Build the run index (no `cross` intervals yet) after `cells` were filled, from
        the runs through them (`_runs_through`): the bit sets, the anchors, and for each
        empty cell at the end of a run its runs before and after."""
        both = self.topo.both
        near_of = self.tables.near
        played = near = 0
        for c in cells:
            played |= both[c]
            near |= near_of[c]
        filled = self.filled = self.filled | played
        self.anchor_bits = (self.anchor_bits | near) & ~filled
        v = self.v
        for k, d, a, b, n, total in runs:
            if v[a - d] == EMPTY:
                self.ahead[k][a - d] = (n, total)
            if v[b + d] == EMPTY:
                self.back[k][b + d] = (n, total)

    def check_invariants(self, rules: "PlaceRules | None" = None) -> list[str]:
        """Every run that breaks a line rule, and any drift of the incremental index from
        the cells, as text (empty: all is well)."""
        out = self._index_drift()
        rules = rules or self.rules
        if rules is None:
            return out
        stride = self.topo.stride
        for d in (1, stride):
            for c in sorted(self.piece):
                if self.v[c - d] < 0:
                    run = self.run_through(c, d)
                    reason = len(run) > 1 and run_problem(self, d, run, None, rules)
                    if reason:
                        out.append(reason)
        return out

    def _index_drift(self) -> list[str]:
        fresh = SquareBoard.__new__(SquareBoard)
        fresh.topo, fresh.v, fresh.piece = self.topo, self.v, self.piece
        fresh.jk, fresh.jokers = self.jk, self.jokers
        fresh._reindex()
        out = [] if fresh.anchor_bits == self.anchor_bits else ["the anchor cells drifted"]
        if fresh.filled != self.filled:
            out.append("the bit sets of the index drifted from the cells")
        if self.cross_for is not None and fresh.crosses(self.cross_for) is not None \
                and fresh.by_iv != self.by_iv:
            out.append("the cells of each cross interval drifted")
        empty = [c for c, x in enumerate(self.v) if x == EMPTY]  # (a filled cell's are not read)
        if any(fresh.back[k][c] != self.back[k][c] or fresh.ahead[k][c] != self.ahead[k][c]
               for k in (0, 1) for c in empty):
            out.append("the run index drifted from the cells")
        if self.cross_for is not None and fresh.crosses(self.cross_for) != self.cross:
            out.append("the cross intervals drifted from the cells")
        return out

    def dump_position(self) -> str:
        """The pieces on the board as play text, cell by cell (`H8=4 H9=J11`)."""
        return " ".join(f"{self.topo.label(c)}={'J' if self.jk[c] else ''}{self.v[c]}"
                        for c in sorted(self.piece))

    def load_position(self, text: str, supply: list[Piece]) -> list[Piece]:
        """Lay out a dumped position, taking its pieces out of `supply`; returns them."""
        taken = []
        for c, val, joker in read_cells(self, str(text or "")):
            found = next((p for p in supply if bool(p.attrs.get("joker")) == joker
                          and (joker or p.value == val)), None)
            if found is None:
                raise ValueError(f"{self.topo.label(c)}: no {'joker' if joker else val} left to lay")
            supply.remove(found)
            taken.append(found)
            self._put(c, val, joker, found)
        self._reindex()
        return taken

    def lay_out(self, cells) -> None:
        """Put a piece on each of `cells`, (cell, value, joker, piece) each, and build
        the index again (a position known cell by cell, as a program keeps it)."""
        for c, val, joker, piece in cells:
            self._put(c, val, joker, piece)
        self._reindex()

    def _put(self, c: int, val: int, joker: bool, piece: Piece) -> None:
        self.v[c], self.jk[c], self.piece[c] = val, joker, piece
        self.jokers += joker


def _cross_rows(rules) -> list[dict]:
    """`rules.cross(n, total)` as `rows[n][total]`, as far as it was asked: two lookups
    by small integers cost half of one by a tuple, made and hashed each time (kept on
    the rules, for every board they are used on)."""
    rows = rules.__dict__.get("cross_rows")
    if rows is None:
        rows = rules.cross_rows = []
    return rows
