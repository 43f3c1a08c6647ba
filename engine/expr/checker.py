"""Static checking: names, fields, argument counts and types, with constant folding.

The checker walks a parsed AST against the names declared where the expression is used
(`env`) and the ruleset's named definitions. It returns a new, folded tree and side
tables (each node's type, what each name refers to) that the compiler trusts: code is
generated only from a tree that checked without errors.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Mapping

from engine.diagnostics import closest
from engine.expr import ast as A
from engine.expr import codes
from engine.expr import calls, definitions, operators
from engine.expr.folding import constant, fold_value, literal
from engine.expr.library import FUNCTIONS, LIST_FIELDS
from engine.expr.runtime import MAX_BITS, too_large
from engine.expr.types import BOOL, ERROR, INT, NOTHING, STR, ListOf, Record, Type, describe, fits, join

MAX_DEPTH = 40  # nodes from the root to the deepest leaf


@dataclass
class Problem:
    """A diagnostic before it has a file position: code, offset in the text, message."""

    code: str
    offset: int
    message: str
    where: Callable[[int], object]  # offset -> file position (definitions have their own)
    help: str | None = None


@dataclass
class Checked:
    """The result of checking: the folded tree and what the compiler needs to know."""

    root: A.Node | None
    type: Type
    types: dict[int, Type] = field(default_factory=dict)
    refs: dict[int, tuple] = field(default_factory=dict)
    definitions: dict[str, A.Node] = field(default_factory=dict)
    names_used: set[str] = field(default_factory=set)
    problems: list[Problem] = field(default_factory=list)
    alive: list[A.Node] = field(default_factory=list, repr=False)
    #: comprehensions under the run-time step budget: id -> "start" (the outermost of a
    #: nest) or "tick" (an inner one, counting its items)
    loops: dict[int, str] = field(default_factory=dict)


class Checker:
    """Checks one expression (and the definitions it uses) in one context."""

    max_depth = MAX_DEPTH

    def __init__(self, env: Mapping[str, Type], sources: Mapping[str, object], where: Callable):
        self.env = env
        self.sources = sources
        self.out = Checked(None, ERROR)
        self.scopes: list[tuple[str, str, Type]] = []  # (name, python slot, type)
        self.slots = 0
        self.nesting = 0
        self.iterations = 1  # product of the known sizes of the enclosing `for` sources
        self.inner_loops = 0  # comprehensions checked inside another, so far
        self.where = where  # offset in the text being checked -> file position
        self.chain: list[str] = []
        self.def_types: dict[str, object] = {}

    # -- reporting -------------------------------------------------------------
    def report(self, code, offset: int, message: str, help: str | None = None) -> Type:
        """Record a problem at `offset` of the text being checked; the ERROR type."""
        self.out.problems.append(Problem(code.code, offset, message, self.where, help))
        return ERROR

    def typed(self, node: A.Node, t: Type) -> tuple[A.Node, Type]:
        """Note the type of a checked node, for the compiler."""
        self.out.alive.append(node)  # tables are keyed by id(): keep every node alive
        self.out.types[id(node)] = t
        return node, t

    # -- entry ----------------------------------------------------------------
    def check_root(self, root: A.Node, expected: Type | None) -> Checked:
        if A.depth(root) > MAX_DEPTH:
            self.report(codes.TOO_COMPLEX, root.offset,
                        f"expression nested more than {MAX_DEPTH} levels deep",
                        "split it into named definitions (`define:`)")
            return self.out
        try:
            node, t = self.check(root)
        except RecursionError:
            self.report(codes.TOO_COMPLEX, root.offset, "expression too complex to check")
            return self.out
        if expected is not None and not fits(t, expected):
            self.report(codes.TYPE_MISMATCH, root.offset,
                        f"expected {describe(expected)} here, found {describe(t)}",
                        expected_help(expected, t))
        self.out.root, self.out.type = node, t
        return self.out

    def check(self, node: A.Node) -> tuple[A.Node, Type]:
        """The checked (folded) node and its type."""
        method = getattr(self, "check_" + type(node).__name__.lower())
        return method(node)

    # -- leaves ---------------------------------------------------------------
    def check_int(self, node):
        return self.typed(node, INT)

    def check_bool(self, node):
        return self.typed(node, BOOL)

    def check_str(self, node):
        return self.typed(node, STR)

    def check_name(self, node: A.Name):
        for name, slot, t in reversed(self.scopes):
            if name == node.name:
                self.out.refs[id(node)] = ("local", slot)
                return self.typed(node, t)
        if node.name in self.env:
            self.out.names_used.add(node.name)
            self.out.refs[id(node)] = ("env", node.name)
            return self.typed(node, self.env[node.name])
        if node.name in self.sources:
            self.out.names_used.add(node.name)
            self.out.refs[id(node)] = ("def", node.name)
            return self.typed(node, self.use_definition(node))
        return node, self.unknown_name(node)

    def unknown_name(self, node: A.Name) -> Type:
        """Report a name that is not visible here, with the closest visible one."""
        visible = [s[0] for s in self.scopes] + list(self.env) + list(self.sources)
        suggestion = closest(node.name, visible)
        help = f"did you mean `{suggestion}`?" if suggestion else None
        if node.name in ("True", "False"):
            help = f"booleans are written `{node.name.lower()}`"
        elif node.name in FUNCTIONS:
            help = f"`{node.name}` is a function: call it, `{node.name}(...)`"
        return self.report(codes.UNKNOWN_NAME, node.offset, f"unknown name `{node.name}`", help)

    def use_definition(self, node: A.Name) -> Type:
        """The type of a definition used here (checked once per compilation)."""
        return definitions.check_definition(self, node)

    # -- structure ------------------------------------------------------------
    def check_attr(self, node: A.Attr):
        obj, t = self.check(node.obj)
        new = A.Attr(obj, node.name, name_offset=node.name_offset, offset=node.offset,
                     line=node.line, col=node.col)
        if t == ERROR:
            return new, ERROR
        if isinstance(t, Record):
            if node.name in t.fields:
                return self.typed(new, t.fields[node.name])
            suggestion = closest(node.name, t.fields)
            help = f"did you mean `{suggestion}`?" if suggestion else (
                "its fields: " + ", ".join(f"`{f}`" for f in sorted(t.fields)) if t.fields else None)
            what = A.to_source(node.obj)
            what = f"`{what}`" if what == t.name else f"`{what}` (a {t.name})"
            return new, self.report(codes.UNKNOWN_FIELD, node.name_offset,
                                    f"{what} has no field `{node.name}`", help)
        if isinstance(t, ListOf) and node.name in LIST_FIELDS:
            return self.typed(new, LIST_FIELDS[node.name])
        help = None
        if isinstance(t, ListOf):
            help = "a list has one field, `.count` (its length)"
        return new, self.report(codes.UNKNOWN_FIELD, node.name_offset,
                                f"{describe(t)} has no field `{node.name}`", help)

    def check_index(self, node: A.Index):
        obj, t = self.check(node.obj)
        idx, it = self.check(node.index)
        new = A.Index(obj, idx, offset=node.offset, line=node.line, col=node.col)
        self.want(idx, it, INT, "an index")
        if t == ERROR:
            return new, ERROR
        if not isinstance(t, ListOf):
            return new, self.report(codes.TYPE_MISMATCH, node.offset, f"only a list can be indexed, not {describe(t)}")
        return self.fold(new, t.item)

    def check_listexpr(self, node: A.ListExpr):
        items, item_type = [], NOTHING
        for item in node.items:
            checked, t = self.check(item)
            items.append(checked)
            joined = join(item_type, t)
            if joined is None:
                self.report(codes.TYPE_MISMATCH, checked.offset,
                            f"list items must have one type: {describe(item_type)}, then {describe(t)}")
                joined = ERROR
            item_type = joined
        new = A.ListExpr(tuple(items), offset=node.offset, line=node.line, col=node.col)
        return self.typed(new, ListOf(item_type))

    def want(self, node: A.Node, actual: Type, wanted: Type, role: str) -> bool:
        """Report a mismatch when `actual` does not fit `wanted`, e.g. a boolean operand."""
        if fits(actual, wanted):
            return True
        self.report(codes.TYPE_MISMATCH, node.offset, f"{role} must be {describe(wanted)}, found {describe(actual)}",
                    expected_help(wanted, actual))
        return False

    def fold(self, node: A.Node, t: Type) -> tuple[A.Node, Type]:
        """Replace an operation on constants by its value, when it has one."""
        if t == ERROR:
            return node, t
        if not all(constant(child)[0] for child in A.children(node)):
            return self.typed(node, t)
        ok, value = fold_value(node)
        if not ok:
            return node, self.report(codes.ALWAYS_FAILS, node.offset, f"this always fails: {value}")
        if too_large(value):  # and printing it, or folding further, would fail or be slow
            return node, self.report(codes.NUMBER_TOO_LARGE, node.offset,
                                     f"this constant part is over {MAX_BITS} bits",
                                     "no score needs a number this large")
        folded = literal(value, node)
        return self.typed(folded, t) if folded is not None else self.typed(node, t)

    # -- operators -------------------------------------------------------------
    def check_unary(self, node: A.Unary):
        operand, t = self.check(node.operand)
        new = A.Unary(node.op, operand, offset=node.offset, line=node.line, col=node.col)
        wanted = BOOL if node.op == "not" else INT
        if not self.want(operand, t, wanted, f"the operand of `{node.op}`"):
            return new, ERROR
        return self.fold(new, wanted)

    def check_binary(self, node: A.Binary):
        return operators.check_binary(self, node)

    def check_cond(self, node: A.Cond):
        test, tt = self.check(node.test)
        then, t1 = self.check(node.then)
        other, t2 = self.check(node.other)
        self.want(test, tt, BOOL, "the condition after `if`")
        result = join(t1, t2)
        if result is None:
            result = self.report(codes.TYPE_MISMATCH, other.offset,
                                 f"`then` gives {describe(t1)} but `else` gives {describe(t2)}")
        if isinstance(test, A.Bool) and result != ERROR:
            return self.typed(then if test.value else other, result)
        new = A.Cond(test, then, other, offset=node.offset, line=node.line, col=node.col)
        return self.typed(new, result)

    def check_call(self, node: A.Call):
        return calls.check_call(self, node)

    def check_comprehension(self, node: A.Comprehension):
        return node, self.report(codes.MISPLACED_COMPREHENSION, node.offset,
                                 "a `for` form is only allowed as the single argument of a function")


def expected_help(wanted: Type, actual: Type) -> str | None:
    """A hint for the commonest mix-up: a boolean for a number, or the reverse."""
    if wanted == INT and actual == BOOL:
        return "booleans are not numbers: write `if CONDITION then 1 else 0`, or use `count(...)`"
    if wanted == BOOL and actual == INT:
        return "compare the number, e.g. `... > 0`"
    return None
