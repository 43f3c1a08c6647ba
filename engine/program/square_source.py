"""The text of the `square` board's functions in a program (`square.py` says what
they do): the hand plan, the listing, laying, and the walk from a play's first cell,
written out for the ruleset's numbers (integers only, never author text)."""

from __future__ import annotations

from string import Template

from engine.program.source import written_fields
from engine.program.square_firsts import BOUNDED, firsts

# -- the text of the functions -----------------------------------------------------------
#: the hand plan, the listing's frame and laying: the same text for every ruleset but
#: for the numbers put in (`$name`, integers and booleans)
_FIXED = Template('''
def B_new():
    """An empty board: [cells, across, down, anchors, filled, by_across, by_down, per
    cell whether it is an anchor (1 or 0, read by the walks), and per empty cell the
    run of pieces just before it and just after it along a row, then along a column,
    each packed as one integer (count << $shift | sum: `B_lay` keeps them)]."""
    n = len(B_empty)
    return [list(B_empty), list(B_full), list(B_full), 0, 0, {B_full0: B_cells},
            {B_full0: B_cells}, [0] * n, [0] * n, [0] * n, [0] * n, [0] * n]

def B_copy(b):
    """An independent copy of board `b`."""
    return [b[0][:], b[1][:], b[2][:], b[3], b[4], dict(b[5]), dict(b[6]), b[7][:],
            b[8][:], b[9][:], b[10][:], b[11][:]]

def B_plan(key):
    """The hand plan of the hand whose values in hand order are `key`, kept under `key`
    (and under the ranked values, the plan worked out once for every order of them):
    the plan of the ranked values (`square_hands.HandPlan`): (the bit set of
    its values, per count k the distinct arrangements of k pieces in order, each as
    (values, their bits, the pieces' indices in the ranked hand, sum), and the plays
    worked out from it so far: per mask of a single cell the arrangements of one piece
    (`B_one`), per count the arrangements a run takes (`B_run`); per count the
    arrangements by their sum, each as (values, bits); and the most pieces of
    it a line can take (`B_most`))."""
    if len(B_plans) > 20000:
        B_plans.clear()
    values = tuple(sorted(key))
    plan = B_plans.get(values)
    if plan is None:
        plan = B_plans[values] = B_work_plan(values)
    B_plans[key] = plan
    return plan

def B_work_plan(values):
    """The plan of the ranked `values` (`B_plan`)."""
    mask = 0
    for x in values:
        mask |= 1 << x
    first = tuple([values.index(x) for x in values])
    arrs = [[] for _ in range($most + 1)]
    for k in range(1, min(len(values), $most) + 1):
        seen = set()
        for idx in B_orders(range(len(values)), k):
            key = tuple([first[i] for i in idx])
            if key not in seen:
                seen.add(key)
                vals = tuple([values[i] for i in idx])
                bits = tuple([1 << x for x in vals])
                arrs[k].append((vals, bits, idx, sum(vals)))
    sums = [{} for _ in range($most + 1)]
    for k, found in enumerate(arrs):
        for vals, bits, idx, total in found:
            sums[k].setdefault(total, []).append((vals, bits))
    sums = [{total: tuple(found) for total, found in by.items()} for by in sums]
    return (mask, arrs, {}, [{} for _ in range($most + 1)], sums, B_most(arrs))

def B_most(arrs):
    """The most new pieces of the arrangements `arrs` (per count) that some line may
    take, by its sum bounds alone (1: no run of two or more): for k pieces, a line of
    length k to $longest whose other pieces sum to at most $top each."""
    most = 1
    for k in range(2, len(arrs)):
        totals = set([total for _, _, _, total in arrs[k]])
        for length in range(k, $longest + 1):
            for lo, hi in B_range[length][:(length - k) * $top + 1]:
                for total in totals:
                    if lo <= total <= hi:
                        most = k
    return most

def B_one(ones, m, arrs):
    """The arrangements (their values) of one piece on a cell whose masks let through
    the values `m`, last first, kept in `ones`."""
    found = ones[m] = tuple([vals for vals, bits, idx, _ in arrs if m & bits[0]][::-1])
    return found

def B_taken(hand, pl):
    """The pieces of `hand` the play `pl` takes: with its pieces' indices in the ranked
    hand (by value, equal values in hand order; a play of `B_jplays` with a joker),
    those; else (`B_plays`: cells and values) for each of its values the earliest
    piece left with it, which is what the plan's indices give."""
    if len(pl) > 2:
        ranked = sorted(hand, key=B_val)
        return [ranked[i] for i in pl[2]]
    left, took = list(hand), []
    for x in pl[1]:
        for i, piece in enumerate(left):
            if piece.value == x:
                took.append(left.pop(i))
                break
    return took

def B_run(runs, key, arrs, ivs, lo, hi):
    """The arrangements (their values) that a run of
    new cells whose masks across are `ivs` lets through with a sum from `lo` to `hi`,
    kept in `runs` under `key` (the masks, the line's length and its pieces' sum), as
    a tuple (kept ones are tuples: one block each, and the same empty one)."""
    found = []
    for vals, bits, idx, total in arrs:
        if lo <= total <= hi:
            for bit, iv in zip(bits, ivs):
                if not bit & iv:
                    break
            else:
                found.append(vals)
    found = runs[key] = tuple(found)
    return found

def B_plays(b, hand, first):
    """The legal plays of `hand` (pieces), as `square_moves.find_plays` lists them."""
    n = len(hand)
    maxk = n if n < $most else $most
    if not hand or maxk < $fewest:
        return []
    # (the hand's values in hand order: no sort, `B_plan`; written out for the size
    # dealt, three attribute reads costing less than `map` with `attrgetter`)
    key = $key
    try:  # (a subscript and no call: a miss, rare once warm, raises)
        mask, arrs, ones, runs, sums, most = B_plans[key]
    except B_missing:
        mask, arrs, ones, runs, sums, most = B_plan(key)
    v, across, down, anchors, filled, by_across, by_down, anc, ba, aa, bd, ad = b
    fit_a = fit_d = 0  # (the empty cells whose mask takes a value of the hand; by the
    for m in by_across:  # keys, a group read only when it fits: cheaper than `items()`)
        if m & mask:
            fit_a |= by_across[m]
    for m in by_down:
        if m & mask:
            fit_d |= by_down[m]
    out = []
    if first:
        need = set([c for c in B_starts if v[c] == -1])
        near = B_start_bits & ~filled
    else:
        need = None
        near = anchors
    if $singles:  # (the last cell first, each cell's plays last first: then reversed)
        x = near & fit_a & fit_d
        arr = arrs[1]
        while x:
            c = x.bit_length() - 1
            x ^= B_bit[c]
            m = across[c] & down[c] & mask
            if m:
                try:
                    found = ones[m]
                except B_missing:
                    found = B_one(ones, m, arr)
                at = (c,)
                for vals in found:
                    out.append((at, vals))
        out.reverse()
    if most < maxk:  # (runs of more pieces take none)
        maxk = most
    if $lines and maxk >= 2:
        $along
        along(out, v, down, fit_d, filled, near & fit_d, need, anc, mask, arrs, runs,
              sums, maxk, 1, $stride, ba, aa)
        along(out, v, across, fit_a, filled, near & fit_a, need, anc, mask, arrs, runs,
              sums, maxk, $stride, 1, bd, ad)
    return out

def B_lay(b, cells, values):
    """Lay the play on board `b`; its `lines` and `placed` records, each cell's row
    before its column, as `SquarePlacement._measure` gives them."""
    v, across, down, anchors, filled, by_across, by_down, anc, ba, aa, bd, ad = b
    for c, x in zip(cells, values):
        v[c] = x
        bit = B_bit[c]
        filled |= bit
        anchors |= B_near[c]
        # (the cells beside it may be anchors; one off the board is marked too, never
        # read: the walks read the marks of empty cells only)
        anc[c - 1] = anc[c + 1] = anc[c - $stride] = anc[c + $stride] = 1
        m = across[c]
        left = by_across[m] ^ bit
        if left:
            by_across[m] = left
        else:
            del by_across[m]
        m = down[c]
        left = by_down[m] ^ bit
        if left:
            by_down[m] = left
        else:
            del by_down[m]
    b[3] = anchors & ~filled
    b[4] = filled
    lines = []
    through = $through  # (a list per cell; any past the play's cells unread)
    # the line of the play (measured at its first cell: all its pieces are new there),
    # then each piece's other line (in which it is the only new piece): both
    # directions at the first cell, then only the one across the play
    along = 0 if len(cells) == 1 else 1 if cells[1] - cells[0] < $stride else $stride
    k = 0
    dirs = ((1, across, by_across, ba, aa), ($stride, down, by_down, bd, ad))
    across_play = dirs[1:] if along == 1 else dirs[:1]
    for c in cells:
        for d, masks, groups, pre, post in dirs:
            n, total = 1, v[c]
            a = c - d
            while v[a] >= 0:
                n += 1
                total += v[a]
                a -= d
            e = c + d
            while v[e] >= 0:
                n += 1
                total += v[e]
                e += d
            if n >= 2:
                if d == along:
                    for t in through:
                        t.append(n)
                    lines.append($line_open(n, total, total, len(cells), 0)$close)
                else:
                    through[k].append(n)
                    lines.append($line_open(n, total, total, 1, 0)$close)
            # (the masks of the empty cells at the run's ends, the pieces after them
            # counted in: each end's kept run on its other side; the run kept beside
            # each end)
            pk = n << $shift | total
            $end_before
            $end_after
        k += 1
        dirs = across_play
    placed = []
    for c, x, t in zip(cells, values, through):  # (no jokers: a piece's value is its face)
        placed.append($placed_open$laid + (max(t) if t else 1, t)$close)
    return lines, placed
''')

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
    (`square_moves._along`), the walk from each written out for the window: a cell
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
    """The board's functions for `code`'s numbers."""
    rules = code.rules
    text = _FIXED.substitute(most=rules.max_count, fewest=rules.min_count,
                             longest=code.longest, top=code.vbits - 1,
                             singles=rules.min_count <= 1, stride=code.stride,
                             lines=rules.max_count >= 2 and code.window >= 2,
                             end_before=_end("a", "-"), end_after=_end("e", "+"),
                             shift=code.shift, key=_hand_key(code.dealt), along=_along(code),
                             through=_through(rules.max_count), **_records(code),
                             laid="B_laid[c][x]" if code.laid_table else
                             "B_attrs[c] + (x, x, False) + B_xy[c]")
    lines = []
    for suffix, cap in _caps(code):
        code.cap = cap
        test = firsts(code, cap)
        for name, covering in (("B_touching", False), ("B_covering", True)):
            code.covering = covering
            lines.append(_ALONG_HEAD.substitute(
                name=name + suffix, runs=_runs(cap), first_cell=PACKED_CELLS, **test,
                what="covering a cell of `need`" if covering else "touching the board"))
            _walk(code, lines, 2, 1, (), 2)
    return text + "\n".join(lines) + "\n"


