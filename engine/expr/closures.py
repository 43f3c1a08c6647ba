"""The closure backend: a checked AST turned into nested Python closures.

Kept as the reference semantics to compare with the generated code of `compiler.py`,
and for `benchmarks/bench_expr.py`, which measures both: each node costs one Python
call here, so closures run about 2.5-5x slower than generated code on realistic formulas.
Every closure takes `(v, slots)`: the values of the context's names, and a list
holding comprehension variables and the memoised values of definitions.
"""

from __future__ import annotations

import operator
from typing import Callable

from engine.expr import ast as A
from engine.expr import runtime
from engine.expr.compiler import may_grow
from engine.expr.checker import Checked
from engine.expr.library import BINARY, FUNCTIONS
from engine.expr.types import BOOL, ListOf

UNSET = object()
_NEG = operator.neg


class _Builder:
    def __init__(self, checked: Checked):
        self.checked = checked
        self.slot_of: dict[str, int] = {}
        # definitions may use each other in any order, so a use looks its body up here
        # when it runs
        self.bodies: dict[str, Callable] = {}

    def slot(self, name: str) -> int:
        return self.slot_of.setdefault(name, len(self.slot_of))

    def build(self, node: A.Node) -> Callable:
        """A closure `f(v, slots)` computing a checked node."""
        return getattr(self, "build_" + type(node).__name__.lower())(node)

    def build_int(self, node):
        value = node.value
        return lambda v, s: value

    build_bool = build_str = build_int

    def build_name(self, node: A.Name):
        kind, target = self.checked.refs[id(node)]
        if kind == "local":
            k = self.slot(target)
            return lambda v, s: s[k]
        if kind == "env":
            return lambda v, s: v[target]
        k = self.slot("def:" + target)
        bodies = self.bodies

        def definition(v, s):
            value = s[k]
            if value is UNSET:
                value = s[k] = runtime.bounded(bodies[target](v, s))
            return value

        return definition

    def build_attr(self, node: A.Attr):
        obj, name = self.build(node.obj), node.name
        getter = len if isinstance(self.checked.types.get(id(node.obj)), ListOf) else operator.attrgetter(name)
        return lambda v, s: getter(obj(v, s))

    def build_index(self, node: A.Index):
        obj, idx = self.build(node.obj), self.build(node.index)
        return lambda v, s: obj(v, s)[idx(v, s)]

    def build_listexpr(self, node: A.ListExpr):
        items = [self.build(item) for item in node.items]
        return lambda v, s: [item(v, s) for item in items]

    def build_unary(self, node: A.Unary):
        operand = self.build(node.operand)
        if node.op == "not":
            return lambda v, s: not operand(v, s)
        return lambda v, s: -operand(v, s)

    def build_binary(self, node: A.Binary):
        left, right = self.build(node.left), self.build(node.right)
        if node.op == "and":
            return lambda v, s: left(v, s) and right(v, s)
        if node.op == "or":
            return lambda v, s: left(v, s) or right(v, s)
        op = BINARY[node.op]
        return lambda v, s: op(left(v, s), right(v, s))

    def build_cond(self, node: A.Cond):
        test, then, other = self.build(node.test), self.build(node.then), self.build(node.other)
        return lambda v, s: then(v, s) if test(v, s) else other(v, s)

    def build_comprehension(self, node: A.Comprehension):
        k = self.slot(self.checked.refs[id(node)][1])
        element, source = self.build(node.element), self.build(node.source)
        counted = self.checked.loops.get(id(node))
        if counted is not None:  # the step budget, as in generated code
            steps, plain = getattr(runtime, f"{counted}_steps"), source
            source = lambda v, s: steps(plain(v, s))  # noqa: E731
        if node.condition is None:
            return lambda v, s: (element(v, s) for s[k] in source(v, s))
        condition = self.build(node.condition)
        return lambda v, s: (element(v, s) for s[k] in source(v, s) if condition(v, s))

    def build_call(self, node: A.Call):
        args = [self.build(arg) for arg in node.args]
        function = FUNCTIONS[node.func]
        run = function.run
        if node.func == "count":
            t = self.checked.types[id(node.args[0])]
            run = runtime.count_true if isinstance(t, ListOf) and t.item == BOOL else runtime.count_items
        if len(args) == 1:
            (arg,) = args
            return lambda v, s: run(arg(v, s))
        return lambda v, s: run(*[arg(v, s) for arg in args])


def compile_closures(checked: Checked) -> Callable:
    """An evaluation function `f(values)` for a checked expression, made of closures."""
    builder = _Builder(checked)
    for name, tree in checked.definitions.items():
        builder.bodies[name] = builder.build(tree)
    root = builder.build(checked.root)
    size = len(builder.slot_of)
    if may_grow(checked):  # as generated code does
        unbounded = root
        root = lambda v, s: runtime.bounded(unbounded(v, s))  # noqa: E731

    def evaluate(values):
        try:
            return root(values, [UNSET] * size)
        except runtime.FAILURES as exc:
            raise runtime.explain(exc) from exc

    return evaluate
