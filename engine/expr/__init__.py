"""The expression language: parse, check against a context, compile once, evaluate.

>>> from engine.diagnostics import Position
>>> from engine.expr import types as T
>>> expr, problems = compile_expression("2 * x + 1", {"x": T.INT}, Position("r.yaml", 3, 10))
>>> expr.evaluate({"x": 20})
41
"""

from __future__ import annotations

from typing import Callable, Mapping

from engine.diagnostics import Diagnostic, Position
from engine.expr import ast, codes, types
from engine.expr import ast as A
from engine.expr.checker import Checked, Checker
from engine.expr.compiler import compile_checked
from engine.expr.definitions import Definition, mapping
from engine.expr.parser import SyntaxProblem, parse, too_large_problem
from engine.expr.runtime import MAX_BITS, EvaluationError
from engine.expr.types import Type, describe

Source = str | int | bool


class Expression:
    """A checked, compiled expression.

    `evaluate(values)` computes it from a mapping of the context's names to values
    (records are any objects with the declared attributes; lists are sequences).
    """

    def __init__(self, source: Source, checked: Checked, function: Callable, python: str):
        self.source = source
        self.type: Type = checked.type
        self.ast: A.Node = checked.root
        #: context names and definitions the expression refers to (also through definitions)
        self.names_used: frozenset[str] = frozenset(checked.names_used)
        #: the generated Python, for the curious and for tests
        self.python = python
        # an instance attribute, so a call costs no extra Python frame
        self.evaluate = function
        self._checked = checked

    def filter(self, names) -> Callable | None:
        """A function `f(values, items)` of `(key, item)` pairs returning those for which
        the expression is true when each of `names` is the item (other names from
        `values`): what evaluating it once per item gives, in one call. Parts that do
        not depend on the item are computed once. None if it cannot be made."""
        from engine.expr.compiler import compile_filter

        return compile_filter(self._checked, frozenset(names))[0]

    def item_condition(self, names, others: Mapping[str, str] | None = None,
                       ) -> tuple[str, list[str]] | None:
        """The expression as a condition on one item `_p`, read by the names `names`,
        and the locals (to set to `_UNSET` first) of its parts shared by every item;
        for a caller looping over items in generated code. Other names are read from
        `v`, or, with `others`, as the caller's text for each (see `inline`). None if it
        cannot be made."""
        from engine.expr.compiler import generate_item_condition

        return generate_item_condition(self._checked, frozenset(names), others)

    def inline(self, names: Mapping[str, str] | None = None, keep: bool = False) -> str | None:
        """The expression as one Python expression over a context named `v` (built from
        checked nodes only), to be written into a larger generated function with the
        names of `engine.expr.runtime.NAMESPACE`; None if it cannot be written so.
        Failures inside it are Python exceptions of `runtime.FAILURES`, which
        `runtime.explain` turns into an EvaluationError. With `names` (context name ->
        the caller's own Python text for its value), names are read so instead of from
        `v`; None if the expression reads a name not in `names`. With `keep` (and
        `names`), a definition read more than once is kept in a local `_q<i>` of the
        caller's function (which must not be a class body) rather than refused."""
        from engine.expr.compiler import generate_inline

        return generate_inline(self._checked, names, keep)

    def loop(self, target: str, names: Mapping[str, str] | None = None) -> list[str] | None:
        """A `sum`, `any` or `all` of a comprehension (the whole expression) as lines of
        Python setting the local `target` to its value in a loop, for a caller writing
        it into a generated function (see `engine.expr.compiler.generate_loop`; `names`
        as for `inline`); None for any other expression."""
        from engine.expr.compiler import generate_loop

        return generate_loop(self._checked, target, names)

    def evaluate(self, values: Mapping[str, object]):  # noqa: F811 - replaced per instance
        """The value of the expression for these values of its names."""
        raise NotImplementedError

    @property
    def is_constant(self) -> bool:
        """Whether the expression folded to a literal (it uses no name)."""
        return isinstance(self.ast, (A.Int, A.Bool, A.Str))

    def __repr__(self) -> str:
        return f"Expression({A.to_source(self.ast)!r}, type={self.type})"


def _root(source: object) -> A.Node | SyntaxProblem:
    if type(source) is bool:
        return A.Bool(source)
    if type(source) is int:
        return A.Int(source)
    if isinstance(source, str):
        return parse(source)
    if isinstance(source, float):
        return SyntaxProblem(0, f"`{source}` is not an integer: arithmetic is on integers", code="E305")
    return SyntaxProblem(0, f"expected an expression, found {type(source).__name__}", code="E305")


def compile_expression(
    source: Source,
    env: Mapping[str, Type],
    pos: Position | Callable[[int], Position],
    expected: Type | None = None,
    definitions: Mapping[str, str | Definition] | None = None,
) -> tuple[Expression | None, list[Diagnostic]]:
    """Parse, check and compile `source` in a context; (None, errors) if it has errors.

    `env` maps the names that exist where the expression is used to their types. `pos`
    is where the text starts in its file, or a function from a character offset in the
    text to a file position (for quoted or block YAML scalars). `expected` is the type
    the place needs. `definitions` are named expressions usable as names.
    """
    if type(source) is int and source.bit_length() > MAX_BITS:  # str() of it may fail
        source = too_large_problem(0)
    text = "" if isinstance(source, SyntaxProblem) else str(source)
    where = mapping(text, pos)
    root = source if isinstance(source, SyntaxProblem) else _root(source)
    if isinstance(root, SyntaxProblem):
        return None, [Diagnostic(root.code, root.message, where(root.offset), root.help)]
    checker = Checker(env, definitions or {}, where)
    checked = checker.check_root(root, expected)
    diagnostics = [Diagnostic(p.code, p.message, p.where(p.offset), p.help) for p in checked.problems]
    if any(d.is_error for d in diagnostics) or checked.root is None:
        return None, diagnostics
    function, python = compile_checked(checked)
    return Expression(source, checked, function, python), diagnostics


__all__ = [
    "Definition", "EvaluationError", "Expression", "ast", "codes", "compile_expression",
    "describe", "types",
]
