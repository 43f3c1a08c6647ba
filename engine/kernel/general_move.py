"""The `move` action kind: k pieces from named sources to a zone, legal when the
destination's `accepts:` and the action's `if:` hold over the moving pieces.

Three ways to take pieces (`engine.rules.zones.MoveSpec.mode`):
- `pick`: k separate pieces, each the top of a source zone or an exposed board piece
  (a pair that sums to 13: two pieces from anywhere they are available);
- `run`: the top k face-up pieces of one source zone, as a unit (building a run);
- `pack`: the top k (or all) pieces of one zone, face up or not (a deal, a redeal).
"""

from __future__ import annotations

from itertools import combinations

from engine.kernel.moves import Move
from engine.kernel.zones import ZoneView, face_down, zone_pieces, zone_size


class MoveData:
    """What a generated `move` move takes and where it goes (a value, never changed)."""

    __slots__ = ("origins", "pieces", "target", "target_index", "text")

    def __init__(self, origins: tuple, pieces: tuple, target: str, target_index: int,
                 text: str):
        self.origins = origins  # ((zone key or "board", zone index or slot), ...) per piece
        self.pieces = pieces  # bottom first, as they lie after the move (unless flipped)
        self.target = target
        self.target_index = target_index
        self.text = text


class MoveRecord:
    """`move` of a `move` action, as its guard, effects and scoring rules read it."""

    __slots__ = ("data", "pieces", "count", "opening", "_owner", "_slots")

    def __init__(self, owner, data: MoveData):
        self.data = data
        self.pieces = list(data.pieces)
        self.count = len(self.pieces)
        self.opening = False
        self._owner = owner
        self._slots = None

    @property
    def value(self) -> int:
        values = self._owner().game.values
        return sum(values[p.uid] for p in self.pieces)

    @property
    def source(self) -> str:
        return _label(self._owner(), self.data.origins[0][0])

    @property
    def source_index(self) -> int:
        return self.data.origins[0][1]

    @property
    def target(self) -> str:
        return _label(self._owner(), self.data.target)

    @property
    def target_index(self) -> int:
        return self.data.target_index

    @property
    def turned(self) -> int:
        """How many pieces the move turned face up (read after it is applied)."""
        return self._owner().turned

    @property
    def slots(self) -> list:
        if self._slots is None:
            board = self._owner().board
            self._slots = [board.slot_record(i) for k, i in self.data.origins if k == "board"]
        return self._slots


def _label(state, key: str) -> str:
    if key == "board":
        return key
    return state.game.model.zones.zones[key].label


# -- generating the moves ---------------------------------------------------------------
def move_moves(state, action) -> list[Move]:
    """The legal moves of a `move` action in this position (sources in the order written,
    then the pieces', then the destinations')."""
    spec = action.move
    table = state.game.model.zones.zones
    target = table[spec.target]
    targets = range(zone_size(state, spec.target))
    ctx = state._decision_context()
    out = []
    for origins, pieces in _takes(state, spec):
        for index in targets:
            if any(k == spec.target and i == index for k, i in origins):
                continue  # not onto the zone it comes from
            text = _text(state, action, pieces, origins, target, index)
            data = MoveData(origins, pieces, spec.target, index, text)
            if _allowed(state, ctx, action, target, data):
                out.append(Move(action.name, None, data))
    for name in ("move", "zone", "tile", "card", "token", "piece"):
        ctx.pop(name, None)
    return out


def _allowed(state, ctx, action, target, data: MoveData) -> bool:
    if target.accepts is None and action.guard is None:
        return True
    record = MoveRecord(state.weak, data)
    ctx["move"] = record
    ctx["tile"] = ctx["card"] = ctx["token"] = ctx["piece"] = record.pieces[0]
    if target.accepts is not None:
        ctx["zone"] = ZoneView(state.weak, data.target, data.target_index, target.label)
        if not target.accepts.evaluate(ctx):
            return False
    return action.guard is None or bool(action.guard.evaluate(ctx))


def _takes(state, spec):
    """(origins, pieces) for every way of taking pieces that the spec allows."""
    if spec.mode == "pick":
        items = list(_available(state, spec.sources))
        for k in range(spec.low, spec.high + 1):
            for combo in combinations(items, k):
                yield tuple(o for o, _ in combo), tuple(p for _, p in combo)
        return
    for key in spec.sources:
        for index in range(zone_size(state, key)):
            pieces = zone_pieces(state, key, index)
            if not pieces:
                continue
            if spec.mode == "pack":
                k = len(pieces) if spec.high == 0 else min(spec.high, len(pieces))
                yield ((key, index),) * k, tuple(pieces[-k:])
                continue
            up = len(pieces) - face_down(state, key, index)
            for k in range(spec.low, min(spec.high, up) + 1):
                yield ((key, index),) * k, tuple(pieces[-k:])


def _available(state, sources):
    """(origin, piece) of every piece a pick may take: each source zone's face-up top,
    the board's exposed pieces."""
    for key in sources:
        if key == "board":
            for slot, piece in state.board.exposed_items():
                yield ("board", slot), piece
            continue
        for index in range(zone_size(state, key)):
            pieces = zone_pieces(state, key, index)
            if pieces and face_down(state, key, index) < len(pieces):
                yield (key, index), pieces[-1]


def _text(state, action, pieces, origins, target, index: int) -> str:
    """The move's argument: the pieces' names (with where they lie, for a set with
    repeated names), then the destination when there is a choice of several."""
    spec = action.move
    if spec.mode == "pack":
        words = []
    elif state.game.unique_names:
        words = [p.name for p in pieces] if spec.mode == "pick" else [pieces[0].name]
    else:
        words = [f"{p.name}@{k}{i}" for p, (k, i) in zip(pieces, origins)]
    if spec.mode == "run" and len(pieces) > 1:
        words[-1] += f"+{len(pieces) - 1}"
    if target.is_list:
        words.append(f"{target.label}[{index}]")
    return " ".join(words)


# -- applying one ------------------------------------------------------------------------
def apply_general_move(state, action, move) -> None:
    """Take the move's pieces from where they lie and put them on its destination; a
    face-down piece left on top of a zone turns face up (counted in `state.turned`)."""
    data = move.data
    spec = action.move
    state.turned = 0
    touched = []
    if spec.mode == "pick":
        for key, index in data.origins:
            if key == "board":
                state.board.remove(index)
            else:
                zone_pieces(state, key, index).pop()
                touched.append((key, index))
    else:
        key, index = data.origins[0]
        del zone_pieces(state, key, index)[-len(data.pieces):]
        touched.append((key, index))
    for key, index in touched:
        _turn_up(state, key, index)
    moved = list(reversed(data.pieces)) if spec.flip else list(data.pieces)
    zone_pieces(state, data.target, data.target_index).extend(moved)


def _turn_up(state, key: str, index: int) -> None:
    down = state.down.get(key)
    if down is None:
        return
    left = len(zone_pieces(state, key, index))
    if down[index] >= left:
        turned = 1 if left else 0
        state.turned += turned
        down[index] = max(left - 1, 0)
