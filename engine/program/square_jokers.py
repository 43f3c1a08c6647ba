"""The `square` board's part of a program for a ruleset with jokers (`square.py`):
real functions, which the program holds as namespace constants, and the template of
its listing (`plays`, written into the program only then: the program of a ruleset
without jokers is the same text as before).

A hand holding no joker is listed by `B_plays`, as the interpreter lists it by its
straight way (`square_moves._touching`, `_on_empty`). A hand holding a joker takes the
interpreter's general way (`square_moves._general`) with the interpreter's own
functions, over the program's board: its plan (`square_hands.hand_plan`), then the
plays of one piece and those of two or more, rows then columns, by first cell
(`square_general.singles`, `lines`). The first cells walked are every cell that fits
with a cell the play must touch (an anchor, or a start cell to cover) within the
window (`_firsts`, on the board's bit sets): a first cell the interpreter leaves out
(`_useful_starts`, `_starts`) meets no candidate run, so the same plays come in the
same order. A play of such a hand is (cells, values, the pieces' indices in the ranked
hand, the joker flags or None); of a hand without a joker, as `B_plays` gives it
(cells, values).

The program's state then holds the joker cells as a bit set (the field `jokers`).
`B_lay` lays a play as without jokers; `joker_lay` then gives a joker's `placed`
record its face value and joker flag and a line through a joker its face sum (the
joker's declared value left out) and its count of jokers, each line measured by the
interpreter's `square_placement.run_jokers`.
"""

from __future__ import annotations

from engine.topology import square_general as general
from engine.topology.square_hands import hand_plan
from engine.topology.square_placement import EMPTY, run_jokers
from engine.topology.square_walks import bit_cells


def plays(b, hand, first, *, PLAIN, JOKERS):
    """The legal plays of `hand` on board `b`, as `square_moves.find_plays` lists them:
    `PLAIN` (`B_plays`) for a hand without a joker, else `JOKERS` (`joker_plays`)."""
    for p in hand:
        if p.joker:
            return JOKERS(b, hand, first)
    return PLAIN(b, hand, first)


def joker_plays(b, hand, first, *, rules, stride: int, window: int, starts: tuple) -> list:
    """The plays of `hand`, which holds a joker, on the program's board `b` (`square.py`:
    its cells, masks and bit sets) the interpreter's general way (`_general`); `window`:
    the rules' cut to the board, `starts` its start cells."""
    maxk = min(len(hand), rules.max_count)
    if maxk < rules.min_count:
        return []
    plan, _ = hand_plan(hand, maxk, rules)
    v, across, down, anchors = b[0], b[1], b[2], b[3]
    if first:
        need = cells = [c for c in starts if v[c] == EMPTY]
        target = sum(1 << c for c in need)
    else:
        need, target, cells = None, anchors, bit_cells(anchors)
    out: list = []
    if rules.min_count <= 1:
        general.singles(out, cells, across, down, plan.mask, plan.arrs[1], rules)
    if maxk >= 2 and window >= 2:
        firsts = (_firsts(b[6], plan.mask, target, 1, window),
                  _firsts(b[5], plan.mask, target, stride, window))
        general.lines(out, v, across, down, stride, firsts, need, plan.mask, plan.arrs,
                      maxk, rules)
    return out


def _firsts(groups: dict, mask: int, target: int, d: int, window: int) -> list[int]:
    """The first cells to walk along step `d`, in order: each empty cell whose mask
    across (`groups`: the cells by it) takes a value of `mask`, with a cell of `target`
    within the window from it."""
    fit = 0
    for m, found in groups.items():
        if m & mask:
            fit |= found
    reach = target
    for j in range(1, window):
        reach |= target >> j * d
    return bit_cells(fit & reach)


def joker_lay(v, pl, pieces, jokers: int, lines: list, placed: list, *, stride: int):
    """The measures `B_lay` gave the play `pl` (its `pieces`), laid on a board whose
    cells are `v` and whose joker cells are the bit set `jokers`, as
    `SquarePlacement._measure_laid` gives them: its `lines`, its `placed` records, and
    the joker cells after it."""
    cells, flags = pl[0], pl[3] if len(pl) > 3 else None
    if flags:
        for k, c in enumerate(cells):
            if flags[k]:
                jokers |= 1 << c
                placed[k] = placed[k]._replace(value=pieces[k].value, joker=True)
    if jokers and lines:
        lines = _joker_lines(v, jokers, cells, lines, stride)
    return lines, placed, jokers


def _joker_lines(v, jokers: int, cells, lines: list, stride: int) -> list:
    """The `lines` of a play laid by `B_lay`, each run met in the same order (the first
    cell's row and column, then each other cell's run across the play) to give a line
    through a joker its face sum and its count of jokers."""
    along = 0 if len(cells) == 1 else 1 if cells[1] - cells[0] < stride else stride
    out, k, lead = [], 0, True
    joker = set(bit_cells(jokers)).__contains__
    for c in cells:
        for d in (1, stride):
            if d == along and not lead:
                continue
            n, held, held_sum = run_jokers(v, joker, c, d)
            if n >= 2:
                line = lines[k]
                k += 1
                out.append(line._replace(face_sum=line.sum - held_sum, jokers=held)
                           if held else line)
        lead = False
    return out
