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

    def __init__(self, length, total, face_sum, new, jokers):
        self.length, self.sum, self.face_sum, self.new, self.jokers = (
            length, total, face_sum, new, jokers)

    def __repr__(self) -> str:
        return f"Line(length={self.length}, sum={self.sum}, new={self.new})"


class Placed:
    """A piece placed by the play (a `placed` record): its value, cell and cell attributes."""

    def __init__(self, attrs: dict, **fields):
        self.__dict__.update(attrs)
        self.__dict__.update(fields)

    def __repr__(self) -> str:
        return f"Placed(x={self.x}, y={self.y}, value={self.value})"


new_placed = object.__new__


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
            lines.append(Line(len(run), sum(vals), face, sum(c in declared for c in run), sum(jks)))
        placed = []
        for c, v, p in zip(self.cells, self.values, self.pieces):
            x, y = topo.xy(c)
            placed.append(Placed(topo.attrs[c], value=p.value, declared=v, joker=joker[c],
                                 x=x, y=y, max_line=max(through[c], default=1),
                                 lines_through=through[c]))
        self._lines, self._placed = lines, placed

    def _measure_runs(self, board: "SquareBoard", runs) -> None:
        """`_measure` on the board after the play was laid, from the runs through its
        cells (`SquareBoard._runs_through`): the same records. A legal play lies in one
        line: the run along it holds all its cells, any other run the one it was found
        from."""
        topo, cells = board.topo, self.cells
        stride = topo.stride
        through = {c: [] for c in cells}
        # the play's step, or 0 for a single piece (whose runs hold just it)
        along = 0 if len(cells) < 2 else 1 if cells[1] - cells[0] < stride else stride
        lines = []
        for _, d, a, b, n, total, c in runs:
            if n < 2:
                continue
            inside = cells if d == along else (c,)
            for c in inside:
                through[c].append(n)
            if board.jokers:
                lines.append(_line_with_jokers(board, d, a, b, n, total, len(inside)))
            else:
                lines.append(Line(n, total, total, len(inside), 0))
        placed = []
        flags = self.flags or (False,) * len(cells)
        for c, val, p, flag in zip(cells, self.values, self.pieces, flags):
            lines_through = through[c]
            record = new_placed(Placed)  # the fields as `Placed(...)` sets them, at once
            record.__dict__ = {**topo.attrs[c], "value": p.attrs["value"], "declared": val,
                               "joker": flag, "x": c % stride, "y": c // stride - 1,
                               "max_line": max(lines_through) if lines_through else 1,
                               "lines_through": lines_through}
            placed.append(record)
        self._lines, self._placed = lines, placed


def _line_with_jokers(board: "SquareBoard", d, a, b, n, total, new) -> Line:
    """The `line` record of the run a..b along `d`, on a board that holds jokers."""
    v, jk = board.v, board.jk
    jokers = joker_sum = 0
    for c in range(a, b + d, d):
        if jk[c]:
            jokers += 1
            joker_sum += v[c]
    return Line(n, total, total - joker_sum, new, jokers)
