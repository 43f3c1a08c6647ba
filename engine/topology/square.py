"""The `square` board kind: a grid whose cells carry attributes from a character map.

A play lays one or more pieces from the hand in one row or column, within a window of
consecutive cells, with no gap except cells that already hold pieces. Line rules bound
the length and the sum of every maximal run through a new piece. Pieces are numbered
tokens (`value`, `joker`); a joker takes a declared value when placed and keeps it.

The board is a flat list padded by one sentinel column and a sentinel row above and
below, so that walking off an edge meets a sentinel instead of needing a bounds check:
the generator is the hot spot of a whole game.

This module is the top of the kind's seven modules, which import one way (bottom up:
`square_placement`, `square_text`, `square_hands`, `square_walks`, `square_moves`,
`square_board`, this one; docs/architecture.md says what each holds).
"""

from __future__ import annotations

import re
from typing import Mapping

from engine.diagnostics import Diagnostic, closest, define
from engine.topology.base import Topology, Where, register
from engine.topology.square_board import SquareBoard
from engine.topology.square_text import draw_board, row_label
from engine.topology.styled import plain

SIZE = define("R450", "square-board-size", "the square board's size is missing or not a positive integer")
MAP_ROWS = define("R451", "square-map-rows", "the map has another number of rows than the board")
MAP_COLUMNS = define("R452", "square-map-columns", "a map row has another number of cells than the board")
UNKNOWN_CELL = define("R453", "square-unknown-cell", "a map character is not in the `cells` legend")
UNKNOWN_ATTR = define("R454", "square-unknown-attribute", "a legend attribute is not in `cell_defaults`")
ATTR_TYPE = define("R455", "square-attribute-type", "a legend value has another type than its default")
PLACE_COUNT = define("R460", "square-place-count", "`count` or `window` of a square place action is invalid")
LINE_RULE = define("R461", "square-line-rule", "a `lines` rule of a square place action is invalid")
FIRST_PLAY = define("R462", "square-first-play", "`first_play` is unknown or no cell is a start cell")
JOKER_RULE = define("R463", "square-joker-rule", "the `jokers` rule of a square place action is invalid")

BIG = 1 << 60
_PLAIN = "."
_GENERIC_KEYS = {"kind", "if", "then", "extra_turn", "label", "description"}
_PLACE_KEYS = {"count", "window", "first_play", "lines", "jokers"}
LINE_FIELDS = {"length": "int", "sum": "int", "face_sum": "int", "new": "int", "jokers": "int"}
PLACED_FIELDS = {"value": "int", "declared": "int", "joker": "bool", "x": "int", "y": "int",
                 "max_line": "int", "lines_through": "list[int]"}
_TYPE_NAMES = {bool: "bool", int: "int", str: "str"}

def _dims(spec: Mapping) -> tuple[int, int]:
    size = spec.get("size")
    width, height = spec.get("width", size), spec.get("height", size)
    return width, height

def _map_rows(spec: Mapping) -> list[list[str]]:
    text = spec.get("map") or ""
    return [line.split() for line in str(text).splitlines() if line.strip()]

def _legend(spec: Mapping) -> dict[str, dict]:
    return {str(k): dict(v or {}) for k, v in (spec.get("cells") or {}).items()}

def _map_pos(where: Where, spec_text: str, row: int, col: int):
    """The position of map cell (`row`, `col`-th character), from the block scalar's lines."""
    pos = where("map")
    if pos is None:
        return None
    try:
        with open(pos.path, encoding="utf-8") as fh:
            lines = fh.read().splitlines()
    except OSError:
        return pos
    body = [i for i in range(pos.line, len(lines)) if lines[i].strip()]
    if lines[pos.line - 1].rstrip().endswith(("|", "|-", "|+", ">")) and row < len(body):
        text = lines[body[row]]
        indent = len(text) - len(text.lstrip())
        return type(pos)(pos.path, body[row] + 1, indent + col + 1)
    return pos

class SquareSpecError(ValueError):
    """A `board` mapping the kind cannot build (lint reports it with positions)."""

