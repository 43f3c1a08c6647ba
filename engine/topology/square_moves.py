"""The play generator of the `square` kind, the hot spot of every game on it.

The board keeps, for every empty cell and direction, the interval of values a new piece
there may take given the run it would join (`SquareBoard.crosses`, updated only around
each play). A play of several pieces is found once, from its first cell in line order:
those first cells lie within the window before a cell touching the board (or a start
cell), and a cell none of the hand's values fits ends the search in that direction.
Along the way the line rule of the main run narrows the sum of the new pieces to a
range, and each distinct arrangement of the hand is tried against the cells' intervals.

When plays must touch the board, the first cells are found on bit sets for all cells at
once (`_useful_starts`: the walk that follows, done bitwise, for rows and columns
together on a layout where the board's transposition follows it), so that only first
cells with a play to find are walked; and a hand without jokers is served by
`square_plain.py`, which tests arrangements against cells with bit fields. Both walks
are written out as straight code for the rules' numbers (`square_unrolled.py`). All find
the same plays in the same order as the general loops here (tests compare them).

After the first play (nearly every call), a hand without jokers goes one straight way
(`_touching`), with what the steps above look up kept per rules and most pieces, and
its plan and ranking kept by its values in hand order (no sort per position). The
first play of a game, on a board holding no piece, depends only on the rules, the
board's shape and the hand's plan: its plays are kept across games (`_on_empty`).
"""

from __future__ import annotations

from functools import partial
from itertools import permutations, product
from operator import attrgetter, itemgetter
from typing import Iterator, Sequence

from engine.pieces import Piece
from engine.topology.square_board import EDGE, EMPTY, SquarePlacement
from engine.topology.square_plain import bit_cells as _cells
from engine.topology.square_plain import bit_cells_in as _cells_in
from engine.topology.square_plain import plain_along, plain_singles
from engine.topology.square_unrolled import along_function, walk_functions

BIG = 1 << 60
_new = object.__new__


class HandPlan:
    """What the generator reads of a hand, whatever the board and the order of its pieces:
    the arrangements, the bit set of its values, whether it has no joker, and for
    `plain_along` the sum ranges, the arrangements coded as bits, and their caches.

    `arrs[k]` lists the distinct orders of k pieces of the hand: (values, indices into
    the ranked hand, joker flags or None, sum). Equal pieces are interchangeable, so each
    order of values is given once, with the equal pieces taken in hand order along the
    line. A game meets a new hand at almost every turn, so a plan works out what it
    holds when first read (most hands of a game are met once or twice).
    """

    __slots__ = ("kinds", "maxk", "pattern", "mask", "plain", "sums", "singles", "_arrs",
                 "_coded")

    def __init__(self, kinds, maxk, rules):
        # kinds: (value, joker) of the ranked pieces
        self.kinds, self.maxk = kinds, maxk
        self.pattern = pattern = tuple([kinds.index(kind) for kind in kinds])
        self.mask = _value_mask(kinds, rules)
        self.plain = not any(joker for _, joker in kinds)  # bit tests stand for intervals
        self._arrs, self._coded = None, [None] * (maxk + 1)
        values = [value for value, _ in kinds]
        # k pieces sum from the k lowest values to the k highest (the ranked hand)
        ranges = [(sum(values[:k]), sum(values[len(values) - k:])) for k in range(maxk + 1)]
        self.sums = (ranges, {}, {})
        # a single of each value, as `arrs[1]` orders them: each kind's first piece
        self.singles = [(1 << values[i], (values[i],), i) for i, first in enumerate(pattern)
                        if first == i] if self.plain and maxk >= 1 else []

    @property
    def arrs(self) -> list[list[tuple]]:
        if self._arrs is None:
            self._arrs = _arrangements(self.kinds, self.maxk, self.pattern)
        return self._arrs

    def coded(self, n: int) -> list[tuple]:
        """(sum, (bits, values, take)) of each arrangement of `n` >= 2 pieces of a plain
        hand, in order, where `bits` has, in the field of each cell (`mask.bit_length()`
        bits, the first cell highest), the bit of the value laid there, and `take` picks
        the arrangement's pieces (a tuple) from the ranked hand."""
        found = self._coded[n]
        if found is None:
            width, values = self.mask.bit_length(), [value for value, _ in self.kinds]
            found = self._coded[n] = []
            for idx, take in _by_pattern(self.pattern, self.maxk)[n]:
                vals = take(values)
                m = 0
                for x in vals:
                    m = m << width | 1 << x
                found.append((sum(vals), (m, vals, take)))
        return found


