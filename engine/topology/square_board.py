"""Boards of the `square` kind: the play generator, typed plays, positions.

Cells are indices into a flat list padded with sentinels (see `square.py`). `v[i]` is
the value a cell holds (a joker's declared value), `EMPTY` or `EDGE`; `jk[i]` says
whether the piece there is a joker. Every run rule is a (lowest, highest) sum bound per
run length, so the values a new cell may take form one interval: the generator narrows
each cell to an interval and the whole line to a sum range before it tries the hand.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Iterator, Sequence

from engine.pieces import Piece
from engine.topology.base import Board
from engine.topology.square_placement import Line, Placed, SquarePlacement, lay_tables

if TYPE_CHECKING:  # pragma: no cover
    from engine.topology.square import PlaceRules, Square

EMPTY, EDGE = -1, -2
_CELL_TEXT = re.compile(r"^([A-Za-z]+)(\d+)=([Jj]?)(-?\d+)$")

__all__ = ["EDGE", "EMPTY", "Line", "Placed", "SquareBoard", "SquarePlacement", "row_label"]


_FIND = None  # `square_moves.find_plays`, imported on first use (it imports this module)


def _find_plays():
    global _FIND
    from engine.topology.square_moves import find_plays

    _FIND = find_plays
    return _FIND


class SquareBoard(Board):
    """A square board's pieces; `v`, `jk`, `piece` are flat lists over padded cells."""

    def __init__(self, topo: "Square"):
        self.topo = topo
        self.v = [EMPTY if a is not None else EDGE for a in topo.attrs]
        self.jk = [False] * len(self.v)
        self.jokers = 0  # how many cells hold a joker (none: measures skip looking)
        self.piece: dict[int, Piece] = {}
        self.rules = None
        self._reindex()

    def _reindex(self) -> None:
        """Rebuild the run index from the cells: for each empty cell and each direction,
        the (length, sum) of the run just before and just after it; and the anchors."""
        v = self.v
        self.back: tuple[list, list] = ([(0, 0)] * len(v), [(0, 0)] * len(v))
        self.ahead: tuple[list, list] = ([(0, 0)] * len(v), [(0, 0)] * len(v))
        # Bit sets for the generator's first cells: the anchors (empty cells next to a
        # piece; bit i: cell i), the filled cells and the cells of each `cross` interval
        # (`by_iv`), these two in the layout of `Square.both` (the board transposed above).
        self.anchor_bits = self.filled = 0
        self.by_iv: tuple[dict, dict] = ({}, {})  # per direction: `cross` interval -> its cells
        self.cross: tuple[list, list] = ([None] * len(v), [None] * len(v))
        self._cross_for = None  # the rules `cross` was worked out for
        self._rows = None  # their `cross` by length then sum (`_cross_rows`)
        self.tables = lay_tables(self.topo)
        self._plays = None  # (hand, first, rules), the plays, the hand: until the board changes
        self.starts: dict = {}  # the generator's first cells, until the board changes
        cells = list(self.piece)
        self._index_runs(cells, self._runs_through(cells))

    def crosses(self, rules: "PlaceRules") -> tuple[list, list]:
        """For each empty cell and direction, (low, high, touches, bits): the values a new
        piece there may take given the run it joins that way, also as a bit set; None if
        none may. `touches`: that run has other pieces."""
        if self._cross_for is not rules:
            self._cross_for, self._rows = rules, _cross_rows(rules)
            empty = not self.piece and rules.empty_index
            if empty and empty[0] is self.topo:
                # every game starts on an empty board: its index is worked out once
                _, cross, by_iv = empty
                for k in (0, 1):
                    self.cross[k][:] = cross[k]
                    self.by_iv[k].clear()
                    self.by_iv[k].update(by_iv[k])
                return self.cross
            for k in (0, 1):
                self.cross[k][:] = [self._cross_at(c, k) if x == EMPTY else None
                                    for c, x in enumerate(self.v)]
                self.by_iv[k].clear()
                both = self.topo.both
                for c, iv in enumerate(self.cross[k]):
                    if iv is not None:
                        self.by_iv[k][iv] = self.by_iv[k].get(iv, 0) | both[c]
            if not self.piece:
                rules.empty_index = (self.topo, (self.cross[0][:], self.cross[1][:]),
                                     (dict(self.by_iv[0]), dict(self.by_iv[1])))
        return self.cross

    def fit_bits(self, mask: int) -> tuple[int, int]:
        """Per direction, the empty cells whose `cross` interval takes a value of the bit
        set `mask` (the board keeps its cells by interval, and there are few intervals),
        in the layout of `Square.both`."""
        across = down = 0
        for iv, cells in self.by_iv[0].items():
            if iv[3] & mask:
                across |= cells
        for iv, cells in self.by_iv[1].items():
            if iv[3] & mask:
                down |= cells
        return across, down

    def _cross_at(self, c: int, k: int):
        n1, s1 = self.back[k][c]
        n2, s2 = self.ahead[k][c]
        return self._cross_for.cross(n1 + n2, s1 + s2)

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
        other.piece, other.rules, other._cross_for = dict(self.piece), self.rules, self._cross_for
        other._rows, other.tables = self._rows, self.tables
        other.cross = (self.cross[0][:], self.cross[1][:])
        other._plays = None  # plays refer to the board they were made on
        other.starts = self.starts  # replaced, never changed, when a board changes
        other.back = (self.back[0][:], self.back[1][:])
        other.ahead = (self.ahead[0][:], self.ahead[1][:])
        other.anchor_bits, other.filled = self.anchor_bits, self.filled
        other.by_iv = (dict(self.by_iv[0]), dict(self.by_iv[1]))
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
        # the same hand is often asked again before the board changes (can_place...);
        # it is known by its pieces' identities (comparing pieces calls their `__eq__`),
        # and kept with the plays, so that no other piece takes one of their ids meanwhile
        key = (tuple(map(id, hand)), first, id(rules))
        if self._plays is None or self._plays[0] != key:
            self._plays = (key, (_FIND or _find_plays())(self, hand, first, rules), tuple(hand))
        return iter(self._plays[1])

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
        """Lay the play's pieces; its measures, if not read yet, are worked out from the
        runs through its cells (as they read on the board before, counting the play's
        cells as filled), which also update the run index."""
        cells, v, jk, piece = placement.cells, self.v, self.jk, self.piece
        for c, val, p in zip(cells, placement.values, placement.pieces):
            v[c], piece[c] = val, p
        if placement.flags:  # (an empty cell's flag is already False)
            for c, flag in zip(cells, placement.flags):
                jk[c] = flag
            self.jokers += sum(placement.flags)
        runs = self._runs_of_play(cells)
        if placement._lines is None:  # the kernel scores the move after applying it
            placement._measure_runs(self, runs)
        self._index_runs(cells, runs)
        self._plays, self.starts = None, {}

    def _runs_of_play(self, cells) -> list[tuple]:
        """`_runs_through` for a play laid in one line (as every legal play is): the run
        along it, which holds all its cells, is walked once, and each cell's run across."""
        v, stride = self.v, self.topo.stride
        if len(cells) == 1:
            c = cells[0]
            return [_run(v, 0, 1, c, 0), _run(v, 1, stride, c, 0)]
        k = 0 if cells[1] - cells[0] < stride else 1
        d, e = (1, stride) if k == 0 else (stride, 1)
        main = _run(v, k, d, cells[0], -1)
        a, b = main[2], main[3]
        for c in cells:
            if not a <= c <= b or (c - a) % d:
                return self._runs_through(cells)  # not in one line
        out = [_run(v, 1 - k, e, c, i) for i, c in enumerate(cells)]
        out.insert(k, main)  # (in the order of `SquarePlacement.runs`)
        return out

    def _runs_through(self, cells) -> list[tuple]:
        """(direction, step, first cell, last cell, length, sum, i) of every maximal run
        through the cells, each once, in the order of `SquarePlacement.runs`; `i`: the
        position in `cells` of the cell it was found from, -1 if it lies along the play
        (by its first two cells)."""
        v, stride = self.v, self.topo.stride
        along = 0 if len(cells) < 2 else 1 if cells[1] - cells[0] < stride else stride
        seen, out = set(), []
        for i, c in enumerate(cells):
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
                out.append((k, d, a, b, (b - a) // d + 1, total, -1 if d == along else i))
        return out

    def _index_runs(self, cells, runs) -> None:
        """Update the run index after `cells` were filled, from the runs through them:
        the anchors, the bit sets, and for each empty cell at the end of a run its runs
        before and after and its `cross` interval."""
        both = self.topo.both
        near_of = self.tables.near
        played = near = 0
        for c in cells:
            played |= both[c]
            near |= near_of[c]
        filled = self.filled = self.filled | played
        # the anchors gain the empty cells next to the new pieces, and lose those pieces
        self.anchor_bits = (self.anchor_bits | near) & ~filled
        if self._cross_for is None:  # (no intervals yet: only the runs beside the ends)
            v = self.v
            for k, d, a, b, n, total, _ in runs:
                if v[a - d] == EMPTY:
                    self.ahead[k][a - d] = (n, total)
                if v[b + d] == EMPTY:
                    self.back[k][b + d] = (n, total)
        else:
            self._index_ends(runs)
        self._forget_filled(cells)

    def _index_ends(self, runs) -> None:
        """For each empty cell at an end of a run: the run beside it, and its `cross`
        interval from the runs on both sides (the cells by interval follow)."""
        v, both, rules, rows = self.v, self.topo.both, self._cross_for, self._rows
        backs, aheads, crosses, by_ivs = self.back, self.ahead, self.cross, self.by_iv
        for k, d, a, b, n, total, _ in runs:
            run, back, ahead, cross = (n, total), backs[k], aheads[k], crosses[k]
            a -= d  # the two ends (written out: a loop over them costs as much as their work)
            b += d
            old_a = iv_a = cross[a]  # (a filled cell's: None, kept)
            old_b = iv_b = cross[b]
            if v[a] == EMPTY:
                ahead[a] = run
                n2, s2 = back[a]
                try:
                    iv_a = rows[n + n2][total + s2]
                except LookupError:
                    iv_a = _learn(rows, rules, n + n2, total + s2)
            if v[b] == EMPTY:
                back[b] = run
                n2, s2 = ahead[b]
                try:
                    iv_b = rows[n + n2][total + s2]
                except LookupError:
                    iv_b = _learn(rows, rules, n + n2, total + s2)
            if iv_a is not old_a:
                cross[a] = iv_a
                if iv_b is iv_a and old_b is old_a:  # (often: both ends move alike, at once)
                    cross[b] = iv_b
                    _move(by_ivs[k], old_a, iv_a, both[a] | both[b])
                    continue
                _move(by_ivs[k], old_a, iv_a, both[a])
            if iv_b is not old_b:
                cross[b] = iv_b
                _move(by_ivs[k], old_b, iv_b, both[b])

    def _forget_filled(self, cells) -> None:
        """A filled cell takes no value and has no runs beside it: out of the index."""
        both, (cross0, cross1), (by_iv0, by_iv1) = self.topo.both, self.cross, self.by_iv
        (back0, back1), (ahead0, ahead1) = self.back, self.ahead
        for c in cells:  # (both directions written out, as in `_index_ends`)
            bits, old = both[c], cross0[c]
            if old is not None:
                cross0[c] = None
                left = by_iv0[old] ^ bits
                if left:
                    by_iv0[old] = left
                else:
                    del by_iv0[old]
            old = cross1[c]
            if old is not None:
                cross1[c] = None
                left = by_iv1[old] ^ bits
                if left:
                    by_iv1[old] = left
                else:
                    del by_iv1[old]
            back0[c] = back1[c] = ahead0[c] = ahead1[c] = (0, 0)

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
                    reason = len(run) > 1 and _run_problem(self, d, run, None, rules)
                    if reason:
                        out.append(reason)
        return out

    def _index_drift(self) -> list[str]:
        fresh = SquareBoard.__new__(SquareBoard)
        fresh.topo, fresh.v, fresh.piece = self.topo, self.v, self.piece
        fresh._reindex()
        out = [] if fresh.anchor_bits == self.anchor_bits else ["the anchor cells drifted"]
        if fresh.filled != self.filled:
            out.append("the bit sets of the index drifted from the cells")
        if self._cross_for is not None and fresh.crosses(self._cross_for) is not None \
                and fresh.by_iv != self.by_iv:
            out.append("the cells of each cross interval drifted")
        if (fresh.back, fresh.ahead) != (self.back, self.ahead):
            out.append("the run index drifted from the cells")
        if self._cross_for is not None and fresh.crosses(self._cross_for) != self.cross:
            out.append("the cross intervals drifted from the cells")
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
            self.jokers += joker
        self._reindex()
        return taken


def _cross_rows(rules) -> list[dict]:
    """`rules.cross(n, total)` as `rows[n][total]`, as far as it was asked: two lookups
    by small integers cost half of one by a tuple, made and hashed each time (kept on
    the rules, for every board they are used on)."""
    rows = rules.__dict__.get("cross_rows")
    if rows is None:
        rows = rules.cross_rows = []
    return rows


def _learn(rows: list[dict], rules, n: int, total: int):
    """`rules.cross(n, total)`, added to `rows` (see `_cross_rows`)."""
    while len(rows) <= n:
        rows.append({})
    found = rows[n][total] = rules.cross(n, total)
    return found


def _move(by_iv: dict, old, iv, bits: int) -> None:
    """The cells `bits` (in the layout of `Square.both`) take the `cross` interval `iv`
    in place of `old` (either may be None: no interval): out of the cells of one, into
    those of the other."""
    if old is not None:
        left = by_iv[old] ^ bits  # (its cells hold these)
        if left:
            by_iv[old] = left
        else:
            del by_iv[old]
    if iv is not None:
        by_iv[iv] = by_iv.get(iv, 0) | bits


def _run(v: list, k: int, d: int, c: int, i: int) -> tuple:
    """The maximal run through the filled cell `c` along step `d` (direction `k`), as
    `SquareBoard._runs_through` gives it (`i`: what it notes of the cell)."""
    a, total = c, v[c]
    while v[a - d] >= 0:
        a -= d
        total += v[a]
    b = c
    while v[b + d] >= 0:
        b += d
        total += v[b]
    return (k, d, a, b, (b - a) // d + 1, total, i)


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

