"""The text of the `square` board's functions for a ruleset with jokers, written into
its program after the others (`square_source.py`) and only then: the program of a
ruleset without jokers is the same text as before.

A hand holding no joker is listed by `B_plays`, as the interpreter lists it by its
straight way (`square_moves._touching`, `_on_empty`). A hand holding a joker takes the
interpreter's general way (`square_moves._general`), which these functions follow step
by step on the program's board: its plan by the ranked hand's (value, joker) kinds
(`square_hands.HandPlan`: the distinct orders of kinds, equal pieces in hand order,
a joker's values in the hand's mask); the single pieces by cell (the anchors, or the
start cells of a first play, `_singles`); then the plays of two or more pieces along
rows, then columns, by their first cell in cell order, each first cell walked as
`_along_from` walks it, and each candidate run tried with the arrangements of its
count in order (`_fit_run`), a joker taking each value its cell lets through, lowest
first, the values of a play's cells in `itertools.product` order (`_with_jokers`).
The first cells walked are every cell that fits with a cell the play must touch (an
anchor, or a start cell to cover) within the window: a first cell the interpreter
leaves out (`_useful_starts`, `_starts`) meets no candidate run, so the same plays
come in the same order. A play with a joker is (cells, values, the pieces' indices in
the ranked hand, the joker flags), one without a joker in such a hand (cells, values,
indices); a play of a hand without a joker, as `B_plays` gives it (cells, values).

The program's state then holds the joker cells as a bit set (the field `jokers`), and
`B_jlay` lays a play as `B_lay` does, then gives a line through a joker its face sum
(the joker's declared value left out) and its count of jokers, and a joker's `placed`
record its face value and joker flag (`SquarePlacement._measure_laid`).
"""

from __future__ import annotations

from string import Template

from engine.program.square_source import FIRST_CELLS

