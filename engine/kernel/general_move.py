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
from engine.kernel.zones import ListingView, face_down, zone_pieces, zone_size


class MoveData:
    """What a generated `move` move takes and where it goes (a value, never changed);
    its text is written when first asked for (most candidates are never listed)."""

    __slots__ = ("origins", "pieces", "target", "target_index", "_text", "_make")

    def __init__(self, origins: tuple, pieces: tuple, target: str, target_index: int,
                 make_text):
        self.origins = origins  # ((zone key or "board", zone index or slot), ...) per piece
        self.pieces = pieces  # bottom first, as they lie after the move (unless flipped)
        self.target = target
        self.target_index = target_index
        self._text = None
        self._make = make_text

    @property
    def text(self) -> str:
        if self._text is None:
            self._text = self._make(self)
        return self._text


class MoveRecord:
    """`move` of a `move` action, as its guard, effects and scoring rules read it."""

    __slots__ = ("origins", "pieces", "count", "opening", "target_key", "target_index",
                 "_owner", "_slots")

    def __init__(self, owner, data):
        self._owner = owner
        self.opening = False
        self._slots = None
        if data is not None:
            self.set(data.origins, data.pieces, data.target, data.target_index)

    def set(self, origins, pieces, target: str, index: int) -> None:
        """Make this the record of another candidate (one record serves a generation)."""
        self.origins = origins
        self.pieces = list(pieces)
        self.count = len(pieces)
        self.target_key = target
        self.target_index = index
        self._slots = None

    @property
    def value(self) -> int:
        values = self._owner().game.values
        return sum(values[p.uid] for p in self.pieces)

    @property
    def source(self) -> str:
        return _label(self._owner(), self.origins[0][0])

    @property
    def source_index(self) -> int:
        return self.origins[0][1]

    @property
    def target(self) -> str:
        return _label(self._owner(), self.target_key)

    @property
    def turned(self) -> int:
        """How many pieces the move turned face up (read after it is applied)."""
        return self._owner().turned

    @property
    def slots(self) -> list:
        if self._slots is None:
            board = self._owner().board
            self._slots = [board.slot_record(i) for k, i in self.origins if k == "board"]
        return self._slots


def _label(state, key: str) -> str:
    if key == "board":
        return key
    return state.game.model.zones.zones[key].label


# -- generating the moves ---------------------------------------------------------------
def move_moves(state, action, check=None) -> list[Move]:
    """The legal moves of a `move` action in this position (sources in the order written,
    then the pieces', then the destinations'). `check`: the loop testing every candidate
    against every destination (`check_candidates`, or one generated for the action with
    its conditions written in place, `engine.kernel.compiled_moves.compile_move_moves`)."""
    spec = action.move
    key = spec.target
    target = state.game.model.zones.zones[key]
    ctx = state._decision_context()
    probe = MoveRecord(state.weak, None)
    weak, label = state.weak, target.label
    views = [ListingView(weak, key, i, label, zone_pieces(state, key, i))
             for i in _indexes(state, key)]
    ctx["move"] = probe
    try:
        return (check or check_candidates)(
            ctx, probe, _takes(state, spec), views, target, action, _texts(state, action, target))
    finally:
        for name in ("move", "zone", "tile", "card", "token", "piece"):
            ctx.pop(name, None)


def check_candidates(ctx, probe, takes, views, target, action, make_text) -> list[Move]:
    """The moves of the candidates `takes` onto the destinations `views` (zones of
    `target`) that its `accepts:` and the action's `if:` allow, evaluated over `ctx`."""
    key = target.key
    accepts = target.accepts.evaluate if target.accepts is not None else None
    guard = action.guard.evaluate if action.guard is not None else None
    names = _names_read(target.accepts, action.guard)
    piece_names = [n for n in _PIECE_NAMES if n in names]
    sets_zone = "zone" in names
    out = []
    for origins, pieces in takes:
        # (the record is the candidate's, its destination set in the loop below)
        probe.set(origins, pieces, key, 0)
        for name in piece_names:
            ctx[name] = pieces[0]
        for view in views:
            index = view.index
            if (key, index) in origins:
                continue  # not onto the zone it comes from
            probe.target_index = index
            if sets_zone:
                ctx["zone"] = view
            if accepts is not None and not accepts(ctx):
                continue
            if guard is not None and not guard(ctx):
                continue
            out.append(Move(action.name, None, MoveData(origins, pieces, key, index, make_text)))
    return out


def _indexes(state, key: str):
    """The zones of a name a move may use: each of a row, the mover's own of a seat's."""
    if state.game.model.zones.zones[key].owner == "player":
        return (state.to_move,)
    return range(zone_size(state, key))


_PIECE_NAMES = ("tile", "card", "token", "piece")
_EVERY_NAME = frozenset(_PIECE_NAMES + ("move", "zone"))


