"""The kernel's small value types: a move, a score event, and the errors of play."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.diagnostics import Position


@dataclass(frozen=True)
class Move:
    """One action a player can take: the action's name and its argument as text.

    `repr` rebuilds the move (`Move('place', '0,0:4-4-4')`); `text` is the form written
    in records and typed by players (`place 0,0:4-4-4`, `draw`). `data` is what the
    board kind generated (a placement, a slot); it is a cache, ignored by equality, and
    rebuilt from the text when a move is typed or read back from a record.
    """

    action: str
    arg: str = ""
    data: object = field(default=None, compare=False, hash=False, repr=False)

    @property
    def text(self) -> str:
        return f"{self.action} {self.arg}" if self.arg else self.action

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


class IllegalMove(ValueError):
    """A move that is not legal in the state it was applied to; the message says why."""


class Stalled(RuntimeError):
    """Raised when asked to move in a state that is over."""