def _caps(code) -> list[tuple[str, int]]:
    """The walks written (a name's suffix, the most new pieces they lay): for plays of
    up to the most pieces, and when that is more than two, again for plays of two
    (most hands: a listing then reads no test for the longer plays)."""
    most = code.rules.max_count
    return [("", most)] + ([("2", 2)] if most > 2 and code.window > 2 else [])


def _along(code) -> str:
    """`B_plays`' choice of the walks for the hand's most pieces `maxk` (`_caps`)."""
    if len(_caps(code)) == 1:
        return "along = B_covering if first else B_touching"
    return ("if maxk > 2:\n            along = B_covering if first else B_touching\n"
            "        else:  # (plays of two pieces at most)\n"
            "            along = B_covering2 if first else B_touching2")


def _hand_key(size: int) -> str:
    """The text of `B_plays`' key: the values of the `n` pieces of `hand` in order."""
    return written_fields("hand", "value", size, "tuple(map(B_val, hand))", length="n")


def _records(code) -> dict:
    """How `B_lay` makes its `line` and `placed` records: plain tuples, whose fields
    the program reads by index (`SquareCode.move_names`); with jokers, the named tuples
    `B_jlay` replaces fields of."""
    if not code.jokers:
        return {"line_open": "", "placed_open": "", "close": ""}
    return {"line_open": "B_record(B_Line, ", "placed_open": "B_record(B_Placed, ",
            "close": ")"}