@register
class Square(Topology):
    """Any width x height grid; cell attributes come from a character map and a legend."""

    kind = "square"
    actions = frozenset({"place"})
    empty_board = None  # the board `new_board` copies, once a game has begun on one
    board_fields = {"width": "int", "height": "int"}
    move_fields = {"place": {"count": "int", "value": "int", "jokers": "int",
                             "lines": "list[line]", "placed": "list[placed]"}}
    record_types = {"line": LINE_FIELDS, "placed": PLACED_FIELDS}

    def __init__(self, spec: Mapping):
        super().__init__(spec)
        width, height = _dims(spec)
        if not (isinstance(width, int) and isinstance(height, int) and width > 0 and height > 0):
            raise SquareSpecError("board size must be positive integers")
        self.width, self.height, self.stride = width, height, width + 1
        self.defaults = dict(spec.get("cell_defaults") or {})
        legend = _legend(spec)
        rows = _map_rows(spec) or [[_PLAIN] * width for _ in range(height)]
        self.attrs: list[dict | None] = [None] * ((height + 2) * self.stride)
        self.marks: list[str] = [_PLAIN] * len(self.attrs)
        for y in range(height):
            for x in range(width):
                ch = rows[y][x] if y < len(rows) and x < len(rows[y]) else _PLAIN
                i = self.index(x, y)
                self.attrs[i] = {**self.defaults, **legend.get(ch, {})}
                self.marks[i] = ch
        self.starts = [i for i, a in enumerate(self.attrs) if a and a.get("start")]
        self.cell_bits = sum(1 << i for i, a in enumerate(self.attrs) if a is not None)
        self._transpose()
        self.labels = [self._label(i) for i in range(len(self.attrs))]  # (every play's text)
        extra = {k: _TYPE_NAMES.get(type(v), "int") for k, v in self.defaults.items()}
        # Cell attributes become fields of `placed` records, so the types depend on the spec.
        self.record_types = {"line": LINE_FIELDS, "placed": {**extra, **PLACED_FIELDS}}

    def _transpose(self) -> None:
        """The layout of the bit sets that hold both directions in one integer (`both`):
        the cells as they are (bits 0..), then the board transposed, from bit `offset` on,
        cell (x, y) at `offset + (x + 1) * (height + 1) + y`, so that a column reads like a
        row (a step of one bit) and one walk of bit sets serves both directions. The gap
        between the halves is wider than any shift of the walks (at most twice the longest
        line), so that no bit of one half reaches a cell of the other."""
        width, height, longest = self.width, self.height, max(self.width, self.height)
        size = len(self.attrs)
        self.stride_t = height + 1
        self.offset = size + 2 * longest + 4
        span = (width + 2) * self.stride_t
        self.low_bits = (1 << size) - 1
        self.all_bits = (1 << (self.offset + span)) - 1
        self.both = [0] * size  # cell -> its bit in each half
        self.untranspose = [-1] * span  # bit in the second half -> cell
        for y in range(height):
            for x in range(width):
                i, t = self.index(x, y), (x + 1) * self.stride_t + y
                self.both[i] = 1 << i | 1 << (self.offset + t)
                self.untranspose[t] = i

    def index(self, x: int, y: int) -> int:
        """The flat index of cell (x, y)."""
        return (y + 1) * self.stride + x

    def xy(self, i: int) -> tuple[int, int]:
        """The (x, y) of flat index `i`."""
        return i % self.stride, i // self.stride - 1

    def label(self, i: int) -> str:
        """A cell as typed: row letter, then column number (x=7, y=7 is `H8`)."""
        return self.labels[i]

    def _label(self, i: int) -> str:
        x, y = self.xy(i)
        return f"{row_label(y)}{x + 1}"

    # ----------------------------------------------------------------- checking
    @classmethod
    def check_spec(cls, spec: Mapping, where: Where) -> list[Diagnostic]:
        """Size, map shape, unknown map characters and legend attributes, with positions.

        `where(*path)` is rooted at the `board` mapping: `where("cells", "B")`.
        """
        width, height = _dims(spec)
        out: list[Diagnostic] = []
        for key, val in (("width", width), ("height", height)):
            if not isinstance(val, int) or isinstance(val, bool) or val <= 0:
                at = where(key) or where("size") or where()
                out.append(Diagnostic(SIZE.code, f"board {key} must be a positive integer, "
                                      f"not {val!r}", at, "give `size: 15` or `width`/`height`"))
        if out:
            return out
        out += cls._check_legend(spec, where)
        if spec.get("map") is not None:
            out += cls._check_map(spec, where, width, height)
        return out

    @classmethod
    def _check_legend(cls, spec: Mapping, where: Where) -> list[Diagnostic]:
        defaults = dict(spec.get("cell_defaults") or {})
        out = []
        for key, attrs in (spec.get("cells") or {}).items():
            for name, val in dict(attrs or {}).items():
                at = where("cells", key, name) or where("cells", key)
                if name not in defaults:
                    guess = closest(name, defaults)
                    out.append(Diagnostic(
                        UNKNOWN_ATTR.code, f"cell attribute `{name}` of `{key}` has no default "
                        "in `cell_defaults`", at,
                        f"did you mean `{guess}`?" if guess else f"add `{name}` to `cell_defaults`"))
                elif type(val) is not type(defaults[name]):
                    out.append(Diagnostic(
                        ATTR_TYPE.code, f"cell attribute `{name}` of `{key}` is "
                        f"{type(val).__name__}, its default is {type(defaults[name]).__name__}",
                        at, f"write it like the default `{defaults[name]!r}`"))
        return out

    @classmethod
    def _check_map(cls, spec: Mapping, where: Where, width: int, height: int):
        rows, legend = _map_rows(spec), _legend(spec)
        known = set(legend) | {_PLAIN}
        text = str(spec.get("map"))
        out = []
        if len(rows) != height:
            out.append(Diagnostic(MAP_ROWS.code, f"the map has {len(rows)} rows, the board "
                                  f"is {height} high", where("map"),
                                  "one map line per row, cells separated by spaces"))
        lines = [line for line in text.splitlines() if line.strip()]
        for r, (row, line) in enumerate(zip(rows, lines)):
            starts = [m.start() for m in re.finditer(r"\S+", line)]
            if len(row) != width:
                out.append(Diagnostic(MAP_COLUMNS.code, f"map row {r + 1} has {len(row)} "
                                      f"cells, the board is {width} wide",
                                      _map_pos(where, text, r, starts[0]),
                                      "separate the cells by spaces, one character each"))
            for ch, col in zip(row, starts):
                if ch not in known:
                    guess = closest(ch, known) or (ch.upper() if ch.upper() in known else None)
                    out.append(Diagnostic(
                        UNKNOWN_CELL.code, f"map character `{ch}` is not in the `cells` legend",
                        _map_pos(where, text, r, col),
                        f"did you mean `{guess}`?" if guess else f"add `{ch}` to `cells`"))
        return out

    def check_place(self, action: Mapping, where: Where) -> list[Diagnostic]:
        """Problems with `count`, `window`, `lines`, `first_play`, `jokers`.

        `where(*path)` is rooted at the action mapping: `where("lines", "sums", 2)`.
        """
        return _check_place(self, action, where)

    def compile_place(self, action: Mapping) -> "PlaceRules":
        """The place action's parameters as the generator uses them."""
        return PlaceRules(action, max(self.width, self.height))

    def check_pieces(self, pieces) -> dict[str, str]:
        """Each component whose pieces do not show one number (a `value`, no corners)."""
        out: dict[str, str] = {}
        for p in pieces:
            if (not isinstance(getattr(p, "value", None), int) or hasattr(p, "corners")) and p.component not in out:
                out[p.component] = f"a cell holds one number, and {p.name} is not a numbered token (`kind: numbered`)"
        return out

    # ----------------------------------------------------------------- boards
    def new_board(self) -> "SquareBoard":
        """An empty board: a copy of the last empty board whose `cross` intervals were
        worked out (`SquareBoard._keep_blank`), which spares each game building its index."""
        blank = self.empty_board
        return SquareBoard(self) if blank is None else blank.fresh()

    def render_text(self, board: "SquareBoard") -> str:
        """Rows A.. down, columns 1.. across; premium cells by their legend mark."""
        return plain(draw_board(self, board))

    def render_runs(self, board: "SquareBoard", last: object = None, symbols: bool = False,
                    width: int | None = None):
        """The drawing as styled runs, the cells of the `last` placement marked."""
        return draw_board(self, board, getattr(last, "cells", ()))

