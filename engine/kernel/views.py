"""The records that expressions read at run time, and the lazy context that holds them.

Every name of an expression context (`player`, `pool`, `round`, `can_place`, ...) is
resolved here. The values are live views of the state, made once per state and read
through attributes, so that a context costs a dict copy and nothing is computed that no
expression asks for.

Views and contexts reach their state through a weak reference (`_owner()`): the state
holds its views (and its cached context), so a strong one would make every state a
reference cycle, which only the garbage collector frees: in random games that cost
10-15% of the time, collecting whole finished games object by object. Without the
cycles, a state and everything it holds go as soon as the last reference does.
"""

from __future__ import annotations

from operator import attrgetter
from weakref import ref as _weak

# `State` in annotations is engine.kernel.state.State, named, not imported: the state
# module sits above this one (it binds the views), and the kernel's imports run one way.


class RoundInfo:
    """`round`: counters of the current round (mutable, copied on clone)."""

    __slots__ = (
        "number", "turns", "turns_without_place", "passes_in_row", "unable_in_row",
        "reason", "placed_any", "winner",
    )

    def __init__(self, number: int = 1):
        self.number = number
        self.turns = 0
        self.turns_without_place = 0
        self.passes_in_row = 0
        self.unable_in_row = 0
        self.reason = ""
        self.placed_any = False
        self.winner: int | None = None

    def copy(self) -> "RoundInfo":
        other = RoundInfo.__new__(RoundInfo)
        other.number, other.turns, other.turns_without_place = (
            self.number, self.turns, self.turns_without_place)
        other.passes_in_row, other.unable_in_row, other.reason = (
            self.passes_in_row, self.unable_in_row, self.reason)
        other.placed_any, other.winner = self.placed_any, self.winner
        return other


class TurnInfo:
    """`turn`: what the player to move has done so far this turn."""

    __slots__ = ("draws", "placed", "actions", "could_place", "extra")

    def __init__(self):
        self.reset()

    def reset(self) -> None:
        """A new turn (the object is kept: contexts hold it)."""
        self.draws = 0
        self.placed = 0
        self.actions = 0
        self.could_place = True
        self.extra = False

    def copy(self) -> "TurnInfo":
        other = TurnInfo.__new__(TurnInfo)
        other.draws, other.placed, other.actions = self.draws, self.placed, self.actions
        other.could_place, other.extra = self.could_place, self.extra
        return other


class Counters:
    """`counters`: the ruleset's named integers, as attributes."""

    def copy(self) -> "Counters":
        other = Counters()
        other.__dict__.update(self.__dict__)
        return other

    def as_dict(self) -> dict[str, int]:
        return dict(self.__dict__)


class Clock:
    """`clock`: the seconds of play, as the front end reports them. The engine keeps no
    time: `State.set_clock` sets `seconds` before a move (terminal play the real seconds,
    the web page the server's, `simulate --seconds-per-move` a fixed step), and `marks`
    (move index, seconds) are what the record writes, so a replay reads the same."""

    __slots__ = ("seconds", "marks")

    def __init__(self):
        self.seconds = 0
        self.marks: list[tuple[int, int]] = []

    def copy(self) -> "Clock":
        other = Clock.__new__(Clock)
        other.seconds, other.marks = self.seconds, list(self.marks)
        return other

    def at_each(self, moves: int) -> list[int] | None:
        """The reading at each of the first `moves` moves (0 before the first mark), or
        None if the clock was never set (a record then writes no seconds)."""
        marks = self.marks
        if not marks:
            return None
        out, seconds, i = [], 0, 0
        for index in range(moves):
            while i < len(marks) and marks[i][0] <= index:
                seconds = marks[i][1]
                i += 1
            out.append(seconds)
        return out


class PlayerView:
    """`player` and the items of `players`: a live view of one seat."""

    __slots__ = ("_owner", "index")

    def __init__(self, state: "State", index: int):
        self._owner = _weak(state)
        self.index = index

    @property
    def score(self) -> int:
        return self._owner().scores[self.index]

    @property
    def hand_count(self) -> int:
        return len(self._owner().hands[self.index])

    @property
    def hand_value(self) -> int:
        state = self._owner()
        values = state.game.values
        return sum(values[p.uid] for p in state.hands[self.index])

    @property
    def hand(self) -> list:
        return self._owner().hands[self.index]

    @property
    def zones(self):
        """`player.zones`: the seat's own zones (`hand`, and any `owner: player` zone)."""
        from engine.kernel.zones import zones_record  # (zones reads views' state only)
        state = self._owner()
        return zones_record(state, state.weak, self.index)

    @property
    def won_last_round(self) -> bool:
        return self._owner().last_round_winner == self.index

    def __repr__(self) -> str:
        return f"<player {self.index}>"


class PoolView:
    """`pool`: count, total value and top piece (the next drawn) of the face-down supply."""

    __slots__ = ("_owner",)

    def __init__(self, state: "State"):
        self._owner = _weak(state)

    @property
    def pieces(self) -> list:
        return self._owner().pool

    @property
    def count(self) -> int:
        return len(self._owner().pool)

    @property
    def value(self) -> int:
        state = self._owner()
        values = state.game.values
        return sum(values[p.uid] for p in state.pool)

    @property
    def top(self):
        pieces = self._owner().pool
        return pieces[-1] if pieces else None

    key = "pool"
    index = 0

    @property
    def name(self) -> str:
        return self._owner().game.model.zones.zones[self.key].label

    @property
    def face_up(self) -> int:
        from engine.kernel.zones import face_down  # (zones reads views' state only)
        state = self._owner()
        return len(self.pieces) - face_down(state, self.key)