def _names_read(*expressions) -> frozenset:
    """The context names the expressions read (every one, if one of them cannot say)."""
    found: set = set()
    for expr in expressions:
        if expr is None:
            continue
        names = getattr(expr, "names_used", None)
        if names is None:
            return _EVERY_NAME
        found |= names
    return frozenset(found)


def _takes(state, spec):
    """(origins, pieces) for every way of taking pieces that the spec allows."""
    if spec.mode == "pick":
        items = list(_available(state, spec.sources, spec.reach))
        board = state.board
        for k in range(spec.low, spec.high + 1):
            for combo in combinations(items, k):
                origins = tuple(o for o, _ in combo)
                if spec.reach and not _with_what_lies_on(board, origins):
                    continue
                yield origins, tuple(p for _, p in combo)
        return
    pack, low, high = spec.mode == "pack", spec.low, spec.high
    for key in spec.sources:
        for index in _indexes(state, key):
            pieces = zone_pieces(state, key, index)
            if not pieces:
                continue
            origin = ((key, index),)
            if pack:
                k = len(pieces) if high == 0 else min(high, len(pieces))
                yield origin * k, tuple(pieces[-k:])
                continue
            up = len(pieces) - face_down(state, key, index)
            for k in range(low, min(high, up) + 1):
                yield origin * k, tuple(pieces[-k:])


def _with_what_lies_on(board, origins: tuple) -> bool:
    """Whether every board piece taken is taken with all the pieces lying on it."""
    slots = {i for k, i in origins if k == "board"}
    return all(set(board.lying_on(slot)) <= slots for slot in slots)


def _available(state, sources, reach: int = 0):
    """(origin, piece) of every piece a pick may take: each source zone's face-up top,
    the board's exposed pieces (with `reach`, those under at most that many others)."""
    for key in sources:
        if key == "board":
            found = state.board.iter_reachable(reach) if reach else state.board.exposed_items()
            for slot, piece in found:
                yield ("board", slot), piece
            continue
        for index in _indexes(state, key):
            pieces = zone_pieces(state, key, index)
            if pieces and face_down(state, key, index) < len(pieces):
                yield (key, index), pieces[-1]


def _texts(state, action, target):
    """The function writing a move's argument: the pieces' names (with where they lie,
    for a set with repeated names), then the destination when there are several (a row
    of zones; of a zone each seat has, the mover's own is the one choice)."""
    mode = action.move.mode
    unique = state.game.unique_names

    def text(data: MoveData) -> str:
        pieces, origins = data.pieces, data.origins
        if mode == "pack":
            words = []
        elif unique:
            words = [p.name for p in pieces] if mode == "pick" else [pieces[0].name]
        else:
            words = [f"{p.name}@{k}{i}" for p, (k, i) in zip(pieces, origins)]
        if mode == "run" and len(pieces) > 1:
            words[-1] += f"+{len(pieces) - 1}"
        if target.count is not None:  # (a seat's own zone is the one choice: unwritten)
            words.append(f"{target.label}[{data.target_index}]")
        return " ".join(words)
    return text


# -- applying one ------------------------------------------------------------------------
def apply_general_move(state, action, move) -> None:
    """Take the move's pieces from where they lie and put them on its destination; a
    face-down piece left on top of a zone turns face up (counted in `state.turned`).
    Pieces moved from the pool into the hand count in `turn.draws`, as a `draw`'s do."""
    data = move.data
    spec = action.move
    state.turned = 0
    touched = []
    if spec.mode == "pick":
        for key, index in data.origins:
            if key != "board":
                zone_pieces(state, key, index).pop()
                touched.append((key, index))
        _take_from_board(state.board, [i for k, i in data.origins if k == "board"])
    else:
        key, index = data.origins[0]
        del zone_pieces(state, key, index)[-len(data.pieces):]
        touched.append((key, index))
    for key, index in touched:
        _turn_up(state, key, index)
    moved = list(reversed(data.pieces)) if spec.flip else list(data.pieces)
    zone_pieces(state, data.target, data.target_index).extend(moved)
    if data.target == "hand" and data.origins[0][0] == "pool":
        state.turn.draws += len(moved)  # a draw, whichever way it is written


def _take_from_board(board, slots: list) -> None:
    """Remove the pieces in `slots`, those lying on others first."""
    while slots:
        slot = next(s for s in slots if not board.lying_on(s))
        board.remove(slot)
        slots.remove(slot)


def _turn_up(state, key: str, index: int) -> None:
    down = state.down.get(key)
    if down is None:
        return
    left = len(zone_pieces(state, key, index))
    if down[index] >= left:
        turned = 1 if left else 0
        state.turned += turned
        down[index] = max(left - 1, 0)
