"""Templates of a program's `square` board (`engine.program.template`): laying a play
and its measures (`lay`), and the listing's frame (`plays`), real functions whose
bodies the program holds as `B_lay` and `B_plays` with the rules' numbers written in;
and the board's plain functions (`new_board`, `copy_board`).

The board `b` is one list (`square.py`): [cells, across, down, anchors, filled,
by_across, by_down, per cell whether it is an anchor (1 or 0, read by the walks), and
per empty cell the run of pieces just before it and just after it along a row, then
along a column, each packed as one integer (count << `SHIFT` | sum)]. `B` holds the
names of the program's tables the bodies read (`B.bit`: `B_bit`, ...); called as
functions, the templates take the tables themselves (`B=SimpleNamespace(...)`).
"""

from __future__ import annotations

from engine.program.template import unroll


def new_board(*, empty: tuple, full: tuple, full0: int, cells: int) -> list:
    """An empty board (`empty`: each cell's value, -1 empty, -2 a sentinel; `full`: each
    empty cell's masks, `full0` the mask of an empty line, `cells` the empty cells)."""
    n = len(empty)
    return [list(empty), list(full), list(full), 0, 0, {full0: cells}, {full0: cells},
            [0] * n, [0] * n, [0] * n, [0] * n, [0] * n]


def copy_board(b: list) -> list:
    """An independent copy of board `b`."""
    return [b[0][:], b[1][:], b[2][:], b[3], b[4], dict(b[5]), dict(b[6]), b[7][:],
            b[8][:], b[9][:], b[10][:], b[11][:]]


def lay(b, cells, values, *, CELLS, LINES, RECORDS):
    """Lay the play on board `b`; its `lines` and `placed` records, each cell's row
    before its column, as `SquarePlacement._measure` gives them: the cells laid
    (`lay_cells`), the runs through them measured and the masks at their ends kept up
    to date (`lay_lines`), the `placed` records (`lay_records`)."""
    v, across, down, _, _, by_across, by_down, anc, ba, aa, bd, ad = b
    CELLS(b, v, cells, values, across, down, by_across, by_down, anc)
    lines, through = LINES(v, cells, across, down, by_across, by_down, ba, aa, bd, ad)
    placed = RECORDS(cells, values, through)
    return lines, placed


def lay_cells(b, v, cells, values, across, down, by_across, by_down, anc, *, B, STRIDE):
    """The play's pieces on their cells: their values, the filled cells and anchors,
    the anchors' marks (of the cells beside each piece; one off the board is marked
    too, never read: the walks read the marks of empty cells only), each cell out of
    its masks' groups."""
    anchors, filled = b[3], b[4]
    for c, x in zip(cells, values):
        v[c] = x
        bit = B.bit[c]
        filled |= bit
        anchors |= B.near[c]
        anc[c - 1] = anc[c + 1] = anc[c - STRIDE] = anc[c + STRIDE] = 1
        for masks, groups in unroll(((across, by_across), (down, by_down))):
            m = masks[c]
            left = groups[m] ^ bit
            if left:
                groups[m] = left
            else:
                del groups[m]
    b[3] = anchors & ~filled
    b[4] = filled


def lay_lines(v, cells, across, down, by_across, by_down, ba, aa, bd, ad, *, B, STRIDE,
              SHIFT, MOST, NAMED, ENDS):
    """The play's line (at its first cell: all its pieces are new there), then each
    piece's other line: both directions at the first cell, then the one across the
    play; each run's ends' masks (`ENDS`: `run_ends`); per cell the lines through it."""
    through = [[]] if MOST == 1 else [[], []] if MOST == 2 else [[], [], []] if MOST == 3 \
        else [[], [], [], []] if MOST == 4 else [[] for _ in cells]
    lines = []
    along = 0 if len(cells) == 1 else 1 if cells[1] - cells[0] < STRIDE else STRIDE
    k = 0
    dirs = ((1, across, by_across, ba, aa), (STRIDE, down, by_down, bd, ad))
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
                    lines.append(B.record(B.Line, (n, total, total, len(cells), 0)) if NAMED
                                 else (n, total, total, len(cells), 0))
                else:
                    through[k].append(n)
                    lines.append(B.record(B.Line, (n, total, total, 1, 0)) if NAMED
                                 else (n, total, total, 1, 0))
            pk = n << SHIFT | total
            ENDS(v, pk, a, e, masks, groups, pre, post)
        k += 1
        dirs = across_play
    return lines, through


