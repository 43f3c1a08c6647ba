"""The `square` board kind's part of a generated program (engine/topology/square.py).

The board is four fields of the program's state: `cells`, the value of each cell of the
flat padded grid (`SquareBoard.v`: -1 empty, -2 a sentinel), and for each empty cell,
per direction, the values a new piece there may take given the run it would join that
way, as a bit set (`across`: the row's run, `down`: the column's; `SquareBoard.cross`),
and `anchors`, the empty cells beside a piece. A play is a tuple (cells in line order,
values, pieces).

The listing (`B_plays`) finds what `square_moves.find_plays` finds, in its order:
single pieces by cell, then plays of two or more pieces along rows, then columns, by
their first cell, each run of new cells as the walk meets it, and for each the
arrangements of the ranked hand (its pieces by value, equal values in hand order) in
order. Laying (`B_lay`) updates the masks at the ends of the runs through the new
pieces, as the hand-written reference does, and returns the play's measures: its
`lines` (length, sum, face sum, new pieces, jokers), in `SquarePlacement._measure`'s
order, and per piece the lengths of the lines through it (`lines_through`).

The functions are written out for the ruleset's numbers (the board's stride, the
window, the longest line, the sum bounds by length, fewest and most pieces), from
integers only. Jokers are not covered yet (`NotCompiled`).
"""

from __future__ import annotations

