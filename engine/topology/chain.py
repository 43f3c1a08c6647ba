"""The `chain` board kind: a line of play with open ends, for two-ended tiles.

The first tile (the *set*) lies in the centre; every later tile joins an *arm*, at the open
end of that arm, and shows there the number it touches (the tile is turned to fit). The
set's two halves start the arms `W` (its first half) and `E` (its second). A *spinner*
(a double, by the board's `spinners` field) opens two more arms once both its sides are
covered: `N` and `S` for the first spinner to open them, `<tile>.N` and `<tile>.S` for any
later one.
A double is laid crosswise when the board's `crosswise` field says so (the default); a
crosswise double at the tip of an arm counts both halves in `board.ends`.

Fields in expressions: `board.ends` (what each counting tip shows: its outer number, a
crosswise double at a tip both halves, a lone double set once, an empty spinner arm
nothing), `board.open_ends` (the number of every open end, one per arm), `board.spinners`.
A placement's measures (`move.<field>`) are in `MOVE_FIELDS`. Move text: `5-0@E` (a tile
on an arm), the set alone as `5-5`. Geometry for pictures: `ChainBoard.layout()`
(`engine.topology.chain_layout`).
"""

from __future__ import annotations

from typing import Iterator, Mapping, Sequence

from engine.diagnostics import Diagnostic, define
from engine.pieces import Piece
from engine.topology.base import Board, Placement, Topology, Where, corner_mismatches, register
from engine.topology.chain_layout import TURN, Layout, draw, layout_of, render
from engine.topology.chain_text import dump_position, load_position, parse_move

__all__ = ["ChainBoard", "ChainPlacement", "Chain", "Laid", "MOVE_FIELDS", "SET"]

R_SPINNERS = define("R480", "chain-spinners", "a chain board's `spinners` is not `none`, `first` or `every`")
R_CROSSWISE = define("R481", "chain-crosswise", "a chain board's `crosswise` is not true or false")

SPINNER_RULES = ("none", "first", "every")
SET = "set"  # `move.end` of the first tile
MOVE_FIELDS = {
    "end": "str",  # the arm played on (W, E, N, S, <tile>.N, <tile>.S), `set` for the first tile
    "inner": "int",  # the number against the layout (the end's number); the set: its W half
    "outer": "int",  # the number the tile leaves open; the set: its E half
    "double": "bool",  # the tile is a double
    "crosswise": "bool",  # it lies across its arm (a double, when the board lays them so)
    "spinner": "bool",  # it became a spinner
}


class Laid:
    """A tile on the table: its piece, arm, inner and outer numbers, and whether it spins."""

    __slots__ = ("piece", "arm", "inner", "outer", "double", "spinner", "opened")

    def __init__(self, piece: Piece, arm: str, inner: int, outer: int, spinner: bool):
        self.piece, self.arm, self.inner, self.outer = piece, arm, inner, outer
        self.double, self.spinner = inner == outer, spinner
        self.opened = False  # a spinner whose two extra arms are open

    def copy(self) -> "Laid":
        new = Laid(self.piece, self.arm, self.inner, self.outer, self.spinner)
        new.opened = self.opened
        return new


class ChainPlacement(Placement):
    """A tile at an open end (or as the set), turned so that `inner` touches the end."""

    __slots__ = ("pieces", "piece", "end", "inner", "outer", "double", "crosswise", "spinner")

    def __init__(self, piece: Piece, end: str, inner: int, outer: int, crosswise: bool, spinner: bool):
        self.pieces, self.piece, self.end = (piece,), piece, end
        self.inner, self.outer, self.double = inner, outer, inner == outer
        self.crosswise, self.spinner = crosswise and inner == outer, spinner

    @property
    def text(self) -> str:
        """`5-0@E`; the set alone as its halves W then E (`5-5`, `6-4`)."""
        if self.end == SET:
            return f"{self.inner}-{self.outer}" if self.inner != self.outer else self.piece.name
        return f"{self.piece.name}@{self.end}"

    def __repr__(self) -> str:
        return f"ChainPlacement({self.text!r})"


