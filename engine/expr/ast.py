"""The expression AST: small frozen nodes, and a printer that gives canonical source.

Every node keeps where it starts in the expression text (`offset`, 0-based, and `line`,
`col`, 1-based). Positions do not take part in equality, so an AST printed with
`to_source` and parsed again compares equal to the original.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator


@dataclass(frozen=True)
class Node:
    offset: int = field(default=0, compare=False, kw_only=True)
    line: int = field(default=1, compare=False, kw_only=True)
    col: int = field(default=1, compare=False, kw_only=True)


@dataclass(frozen=True)
class Int(Node):
    value: int


@dataclass(frozen=True)
class Bool(Node):
    value: bool


@dataclass(frozen=True)
class Str(Node):
    value: str


@dataclass(frozen=True)
class Name(Node):
    name: str


@dataclass(frozen=True)
class Attr(Node):
    obj: Node
    name: str
    # where the field name itself starts, so an unknown field gets the caret on it
    name_offset: int = field(default=0, compare=False, kw_only=True)


@dataclass(frozen=True)
class Index(Node):
    obj: Node
    index: Node


@dataclass(frozen=True)
class ListExpr(Node):
    items: tuple[Node, ...]


@dataclass(frozen=True)
class Unary(Node):
    op: str  # "-" or "not"
    operand: Node


@dataclass(frozen=True)
class Binary(Node):
    op: str  # + - * // % ** / == != < <= > >= in "not in" and or
    left: Node
    right: Node
    op_offset: int = field(default=0, compare=False, kw_only=True)


@dataclass(frozen=True)
class Cond(Node):
    test: Node
    then: Node
    other: Node


@dataclass(frozen=True)
class Comprehension(Node):
    """`element for var in source if condition`, only as the sole argument of a call."""

    element: Node
    var: str
    source: Node
    condition: Node | None = None


@dataclass(frozen=True)
class Call(Node):
    func: str
    args: tuple[Node, ...]


def children(node: Node) -> tuple[Node, ...]:
    """The direct sub-nodes of `node`, in source order."""
    if isinstance(node, Attr):
        return (node.obj,)
    if isinstance(node, Index):
        return (node.obj, node.index)
    if isinstance(node, ListExpr):
        return node.items
    if isinstance(node, Unary):
        return (node.operand,)
    if isinstance(node, Binary):
        return (node.left, node.right)
    if isinstance(node, Cond):
        return (node.test, node.then, node.other)
    if isinstance(node, Comprehension):
        rest = (node.condition,) if node.condition is not None else ()
        return (node.element, node.source) + rest
    if isinstance(node, Call):
        return node.args
    return ()


def iter_nodes(node: Node) -> Iterator[Node]:
    """Every node of the tree, without recursion (trees may be deep before the guard)."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(children(current)))


def depth(node: Node) -> int:
    """The height of the tree, computed without recursion."""
    best = 0
    stack = [(node, 1)]
    while stack:
        current, level = stack.pop()
        best = max(best, level)
        stack.extend((child, level + 1) for child in children(current))
    return best


# Binding strength, loosest first. The printer adds parentheses from these.
COND, OR, AND, NOT, COMPARE, ADD, MUL, NEG, POW, POSTFIX = range(10)

BINARY_LEVEL = {
    "or": OR, "and": AND,
    "==": COMPARE, "!=": COMPARE, "<": COMPARE, "<=": COMPARE, ">": COMPARE,
    ">=": COMPARE, "in": COMPARE, "not in": COMPARE,
    "+": ADD, "-": ADD, "*": MUL, "//": MUL, "%": MUL, "/": MUL, "**": POW,
}


def level(node: Node) -> int:
    """How tightly `node` binds when printed without parentheses."""
    if isinstance(node, Cond):
        return COND
    if isinstance(node, Binary):
        return BINARY_LEVEL[node.op]
    if isinstance(node, Unary):
        return NOT if node.op == "not" else NEG
    if isinstance(node, Int) and node.value < 0:
        return NEG  # a folded negative constant prints as `-5`
    return POSTFIX


def _string(value: str) -> str:
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + escaped.replace("\n", "\\n").replace("\t", "\\t") + '"'


def _wrap(node: Node, minimum: int) -> str:
    text = to_source(node)
    return f"({text})" if level(node) < minimum else text


def _binary(node: Binary) -> str:
    lvl = BINARY_LEVEL[node.op]
    if node.op == "**":  # right-associative; its right side is a unary operand
        return f"{_wrap(node.left, POSTFIX)} ** {_wrap(node.right, NEG)}"
    if lvl == COMPARE:  # comparisons do not chain
        return f"{_wrap(node.left, ADD)} {node.op} {_wrap(node.right, ADD)}"
    return f"{_wrap(node.left, lvl)} {node.op} {_wrap(node.right, lvl + 1)}"


def _comprehension(node: Comprehension) -> str:
    text = f"{to_source(node.element)} for {node.var} in {_wrap(node.source, OR)}"
    if node.condition is not None:
        text += f" if {_wrap(node.condition, OR)}"
    return text


def to_source(node: Node) -> str:
    """Canonical text for `node`; parsing it gives back an equal AST."""
    if isinstance(node, Bool):
        return "true" if node.value else "false"
    if isinstance(node, Int):
        return str(node.value)
    if isinstance(node, Str):
        return _string(node.value)
    if isinstance(node, Name):
        return node.name
    if isinstance(node, Attr):
        return f"{_wrap(node.obj, POSTFIX)}.{node.name}"
    if isinstance(node, Index):
        return f"{_wrap(node.obj, POSTFIX)}[{to_source(node.index)}]"
    if isinstance(node, ListExpr):
        return "[" + ", ".join(to_source(item) for item in node.items) + "]"
    if isinstance(node, Unary):
        if node.op == "not":
            return f"not {_wrap(node.operand, NOT)}"
        return f"-{_wrap(node.operand, NEG)}"
    if isinstance(node, Binary):
        return _binary(node)
    if isinstance(node, Cond):
        return f"if {to_source(node.test)} then {to_source(node.then)} else {to_source(node.other)}"
    if isinstance(node, Comprehension):
        return _comprehension(node)
    if isinstance(node, Call):
        return f"{node.func}(" + ", ".join(to_source(arg) for arg in node.args) + ")"
    raise TypeError(f"not an expression node: {node!r}")