from collections import namedtuple
from operator import attrgetter, itemgetter
from string import Template

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
    def why_not(rules, jokers: bool) -> str | None:
        """What of these place rules the board's code does not cover, or None."""
        if jokers:
            return "jokers on a square board"
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
        reason = cls.why_not(action.rules, jokers)
        if reason is None and action.guard is not None:
            reason = f"a condition on the square board's place action `{action.name}`"
        if reason is not None:
            raise ValueError(reason)
        return cls(model.topology, action.rules, tuple(p.attrs["value"] for p in pieces))

    def __init__(self, topology, rules, values: tuple):
        """`rules`: the place action's `PlaceRules` (covered: see `why_not`); `values`:
        each piece's value, by uid."""
        self.topo, self.rules, self.piece_values = topology, rules, values
        self.stride = topology.stride
        self.window = min(rules.window, max(topology.width, topology.height))
        self.longest = min(rules.max_length, max(topology.width, topology.height) + 1)
        top = max(values, default=0)
        names = tuple(topology.defaults)  # (a `placed` record's fields: `_measure`)
        self.placed = namedtuple("Placed", names + ("value", "declared", "joker", "x", "y",
                                                     "max_line", "lines_through"))
        self.attrs = [tuple(a[k] for k in names) if a is not None else None
                      for a in topology.attrs]
        self.cross = _cross_table(rules, self.longest, top)
        self.empty = [EMPTY if a is not None else EDGE for a in topology.attrs]
        self.starts = tuple(topology.starts)

    # -- the program's constants and text --------------------------------------------
    def constants(self) -> dict:
        """The board's constants (`B_*`) the generated lines read."""
        full = self.cross[0][0]
        return {"B_cross": self.cross, "B_empty": tuple(self.empty),
                "B_full": tuple(full if x == EMPTY else 0 for x in self.empty),
                "B_value": self.piece_values, "B_starts": self.starts,
                "B_bounds": tuple(self.rules.bounds[:self.longest + 1]),
                "B_labels": tuple(self.topo.labels), "B_plans": {},
                "B_take": itemgetter, "B_val": attrgetter("value"), "B_Line": Line,
                "B_Placed": self.placed, "B_attrs": tuple(self.attrs),
                "B_xy": tuple(map(self.topo.xy, range(len(self.empty)))),
                "B_full0": full, "B_cells": sum(1 << c for c, x in enumerate(self.empty)
                                                 if x == EMPTY),
                "B_near": tuple(self._near(c) for c in range(len(self.empty))),
                "B_start_bits": sum(1 << c for c in self.starts)}

    def _near(self, c: int) -> int:
        """The cells beside cell `c` (a bit set)."""
        if self.empty[c] != EMPTY:
            return 0
        return sum(1 << e for e in (c - self.stride, c - 1, c + 1, c + self.stride)
                   if self.empty[e] == EMPTY)

    def source(self) -> str:
        """The board's functions, as Python text (`B_plays`, `B_lay` and their parts)."""
        return _source(self)

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
        return [f"s[{f['board']}] = B_new()", f"s[{f['places']}] = ()"]

    def deal_lines(self, f: dict, dealt: str) -> list[str]:
        raise NotImplementedError  # (plan: no deal to a square board)

    def listing_lines(self, f: dict, action, index: int, seat: str) -> list[str]:
        """Lines setting the local `pls` to the plays of `seat`'s hand, kept in the
        state's `places` (a code is base + the index there)."""
        first = f"not s[{f['placed_any']}]"
        return [f"pls = s[{f['places']}] = B_plays(s[{f['board']}], hands[{seat}], {first})"]

    def direct(self, action) -> bool:
        """Whether the listing gives codes itself (always: a play's code is its index)."""
        return True

    def codes_lines(self, index: int, target: str, base: int) -> list[str]:
        """The codes of the plays `pls`, appended to `target`."""
        return [f"{target} = k_list(range({base}, {base} + len(pls)))"]

    def place_lines(self, f: dict, index: str, piece: str) -> list[str]:
        """Lay the play of code `index` (its pieces taken from the mover's hand by
        identity, `flow._place`); its measures in the locals `lines` and `placed`."""
        return [
            f"pl = s[{f['places']}][{index}]", "cells, values, taken = pl",
            "hand = hands[mover]", f"for {piece} in taken:",
            "    for i, held in enumerate(hand):",
            f"        if held is {piece}:", "            del hand[i]", "            break",
            f"lines, placed = B_lay(s[{f['board']}], cells, values, taken)",
            f"s[{f['t_placed']}] += len(cells)", f"s[{f['placed_any']}] = True",
        ]

    def names(self, f: dict) -> dict[str, str]:
        """`board.<field>` -> its text (the fields the program can read)."""
        return {"board.width": str(self.topo.width), "board.height": str(self.topo.height)}

    def move_names(self, placement: str, applied: bool) -> dict[str, str]:
        """`move.<field>` of the play laid (`PlaceMove`): its measures as `B_lay` gave
        them (no jokers: a piece's face is its value)."""
        return {"move.count": "len(cells)", "move.value": "sum(values)", "move.jokers": "0",
                "move.lines": "lines", "move.placed": "placed", "move.opening": "first"}

    def move_arg(self, s: list, f: dict, index: int, game) -> str:
        """The text of the play listed at `index` (`H8=4 H9=11`)."""
        cells, values, _ = s[f["places"]][index]
        labels = self.topo.labels
        return " ".join([f"{labels[c]}={x}" for c, x in zip(cells, values)])

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
        return {"board": [v, masks[0], masks[1], anchors, filled, groups[0], groups[1]],
                "places": ()}

    def _mask(self, v: list, c: int, d: int) -> int:
        """`B_end`'s mask of the empty cell `c` along `d`."""
        n = total = 0
        for step in (-d, d):
            i = c + step
            while v[i] >= 0:
                n, total, i = n + 1, total + v[i], i + step
        row = self.cross[n] if n < len(self.cross) else ()
        return row[total] if total < len(row) else 0

    def relist(self, s: list, f: dict, module: dict, hand: list) -> None:
        """The position's plays (`Program.from_state`), which the codes index."""
        s[f["places"]] = module["B_plays"](s[f["board"]], hand, not s[f["placed_any"]])

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


