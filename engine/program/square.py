"""The `square` board kind's part of a generated program (engine/topology/square.py).

The board is one field of the program's state, a list: the value of each cell of the
flat padded grid (`SquareBoard.v`: -1 empty, -2 a sentinel); for each empty cell, per
direction, the values a new piece there may take given the run it would join that way,
as a bit set (`across`: the row's run, `down`: the column's; `SquareBoard.cross`); the
anchors (empty cells beside a piece) and the filled cells as bit sets over the cells;
and per direction the empty cells grouped by mask (mask -> bit set of cells), so that
the cells that take a value of a hand are a few `|`s. A play is a tuple (cells in line
order, values; its pieces are for each value the earliest left in the hand, `B_taken`;
a play of a hand with a joker holds more, `square_jokers.py`); its code is
its index in the position's listing (`places`). The arrangements of a hand plan that
fit are kept with it (for one piece by the cell's masks; for a run by its cells' masks
across, the line's length and the sum of its pieces), so that a position's listing
mostly looks them up; a sum to make reads the plan's arrangements of that sum.

The listing (`B_plays`) finds what `square_moves.find_plays` finds, in its order:
single pieces by cell, then plays of two or more pieces along rows, then columns, by
their first cell, each run of new cells as the walk meets it, and for each the
arrangements of the ranked hand (its pieces by value, equal values in hand order) in
order (the template `square_lay.plays`; the hand plans: `square_plan.py`). The first
cells are found for all cells at once on the bit sets (shifts of one cell, or of a row:
`square_firsts.py`), then each is walked (`square_source.py`). Laying (`B_lay`, the
template `square_lay.lay`) updates the masks at the ends of the runs through the new
pieces, as the hand-written reference does, and returns the play's measures as the
records scoring reads: its `lines`
(length, sum, face sum, new pieces, jokers), in `SquarePlacement._measure`'s order, and
its `placed` records (the cell's attributes, value, x, y, `max_line`, `lines_through`);
without jokers as plain tuples, whose fields the scoring reads by index (`move_names`).

The functions are written out for the ruleset's numbers (the board's stride, the
window, the longest line, the sum bounds by length, fewest and most pieces), from
integers only. With jokers, `B_jplays` (`square_jokers.py`) is written after these: a
hand holding a joker is listed the interpreter's general way, by the interpreter's
own functions (`square_general.py`), a play with a joker holds its joker flags too,
and the state keeps the joker cells (the field `jokers`, a bit set) for the lines'
face sums (`B_jlay`). A first play that need not cover a start cell is not covered
yet (`why_not`).
"""

from __future__ import annotations

from collections import namedtuple
from functools import partial
from operator import attrgetter

from engine.program import square_jokers, square_plan
from engine.program.square_lay import copy_board, new_board
from engine.program.square_source import board_source
from engine.program.template import define
from engine.topology.square_placement import EDGE, EMPTY

#: a `line` record of a play (`square_placement.Line`)
Line = namedtuple("Line", ("length", "sum", "face_sum", "new", "jokers"))
#: how many codes a place action spans: more than any position lists
_WIDTH = 1 << 20

#: the builtins the board's functions read
BUILTINS = {"len": len, "range": range, "sorted": sorted, "tuple": tuple, "set": set,
            "list": list, "dict": dict,
            "min": min, "max": max, "sum": sum, "zip": zip, "map": map,
            "enumerate": enumerate, "True": True, "False": False, "None": None}


