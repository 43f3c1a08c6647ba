"""The `triangular` board's open cells: kept up to date as a tile goes down (`lay`), read
when a hand's placements are listed (`fitting`).

Plain functions over a `TriangularBoard`'s fields (see its docstring for the records of
the open cells), written once: the board's `apply_placement` and `iter_placements` call
them, and so does a compiled program (engine/program/triangular.py), which codes its
placements as ints and keeps no placement objects.
"""

from __future__ import annotations

from engine.topology.triangular_catalogue import Catalogue
from engine.topology.triangular_grid import (
    _ID_AROUND, _ID_AROUND_FULL, _ID_POINTS, _MEASURES, _PUT, LIMIT, Cell, _measures,
)

_ID_AROUND_PAIRS = {up: tuple(tuple(ring.items()) for ring in _ID_AROUND[up]) for up in (True, False)}
_FAR = {up: _PUT[up][9:] for up in (True, False)}  # far corners' offsets, the cell below/above


def lay(board: "TriangularBoard", cid: int, cell: Cell, up: bool, entry: tuple) -> tuple:
    """Put the catalogue's `entry` (a piece in one rotation: `Catalogue`) down on `cell`
    (its id `cid`, pointing `up`: `cell_id`, `is_up`), keeping the point map and the open
    cells up to date; the placement's measures (`_measures`: which neighbours held a tile
    before it last, at `MASK`). It runs for every tile laid: each step is a few look-ups;
    the new edge neighbours in `open_sides`."""
    c, r = cell
    if (c + LIMIT | r + LIMIT) >> 15:  # either is out of 0 .. 2 * LIMIT
        raise ValueError(f"cell {c},{r} is too far from the origin (more than {LIMIT - 1} either way)")
    dm, dl, dr, fm, fl, fr, bm, bl, br, _, _, _, _ = _PUT[up]
    pts, round_, edge = board._pts, board._round, board._edge
    _, _, rotation, numbers, piece, _, bit, sides = entry
    free = board._free = board._free - bit  # (- is &~: it was not down)
    at_m, at_l, at_r = cid + dm, cid + dl, cid + dr
    a_m, a_l, a_r = round_.get(at_m, 0), round_.get(at_l, 0), round_.get(at_r, 0)
    mask = fm[a_m] | fl[a_l] | fr[a_r]  # which neighbours hold a tile
    found = _MEASURES.get(mask) or _measures(mask)  # (the board before the tile)
    round_[at_m], round_[at_l], round_[at_r] = a_m | bm, a_l | bl, a_r | br
    board._tiles[cid] = (piece, numbers, rotation, cell)
    edge.pop(cid, None)
    if not (a_m and a_l and a_r):  # a number new to the table: the open cells round it learn it
        around, catalogue, (n0, n1, n2) = _ID_AROUND_PAIRS[up], board._catalogue, numbers
        if not a_m:  # (a point already showing one shows the same)
            pts[at_m] = n0
            learn(edge, cid, around[0], n0, catalogue, free)
        if not a_l:
            pts[at_l] = n1
            learn(edge, cid, around[1], n1, catalogue, free)
        if not a_r:
            pts[at_r] = n2
            learn(edge, cid, around[2], n2, catalogue, free)
    open_sides(board, cid, c, r, up, mask, sides, free)
    if board._near is not None:
        put_near(board, cid, cell, up, (not a_m, not a_l, not a_r))
    return found


def learn(edge: dict, cid: int, around: tuple, number: int, catalogue: Catalogue, free: int) -> None:
    """`number` shows at a point for the first time: the open cells round it learn it
    (`around`: pairs of their id delta from `cid` and their corner there); a cell no piece off
    the table (`free`) fits any more is closed."""
    for delta, k in around:  # (few are open)
        x = cid + delta
        if x in edge:
            rec = edge[x]
            slot = rec[2][6].get(4 * number + k) or catalogue.after(rec[2], k, number)
            if slot[0] & free:
                edge[x] = (x, slot[0], slot, rec[3])
            else:
                del edge[x]


