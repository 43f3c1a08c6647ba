"""Generated code made from real functions: a template's body, specialised.

A template is an ordinary, importable Python function whose body is one step of a
program (the turn's end, a copy of the state, ...). Its positional parameters are the
names the generated function has as locals at the place the body goes (`s`, `m`,
`mover`, ...); its keyword-only parameters, in UPPER_CASE, are the rules' numbers and
switches (a field's index in the state, whether a counter is kept) and the namespace
objects it calls. `fragment(template, consts)` is the body's text with each of those
replaced by its value and every branch they decide folded away: what is left is the
code the ruleset needs, no test of a switch at run time, and nothing typed twice. The
same function, called with the same values as keywords, is the step unspecialised (a
test can call it); linters, coverage and the duplicate finder read it as the code it is.

Only whole numbers, booleans, None and tuples of those are written into the text
(`literal`); a string value is the name of one of the program's namespace constants
(`K_hand`, `k_bits`) the text reads in the parameter's place. A template reads anything
else (pieces, names from a ruleset) through those constants, never as source.
"""

from __future__ import annotations

import ast
import copy
import inspect
import operator
import textwrap
from functools import lru_cache
from typing import Callable, Mapping

_BINARY = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
           ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.BitOr: operator.or_,
           ast.BitAnd: operator.and_, ast.LShift: operator.lshift, ast.RShift: operator.rshift}
_COMPARE = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt,
            ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge,
            ast.Is: operator.is_, ast.IsNot: operator.is_not}


def literal(value: object) -> bool:
    """Whether `value` may be written into a program's text as a literal."""
    if isinstance(value, tuple):
        return all(map(literal, value))
    return value is None or isinstance(value, (bool, int))


@lru_cache(maxsize=None)
def _parsed(template: Callable) -> ast.FunctionDef:
    tree = ast.parse(textwrap.dedent(inspect.getsource(template)))
    function = tree.body[0]
    if not isinstance(function, ast.FunctionDef):
        raise TypeError(f"{template!r} is not a plain function")
    return function


def _body(template: Callable) -> list[ast.stmt]:
    """A fresh copy of the template's body's statements (no docstring)."""
    body = copy.deepcopy(_parsed(template).body)
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    return body


def fragment(template: Callable, consts: Mapping[str, object]) -> list[str]:
    """The lines of `template`'s body with `consts` (one value for each keyword-only
    parameter, no more) written in and folded (see the module's docstring); an empty
    list when nothing is left."""
    wanted = set(constants(template))
    if set(consts) != wanted:
        missing, extra = sorted(wanted - set(consts)), sorted(set(consts) - wanted)
        raise TypeError(f"{template.__name__}: constants missing {missing}, unknown {extra}")
    for name, value in consts.items():
        if not (literal(value) or isinstance(value, str) and value.isidentifier()):
            raise TypeError(f"{name} = {value!r} is not a literal a program may hold")
    folded = _Folder(consts).statements(_body(template))
    return [line for stmt in folded for line in ast.unparse(stmt).splitlines()]


def parameters(template: Callable) -> tuple[str, ...]:
    """The names the body reads as the generated function's locals."""
    return tuple(a.arg for a in _parsed(template).args.args)


def constants(template: Callable) -> tuple[str, ...]:
    """The names `fragment` writes values in for (the keyword-only parameters)."""
    return tuple(a.arg for a in _parsed(template).args.kwonlyargs)


class _Folder(ast.NodeTransformer):
    """Writes the constants in and folds what they decide."""

    def __init__(self, consts: Mapping[str, object]):
        self.consts = consts

    def statements(self, body: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for stmt in body:
            if isinstance(stmt, ast.If):
                test = self.visit(stmt.test)
                if isinstance(test, ast.Constant):  # a switch: keep the branch it takes
                    out += self.statements(stmt.body if test.value else stmt.orelse)
                    continue
                stmt.test = test
                stmt.body = self.statements(stmt.body) or [ast.Pass()]
                stmt.orelse = self.statements(stmt.orelse)
                out.append(stmt)
            elif isinstance(stmt, (ast.For, ast.While)):
                stmt = self._loop(stmt)
                out.append(stmt)
            else:
                out.append(self.visit(stmt))
        return out

    def _loop(self, stmt):
        for name in ("target", "iter", "test"):
            if hasattr(stmt, name):
                setattr(stmt, name, self.visit(getattr(stmt, name)))
        stmt.body = self.statements(stmt.body) or [ast.Pass()]
        stmt.orelse = self.statements(stmt.orelse)
        return stmt

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if isinstance(node.ctx, ast.Load) and node.id in self.consts:
            value = self.consts[node.id]
            if isinstance(value, str):  # (the name of a namespace constant)
                return ast.copy_location(ast.Name(value, ast.Load()), node)
            return ast.copy_location(_constant(value), node)
        return node

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
        node = self.generic_visit(node)
        if isinstance(node.op, ast.Not) and isinstance(node.operand, ast.Constant):
            return ast.Constant(not node.operand.value)
        return node

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        node = self.generic_visit(node)
        op = _BINARY.get(type(node.op))
        if op and _ints(node.left, node.right):
            return ast.Constant(op(node.left.value, node.right.value))
        return node

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        node = self.generic_visit(node)
        if len(node.ops) != 1:
            return node
        left, right, op = node.left, node.comparators[0], type(node.ops[0])
        if op in _COMPARE and _ints(left, right, none=True):
            return ast.Constant(_COMPARE[op](left.value, right.value))
        if op is ast.In and isinstance(right, ast.Tuple) and not right.elts:
            return ast.Constant(False)  # (`x in ()`)
        return node

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.AST:
        """`A and x` / `A or x` with `A` a constant: what Python would give."""
        node = self.generic_visit(node)
        values = list(node.values)
        stops = isinstance(node.op, ast.Or)  # (`or` stops at a true value)
        while len(values) > 1 and isinstance(values[0], ast.Constant):
            if bool(values[0].value) == stops:
                return values[0]
            values.pop(0)
        return values[0] if len(values) == 1 else ast.BoolOp(node.op, values)

    def visit_IfExp(self, node: ast.IfExp) -> ast.AST:
        node = self.generic_visit(node)
        if isinstance(node.test, ast.Constant):
            return node.body if node.test.value else node.orelse
        return node


def _ints(*nodes, none: bool = False) -> bool:
    """Whether every node is a whole number or boolean (or None, with `none`)."""
    kinds = (int, bool, type(None)) if none else (int, bool)
    return all(isinstance(n, ast.Constant) and type(n.value) in kinds for n in nodes)


def _constant(value: object) -> ast.expr:
    if isinstance(value, tuple):
        return ast.Tuple([_constant(v) for v in value], ast.Load())
    return ast.Constant(value)
