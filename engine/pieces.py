"""Pieces (tiles, tokens, cards) generated from a ruleset's component descriptions.

A component set is never listed by hand: a generator kind and a few parameters make the
whole set (`corner_tiles` with values 0-5 makes 56 three-corner tiles; with 0-6, 84).
Generators are registered by name so that a new kind is one function.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from itertools import combinations_with_replacement
from typing import Callable, Mapping, Sequence

from engine.diagnostics import counted

RANK_NAMES = "A23456789TJQK"
MAX_PIECES = 10_000  # a real set has 52 to a few hundred; this bounds building one


class TooManyPieces(ValueError):
    """A component description that would make more pieces than MAX_PIECES; `field` is
    the path of the parameter at fault under `components`, as far as it is known."""

    field: tuple = ()


@dataclass(frozen=True)
class Piece:
    """One physical piece. `uid` is unique in the game; `attrs` are what rules may read.

    Each of `attrs` is also an attribute (`piece.value`, `piece.corners`), so that a
    compiled expression can use a piece as a record.
    """

    uid: int
    component: str
    name: str
    attrs: Mapping[str, object] = field(default_factory=dict, compare=False, hash=False)

    def __post_init__(self) -> None:
        # Plain instance attributes, not a `__getattr__` reading `attrs`: a class with
        # `__getattr__` loses Python's specialised attribute reads for every attribute,
        # `uid` and `name` included, and pieces are read on every move.
        for key, value in self.attrs.items():
            if key not in _FIELDS:
                object.__setattr__(self, key, value)

    def __repr__(self) -> str:
        return f"Piece({self.uid}, {self.component!r}, {self.name!r})"


_FIELDS = frozenset(("uid", "component", "name", "attrs"))

# A generator takes the component's spec and returns (name, attrs) pairs in a fixed order,
# and declares the attribute types (as plain names: int, bool, str, list[int]).
Generator = Callable[[Mapping], list[tuple[str, dict]]]
GENERATORS: dict[str, Generator] = {}
ATTRIBUTE_TYPES: dict[str, dict[str, str]] = {}


def generator(kind: str, attributes: dict[str, str]):
    """Register a component generator under `kind` with the attributes it gives pieces."""

    def register(fn: Generator) -> Generator:
        GENERATORS[kind] = fn
        ATTRIBUTE_TYPES[kind] = attributes
        return fn

    return register


@generator(
    "corner_tiles",
    {"corners": "list[int]", "value": "int", "distinct": "int", "high": "int", "low": "int"},
)
def _corner_tiles(spec: Mapping) -> list[tuple[str, dict]]:
    """Every multiset of `corners` numbers from `values.min`..`values.max`, once each.

    Corners are read clockwise, never decreasing from the lowest: 0-1-2 exists and its
    mirror 0-2-1 does not.
    """
    lo, hi = spec["values"]["min"], spec["values"]["max"]
    corners = spec.get("corners", 3)
    count = math.comb(max(hi - lo + 1, 0) + corners - 1, corners) if corners >= 0 else 0
    if count > MAX_PIECES:  # counted before a single one is built
        too_many = TooManyPieces(f"{count:,} tiles; a ruleset has at most {MAX_PIECES:,} pieces")
        too_many.field = ("corners",) if "corners" in spec else ("values", "max")
        raise too_many
    out = []
    for combo in combinations_with_replacement(range(lo, hi + 1), spec.get("corners", 3)):
        out.append(
            (
                "-".join(map(str, combo)),
                {
                    "corners": list(combo),
                    "value": sum(combo),
                    "distinct": len(set(combo)),
                    "high": max(combo),
                    "low": min(combo),
                },
            )
        )
    return out


@generator("numbered", {"value": "int", "joker": "bool"})
def _numbered(spec: Mapping) -> list[tuple[str, dict]]:
    """Tokens with a face value, `counts: {value: how many}`, plus `jokers` (value 0)."""
    out = []
    for value, count in sorted((int(k), int(v)) for k, v in spec["counts"].items()):
        out += [(str(value), {"value": value, "joker": False})] * count
    out += [("J", {"value": 0, "joker": True})] * int(spec.get("jokers", 0))
    return out


@generator("deck", {"rank": "int", "suit": "str", "colour": "str", "value": "int"})
def _deck(spec: Mapping) -> list[tuple[str, dict]]:
    """A card deck: ranks 1..`ranks` (A=1 ... K=13) in each suit, named like `Ah`, `Td`."""
    suits = spec.get("suits", ["c", "d", "h", "s"])
    red = set(spec.get("red_suits", ["d", "h"]))
    out = []
    for suit in suits:
        for rank in range(1, int(spec.get("ranks", 13)) + 1):
            name = (RANK_NAMES[rank - 1] if rank <= len(RANK_NAMES) else str(rank)) + suit
            colour = "red" if suit in red else "black"
            out.append((name, {"rank": rank, "suit": suit, "colour": colour, "value": rank}))
    return out


def build_pieces(components: Mapping[str, Mapping]) -> list[Piece]:
    """All pieces of a ruleset's `components` section, uids in a fixed order."""
    pieces: list[Piece] = []
    for comp_name, spec in components.items():
        try:
            made = GENERATORS[spec["kind"]](spec)
        except TooManyPieces as exc:
            exc.field = (comp_name, *exc.field)
            raise
        if len(pieces) + len(made) > MAX_PIECES:
            raise TooManyPieces(f"{len(pieces) + len(made):,} pieces; a ruleset has at most"
                                f" {MAX_PIECES:,}")
        for name, attrs in made:
            pieces.append(Piece(len(pieces), comp_name, name, dict(attrs)))
    return pieces


