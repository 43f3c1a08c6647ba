"""Static types of the expression language.

`INT`, `BOOL`, `STR`, `ListOf(item)` and `Record(name, fields)`. Booleans are not
numbers. A record's `fields` may be filled in after it is made, so that record types
can refer to each other (a line's cells, a cell's line).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Mapping


class Type:
    """Base of every type."""


@dataclass(frozen=True)
class Prim(Type):
    name: str

    def __str__(self) -> str:
        return self.name


INT = Prim("int")
BOOL = Prim("bool")
STR = Prim("str")
#: the item type of the empty list `[]`, which fits any list
NOTHING = Prim("nothing")
#: the type of an expression that already failed to check; fits anything, so one
#: mistake gives one diagnostic, not a cascade
ERROR = Prim("error")


@dataclass(frozen=True)
class ListOf(Type):
    item: Type

    def __str__(self) -> str:
        return f"list[{self.item}]"


class Record(Type):
    """A named record type with typed fields; equal by name."""

    def __init__(self, name: str, fields: Mapping[str, Type] | None = None):
        self.name = name
        self.fields: dict[str, Type] = dict(fields or {})

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Record) and other.name == self.name

    def __hash__(self) -> int:
        return hash(("record", self.name))

    def __repr__(self) -> str:
        return f"Record({self.name!r}, {sorted(self.fields)!r})"

    def __str__(self) -> str:
        return self.name


PRIMS = {"int": INT, "bool": BOOL, "str": STR}
_LIST = re.compile(r"list\[(.+)\]")


def type_from_name(
    name: str, records: Mapping[str, Mapping[str, str] | Record] | None = None
) -> Type:
    """The type for a plain name: `int`, `bool`, `str`, `list[<name>]` or a record name.

    `records` maps record names to their fields (field -> type name) or to a `Record`.
    Raises ValueError for a name that is none of these.

    >>> type_from_name("list[int]")
    ListOf(item=Prim(name='int'))
    >>> type_from_name("line", {"line": {"length": "int"}}).fields["length"]
    Prim(name='int')
    """
    return _resolve(name.strip(), records or {}, {})


def _resolve(name: str, records, made: dict[str, Record]) -> Type:
    if name in PRIMS:
        return PRIMS[name]
    match = _LIST.fullmatch(name)
    if match:
        return ListOf(_resolve(match.group(1).strip(), records, made))
    if name in made:
        return made[name]
    spec = records.get(name)
    if spec is None:
        raise ValueError(f"unknown type name `{name}`")
    if isinstance(spec, Record):
        return spec
    record = made[name] = Record(name)
    for field_name, field_type in spec.items():
        record.fields[field_name] = (
            field_type if isinstance(field_type, Type) else _resolve(field_type, records, made)
        )
    return record


def fits(actual: Type, wanted: Type) -> bool:
    """Whether a value of type `actual` may stand where `wanted` is required."""
    if actual == ERROR or wanted == ERROR or actual == wanted:
        return True
    if isinstance(actual, ListOf) and isinstance(wanted, ListOf):
        return actual.item == NOTHING or fits(actual.item, wanted.item)
    return False


def join(a: Type, b: Type) -> Type | None:
    """The type of a value that is either an `a` or a `b` (e.g. the branches of `if`)."""
    if a == NOTHING:
        return b
    if b == NOTHING:
        return a
    if isinstance(a, ListOf) and isinstance(b, ListOf):
        item = join(a.item, b.item)
        return None if item is None else ListOf(item)
    if fits(a, b):
        return a if b == ERROR else b
    if fits(b, a):
        return a
    return None


def describe(t: Type) -> str:
    """A type for a message: `a number`, `a boolean`, `list[int]`, `a record `line``."""
    if t == INT:
        return "a number (int)"
    if t == BOOL:
        return "a boolean"
    if t == STR:
        return "a string"
    if isinstance(t, Record):
        return f"a `{t.name}` record"
    return f"a `{t}`"
