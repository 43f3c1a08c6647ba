"""The inner loops of the `square` generator for a hand without jokers.

Without jokers, which arrangements of the hand fit a run of new cells is a matter of
bits: each cell's interval, as a bit set of values cut to the hand's, is one field of
an integer (`sig`, the first cell in the highest field), and an arrangement fits the
cells when every one of its values has its bit in its cell's field, which one `&` of
the arrangement's own such integer tests. The sum rule of the whole line leaves a
range for the new pieces' sum; the arrangements whose sum lies in it are worked out
once per hand plan for each (count, range), since few ranges occur.

`square_moves.py` calls these in place of its general loops (which also handle jokers);
they must find the same plays in the same order. `bit_cells` lists the cells of the
generator's bit sets.
"""

from __future__ import annotations

from engine.topology.square_placement import SquarePlacement

_new = object.__new__
_NONE: tuple = ()  # (no arrangement fits: one object for all)


_BIT = [1 << i for i in range(1024)]  # 1 << i, made once (grown by `bit_cells` if need be)


def bit_cells(bits: int) -> list[int]:
    """The cells of a bit set, in increasing order."""
    if bits.bit_length() > len(_BIT):
        _BIT.extend([1 << i for i in range(len(_BIT), bits.bit_length())])
    return bit_cells_in(bits)


def bit_cells_in(bits: int, bit: list = _BIT) -> list[int]:
    """`bit_cells` of a bit set whose highest bit the table of bits already holds (the
    generator grows it to the board's layout first)."""
    out = []
    while bits:  # (from the highest bit: bit_length is cheaper than isolating the lowest)
        high = bits.bit_length() - 1
        out.append(high)
        bits ^= bit[high]  # (a big integer from the table, not made for each cell)
    out.reverse()
    return out


def plain_singles(out, board, anchors, cross, mask, singles, ranked) -> None:
    """Plays of one piece at each anchor: the values both its intervals take.
    `singles` is the hand's (bit, values, index in the ranked hand) for each value."""
    across, down = cross
    add = out.append
    for c in anchors:
        a, b = across[c], down[c]
        if a and b:
            bits = a[3] & b[3] & mask
            if bits:
                at = (c,)
                for m, vals, i in singles:
                    if bits & m:
                        # (`SquarePlacement.__init__` by hand: a call of it costs a frame)
                        play = _new(SquarePlacement)
                        play.board = board
                        play.cells = at
                        play.values = vals
                        play.pieces = (ranked[i],)
                        add(play)


def plain_along(out, board, lines, mask, plan, maxk, ranked, rules):
    """Plays of two or more pieces along rows, then columns, that touch the board, by
    their first cell: `_along` of `square_moves.py` without jokers, for the first cells
    of `_useful_starts` (`lines`: those of rows and of columns; all take a value of the
    hand crosswise). `plan.sums` is the hand plan's: for each count the lowest and highest
    sum of its arrangements, a cache (count, low, high) -> the arrangements whose sum
    lies in low..high as (bits, values, take), and per rules a cache (count, line
    length, sum of the line's other pieces), coded as one integer -> the same lists. A
    range is cut to the sums there are, so that ranges that keep the same arrangements
    are one. (The loop that `square_unrolled.along_function` writes out, kept for
    windows too wide to write out.)"""
    by_line = plan.sums[2].get(rules)
    if by_line is None:
        by_line = plan.sums[2][rules] = {}
    walk = (out.append, board, mask, plan, ranked, rules, by_line, maxk)
    for k, d in ((0, 1), (1, board.topo.stride)):
        for c in lines[k]:  # the first cells, in increasing order
            _plain_from(walk, c, k, d)


def _plain_from(walk, c, k, d) -> None:
    """`plain_along` from first cell `c` along step `d` (direction `k`)."""
    add, board, mask, plan, ranked, rules, by_line, maxk = walk
    v, ml, cross, ahead = board.v, rules.max_length, board.cross[1 - k], board.ahead[k]
    wide, most, width, mink = ml + 1, maxk + 1, mask.bit_length(), max(2, rules.min_count)
    iv = cross[c]
    sig = iv[3] & mask
    plen, psum = board.back[k][c]
    cells = [c]
    n, touching, inner_s, i = 1, plen > 0 or iv[2], 0, c
    for span in range(2, rules.window + 1):
        i += d
        iv = cross[i]
        if iv is None:  # a filled cell, an edge, or an empty cell that takes no value
            x = v[i]
            if x < 0:
                break
            touching, inner_s = True, inner_s + x  # a piece inside the play touches
            continue
        bits = iv[3] & mask
        sn, ss = ahead[i]
        length = plen + span + sn
        if not bits or length > ml:
            break
        n += 1
        cells.append(i)
        sig = sig << width | bits
        touching = touching or iv[2]
        if n >= mink and (touching or sn):
            base = psum + inner_s + ss
            key = (base * wide + length) * most + n  # (see `line_fits`)
            fits = by_line.get(key)
            if fits is None:
                fits = by_line[key] = line_fits(plan, rules, n, length, base)
            at = tuple(cells)
            for m, vals, take in fits:
                if sig & m == m:
                    add(SquarePlacement(board, at, vals, take(ranked)))
        if n == maxk:
            break


def line_fits(plan, rules, n: int, length: int, base: int) -> list[tuple]:
    """The arrangements of `n` pieces that keep the sum rule of a line of `length`
    pieces whose other pieces sum to `base`, as (bits, values, take) (see
    `HandPlan.coded`), in order. The walks keep them per rules by one integer,
    (base * (ml + 1) + length) * (maxk + 1) + n, which gives back the three numbers
    whatever the sign of `base` (0 <= length <= ml, 0 <= n <= maxk): hashing a tuple
    made for each candidate run cost more than the lookup."""
    sums = plan.sums
    lo, hi = rules.bounds[length]
    least, most = sums[0][n]
    lo, hi = lo - base, hi - base
    if lo > most or hi < least:  # (no sum of n of the hand's pieces: nothing to look up)
        return _NONE
    span = (n, lo if lo > least else least, hi if hi < most else most)
    fits = sums[1].get(span)
    if fits is None:
        lo, hi = span[1], span[2]
        fits = sums[1][span] = [arr for total, arr in plan.coded(n) if lo <= total <= hi]
    return fits