def _bad(code, message, pos, help=None):
    return Diagnostic(code.code, message, pos, help)

def _check_place(topo: Square, action: Mapping, at) -> list[Diagnostic]:
    out = []
    count = action.get("count", {"min": 1, "max": 3})
    lo, hi = (count.get("min", 1), count.get("max")) if isinstance(count, Mapping) else (1, count)
    if not (isinstance(lo, int) and isinstance(hi, int) and 1 <= lo <= hi):
        out.append(_bad(PLACE_COUNT, f"`count` needs integers 1 <= min <= max, got {count!r}",
                        at("count", "min") or at("count"), "for example `count: {min: 1, max: 3}`"))
    window = action.get("window", hi)
    if not isinstance(window, int) or window < 1:
        out.append(_bad(PLACE_COUNT, f"`window` must be a positive integer, not {window!r}",
                        at("window")))
    out += _check_lines(action.get("lines") or {}, at)
    first = action.get("first_play")
    if first is not None and first != "cover_start":
        guess = closest(str(first), ["cover_start"])
        out.append(_bad(FIRST_PLAY, f"unknown `first_play: {first}`", at("first_play"),
                        f"did you mean `{guess}`?" if guess else "the one choice is `cover_start`"))
    elif first == "cover_start" and not topo.starts:
        out.append(_bad(FIRST_PLAY, "`first_play: cover_start` but no cell has `start: true`",
                        at("first_play"), "give a legend character `start: true` on the map"))
    out += _check_jokers(action.get("jokers", {}), at)
    for key in set(action) - _PLACE_KEYS - _GENERIC_KEYS:
        guess = closest(str(key), _PLACE_KEYS)
        if guess:
            out.append(_bad(PLACE_COUNT, f"unknown place parameter `{key}`", at(key),
                            f"did you mean `{guess}`?"))
    return out