_PLANS: dict[tuple, HandPlan] = {}  # (values and joker flags of the ranked hand, ...) -> plan
_ORDERS: dict[tuple, tuple] = {}  # ((value, joker) in hand order, ...) -> (plan, ranking)


_VALUE_JOKER = attrgetter("value", "joker")  # (a piece's attributes, read in C)
_VALUE, _JOKER = attrgetter("value"), attrgetter("joker")


def hand_plan(hand: Sequence[Piece], maxk: int, rules) -> tuple[HandPlan, Sequence[Piece]]:
    """The hand's plan and its pieces ranked by value, then hand order, as the
    arrangements index them. Kept by the hand's values and joker flags (a game meets new
    racks all the time, but few lists of values), and shared by the orders of the same
    values."""
    try:
        kinds = tuple(map(_VALUE_JOKER, hand))
    except AttributeError:  # a piece with no joker attribute is no joker
        kinds = tuple([(p.attrs["value"], p.attrs.get("joker")) for p in hand])
    # (a joker's plan depends on the values it may take)
    key = (kinds, maxk, rules.joker_lo, rules.joker_hi)
    found = _ORDERS.get(key)
    if found is None:
        values = tuple([value for value, _ in kinds])
        found = _remember(_ORDERS, key, _rank(values, [joker for _, joker in kinds], maxk,
                                               rules))
    return found[0], found[1](hand)


def _rank(values: tuple, jokers: list, maxk: int, rules) -> tuple:
    """(the plan, a function that ranks a hand of these values in this order)."""
    order = sorted(range(len(values)), key=values.__getitem__)
    # (a stable sort: equal values in hand order)
    plan = _plan([(values[i], jokers[i]) for i in order], maxk, rules)
    return plan, itemgetter(*order) if len(order) > 1 else list


def _plan(kinds, maxk: int, rules) -> HandPlan:
    """The plan of a ranked hand of these (value, joker) (kept by them and the rules'
    numbers the plan depends on)."""
    kinds = tuple([(value, bool(joker)) for value, joker in kinds])
    key = (kinds, maxk, rules.joker_lo, rules.joker_hi)
    plan = _PLANS.get(key)
    if plan is None:
        plan = _remember(_PLANS, key, HandPlan(kinds, maxk, rules))
    return plan


def _remember(cache: dict, key, value):
    if len(cache) > 20000:  # bounded: a long run meets many hands
        cache.clear()
    cache[key] = value
    return value


def _arrangements(kinds: tuple, maxk: int, pattern: tuple) -> list[list[tuple]]:
    """Per k up to `maxk`: (values, hand indices, joker flags or None, sum) for each
    distinct order of k of the hand's kinds (`pattern`: see `_by_pattern`)."""
    out = []
    for orders in _by_pattern(pattern, maxk):
        arrs = []
        for idx, _ in orders:
            key = [kinds[i] for i in idx]
            vals, flags = tuple([value for value, _ in key]), tuple([joker for _, joker in key])
            arrs.append((vals, idx, flags if True in flags else None, sum(vals)))
        out.append(arrs)
    return out


_PATTERNS: dict[tuple, list] = {}  # (pattern, maxk) -> per k, (index tuple, itemgetter)


def _by_pattern(pattern: tuple, maxk: int) -> list[list[tuple]]:
    """Per k up to `maxk`, the index tuples of the distinct orders of k kinds and their
    itemgetters (k >= 2). Index tuples come in increasing order, so the first one met for
    an order of kinds takes equal pieces in hand order. Which they are depends only on
    which kinds are equal (`pattern`: each kind's first index), so they are kept by it."""
    found = _PATTERNS.get((pattern, maxk))
    if found is None:
        found = _PATTERNS[(pattern, maxk)] = []
        for k in range(maxk + 1):
            seen: dict[tuple, tuple] = {}
            for idx in permutations(range(len(pattern)), k):
                seen.setdefault(tuple([pattern[i] for i in idx]), idx)
            found.append([(idx, itemgetter(*idx) if k >= 2 else None) for idx in seen.values()])
    return found