# -- the text of the functions -----------------------------------------------------------
#: the hand plan, the listing's frame and laying: the same text for every ruleset but
#: for the numbers put in (`$name`, integers and booleans)
_FIXED = Template('''
def B_new():
    """An empty board: [cells, across, down, anchors, filled, by_across, by_down]."""
    return [list(B_empty), list(B_full), list(B_full), 0, 0, {B_full0: B_cells},
            {B_full0: B_cells}]

def B_copy(b):
    """An independent copy of board `b`."""
    return [b[0][:], b[1][:], b[2][:], b[3], b[4], dict(b[5]), dict(b[6])]

def B_plan(values):
    """The hand plan of ranked `values` (`square_hands.HandPlan`): (the bit set of its
    values, per count k the distinct arrangements of k pieces in order, each as (values,
    their bits, the pieces' indices in the ranked hand, sum, what takes the pieces))."""
    mask = 0
    for x in values:
        mask |= 1 << x
    first = tuple([values.index(x) for x in values])
    arrs = [[] for _ in range(len(values) + 1)]
    for k in range(1, min(len(values), $most) + 1):
        seen = set()
        for idx in B_orders(len(values), k):
            key = tuple([first[i] for i in idx])
            if key not in seen:
                seen.add(key)
                vals = tuple([values[i] for i in idx])
                bits = tuple([1 << x for x in vals])
                arrs[k].append((vals, bits, idx, sum(vals), B_take(*idx)))
    if len(B_plans) > 20000:
        B_plans.clear()
    plan = B_plans[values] = (mask, arrs)
    return plan

def B_orders(n, k):
    """The index tuples of k of n items, in `itertools.permutations` order."""
    if k == 0:
        return [()]
    return [(i,) + rest for i in range(n) for rest in B_orders(n, k - 1) if i not in rest]

def B_fits(groups, mask):
    """The empty cells (a bit set) whose mask in `groups` takes a value of `mask`."""
    fit = 0
    for m, cells in groups.items():
        if m & mask:
            fit |= cells
    return fit

def B_plays(b, hand, first):
    """The legal plays of `hand` (pieces), as `square_moves.find_plays` lists them."""
    maxk = len(hand) if len(hand) < $most else $most
    if not hand or maxk < $fewest:
        return []
    ranked = sorted(hand, key=B_val)  # (stable: equal values in hand order)
    values = tuple(map(B_val, ranked))
    mask, arrs = B_plans.get(values) or B_plan(values)
    v, across, down, anchors, filled, by_across, by_down = b
    fit_a = B_fits(by_across, mask)
    fit_d = B_fits(by_down, mask)
    out = []
    if first:
        need = set([c for c in B_starts if v[c] == -1])
        near = B_start_bits & ~filled
    else:
        need = None
        near = anchors
    if $singles:
        x = near & fit_a & fit_d
        while x:
            low = x & -x
            x ^= low
            c = low.bit_length() - 1
            m = across[c] & down[c] & mask
            if m:
                for vals, bits, idx, _, _ in arrs[1]:
                    if m & bits[0]:
                        out.append(((c,), vals, (ranked[idx[0]],)))
    if $lines and maxk >= 2:
        along = B_covering if first else B_touching
        along(out, v, down, fit_d, filled, near & fit_d, need, mask, arrs, maxk, ranked,
                1, $stride)
        along(out, v, across, fit_a, filled, near & fit_a, need, mask, arrs, maxk, ranked,
                $stride, 1)
    return out

def B_lay(b, cells, values, pieces):
    """Lay the play on board `b`; its `lines` and `placed` records, each cell's row
    before its column, as `SquarePlacement._measure` gives them."""
    v, across, down, anchors, filled, by_across, by_down = b
    for c, x in zip(cells, values):
        v[c] = x
        bit = 1 << c
        filled |= bit
        anchors |= B_near[c]
        B_regroup(by_across, across[c], None, bit)
        B_regroup(by_down, down[c], None, bit)
    b[3] = anchors & ~filled
    b[4] = filled
    lines = []
    through = [[] for _ in cells]
    seen = set()
    for c in cells:
        for d, masks, groups in ((1, across, by_across), ($stride, down, by_down)):
            a = c
            while v[a - d] >= 0:
                a -= d
            if (d, a) in seen:
                continue
            seen.add((d, a))
            e, n, total = a, 0, 0
            while v[e] >= 0:
                n += 1
                total += v[e]
                e += d
            if n >= 2:
                fresh = 0
                for k, p in enumerate(cells):
                    if a <= p < e and (p - a) % d == 0:
                        through[k].append(n)
                        fresh += 1
                lines.append(B_Line(n, total, total, fresh, 0))
            B_end(v, masks, groups, a - d, d)
            B_end(v, masks, groups, e, d)
    placed = []
    for c, x, p, t in zip(cells, values, pieces, through):
        cx, cy = B_xy[c]
        placed.append(B_Placed(*B_attrs[c], p.value, x, False, cx, cy, max(t) if t else 1, t))
    return lines, placed

def B_regroup(groups, old, new, bit):
    """Move the cell of `bit` from the group of mask `old` to that of `new` (None: none)."""
    left = groups[old] ^ bit
    if left:
        groups[old] = left
    else:
        del groups[old]
    if new is not None:
        groups[new] = groups.get(new, 0) | bit

def B_end(v, masks, groups, c, d):
    """The mask along `d` of the empty cell `c` at the end of a run."""
    if v[c] != -1:
        return
    n = total = 0
    i = c - d
    while v[i] >= 0:
        n += 1
        total += v[i]
        i -= d
    i = c + d
    while v[i] >= 0:
        n += 1
        total += v[i]
        i += d
    row = B_cross[n] if n < len(B_cross) else ()
    new = row[total] if total < len(row) else 0
    old = masks[c]
    if new != old:
        masks[c] = new
        B_regroup(groups, old, new, 1 << c)
''')

