"""Generated, unrolled code for the first cells of the `square` generator.

`square_moves._useful_starts` finds, on bit sets for all cells and both directions at
once, the first cells from which the walk of a play meets a candidate run of new
pieces. That walk has at most `window` steps and each step keeps, per number n of new
pieces so far, the set of first cells whose walk is alive with n pieces: loops over
steps and over n, with a list per step, where the numbers of the rules (window, longest
line, fewest and most pieces) fix every bound. So the walk is written out as straight
Python for those numbers, once per set of numbers, with no loop and no list: about
three times cheaper than the loops it replaces, and the hot spot of every position.

What is generated comes only from integers (never from author text), and each function
computes what the loops did, term by term; tests/topology/test_square.py compares the
plays it leads to with those of the general loops on random boards and rules.
"""

from __future__ import annotations

from typing import Callable

_MADE: dict[tuple, tuple[Callable, Callable]] = {}  # (window, ml, mink, maxk) -> functions


def walk_functions(window: int, ml: int, mink: int, maxk: int) -> tuple[Callable, Callable]:
    """(steps, live) for these numbers (`window` and `ml` already cut to the board):

    - `steps(filled, low_bits, full, s, t)`: what the walks read whatever the hand, kept
      with the board until it changes: the cells whose run just before or whose
      neighbour across touches the board, then for each step j of the walk the filled
      cells j steps on (not for the last step), the cells where a new piece j steps on
      keeps the line short enough, and the cells j steps on that touch the board across
      or are followed by a piece, all in the layout of `Square.both` (`s`, `t`: the
      strides of its two halves), where a step is one bit in either direction;
    - `live(fit, steps)`: the cells of `fit` whose walk meets a candidate run (see
      `square_moves._useful_starts`).
    """
    key = (window, ml, mink, maxk)
    found = _MADE.get(key)
    if found is None:
        source = _steps_source(window, ml) + _live_source(window, mink, maxk)
        namespace: dict = {}
        exec(compile(source, f"<square walk {key}>", "exec"), namespace)  # numbers only
        found = _MADE[key] = (namespace["steps"], namespace["live"])
    return found


def _steps_source(window: int, ml: int) -> str:
    """The source of `steps`. back[r] / ahead[r] (`b{r}`, `a{r}`) are the cells with r
    or more filled cells just before / after them; a new piece j steps on makes the
    line too long when, for some p, the run before the first cell holds p pieces or
    more and the run after the piece holds room + 1 - p or more (room: the pieces the
    two runs may hold, ml - j - 1), p = 0 and p = room + 1 included."""
    out = ["def steps(filled, low_bits, full, s, t):",
           "    low = filled & low_bits",
           "    high = filled ^ low",
           "    across = (low << s) | (low >> s) | (high << t) | (high >> t)",
           "    near = across | (filled >> 1)"]
    longest_run = ml - 2  # (the room of the first step, the largest)
    for r in range(1, longest_run + 2):
        if r == 1:
            out += ["    b1 = filled << 1", "    a1 = filled >> 1"]
        else:
            out += [f"    b{r} = b{r - 1} & (filled << {r})", f"    a{r} = a{r - 1} & (filled >> {r})"]
    fields = ["(filled << 1) | across"]
    for j in range(1, window):
        room = ml - j - 1
        if room < 0:
            out.append(f"    f{j} = 0")
        else:
            bad = [f"(a{room + 1} >> {j})", f"b{room + 1}"]
            bad += [f"(b{p} & (a{room + 1 - p} >> {j}))" for p in range(1, room + 1)]
            out.append(f"    f{j} = full & ~({' | '.join(bad)})")
        if j < window - 1:  # (the last step's filled cells are not read: the walks end there)
            fields.append(f"filled >> {j}")
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