def _value_mask(facts, rules) -> int:
    """Bit v is set when some piece of the hand (its (value, joker)) may be laid with
    value v."""
    mask = 0
    for value, joker in facts:
        if joker:
            mask |= ((1 << (rules.joker_hi + 1)) - 1) >> rules.joker_lo << rules.joker_lo
        else:
            mask |= 1 << value
    return mask


def iter_plays(board, hand: Sequence[Piece], first: bool, rules) -> Iterator[SquarePlacement]:
    """Every legal play of `hand`: single pieces by cell, then rows, then columns."""
    return iter(find_plays(board, hand, first, rules))


def find_plays(board, hand: Sequence[Piece], first: bool, rules) -> list[SquarePlacement]:
    """`iter_plays` as a list (the helpers append to one list: no generator per step)."""
    out: list[SquarePlacement] = []
    maxk = len(hand)
    if rules.max_count < maxk:
        maxk = rules.max_count
    if not hand or maxk < rules.min_count:
        return out
    topo = board.topo
    # (the call only when the rules are new to the board: most calls would return at once)
    cross = board.cross if board.cross_for is rules else board.crosses(rules)
    if not first:  # (nearly every call: a plain hand goes the straight way)
        ctx = (_FAST.get(rules) or _fast_contexts(rules))[maxk]
        if ctx is None:
            ctx = _FAST[rules][maxk] = _context(rules, topo, maxk)
        if ctx and ctx[0] is topo and _touching(out, board, hand, rules, maxk, cross, ctx):
            return out
    elif not board.piece:  # (the first play of every game)
        return _on_empty(board, hand, rules, maxk, cross)
    return _general(out, board, hand, first, rules, maxk, cross)


def _general(out, board, hand, first, rules, maxk, cross) -> list[SquarePlacement]:
    """`find_plays` the general way: any hand, first play or not."""
    topo, v = board.topo, board.v
    need = None  # None: the contact rule; else the cells one of which must be covered
    if first and rules.cover_start:
        anchors = need = [c for c in topo.starts if v[c] == EMPTY]
    elif first and not board.piece:
        anchors = [i for i, x in enumerate(v) if x == EMPTY]
        need = _Anywhere()
    else:
        anchors = None  # the index's bit sets give the cells (below)
    plan, ranked = hand_plan(hand, maxk, rules)
    mask, plain = plan.mask, plan.plain
    pick = ranked.__getitem__  # a play's pieces: tuple(map(pick, indices))
    fits = None
    if need is None:  # kept with the first cells, until the board changes
        fits = board.starts.get(mask)
        if fits is None:
            fits = board.starts[mask] = board.fit_bits(mask)
    if rules.min_count <= 1:
        if fits is not None:  # only the anchors that take a value of the hand both ways
            anchors = _cells(board.anchor_bits & fits[0] & fits[1])
        if plain:
            plain_singles(out, board, anchors, cross, mask, plan.singles, ranked)
        else:
            _singles(out, board, anchors, cross, mask, plan.arrs[1], pick, rules)
    if maxk >= 2 and rules.window >= 2:
        window, room = rules.window, rules.max_length - max(2, rules.min_count)
        if fits is not None:  # the first cells of rows and of columns, at once
            lines = _useful_starts(board, fits, rules, maxk)
            if plain:
                along = _ALONG_OF.get((rules, maxk))
                if along is None:
                    along = _remember(_ALONG_OF, (rules, maxk), along_function(
                        window, max(2, rules.min_count), maxk) or plain_along)
                if along is plain_along:
                    plain_along(out, board, lines, mask, plan, maxk, ranked, rules)
                else:
                    along(out, board, lines, mask, plan, ranked, rules)
                return out
        for k, d in ((0, 1), (1, topo.stride)):
            if fits is None:
                key = (d, need is None, id(rules), k, room)
                starts = _starts(board, anchors, d, window, cross[1 - k], key)
            else:
                starts = lines[k]
            _along(out, board, starts, k, d, need, mask, cross[1 - k], plan.arrs, maxk, pick,
                   rules)
    return out


