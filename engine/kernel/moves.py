"""The kernel's small value types: a move, a score event, and the errors of play."""

from __future__ import annotations

from dataclasses import FrozenInstanceError
from operator import itemgetter

from engine.diagnostics import Position, define

K_RULE_FAILED = define(
    "K520", "rule-failed", "an expression of the ruleset failed while playing (an empty zone's top)"
)


_get = getattr


class Move:
    """One action a player can take: the action's name and its argument as text.

    `repr` rebuilds the move (`Move('place', '0,0:4-4-4')`); `text` is the form written
    in records and typed by players (`place 0,0:4-4-4`, `draw`). Moves are values:
    equal and hashed by action and argument, and never changed once made. `data` is
    what the board kind generated (a placement, a slot); a cache that equality ignores.
    A generated move computes its argument text only when asked (formatting every
    candidate placement would cost more than generating it).
    """

    # Slots only (no instance dict: cheaper to make, and to collect). The argument and
    # text, worked out when first read, fill their slots then; a generated move sets
    # only `action` and `data` (`moves_of_data`, on every position).
    __slots__ = ("action", "data", "_arg", "_text")

    def __init__(self, action: str, arg: str = "", data: object = None):
        self.action = action
        self._arg = arg
        self.data = data

    @property
    def arg(self) -> str:
        arg = _get(self, "_arg", None)  # (unset in a generated move, until read)
        if arg is None:
            arg = self._arg = self.data.text
        return arg

    @property
    def text(self) -> str:
        # kept: a shared move (a play, an exchange) is written in every record line
        text = _get(self, "_text", None)
        if text is None:
            arg = self.arg
            text = self._text = f"{self.action} {arg}" if arg else self.action
        return text

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Move) and self.action == other.action and self.arg == other.arg
        )

    def __hash__(self) -> int:
        return hash((self.action, self.arg))

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        if self.arg:
            return f"Move({self.action!r}, {self.arg!r})"
        return f"Move({self.action!r})"


class ScoreEvent(tuple):
    """One score change: who, how much, which rule, where the rule is written, and why.

    `ScoreEvent(player, points, rule, pos, detail="")`, a value that behaves as the frozen
    dataclass it was: its fields as attributes, equal (and hashed) by all of them and
    only to another ScoreEvent, shown as `ScoreEvent(player=0, points=5, ...)`, and
    assigning a field raises `FrozenInstanceError`. It is a tuple underneath because
    nearly every move makes one: `make_event` (and the compiled steps) make it in one
    C call, where a dataclass instance costs about twice as much.
    """

    __slots__ = ()
    __match_args__ = ("player", "points", "rule", "pos", "detail")

    def __new__(cls, player: int, points: int, rule: str, pos: Position | None,
                detail: str = ""):
        return _tuple_new(cls, (player, points, rule, pos, detail))

    player = property(itemgetter(0), doc="the seat whose score changes")
    points = property(itemgetter(1), doc="the change (never 0)")
    rule = property(itemgetter(2), doc="the scoring rule's name")
    pos = property(itemgetter(3), doc="where the rule is written (or None)")
    detail = property(itemgetter(4), doc="the rule's label")

    def as_dict(self) -> dict:
        return {
            "player": self.player,
            "points": self.points,
            "rule": self.rule,
            "where": f"{self.pos.path}:{self.pos.line}" if self.pos else None,
            "detail": self.detail,
        }

    # -- what the dataclass did, and a tuple does otherwise -------------------------------
    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return _tuple_eq(self, other)
        # (a plain tuple of the same values would answer True for it, being compared
        # as a tuple; anything else may still say how it compares, as with a dataclass)
        return False if isinstance(other, tuple) else NotImplemented

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    __hash__ = tuple.__hash__  # (the dataclass hashed the tuple of its fields: the same)

    def _unordered(self, other: object):
        return NotImplemented

    __lt__ = __le__ = __gt__ = __ge__ = _unordered

    def __repr__(self) -> str:
        return (f"ScoreEvent(player={self[0]!r}, points={self[1]!r}, rule={self[2]!r}, "
                f"pos={self[3]!r}, detail={self[4]!r})")

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __getnewargs__(self) -> tuple:  # (copy and pickle rebuild it from its fields)
        return tuple(self)


_tuple_new = tuple.__new__
_tuple_eq = tuple.__eq__


_new = object.__new__


def moves_of_data(action: str, items) -> list[Move]:
    """`[Move(action, None, item) for item in items]` (arguments formatted when asked) at
    about half the cost, for any length: two slots are set on instances made without
    `__init__` (the argument and text slots stay unset until read). A board's whole
    list of placements is wrapped so on every position."""
    out = []
    for item in items:
        move = _new(Move)
        move.action = action
        move.data = item
        out.append(move)
    return out


def make_event(player: int, points: int, rule: str, pos: Position | None,
               detail: str = "") -> ScoreEvent:
    """`ScoreEvent(...)` without the call of its `__new__` (the compiled steps write
    `tuple.__new__(ScoreEvent, (...))` in place)."""
    return _tuple_new(ScoreEvent, (player, points, rule, pos, detail))


class IllegalMove(ValueError):
    """A move that is not legal in the state it was applied to; the message says why."""


class RuleFailure(RuntimeError):
    """An expression of the ruleset failed while playing (e.g. `pile.top` of an empty
    pile); the message names the rule and where it is written."""

    def __init__(self, what: str, pos: Position | None, error: Exception):
        where = f"{pos.path}:{pos.line}: " if pos else ""
        super().__init__(f"{where}{what} failed: {error} [{K_RULE_FAILED.code}]")
        self.pos = pos
