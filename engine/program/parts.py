"""The contract of a board kind's part of a program, declared.

Every board kind with programs has one part (`plan.BOARD_CODE`): a class built from the
kind's topology (`BoardPart(topology)`), or from the whole game when its code depends on
the rules and pieces (`for_game(game)`). What every part gives is `BoardPart`; a kind
whose boards are dealt and played from (the `play` action) gives `DealtPart` too, a
kind that takes placements from the hand (`place`) `PlacingPart`. `search` and the
solver read `SearchPart` where a kind gives it. `tests/program/test_parts.py` checks
each registered part against the protocols its move kinds call for (`breaches`).

`f` is always the state's layout (field name -> index in the state's list); the
`*_lines` methods return lines of the program's text (see `engine.program.source`).
"""

from __future__ import annotations

import inspect
from typing import Protocol, runtime_checkable


@runtime_checkable
class BoardPart(Protocol):
    """What every board kind's part gives."""

    #: the board kind's name (`board.kind` in a ruleset)
    kind: str
    #: the state's fields this part adds, after the common ones
    fields: tuple
    #: the action kinds that move pieces on or off this board (`play`, `place`)
    move_kinds: frozenset
    #: how many pieces the setup deals onto the board (0: none)
    size: int

    def constants(self) -> dict:
        """The module's constants this part's text reads (`B_...`, `K_...`)."""

    def width(self, kind: str) -> int:
        """How many move codes an action of `kind` spans on this board."""

    def empty_lines(self, f: dict) -> list[str]:
        """Lines putting an empty board in the new state `s`."""

    def names(self, f: dict) -> dict[str, str]:
        """The Python text each `board.<field>` context name is read as."""

    def copy_lines(self, f: dict) -> list[str]:
        """Lines of `copy(s)` copying this part's fields into `t`."""

    def values(self, board) -> dict:
        """The interpreter's board as this part's field values (`Program.from_state`)."""


@runtime_checkable
class DealtPart(BoardPart, Protocol):
    """A board dealt at setup whose exposed pieces are played off it (`play`)."""

    def deal_lines(self, f: dict, dealt: str) -> list[str]:
        """Lines laying the pieces of the list text `dealt` onto the board."""

    def remove_lines(self, f: dict, slot: str, piece: str, search: bool = False) -> list[str]:
        """Lines taking the piece at `slot` off the board into the local `piece`."""

    def candidates(self, f: dict, slot: str, piece: str) -> tuple[list[str], list[str]]:
        """The head and tail lines of a loop over the exposed (slot, piece) pairs."""

    def move_names(self, slot: str) -> dict[str, str]:
        """The text each `move.<field>` of a play is read as."""

    def move_arg(self, s: list, f: dict, slot: int, game) -> str:
        """The interpreter's move text of a play (`Program.move_text`)."""


@runtime_checkable
class PlacingPart(BoardPart, Protocol):
    """A board that takes placements of pieces from the hand (`place`)."""

    def listing_lines(self, f: dict, action, index: int, seat: str) -> list[str]:
        """Lines preparing the listing of `seat`'s placements for `action`."""

    def direct(self, action) -> bool:
        """Whether `codes_lines` lists the codes (else the placement objects)."""

    def codes_lines(self, f: dict, index: int, target: str, base: int) -> list[str]:
        """Lines appending the placements' move codes (`base` + ...) to `target`."""

    def place_lines(self, f: dict, code: str, piece: str) -> list[str]:
        """Lines laying the placement of the move code `code` for the mover."""

    def move_names(self, placement: str, applied: bool) -> dict[str, str]:
        """The text each `move.<field>` of a placement is read as."""

    def move_arg(self, s: list, f: dict, code: int, game) -> str:
        """The interpreter's move text of a placement (`Program.move_text`)."""


@runtime_checkable
class SearchPart(Protocol):
    """What the solver's key and a search's light copy read of a board part."""

    def key_text(self, f: dict) -> tuple[str, int]:
        """The text of the board's part of a position key, and how many bits it takes."""

    def search_copy_lines(self, f: dict) -> list[str]:
        """Lines of `search_copy(s)` for this part (what a search changes)."""


#: the protocols a part must meet for each action kind it moves pieces with
FOR_MOVE_KIND = {"play": DealtPart, "place": PlacingPart}


def breaches(part: object, protocol: type) -> list[str]:
    """How the part `part` (an instance) falls short of `protocol`: each member it
    lacks, and each method whose parameters are named otherwise than the protocol's
    (`isinstance` with a `runtime_checkable` protocol checks only that names exist)."""
    found = []
    for name, declared in _members(protocol).items():
        if not hasattr(part, name):
            found.append(f"no `{name}`")
        elif callable(declared) and _parameters(getattr(part, name)) != _parameters(declared)[1:]:
            found.append(f"`{name}{inspect.signature(getattr(part, name))}` is not "
                         f"`{name}{inspect.signature(declared)}`")
    return found


def _members(protocol: type) -> dict[str, object]:
    """Each public member of `protocol` and its bases: the method, or None for a field."""
    members: dict[str, object] = {}
    for klass in reversed(protocol.__mro__):
        if klass is object or klass is Protocol or klass.__name__ == "Generic":
            continue
        members.update((n, None) for n in getattr(klass, "__annotations__", {}))
        members.update((n, v) for n, v in vars(klass).items()
                       if not n.startswith("_") and callable(v))
    return members


def _parameters(function) -> list[str]:
    return list(inspect.signature(function).parameters)
