"""Boards of the `square` kind: the index the play generator reads, laying plays, positions.

Cells are indices into a flat list padded with sentinels (see `square.py`). `v[i]` is
the value a cell holds (a joker's declared value), `EMPTY` or `EDGE`; `jk[i]` says
whether the piece there is a joker. Every run rule is a (lowest, highest) sum bound per
run length, so the values a new cell may take form one interval: the generator narrows
each cell to an interval and the whole line to a sum range before it tries the hand.
"""

from __future__ import annotations

from operator import is_
from typing import TYPE_CHECKING, Iterator, Sequence

from engine.pieces import Piece
from engine.topology.base import Board
from engine.topology.square_placement import Line, Placed, SquarePlacement, lay_tables

if TYPE_CHECKING:  # pragma: no cover
    from engine.topology.square import PlaceRules, Square

EMPTY, EDGE = -1, -2

__all__ = ["EDGE", "EMPTY", "Line", "Placed", "SquareBoard", "SquarePlacement"]


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
        """`by_dir[k]`: what `_lay_cell` reads along direction `k`, in one tuple (one
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
                                   (_FIND or _find_plays())(self, hand, first, rules))
        return iter(known[3])

    # ------------------------------------------------------------- typed plays
    def parse_placement(self, text: str, hand: Sequence[Piece], first: bool,
                        rules: "PlaceRules") -> SquarePlacement:
        """A typed play such as `H8=4 H9=11` (a joker: `H8=J7`); ValueError says why not."""
        from engine.topology.square_text import read_play, why_illegal  # (typed input only)

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
                self._lay_two(placement)
            else:
                self._lay_many(placement)
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
        row = self._lay_cell(0, c)
        column = self._lay_cell(1, c)
        if placement._placed is None:  # the kernel scores the move after applying it
            if flags is None and not self.jokers:
                placement._measure_one(self, row, column)
            else:
                placement._measure_laid(self, 0, row, [column])

    def _lay_two(self, placement: SquarePlacement) -> None:
        """`apply_placement` of a play of two pieces (nearly all the other plays of a
        game), written out, on a board whose `cross` intervals are worked out."""
        (c, c2), v, stride = placement.cells, self.v, self.topo.stride
        if c2 - c == 1:
            k = 0
        elif c2 - c == stride:
            k = 1
        else:  # (a filled cell between them)
            self._lay_many(placement)
            return
        (v[c], v[c2]), flags = placement.values, placement.flags
        self.piece[c], self.piece[c2] = placement.pieces
        if flags:
            self.jk[c], self.jk[c2] = flags
            self.jokers += sum(flags)
        both, near = self.topo.both, self.tables.near
        filled = self.filled = self.filled | both[c] | both[c2]
        anchors = self.anchor_bits | near[c] | near[c2]  # (as in `apply_placement`)
        self.anchor_bits = anchors ^ (anchors & filled)
        self._plays, self.starts = None, {}
        cross, by_iv = self.cross[k], self.by_iv[k]
        old = cross[c2]
        if old is not None:  # the second leaves its interval along the play (`_lay_cell`)
            cross[c2] = None
            old = old[3]
            left = by_iv[old] ^ both[c2]
            if left:
                by_iv[old] = left
            else:
                del by_iv[old]
        lay = self._lay_cell
        if k:
            along, across = lay(1, c), [lay(0, c), lay(0, c2)]
        else:
            along, across = lay(0, c), [lay(1, c), lay(1, c2)]
        if placement._placed is None:
            if flags is None and not self.jokers:
                placement._measure_two(self, k, along, across)
            else:
                placement._measure_laid(self, k, along, across)

    def _lay_many(self, placement: SquarePlacement) -> None:
        """`apply_placement` of any play: of three pieces or more, not in one run, or on
        a board whose `cross` intervals were never asked for."""
        cells, v, piece = placement.cells, self.v, self.piece
        both, near_of = self.topo.both, self.tables.near
        played = near = 0
        for c, val, p in zip(cells, placement.values, placement.pieces):
            v[c], piece[c] = val, p
            played |= both[c]
            near |= near_of[c]
        if placement.flags:  # (an empty cell's flag is already False)
            for c, flag in zip(cells, placement.flags):
                self.jk[c] = flag
            self.jokers += sum(placement.flags)
        filled = self.filled = self.filled | played
        anchors = self.anchor_bits | near  # (as in `apply_placement`)
        self.anchor_bits = anchors ^ (anchors & filled)
        self._plays, self.starts = None, {}
        stride = self.topo.stride
        if len(cells) == 1:
            k = 0  # (its row is measured first, as the run along a row play)
        else:
            k = 0 if cells[1] - cells[0] < stride else 1
            if not (len(cells) == 2 and cells[1] - cells[0] == (stride if k else 1)
                    or _in_one_run(v, cells, stride if k else 1)):
                k = -1
        if k < 0 or self.cross_for is None:
            self._lay_anyhow(placement)  # (never in a game: see there)
            return
        # the run along the play holds all its cells: walked once, from the first (the
        # others first leave their intervals that way); then each cell's run across
        cross, by_iv = self.cross[k], self.by_iv[k]
        for c in cells[1:]:
            old = cross[c]
            if old is not None:
                cross[c] = None
                old = old[3]
                left = by_iv[old] ^ both[c]
                if left:
                    by_iv[old] = left
                else:
                    del by_iv[old]
        along = self._lay_cell(k, cells[0])
        across = [self._lay_cell(1 - k, c) for c in cells]
        if placement._placed is None:
            placement._measure_laid(self, k, along, across)

    def _lay_cell(self, k: int, c: int) -> tuple[int, int]:
        """The index along direction `k` once the run through the new piece
        on `c` is laid (any other new pieces of that run have left their intervals that
        way): `c` leaves its interval; the run is walked, and the empty cells at its two
        ends get the run beside them, their `cross` interval from the runs on both
        sides, and move to the cells of that interval. Returns the run's (length, sum).

        The walk, the two ends and the moves between intervals written out, with no loop
        over cells: it runs for every play of every game, two to four times, where a
        loop costs about as much as the work."""
        v, both, rows, back, ahead, cross, by_iv, d = self.by_dir[k]
        old = cross[c]
        if old is not None:  # a filled cell takes no value (its runs beside are not read)
            cross[c] = None
            old = old[3]
            left = by_iv[old] ^ both[c]
            if left:
                by_iv[old] = left
            else:
                del by_iv[old]
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
            n2, s2 = back[a]
            try:
                iv_a = rows[n + n2][total + s2]
            except LookupError:
                iv_a = _learn(rows, self.cross_for, n + n2, total + s2)
        if y == EMPTY:
            back[b] = run
            n2, s2 = ahead[b]
            try:
                iv_b = rows[n + n2][total + s2]
            except LookupError:
                iv_b = _learn(rows, self.cross_for, n + n2, total + s2)
        if iv_a is not old_a:  # end a moves out of the cells of one interval into another's
            cross[a] = iv_a
            bits = both[a]
            if iv_b is iv_a and old_b is old_a:  # (often: both ends move alike, at once)
                cross[b] = iv_b
                bits |= both[b]
                old_b = iv_b
            if old_a is not None:
                old_a = old_a[3]
                left = by_iv[old_a] ^ bits  # (its cells hold these)
                if left:
                    by_iv[old_a] = left
                else:
                    del by_iv[old_a]
            if iv_a is not None:
                iv_a = iv_a[3]
                by_iv[iv_a] = by_iv.get(iv_a, 0) | bits
        if iv_b is not old_b:  # end b: the same
            cross[b] = iv_b
            bits = both[b]
            if old_b is not None:
                old_b = old_b[3]
                left = by_iv[old_b] ^ bits
                if left:
                    by_iv[old_b] = left
                else:
                    del by_iv[old_b]
            if iv_b is not None:
                iv_b = iv_b[3]
                by_iv[iv_b] = by_iv.get(iv_b, 0) | bits
        return run

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
        from engine.topology.square_text import run_problem  # (it imports this module)

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
        from engine.topology.square_text import read_cells  # (it imports this module)

        taken = []
        for c, val, joker in read_cells(self, str(text or "")):
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


def _in_one_run(v: list, cells, d: int) -> bool:
    """Whether the laid `cells` (in line order) lie in one run along step `d`: each next
    one `d` further on, or further along that line past filled cells only."""
    for a, b in zip(cells, cells[1:]):
        if b - a != d and ((b - a) % d or any(v[c] < 0 for c in range(a + d, b, d))):
            return False
    return True
