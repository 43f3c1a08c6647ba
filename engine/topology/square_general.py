"""The general listing of the `square` kind, over plain data: any hand (jokers
included), any first play. The interpreter's board (`square_moves._general`) and a
compiled program's (`engine/program/square_jokers.py`) both list a hand so, with these
same functions, each from its own index.

What they read of a board: `v`, the value of each cell of the flat padded grid (-1
empty, -2 a sentinel, `square_placement.EMPTY`, `EDGE`), and per direction the values
a new piece on each empty cell may take given the run it joins that way, as a bit set
(`across`: the row's run, `down`: the column's; 0: none, as for a filled cell; the bit
sets of `PlaceRules.cross`). What they read of a hand: its plan's arrangements
(`square_hands.HandPlan.arrs`: per count, (values, indices in the ranked hand, joker
flags or None, sum)) and the bit set of the values its pieces may be laid with. A play
found is the tuple (cells in line order, values, indices in the ranked hand, joker
flags or None), appended to `out`; the caller makes its own play of it.
"""

from __future__ import annotations

from itertools import product

from engine.topology.square_placement import EDGE


def singles(out, cells, across, down, mask, arrs, rules) -> None:
    """The plays of one piece on `cells`, in order: on each, the arrangements of one
    piece (`arrs`) whose value both bit sets let through, a joker each value."""
    for c in cells:
        m = across[c] & down[c]
        if m & mask:
            at = (c,)
            for vals, idx, flags, total in arrs:
                if flags:
                    if rules.max_jokers >= 1:
                        for x in range(rules.joker_lo, rules.joker_hi + 1):
                            if m >> x & 1:
                                out.append((at, (x,), idx, flags))
                elif m >> total & 1:
                    out.append((at, vals, idx, None))


def lines(out, v, across, down, stride, firsts, need, mask, arrs, maxk, rules) -> None:
    """The plays of two or more pieces along rows (step 1), then columns (step
    `stride`), each by its first cell: `firsts` holds the first cells to walk, of rows
    and of columns, in increasing order (any cells among which lie those from which a
    play starts: a cell that starts none meets no candidate run). `need`: the cells one
    of which a play must cover (a first play), or None: it must touch the board."""
    for c in firsts[0]:  # (a row's cells: the masks of their columns)
        if down[c] & mask:
            along_from(out, v, down, c, 1, stride, need, mask, arrs, maxk, rules)
    for c in firsts[1]:
        if across[c] & mask:
            along_from(out, v, across, c, stride, 1, need, mask, arrs, maxk, rules)


def along_from(out, v, cross, c, d, e, need, mask, arrs, maxk, rules) -> None:
    """The walk along step `d` from first cell `c` within the window (`e`: the step
    across, `cross` the bit sets across): each candidate run of new cells (enough of
    them, a line short enough, touching the board or covering a cell of `need`) tried
    with the arrangements of its count (`fit_run`)."""
    plen, psum = run_beside(v, c, -d)  # (the run of pieces just before the first cell)
    cells, ivs, i = [c], [cross[c]], c
    touching = plen > 0 or v[c - e] >= 0 or v[c + e] >= 0
    covers, inner_n, inner_s = need is None or c in need, 0, 0
    mink, longest, bounds = max(2, rules.min_count), rules.max_length, rules.bounds
    for span in range(2, rules.window + 1):
        i += d
        x = v[i]
        if x == EDGE:
            break
        if x >= 0:
            inner_n, inner_s = inner_n + 1, inner_s + x
            continue
        iv = cross[i]
        if not iv & mask:
            break
        cells.append(i)
        ivs.append(iv)
        touching = touching or v[i - e] >= 0 or v[i + e] >= 0 or inner_n > 0
        covers = covers or i in need
        sn, ss, j = 0, 0, i + d  # (the run of pieces just after it)
        while v[j] >= 0:
            sn, ss, j = sn + 1, ss + v[j], j + d
        if plen + span + sn > longest:
            break
        n = len(cells)
        if n >= mink and (covers if need is not None else touching or sn > 0):
            lo, hi = bounds[plen + span + sn]
            base = psum + inner_s + ss
            fit_run(out, tuple(cells), ivs, lo - base, hi - base, arrs[n], rules)
        if n == maxk:
            break


def run_beside(v, c, d) -> tuple[int, int]:
    """(how many, their sum) of the pieces in a row just after cell `c` along step `d`."""
    n = total = 0
    c += d
    while v[c] >= 0:
        n += 1
        total += v[c]
        c += d
    return n, total


def fit_run(out, at, ivs, lo, hi, arrs, rules) -> None:
    """The plays of the arrangements `arrs` on the new cells `at` (their bit sets across
    `ivs`) whose values sum from `lo` to `hi`; a joker takes each value its cell lets
    through, the values of a play's cells in `itertools.product` order."""
    jokers, most = range(rules.joker_lo, rules.joker_hi + 1), rules.max_jokers
    for vals, idx, flags, total in arrs:
        if flags:
            if sum(flags) > most:
                continue
            choices = []
            for val, flag, iv in zip(vals, flags, ivs):
                if flag:
                    choices.append([x for x in jokers if iv >> x & 1])
                elif iv >> val & 1:
                    choices.append((val,))
                else:
                    break
            else:
                for combo in product(*choices):
                    if lo <= sum(combo) <= hi:
                        out.append((at, combo, idx, flags))
        elif lo <= total <= hi:
            for x, iv in zip(vals, ivs):
                if not iv >> x & 1:
                    break
            else:
                out.append((at, vals, idx, None))
