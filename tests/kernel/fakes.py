"""Two tiny board kinds for kernel tests, so the kernel is tested apart from the real ones.

`line`: tokens placed one at a time at either end of a row; a token may go next to an
end whose value differs by at most `max_diff`. `stack`: columns of pieces dealt face up;
the top of each column may be played.
"""

from __future__ import annotations

from engine.topology.base import Board, Placement, Topology, register


class LinePlacement(Placement):
    __slots__ = ("pieces", "side", "diff")

    def __init__(self, piece, side, diff):
        self.pieces = (piece,)
        self.side = side
        self.diff = diff

    @property
    def text(self) -> str:
        return f"{self.side}={self.pieces[0].name}"


class LineBoard(Board):
    def __init__(self):
        self.row: list = []

    @property
    def count(self) -> int:
        return len(self.row)

    @property
    def length(self) -> int:
        return len(self.row)

    def clone(self):
        other = LineBoard()
        other.row = list(self.row)
        return other

    def iter_placements(self, hand, first, rules):
        seen = set()
        for piece in sorted(hand, key=lambda p: (p.value, p.uid)):
            if piece.name in seen:
                continue
            seen.add(piece.name)
            if not self.row:
                yield LinePlacement(piece, "L", 0)
                continue
            for side, end in (("L", self.row[0]), ("R", self.row[-1])):
                diff = abs(piece.value - end.value)
                if diff <= rules:
                    yield LinePlacement(piece, side, diff)

    def apply_placement(self, placement):
        piece = placement.pieces[0]
        if placement.side == "L":
            self.row.insert(0, piece)
        else:
            self.row.append(piece)

    def parse_placement(self, text, hand, first, rules):
        side, _, name = text.partition("=")
        for placement in self.iter_placements(hand, first, rules):
            if placement.side == side and placement.pieces[0].name == name:
                return placement
        raise ValueError(f"no token {name} fits at {side}")

    def key(self):
        return tuple(p.uid for p in self.row)

    def pieces_on_board(self):
        return list(self.row)

    def dump_position(self):
        return " ".join(p.name for p in self.row)

    def load_position(self, text, pieces):
        free = list(pieces)
        used = []
        for name in text.split():
            piece = next((p for p in free if p.name == name), None)
            if piece is None:
                raise ValueError(f"no free token `{name}`")
            free.remove(piece)
            used.append(piece)
        self.row = used
        return used

    def check_invariants(self):
        return []


@register
class LineKind(Topology):
    kind = "line"
    actions = frozenset({"place"})
    board_fields = {"length": "int"}
    move_fields = {"place": {"side": "str", "diff": "int"}}

    def compile_place(self, action):
        return int(action.get("max_diff", 1))

    def new_board(self):
        return LineBoard()

    def render_text(self, board):
        return "[" + " ".join(p.name for p in board.row) + "]"


class Slot:
    __slots__ = ("index", "tags")

    def __init__(self, index, tags):
        self.index = index
        self.tags = tags


class StackBoard(Board):
    def __init__(self, columns, depth):
        self.columns = columns
        self.depth = depth
        self.stacks: list[list] = [[] for _ in range(columns)]

    @property
    def count(self) -> int:
        return sum(len(s) for s in self.stacks)

    def clone(self):
        other = StackBoard(self.columns, self.depth)
        other.stacks = [list(s) for s in self.stacks]
        return other

    def capacity(self):
        return self.columns * self.depth

    def deal(self, pieces):
        for i, piece in enumerate(pieces):
            self.stacks[i % self.columns].append(piece)

    def iter_exposed(self):
        for col, stack in enumerate(self.stacks):
            if stack:
                yield col, stack[-1]

    def remove(self, slot):
        return self.stacks[slot].pop()

    def slot_record(self, slot):
        return Slot(slot, ["bottom"] if len(self.stacks[slot]) <= 1 else [])

    def key(self):
        return tuple(tuple(p.uid for p in s) for s in self.stacks)

    def pieces_on_board(self):
        return [p for s in self.stacks for p in s]

    def dump_position(self):
        return " / ".join(" ".join(p.name for p in s) for s in self.stacks)

    def load_position(self, text, pieces):
        free = list(pieces)
        used = []
        self.stacks = [[] for _ in range(self.columns)]
        for col, part in enumerate(text.split("/")):
            for name in part.split():
                piece = next((p for p in free if p.name == name), None)
                if piece is None:
                    raise ValueError(f"no free card `{name}`")
                free.remove(piece)
                used.append(piece)
                self.stacks[col].append(piece)
        return used


@register
class StackKind(Topology):
    kind = "stack"
    actions = frozenset({"play"})
    move_fields = {"play": {"slot": "slot"}}
    record_types = {"slot": {"index": "int", "tags": "list[str]"}}

    def new_board(self):
        return StackBoard(int(self.spec.get("columns", 3)), int(self.spec.get("depth", 2)))

    def render_text(self, board):
        return board.dump_position()