def _check_jokers(jokers, at) -> list[Diagnostic]:
    if not isinstance(jokers, Mapping) or set(jokers) - {"max_per_play", "values"}:
        return [_bad(JOKER_RULE, "`jokers` takes `max_per_play` and `values: {min, max}`",
                     at("jokers"))]
    values = jokers.get("values") or {}
    lo, hi = values.get("min", 0), values.get("max", 15)
    if not (isinstance(lo, int) and isinstance(hi, int) and 0 <= lo <= hi):
        return [_bad(JOKER_RULE, f"a joker's values need 0 <= min <= max, got {dict(values)}",
                     at("jokers", "values"), "for example `values: {min: 0, max: 15}`")]
    return []


def _check_lines(lines: Mapping, at) -> list[Diagnostic]:
    out = []
    if not isinstance(lines, Mapping):
        return [_bad(LINE_RULE, "`lines` must be a mapping", at("lines"))]
    for key in set(lines) - {"max_length", "sums"}:
        guess = closest(str(key), ["max_length", "sums"])
        out.append(_bad(LINE_RULE, f"unknown line rule `{key}`", at("lines", key),
                        f"did you mean `{guess}`?" if guess else "use `max_length` or `sums`"))
    max_length = lines.get("max_length", 1)
    if not isinstance(max_length, int) or max_length < 1:
        out.append(_bad(LINE_RULE, f"`max_length` must be a positive integer, not {max_length!r}",
                        at("lines", "max_length")))
    for length, bound in dict(lines.get("sums") or {}).items():
        pos = at("lines", "sums", length)
        if not str(length).isdigit() or int(length) < 1:
            out.append(_bad(LINE_RULE, f"a `sums` key is a line length, not {length!r}", pos))
        if not isinstance(bound, Mapping) or not bound:
            out.append(_bad(LINE_RULE, f"the sum rule for length {length} must be "
                            "`{max: n}`, `{min: n}` or `{exact: n}`", pos))
            continue
        lo, hi = bound.get("min"), bound.get("max")
        exact = bound.get("exact")
        if (isinstance(lo, int) and isinstance(hi, int) and lo > hi) or (
                isinstance(exact, int) and ((isinstance(lo, int) and exact < lo)
                                            or (isinstance(hi, int) and exact > hi))):
            at_bound = at("lines", "sums", length, "exact" if exact is not None else "min")
            out.append(_bad(LINE_RULE, f"no sum meets the rule for length {length}: "
                            f"{dict(bound)}", at_bound or pos,
                            "a line of that length could never be laid"))
        for op, n in bound.items():
            if op not in ("max", "min", "exact"):
                guess = closest(str(op), ["max", "min", "exact"])
                out.append(_bad(LINE_RULE, f"unknown sum bound `{op}`", at("lines", "sums", length, op),
                                f"did you mean `{guess}`?" if guess else "use max, min or exact"))
            elif not isinstance(n, int) or isinstance(n, bool):
                out.append(_bad(LINE_RULE, f"sum bound `{op}` must be an integer, not {n!r}",
                                at("lines", "sums", length, op)))
    return out

