"""Typed plays of the `square` kind: reading a play such as `H8=4 H9=11`, and the first
legality rule a play breaks, in words (for players and scenario files; the generator
never makes an illegal play), and the row letters of cell names."""

from __future__ import annotations

import re
from typing import Sequence

from engine.pieces import Piece
from engine.topology.square_placement import EMPTY, SquarePlacement

# (boards are annotated by name only: `square_board.py` sits above this module)

_CELL_TEXT = re.compile(r"^([A-Za-z]+)(\d+)=([Jj]?)(-?\d+)$")

__all__ = ["draw_board", "mark_glyph", "read_cells", "read_play", "row_label", "run_problem",
           "why_illegal"]


def read_play(board: "SquareBoard", text: str, hand: Sequence[Piece], rules) -> SquarePlacement:
    """The cells, values and rack pieces of a typed play, in line order."""
    entries = sorted(read_cells(board, text))
    if not entries:
        raise ValueError("an empty play: type cells and values, e.g. `H8=4 H9=11`")
    if len({c for c, _, _ in entries}) < len(entries):
        raise ValueError("a cell is named twice in the play")
    left = list(hand)
    pieces = []
    for c, val, joker in entries:
        found = next((p for p in left if bool(p.attrs.get("joker")) == joker
                      and (joker or p.value == val)), None)
        if found is None:
            rack = " ".join("J" if p.attrs.get("joker") else str(p.value) for p in hand)
            what = "joker" if joker else f"{val}"
            raise ValueError(f"{board.topo.label(c)}: there is no {what} on the rack ({rack})")
        if joker and not rules.joker_lo <= val <= rules.joker_hi:
            raise ValueError(f"{board.topo.label(c)}: a joker takes a value from "
                             f"{rules.joker_lo} to {rules.joker_hi}, not {val}")
        left.remove(found)
        pieces.append(found)
    flags = tuple(j for _, _, j in entries)
    return SquarePlacement(board, tuple(c for c, _, _ in entries),
                           tuple(v for _, v, _ in entries), tuple(pieces),
                           flags if any(flags) else None)


def read_cells(board: "SquareBoard", text: str):
    """(cell, value, joker flag) of each `H8=4` of a typed play, each on an empty cell."""
    topo = board.topo
    for word in text.replace(",", " ").split():
        m = _CELL_TEXT.match(word)
        if not m:
            raise ValueError(f"cannot read `{word}`: type a play as `H8=4 H9=11` "
                             "(a joker as `H8=J7`)")
        y, x = _row_index(m.group(1)), int(m.group(2)) - 1
        if not (0 <= x < topo.width and 0 <= y < topo.height):
            raise ValueError(f"`{word}`: no such cell (rows A-{row_label(topo.height - 1)}, "
                             f"columns 1-{topo.width})")
        c = topo.index(x, y)
        if board.v[c] != EMPTY:
            raise ValueError(f"{topo.label(c)} already holds a token")
        yield c, int(m.group(4)), bool(m.group(3))


def why_illegal(board: "SquareBoard", play: SquarePlacement, first: bool, rules) -> str | None:
    """The first legality rule the play breaks, in words; None when it is legal."""
    topo, cells, n = board.topo, play.cells, len(play.cells)
    if not rules.min_count <= n <= rules.max_count:
        return f"a play lays {rules.min_count} to {rules.max_count} tokens, not {n}"
    xs = {topo.xy(c)[0] for c in cells}
    ys = {topo.xy(c)[1] for c in cells}
    if len(xs) > 1 and len(ys) > 1:
        return "the tokens of a play must lie in one row or one column"
    d = 1 if len(ys) == 1 else topo.stride
    span = (cells[-1] - cells[0]) // d + 1
    if span > rules.window:
        return (f"the play spans {span} cells ({topo.label(cells[0])}-"
                f"{topo.label(cells[-1])}); it must lie within {rules.window} consecutive cells")
    new = set(cells)
    for c in range(cells[0], cells[-1], d):
        if c not in new and board.v[c] < 0:
            return f"a gap at {topo.label(c)}: cells between played tokens must hold tokens"
    if play.jokers > rules.max_jokers:
        return f"at most {rules.max_jokers} joker(s) in one play"
    if first and rules.cover_start:
        if not new & set(topo.starts):
            start = " or ".join(topo.label(c) for c in topo.starts)
            return f"the first play must cover the start cell {start}"
    elif not first and not any(board.v[c + e] >= 0 for c in cells
                               for e in (1, -1, topo.stride, -topo.stride)):
        return "the play must touch a token already on the board (orthogonally)"
    for d, run in play.runs():
        reason = run_problem(board, d, run, play, rules)
        if reason:
            return reason
    return None


def run_problem(board: "SquareBoard", d: int, run: list[int], play, rules) -> str | None:
    """Why a run breaks the line rules, naming its cells; None if it keeps them."""
    topo, n = board.topo, len(run)
    declared = dict(zip(play.cells, play.values)) if play else {}
    where = f"the {'row' if d == 1 else 'column'} {topo.label(run[0])}-{topo.label(run[-1])}"
    if n > rules.max_length:
        return f"{where} would hold {n} tokens; a line holds at most {rules.max_length}"
    total = sum(declared[c] if c in declared else board.v[c] for c in run)
    lo, hi = rules.bounds[n]
    if lo <= total <= hi:
        return None
    if lo == hi:
        need = f"exactly {lo}"
    else:
        need = f"at most {hi}" if total > hi else f"at least {lo}"
    return f"{where} sums to {total}; a line of {n} must sum to {need}"


def mark_glyph(mark: str) -> str:
    """How an empty cell's legend mark is drawn: a digit as `x2`, so that an empty
    premium cell never reads as a token of that value; others as they are."""
    return f"x{mark}" if mark.isdigit() else mark


def draw_board(topo, board: "SquareBoard", last=()) -> list:
    """Rows A.. down, columns 1.. across, as styled runs: tokens (`piece`, or `last` for
    the cells of the last play), empty cells by their legend mark (`mark1`.. in the
    legend's order, `empty` for a plain cell), the row and column names (`axis`)."""
    marks = sorted({m for m in topo.marks if m != "."})
    cols = "".join(f"{x + 1:>3}" for x in range(topo.width))
    axis = [("  " + cols, "axis")]
    lines = [axis]
    last = set(last)
    for y in range(topo.height):
        lab = row_label(y)
        line = [(f"{lab:<2}", "axis")]
        for x in range(topo.width):
            i = topo.index(x, y)
            v = board.v[i]
            if v >= 0:
                text, style = f"{'J' if board.jk[i] else ''}{v}", "last" if i in last else "piece"
            else:
                mark = topo.marks[i]
                text = mark_glyph(mark)
                style = f"mark{min(marks.index(mark) + 1, 6)}" if mark != "." else "empty"
            if len(text) < 3:  # the padding apart: a highlight covers the glyph alone
                line.append((" " * (3 - len(text)), None))
            line.append((text, style))
        line.append((f"  {lab}", "axis"))
        lines.append(line)
    lines.append(axis)
    return lines


def row_label(y: int) -> str:
    """Letters for row `y`: A..Z, then AA, AB... (row 7 is `H`)."""
    text = ""
    y += 1
    while y:
        y, r = divmod(y - 1, 26)
        text = chr(65 + r) + text
    return text


def _row_index(letters: str) -> int:
    n = 0
    for ch in letters.upper():
        n = n * 26 + ord(ch) - 64
    return n - 1

