"""Static rules for binary operators (part of the checker)."""

from __future__ import annotations

from engine.expr import ast as A
from engine.expr import codes
from engine.expr.folding import constant
from engine.expr.library import ARITHMETIC, ORDERING
from engine.expr.types import BOOL, ERROR, INT, STR, ListOf, Type, describe, fits, join

SIDES = ("left", "right")
MAX_EXPONENT = 256  # a larger constant exponent is refused at lint time


def check_binary(checker, node: A.Binary):
    """Check both operands, then the operator's rule; fold when both are constants."""
    left, lt = checker.check(node.left)
    right, rt = checker.check(node.right)
    new = A.Binary(node.op, left, right, op_offset=node.op_offset,
                   offset=node.offset, line=node.line, col=node.col)
    if node.op == "/":
        return new, checker.report(
            codes.TRUE_DIVISION, node.op_offset,
            "`/` is not an operator: arithmetic is on integers",
            "write `//` for division rounded down (and `%` for the remainder)")
    if node.op in ARITHMETIC:
        result = _arithmetic(checker, new, lt, rt)
    elif node.op in ("and", "or"):
        result = _logic(checker, new, lt, rt)
    elif node.op in ("in", "not in"):
        result = _membership(checker, new, lt, rt)
    else:
        result = _comparison(checker, new, lt, rt)
    return checker.fold(new, result)


def _arithmetic(checker, node: A.Binary, lt: Type, rt: Type) -> Type:
    ok = all([checker.want(side, t, INT, f"the {name} operand of `{node.op}`")
              for side, t, name in zip((node.left, node.right), (lt, rt), SIDES)])
    if not ok:
        return ERROR
    is_const, value = constant(node.right)
    if not is_const:
        return INT
    if node.op in ("//", "%") and value == 0:
        return checker.report(codes.DIVISION_BY_ZERO, node.right.offset,
                              f"`{node.op}` by zero always fails")
    if node.op == "**" and not 0 <= value <= MAX_EXPONENT:
        return checker.report(codes.POWER_TOO_LARGE, node.right.offset,
                              f"exponent {value} is out of range: it must be 0 to {MAX_EXPONENT}",
                              "integer arithmetic only; a huge power cannot be a score")
    return INT


def _logic(checker, node: A.Binary, lt: Type, rt: Type) -> Type:
    ok = all([checker.want(side, t, BOOL, f"the {name} operand of `{node.op}`")
              for side, t, name in zip((node.left, node.right), (lt, rt), SIDES)])
    return BOOL if ok else ERROR


def _membership(checker, node: A.Binary, lt: Type, rt: Type) -> Type:
    if rt == ERROR or lt == ERROR:
        return BOOL
    if isinstance(rt, ListOf):
        if rt.item == ERROR or join(lt, rt.item) is not None:
            return BOOL
        return checker.report(codes.TYPE_MISMATCH, node.left.offset,
                              f"`{node.op}` looks for {describe(lt)} in {describe(rt)}")
    if rt == STR:
        return BOOL if checker.want(node.left, lt, STR, f"the left operand of `{node.op}`") else ERROR
    return checker.report(codes.TYPE_MISMATCH, node.right.offset,
                          f"the right operand of `{node.op}` must be a list or a string, found {describe(rt)}")


def _comparison(checker, node: A.Binary, lt: Type, rt: Type) -> Type:
    if lt == ERROR or rt == ERROR:
        return BOOL
    if node.op in ORDERING:
        if lt in (INT, STR) and fits(rt, lt):
            return BOOL
        bad = node.right if lt in (INT, STR) else node.left
        found = rt if lt in (INT, STR) else lt
        return checker.report(codes.TYPE_MISMATCH, bad.offset,
                              f"`{node.op}` compares numbers (or strings), found {describe(found)}")
    if join(lt, rt) is None:
        return checker.report(codes.TYPE_MISMATCH, node.right.offset,
                              f"`{node.op}` compares {describe(lt)} with {describe(rt)}: never equal",
                              "booleans and numbers are different types" if {lt, rt} == {INT, BOOL} else None)
    return BOOL
