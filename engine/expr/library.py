"""The function library, as data: each function's signature, documentation, example,
static typing rule and the Python it compiles to.

`docs/expressions.md` is generated from `FUNCTIONS` (`python -m engine.expr.docs`) and
a test checks that the committed file matches and that every example evaluates to its
stated result.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import Callable, Sequence

from engine.expr import runtime
from engine.expr.types import BOOL, ERROR, INT, NOTHING, STR, ListOf, Type, describe, fits

# A typing rule gets the argument types and returns the result type, or a message
# saying what is wrong (a type mismatch).
Typing = Callable[[Sequence[Type]], "Type | str"]
# An emitter gets the arguments' Python source and types and returns Python source.
Emit = Callable[[Sequence[str], Sequence[Type]], str]


@dataclass(frozen=True)
class Function:
    """One library function."""

    name: str
    signature: str
    doc: str
    example: str
    result: str  # the example's value, written as an expression
    min_args: int
    max_args: int | None  # None: any number
    typing: Typing
    emit: Emit
    run: Callable  # the same function, for constant folding and the closure backend
    takes_list: bool = True  # a single list argument, so `f(E for x in L if C)` works


def _item(t: Type) -> Type | None:
    if t == ERROR:
        return ERROR
    return t.item if isinstance(t, ListOf) else None


def _list_of(wanted: Type, what: str) -> Typing:
    def typing(args: Sequence[Type]):
        item = _item(args[0])
        if item is None or not (item == NOTHING or fits(item, wanted)):
            return f"needs a list of {what}, found {describe(args[0])}"
        return None

    return typing


def _numbers_or_list(args: Sequence[Type]):
    if len(args) == 1:
        item = _item(args[0])
        if item is None or not (item in (NOTHING, ERROR) or fits(item, INT)):
            return f"needs a list of numbers (or several numbers), found {describe(args[0])}"
        return INT
    for arg in args:
        if not fits(arg, INT):
            return f"needs numbers, found {describe(arg)}"
    return INT


def _returns(result: Type, check: Typing) -> Typing:
    def typing(args: Sequence[Type]):
        problem = check(args)
        return problem if isinstance(problem, str) else result

    return typing


def _any_list(args: Sequence[Type]):
    return None if _item(args[0]) is not None else f"needs a list, found {describe(args[0])}"


def _sized(args: Sequence[Type]):
    if _item(args[0]) is not None or fits(args[0], STR):
        return INT
    return f"needs a list or a string, found {describe(args[0])}"


def _one_int(args: Sequence[Type]):
    return INT if fits(args[0], INT) else f"needs a number, found {describe(args[0])}"


def _sortable(args: Sequence[Type]):
    item = _item(args[0])
    if item is None or item not in (INT, STR, NOTHING, ERROR):
        return f"needs a list of numbers or strings, found {describe(args[0])}"
    return args[0]


def _count_emit(src: Sequence[str], types: Sequence[Type]) -> str:
    if _item(types[0]) == BOOL:
        return f"_count_true({src[0]})"
    return f"_count_items({src[0]})"


def _count_run(items) -> int:
    items = list(items)
    if items and all(type(item) is bool for item in items):
        return runtime.count_true(items)
    return len(items)


def _call(pyname: str) -> Emit:
    return lambda src, types: f"{pyname}({', '.join(src)})"


FUNCTIONS: dict[str, Function] = {
    f.name: f
    for f in [
        Function("sum", "sum(xs: list[int]) -> int", "The total of a list of numbers (0 for an empty list).",
                 "sum(x * 10 for x in [1, 2, 3])", "60", 1, 1,
                 _returns(INT, _list_of(INT, "numbers")), _call("_sum"), sum),
        Function("min", "min(xs: list[int]) -> int; min(a: int, b: int, ...) -> int",
                 "The smallest of a non-empty list, or of several numbers.",
                 "min(5, 3, 8)", "3", 1, None, _numbers_or_list, _call("_min"), min),
        Function("max", "max(xs: list[int]) -> int; max(a: int, b: int, ...) -> int",
                 "The largest of a non-empty list, or of several numbers.",
                 "max(x for x in [4, 9, 2] if x < 9)", "4", 1, None, _numbers_or_list, _call("_max"), max),
        Function("count", "count(xs: list) -> int",
                 "How many items a list has; of a list of booleans, how many are true.",
                 "count(x > 1 for x in [1, 2, 3])", "2", 1, 1,
                 _returns(INT, _any_list), _count_emit, _count_run),
        Function("len", "len(xs: list | str) -> int", "The length of a list or a string.",
                 'len("abc")', "3", 1, 1, _sized, _call("_len"), len),
        Function("abs", "abs(a: int) -> int", "The absolute value of a number.",
                 "abs(3 - 10)", "7", 1, 1, _one_int, _call("_abs"), abs, takes_list=False),
        Function("any", "any(xs: list[bool]) -> bool", "Whether at least one item is true (false for an empty list).",
                 "any(x == 2 for x in [1, 2, 3])", "true", 1, 1,
                 _returns(BOOL, _list_of(BOOL, "booleans")), _call("_any"), any),
        Function("all", "all(xs: list[bool]) -> bool", "Whether every item is true (true for an empty list).",
                 "all(x > 1 for x in [1, 2, 3])", "false", 1, 1,
                 _returns(BOOL, _list_of(BOOL, "booleans")), _call("_all"), all),
        Function("sorted", "sorted(xs: list[int] | list[str]) -> list", "The items in ascending order.",
                 "sorted([3, 1, 2])", "[1, 2, 3]", 1, 1, _sortable, _call("_sorted"), sorted),
        Function("sort_desc", "sort_desc(xs: list[int] | list[str]) -> list", "The items in descending order.",
                 "sort_desc([3, 1, 2])[0]", "3", 1, 1, _sortable, _call("_sort_desc"), runtime.sort_desc),
    ]
}


def _contains(a, b) -> bool:
    return a in b


#: fields every list has: `players.count` is the number of players
LIST_FIELDS = {"count": INT}

#: binary operators with constant operands are folded with these
BINARY = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "//": operator.floordiv,
    "%": operator.mod, "**": runtime.power,
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
    ">": operator.gt, ">=": operator.ge,
    "in": _contains, "not in": lambda a, b: not _contains(a, b),
    "and": lambda a, b: a and b, "or": lambda a, b: a or b,
}
ARITHMETIC = frozenset({"+", "-", "*", "//", "%", "**", "/"})
ORDERING = frozenset({"<", "<=", ">", ">="})