_EMPTY_PLAYS: dict[tuple, list] = {}  # (hand plan, rules, topology) -> plays on an empty board


def _on_empty(board, hand, rules, maxk, cross) -> list[SquarePlacement]:
    """`find_plays` on a board holding no piece, kept across games and boards: what the
    general way finds there depends only on the rules, the board's shape and the hand's
    plan (its ranked values and jokers), and it takes the pieces from the ranked hand;
    so the plays found once are made again for this board and ranked hand, in the same
    order, from their cells, values, the indices of their pieces in the ranked hand and
    their joker flags. (Every game starts so, and its general walk costs several
    positions' worth.)"""
    plan, ranked = hand_plan(hand, maxk, rules)
    key = (plan, rules, board.topo)
    known = _EMPTY_PLAYS.get(key)
    if known is None:
        plays = _general([], board, hand, True, rules, maxk, cross)
        at = dict(zip(map(id, ranked), range(len(ranked)))).__getitem__
        _remember(_EMPTY_PLAYS, key, [
            (play.cells, play.values, tuple(map(at, map(id, play.pieces))), play.flags)
            for play in plays])
        return plays
    out, pick = [], ranked.__getitem__
    for cells, values, idx, flags in known:
        play = _new(SquarePlacement)  # (`SquarePlacement.__init__` by hand, as elsewhere)
        play.board, play.cells, play.values = board, cells, values
        play.pieces = tuple(map(pick, idx))
        if flags is not None:
            play.flags = flags
        out.append(play)
    return out


class _Anywhere:
    """A first play that need not cover a start cell may lie anywhere."""

    def __contains__(self, cell) -> bool:
        return True


def _singles(out, board, anchors, cross, mask, arrs, pick, rules):
    across, down = cross
    for c in anchors:
        a, b = across[c], down[c]
        if a and b and a[3] & b[3] & mask:
            lo, hi = max(a[0], b[0]), min(a[1], b[1])
            for vals, idx, flags, total in arrs:
                if flags:
                    _with_jokers(out, board, (c,), ((lo, hi),), -BIG, BIG,
                                 vals, tuple(map(pick, idx)), flags, rules)
                elif lo <= total <= hi:
                    out.append(SquarePlacement(board, (c,), vals, tuple(map(pick, idx))))


def _starts(board, anchors, d, window, cross, key) -> list[int]:
    """First cells of plays along `d` that may reach an anchor (whatever the hand: the
    list is kept until the board changes, since an exchange leaves the board as it is)."""
    found = board.starts.get(key)
    if found is None:
        v, starts = board.v, set()
        for a in anchors:
            c = a
            for _ in range(window):
                x = v[c]
                if x == EDGE:
                    break
                if x == EMPTY:
                    if cross[c] is None:
                        break  # no play covers a cell that takes no value
                    starts.add(c)
                c -= d
        back, room = board.back[key[3]], key[4]  # key: (step, contact, rules, k, room)
        # a first cell after a run that leaves no room for a second piece starts nothing
        found = board.starts[key] = [c for c in sorted(starts) if back[c][0] <= room]
    return found


