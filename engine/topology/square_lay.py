"""Laying a play on a `square` board: the steps of `SquareBoard.apply_placement` for a
play of two pieces, for any play, and for one run through a new piece.

They run for every play of every game: a play of one or two pieces (nearly every play)
has its own way with no loop over cells, and each reads what it needs from the board in
as few loads as it can (`SquareBoard.by_dir`).
"""

from __future__ import annotations

from engine.topology.square_placement import EMPTY, SquarePlacement

# (boards are annotated by name only: `square_board.py` sits above this module)


def lay_two(board: "SquareBoard", placement: "SquarePlacement") -> None:
    """`SquareBoard.apply_placement` of a play of two pieces (nearly all the plays
    of more than one), on a board whose `cross` intervals are worked out."""
    (c, c2), v, stride = placement.cells, board.v, board.topo.stride
    if c2 - c == 1:
        k = 0
    elif c2 - c == stride:
        k = 1
    else:  # (a filled cell between them)
        lay_many(board, placement)
        return
    (v[c], v[c2]), flags = placement.values, placement.flags
    board.piece[c], board.piece[c2] = placement.pieces
    if flags:
        board.jk[c], board.jk[c2] = flags
        board.jokers += sum(flags)
    both, near = board.topo.both, board.tables.near
    filled = board.filled = board.filled | both[c] | both[c2]
    anchors = board.anchor_bits | near[c] | near[c2]  # (as in `SquareBoard.apply_placement`)
    board.anchor_bits = anchors ^ (anchors & filled)
    board._plays, board.starts = None, {}
    leave(board.cross[k], board.by_iv[k], both, c2)  # (the second, along the play)
    lay = lay_cell
    if k:
        along, across = lay(board, 1, c), [lay(board, 0, c), lay(board, 0, c2)]
    else:
        along, across = lay(board, 0, c), [lay(board, 1, c), lay(board, 1, c2)]
    if placement._placed is None:
        if flags is None and not board.jokers:
            placement._measure_two(board, k, along, across)
        else:
            placement._measure_laid(board, k, along, across)


def lay_many(board: "SquareBoard", placement: "SquarePlacement") -> None:
    """`SquareBoard.apply_placement` of any play: of three pieces or more, not in one
    run, or on a board whose `cross` intervals were never asked for."""
    cells, v, piece = placement.cells, board.v, board.piece
    both, near_of = board.topo.both, board.tables.near
    played = near = 0
    for c, val, p in zip(cells, placement.values, placement.pieces):
        v[c], piece[c] = val, p
        played |= both[c]
        near |= near_of[c]
    if placement.flags:  # (an empty cell's flag is already False)
        for c, flag in zip(cells, placement.flags):
            board.jk[c] = flag
        board.jokers += sum(placement.flags)
    filled = board.filled = board.filled | played
    anchors = board.anchor_bits | near  # (as in `SquareBoard.apply_placement`)
    board.anchor_bits = anchors ^ (anchors & filled)
    board._plays, board.starts = None, {}
    stride = board.topo.stride
    if len(cells) == 1:
        k = 0  # (its row is measured first, as the run along a row play)
    else:
        k = 0 if cells[1] - cells[0] < stride else 1
        if not (len(cells) == 2 and cells[1] - cells[0] == (stride if k else 1)
                or _in_one_run(v, cells, stride if k else 1)):
            k = -1
    if k < 0 or board.cross_for is None:
        board._lay_anyhow(placement)  # (never in a game: see there)
        return
    # the run along the play holds all its cells: walked once, from the first (the
    # others first leave their intervals that way); then each cell's run across
    cross, by_iv = board.cross[k], board.by_iv[k]
    for c in cells[1:]:
        leave(cross, by_iv, both, c)
    along = lay_cell(board, k, cells[0])
    across = [lay_cell(board, 1 - k, c) for c in cells]
    if placement._placed is None:
        placement._measure_laid(board, k, along, across)


def lay_cell(board: "SquareBoard", k: int, c: int) -> tuple[int, int]:
    """The index along direction `k` once the run through the new piece on `c` is laid
    (any other new pieces of that run have left their intervals that way): `c` leaves
    its interval; the run is walked, and the empty cells at its two ends get the run
    beside them, their `cross` interval from the runs on both sides, and move to the
    cells of that interval. Returns the run's (length, sum).

    It runs for every play of every game, two to four times: the walk is written here,
    what happens at an end is a call (`_interval`, `_shift`) only where something changes."""
    v, both, rows, back, ahead, cross, by_iv, d = board.by_dir[k]
    old = cross[c]
    if old is not None:
        cross[c] = None
        _shift(by_iv, old, None, both[c])
    total, a, b = v[c], c - d, c + d
    while (x := v[a]) >= 0:
        total += x
        a -= d
    while (y := v[b]) >= 0:
        total += y
        b += d
    n = (b - a) // d - 1  # (a and b are the ends now: the cells just outside)
    run = (n, total)
    old_a = iv_a = cross[a]  # (an edge's: None, kept)
    old_b = iv_b = cross[b]
    if x == EMPTY:
        ahead[a] = run
        iv_a = _interval(rows, board.cross_for, n, total, back[a])
    if y == EMPTY:
        back[b] = run
        iv_b = _interval(rows, board.cross_for, n, total, ahead[b])
    if iv_a is not old_a:  # end a moves out of the cells of one interval into another's
        cross[a] = iv_a
        bits = both[a]
        if iv_b is iv_a and old_b is old_a:  # (often: both ends move alike, at once)
            cross[b], bits, old_b = iv_b, bits | both[b], iv_b
        _shift(by_iv, old_a, iv_a, bits)
    if iv_b is not old_b:  # end b: the same
        cross[b] = iv_b
        _shift(by_iv, old_b, iv_b, both[b])
    return run


def _interval(rows: list[dict], rules, n: int, total: int, beside: tuple):
    """The `cross` interval of an empty cell between a run of `n` pieces summing to
    `total` and the run `beside` it on the other side, (length, sum)."""
    n += beside[0]
    total += beside[1]
    try:
        return rows[n][total]
    except LookupError:
        return _learn(rows, rules, n, total)


def _shift(by_iv: dict, old, new, bits: int) -> None:
    """The cells `bits` leave the cells of interval `old` for those of `new` (either
    None: no interval) in `by_iv`, which keeps the cells by interval's bit set of values."""
    if old is not None:
        old = old[3]
        left = by_iv[old] ^ bits  # (its cells hold these)
        if left:
            by_iv[old] = left
        else:
            del by_iv[old]
    if new is not None:
        new = new[3]
        by_iv[new] = by_iv.get(new, 0) | bits


def leave(cross: list, by_iv: dict, both: list, c: int) -> None:
    """The newly filled cell `c` leaves its interval along one direction (`cross` and
    `by_iv` of that direction): a filled cell takes no value, and its runs beside are
    not read."""
    old = cross[c]
    if old is not None:
        cross[c] = None
        _shift(by_iv, old, None, both[c])


def _learn(rows: list[dict], rules, n: int, total: int):
    """`rules.cross(n, total)`, added to `rows` (see `_cross_rows`)."""
    while len(rows) <= n:
        rows.append({})
    found = rows[n][total] = rules.cross(n, total)
    return found


def _in_one_run(v: list, cells, d: int) -> bool:
    """Whether the laid `cells` (in line order) lie in one run along step `d`: each next
    one `d` further on, or further along that line past filled cells only."""
    for a, b in zip(cells, cells[1:]):
        if b - a != d and ((b - a) % d or any(v[c] < 0 for c in range(a + d, b, d))):
            return False
    return True
