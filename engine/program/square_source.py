"""The text of the `square` board's functions in a program (`square.py` says what
they do): the listing's frame and laying from their templates (`square_lay.py`), and
the walks from a play's first cell, written out for the ruleset's numbers (integers
only, never author text)."""

from __future__ import annotations

from string import Template

from engine.program import square_lay as lay
from engine.program.source import written_fields
from engine.program.square_firsts import BOUNDED, firsts
from engine.program.template import Code, Inline, define

#: the program's tables and functions the templates read (`B.bit`: `B_bit`, ...)
TABLES = {name: f"B_{name}" for name in (
    "bit", "near", "crossp", "laid", "attrs", "xy", "record", "Line", "Placed", "plans",
    "missing", "plan", "starts", "start_bits", "one", "touching", "covering", "touching2",
    "covering2")}

#: the walks' loop over their first cells, lowest first. The cells are taken off the
#: bit set highest first (one `^` of a kept bit a cell, no `x & -x`), then walked in
#: reverse
_CELLS = """    cs = []
    while firsts:
        c = firsts.bit_length() - 1
        firsts ^= B_bit[c]
        cs.append(c)
    cs.reverse()
    for c in cs:"""
#: the loop with the run of pieces just before each first cell read from the board
#: (`pb`, packed: `B_lay` keeps it)
PACKED_CELLS = _CELLS + """
        pb = pre[c]"""
_ALONG_HEAD = Template('''
def $name(out, v, cross, fit, filled, near, need, anc, mask, arrs, runs, sums, maxk, d,
        e, pre, post):
    """The plays of two or more pieces $what along step `d` (`e` the step across, `cross`
    the masks across, `fit` the empty cells whose mask across takes a value of the
    hand, `near` those of them a play must cover one of; `pre` and `post` the runs of
    pieces kept before and after each empty cell along `d`) by their first cell
    (`square_general.lines`), the walk from each written out for the window: a cell
    filled, empty or off the board at each step."""
    # The first cells, for all cells at once (bit sets: cell c + j d is bit c shifted
    # j d): a first cell fits, and so does a second new cell within the window (filled
    # cells passed over), making a run not too long; a cell of `near` lies within the
    # window, reached through cells that are filled or fit (for a play of at most k
    # pieces, within k cells: before a piece inside a play, a new cell touches it).
    $runs
    $firsts
$first_cell
        iv1 = cross[c]''')


def board_source(code) -> str:
    """The board's functions for `code`'s numbers: the listing's frame and laying
    (`square_lay.plays`, `lay`), then the walks."""
    rules = code.rules
    lines = define(lay.plays, "B_plays", dict(
        B=TABLES, MOST=rules.max_count, FEWEST=rules.min_count, KEY=Code(_hand_key(code.dealt)),
        SINGLES=rules.min_count <= 1, ONES=Inline(lay.plays_singles, {"B": TABLES}),
        LINES=rules.max_count >= 2 and code.window >= 2, WALKS=Inline(lay.plays_walks, dict(
            B=TABLES, STRIDE=code.stride, SHORT=len(_caps(code)) > 1))))
    ends = Inline(lay.run_ends, {"B": TABLES})
    lines += [""] + define(lay.lay, "B_lay", dict(
        CELLS=Inline(lay.lay_cells, {"B": TABLES, "STRIDE": code.stride}),
        LINES=Inline(lay.lay_lines, {"B": TABLES, "STRIDE": code.stride, "SHIFT": code.shift,
                                     "MOST": rules.max_count, "NAMED": code.jokers,
                                     "ENDS": ends}),
        RECORDS=Inline(lay.lay_records, {"B": TABLES, "NAMED": code.jokers,
                                         "LAID": code.laid_table})))
    for suffix, cap in _caps(code):
        code.cap = cap
        test = firsts(code, cap)
        for name, covering in (("B_touching", False), ("B_covering", True)):
            code.covering = covering
            lines.append(_ALONG_HEAD.substitute(
                name=name + suffix, runs=_runs(cap), first_cell=PACKED_CELLS, **test,
                what="covering a cell of `need`" if covering else "touching the board"))
            _walk(code, lines, 2, 1, (), 2)
    return "\n" + "\n".join(lines) + "\n"


def _caps(code) -> list[tuple[str, int]]:
    """The walks written (a name's suffix, the most new pieces they lay): for plays of
    up to the most pieces, and when that is more than two, again for plays of two
    (most hands: a listing then reads no test for the longer plays)."""
    most = code.rules.max_count
    return [("", most)] + ([("2", 2)] if most > 2 and code.window > 2 else [])


def _hand_key(size: int) -> str:
    """The text of `B_plays`' key: the values of the `n` pieces of `hand` in order."""
    return written_fields("hand", "value", size, "tuple(map(B_val, hand))", length="n")