class ChainBoard(Board):
    """The laid tiles in play order and the arms, each listed from the centre outward."""

    def __init__(self, spinners: str = "none", crosswise: bool = True):
        self.rule, self.crosswise = spinners, crosswise
        self.tiles: list[Laid] = []  # in the order they were laid
        self.arms: dict[str, list[Laid]] = {}  # arm -> its tiles from the centre, in `_arm_rank` order
        self.roots: dict[str, Laid] = {}  # arm -> the tile it grows from (the set, or a spinner)
        self._ends: list[tuple[str, int]] | None = None  # (arm, open number), cached until a change
        self.later: frozenset[str] = frozenset()  # spinners whose arms a position names after them

    @property
    def count(self) -> int:
        return len(self.tiles)

    def clone(self) -> "ChainBoard":
        new = ChainBoard(self.rule, self.crosswise)
        copies = {id(t): t.copy() for t in self.tiles}
        new.tiles = [copies[id(t)] for t in self.tiles]
        new.arms = {arm: [copies[id(t)] for t in laid] for arm, laid in self.arms.items()}
        new.roots = {arm: copies[id(t)] for arm, t in self.roots.items()}
        new._ends, new.later = self._ends, self.later
        return new

    # -- what expressions and players see ---------------------------------------------

    def end_items(self) -> list[tuple[str, int]]:
        """(arm, number) of every open end, in arm order: W, E, N, S, then a later
        spinner's arms by where it lies (`_arm_rank`)."""
        if self._ends is None:
            self._ends = [(arm, laid[-1].outer if laid else self._root_number(arm))
                          for arm, laid in self.arms.items()]
        return self._ends

    def _root_number(self, arm: str) -> int:
        """The number an empty arm shows: the set's half on its side, or the spinner's."""
        root = self.roots[arm]
        return root.inner if arm == "W" else root.outer

    @property
    def open_ends(self) -> list[int]:
        """The number of every open end (what a tile must show to go there)."""
        return [number for _, number in self.end_items()]

    @property
    def ends(self) -> list[int]:
        """What each counting tip shows (the Fives count is their sum); see the module."""
        if not self.tiles:
            return []
        out, first, counted_set = [], self.tiles[0], False
        for arm, laid in self.arms.items():
            if laid:
                out.append(self._tip(laid[-1]))
            elif arm in ("W", "E"):
                if not first.double:
                    out.append(first.inner if arm == "W" else first.outer)
                elif not counted_set:  # a double set counts once while a side is free: one tile
                    out.append(self._tip(first))
                    counted_set = True
        return out

    def _tip(self, tip: Laid) -> int:
        return 2 * tip.outer if tip.double and self.crosswise else tip.outer

    @property
    def spinners(self) -> int:
        """How many spinners are on the table."""
        return sum(t.spinner for t in self.tiles)

    def layout(self, turn: tuple[int, int] | None = TURN) -> Layout:
        """Every laid tile with its position, the open ends with theirs (for pictures);
        arms turn clockwise past `turn` halves (along a row, up or down), or never (None)."""
        return layout_of(self, turn)

    # -- placements -------------------------------------------------------------------

    def iter_placements(self, hand: Sequence[Piece], first: bool, rules: object) -> Iterator[ChainPlacement]:
        """The set (any tile, on an empty table), or each tile at each open end it matches:
        ends in arm order, tiles by uid; so the order does not depend on the hand's."""
        tiles = sorted(hand, key=lambda p: p.uid)
        if not self.tiles:
            for piece in tiles:
                a, b = piece.corners
                yield ChainPlacement(piece, SET, a, b, self.crosswise, self._spins(a == b))
            return
        for arm, number in self.end_items():
            for piece in tiles:
                a, b = piece.corners
                if a == number or b == number:
                    other = b if a == number else a
                    yield ChainPlacement(piece, arm, number, other, self.crosswise, self._spins(a == b))

    def _spins(self, double: bool) -> bool:
        """Whether a double laid now becomes a spinner."""
        return double and (self.rule == "every" or (self.rule == "first" and not any(
            t.spinner for t in self.tiles)))

    def apply_placement(self, placement: ChainPlacement) -> None:
        """Lay the tile, then open the two extra arms of any spinner whose sides are covered."""
        self.lay(placement.piece, placement.end, placement.inner, placement.outer, placement.spinner)

    def lay(self, piece: Piece, arm: str, inner: int, outer: int, spinner: bool) -> None:
        """Lay `piece` on `arm` (or as the set) with no check but that the arm exists."""
        laid = Laid(piece, arm, inner, outer, spinner)
        self._ends = None
        if arm == SET:
            self.tiles.append(laid)
            self.arms, self.roots = {"W": [], "E": []}, {"W": laid, "E": laid}
        else:
            self.arms[arm].append(laid)
            self.tiles.append(laid)
        for tile in self.tiles:
            if tile.spinner and not tile.opened and self._sides_covered(tile):
                self._open(tile)

    def _sides_covered(self, spinner: Laid) -> bool:
        if spinner.arm == SET:
            return bool(self.arms["W"]) and bool(self.arms["E"])
        line = self.arms[spinner.arm]
        return line[-1] is not spinner

    def _open(self, spinner: Laid) -> None:
        # The first spinner to open its arms names them N and S (unless a position being
        # loaded names them after the tile: `later`); arms are kept in `_arm_rank` order, a
        # function of the layout alone, so a position loaded back lists them as played.
        first = "N" not in self.arms and spinner.piece.name not in self.later
        for side in ("N", "S"):
            name = side if first else f"{spinner.piece.name}.{side}"
            self.arms[name] = []
            self.roots[name] = spinner
        spinner.opened = True
        self.arms = {arm: self.arms[arm] for arm in sorted(self.arms, key=self._arm_rank)}

    def _arm_rank(self, arm: str) -> tuple:
        """W, E, N, S, then each later spinner's arms by where the spinner lies."""
        if arm in ("W", "E", "N", "S"):
            return (0, "WENS".index(arm))
        root = self.roots[arm]
        where = ((), -1) if root.arm == SET else (self._arm_rank(root.arm), self.arms[root.arm].index(root))
        return (1, where, arm.endswith(".S"))

    def parse_placement(self, text: str, hand: Sequence[Piece], first: bool, rules: object) -> ChainPlacement:
        """`TILE@ARM` (`5-0@E`, `4-3@n`), the set as `TILE`; ValueError says why not."""
        halves, arm = parse_move(text)
        piece = next((p for p in hand if sorted(p.corners) == sorted(halves)), None)
        if piece is None:
            raise ValueError(f"no tile {'-'.join(map(str, halves))} in the hand")
        options = list(self.iter_placements([piece], first, rules))
        if not self.tiles:
            if arm not in (None, SET):
                raise ValueError(f"the table is empty: {piece.name} is the set, typed `{piece.name}`")
            return options[0]
        if arm is None:
            if len(options) == 1:
                return options[0]
            raise ValueError(self._which_end(piece, options))
        names = {name.lower(): name for name in self.arms}
        if arm.lower() not in names:
            raise ValueError(f"there is no open end {arm}; the open ends are {self._listing()}")
        chosen = [p for p in options if p.end == names[arm.lower()]]
        if not chosen:
            name = names[arm.lower()]
            number = dict(self.end_items())[name]
            raise ValueError(f"{piece.name} does not match end {name}, which shows {number}")
        return chosen[0]

    def _which_end(self, piece: Piece, options: list[ChainPlacement]) -> str:
        if not options:
            return f"{piece.name} matches no open end ({self._listing()})"
        return f"{piece.name} fits several ends: type one of " + ", ".join(p.text for p in options)

    def _listing(self) -> str:
        return ", ".join(f"{arm} {number}" for arm, number in self.end_items())

    # -- positions and checks -------------------------------------------------------

    def load_position(self, text: str, pieces: Sequence[Piece]) -> list[Piece]:
        """Lay out `set: 3-5` then `E: 5-2 2-2`-style lines (see `chain_text`)."""
        return load_position(self, text, pieces)

    def dump_position(self) -> str:
        """The board in the notation `load_position` reads (spinners marked `*`)."""
        return dump_position(self)

    def key(self) -> object:
        """Equal keys, equal boards: the arms with their tiles (uid, inner, spinner)."""
        if not self.tiles:
            return ()
        first = self.tiles[0]
        return ((first.piece.uid, first.inner, first.spinner),) + tuple(
            (arm, tuple((t.piece.uid, t.inner, t.spinner) for t in laid)) for arm, laid in self.arms.items())

    def pieces_on_board(self) -> list[Piece]:
        """Every tile on the table."""
        return [t.piece for t in self.tiles]

    def check_invariants(self) -> list[str]:
        """Every tile touches the number its arm showed, once each; arms open as the rules say."""
        problems = []
        if len({t.piece.uid for t in self.tiles}) != len(self.tiles):
            problems.append("a tile is on the table twice")
        if sum(map(len, self.arms.values())) + bool(self.tiles) != len(self.tiles):
            problems.append("the arms do not hold every tile but the set")
        for arm, laid in self.arms.items():
            number = ChainBoard._root_number(self, arm)
            for t in laid:
                if t.inner != number or sorted((t.inner, t.outer)) != sorted(t.piece.corners):
                    problems.append(f"arm {arm}: {t.piece.name} shows {t.inner} against {number}")
                number = t.outer
        for t in self.tiles:
            if t.spinner and not t.double:
                problems.append(f"spinner {t.piece.name} is not a double")
            if t.opened != (t.spinner and self._sides_covered(t)):
                problems.append(f"spinner {t.piece.name}: its extra arms are open before its sides are covered"
                                if t.opened else f"spinner {t.piece.name}: covered sides but no extra arms")
        if self.rule == "none" and self.spinners or self.rule == "first" and self.spinners > 1:
            problems.append(f"{self.spinners} spinners under `spinners: {self.rule}`")
        return problems