def _useful_starts(board, fits, rules, maxk) -> tuple[list[int], list[int]]:
    """`_starts` for plays that must touch the board, narrowed to the hand, in rows and in
    columns: the first cells from which the walk of `_along` meets at least one run of
    new pieces that keeps the length and contact rules (`fits`: the cells that take a
    value of the hand, per direction, as `SquareBoard.fit_bits` gives them). Worked out
    on the index's bit sets, for all cells and both directions at once, and kept until
    the board changes (copies of a position share them, as a search generates on many).

    The walk, done for every first cell at once on bit sets (a cell along the walk is
    filled, takes a value of the hand, or ends it), keeps the first cells that meet a
    candidate: `mink` new pieces or more, a line no longer than `max_length`, touching
    the board (a piece before the first cell, one inside the play, a new piece with a
    neighbour across or a piece after it). It is generated code for the rules' numbers
    (`square_unrolled.py`); what it reads whatever the hand is kept with the board."""
    topo = board.topo
    steps, live, steps_key, high = _WALKS.get((rules, topo, maxk)) or _walk(rules, topo, maxk)
    # a row's first cell must take a value down, a column's across (transposed: the top)
    fit = (fits[1] & topo.low_bits) | (fits[0] & high)
    key = (fit, maxk, id(rules))
    starts = board.starts
    found = starts.get(key)
    if found is None:
        known = starts.get(steps_key)
        if known is None:
            known = starts[steps_key] = steps(board.filled)
        live = live(fit, known)
        # (in C: a list comprehension is a call of its own)
        columns = sorted(map(topo.untranspose.__getitem__, _cells(live >> topo.offset)))
        found = starts[key] = (_cells(live & topo.low_bits), columns)
    return found


_FAST: dict = {}  # rules -> per most pieces, what `_touching` reads (None: not that way)


def _fast_contexts(rules) -> list:
    """Per most pieces (0..max_count), what `_touching` reads for these rules, worked out
    when first asked (None while not yet, False: the general way)."""
    return _remember(_FAST, rules, [None] * (rules.max_count + 1))


def _context(rules, topo, maxk):
    """What `_touching` reads for these rules, board shape and most pieces: the plans of
    the hands met and their ranking (by their values in hand order), the generated walks
    and the layout's numbers; False when these rules take the general way (a window too
    wide to write out)."""
    window = rules.window
    along = along_function(window, max(2, rules.min_count), maxk) if maxk >= 2 and \
        window >= 2 else None
    if along is None:
        return False
    steps, live, steps_key, high = _WALKS.get((rules, topo, maxk)) or _walk(rules, topo, maxk)
    _cells(topo.all_bits)  # (the table of bits, as long as the layout: see `_cells_in`)
    return (topo, {}, along, steps, live, steps_key, high, topo.low_bits, topo.offset,
            topo.untranspose.__getitem__, rules.min_count <= 1, id(rules))


def _touching(out, board, hand, rules, maxk, cross, ctx) -> bool:
    """`find_plays` after a first play, for a hand without jokers, in one frame: the hand
    plan, the singles, the first cells of `_useful_starts` and the generated walk (the
    same calls the general way makes, with what they look up kept in `ctx`). False,
    having added nothing, for a hand with a joker. One function on purpose, as `_along`:
    it runs for every position of every game."""
    (_, plans, along, steps, live, steps_key, high, low, offset, untranspose, singles,
     rules_id) = ctx
    # `hand_plan`, kept by the values in hand order with the order that ranks them (no
    # sort with a key function per position; a hand with a joker goes the general way)
    try:
        if any(map(_JOKER, hand)):
            return False
        values = tuple(map(_VALUE, hand))
    except AttributeError:  # a piece with no joker attribute is no joker
        if any(p.attrs.get("joker") for p in hand):
            return False
        values = tuple([p.attrs["value"] for p in hand])
    found = plans.get(values)
    if found is None:
        found = _remember(plans, values, _plain_rank(values, maxk, rules, plans))
    plan, order = found
    ranked = order(hand) if order else hand
    mask, starts = plan.mask, board.starts
    fits = starts.get(mask)
    if fits is None:
        fits = starts[mask] = board.fit_bits(mask)
    if singles:
        plain_singles(out, board, _cells_in(board.anchor_bits & fits[0] & fits[1]), cross, mask,
                      plan.singles, ranked)
    fit = (fits[1] & low) | (fits[0] & high)  # (see `_useful_starts`)
    key = (fit, maxk, rules_id)
    lines = starts.get(key)
    if lines is None:
        known = starts.get(steps_key)
        if known is None:
            known = starts[steps_key] = steps(board.filled)
        got = live(fit, known)
        lines = starts[key] = (_cells_in(got & low),
                               sorted(map(untranspose, _cells_in(got >> offset))))
    along(out, board, lines, mask, plan, ranked, rules)
    return True


