"""The plays of the `square` kind: a `SquarePlacement`, the records it measures, and
laying it on a board (the steps of `SquareBoard.apply_placement`).

A play keeps the board it was made for and works out its `lines` and `placed` records
on first use (see `square_board.py` for the board they read). Laying runs for every
play of every game: a play of one or two pieces (nearly every play) has its own way with
no loop over cells, and each reads what it needs from the board in as few loads as it
can (`SquareBoard.by_dir`); the measures of a laid play come from the runs it walked.
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
        run across (`across`, in cell order), as `lay_cell` gives them: the
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
    _, jokers, joker_sum = run_jokers(board.v, board.jk.__getitem__, c, d)
    return Line.of(n, total, total - joker_sum, new, jokers)


def run_jokers(v, joker, c: int, d: int) -> tuple[int, int, int]:
    """(its length, how many jokers it holds, the sum of their declared values) of the
    run of pieces through cell `c` along step `d` (`v`: the cells' values, as
    `SquareBoard.v`; `joker(cell)`: whether the piece there is a joker). A line's face
    sum is its sum less the jokers' (`Line.face_sum`); a compiled program's board
    measures its lines with it too (`engine/program/square_jokers.py`)."""
    while v[c - d] >= 0:
        c -= d
    n = jokers = joker_sum = 0
    while v[c] >= 0:
        if joker(c):
            jokers += 1
            joker_sum += v[c]
        n += 1
        c += d
    return n, jokers, joker_sum


# ------------------------------------------------------------------ laying a play
def lay_two(board: "SquareBoard", placement: "SquarePlacement") -> None:
    """`SquareBoard.apply_placement` of a play of two pieces (nearly all the plays
    of more than one), on a board whose `cross` intervals are worked out."""
    (c, c2), v, stride = placement.cells, board.v, board.topo.stride
    if c2 - c == 1:
        k = 0
    elif c2 - c == stride:
        k = 1
    else:  # (a filled cell between them)
        lay_many(board, placement)
        return
    (v[c], v[c2]), flags = placement.values, placement.flags
    board.piece[c], board.piece[c2] = placement.pieces
    if flags:
        board.jk[c], board.jk[c2] = flags
        board.jokers += sum(flags)
    both, near = board.topo.both, board.tables.near
    filled = board.filled = board.filled | both[c] | both[c2]
    anchors = board.anchor_bits | near[c] | near[c2]  # (as in `SquareBoard.apply_placement`)
    board.anchor_bits = anchors ^ (anchors & filled)
    board._plays, board.starts = None, {}
    leave(board.cross[k], board.by_iv[k], both, c2)  # (the second, along the play)
    lay = lay_cell
    if k:
        along, across = lay(board, 1, c), [lay(board, 0, c), lay(board, 0, c2)]
    else:
        along, across = lay(board, 0, c), [lay(board, 1, c), lay(board, 1, c2)]
    if placement._placed is None:
        if flags is None and not board.jokers:
            placement._measure_two(board, k, along, across)
        else:
            placement._measure_laid(board, k, along, across)


def lay_many(board: "SquareBoard", placement: "SquarePlacement") -> None:
    """`SquareBoard.apply_placement` of any play: of three pieces or more, not in one
    run, or on a board whose `cross` intervals were never asked for."""
    cells, v, piece = placement.cells, board.v, board.piece
    both, near_of = board.topo.both, board.tables.near
    played = near = 0
    for c, val, p in zip(cells, placement.values, placement.pieces):
        v[c], piece[c] = val, p
        played |= both[c]
        near |= near_of[c]
    if placement.flags:  # (an empty cell's flag is already False)
        for c, flag in zip(cells, placement.flags):
            board.jk[c] = flag
        board.jokers += sum(placement.flags)
    filled = board.filled = board.filled | played
    anchors = board.anchor_bits | near  # (as in `SquareBoard.apply_placement`)
    board.anchor_bits = anchors ^ (anchors & filled)
    board._plays, board.starts = None, {}
    stride = board.topo.stride
    if len(cells) == 1:
        k = 0  # (its row is measured first, as the run along a row play)
    else:
        k = 0 if cells[1] - cells[0] < stride else 1
        if not (len(cells) == 2 and cells[1] - cells[0] == (stride if k else 1)
                or _in_one_run(v, cells, stride if k else 1)):
            k = -1
    if k < 0 or board.cross_for is None:
        board._lay_anyhow(placement)  # (never in a game: see there)
        return
    # the run along the play holds all its cells: walked once, from the first (the
    # others first leave their intervals that way); then each cell's run across
    cross, by_iv = board.cross[k], board.by_iv[k]
    for c in cells[1:]:
        leave(cross, by_iv, both, c)
    along = lay_cell(board, k, cells[0])
    across = [lay_cell(board, 1 - k, c) for c in cells]
    if placement._placed is None:
        placement._measure_laid(board, k, along, across)


def lay_cell(board: "SquareBoard", k: int, c: int) -> tuple[int, int]:
    """The index along direction `k` once the run through the new piece on `c` is laid
    (any other new pieces of that run have left their intervals that way): `c` leaves
    its interval; the run is walked, and the empty cells at its two ends get the run
    beside them, their `cross` interval from the runs on both sides, and move to the
    cells of that interval. Returns the run's (length, sum).

    It runs for every play of every game, two to four times: the walk is written here,
    what happens at an end is a call (`_interval`, `_shift`) only where something changes."""
    v, both, rows, back, ahead, cross, by_iv, d = board.by_dir[k]
    old = cross[c]
    if old is not None:
        cross[c] = None
        _shift(by_iv, old, None, both[c])
    total, a, b = v[c], c - d, c + d
    while (x := v[a]) >= 0:
        total += x
        a -= d
    while (y := v[b]) >= 0:
        total += y
        b += d
    n = (b - a) // d - 1  # (a and b are the ends now: the cells just outside)
    run = (n, total)
    old_a = iv_a = cross[a]  # (an edge's: None, kept)
    old_b = iv_b = cross[b]
    if x == EMPTY:
        ahead[a] = run
        iv_a = _interval(rows, board.cross_for, n, total, back[a])
    if y == EMPTY:
        back[b] = run
        iv_b = _interval(rows, board.cross_for, n, total, ahead[b])
    if iv_a is not old_a:  # end a moves out of the cells of one interval into another's
        cross[a] = iv_a
        bits = both[a]
        if iv_b is iv_a and old_b is old_a:  # (often: both ends move alike, at once)
            cross[b], bits, old_b = iv_b, bits | both[b], iv_b
        _shift(by_iv, old_a, iv_a, bits)
    if iv_b is not old_b:  # end b: the same
        cross[b] = iv_b
        _shift(by_iv, old_b, iv_b, both[b])
    return run


def _interval(rows: list[dict], rules, n: int, total: int, beside: tuple):
    """The `cross` interval of an empty cell between a run of `n` pieces summing to
    `total` and the run `beside` it on the other side, (length, sum)."""
    n += beside[0]
    total += beside[1]
    try:
        return rows[n][total]
    except LookupError:
        return _learn(rows, rules, n, total)


def _shift(by_iv: dict, old, new, bits: int) -> None:
    """The cells `bits` leave the cells of interval `old` for those of `new` (either
    None: no interval) in `by_iv`, which keeps the cells by interval's bit set of values."""
    if old is not None:
        old = old[3]
        left = by_iv[old] ^ bits  # (its cells hold these)
        if left:
            by_iv[old] = left
        else:
            del by_iv[old]
    if new is not None:
        new = new[3]
        by_iv[new] = by_iv.get(new, 0) | bits


def leave(cross: list, by_iv: dict, both: list, c: int) -> None:
    """The newly filled cell `c` leaves its interval along one direction (`cross` and
    `by_iv` of that direction): a filled cell takes no value, and its runs beside are
    not read."""
    old = cross[c]
    if old is not None:
        cross[c] = None
        _shift(by_iv, old, None, both[c])


def _learn(rows: list[dict], rules, n: int, total: int):
    """`rules.cross(n, total)`, added to `rows` (see `_cross_rows`)."""
    while len(rows) <= n:
        rows.append({})
    found = rows[n][total] = rules.cross(n, total)
    return found


def _in_one_run(v: list, cells, d: int) -> bool:
    """Whether the laid `cells` (in line order) lie in one run along step `d`: each next
    one `d` further on, or further along that line past filled cells only."""
    for a, b in zip(cells, cells[1:]):
        if b - a != d and ((b - a) % d or any(v[c] < 0 for c in range(a + d, b, d))):
            return False
    return True
