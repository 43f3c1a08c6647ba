"""The walks of the `square` generator for a hand without jokers: the loops, and the
same walks written out as code for the rules' numbers.

Without jokers, which arrangements of the hand fit a run of new cells is a matter of
bits: each cell's interval, as a bit set of values cut to the hand's, is one field of
an integer (`sig`, the first cell in the highest field), and an arrangement fits the
cells when every one of its values has its bit in its cell's field, which one `&` of
the arrangement's own such integer tests. The sum rule of the whole line leaves a
range for the new pieces' sum; the arrangements whose sum lies in it are worked out
once per hand plan for each (count, range), since few ranges occur (`line_fits`).
`square_moves.py` calls these in place of the general loops (`square_general.py`,
which also handle jokers); they must find the same plays in the same order.
`bit_cells` lists the cells of the generator's bit sets.

Generated code. `square_moves._useful_starts` finds, on bit sets for all cells and both
directions at once, the first cells from which the walk of a play meets a candidate run
of new pieces. That walk has at most `window` steps and each step keeps, per number n of
new pieces so far, the set of first cells whose walk is alive with n pieces: loops over
steps and over n, with a list per step, where the numbers of the rules (window, longest
line, fewest and most pieces) fix every bound. So the walk is written out as straight
Python for those numbers, once per set of numbers, with no loop and no list: about
three times cheaper than the loops it replaces, and the hot spot of every position
(`walk_functions`); so is the walk of `plain_along` (`along_function`). The text of each
is `walk_source` / `along_source`, to read.

What is generated comes only from integers (never from author text), and each function
computes what the loops did, term by term; tests/topology/test_square.py and
test_square_walks.py compare the plays it leads to with those of the general loops on
random boards and rules.
"""

from __future__ import annotations