class PlaceRules:
    """A compiled `place` action: counts, window, first play, line bounds, jokers."""

    def __init__(self, action: Mapping, longest: int):
        count = action.get("count", {"min": 1, "max": 3})
        if isinstance(count, Mapping):
            self.min_count, self.max_count = int(count.get("min", 1)), int(count.get("max", 3))
        else:
            self.min_count, self.max_count = 1, int(count)
        self.window = int(action.get("window", self.max_count))
        self.cover_start = action.get("first_play") == "cover_start"
        lines = action.get("lines") or {}
        self.max_length = int(lines.get("max_length", longest))
        # bounds[n]: the (lowest, highest) sum a run of n pieces may have
        self.bounds = [(-BIG, BIG)] * (self.max_length + 1)
        for length, bound in dict(lines.get("sums") or {}).items():
            n = int(length)
            if n > self.max_length:
                continue
            lo, hi = self.bounds[n]
            if "exact" in bound:
                lo = hi = int(bound["exact"])
            lo = max(lo, int(bound.get("min", lo)))
            hi = min(hi, int(bound.get("max", hi)))
            self.bounds[n] = (lo, hi)
        jokers = action.get("jokers") or {}
        values = jokers.get("values") or {}
        self.joker_lo, self.joker_hi = int(values.get("min", 0)), int(values.get("max", 15))
        self.max_jokers = int(jokers.get("max_per_play", self.max_count))
        self._cross: dict[tuple[int, int], tuple | None] = {}
        # (topology, cross, by_iv) of an empty board, kept by `SquareBoard.crosses`
        self.empty_index: tuple | None = None

    def cross(self, n: int, total: int) -> tuple | None:
        """(low, high, touches, bits) for a new piece joining `n` pieces summing to `total`
        in one direction: the values it may take, also as a bit set (so that a hand's
        values are tested against it in one `&`); None if it may take none."""
        key = (n, total)
        found = self._cross.get(key, self)  # (None is a value)
        if found is self:
            found = self._cross[key] = self._work_out_cross(n + 1, total)
        return found

    def _work_out_cross(self, length: int, total: int) -> tuple | None:
        if length > self.max_length:
            return None
        lo, hi = self.bounds[length]
        lo, hi = max(0, lo - total), hi - total  # values are never negative
        if lo > hi:
            return None
        bits = ((2 << (hi - lo)) - 1) << lo if hi < 256 else -1 << lo
        return (lo, hi, length > 1, bits)

