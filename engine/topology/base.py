"""The contract every board kind fulfils, so that the kernel never needs to know which.

A board kind is a generic, named primitive (`triangular`, `square`, `tableau`, ...). It
reads the ruleset's `board` mapping, checks it, makes empty boards, generates the legal
placements (or exposed pieces) for the kernel's generic actions, and draws a board as
text. Types for expressions are given as plain names (`int`, `bool`, `str`, `list[int]`,
`list[<record>]`, or a record name) because this layer sits below the expression layer.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Callable, ClassVar, Iterator, Mapping, Sequence

from engine.diagnostics import Diagnostic, Position, define
from engine.pieces import Piece

R_UNFIT = define("R443", "pieces-do-not-fit", "a component set's pieces are not the kind the board holds")

Where = Callable[..., "Position | None"]  # where(*path) -> position of a value in the ruleset


class Placement:
    """One candidate placement of pieces from a hand. Kinds subclass it.

    `pieces` are the hand pieces it uses. Its measures (`edges`, `hexagons`, `lines`...)
    are attributes, computed lazily where they are costly, and become `move.<field>`
    in expressions. `text` is the move's stable text form, parsed back by
    `Board.parse_placement`.
    """

    pieces: tuple[Piece, ...] = ()

    @property
    def text(self) -> str:  # pragma: no cover - every kind overrides it
        raise NotImplementedError


class Board(ABC):
    """A mutable board. The kernel clones it for search and changes it only via apply."""

    @property
    @abstractmethod
    def count(self) -> int:
        """How many pieces are on the board."""

    @abstractmethod
    def clone(self) -> "Board":
        ...

    def iter_placements(
        self, hand: Sequence[Piece], first: bool, rules: object
    ) -> Iterator[Placement]:
        """Every legal placement from `hand`, in a fixed order (for `place` actions).

        `first` is true for the first placement of a round. `rules` is what the kind's
        `compile_place` returned for the action. The kernel applies the action's `if`
        guard on top of what is yielded here.
        """
        raise NotImplementedError

    def apply_placement(self, placement: Placement) -> None:
        """Put the placement's pieces on the board. The placement's measures must stay
        as they were before (the kernel scores a move after applying it), so a lazy
        measure is computed here first if it depends on the board."""
        raise NotImplementedError

    def parse_placement(
        self, text: str, hand: Sequence[Piece], first: bool, rules: object
    ) -> Placement:
        """A typed or recorded placement; raises ValueError with a reason if illegal."""
        raise NotImplementedError

    # For kinds whose pieces leave the board (`play` actions): a tableau.
    def deal(self, pieces: Sequence[Piece]) -> None:
        """Lay pieces out at the start of a round (the kind decides where and face)."""
        raise NotImplementedError

    def iter_exposed(self) -> Iterator[tuple[int, Piece]]:
        """(slot, piece) for every piece that may be taken, in slot order."""
        raise NotImplementedError

    def exposed_items(self) -> list[tuple[int, Piece]]:
        """`iter_exposed` as a list, which a kind may keep and hand out again until the
        board changes (so callers must not modify it)."""
        return list(self.iter_exposed())

    def remove(self, slot: int) -> Piece:
        raise NotImplementedError

    def iter_reachable(self, depth: int) -> Iterator[tuple[int, Piece]]:
        """(slot, piece) for every piece that may be taken together with the at most
        `depth` pieces lying on it (`lying_on`); by default the exposed ones."""
        return self.iter_exposed()

    def lying_on(self, slot: int) -> tuple:
        """The slots whose pieces lie on `slot` now (none for an exposed piece)."""
        return ()

    def capacity(self) -> int:
        """How many pieces `setup.deal: [{to: board}]` (no count) lays out."""
        raise NotImplementedError

    def slot_record(self, slot: int) -> object:
        """`move.slot` of a play from `slot`: an object with the fields the kind declares
        (in `record_types`); by default the slot number itself."""
        return slot

    # Used by the kernel for solvers, scenarios and property tests.
    def key(self) -> object:
        """A hashable summary of the contents: equal keys, equal boards."""
        raise NotImplementedError

    def search_key(self) -> object:
        """As `key`, as compact as the kind can make it, for a search over the positions
        of one round (what stays fixed during a round, e.g. the deal, may be left out)."""
        return self.key()

    def hidden_items(self) -> list:
        """(slot, piece) for each piece lying face down (no player can see it), for
        agents that must not look; by default none."""
        return []

    def set_hidden(self, slot, piece: Piece) -> None:
        """Put `piece` face down in the hidden `slot` (for agents that sample what they
        cannot see: a determinization); only kinds with hidden slots have it."""
        raise NotImplementedError

    def load_position(self, text: str, pieces: Sequence[Piece]) -> list[Piece]:
        """Set the board from the kind's own notation (a scenario's `board:`), taking
        pieces from `pieces` (the free ones, by name); returns the pieces used.
        Raises ValueError with a reason."""
        raise NotImplementedError

    def dump_position(self) -> str:
        """The board in the notation `load_position` reads."""
        raise NotImplementedError

    def pieces_on_board(self) -> list[Piece]:
        """Every piece on the board (for conservation checks)."""
        raise NotImplementedError

    def check_invariants(self) -> list[str]:
        """Problems with the board's consistency (e.g. shared corners that disagree);
        the property tests call it after every move. Empty when all is well."""
        return []


class Topology(ABC):
    """A board kind, built from the ruleset's `board` mapping."""

    kind: ClassVar[str]
    #: action kinds this board supports: "place" and/or "play"
    actions: ClassVar[frozenset[str]] = frozenset()
    #: fields of `board` in expressions (besides `count`), name -> type name
    board_fields: ClassVar[dict[str, str]] = {}
    #: fields of `move` per action kind, name -> type name
    move_fields: ClassVar[dict[str, dict[str, str]]] = {}
    #: record types the fields above refer to, e.g. {"line": {"length": "int", "sum": "int"}}
    record_types: ClassVar[dict[str, dict[str, str]]] = {}

    def __init__(self, spec: Mapping):
        self.spec = spec

    @classmethod
    def check_spec(cls, spec: Mapping, where: Where) -> list[Diagnostic]:
        """Problems with the `board` mapping (R4xx codes), each with its position."""
        return []

    def check_place(self, action: Mapping, where: Where) -> list[Diagnostic]:
        """Problems with a `place` action's kind-specific parameters."""
        return []

    def compile_place(self, action: Mapping) -> object:
        """Turn a `place` action's parameters into what `iter_placements` needs."""
        return None

    def check_pieces(self, pieces: Sequence[Piece]) -> dict[str, str]:
        """Component set -> why its pieces cannot go on this board (R443); empty when all fit.
        Checked when the ruleset loads, so a mismatch is a lint error, not a crash in play."""
        return {}

    def learn_pieces(self, pieces: Sequence[Piece]) -> None:
        """Every piece of the ruleset's set, given once before games are played (optional:
        boards work without it). A kind that indexes pieces as it meets them may index
        them all here, so that no game pays for meeting pieces late."""

    @abstractmethod
    def new_board(self) -> Board:
        ...

    @abstractmethod
    def render_text(self, board: Board) -> str:
        """The board as text a person can read at a glance."""

    def render_runs(self, board: Board, last: object = None, symbols: bool = False,
                    width: int | None = None) -> list:
        """The drawing as lines of (text, style) runs (`engine.topology.styled`), the
        pieces of `last` (what the last move generated: a placement, a slot) marked;
        `width`: the columns the terminal has, for a kind that lays its drawing out to
        fit (a line of play turns only where it must)."""
        from engine.topology.styled import from_text

        return from_text(self.render_text(board))


def corner_mismatches(pieces: Sequence[Piece], corners: int) -> dict[str, str]:
    """`check_pieces` for tiles matched by their numbers: each component whose pieces
    do not have a `corners` list of that many numbers, with the first such piece."""
    out: dict[str, str] = {}
    for p in pieces:
        have = getattr(p, "corners", None)
        count = len(have) if isinstance(have, (list, tuple)) else 0
        if count != corners and p.component not in out:
            out[p.component] = (f"its pieces need {corners} numbers each (`kind: corner_tiles`, `corners: "
                                f"{corners}`), and {p.name} has {count or 'no corners'}")
    return out


BOARD_KINDS: dict[str, type[Topology]] = {}


def register(cls: type[Topology]) -> type[Topology]:
    """Class decorator: make a board kind available to rulesets under `cls.kind`."""
    BOARD_KINDS[cls.kind] = cls
    return cls