class PileView(PoolView):
    """`pile`: the same fields for the face-up waste (its top is the last piece put)."""

    __slots__ = ()
    key = "pile"

    @property
    def pieces(self) -> list:
        return self._owner().pile

    @property
    def count(self) -> int:
        return len(self._owner().pile)

    @property
    def value(self) -> int:
        state = self._owner()
        values = state.game.values
        return sum(values[p.uid] for p in state.pile)

    @property
    def top(self):
        pieces = self._owner().pile
        return pieces[-1] if pieces else None


class PlaceMove:
    """`move` of a place action: the board kind's placement plus the generic fields. The
    board kind's measures (`edges`, `lines`, ...) are properties of the class that
    `place_view_class` makes for each kind."""

    __slots__ = ("placement", "opening", "pieces", "count")

    def __init__(self, placement, opening: bool):
        self.placement = placement
        self.opening = opening
        # read by nearly every rule of a place action: listed once (a move's record is
        # made once per move applied, and never changed)
        self.pieces = list(placement.pieces)
        self.count = len(self.pieces)

    #: the fields read from the placement (`place_view_class`): none here
    forwarded: tuple = ()

    @property
    def value(self) -> int:
        return place_value(self.pieces)


def place_value(pieces) -> int:
    """`move.value` of a place action: the sum of its pieces' values."""
    return pieces[0].value if len(pieces) == 1 else sum([p.value for p in pieces])


_PLACE_VIEWS: dict[tuple, type] = {}


def place_view_class(topology) -> type:
    """A `PlaceMove` for one board kind, each of its `move.<field>`s (the kind's
    `move_fields`, which are all an expression may read) a C-level property reading the
    placement. (No `__getattr__` forwarding other names: a class with one loses Python's
    specialised attribute reads for all its attributes.)"""
    fields = tuple(n for n in topology.move_fields.get("place", {}) if not hasattr(PlaceMove, n))
    key = (type(topology), fields)
    found = _PLACE_VIEWS.get(key)
    if found is None:
        namespace = {"__slots__": (), "forwarded": fields}
        for name in fields:
            namespace[name] = property(attrgetter("placement." + name))
        found = _PLACE_VIEWS[key] = type("PlaceMove", (PlaceMove,), namespace)
    return found


class PlayMove:
    """`move` of a play action: a piece taken from the board (`move.slot` from the kind)."""

    __slots__ = ("board", "index", "piece", "_slot")

    count = 1
    opening = False

    def __init__(self, board, index, piece):
        self.board = board
        self.index = index
        self.piece = piece
        self._slot = None

    @property
    def slot(self):
        if self._slot is None:
            self._slot = self.board.slot_record(self.index)
        return self._slot

    @property
    def pieces(self) -> list:
        return [self.piece]

    @property
    def value(self) -> int:
        return self.piece.value


class ExchangeMove:
    """`move` of an exchange: the pieces given back."""

    __slots__ = ("pieces", "count", "opening")

    def __init__(self, pieces):
        self.pieces = list(pieces)
        self.count = len(self.pieces)
        self.opening = False

    @property
    def value(self) -> int:
        return sum(p.value for p in self.pieces)


class Context(dict):
    """The values of one evaluation; names nobody set are resolved on first use."""

    __slots__ = ("_owner", "seat", "mover")

    @property
    def state(self) -> "State":
        return self._owner()

    def __missing__(self, name: str):
        state = self._owner()
        action = state.game.can_actions.get(name)
        if action is not None:  # `can_<action>`, the most read
            value = self[name] = not state.is_over and bool(state.moves_of(action))
            return value
        value = _resolve(self, name)
        if name not in _MOVE_NAMES:  # the piece changes with `move`, so it is not kept
            self[name] = value
        return value


_MOVE_NAMES = frozenset(("tile", "card", "token", "piece"))


def _resolve(ctx: Context, name: str):
    state = ctx.state
    if name == "opponents":
        return opponents_of(state, ctx.seat)
    if name == "mover":
        return state.player_views[ctx.mover]
    if name.startswith("can_"):
        return state.can(name[4:])
    if name == "zones":
        from engine.kernel.zones import zones_record
        return zones_record(state, state.weak)
    if name in _MOVE_NAMES:
        move = dict.get(ctx, "move")
        pieces = move.pieces if move is not None else ()
        return pieces[0] if pieces else None
    raise KeyError(name)


def opponents_of(state: "State", seat: int) -> list:
    """`opponents` in a context of `seat`: the other players' views, in seat order."""
    return [view for view in state.player_views if view.index != seat]


def make_context(state: "State", seat: int, mover: int | None = None) -> Context:
    """A fresh context for `seat` as `player` (the mover or a scoring rule's receiver);
    `mover` (default: the same seat) is who made the move being scored."""
    ctx = Context(state.base_values)
    ctx._owner = state.weak
    ctx.seat = seat
    ctx.mover = seat if mover is None else mover
    ctx["player"] = state.player_views[seat]
    return ctx