def _plain_rank(values: tuple, maxk: int, rules, plans: dict) -> tuple:
    """(the plan of a hand without jokers of these values in this order, the itemgetter
    that ranks such a hand by value, equal values in hand order, or False when the hand
    is ranked already): what `_touching` keeps by the values in hand order. The plans
    are also kept in `plans` by the ranked values (a tuple of one more item, so that the
    two kinds of keys never meet), for the orders of the same values met later."""
    order = tuple(sorted(range(len(values)), key=values.__getitem__))  # (stable)
    ranked = (None, *map(values.__getitem__, order))
    plan = plans.get(ranked)
    if plan is None:
        plan = plans[ranked] = _plan([(x, False) for x in ranked[1:]], maxk, rules)
    ranks = _RANKS.get(order)
    if ranks is None:
        ranks = _remember(_RANKS, order, itemgetter(*order)
                          if order != tuple(range(len(order))) else False)
    return plan, ranks


_RANKS: dict[tuple, object] = {}  # an order of a hand's indices -> its itemgetter (or False)


_ALONG_OF: dict[tuple, object] = {}  # (rules, maxk) -> the generated walk or `plain_along`
_WALKS: dict[tuple, tuple] = {}  # (rules, topology, maxk) -> what `_useful_starts` calls


def _walk(rules, topo, maxk) -> tuple:
    """(steps of a board's filled cells, live, the key of the steps in `board.starts`,
    the bits of the second half of the layout) for these rules, board shape and most
    pieces (see `square_unrolled.walk_functions`)."""
    longest = max(topo.width, topo.height)
    # no walk goes further, no line is longer (and so no shift crosses the gap)
    window, ml = min(rules.window, longest), min(rules.max_length, longest + 1)
    steps, live = walk_functions(window, ml, max(2, rules.min_count), maxk,
                                 topo.stride == topo.stride_t)
    steps = partial(steps, topo.low_bits, topo.all_bits, topo.stride, topo.stride_t)
    return _remember(_WALKS, (rules, topo, maxk), (steps, live, ("steps", window, ml),
                                                   topo.all_bits ^ topo.low_bits))


def _along(out, board, starts, k, d, need, mask, cross, arrs, maxk, pick, rules):
    """Plays of two or more pieces along step `d`, by their first cell.

    One function on purpose: it is the innermost loop of every game, and a helper
    per candidate would cost more than the rest of the step.
    """
    add = out.append
    v, bounds, ml, window = board.v, rules.bounds, rules.max_length, rules.window
    back, ahead = board.back[k], board.ahead[k]
    mink = max(2, rules.min_count)
    for c in starts:
        iv = cross[c]
        if not iv[3] & mask:
            continue  # no piece of the hand fits here
        plen, psum = back[c]
        cells, ivs = [c], [iv]
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
            if iv is None or not iv[3] & mask:
                break
            cells.append(i)
            ivs.append(iv)
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
                lo, hi, at = lo - base, hi - base, tuple(cells)
                for vals, idx, flags, total in arrs[n]:
                    if flags:
                        _with_jokers(out, board, at, ivs, lo, hi, vals, tuple(map(pick, idx)),
                                     flags, rules)
                    elif lo <= total <= hi:
                        for x, iv in zip(vals, ivs):
                            if x < iv[0] or x > iv[1]:
                                break
                        else:
                            add(SquarePlacement(board, at, vals, tuple(map(pick, idx))))
            if n == maxk:
                break


def _with_jokers(out, board, cells, ivs, lo, hi, vals, pieces, flags, rules):
    """An arrangement with jokers: each joker takes every declared value that fits."""
    if sum(flags) > rules.max_jokers:
        return
    choices = []
    for val, flag, iv in zip(vals, flags, ivs):
        if flag:
            choices.append(range(max(rules.joker_lo, iv[0]), min(rules.joker_hi, iv[1]) + 1))
        elif iv[0] <= val <= iv[1]:
            choices.append((val,))
        else:
            return
    for combo in product(*choices):
        if lo <= sum(combo) <= hi:
            out.append(SquarePlacement(board, cells, combo, pieces, flags))