def open_sides(board: "TriangularBoard", cid: int, c: int, r: int, up: bool, mask: int,
               sides: tuple, free: int) -> None:
    """`lay` for the empty edge neighbours of a tile just laid (`mask`: the full ones)
    that shared no edge until now: they open if some piece fits, each from its slot
    knowing the two corners it shares (`edge_slots`) and the number at its far corner if
    one shows there (those open already know every number they share)."""
    pts, edge, catalogue = board._pts, board._edge, board._catalogue
    far_l, far_r, far_m, mid = _FAR[up]
    x = cid - 1
    if not mask & 1 and x not in edge:
        slot, v = sides[0], pts.get(cid + far_l)
        if v is not None:
            slot = slot[6].get(4 * v + 1) or catalogue.after(slot, 1, v)
        if slot[0] & free:
            edge[x] = (x, slot[0], slot, (c - 1, r))
    x = cid + 1
    if not mask & 2 and x not in edge:
        slot, v = sides[1], pts.get(cid + far_r)
        if v is not None:
            slot = slot[6].get(4 * v + 2) or catalogue.after(slot, 2, v)
        if slot[0] & free:
            edge[x] = (x, slot[0], slot, (c + 1, r))
    x = cid + mid
    if not mask & 4 and x not in edge:
        slot, v = sides[2], pts.get(cid + far_m)
        if v is not None:
            slot = slot[6].get(4 * v) or catalogue.after(slot, 0, v)
        if slot[0] & free:
            edge[x] = (x, slot[0], slot, (c, r + 1 if up else r - 1))


def put_near(board: "TriangularBoard", cid: int, cell: Cell, up: bool, fresh: tuple) -> None:
    """`lay` for the records of every open cell (`contact: point`), once the tile and its
    numbers are down: the cells round a new number learn it, or open with it."""
    near, tiles, get, slot_of = board._near, board._tiles, board._pts.get, board._catalogue.slot
    (c, r), after = cell, board._catalogue.after
    near.pop(cid, None)
    for j in 0, 1, 2:
        if fresh[j]:
            number = board._pts[cid + _ID_POINTS[up][j]]
            for delta, k, nup, dc, dr, pm, pl, pr in _ID_AROUND_FULL[up][j]:
                other = cid + delta
                rec = near.get(other)
                if rec is not None:
                    slot = rec[2][6].get(4 * number + k) or after(rec[2], k, number)
                    near[other] = (other, slot[0], slot, rec[3])
                elif other not in tiles:  # it touched no tile until now
                    slot = slot_of((nup, get(cid + pm), get(cid + pl), get(cid + pr)))
                    near[other] = (other, slot[0], slot, (c + dc, r + dr))


def fitting(frontier: dict, held: int, catalogue: Catalogue) -> list:
    """The open cells of `frontier` (records, as the board keeps them) that some piece of
    `held` (uids as a bit set) fits, by id (by row, then column), each as (its id, its
    cell, the entries of those pieces in its slot: by numbers, then uid, then rotation),
    which is the order of a hand's placements (`iter_placements`)."""
    cells = []  # (a plain loop: the hot one)
    for rec in frontier.values():
        if rec[1] & held:
            cells.append(rec)
    if len(cells) > 1:  # by id (first, and distinct); few cells fit
        cells.sort()
    found = []
    for x, mask, slot, cell in cells:
        fits = mask & held  # (the slot's own mask may have more pieces, none in the hand)
        entries = slot[5].get(fits)  # the entries of these tiles (usually one)
        if entries is None:
            entries = tuple(entry for entry in catalogue.entries(slot) if held & entry[6])
            if len(slot[5]) < 64:  # a few sets of several tiles are kept too
                slot[5][fits] = entries
        found.append((x, cell, entries))
    return found