_ALONG_HEAD = Template('''
def $name(out, v, cross, fit, filled, near, need, mask, arrs, maxk, ranked, d, e):
    """The plays of two or more pieces $what along step `d` (`e` the step across, `cross`
    the masks across, `fit` the empty cells whose mask across takes a value of the
    hand, `near` those of them a play must cover one of) by their first cell
    (`square_moves._along`), the walk from each written out for the window: a cell
    filled, empty or off the board at each step."""
    # The first cells, for all cells at once (bit sets: cell c + j d is bit c shifted
    # j d): a first cell fits, and so does a second new cell within the window (filled
    # cells passed over), making a run not too long; a cell of `near` lies within the
    # window, reached through cells that are filled or fit.
    go = fit | filled
    firsts = fit & ($second) & ($near)
    while firsts:
        low = firsts & -firsts
        firsts ^= low
        c = low.bit_length() - 1
        plen = psum = 0
        i = c - d
        while v[i] >= 0:
            plen += 1
            psum += v[i]
            i -= d
        iv1 = cross[c]''')


def _source(code: SquareCode) -> str:
    """The board's functions for `code`'s numbers."""
    rules = code.rules
    text = _FIXED.substitute(most=rules.max_count, fewest=rules.min_count,
                             singles=rules.min_count <= 1, stride=code.stride,
                             lines=rules.max_count >= 2 and code.window >= 2)
    lines = []
    for name, covering in (("B_touching", False), ("B_covering", True)):
        code.covering = covering
        lines.append(_ALONG_HEAD.substitute(
            name=name, second=_second(code.window, code.longest), near=_near(code.window),
            what="covering a cell of `need`" if covering else "touching the board"))
        _walk(code, lines, 2, 1, (), 2)
    return text + "\n".join(lines) + "\n"


def _at(name: str, j: int) -> str:
    """The bit set `name` read at cell c + j d (j < 0: before c)."""
    if j == 0:
        return name
    return f"({name} >> {j} * d)" if j > 0 else f"({name} << {-j} * d)"


