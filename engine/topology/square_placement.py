"""The plays of the `square` kind: a `SquarePlacement` and the records it measures.

A play keeps the board it was made for and works out its `lines` and `placed` records
on first use (see `square_board.py` for the board they read).
"""

from __future__ import annotations

from engine.topology.base import Placement

# (boards are annotated by name only: `square_board.py` sits above this module)

EMPTY, EDGE = -1, -2  # `SquareBoard.v` of an empty cell, of a sentinel (square_board.py)


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


class _Measured:
    """A measure of a play (`lines`, `placed`) worked out on first read by
    `SquarePlacement._measure`, which stores it in the play's dict: as this has no
    `__set__`, later reads find it there like any attribute, without a call. (A property
    runs Python code at every read, and the kernel reads each of them twice a move.)"""

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def __get__(self, play, owner=None):
        if play is None:
            return self
        play._measure()
        return play.__dict__[self.name]


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
    flags = _placed = _text = None  # (`_placed`: the records, once measured)

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

    lines = _Measured("lines")  # list[Line]
    placed = _Measured("placed")  # list[Placed]

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
        self.lines, self.placed, self._placed = lines, placed, placed

    def _measure_laid(self, board: "SquareBoard", k: int, along: tuple, across: list) -> None:
        """`_measure` once the play is laid in one run along direction `k` (a play of one
        piece: `k` 0), from the (length, sum) of that run (`along`) and of each cell's
        run across (`across`, in cell order), as `square_lay.lay_cell` gives them: the
        same records in the same order (the row through a cell before its column).

        Written for the kernel's scoring, which reads the measures of every play it
        applies: the records are made field by field, with no tuple or list in between;
        a play of one or two pieces without jokers (nearly all) has its own way, with no
        loop (`_measure_one`, `_measure_two`)."""
        cells, n = self.cells, along[0]
        if self.flags is None and not board.jokers and len(cells) <= 2:
            if len(cells) == 1:
                self._measure_one(board, along, across[0])
            else:
                self._measure_two(board, k, along, across)
            return
        if board.jokers:
            lines = _lines_with_jokers(board, cells, k, along, across)
        else:
            lines = _plain_lines(len(cells), k, along, across)
        record, placed = board.tables.record, []
        lead = k == 1  # a column play's first cell: its row (across) is found first
        for c, val, p, (m, _) in zip(cells, self.values, self.pieces, across):
            placed.append(record(c, m, n, lead, p.value, val))
            lead = False
        if self.flags is not None:
            for record, flag in zip(placed, self.flags):
                record.joker = flag
        self.lines, self.placed, self._placed = lines, placed, placed

    def _measure_one(self, board: "SquareBoard", row: tuple, column: tuple) -> None:
        """`_measure_laid` for a play of one piece, no joker, on a board without jokers
        (half the plays of a game): its row (`along`) and column, its one record."""
        known, n, m = _PLAIN_LINES, row[0], column[0]
        if n > 1:
            line = known.get(row) or _plain_line(row, 1)
            lines = [line, known.get(column) or _plain_line(column, 1)] if m > 1 else [line]
        else:
            lines = [known.get(column) or _plain_line(column, 1)] if m > 1 else []
        record = board.tables.record(self.cells[0], m, n, False, self.pieces[0].value,
                                     self.values[0])
        self.lines = lines
        self.placed = self._placed = [record]

    def _measure_two(self, board: "SquareBoard", k: int, along: tuple, across: list) -> None:
        """`_measure_laid` for a play of two pieces, no joker, on a board without jokers
        (nearly all the other plays): the run along them, each one's run across."""
        known, (first, second), n = _PLAIN_LINES, across, along[0]
        line = known.get((along, 2)) or _plain_line(along, 2)
        if first[0] > 1:
            made = known.get(first) or _plain_line(first, 1)
            lines = [made, line] if k else [line, made]  # (the first cell's row first)
        else:
            lines = [line]
        if second[0] > 1:
            lines.append(known.get(second) or _plain_line(second, 1))
        record, (c, c2), (p, p2), (val, val2) = board.tables.record, self.cells, self.pieces, \
            self.values
        self.lines = lines
        self.placed = self._placed = [record(c, first[0], n, k == 1, p.value, val),
                                      record(c2, second[0], n, False, p2.value, val2)]


_PLAIN_LINES: dict = {}  # (length, sum) with new 1, or ((length, sum), new) -> the `Line`


def _plain_lines(new: int, k: int, along: tuple, across: list) -> list[Line]:
    """The `lines` of `SquarePlacement._measure_laid` on a board without jokers, for a
    play of `new` pieces: without jokers a line is its (length, sum, new), one record
    each, shared by the plays that make it (a game meets few; records are never changed)."""
    lines, known = [], _PLAIN_LINES
    for run in across:
        if run[0] > 1:
            made = known.get(run)  # (a run across holds one new piece)
            lines.append(made if made is not None else _plain_line(run, 1))
    if along[0] > 1:
        made = known.get(along if new == 1 else (along, new))
        lines.insert(1 if k and across[0][0] > 1 else 0,
                     made if made is not None else _plain_line(along, new))
    return lines


def _plain_line(run: tuple, new: int) -> Line:
    """The `line` record of a run (length, sum) with `new` new pieces and no joker, kept
    in `_PLAIN_LINES`."""
    if len(_PLAIN_LINES) > 20000:  # bounded: a long run of odd rules meets many
        _PLAIN_LINES.clear()
    made = _PLAIN_LINES[run if new == 1 else (run, new)] = Line.of(run[0], run[1], run[1], new, 0)
    return made


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


def _lines_with_jokers(board: "SquareBoard", cells, k: int, along: tuple,
                       across: list) -> list[Line]:
    """The `lines` of `SquarePlacement._measure_laid` on a board that holds jokers."""
    stride = board.topo.stride
    lines = [_line_with_jokers(board, 1 if k else stride, c, m, total, 1)
             for c, (m, total) in zip(cells, across) if m > 1]
    if along[0] > 1:
        lines.insert(1 if k and across[0][0] > 1 else 0,
                     _line_with_jokers(board, stride if k else 1, cells[0], along[0],
                                       along[1], len(cells)))
    return lines


def _line_with_jokers(board: "SquareBoard", d: int, c: int, n: int, total: int,
                      new: int) -> Line:
    """The `line` record of the run of `n` pieces through cell `c` along step `d`, on a
    board that holds jokers."""
    v, jk = board.v, board.jk
    while v[c - d] >= 0:
        c -= d
    jokers = joker_sum = 0
    for c in range(c, c + n * d, d):
        if jk[c]:
            jokers += 1
            joker_sum += v[c]
    return Line.of(n, total, total - joker_sum, new, jokers)