@register
class Chain(Topology):
    """A line of play: two-ended tiles joined end to end, numbers matching."""

    kind = "chain"
    actions = frozenset({"place"})
    board_fields = {"ends": "list[int]", "open_ends": "list[int]", "spinners": "int"}
    move_fields = {"place": dict(MOVE_FIELDS)}

    def __init__(self, spec: Mapping):
        super().__init__(spec)
        self.spinner_rule = str(spec.get("spinners", "none"))
        self.crosswise = bool(spec.get("crosswise", True))

    @classmethod
    def check_spec(cls, spec: Mapping, where: Where) -> list[Diagnostic]:
        """`spinners` (none, first, every) and `crosswise` (a boolean)."""
        out = []
        spinners = spec.get("spinners", "none")
        if spinners not in SPINNER_RULES:
            out.append(Diagnostic(R_SPINNERS.code, f"`spinners: {spinners}` is not one of none, first, every",
                                  where("spinners") or where(), "none: two ends only; first: the first "
                                  "double opens four; every: each double does"))
        if not isinstance(spec.get("crosswise", True), bool):
            out.append(Diagnostic(R_CROSSWISE.code, f"`crosswise: {spec.get('crosswise')}` is not true or false",
                                  where("crosswise") or where(), "write `crosswise: true` or `crosswise: false`"))
        return out

    def check_pieces(self, pieces: Sequence[Piece]) -> dict[str, str]:
        """Each component whose pieces are not two-ended tiles."""
        return corner_mismatches(pieces, 2)

    def new_board(self) -> ChainBoard:
        return ChainBoard(self.spinner_rule, self.crosswise)

    def render_text(self, board: Board) -> str:
        return render(board)

    def render_runs(self, board: Board, last: object = None, symbols: bool = False,
                    width: int | None = None) -> list:
        """The drawing as styled runs, the tile of the `last` placement marked; with
        `width`, the arms turn only where the line would not fit in so many columns."""
        return draw(board, last, width)

