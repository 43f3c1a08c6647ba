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
`square_walks.py`, which tests arrangements against cells with bit fields. Both walks
are written out as straight code for the rules' numbers (`square_walks.py`). All find
the same plays in the same order as the general loops (`square_general.py`, which the
general way here calls: tests compare them).

After the first play (nearly every call), a hand without jokers goes one straight way
(`_touching`), with what the steps above look up kept per rules and most pieces, and
its plan kept by the values of the ranked hand (kept by the values in hand order, the
plans miss so often in a short run that the misses cost more than the sort saves). The
first play of a game, on a board holding no piece, depends only on the rules, the
board's shape and the hand's plan: its plays are kept across games (`_on_empty`).
"""

from __future__ import annotations

from functools import partial
from typing import Iterator, Sequence

from engine.pieces import Piece
from engine.topology import square_general as general
from engine.topology.square_placement import EDGE, EMPTY, SquarePlacement
from engine.topology.square_hands import _JOKER, _VALUE, _plan, _remember, hand_plan
from engine.topology.square_walks import (along_function, plain_along, plain_singles,
                                          walk_functions)
from engine.topology.square_walks import bit_cells as _cells
from engine.topology.square_walks import bit_cells_in as _cells_in

_new = object.__new__


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
            found: list[tuple] = []
            general.singles(found, anchors, *_masks(board), mask, plan.arrs[1], rules)
            _made(out, board, found, ranked)
    if maxk >= 2 and rules.window >= 2:
        _lines(out, board, anchors, need, fits, plan, ranked, maxk, rules)
    return out


def _lines(out, board, anchors, need, fits, plan, ranked, maxk, rules) -> None:
    """The plays of two pieces or more of `_general`, rows then columns: from the first
    cells of `_useful_starts` when plays must touch the board (`fits` given), through the
    generated walk for a plain hand; else from the cells before the `anchors`, through
    `square_general.lines`."""
    mask, cross = plan.mask, board.cross
    if fits is not None:  # the first cells of rows and of columns, at once
        lines = _useful_starts(board, fits, rules, maxk)
        if plan.plain:
            along = _ALONG_OF.get((rules, maxk))
            if along is None:
                along = _remember(_ALONG_OF, (rules, maxk), along_function(
                    rules.window, max(2, rules.min_count), maxk) or plain_along)
            if along is plain_along:
                plain_along(out, board, lines, mask, plan, maxk, ranked, rules)
            else:
                along(out, board, lines, mask, plan, ranked, rules)
            return
    else:
        room = rules.max_length - max(2, rules.min_count)
        lines = tuple(_starts(board, anchors, d, rules.window, cross[1 - k],
                              (d, need is None, id(rules), k, room))
                      for k, d in ((0, 1), (1, board.topo.stride)))
    found: list[tuple] = []
    general.lines(found, board.v, *_masks(board), board.topo.stride, lines, need, mask,
                  plan.arrs, maxk, rules)
    _made(out, board, found, ranked)


def _masks(board) -> tuple[list, list]:
    """The board's `cross` intervals, per direction, as the bit sets of values
    `square_general` reads (0: none)."""
    return tuple([iv[3] if iv else 0 for iv in cross] for cross in board.cross)


def _made(out, board, found, ranked) -> None:
    """The plays `found` as `square_general` gives them (cells, values, indices in the
    `ranked` hand, joker flags or None), made into `SquarePlacement`s on `out`."""
    pick = ranked.__getitem__
    for cells, values, idx, flags in found:
        play = _new(SquarePlacement)  # (`SquarePlacement.__init__` by hand, as elsewhere)
        play.board, play.cells, play.values = board, cells, values
        play.pieces = tuple(map(pick, idx))
        if flags is not None:
            play.flags = flags
        out.append(play)


_EMPTY_PLAYS: dict[tuple, list | bool] = {}  # (hand plan, rules, board) -> plays (False: met once)


def _on_empty(board, hand, rules, maxk, cross) -> list[SquarePlacement]:
    """`find_plays` on a board holding no piece, kept across games and boards: what the
    general way finds there depends only on the rules, the board's shape and the hand's
    plan (its ranked values and jokers), and it takes the pieces from the ranked hand;
    so the plays found for a plan met before are kept, and made again for later boards
    and ranked hands, in the same order, from their cells, values, the indices of their
    pieces in the ranked hand and their joker flags. (Every game starts so, and its
    general walk costs several positions' worth; keeping a plan's plays costs a third
    of that walk, so a plan met once, as most of a short run, is only noted.)"""
    plan, ranked = hand_plan(hand, maxk, rules)
    key = (plan, rules, board.topo)
    known = _EMPTY_PLAYS.get(key)
    if known is None or known is False:
        plays = _general([], board, hand, True, rules, maxk, cross)
        if known is None:  # (kept when met again: most plans of a short run come once)
            _remember(_EMPTY_PLAYS, key, False)
            return plays
        at = dict(zip(map(id, ranked), range(len(ranked)))).__getitem__
        _EMPTY_PLAYS[key] = [
            (play.cells, play.values, tuple(map(at, map(id, play.pieces))), play.flags)
            for play in plays]
        return plays
    out: list[SquarePlacement] = []
    _made(out, board, known, ranked)
    return out


class _Anywhere:
    """A first play that need not cover a start cell may lie anywhere."""

    def __contains__(self, cell) -> bool:
        return True


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
    columns: the first cells from which the walk of `square_general.along_from` meets at
    least one run of new pieces that keeps the length and contact rules (`fits`: the
    cells that take a value of the hand, per direction, as `SquareBoard.fit_bits` gives
    them). Worked out
    on the index's bit sets, for all cells and both directions at once, and kept until
    the board changes (copies of a position share them, as a search generates on many).

    The walk, done for every first cell at once on bit sets (a cell along the walk is
    filled, takes a value of the hand, or ends it), keeps the first cells that meet a
    candidate: `mink` new pieces or more, a line no longer than `max_length`, touching
    the board (a piece before the first cell, one inside the play, a new piece with a
    neighbour across or a piece after it). It is generated code for the rules' numbers
    (`square_walks.py`); what it reads whatever the hand is kept with the board."""
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
    the hands met (by their ranked values), the generated walks and the layout's numbers;
    False when these rules take the general way (a window too wide to write out)."""
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
    """`find_plays` after a first play, for a hand without jokers: the hand plan, the
    singles, the first cells of `_useful_starts` and the generated walk (the same calls
    the general way makes, with what they look up kept in `ctx`, in few frames: it runs
    for every position of every game). False, having added nothing, for a joker."""
    (_, plans, along, steps, live, steps_key, high, low, offset, untranspose, singles,
     rules_id) = ctx
    # `hand_plan`, with the plans kept by the values of the ranked hand (fewer keys than
    # its orders; a hand with a joker goes the general way)
    ranked, values = _rank_plain(hand)
    if ranked is None:
        return False
    plan = plans.get(values)
    if plan is None:
        plan = _remember(plans, values, _plan([(x, False) for x in values], maxk, rules))
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


def _rank_plain(hand) -> tuple:
    """(the hand by value, equal values in hand order; its values), or (None, None) for
    a hand with a joker."""
    try:
        ranked = sorted(hand, key=_VALUE)  # (stable: equal values in hand order)
        joker = any(map(_JOKER, ranked))
        values = tuple(map(_VALUE, ranked))
    except AttributeError:  # a piece with no joker attribute is no joker
        ranked = sorted(hand, key=lambda p: p.attrs["value"])
        joker = any(p.attrs.get("joker") for p in ranked)
        values = tuple([p.attrs["value"] for p in ranked])
    return (None, None) if joker else (ranked, values)


_ALONG_OF: dict[tuple, object] = {}  # (rules, maxk) -> the generated walk or `plain_along`
_WALKS: dict[tuple, tuple] = {}  # (rules, topology, maxk) -> what `_useful_starts` calls


def _walk(rules, topo, maxk) -> tuple:
    """(steps of a board's filled cells, live, the key of the steps in `board.starts`,
    the bits of the second half of the layout) for these rules, board shape and most
    pieces (see `square_walks.walk_functions`)."""
    longest = max(topo.width, topo.height)
    # no walk goes further, no line is longer (and so no shift crosses the gap)
    window, ml = min(rules.window, longest), min(rules.max_length, longest + 1)
    steps, live = walk_functions(window, ml, max(2, rules.min_count), maxk,
                                 topo.stride == topo.stride_t)
    steps = partial(steps, topo.low_bits, topo.all_bits, topo.stride, topo.stride_t)
    return _remember(_WALKS, (rules, topo, maxk), (steps, live, ("steps", window, ml),
                                                   topo.all_bits ^ topo.low_bits))
