"""Constant folding: the value of an operation whose operands are all literals."""

from __future__ import annotations

from engine.expr import ast as A
from engine.expr import runtime
from engine.expr.library import BINARY, FUNCTIONS


def constant(node: A.Node):
    """(True, value) when `node` is a literal or a list of literals, else (False, None)."""
    if isinstance(node, (A.Int, A.Bool, A.Str)):
        return True, node.value
    if isinstance(node, A.ListExpr):
        values = [constant(item) for item in node.items]
        if all(ok for ok, _ in values):
            return True, [value for _, value in values]
    return False, None


def literal(value, at: A.Node) -> A.Node | None:
    """A literal node for a folded value, placed where `at` was; None if not expressible."""
    place = {"offset": at.offset, "line": at.line, "col": at.col}
    if type(value) is bool:
        return A.Bool(value, **place)
    if type(value) is int:
        return A.Int(value, **place)
    if type(value) is str:
        return A.Str(value, **place)
    if isinstance(value, list):
        items = [literal(item, at) for item in value]
        return None if None in items else A.ListExpr(tuple(items), **place)
    return None


def fold_value(node: A.Node):
    """(True, value) of an operation on constants, or (False, reason) if it always fails."""
    try:
        if isinstance(node, A.Unary):
            value = constant(node.operand)[1]
            return True, (not value) if node.op == "not" else -value
        if isinstance(node, A.Binary):
            return True, BINARY[node.op](constant(node.left)[1], constant(node.right)[1])
        if isinstance(node, A.Index):
            return True, constant(node.obj)[1][constant(node.index)[1]]
        if isinstance(node, A.Call):
            function = FUNCTIONS[node.func]
            return True, function.run(*(constant(arg)[1] for arg in node.args))
    except runtime.FAILURES as exc:
        return False, str(runtime.explain(exc))
    except runtime.EvaluationError as exc:
        return False, str(exc)
    return False, "not a foldable operation"
