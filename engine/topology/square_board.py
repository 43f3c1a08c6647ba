"""Boards of the `square` kind: the play generator, typed plays, measures, positions.

Cells are indices into a flat list padded with sentinels (see `square.py`). `v[i]` is
the value a cell holds (a joker's declared value), `EMPTY` or `EDGE`; `jk[i]` says
whether the piece there is a joker. Every run rule is a (lowest, highest) sum bound per
run length, so the values a new cell may take form one interval: the generator narrows
each cell to an interval and the whole line to a sum range before it tries the hand.
"""

from __future__ import annotations

import re
from itertools import product
from typing import TYPE_CHECKING, Iterator, Sequence

from engine.pieces import Piece
from engine.topology.base import Board, Placement

if TYPE_CHECKING:  # pragma: no cover
    from engine.topology.square import PlaceRules, Square

EMPTY, EDGE = -1, -2
_CELL_TEXT = re.compile(r"^([A-Za-z]+)(\d+)=([Jj]?)(-?\d+)$")


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


class SquarePlacement(Placement):
    """One play: cells in line order, declared values, hand pieces, joker flags.

    Measures are computed on first use from the board the play was made for, counting
    the play's own cells as filled, so they read the same before and after it is applied.
    Two plays are equal when their texts are.
    """

    __slots__ = ("board", "cells", "values", "pieces", "flags", "_lines", "_placed", "_text")

    def __init__(self, board, cells, values, pieces, flags=None):
        self.board, self.cells, self.values, self.pieces, self.flags = (
            board, cells, values, pieces, flags)
        self._lines = self._placed = self._text = None

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
            topo, flags = self.board.topo, self.flags or (False,) * len(self.cells)
            self._text = " ".join(f"{topo.label(c)}={'J' if j else ''}{v}"
                                  for c, v, j in zip(self.cells, self.values, flags))
        return self._text

    def __eq__(self, other) -> bool:
        return isinstance(other, SquarePlacement) and self.text == other.text

    def __hash__(self) -> int:
        return hash(self.text)

    def __repr__(self) -> str:
        return f"SquarePlacement({self.text!r})"

    def runs(self) -> list[tuple[int, list[int]]]:
        """(step, cells) of every maximal run through a new cell, each once, lengths >= 1."""
        board, stride = self.board, self.board.topo.stride
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

    def _measure(self) -> None:
        board, topo = self.board, self.board.topo
        declared = dict(zip(self.cells, self.values))
        joker = dict(zip(self.cells, self.flags or (False,) * len(self.cells)))
        lines, longest = [], {c: 1 for c in self.cells}
        for _, run in self.runs():
            for c in run:
                if c in longest:
                    longest[c] = max(longest[c], len(run))
            if len(run) < 2:
                continue
            vals = [declared[c] if c in declared else board.v[c] for c in run]
            jks = [joker[c] if c in joker else board.jk[c] for c in run]
            face = sum(v for v, j in zip(vals, jks) if not j)
            lines.append(Line(len(run), sum(vals), face, sum(c in declared for c in run), sum(jks)))
        placed = []
        for c, v, p in zip(self.cells, self.values, self.pieces):
            x, y = topo.xy(c)
            placed.append(Placed(topo.attrs[c], value=p.value, declared=v, joker=joker[c],
                                 x=x, y=y, max_line=longest[c]))
        self._lines, self._placed = lines, placed


def _rack_kinds(hand: Sequence[Piece]):
    """Distinct (value, joker) kinds of the hand, each with its pieces in hand order."""
    kinds: dict[tuple[int, bool], list[Piece]] = {}
    for p in hand:
        kinds.setdefault((p.value, bool(p.attrs.get("joker"))), []).append(p)
    return list(kinds.items())


def _arrangements(kinds, k: int):
    """Every distinct arrangement of k pieces: (values, pieces, joker flags, sum).

    Equal pieces are interchangeable, so each arrangement of kinds is given once, its
    pieces taken in hand order along the line.
    """
    left = [len(pieces) for _, pieces in kinds]
    out = []

    def extend(seq):
        if len(seq) == k:
            used = [0] * len(kinds)
            pieces = []
            for ki in seq:
                pieces.append(kinds[ki][1][used[ki]])
                used[ki] += 1
            vals = tuple(kinds[ki][0][0] for ki in seq)
            flags = tuple(kinds[ki][0][1] for ki in seq)
            out.append((vals, tuple(pieces), flags if any(flags) else None, sum(vals)))
            return
        for ki in range(len(kinds)):
            if left[ki]:
                left[ki] -= 1
                extend(seq + [ki])
                left[ki] += 1

    extend([])
    return out