from typing import Callable

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
    their first cell: `square_general.lines` without jokers, for the first cells
    of `_useful_starts` (`lines`: those of rows and of columns; all take a value of the
    hand crosswise). `plan.sums` is the hand plan's: for each count the lowest and highest
    sum of its arrangements, a cache (count, low, high) -> the arrangements whose sum
    lies in low..high as (bits, values, take), and per rules a cache (count, line
    length, sum of the line's other pieces), coded as one integer -> the same lists. A
    range is cut to the sums there are, so that ranges that keep the same arrangements
    are one. (The loop that `along_function` writes out, kept for
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


_MADE: dict[tuple, tuple[Callable, Callable]] = {}  # (window, ml, mink, maxk) -> functions


def walk_functions(window: int, ml: int, mink: int, maxk: int,
                   same: bool = False) -> tuple[Callable, Callable]:
    """(steps, live) for these numbers (`window` and `ml` already cut to the board;
    `same`: the two halves of the layout have the same stride, as on a square board):

    - `steps(low_bits, full, s, t, filled)`: what the walks read whatever the hand, kept
      with the board until it changes: the cells whose run just before or whose
      neighbour across touches the board, then for each step j of the walk the filled
      cells j steps on (not for the last step), the cells where a new piece j steps on
      keeps the line short enough, and the cells j steps on that touch the board across
      or are followed by a piece, all in the layout of `Square.both` (`s`, `t`: the
      strides of its two halves), where a step is one bit in either direction;
    - `live(fit, steps)`: the cells of `fit` whose walk meets a candidate run (see
      `square_moves._useful_starts`).

    The walk finds plays of two pieces or more: `maxk` (the most pieces a play of this
    hand may have) must be at least 2 (`find_plays` lists single pieces on its own).
    """
    if maxk < 2:
        raise ValueError(f"a walk for plays of at most {maxk} piece: the walk needs 2 or more")
    key = (window, ml, mink, maxk, same)
    found = _MADE.get(key)
    if found is None:
        source = walk_source(window, ml, mink, maxk, same)
        namespace: dict = {}
        exec(compile(source, f"<square walk {key}>", "exec"), namespace)  # numbers only
        found = _MADE[key] = (namespace["steps"], namespace["live"])
    return found


def walk_source(window: int, ml: int, mink: int, maxk: int, same: bool = False) -> str:
    """The Python text of `walk_functions(...)`'s two functions, to read or print."""
    return _steps_source(window, ml, same) + _live_source(window, mink, maxk)


def _steps_source(window: int, ml: int, same: bool) -> str:
    """The source of `steps`. back[r] / ahead[r] (`b{r}`, `a{r}`) are the cells with r
    or more filled cells just before / after them; a new piece j steps on makes the
    line too long when, for some p, the run before the first cell holds p pieces or
    more and the run after the piece holds room + 1 - p or more (room: the pieces the
    two runs may hold, ml - j - 1), p = 0 and p = room + 1 included."""
    out = ["def steps(low_bits, full, s, t, filled):"]
    if same:
        # (one shift serves both halves: the gap between them is wider than a stride, so
        # no bit crosses into the other half; what lands in the gap is never read)
        out.append("    across = (filled << s) | (filled >> s)")
    else:
        out += ["    low = filled & low_bits",
                "    high = filled ^ low",
                "    across = (low << s) | (low >> s) | (high << t) | (high >> t)"]
    out += ["    b1 = filled << 1", "    a1 = filled >> 1", "    near = across | a1"]
    longest_run = ml - 2  # (the room of the first step, the largest)
    for r in range(1, longest_run + 2):
        if r > 1:
            out += [f"    b{r} = b{r - 1} & (filled << {r})",
                    f"    a{r} = a{r - 1} & (filled >> {r})"]
    fields = ["b1 | across"]
    for j in range(1, window):
        room = ml - j - 1
        if room < 0:
            out.append(f"    f{j} = 0")
        else:
            bad = [f"(a{room + 1} >> {j})", f"b{room + 1}"]
            bad += [f"(b{p} & (a{room + 1 - p} >> {j}))" for p in range(1, room + 1)]
            out.append(f"    f{j} = full & ~({' | '.join(bad)})")
        if j < window - 1:  # (the last step's filled cells are not read: the walks end there)
            fields.append("a1" if j == 1 else f"filled >> {j}")
        fields += [f"f{j}", f"near >> {j}"]
    out.append(f"    return ({', '.join(fields)},)")
    return "\n".join(out) + "\n"


def _live_source(window: int, mink: int, maxk: int) -> str:
    """The source of `live`. `a{n}`: the first cells whose walk is alive with n new
    pieces (n < maxk); a step j keeps in `a{n}` the walks that meet a filled cell
    (`s{n}`, which then touch the board) and moves to n + 1 those that meet a cell
    taking a new piece (`m{n}`), which count when n + 1 >= mink and the walk touched
    the board (`touch`). Each first cell is in one `a{n}` at a time, so the order in
    which a step updates `touch` does not matter."""
    names = ["touching"]
    for j in range(1, window):
        names += ([f"h{j}"] if j < window - 1 else []) + [f"f{j}", f"n{j}"]
    out = ["def live(fit, st):",
           f"    ({', '.join(names)},) = st",
           "    touch = fit & touching",
           "    a1 = fit",
           "    live = 0"]
    for j in range(1, window):
        top = min(j, maxk - 1)  # the walks alive before this step have 1..top pieces
        if j == window - 1:  # the walks end here: only the runs that end here count
            counted = [f"a{n}" for n in range(max(1, mink - 1), top + 1)]
            if counted:
                out.append(f"    live |= ({' | '.join(counted)}) & (fit >> {j}) & f{j}"
                           f" & (touch | n{j})")
            break
        out.append(f"    new = (fit >> {j}) & f{j}")
        for n in range(1, top + 1):
            out += [f"    s{n} = a{n} & h{j}", f"    m{n} = a{n} & new"]
        out.append(f"    touch |= n{j} | {' | '.join(f's{n}' for n in range(1, top + 1))}")
        counted = [f"m{n}" for n in range(1, top + 1) if n + 1 >= mink]
        if counted:
            out.append(f"    live |= ({' | '.join(counted)}) & touch")
        alive = []
        for n in range(1, min(top + 1, maxk - 1) + 1):
            parts = ([f"s{n}"] if n <= top else []) + ([f"m{n - 1}"] if n >= 2 else [])
            alive.append((f"a{n}", " | ".join(parts)))
        out.append(f"    {', '.join(a for a, _ in alive)} = {', '.join(p for _, p in alive)}")
    out.append("    return live")
    return "\n".join(out) + "\n"


ALONG_WINDOW = 6  # the widest window whose walk is written out (its paths double per cell)

_ALONG: dict[tuple, Callable] = {}  # (window, mink, maxk) -> function


def along_function(window: int, mink: int, maxk: int) -> Callable | None:
    """`plain_along` written out for these numbers (None for a window wider
    than `ALONG_WINDOW`): called as `along(out, board, lines, mask, plan, ranked, rules)`.

    The loop over the cells of a walk becomes nested code, one branch per path: a filled
    cell (the count of new pieces stays) or a new piece (it grows), so that the count,
    the cells, the sum of the pieces inside the play and whether one of them touches
    the board are known from the path, not kept in variables; a path ends where the loop
    would break or the count reaches `maxk`. The plays come out in the same order."""
    if window > ALONG_WINDOW:
        return None
    key = (window, mink, maxk)
    found = _ALONG.get(key)
    if found is None:
        namespace = {"SquarePlacement": SquarePlacement, "line_fits": line_fits,
                     "new": object.__new__}
        source = along_source(window, mink, maxk)
        exec(compile(source, f"<square along {key}>", "exec"), namespace)  # numbers only
        found = _ALONG[key] = namespace["along"]
    return found


def along_source(window: int, mink: int, maxk: int) -> str:
    """The Python text of `along_function(window, mink, maxk)`, to read or print."""
    out = ["def along(out, board, lines, mask, plan, ranked, rules):",
           "    add = out.append",
           "    v, ml = board.v, rules.max_length",
           "    wide = ml + 1",
           "    width = mask.bit_length()",
           "    sums = plan.sums[2]",
           "    by_line = sums.get(rules)",
           "    if by_line is None:",
           "        by_line = sums[rules] = {}",
           "    get = by_line.get",
           "    for k, d in ((0, 1), (1, board.topo.stride)):",
           "        back, ahead, cross = board.back[k], board.ahead[k], board.cross[1 - k]",
           "        for c in lines[k]:  # the first cells, in increasing order",
           "            iv = cross[c]",
           "            sig = iv[3] & mask",
           "            plen, psum = back[c]",
           "            t = plen or iv[2]"]
    if window >= 2:  # (a narrower window has no play of two pieces)
        _along_step(out, " " * 12, 2, ["c"], [], False, window, mink, maxk)
    return "\n".join(out) + "\n"


def _along_step(out, pad, span, cells, inner, touched, window, mink, maxk) -> None:
    """The code of the walk at its cell `span` (2..window), given the path so far: the
    new cells' names, the names of the values of the pieces inside the play, and whether
    one of them made the play touch the board (`touched`; else `t` says). `pad`: the
    indentation; a path that meets a new piece goes on at the same one."""
    last = span == window
    out += [f"{pad}i{span} = {'c' if span == 2 else f'i{span - 1}'} + d",
            f"{pad}iv = cross[i{span}]",
            f"{pad}if iv is None:"]
    if not last:  # a filled cell: a piece inside the play, which touches the board
        out += [f"{pad}    x{span} = v[i{span}]",
                f"{pad}    if x{span} >= 0:"]
        _along_step(out, pad + " " * 8, span + 1, cells, inner + [f"x{span}"], True, window,
                    mink, maxk)
    out += [f"{pad}    continue",
            f"{pad}bits = iv[3] & mask",
            f"{pad}if not bits:",
            f"{pad}    continue",
            f"{pad}sn, ss = ahead[i{span}]",
            f"{pad}length = plen + {span} + sn",
            f"{pad}if length > ml:",
            f"{pad}    continue",
            f"{pad}sig = sig << width | bits"]
    cells = cells + [f"i{span}"]
    n = len(cells)
    if not touched:
        out += [f"{pad}if iv[2]:", f"{pad}    t = True"]
    if n >= mink:
        _along_candidate(out, pad, cells, inner, touched, maxk)
    if n < maxk and not last:
        _along_step(out, pad, span + 1, cells, inner, touched, window, mink, maxk)
    else:
        out.append(f"{pad}continue")


def _along_candidate(out, pad, cells, inner, touched, maxk) -> None:
    """The code of a candidate run of new pieces (`cells`, enough of them) at the current
    cell of the walk: the arrangements that keep the line's sum rule (`line_fits`, kept
    by one integer), each laid where every value has its bit in its cell's field."""
    n, lead = len(cells), pad
    if not touched:
        out.append(f"{pad}if t or sn:")
        lead = pad + "    "
    base = " + ".join(["psum"] + inner + ["ss"])
    out += [f"{lead}base = {base}",
            f"{lead}key = (base * wide + length) * {maxk + 1} + {n}  # (see `line_fits`)",
            f"{lead}fits = get(key)",
            f"{lead}if fits is None:",
            f"{lead}    fits = by_line[key] = line_fits(plan, rules, {n}, length, base)",
            f"{lead}if fits:",
            f"{lead}    at = ({', '.join(cells)})",
            f"{lead}    for m, vals, take in fits:",
            f"{lead}        if sig & m == m:",
            # (`SquarePlacement.__init__` by hand: a call of it costs a frame)
            f"{lead}            play = new(SquarePlacement)",
            f"{lead}            play.board = board",
            f"{lead}            play.cells = at",
            f"{lead}            play.values = vals",
            f"{lead}            play.pieces = take(ranked)",
            f"{lead}            add(play)"]