def _second(window: int, longest: int) -> str:
    """Whether a second new cell that fits follows c within the window, j steps on
    (the cells between filled), with the run it makes no longer than `longest`: the
    pieces just before c (plen) and just after it (sn) fewer than longest - j."""
    terms = []
    for j in range(1, window):
        if j + 1 > longest:
            break
        parts = [_at("filled", i) for i in range(1, j)] + [_at("fit", j)]
        room = longest - j  # (plen + sn must stay under it)
        if room <= 2 * window + 2:  # (a looser bound is left to the walk)
            long = [" & ".join([_at("filled", -i) for i in range(1, k + 1)] +
                               [_at("filled", j + i) for i in range(1, room - k + 1)])
                    for k in range(room + 1)]
            parts.append("~(" + " | ".join(long) + ")")
        terms.append("(" + " & ".join(parts) + ")")
    return " | ".join(terms) or "0"


def _near(window: int) -> str:
    """Whether a cell of `near` lies within the window from c (through `go` cells)."""
    terms = [" & ".join([_at("go", i) for i in range(1, j)] + [_at("near", j)])
             for j in range(window)]
    return " | ".join(terms)


def _walk(code: SquareCode, out: list, span: int, n: int, filled: tuple, pad: int) -> None:
    """The walk's step `span` (its cell `s<span>`) with `n` new cells so far and the
    steps `filled` among them holding pieces, written out (`square_moves._along_from`)."""
    if span > code.window:
        return
    t = "    " * pad
    prev = "c" if span == 2 else f"s{span - 1}"
    out += [f"{t}s{span} = {prev} + d", f"{t}x{span} = v[s{span}]", f"{t}if x{span} >= 0:"]
    if span < code.window:
        _walk(code, out, span + 1, n, filled + (span,), pad + 1)
    else:
        out.append(f"{t}    pass")
    out += [f"{t}elif x{span} == -1:", f"{t}    iv{n + 1} = cross[s{span}]",
            f"{t}    if iv{n + 1} & mask:"]
    _new_cell(code, out, span, n + 1, filled, pad + 2)


def _reaches(code: SquareCode, span: int, filled: tuple) -> str:
    """Whether the run of new cells up to step `span` may be played: it covers a
    needed cell (a first play), or touches the board (`_along_from`'s `touching`)."""
    cells = ["c"] + [f"s{s}" for s in range(2, span + 1) if s not in filled]
    if code.covering:
        return " or ".join(f"{cell} in need" for cell in cells)
    if filled:  # (a piece inside the run)
        return "True"
    return " or ".join(["sn > 0", "plen > 0"] + [f"v[{cell} - e] >= 0 or v[{cell} + e] >= 0"
                                              for cell in cells])


def _new_cell(code: SquareCode, out: list, span: int, n: int, filled: tuple,
              pad: int) -> None:
    """The walk's new cell at step `span`, the `n`-th: the candidate run it closes,
    then the steps after it."""
    t, t2, rules = "    " * pad, "    " * (pad + 1), code.rules
    out += [f"{t}sn = ss = 0", f"{t}j = s{span} + d", f"{t}while v[j] >= 0:",
            f"{t}    sn += 1", f"{t}    ss += v[j]", f"{t}    j += d",
            f"{t}length = plen + {span} + sn", f"{t}if length <= {code.longest}:"]
    if n >= max(2, rules.min_count):
        cells = ", ".join(["c"] + [f"s{s}" for s in range(2, span + 1) if s not in filled])
        test = " and ".join(f"bits[{k}] & iv{k + 1}" for k in range(n))
        base = " + ".join(["psum", "ss"] + [f"x{s}" for s in filled])
        out += [f"{t2}if {_reaches(code, span, filled)}:",
                f"{t2}    lo, hi = B_bounds[length]", f"{t2}    base = {base}",
                f"{t2}    lo -= base", f"{t2}    hi -= base", f"{t2}    at = ({cells})",
                f"{t2}    for vals, bits, _, total, take in arrs[{n}]:",
                f"{t2}        if lo <= total <= hi and {test}:",
                f"{t2}            out.append((at, vals, take(ranked)))"]
    if n < rules.max_count and span < code.window:
        out.append(f"{t2}if maxk > {n}:")
        _walk(code, out, span + 1, n, filled, pad + 2)
    else:
        out.append(f"{t2}pass")