def _walk(code, out: list, span: int, n: int, filled: tuple, pad: int) -> None:
    """The walk's step `span` (its cell `s<span>`) with `n` new cells so far and the
    steps `filled` among them holding pieces, written out (`square_general.along_from`)."""
    if span > code.window:
        return
    t = "    " * pad
    prev = "c" if span == 2 else f"s{span - 1}"
    # (the cell after a first cell, when empty, is known to fit and the run it makes
    # not too long: the first cells' test says so, `_second`'s term for one step)
    known = span == 2
    fits = "True:  # (known: `_second`)" if known else f"iv{n + 1} & mask:"
    out += [f"{t}s{span} = {prev} + d", f"{t}x{span} = v[s{span}]", f"{t}if x{span} == -1:",
            f"{t}    iv{n + 1} = cross[s{span}]", f"{t}    if {fits}"]
    _new_cell(code, out, span, n + 1, filled, pad + 2,
              known and code.longest - 1 <= BOUNDED * code.window + 2)
    if span < code.window:  # (a piece there: passed over)
        out.append(f"{t}elif x{span} >= 0:")
        _walk(code, out, span + 1, n, filled + (span,), pad + 1)


def _runs(most: int) -> str:
    """The plan's kept runs, one dict per count of new pieces."""
    return "\n    ".join(f"runs{k} = runs[{k}]\n    sums{k} = sums[{k}]"
                         for k in range(2, most + 1)) or "pass"


def _key(n: int) -> str:
    """The key of a run of `n` new cells in the plan's `runs<n>`: the hand's values
    each cell's mask across lets through, and the line's other pieces (`run`: their
    count, which gives the line's length, and sum, packed; a tuple: a key packed into
    one integer outgrows a machine word, and costs more)."""
    return "(" + ", ".join([f"iv{k} & mask" for k in range(1, n + 1)] + ["run"]) + ")"


def _reaches(code, span: int, filled: tuple) -> str:
    """Whether the run of new cells up to step `span` may be played: it covers a
    needed cell (a first play), or touches the board (`along_from`'s `touching`)."""
    cells = ["c"] + [f"s{s}" for s in range(2, span + 1) if s not in filled]
    if code.covering:
        return " or ".join(f"{cell} in need" for cell in cells)
    if filled:  # (a piece inside the run)
        return "True"
    return " or ".join(f"anc[{cell}]" for cell in cells)


def _new_cell(code, out: list, span: int, n: int, filled: tuple,
              pad: int, short: bool = False) -> None:
    """The walk's new cell at step `span`, the `n`-th: the candidate run it closes,
    then the steps after it (`short`: the run is known to be no longer than a line
    may be, `_second`'s bound)."""
    t, t2, rules, shift = "    " * pad, "    " * (pad + 1), code.rules, code.shift
    # (the line's pieces but the new ones, packed: the kept runs before the first cell
    # and after this one, and the pieces passed over; its length is their count and n)
    bound = ("True:  # (known: `_second`)" if short else
             f"run < {max(0, code.longest - n + 1) << shift}:  # (the length at most {code.longest})")
    run = " + ".join([f"pb + post[s{span}]"] + [f"x{s}" for s in filled] +
                     ([str(len(filled) << shift)] if filled else []))
    out += [f"{t}run = {run}", f"{t}if {bound}"]
    if n >= max(2, rules.min_count):
        cells = ", ".join(["c"] + [f"s{s}" for s in range(2, span + 1) if s not in filled])
        test = " and ".join(f"bits[{k}] & iv{k + 1}" for k in range(n))
        out += [f"{t2}if {_reaches(code, span, filled)}:",
                f"{t2}    lo = B_px{n}[run]",
                f"{t2}    if lo is not None:  # (a sum to make: the arrangements of that sum)",
                f"{t2}        for vals, bits in sums{n}.get(lo, ()):",
                f"{t2}            if {test}:",
                f"{t2}                out.append((({cells}), vals))",
                f"{t2}    else:",
                f"{t2}        key = {_key(n)}",
                f"{t2}        try:",
                f"{t2}            found = runs{n}[key]",
                f"{t2}        except B_missing:  # (the bounds read only to work it out)",
                f"{t2}            lo, hi = B_range[(run >> {shift}) + {n}][run & {(1 << shift) - 1}]",
                f"{t2}            found = B_run(runs{n}, key, arrs[{n}], "
                f"({', '.join(f'iv{k + 1}' for k in range(n))}), lo, hi)",
                f"{t2}        if found:",
                f"{t2}            at = ({cells})",
                f"{t2}            for vals in found:",
                f"{t2}                out.append((at, vals))"]
    if n < code.cap and span < code.window:
        room = max(0, code.longest - span) << shift  # (plen at most longest - span - 1)
        out.append(f"{t2}if maxk > {n} and pb < {room}:")
        _walk(code, out, span + 1, n, filled, pad + 2)
    else:
        out.append(f"{t2}pass")