class SquareCode:
    """What the generator writes for a square board."""

    kind = "square"
    #: the state fields the board owns, in order
    fields = ("board", "places")
    #: action kinds whose moves are the board's (a play lays pieces from the hand)
    move_kinds = frozenset({"place"})

    size = 0  # (nothing is dealt onto it)

    @staticmethod
    def why_not(rules) -> str | None:
        """What of these place rules the board's code does not cover, or None."""
        if not rules.cover_start:
            return "a first play that need not cover a start cell"
        return None

    @classmethod
    def for_game(cls, game) -> SquareCode:
        """The board's code for `game` (its place action's rules, its pieces' values);
        ValueError naming what is not covered (`why_not`, or a guard on the place)."""
        model = game.model
        action = next(a for a in model.actions if a.kind == "place")
        pieces = sorted(game.pieces, key=lambda p: p.uid)
        jokers = any(p.attrs.get("joker") for p in pieces)
        reason = cls.why_not(action.rules)
        if reason is None and action.guard is not None:
            reason = f"a condition on the square board's place action `{action.name}`"
        if reason is not None:
            raise ValueError(reason)
        dealt = model.largest_hand()
        return cls(model.topology, action.rules, tuple(p.attrs["value"] for p in pieces),
                   jokers, dealt)

    def __init__(self, topology, rules, values: tuple, jokers: bool = False, dealt: int = 0):
        """`rules`: the place action's `PlaceRules` (covered: see `why_not`); `values`:
        each piece's value, by uid; `jokers`: whether some piece is a joker; `dealt`:
        the largest hand dealt (the listing reads a hand of that size written out)."""
        self.topo, self.rules, self.piece_values = topology, rules, values
        self.jokers, self.dealt = jokers, dealt
        if jokers:  # (the joker cells, a bit set: `B_jlay`)
            self.fields = SquareCode.fields + ("jokers",)
        self.stride = topology.stride
        self.window = min(rules.window, max(topology.width, topology.height))
        self.longest = min(rules.max_length, max(topology.width, topology.height) + 1)
        top = max(values, default=0)
        if jokers:  # (a joker's declared value may be any of its values)
            top = max(top, rules.joker_hi)
        self.vbits = top + 1  # (the bits of a set of values)
        #: whether `B_lay` reads a placed record's start from a table (`_laid`): for
        #: values up to 63, the table a few thousand tuples at most
        self.laid_table = self.vbits <= 64
        names = tuple(topology.defaults)  # (a `placed` record's fields: `_measure`)
        self.placed = namedtuple("Placed", names + ("value", "declared", "joker", "x", "y",
                                                     "max_line", "lines_through"))
        self.attrs = [tuple(a[k] for k in names) if a is not None else None
                      for a in topology.attrs]
        self.cross = _cross_table(rules, self.longest, top)
        # (a run beside an empty cell packed as count << shift | sum, `B_lay`: a side's
        # sum fits below the shift; two sides' sums may carry into the count only when
        # their count is more than a line takes, so that a run read too long stays too
        # long; if a line as long as the longest still took a piece, no carry at all)
        most = self.longest * top
        if any(any(row) for row in self.cross[self.longest:]):
            most = (2 * self.longest + self.window) * top
        self.shift = max(1, most.bit_length())
        self.side = self.longest << self.shift | self.longest * top  # (the most a side)
        self.empty = [EMPTY if a is not None else EDGE for a in topology.attrs]
        self.starts = tuple(topology.starts)

    # -- the program's constants and text --------------------------------------------
    def constants(self) -> dict:
        """The board's constants (`B_*`) the generated lines read."""
        most = self.longest * (self.vbits - 1)  # (the most a line's pieces sum to)
        ranges = tuple(tuple((lo - base, hi - base) for base in range(most + 1))
                       for lo, hi in self.rules.bounds[:self.longest + 1])
        return {"B_cross": self.cross, "B_value": self.piece_values, "B_starts": self.starts,
                "B_range": ranges, **self._board_functions(ranges),
                # (per length and base, the sum a run's new pieces must make, or None)
                "B_exact": tuple(tuple(lo - base if lo == hi else None
                                       for base in range(most + 1))
                                 for lo, hi in self.rules.bounds[:self.longest + 1]),
                "B_labels": tuple(self.topo.labels), "B_missing": KeyError,
                "B_Line": Line, "B_record": tuple.__new__, "B_val": attrgetter("value"),
                "B_Placed": self.placed, "B_attrs": tuple(self.attrs),
                "B_xy": tuple(map(self.topo.xy, range(len(self.empty)))),
                "B_laid": self._laid() if self.laid_table else None, "B_bit": tuple(1 << c for c in range(len(self.empty))),
                "B_crossp": self._crossp(), **self._px(),
                "B_near": tuple(self._near(c) for c in range(len(self.empty))),
                "B_start_bits": sum(1 << c for c in self.starts),
                **(self._joker_constants() if self.jokers else {})}

    def _board_functions(self, ranges: tuple) -> dict:
        """The board's plain functions (`square_lay.py`, `square_plan.py`) the program
        calls, bound to its numbers: a new board, its copies, the hand plans (kept in
        `B_plans`, which the listing reads itself) and their parts."""
        full, plans = self.cross[0][0], {}
        return {"B_new": partial(new_board, empty=tuple(self.empty), full=tuple(
                    full if x == EMPTY else 0 for x in self.empty), full0=full,
                    cells=sum(1 << c for c, x in enumerate(self.empty) if x == EMPTY)),
                "B_copy": copy_board, "B_plans": plans,
                "B_plan": partial(square_plan.hand_plan, plans=plans,
                                  most=self.rules.max_count, longest=self.longest,
                                  top=self.vbits - 1, ranges=ranges),
                "B_one": square_plan.one, "B_run": square_plan.run,
                "B_taken": square_plan.taken}

    def _joker_constants(self) -> dict:
        """The functions a program with jokers calls (`square_jokers.py`)."""
        return {"B_jlist": partial(square_jokers.joker_plays, rules=self.rules,
                                   stride=self.stride, window=self.window,
                                   starts=self.starts),
                "B_jlay": partial(square_jokers.joker_lay, stride=self.stride)}

    def _crossp(self) -> tuple:
        """`B_cross` by the packed run on both sides of a cell (`B_lay`): 0 past it."""
        mask = (1 << self.shift) - 1
        return tuple(row[i & mask] if i & mask < len(row) else 0
                     for i in range(2 * self.side + 1)
                     for row in [self.cross[i >> self.shift]
                                 if i >> self.shift < len(self.cross) else ()])

    def _px(self) -> dict:
        """`B_px<n>[run]`: for a run of n new pieces whose line's other pieces are `run`
        (packed), the sum those n must make, or None (`B_exact`); read for lines no
        longer than the longest only."""
        bounds, mask, found = self.rules.bounds, (1 << self.shift) - 1, {}
        for n in range(2, self.rules.max_count + 1):
            found[f"B_px{n}"] = tuple(
                bounds[length][0] - (i & mask)
                if bounds[length][0] == bounds[length][1] else None
                for i in range(max(0, self.longest - n + 1) << self.shift)
                for length in [(i >> self.shift) + n])
        return found

    def _laid(self) -> tuple:
        """Per cell and value x, the start of the `placed` record of a piece of value x
        laid there, no joker: (the cell's attributes..., x, x, False, its x, its y);
        None off the board."""
        values = range(self.vbits)
        return tuple(None if a is None else tuple(a + (x, x, False) + self.topo.xy(c)
                                                  for x in values)
                     for c, a in enumerate(self.attrs))

    def _near(self, c: int) -> int:
        """The cells beside cell `c` (a bit set)."""
        return sum(1 << e for e in self._sides(c))

    def _sides(self, c: int) -> tuple:
        """The cells beside cell `c`, in order."""
        if self.empty[c] != EMPTY:
            return ()
        return tuple(e for e in (c - self.stride, c - 1, c + 1, c + self.stride)
                     if self.empty[e] == EMPTY)

    def source(self) -> str:
        """The board's functions, as Python text (`B_plays`, `B_lay` and their parts)."""
        if not self.jokers:
            return board_source(self)
        plays = define(square_jokers.plays, "B_jplays", {"PLAIN": "B_plays",
                                                          "JOKERS": "B_jlist"})
        return board_source(self) + "\n" + "\n".join(plays) + "\n\n"

    def functions(self) -> dict:
        """The board's functions and constants, as a namespace (the source run once)."""
        names = {"__builtins__": BUILTINS}
        names.update(self.constants())
        exec(compile(self.source(), "<square board>", "exec"), names)  # noqa: S102 (integers only)
        return names

    # -- the lines the program's steps read (`engine/program/steps.py`) -----------------
    def width(self, kind: str) -> int:
        return _WIDTH

    def empty_lines(self, f: dict) -> list[str]:
        """A new, empty board."""
        lines = [f"s[{f['board']}] = B_new()", f"s[{f['places']}] = ()"]
        return lines + ([f"s[{f['jokers']}] = 0"] if self.jokers else [])

    def deal_lines(self, f: dict, dealt: str) -> list[str]:
        raise NotImplementedError  # (plan: no deal to a square board)

    def listing_lines(self, f: dict, action, index: int, seat: str) -> list[str]:
        """Lines setting the local `pls` to the plays of `seat`'s hand, kept in the
        state's `places` (a code is base + the index there)."""
        first = f"not s[{f['placed_any']}]"
        plays = "B_jplays" if self.jokers else "B_plays"
        return [f"pls = s[{f['places']}] = {plays}(s[{f['board']}], hands[{seat}], {first})"]

    def direct(self, action) -> bool:
        """Whether the listing gives codes itself (always: a play's code is its index)."""
        return True

    def codes_lines(self, f: dict, index: int, target: str, base: int) -> list[str]:
        """The codes of the plays `pls`, appended to `target`."""
        return [f"{target} = k_list(range({base}, {base} + len(pls)))"]

    def place_lines(self, f: dict, code: str, piece: str) -> list[str]:
        """Lay the play of code `code` (its index in the listing; its pieces taken from the mover's hand,
        `flow._place`); its measures in the locals `lines` and `placed`. Without jokers
        a play's pieces are, for each of its values in turn, the earliest piece left in
        the hand with that value (what `B_taken` gives: a plan keeps an arrangement's
        first indices in the ranked hand, whose equal values are in hand order), so
        they are taken by value, with no ranking; `piece` is the last taken."""
        if self.jokers:
            return self._joker_place_lines(f, code, piece)
        return [
            f"pl = s[{f['places']}][{code}]", "cells, values = pl",
            "hand = hands[mover]", "for tv in values:",
            f"    for i, {piece} in enumerate(hand):",
            f"        if {piece}.value == tv:", "            del hand[i]", "            break",
            f"lines, placed = B_lay(s[{f['board']}], cells, values)",
            f"s[{f['t_placed']}] += len(cells)", f"s[{f['placed_any']}] = True",
        ]

    def _joker_place_lines(self, f: dict, code: str, piece: str) -> list[str]:
        """`place_lines` with jokers: the play may hold joker flags (`B_jlay`)."""
        return [
            f"pl = s[{f['places']}][{code}]", "cells, values = pl[0], pl[1]",
            "hand = hands[mover]", "took = B_taken(hand, pl)", f"for {piece} in took:",
            "    for i, held in enumerate(hand):",
            f"        if held is {piece}:", "            del hand[i]", "            break",
            f"lines, placed = B_lay(s[{f['board']}], cells, values)",
            f"lines, placed, s[{f['jokers']}] = B_jlay(s[{f['board']}][0], pl, took, "
            f"s[{f['jokers']}], lines, placed)",
            f"s[{f['t_placed']}] += len(cells)", f"s[{f['placed_any']}] = True",
        ]

    def names(self, f: dict) -> dict[str, str]:
        """`board.<field>` -> its text (the fields the program can read)."""
        return {"board.width": str(self.topo.width), "board.height": str(self.topo.height)}

    def move_names(self, placement: str, applied: bool) -> dict[str, str]:
        """`move.<field>` of the play laid (`PlaceMove`): its measures as `B_lay` gave
        them (no jokers: a piece's face is its value; with jokers, the faces of the
        `placed` records, and the play's joker flags counted)."""
        names = {"move.count": "len(cells)", "move.value": "sum(values)", "move.jokers": "0",
                 "move.lines": "lines", "move.placed": "placed", "move.opening": "first"}
        if self.jokers:
            names["move.value"] = "sum(map(B_val, placed))"
            names["move.jokers"] = "(pl[3].count(True) if len(pl) > 3 and pl[3] else 0)"
        else:  # (`B_lay`'s records are plain tuples: a field is read by its index)
            for record, fields in (("line", Line._fields), ("placed", self.placed._fields)):
                names.update({f":{record}.{name}": f"[{i}]" for i, name in enumerate(fields)})
        return names

    def move_arg(self, s: list, f: dict, code: int, game) -> str:
        """The text of the play of code `code` (its index in the listing) (`H8=4 H9=11`; a joker: `H9=J11`)."""
        play = s[f["places"]][code]
        labels = self.topo.labels
        if len(play) > 3 and play[3]:  # (joker flags)
            return " ".join([f"{labels[c]}={'J' if j else ''}{x}"
                             for c, x, j in zip(play[0], play[1], play[3])])
        return " ".join([f"{labels[c]}={x}" for c, x in zip(play[0], play[1])])

    def values(self, board) -> dict:
        """The board's fields for the interpreter's `board` (`Program.from_state`): its
        cells, each empty cell's masks and their groups, the anchors and filled cells
        worked out from them (the listing: `relist`)."""
        v, stride = list(board.v), self.stride
        masks = ([0] * len(v), [0] * len(v))
        groups: tuple[dict, dict] = ({}, {})
        for c, x in enumerate(v):
            if x != EMPTY:
                continue
            for k, d in enumerate((1, stride)):
                m = masks[k][c] = self._mask(v, c, d)
                groups[k][m] = groups[k].get(m, 0) | 1 << c
        filled = sum(1 << c for c, x in enumerate(v) if x >= 0)
        near = 0
        for c, x in enumerate(v):
            if x >= 0:
                near |= self._near(c)
        near &= ~filled
        anchors = sum(1 << c for c in range(len(v)) if near >> c & 1 and v[c] == EMPTY)
        near = [anchors >> c & 1 for c in range(len(v))]
        runs = [self._runs(v, d) for d in (-1, 1, -stride, stride)]
        found = {"board": [v, masks[0], masks[1], anchors, filled, groups[0], groups[1], near,
                           *runs], "places": ()}
        if self.jokers:
            found["jokers"] = sum(1 << c for c, joker in enumerate(board.jk) if joker)
        return found

    def _runs(self, v: list, d: int):
        """Per cell, the run of pieces beside it one step `d` on (none on a filled cell or
        off the board), packed as `B_lay` keeps it (`B_new`'s lists)."""
        found = [0] * len(v)
        for c, x in enumerate(v):
            if x == EMPTY:
                n = total = 0
                i = c + d
                while v[i] >= 0:
                    n, total, i = n + 1, total + v[i], i + d
                found[c] = n << self.shift | total
        return found

    def _mask(self, v: list, c: int, d: int) -> int:
        """The mask of the empty cell `c` along `d` (as `B_lay` sets it)."""
        n = total = 0
        for step in (-d, d):
            i = c + step
            while v[i] >= 0:
                n, total, i = n + 1, total + v[i], i + step
        row = self.cross[n] if n < len(self.cross) else ()
        return row[total] if total < len(row) else 0

    def relist(self, s: list, f: dict, module: dict, hand: list) -> None:
        """The position's plays (`Program.from_state`), which the codes index."""
        plays = module["B_jplays" if self.jokers else "B_plays"]
        s[f["places"]] = plays(s[f["board"]], hand, not s[f["placed_any"]])

    def copy_lines(self, f: dict) -> list[str]:
        """The board's lists copied into the copy `c` of `s` (the listing is shared)."""
        return [f"c[{f['board']}] = B_copy(s[{f['board']}])"]


def _cross_table(rules, longest: int, top: int) -> tuple:
    """`B_cross[n][total]`: the values (a bit set, 0: none) a new piece may take joining
    `n` pieces summing to `total` in one direction (`PlaceRules.cross`), for every run
    the board can hold on both sides of a cell."""
    rows = []
    for n in range(2 * longest + 1):
        row = []
        for total in range(top * n + 1):
            found = rules.cross(n, total)
            row.append(0 if found is None else found[3])
        rows.append(tuple(row))
    return tuple(rows)