class SquareBoard(Board):
    """A square board's pieces; `v`, `jk`, `piece` are flat lists over padded cells."""

    def __init__(self, topo: "Square"):
        self.topo = topo
        self.v = [EMPTY if a is not None else EDGE for a in topo.attrs]
        self.jk = [False] * len(self.v)
        self.piece: dict[int, Piece] = {}
        self.rules = None
        self._cache: dict = {}

    @property
    def count(self) -> int:
        return len(self.piece)

    def clone(self) -> "SquareBoard":
        other = SquareBoard.__new__(SquareBoard)
        other.topo, other.v, other.jk = self.topo, self.v[:], self.jk[:]
        other.piece, other.rules, other._cache = dict(self.piece), self.rules, self._cache
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
    def _arrangements(self, hand, k):
        key = (tuple(p.uid for p in hand), k)
        found = self._cache.get(key)
        if found is None:
            if len(self._cache) > 4096:
                self._cache.clear()
            found = self._cache[key] = _arrangements(_rack_kinds(hand), k)
        return found

    def _interval(self, c: int, p: int, bounds, max_length):
        """The values cell `c` may take given its run along step `p`; None if none."""
        v = self.v
        n, s, i = 1, 0, c - p
        while v[i] >= 0:
            n, s, i = n + 1, s + v[i], i - p
        i = c + p
        while v[i] >= 0:
            n, s, i = n + 1, s + v[i], i + p
        if n > max_length:
            return None
        lo, hi = bounds[n]
        return (lo - s, hi - s, n > 1)

    def _anchors(self, first: bool, rules) -> list[int]:
        """Empty cells a play must include one of: start cells, or cells touching a piece."""
        v, stride = self.v, self.topo.stride
        if first and rules.cover_start:
            return [c for c in self.topo.starts if v[c] == EMPTY]
        if first and not self.piece:
            return [i for i, x in enumerate(v) if x == EMPTY]
        found = set()
        for c in self.piece:
            for n in (c - 1, c + 1, c - stride, c + stride):
                if v[n] == EMPTY:
                    found.add(n)
        return sorted(found)

    def iter_placements(self, hand: Sequence[Piece], first: bool, rules: "PlaceRules"
                        ) -> Iterator[SquarePlacement]:
        """Every legal play, each once: single pieces by cell, then rows, then columns."""
        self.rules = rules  # kept for check_invariants
        maxk = min(rules.max_count, len(hand))
        if not hand or maxk < rules.min_count:
            return
        anchors = self._anchors(first, rules)
        touch = not first
        if rules.min_count <= 1:
            yield from self._singles(hand, anchors, touch, rules)
        if maxk >= 2 and rules.window >= 2:
            for d in (1, self.topo.stride):
                yield from self._lines_of(hand, anchors, d, touch, maxk, rules)

    def _singles(self, hand, anchors, touch, rules):
        stride, bounds, ml = self.topo.stride, rules.bounds, rules.max_length
        arr = self._arrangements(hand, 1)
        for c in anchors:
            a = self._interval(c, 1, bounds, ml)
            b = a and self._interval(c, stride, bounds, ml)
            if not b:
                continue
            lo, hi = max(a[0], b[0]), min(a[1], b[1])
            for vals, pieces, flags, _ in arr:
                if flags:
                    yield from self._with_jokers((c,), vals, pieces, flags, [(lo, hi)], -BIG, BIG, rules)
                elif lo <= vals[0] <= hi:
                    yield SquarePlacement(self, (c,), vals, pieces)

    def _lines_of(self, hand, anchors, d, touch, maxk, rules):
        """Plays of two or more pieces along step `d`, by their first cell."""
        v, bounds, ml, window = self.v, rules.bounds, rules.max_length, rules.window
        perp = self.topo.stride if d == 1 else 1
        need_start = not touch and rules.cover_start
        starts = set()
        for a in anchors:
            for j in range(window):
                if v[a - j * d] == EMPTY:
                    starts.add(a - j * d)
        startset = set(self.topo.starts) if need_start else ()
        arrs = [None, None] + [self._arrangements(hand, k) for k in range(2, maxk + 1)]
        for c in sorted(starts):
            iv = self._interval(c, perp, bounds, ml)
            if iv is None:
                continue
            plen, psum, i = 0, 0, c - d
            while v[i] >= 0:
                plen, psum, i = plen + 1, psum + v[i], i - d
            cells, ivs = [c], [iv]
            touching = plen > 0 or iv[2]
            covers = c in startset
            inner_n = inner_s = 0
            i, span = c, 1
            while True:
                i += d
                span += 1
                x = v[i]
                if span > window or x == EDGE:
                    break
                if x >= 0:
                    inner_n, inner_s = inner_n + 1, inner_s + x
                    continue
                iv = self._interval(i, perp, bounds, ml)
                if iv is None:
                    break
                cells.append(i)
                ivs.append(iv)
                touching = touching or iv[2] or inner_n > 0
                covers = covers or i in startset
                sn, ss, j = 0, 0, i + d
                while v[j] >= 0:
                    sn, ss, j = sn + 1, ss + v[j], j + d
                length = plen + span + sn
                if length > ml:
                    break
                k = len(cells)
                if k >= rules.min_count and (touching or sn > 0 if touch else covers or not need_start):
                    lo, hi = bounds[length]
                    base = psum + inner_s + ss
                    yield from self._fill(tuple(cells), ivs, lo - base, hi - base, arrs[k], rules)
                if k == maxk:
                    break

    def _fill(self, cells, ivs, mlo, mhi, arrangements, rules):
        """Every arrangement of the hand that fits each cell's interval and the line sum."""
        for vals, pieces, flags, total in arrangements:
            if flags:
                yield from self._with_jokers(cells, vals, pieces, flags, ivs, mlo, mhi, rules)
                continue
            if total < mlo or total > mhi:
                continue
            for val, iv in zip(vals, ivs):
                if val < iv[0] or val > iv[1]:
                    break
            else:
                yield SquarePlacement(self, cells, vals, pieces)

    def _with_jokers(self, cells, vals, pieces, flags, ivs, mlo, mhi, rules):
        """Arrangements with jokers: each joker takes every declared value that fits."""
        if sum(flags) > rules.max_jokers:
            return
        choices = []
        for val, flag, iv in zip(vals, flags, ivs):
            if flag:
                choices.append(range(max(rules.joker_lo, iv[0]), min(rules.joker_hi, iv[1]) + 1))
            elif iv[0] <= val <= iv[1]:
                choices.append((val,))
            else:
                return
        for combo in product(*choices):
            if mlo <= sum(combo) <= mhi:
                yield SquarePlacement(self, cells, combo, pieces, flags)

    # ------------------------------------------------------------- typed plays
    def parse_placement(self, text: str, hand: Sequence[Piece], first: bool,
                        rules: "PlaceRules") -> SquarePlacement:
        """A typed play such as `H8=4 H9=11` (a joker: `H8=J7`); ValueError says why not."""
        self.rules = rules
        placement = self._read(text, hand, rules)
        reason = self._why_illegal(placement, first, rules)
        if reason:
            raise ValueError(reason)
        return placement

    def _read(self, text: str, hand: Sequence[Piece], rules) -> SquarePlacement:
        """The cells, values and rack pieces of a typed play, in line order."""
        entries = sorted(self._read_cells(text))
        if not entries:
            raise ValueError("an empty play: type cells and values, e.g. `H8=4 H9=11`")
        if len({c for c, _, _ in entries}) < len(entries):
            raise ValueError("a cell is named twice in the play")
        left = list(hand)
        pieces = []
        for c, val, joker in entries:
            found = next((p for p in left if bool(p.attrs.get("joker")) == joker
                          and (joker or p.value == val)), None)
            if found is None:
                rack = " ".join("J" if p.attrs.get("joker") else str(p.value) for p in hand)
                what = "joker" if joker else f"{val}"
                raise ValueError(f"{self.topo.label(c)}: there is no {what} on the rack ({rack})")
            if joker and not rules.joker_lo <= val <= rules.joker_hi:
                raise ValueError(f"{self.topo.label(c)}: a joker takes a value from "
                                 f"{rules.joker_lo} to {rules.joker_hi}, not {val}")
            left.remove(found)
            pieces.append(found)
        flags = tuple(j for _, _, j in entries)
        return SquarePlacement(self, tuple(c for c, _, _ in entries),
                               tuple(v for _, v, _ in entries), tuple(pieces),
                               flags if any(flags) else None)

    def _read_cells(self, text: str):
        topo = self.topo
        for word in text.replace(",", " ").split():
            m = _CELL_TEXT.match(word)
            if not m:
                raise ValueError(f"cannot read `{word}`: type a play as `H8=4 H9=11` "
                                 "(a joker as `H8=J7`)")
            y, x = _row_index(m.group(1)), int(m.group(2)) - 1
            if not (0 <= x < topo.width and 0 <= y < topo.height):
                raise ValueError(f"`{word}`: no such cell (rows A-{row_label(topo.height - 1)}, "
                                 f"columns 1-{topo.width})")
            c = topo.index(x, y)
            if self.v[c] != EMPTY:
                raise ValueError(f"{topo.label(c)} already holds a token")
            yield c, int(m.group(4)), bool(m.group(3))

    def _why_illegal(self, play: SquarePlacement, first: bool, rules) -> str | None:
        """The first legality rule the play breaks, in words; None when it is legal."""
        topo, cells, n = self.topo, play.cells, len(play.cells)
        if not rules.min_count <= n <= rules.max_count:
            return f"a play lays {rules.min_count} to {rules.max_count} tokens, not {n}"
        xs = {topo.xy(c)[0] for c in cells}
        ys = {topo.xy(c)[1] for c in cells}
        if len(xs) > 1 and len(ys) > 1:
            return "the tokens of a play must lie in one row or one column"
        d = 1 if len(ys) == 1 else topo.stride
        span = (cells[-1] - cells[0]) // d + 1
        if span > rules.window:
            return (f"the play spans {span} cells ({topo.label(cells[0])}-"
                    f"{topo.label(cells[-1])}); it must lie within {rules.window} consecutive cells")
        new = set(cells)
        for c in range(cells[0], cells[-1], d):
            if c not in new and self.v[c] < 0:
                return f"a gap at {topo.label(c)}: cells between played tokens must hold tokens"
        if play.jokers > rules.max_jokers:
            return f"at most {rules.max_jokers} joker(s) in one play"
        if first and rules.cover_start:
            if not new & set(topo.starts):
                start = " or ".join(topo.label(c) for c in topo.starts)
                return f"the first play must cover the start cell {start}"
        elif not first and not any(self.v[c + e] >= 0 for c in cells
                                   for e in (1, -1, topo.stride, -topo.stride)):
            return "the play must touch a token already on the board (orthogonally)"
        for d, run in play.runs():
            reason = _run_problem(self, d, run, play, rules)
            if reason:
                return reason
        return None

    def apply_placement(self, placement: SquarePlacement) -> None:
        flags = placement.flags or (False,) * len(placement.cells)
        for c, val, piece, flag in zip(placement.cells, placement.values, placement.pieces, flags):
            self.v[c], self.jk[c], self.piece[c] = val, flag, piece

    def check_invariants(self, rules: "PlaceRules | None" = None) -> list[str]:
        """Every run on the board that breaks a line rule, as text (empty: all is well)."""
        rules = rules or self.rules
        if rules is None:
            return []
        out, stride = [], self.topo.stride
        for d in (1, stride):
            for c in sorted(self.piece):
                if self.v[c - d] < 0:
                    run = self.run_through(c, d)
                    reason = len(run) > 1 and _run_problem(self, d, run, None, rules)
                    if reason:
                        out.append(reason)
        return out

    def dump_position(self) -> str:
        """The pieces on the board as play text, cell by cell (`H8=4 H9=J11`)."""
        return " ".join(f"{self.topo.label(c)}={'J' if self.jk[c] else ''}{self.v[c]}"
                        for c in sorted(self.piece))

    def load_position(self, text: str, supply: list[Piece]) -> list[Piece]:
        """Lay out a dumped position, taking its pieces out of `supply`; returns them."""
        taken = []
        for c, val, joker in self._read_cells(str(text or "")):
            found = next((p for p in supply if bool(p.attrs.get("joker")) == joker
                          and (joker or p.value == val)), None)
            if found is None:
                raise ValueError(f"{self.topo.label(c)}: no {'joker' if joker else val} left to lay")
            supply.remove(found)
            taken.append(found)
            self.v[c], self.jk[c], self.piece[c] = val, joker, found
        return taken


