"""The plays of the `square` kind: a `SquarePlacement` and the records it measures.

A play keeps the board it was made for and works out its `lines` and `placed` records
on first use (see `square_board.py` for the board they read).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.topology.base import Placement

if TYPE_CHECKING:  # pragma: no cover
    from engine.topology.square_board import SquareBoard


class Line:
    """A maximal run of two or more pieces through a new piece (a `line` record)."""

    __slots__ = ("length", "sum", "face_sum", "new", "jokers")
    # No `__init__`: laying a play makes its records with `Line()` and sets the fields,
    # which costs half a call of an `__init__` (`Line.of` is the readable way).

    @staticmethod
    def of(length: int, total: int, face_sum: int, new: int, jokers: int) -> "Line":
        made = Line()
        made.length, made.sum, made.face_sum, made.new, made.jokers = (
            length, total, face_sum, new, jokers)
        return made

    def __repr__(self) -> str:
        return f"Line(length={self.length}, sum={self.sum}, new={self.new})"


class Placed:
    """A piece placed by the play (a `placed` record): its value, cell and cell attributes."""

    # No `__init__`, as for `Line`: its fields are its dict, set at once.

    @staticmethod
    def of(attrs: dict, **fields) -> "Placed":
        made = Placed()
        made.__dict__ = {**attrs, **fields}
        return made

    def __repr__(self) -> str:
        return f"Placed(x={self.x}, y={self.y}, value={self.value})"


class SquarePlacement(Placement):
    """One play: cells in line order, declared values, hand pieces, joker flags.

    Measures are computed on first use from the board the play was made for, counting
    the play's own cells as filled, so they read the same before and after it is applied.
    Two plays are equal when their texts are.
    """

    __slots__ = ("board", "cells", "values", "pieces")
    # Worked out when first read, into the instance's dict: most plays of a generation
    # are never measured nor written, and a play is made for every candidate. Joker
    # flags, rare, also go there.
    flags = _lines = _placed = _text = None

    def __init__(self, board, cells, values, pieces, flags=None):
        self.board = board
        self.cells = cells
        self.values = values
        self.pieces = pieces
        if flags is not None:
            self.flags = flags

    @property
    def count(self) -> int:
        return len(self.cells)

    @property
    def value(self) -> int:
        """The sum of the placed pieces' face values (a joker's face is 0)."""
        return sum(p.value for p in self.pieces)

    @property
    def jokers(self) -> int:
        return sum(self.flags) if self.flags else 0

    @property
    def lines(self) -> list[Line]:
        if self._lines is None:
            self._measure()
        return self._lines

    @property
    def placed(self) -> list[Placed]:
        if self._placed is None:
            self._measure()
        return self._placed

    @property
    def text(self) -> str:
        if self._text is None:
            labels, flags = self.board.topo.labels, self.flags
            if flags is None:
                self._text = " ".join([f"{labels[c]}={v}"
                                       for c, v in zip(self.cells, self.values)])
            else:
                self._text = " ".join([f"{labels[c]}={'J' if j else ''}{v}"
                                       for c, v, j in zip(self.cells, self.values, flags)])
        return self._text

    def __eq__(self, other) -> bool:
        return isinstance(other, SquarePlacement) and self.text == other.text

    def __hash__(self) -> int:
        return hash(self.text)

    def __repr__(self) -> str:
        return f"SquarePlacement({self.text!r})"

    def runs(self, board: "SquareBoard | None" = None) -> list[tuple[int, list[int]]]:
        """(step, cells) of every maximal run through a new cell, each once, lengths >= 1."""
        board = board or self.board
        stride = board.topo.stride
        new = set(self.cells)
        seen, out = set(), []
        for c in self.cells:
            for d in (1, stride):
                run = board.run_through(c, d, new)
                key = (d, run[0])
                if key not in seen:
                    seen.add(key)
                    out.append((d, run))
        return out

    def _measure(self, board: "SquareBoard | None" = None) -> None:
        """Work out `lines` and `placed` on `board` (by default the one it was made for),
        as it is before the play."""
        board = board or self.board
        topo = board.topo
        declared = dict(zip(self.cells, self.values))
        joker = dict(zip(self.cells, self.flags or (False,) * len(self.cells)))
        lines, through = [], {c: [] for c in self.cells}
        for _, run in self.runs(board):
            if len(run) < 2:
                continue
            for c in run:
                if c in through:
                    through[c].append(len(run))
            vals = [declared[c] if c in declared else board.v[c] for c in run]
            jks = [joker[c] if c in joker else board.jk[c] for c in run]
            face = sum(v for v, j in zip(vals, jks) if not j)
            lines.append(Line.of(len(run), sum(vals), face, sum(c in declared for c in run), sum(jks)))
        placed = []
        for c, v, p in zip(self.cells, self.values, self.pieces):
            x, y = topo.xy(c)
            placed.append(Placed.of(topo.attrs[c], value=p.value, declared=v, joker=joker[c],
                                 x=x, y=y, max_line=max(through[c], default=1),
                                 lines_through=through[c]))
        self._lines, self._placed = lines, placed

    def _measure_runs(self, board: "SquareBoard", runs) -> None:
        """`_measure` on the board after the play was laid, from the runs through its
        cells (`SquareBoard._runs_through`): the same records."""
        cells = self.cells
        through = [[] for _ in cells]
        lines = []
        for _, d, a, b, n, total, i in runs:
            if n < 2:
                continue
            if i < 0:  # the run along the play holds all its cells
                for lengths in through:
                    lengths.append(n)
                new = len(cells)
            else:
                through[i].append(n)
                new = 1
            if board.jokers:
                lines.append(_line_with_jokers(board, d, a, b, n, total, new))
            else:
                made = Line()  # (field by field: no tuple built)
                made.length = n
                made.sum = made.face_sum = total
                made.new = new
                made.jokers = 0
                lines.append(made)
        bases = board.tables.bases
        flags = self.flags
        placed = []
        for i, (c, val, p) in enumerate(zip(cells, self.values, self.pieces)):
            lengths = through[i]
            record = Placed()
            record.__dict__ = fields = bases[c].copy()  # (keys in the same order)
            fields["value"] = p.attrs["value"]
            fields["declared"] = val
            if flags is not None:
                fields["joker"] = flags[i]
            if lengths:
                fields["max_line"] = max(lengths)
            fields["lines_through"] = lengths
            placed.append(record)
        self._lines, self._placed = lines, placed


class LayTables:
    """What laying a play reads of a square topology, worked out once per topology:
    `near[c]`, the bits of the cells beside cell `c`; `bases[c]`, the fields of a
    `placed` record on `c` that do not depend on the play (the cell's attributes, x,
    y), in the order `_measure` gives them."""

    def __init__(self, topo):
        stride, cells = topo.stride, topo.cell_bits
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


def lay_tables(topo) -> LayTables:
    """The `LayTables` of a square topology (kept on it)."""
    found = topo.__dict__.get("lay_tables")
    if found is None:
        found = topo.lay_tables = LayTables(topo)
    return found


def _line_with_jokers(board: "SquareBoard", d, a, b, n, total, new) -> Line:
    """The `line` record of the run a..b along `d`, on a board that holds jokers."""
    v, jk = board.v, board.jk
    jokers = joker_sum = 0
    for c in range(a, b + d, d):
        if jk[c]:
            jokers += 1
            joker_sum += v[c]
    return Line.of(n, total, total - joker_sum, new, jokers)