def run_ends(v, pk, a, e, masks, groups, pre, post, *, B):
    """The masks of the empty cells at the ends `a` and `e` of a run (`pk`: its count
    and sum, packed), the pieces after them counted in (each end's kept run on its
    other side), and each end's group by mask; the run kept beside each end."""
    for end, mine, other in unroll(((a, post, pre), (e, pre, post))):
        if v[end] == -1:
            mine[end] = pk
            new = B.crossp[pk + other[end]]
            old = masks[end]
            if new != old:
                masks[end] = new
                bit = B.bit[end]
                left = groups[old] ^ bit
                if left:
                    groups[old] = left
                else:
                    del groups[old]
                groups[new] = groups.get(new, 0) | bit


def lay_records(cells, values, through, *, B, NAMED, LAID):
    """The play's `placed` records (no jokers: a piece's value is its face): the cell's
    attributes, value, declared value, joker flag, x, y (from the table `B.laid` when
    `LAID`), the longest line through it and the lines' lengths."""
    placed = []
    for c, x, t in zip(cells, values, through):
        if NAMED:
            placed.append(B.record(B.Placed, (B.laid[c][x] if LAID else B.attrs[c] + (
                x, x, False) + B.xy[c]) + (max(t) if t else 1, t)))
        else:
            placed.append((B.laid[c][x] if LAID else B.attrs[c] + (x, x, False) + B.xy[c])
                          + (max(t) if t else 1, t))
    return placed


def plays(b, hand, first, *, B, MOST, FEWEST, KEY, SINGLES, ONES, LINES, WALKS):
    """The legal plays of `hand` (pieces), as `square_moves.find_plays` lists them: the
    hand's plan (`KEY`: its values in hand order, written out for the size dealt: no
    sort), the empty cells whose masks take a value of the hand (by the groups' keys,
    a group read only when it fits: cheaper than `items()`), the single pieces
    (`ONES`: `plays_singles`), then the plays along rows and columns (`WALKS`)."""
    n = len(hand)
    maxk = n if n < MOST else MOST
    if not hand or maxk < FEWEST:
        return []
    key = KEY
    try:  # (a subscript and no call: a miss, rare once warm, raises)
        mask, arrs, ones, runs, sums, most = B.plans[key]
    except B.missing:
        mask, arrs, ones, runs, sums, most = B.plan(key)
    v, across, down, anchors, filled, by_across, by_down, anc, ba, aa, bd, ad = b
    fit_a = fit_d = 0
    for m in by_across:
        if m & mask:
            fit_a |= by_across[m]
    for m in by_down:
        if m & mask:
            fit_d |= by_down[m]
    out = []
    if first:
        need = set([c for c in B.starts if v[c] == -1])
        near = B.start_bits & ~filled
    else:
        need = None
        near = anchors
    if SINGLES:
        ONES(out, near, fit_a, fit_d, across, down, mask, ones, arrs)
    if most < maxk:  # (runs of more pieces take none)
        maxk = most
    if LINES and maxk >= 2:
        WALKS(out, v, across, down, fit_a, fit_d, filled, near, need, first, anc, mask,
              arrs, runs, sums, maxk, ba, aa, bd, ad)
    return out


def plays_walks(out, v, across, down, fit_a, fit_d, filled, near, need, first, anc, mask,
                arrs, runs, sums, maxk, ba, aa, bd, ad, *, B, STRIDE, SHORT):
    """The plays of two pieces or more along rows, then columns: the walks covering a
    start cell (a first play) or touching the board, for plays of up to the most pieces
    or (`SHORT`: walks of their own) of two at most."""
    if not SHORT or maxk > 2:
        along = B.covering if first else B.touching
    else:
        along = B.covering2 if first else B.touching2
    along(out, v, down, fit_d, filled, near & fit_d, need, anc, mask, arrs, runs, sums,
          maxk, 1, STRIDE, ba, aa)
    along(out, v, across, fit_a, filled, near & fit_a, need, anc, mask, arrs, runs, sums,
          maxk, STRIDE, 1, bd, ad)


def plays_singles(out, near, fit_a, fit_d, across, down, mask, ones, arrs, *, B):
    """The plays of one piece on the cells of `near` that take a value of the hand both
    ways, by cell: the last cell first, each cell's plays last first, then reversed
    (the arrangements of one piece a cell's masks let through kept in `ones`)."""
    x = near & fit_a & fit_d
    arr = arrs[1]
    while x:
        c = x.bit_length() - 1
        x ^= B.bit[c]
        m = across[c] & down[c] & mask
        if m:
            try:
                found = ones[m]
            except B.missing:
                found = B.one(ones, m, arr)
            at = (c,)
            for vals in found:
                out.append((at, vals))
    out.reverse()