def parse_deal(text: str, pieces: Sequence[Piece]) -> list[Piece]:
    """The pieces in the order a deal written as piece names gives; ValueError if it is not one.

    Names are separated by spaces or commas, or run together when every name has the
    same length (`AhKd2c...`). Every piece must be named exactly once; pieces sharing a
    name (numbered tokens) are taken in uid order. Case is ignored if it is unambiguous.

    >>> deck = build_pieces({"cards": {"kind": "deck", "ranks": 2, "suits": ["c", "d"]}})
    >>> [p.name for p in parse_deal("2d Ac 2c Ad", deck)]
    ['2d', 'Ac', '2c', 'Ad']
    """
    names = _split_names(text, pieces)
    by_name: dict[str, list[Piece]] = {}
    for piece in sorted(pieces, key=lambda p: p.uid, reverse=True):
        by_name.setdefault(piece.name, []).append(piece)
    folded = {name.lower(): name for name in by_name}
    fold = len(folded) == len(by_name)
    out = []
    for i, name in enumerate(names):
        key = name if name in by_name or not fold else folded.get(name.lower(), name)
        if key not in by_name:
            raise ValueError(f"entry {i + 1} of the deal, {name!r}, is not a piece of this game")
        if not by_name[key]:
            raise ValueError(f"entry {i + 1} of the deal, {name!r}, is named too often")
        out.append(by_name[key].pop())
    if len(out) != len(pieces):
        missing = sorted(p.name for left in by_name.values() for p in left)
        raise ValueError(f"the deal names {counted(len(out), 'piece')} but the game has {len(pieces)};"
                         f" missing: {' '.join(missing[:10])}{' ...' if len(missing) > 10 else ''}")
    return out


def format_deal(pieces: Sequence[Piece]) -> str:
    """The text form of a deal, read back by `parse_deal`."""
    return " ".join(p.name for p in pieces)


def _split_names(text: str, pieces: Sequence[Piece]) -> list[str]:
    words = text.replace(",", " ").split()
    lengths = {len(p.name) for p in pieces}
    if len(words) == 1 and len(lengths) == 1 and len(words[0]) != next(iter(lengths)):
        size = next(iter(lengths))
        word = words[0]
        if len(word) % size:
            raise ValueError(f"a deal run together must be a multiple of {size} characters")
        return [word[i : i + size] for i in range(0, len(word), size)]
    return words