def _run_problem(board: SquareBoard, d: int, run: list[int], play, rules) -> str | None:
    """Why a run breaks the line rules, naming its cells; None if it keeps them."""
    topo, n = board.topo, len(run)
    declared = dict(zip(play.cells, play.values)) if play else {}
    where = f"the {'row' if d == 1 else 'column'} {topo.label(run[0])}-{topo.label(run[-1])}"
    if n > rules.max_length:
        return f"{where} would hold {n} tokens; a line holds at most {rules.max_length}"
    total = sum(declared[c] if c in declared else board.v[c] for c in run)
    lo, hi = rules.bounds[n]
    if lo <= total <= hi:
        return None
    if lo == hi:
        need = f"exactly {lo}"
    else:
        need = f"at most {hi}" if total > hi else f"at least {lo}"
    return f"{where} sums to {total}; a line of {n} must sum to {need}"


def row_label(y: int) -> str:
    """Letters for row `y`: A..Z, then AA, AB... (row 7 is `H`)."""
    text = ""
    y += 1
    while y:
        y, r = divmod(y - 1, 26)
        text = chr(65 + r) + text
    return text


def _row_index(letters: str) -> int:
    n = 0
    for ch in letters.upper():
        n = n * 26 + ord(ch) - 64
    return n - 1


BIG = 1 << 60
