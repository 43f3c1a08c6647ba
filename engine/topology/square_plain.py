"""The inner loops of the `square` generator for a hand without jokers.

Without jokers, which arrangements of the hand fit a run of new cells is a matter of
bits: each cell's interval, as a bit set of values cut to the hand's, is one field of
an integer (`sig`, the first cell in the highest field), and an arrangement fits the
cells when every one of its values has its bit in its cell's field, which one `&` of
the arrangement's own such integer tests. The sum rule of the whole line leaves a
range for the new pieces' sum; the arrangements whose sum lies in it are worked out
once per generation for each (count, range), since few ranges occur.

`square_moves.py` calls these in place of its general loops (which also handle jokers);
they must find the same plays in the same order.
"""

from __future__ import annotations

from operator import itemgetter

from engine.topology.square_board import EDGE, SquarePlacement


def plain_singles(out, board, anchors, cross, mask, singles, ranked) -> None:
    """Plays of one piece at each anchor: the values both its intervals take.
    `singles` is the hand's (bit, values, index in the ranked hand) for each value."""
    across, down = cross
    fits = [(m, vals, (ranked[i],)) for m, vals, i in singles]
    for c in anchors:
        a, b = across[c], down[c]
        if a and b:
            bits = a[3] & b[3] & mask
            if bits:
                at = (c,)
                for m, vals, pieces in fits:
                    if bits & m:
                        out.append(SquarePlacement(board, at, vals, pieces))


def plain_along(out, board, starts, k, d, need, mask, cross, arrs, maxk, ranked, rules, sums):
    """Plays of two or more pieces along step `d`, by their first cell: `_along` of
    `square_moves.py` without jokers. `sums` is (for each count, the lowest and highest
    sum of its arrangements; a cache (count, low, high) -> the arrangements whose sum
    lies in low..high, as (bits, values, take)): a range is cut to the sums
    there are, so that ranges that keep the same arrangements are one."""
    add = out.append
    v, bounds, ml, window = board.v, rules.bounds, rules.max_length, rules.window
    back, ahead = board.back[k], board.ahead[k]
    mink = max(2, rules.min_count)
    width = mask.bit_length()
    ranges, by_range = sums
    for c in starts:
        iv = cross[c]
        sig = iv[3] & mask
        if not sig:
            continue  # no piece of the hand fits here
        plen, psum = back[c]
        cells = [c]
        touching, covers = plen > 0 or iv[2], need is None or c in need
        inner_n = inner_s = 0
        i = c
        for span in range(2, window + 1):
            i += d
            x = v[i]
            if x == EDGE:
                break
            if x >= 0:
                inner_n, inner_s = inner_n + 1, inner_s + x
                continue
            iv = cross[i]
            if iv is None:
                break
            bits = iv[3] & mask
            if not bits:
                break
            cells.append(i)
            sig = sig << width | bits
            touching = touching or iv[2] or inner_n > 0
            covers = covers or i in need
            sn, ss = ahead[i]
            length = plen + span + sn
            if length > ml:
                break
            n = len(cells)
            if n >= mink and (covers if need is not None else touching or sn > 0):
                lo, hi = bounds[length]
                base = psum + inner_s + ss
                least, most = ranges[n]
                lo, hi = lo - base, hi - base
                key = (n, lo if lo > least else least, hi if hi < most else most)
                fits = by_range.get(key)
                if fits is None:
                    fits = by_range[key] = _in_range(arrs[n], key[1], key[2], width)
                if fits:
                    at = tuple(cells)
                    for m, vals, take in fits:
                        if sig & m == m:
                            add(SquarePlacement(board, at, vals, take(ranked)))
            if n == maxk:
                break


def _in_range(arrs, lo, hi, width) -> list[tuple]:
    """(bits, values, take) of the arrangements whose sum lies in lo..hi, in order;
    `bits` has, in the field of each cell, the bit of the value laid there, and `take`
    picks the arrangement's pieces (a tuple: two or more) from the ranked hand."""
    out = []
    for vals, idx, _, total in arrs:
        if lo <= total <= hi:
            m = 0
            for x in vals:
                m = m << width | 1 << x
            out.append((m, vals, itemgetter(*idx)))
    return out
