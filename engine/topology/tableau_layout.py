"""Reading a `tableau` layout (see `tableau.py`) into the shared, static `Layout`.

Every problem is collected as a diagnostic with its position in the `board` mapping,
so a ruleset author sees them all at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Mapping

from engine.diagnostics import Diagnostic, Position, Severity, define
from engine.topology.base import Where

define("R470", "tableau-no-slots", "a tableau board has neither `rows` nor `slots`")
define("R471", "tableau-bad-row", "a tableau row is not a list of numbers")
define("R472", "tableau-slot-out-of-range", "a slot index that the layout does not have")
define("R473", "tableau-covering-cycle", "slots that cover one another in a cycle")
define("R474", "tableau-row-out-of-range", "`face_down_rows` names a row the layout lacks")
define("R475", "tableau-bad-face-down", "`face_down` is not `all`, `none` or a slot list")
define("R476", "tableau-overlapping-slots", "two slots of one row closer than a card width",
       Severity.WARNING)


@dataclass(frozen=True)
class Slot:
    """A place in the layout; `move.slot` in expressions (`index`, `row`, `tags`)."""

    index: int
    row: int
    tags: tuple[str, ...]


@dataclass(frozen=True)
class Layout:
    """The static part of a tableau, shared by every board of a ruleset."""

    slots: tuple[Slot, ...]
    x: tuple[Fraction, ...]
    covered_by: tuple[tuple[int, ...], ...]  # slot -> the slots lying on it
    covers: tuple[tuple[int, ...], ...]  # slot -> the slots it lies on
    face_down: frozenset[int]
    rows: tuple[tuple[int, ...], ...]  # slot indices per drawn row, back to front

    @property
    def size(self) -> int:
        return len(self.slots)


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _is_index(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class _Checker:
    """Reads a `board` mapping into a `Layout`, collecting every problem on the way."""

    def __init__(self, spec: Mapping, where: Where | None):
        self.spec = spec
        self.where = where
        self.diagnostics: list[Diagnostic] = []

    def at(self, *path) -> Position | None:
        """The position of a value, by its path inside the `board` mapping."""
        return self.where(*path) if self.where is not None else None

    def report(self, code: str, message: str, path: tuple, help: str | None = None) -> None:
        self.diagnostics.append(Diagnostic(code, message, self.at(*path), help))

    def layout(self) -> Layout | None:
        rows = self.read_rows()
        if rows is None:
            return None
        size = sum(len(r) for r in rows) if rows else self.spec.get("slots")
        if rows and self.spec.get("slots") not in (None, size):
            self.report("R471", f"`slots` is {self.spec['slots']} but the rows hold {size}",
                        ("slots",))
        covered_by = self.read_covering(rows, size)
        face_down = self.read_face_down(rows, size)
        tags = self.read_tags(size)
        if covered_by is None or self.has_errors():
            return None
        return self.build(rows, size, covered_by, face_down, tags)

    def has_errors(self) -> bool:
        return any(d.is_error for d in self.diagnostics)

    def read_rows(self) -> list[list[Fraction]] | None:
        rows = self.spec.get("rows")
        if rows is None:
            slots = self.spec.get("slots")
            if not _is_index(slots) or slots < 1:
                self.report("R470", "a tableau board needs `rows` (x positions) or `slots: N`"
                            " with `covers`", ("slots",) if slots is not None else ())
                return None
            return []
        if not isinstance(rows, list) or not rows:
            self.report("R470", "`rows` must be a non-empty list of rows", ("rows",))
            return None
        out = []
        for r, row in enumerate(rows):
            if not isinstance(row, list) or not row or not all(_is_number(x) for x in row):
                self.report("R471", f"row {r} must be a non-empty list of x positions"
                            " (numbers, in card widths)", ("rows", r))
                continue
            xs = [Fraction(str(x)) for x in row]
            self.check_overlap(r, xs)
            out.append(xs)
        return out if len(out) == len(rows) else None

    def check_overlap(self, r: int, xs: list[Fraction]) -> None:
        ordered = sorted(range(len(xs)), key=xs.__getitem__)
        for a, b in zip(ordered, ordered[1:]):
            if xs[b] - xs[a] < 1:
                self.report("R476", f"positions {a} and {b} of row {r} are less than a card"
                            " width apart, so their cards would lie on each other", ("rows", r, b))

    def read_covering(self, rows, size: int) -> list[list[int]] | None:
        covers = self.spec.get("covers")
        if covers is None:
            if not rows:
                self.report("R470", "a layout given by `slots` needs `covers`", ("slots",))
                return None
            return _derive_covering(rows)
        if not isinstance(covers, Mapping):
            self.report("R472", "`covers` must map a slot to the slots lying on it", ("covers",))
            return None
        covered_by: list[list[int]] = [[] for _ in range(size)]
        for key, tops in covers.items():
            below = int(key) if isinstance(key, str) and key.isdigit() else key
            ok = self.check_index(below, size, ("covers", key))
            if not isinstance(tops, list):
                self.report("R472", f"`covers.{key}` must be a list of slots", ("covers", key))
                continue
            for i, top in enumerate(tops):
                if self.check_index(top, size, ("covers", key, i)) and ok:
                    covered_by[below].append(top)
        return self.check_cycles(covered_by)

    def check_index(self, slot: object, size: int, path: tuple) -> bool:
        if _is_index(slot) and 0 <= slot < size:
            return True
        self.report("R472", f"slot {slot!r} is out of range: the layout has slots"
                    f" 0 to {size - 1}", path)
        return False

    def check_cycles(self, covered_by: list[list[int]]) -> list[list[int]] | None:
        cycle = _find_cycle(covered_by)
        if cycle:
            chain = " under ".join(map(str, cycle + [cycle[0]]))
            self.report("R473", f"slots lie on one another in a cycle ({chain}), so none of"
                        " them could ever be taken", ("covers", cycle[0]))
            return None
        return covered_by

    def read_face_down(self, rows, size: int) -> frozenset[int]:
        by_rows = self.spec.get("face_down_rows")
        listed = self.spec.get("face_down")
        if by_rows is not None and listed is not None:
            self.report("R475", "give `face_down_rows` or `face_down`, not both", ("face_down",))
            return frozenset()
        if by_rows is not None:
            return self.rows_face_down(by_rows, rows)
        if listed is None or listed == "none":
            return frozenset()
        if listed == "all":
            return frozenset(range(size))
        if not isinstance(listed, list):
            self.report("R475", "`face_down` must be `all`, `none` or a list of slots",
                        ("face_down",))
            return frozenset()
        return frozenset(s for i, s in enumerate(listed)
                         if self.check_index(s, size, ("face_down", i)))

    def rows_face_down(self, by_rows: object, rows) -> frozenset[int]:
        if not isinstance(by_rows, list):
            self.report("R474", "`face_down_rows` must be a list of row numbers",
                        ("face_down_rows",))
            return frozenset()
        starts = [sum(len(r) for r in rows[:i]) for i in range(len(rows))]
        out: set[int] = set()
        for i, r in enumerate(by_rows):
            if not _is_index(r) or not 0 <= r < len(rows):
                self.report("R474", f"row {r!r} is out of range: the layout has rows 0 to"
                            f" {len(rows) - 1}", ("face_down_rows", i))
                continue
            out.update(range(starts[r], starts[r] + len(rows[r])))
        return frozenset(out)

    def read_tags(self, size: int) -> dict[int, list[str]]:
        tags = self.spec.get("tags") or {}
        out: dict[int, list[str]] = {}
        # The schema checks the shapes (S2xx); what is left is each slot's range.
        for name, slots in tags.items() if isinstance(tags, Mapping) else ():
            if not isinstance(slots, list):
                continue
            for i, slot in enumerate(slots):
                if self.check_index(slot, size, ("tags", name, i)):
                    out.setdefault(slot, []).append(str(name))
        return out

    def build(self, rows, size, covered_by, face_down, tags) -> Layout:
        covers: list[list[int]] = [[] for _ in range(size)]
        for below, tops in enumerate(covered_by):
            for top in tops:
                covers[top].append(below)
        row_of, drawn, xs = _rows_for_drawing(rows, covers, size)
        slots = tuple(Slot(i, row_of[i], tuple(tags.get(i, ()))) for i in range(size))
        return Layout(slots, tuple(xs), tuple(tuple(sorted(c)) for c in covered_by),
                      tuple(tuple(sorted(c)) for c in covers), frozenset(face_down), drawn)


def _derive_covering(rows: list[list[Fraction]]) -> list[list[int]]:
    """Each slot is covered by the slots of the next row less than a card width away."""
    starts = [sum(len(r) for r in rows[:i]) for i in range(len(rows) + 1)]
    covered_by: list[list[int]] = [[] for _ in range(starts[-1])]
    for r in range(len(rows) - 1):
        for i, x in enumerate(rows[r]):
            covered_by[starts[r] + i] = [
                starts[r + 1] + j for j, x2 in enumerate(rows[r + 1]) if abs(x2 - x) < 1
            ]
    return covered_by


def _find_cycle(covered_by: list[list[int]]) -> list[int]:
    """Slots of one covering cycle, or [] (iterative depth-first search)."""
    state = [0] * len(covered_by)  # 0 new, 1 on the path, 2 done
    for root in range(len(covered_by)):
        if state[root]:
            continue
        path, stack = [root], [iter(covered_by[root])]
        state[root] = 1
        while stack:
            nxt = next(stack[-1], None)
            if nxt is None:
                state[path.pop()] = 2
                stack.pop()
            elif state[nxt] == 1:
                return path[path.index(nxt):]
            elif state[nxt] == 0:
                state[nxt] = 1
                path.append(nxt)
                stack.append(iter(covered_by[nxt]))
    return []


def _rows_for_drawing(rows, covers, size):
    """(row of each slot, slots per drawn row, x of each slot).

    A layout given by rows is drawn as written; one given by `covers` alone is drawn in
    levels: a slot lies one level in front of the deepest slot it covers.
    """
    if rows:
        row_of, drawn, xs = [], [], []
        for r, row in enumerate(rows):
            drawn.append(tuple(range(len(row_of), len(row_of) + len(row))))
            row_of += [r] * len(row)
            xs += row
        return row_of, tuple(drawn), xs
    level = [-1] * size

    def depth(s: int) -> int:
        if level[s] < 0:
            level[s] = 1 + max((depth(b) for b in covers[s]), default=-1)
        return level[s]

    for s in range(size):
        depth(s)
    drawn = tuple(tuple(s for s in range(size) if level[s] == r) for r in range(max(level) + 1))
    xs = [Fraction(0)] * size
    for row in drawn:
        for i, s in enumerate(row):
            xs[s] = Fraction(i)
    return level, drawn, xs


def read_layout(spec: Mapping, where: Where | None = None) -> tuple[Layout | None, list[Diagnostic]]:
    """The layout a `board` mapping describes, and every problem found in it."""
    checker = _Checker(spec, where)
    return checker.layout(), checker.diagnostics
