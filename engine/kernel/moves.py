"""The kernel's small value types: a move, a score event, and the errors of play."""

from __future__ import annotations

from dataclasses import dataclass

from engine.diagnostics import Position


class Move:
    """One action a player can take: the action's name and its argument as text.

    `repr` rebuilds the move (`Move('place', '0,0:4-4-4')`); `text` is the form written
    in records and typed by players (`place 0,0:4-4-4`, `draw`). Moves are values:
    equal and hashed by action and argument, and never changed once made. `data` is
    what the board kind generated (a placement, a slot); a cache that equality ignores.
    A generated move computes its argument text only when asked (formatting every
    candidate placement would cost more than generating it).
    """

    __slots__ = ("action", "data", "__dict__")
    # The argument and text, worked out when first read, go into the instance's dict; a
    # generated move sets only `action` and `data` (`moves_of_data`, on every position).
    _arg: str | None = None
    _text: str | None = None

    def __init__(self, action: str, arg: str = "", data: object = None):
        self.action = action
        self._arg = arg
        self.data = data

    @property
    def arg(self) -> str:
        if self._arg is None:
            self._arg = self.data.text
        return self._arg

    @property
    def text(self) -> str:
        # kept: a shared move (a play, an exchange) is written in every record line
        text = self._text
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


@dataclass(frozen=True)
class ScoreEvent:
    """One score change: who, how much, which rule, where the rule is written, and why."""

    player: int
    points: int
    rule: str
    pos: Position | None
    detail: str = ""

    def as_dict(self) -> dict:
        return {
            "player": self.player,
            "points": self.points,
            "rule": self.rule,
            "where": f"{self.pos.path}:{self.pos.line}" if self.pos else None,
            "detail": self.detail,
        }


_new = object.__new__


def moves_of_data(action: str, items) -> list[Move]:
    """`[Move(action, None, item) for item in items]` (arguments formatted when asked) at
    about half the cost, for any length: two slots are set on instances made without
    `__init__` (the argument and text keep their class defaults). A board's whole list
    of placements is wrapped so on every position."""
    out = []
    for item in items:
        move = _new(Move)
        move.action = action
        move.data = item
        out.append(move)
    return out


def make_event(player: int, points: int, rule: str, pos: Position | None,
               detail: str = "") -> ScoreEvent:
    """`ScoreEvent(...)`, at a third of the cost: a frozen dataclass's own `__init__`
    sets each field through `object.__setattr__`; the fields are written directly into
    the new, not yet shared instance. Equal to the one the constructor makes."""
    event = _new(ScoreEvent)
    fields = event.__dict__
    fields["player"] = player
    fields["points"] = points
    fields["rule"] = rule
    fields["pos"] = pos
    fields["detail"] = detail
    return event


class IllegalMove(ValueError):
    """A move that is not legal in the state it was applied to; the message says why."""


class RuleFailure(RuntimeError):
    """An expression of the ruleset failed while playing (e.g. `pile.top` of an empty
    pile); the message names the rule and where it is written."""

    def __init__(self, what: str, pos: Position | None, error: Exception):
        where = f"{pos.path}:{pos.line}: " if pos else ""
        super().__init__(f"{where}{what} failed: {error}")
        self.pos = pos