def _through(most: int) -> str:
    """`B_lay`'s lists of the lines through each cell: as many as a play's most pieces
    written out (no call), or one per cell when that is many."""
    return "[" + ", ".join(["[]"] * most) + "]" if most <= 4 else "[[] for _ in cells]"


def _end(cell: str, sign: str) -> str:
    """`B_lay`'s lines setting the mask along `d` of the cell `cell` at the end of a run
    of `n` pieces summing to `total` (packed: `pk`; before it when `sign` is `-`), if it
    is empty, and moving it to its new group (`B_crossp` holds every run the board can
    hold on both sides of a cell, by the packed runs); the run kept on its side of the
    cell is `pk`, the one on its other side is read."""
    mine, other = ("post", "pre") if sign == "-" else ("pre", "post")
    lines = [f"if v[{cell}] == -1:", f"    {mine}[{cell}] = pk",
             f"    new = B_crossp[pk + {other}[{cell}]]", f"    old = masks[{cell}]",
             "    if new != old:", f"        masks[{cell}] = new", f"        bit = B_bit[{cell}]",
             "        left = groups[old] ^ bit", "        if left:",
             "            groups[old] = left", "        else:", "            del groups[old]",
             "        groups[new] = groups.get(new, 0) | bit"]
    return "\n            ".join(lines)


def _walk(code, out: list, span: int, n: int, filled: tuple, pad: int) -> None:
    """The walk's step `span` (its cell `s<span>`) with `n` new cells so far and the
    steps `filled` among them holding pieces, written out (`square_moves._along_from`)."""
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
    needed cell (a first play), or touches the board (`_along_from`'s `touching`)."""
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
