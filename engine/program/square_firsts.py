"""The first cells of the square board's walks, found for all cells at once on bit sets
(`square_source` writes them into `B_touching` and `B_covering`): the text of the test.

Cell c + j d is bit c of a bit set shifted by j d. A first cell fits, and so does a
second new cell within the window (filled cells passed over), making a run not too
long; a cell of `near` lies within the window, reached through cells that are filled
or fit. The test's terms that read only the filled cells are named `fx0`, `fx1`, ...,
each worked out once before the branches by play length. (Keeping them for the last
board listed, as the seventeenth session tried, saved 1.5% of the instructions and no
time: docs/performance.md.)
"""

from __future__ import annotations

import re

#: a bit set read shifted by j steps (`_at`)
_SHIFT = re.compile(r"\((\w+) (>>|<<) (\d+) \* d\)")
#: `_second` bounds a run's length on the bit sets up to this many windows (and 2)
BOUNDED = 2

def _shifted(*texts: str) -> tuple:
    """`texts` with each shifted bit set (`_at`) read from a local of its own, and the
    lines setting those locals, each worked out once."""
    found: dict[tuple, str] = {}

    def local(match) -> str:
        name, op, j = match.groups()
        return found.setdefault((name, op, int(j)), f"{name}_{'a' if op == '>>' else 'b'}{j}")

    texts = tuple(_SHIFT.sub(local, text) for text in texts)
    lines = [f"d{j} = {j} * d" for j in sorted({j for _, _, j in found}) if j > 1]
    lines += [f"{name} = {of} {op} {'d' if j == 1 else f'd{j}'}"
              for (of, op, j), name in found.items()]
    return (*texts, lines)


def _at(name: str, j: int) -> str:
    """The bit set `name` read at cell c + j d (j < 0: before c)."""
    if j == 0:
        return name
    return f"({name} >> {j} * d)" if j > 0 else f"({name} << {-j} * d)"


def _second(window: int, longest: int) -> list[tuple[list, list]]:
    """Whether a second new cell that fits follows c within the window, j steps on
    (the cells between filled), with the run it makes no longer than `longest`: the
    pieces just before c (plen) and just after it (sn) fewer than longest - j. Per
    term, its factors that read the hand's cells and those that read only `filled`."""
    terms = []
    for j in range(1, window):
        if j + 1 > longest:
            break
        fixed = [_at("filled", i) for i in range(1, j)]
        room = longest - j  # (plen + sn must stay under it)
        if room <= BOUNDED * window + 2:  # (a looser bound is left to the walk)
            long = [" & ".join([_at("filled", -i) for i in range(1, k + 1)] +
                               [_at("filled", j + i) for i in range(1, room - k + 1)])
                    for k in range(room + 1)]
            fixed.append("~(" + " | ".join(long) + ")")
        terms.append(([_at("fit", j)], fixed))
    return terms


def _near(window: int, longest: int, most: int) -> list[tuple[list, list]]:
    """Whether a cell of `near` lies within the window from c (through `go` cells), and
    within `most` cells, in a span of cells no longer than `longest` (and with no piece
    beside it when as long); the factors per term as `_second` gives them."""
    terms = []
    for j in range(min(window, longest, most)):
        varying = [_at("go", i) for i in range(1, j)] + [_at("near", j)]
        fixed = [f"~({_at('filled', j + 1)} | {_at('filled', -1)})"] if j + 1 == longest else []
        terms.append((varying, fixed))
    return terms


def _joined(terms: list, names: dict, wrap: bool) -> str:
    """The terms' text, each term's factors on `filled` alone read as one name of
    `names` (text -> name, the same text the same name)."""
    out = []
    for varying, fixed in terms:
        if fixed:
            varying = [*varying, names.setdefault(" & ".join(fixed), f"fx{len(names)}")]
        out.append(f"({' & '.join(varying)})" if wrap else " & ".join(varying))
    return " | ".join(out)


def firsts(code, most: int | None = None) -> dict:
    """The lines setting `firsts` (for a play of as many pieces as the window, or as
    `most`, and of each fewer down to two: `maxk`), and those setting the shifted bit
    sets and the terms on `filled` alone they read."""
    top = min(code.window, code.longest, most or code.window)
    names: dict[str, str] = {}
    second = _joined(_second(code.window, code.longest), names, True) or "0"
    nears = [_joined(_near(code.window, code.longest, k), names, False)
             for k in range(top, 1, -1)]
    second, *nears, defs = _shifted(second, *nears)
    defs.insert(0, "go = fit | filled")
    lines, inside = _branch_defs(defs, second, nears)
    if names:
        *texts, shifts = _shifted(*names)
        lines = [*shifts, f"{_tuple(names.values())} = {_tuple(texts)}",
                 *[line for line in lines if line not in shifts]]  # (`d2 = 2 * d` once)
    for i, (k, near) in enumerate(zip(range(top, 1, -1), nears)):
        if k == top:
            head = f"if maxk >= {k}:" if k > 2 else "if True:"
        else:
            head = "else:" if k == 2 else f"elif maxk >= {k}:"
        lines += [head, *["    " + line for line in inside[i]],
                  f"    firsts = fit & ({second}) & ({near})"]
    return {"firsts": "\n    ".join(lines) or "firsts = 0"}


def _tuple(items) -> str:
    """The text of a tuple of `items` (texts), without its parentheses."""
    items = list(items)
    return ", ".join(items) + ("," if len(items) == 1 else "")


def _branch_defs(defs: list, second: str, nears: list) -> tuple[list, list]:
    """The lines `defs` (`name = ...`, in order) that every branch reads, and per
    branch those only its `near` reads (a shift of `go` for the longest plays, say:
    not worked out when the hand's plays are shorter)."""
    def reads(name: str, text: str) -> bool:
        return re.search(rf"\b{name}\b", text) is not None

    sides = [line.split(" = ", 1) for line in defs]
    readers: dict[str, set] = {}  # name -> the branches reading it (-1: every one)
    for name, _ in reversed(sides):  # (a line is read only by those after it)
        found = {-1} if reads(name, second) else set()
        found |= {i for i, near in enumerate(nears) if reads(name, near)}
        for other, text in sides:
            if other in readers and reads(name, text):
                found |= readers[other]
        readers[name] = found
    inside: list[list] = [[] for _ in nears]
    shared = []
    for line, (name, _) in zip(defs, sides):
        if not readers[name]:  # (read by no branch: `go` when no play is that long)
            continue
        one = len(readers[name]) == 1 and -1 not in readers[name]
        (inside[min(readers[name])] if one else shared).append(line)
    return shared, inside