_JOKERS = Template('''
def B_jplays(b, hand, first):
    """The legal plays of `hand`, as `square_moves.find_plays` lists them: `B_plays`
    for a hand without a joker, else the general way (`_general`)."""
    for p in hand:
        if p.joker:
            break
    else:
        return B_plays(b, hand, first)
    maxk = len(hand) if len(hand) < $most else $most
    if maxk < $fewest:
        return []
    kinds = tuple([(p.value, p.joker) for p in sorted(hand, key=B_val)])
    try:
        mask, arrs = B_jplans[kinds]
    except B_missing:
        mask, arrs = B_jplan(kinds, maxk)
    v, across, down, anchors, filled, by_across, by_down, anc = b[:8]
    out = []
    if first:
        need = [c for c in B_starts if v[c] == -1]
        cells, target = need, 0
        for c in need:
            target |= 1 << c
    else:
        need, target = None, anchors
        cells = []
        x = anchors
        while x:
            low = x & -x
            x ^= low
            cells.append(low.bit_length() - 1)
    if $singles:
        B_jsingles(out, cells, across, down, mask, arrs[1])
    if $lines and maxk >= 2:
        B_jalong(out, v, down, by_down, need, target, mask, arrs, maxk, 1, $stride)
        B_jalong(out, v, across, by_across, need, target, mask, arrs, maxk, $stride, 1)
    return out

def B_jplan(kinds, maxk):
    """The plan of a ranked hand of these (value, joker) kinds (`square_hands.HandPlan`):
    the bit set of the values its pieces may be laid with, and per count k the distinct
    orders of k kinds, each as (values, the pieces' indices in the ranked hand, the
    joker flags or None, sum)."""
    pattern = tuple([kinds.index(kind) for kind in kinds])
    mask = 0
    for value, joker in kinds:
        mask |= $joker_mask if joker else 1 << value
    arrs = [[] for _ in range(maxk + 1)]
    for k in range(1, maxk + 1):
        seen = set()
        for idx in B_orders(range(len(kinds)), k):
            key = tuple([pattern[i] for i in idx])
            if key not in seen:
                seen.add(key)
                vals = tuple([kinds[i][0] for i in idx])
                flags = tuple([kinds[i][1] for i in idx])
                arrs[k].append((vals, idx, flags if True in flags else None, sum(vals)))
    if len(B_jplans) > 20000:
        B_jplans.clear()
    plan = B_jplans[kinds] = (mask, arrs)
    return plan

def B_jsingles(out, cells, across, down, mask, arrs):
    """The plays of one piece on `cells` in order (`square_moves._singles`): on each, the
    arrangements of one piece whose value both masks let through, a joker each value."""
    for c in cells:
        m = across[c] & down[c]
        if m & mask:
            at = (c,)
            for vals, idx, flags, total in arrs:
                if flags:
                    if $max_jokers >= 1:
                        for x in range($joker_lo, $joker_hi + 1):
                            if m >> x & 1:
                                out.append((at, (x,), idx, flags))
                elif m >> total & 1:
                    out.append((at, vals, idx))

def B_jalong(out, v, cross, groups, need, target, mask, arrs, maxk, d, e):
    """The plays of two or more pieces along step `d` (`e` the step across, `cross` the
    masks across and `groups` the cells by them) by their first cell, in cell order: each
    cell that fits with a cell of `target` within the window walked (`_along_from`)."""
    fit = 0
    for m, found in groups.items():
        if m & mask:
            fit |= found
    reach = target
    for j in range(1, $window):
        reach |= target >> j * d
    firsts = fit & reach
$first_cell
        B_jwalk(out, v, cross, c, plen, psum, need, mask, arrs, maxk, d, e)

def B_jwalk(out, v, cross, c, plen, psum, need, mask, arrs, maxk, d, e):
    """`square_moves._along_from` from first cell `c` (the run before it: `plen` pieces
    summing to `psum`): each candidate run of new cells tried with the arrangements of
    its count (`B_jfit`)."""
    cells, ivs = [c], [cross[c]]
    touching = plen > 0 or v[c - e] >= 0 or v[c + e] >= 0
    covers = need is None or c in need
    inner_n = inner_s = 0
    i = c
    for span in range(2, $window + 1):
        i += d
        x = v[i]
        if x == -2:
            break
        if x >= 0:
            inner_n += 1
            inner_s += x
            continue
        iv = cross[i]
        if not iv & mask:
            break
        cells.append(i)
        ivs.append(iv)
        touching = touching or v[i - e] >= 0 or v[i + e] >= 0 or inner_n > 0
        covers = covers or i in need
        sn = ss = 0
        j = i + d
        while v[j] >= 0:
            sn += 1
            ss += v[j]
            j += d
        length = plen + span + sn
        if length > $longest:
            break
        n = len(cells)
        if n >= $mink and (covers if need is not None else touching or sn > 0):
            lo, hi = B_range[length][psum + inner_s + ss]
            B_jfit(out, tuple(cells), ivs, lo, hi, arrs[n])
        if n == maxk:
            break

def B_jfit(out, at, ivs, lo, hi, arrs):
    """The plays of the arrangements `arrs` on the new cells `at` (their masks across
    `ivs`) whose values sum from `lo` to `hi` (`_fit_run`, `_with_jokers`)."""
    for vals, idx, flags, total in arrs:
        if flags:
            if flags.count(True) > $max_jokers:
                continue
            choices = []
            for val, flag, iv in zip(vals, flags, ivs):
                if flag:
                    choices.append([x for x in range($joker_lo, $joker_hi + 1) if iv >> x & 1])
                elif iv >> val & 1:
                    choices.append((val,))
                else:
                    break
            else:
                for combo in B_product(*choices):
                    if lo <= sum(combo) <= hi:
                        out.append((at, combo, idx, flags))
        elif lo <= total <= hi:
            for x, iv in zip(vals, ivs):
                if not iv >> x & 1:
                    break
            else:
                out.append((at, vals, idx))

def B_jlay(b, pl, pieces, jokers):
    """Lay the play `pl` (its `pieces`) on board `b`, whose joker cells are the bit set
    `jokers`: its `lines` and `placed` records as `SquarePlacement._measure_laid` gives
    them, and the joker cells after it."""
    cells = pl[0]
    lines, placed = B_lay(b, cells, pl[1])
    if len(pl) > 3:
        flags = pl[3]
        for k, c in enumerate(cells):
            if flags[k]:
                jokers |= 1 << c
                placed[k] = placed[k]._replace(value=pieces[k].value, joker=True)
    if jokers and lines:
        lines = B_jlines(b[0], jokers, cells, lines)
    return lines, placed, jokers

def B_jlines(v, jokers, cells, lines):
    """The `lines` of a play laid by `B_lay`, each run walked again in the same order to
    give a line through a joker its face sum and its count of jokers."""
    along = 0 if len(cells) == 1 else 1 if cells[1] - cells[0] < $stride else $stride
    out = []
    k = 0
    lead = True
    for c in cells:
        for d in (1, $stride):
            if d == along and not lead:
                continue
            a = c
            while v[a - d] >= 0:
                a -= d
            n = held = held_sum = 0
            while v[a] >= 0:
                if jokers >> a & 1:
                    held += 1
                    held_sum += v[a]
                n += 1
                a += d
            if n >= 2:
                line = lines[k]
                k += 1
                if held:
                    line = B_record(B_Line, (line[0], line[1], line[1] - held_sum, line[3],
                                             held))
                out.append(line)
        lead = False
    return out
''')


def joker_source(code) -> str:
    """The joker functions for `code`'s numbers (its place rules, the board's stride,
    window and longest line)."""
    rules = code.rules
    lo, hi = rules.joker_lo, rules.joker_hi
    return _JOKERS.substitute(
        most=rules.max_count, fewest=rules.min_count, singles=rules.min_count <= 1,
        lines=rules.max_count >= 2 and code.window >= 2, stride=code.stride,
        window=code.window, longest=code.longest, mink=max(2, rules.min_count),
        max_jokers=rules.max_jokers, joker_lo=lo, joker_hi=hi,
        joker_mask=((1 << (hi + 1)) - 1) >> lo << lo, first_cell=FIRST_CELLS)
