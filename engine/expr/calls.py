"""Static rules for library calls and their `for` forms (part of the checker)."""

from __future__ import annotations

from engine.diagnostics import closest
from engine.expr import ast as A
from engine.expr import codes
from engine.expr.library import FUNCTIONS
from engine.expr.types import BOOL, ERROR, ListOf, describe

MAX_COMPREHENSION_NESTING = 3  # bounds run time at n**3 for lists of n items
#: items gone through by nested `for` forms over lists of known size (a constant list, a
#: definition that is one): more is E315 at lint time; at run time the step budget
#: (`runtime.MAX_STEPS`) stops what cannot be known here
MAX_ITERATIONS = 1_000_000


def check_call(checker, node: A.Call):
    """Check a call: the function exists, the argument count, the argument types."""
    function = FUNCTIONS.get(node.func)
    args, types = [], []
    for arg in node.args:
        if isinstance(arg, A.Comprehension):
            checked, t = check_comprehension(checker, arg, function, len(node.args))
        else:
            checked, t = checker.check(arg)
        args.append(checked)
        types.append(t)
    new = A.Call(node.func, tuple(args), offset=node.offset, line=node.line, col=node.col)
    if function is None:
        suggestion = closest(node.func, FUNCTIONS)
        return new, checker.report(
            codes.UNKNOWN_FUNCTION, node.offset, f"unknown function `{node.func}`",
            f"did you mean `{suggestion}`?" if suggestion
            else "functions: " + ", ".join(f"`{name}`" for name in FUNCTIONS))
    count = len(args)
    if count < function.min_args or (function.max_args is not None and count > function.max_args):
        return new, checker.report(codes.WRONG_ARGUMENT_COUNT, node.offset,
                                   f"`{node.func}` takes {_arity(function)}, given {count}",
                                   f"signature: {function.signature}")
    if ERROR in types:
        return new, ERROR
    result = function.typing(types)
    if isinstance(result, str):
        return new, checker.report(codes.TYPE_MISMATCH, args[0].offset, f"`{node.func}` {result}",
                                   f"signature: {function.signature}")
    return checker.fold(new, result)


def known_size(checker, source: A.Node) -> int | None:
    """How many items a checked `for` source has, when it is known before run time."""
    if isinstance(source, A.Name) and checker.out.refs.get(id(source), ("",))[0] == "def":
        source = checker.out.definitions.get(source.name, source)
    return len(source.items) if isinstance(source, A.ListExpr) else None


def _bound_iterations(checker, node: A.Comprehension, source: A.Node) -> None:
    size = known_size(checker, source)
    if size is None:
        return
    checker.iterations *= size
    if checker.iterations > MAX_ITERATIONS:
        checker.report(codes.TOO_COSTLY, node.offset,
                       f"these nested `for` forms go through {checker.iterations:,} items;"
                       f" the limit is {MAX_ITERATIONS:,}",
                       "go through fewer or shorter lists, or compute a part once in a definition")
        checker.iterations = 1  # reported once, not again at each level inside


def _arity(function) -> str:
    if function.max_args is None:
        return f"at least {function.min_args} argument{'s' * (function.min_args != 1)}"
    if function.min_args == function.max_args:
        return f"{function.min_args} argument{'s' * (function.min_args != 1)}"
    return f"{function.min_args} to {function.max_args} arguments"


def _mark_budget(checker, new, depth: int, inner_before: int) -> None:
    """The run-time step budget: inner `for` forms count their items, the outermost one
    (only when it has inner ones: a single `for` costs nothing extra) starts the count."""
    if depth > 0:
        checker.out.loops[id(new)] = "tick"
        checker.inner_loops += 1
    elif checker.inner_loops > inner_before:
        checker.out.loops[id(new)] = "start"


def check_comprehension(checker, node: A.Comprehension, function, arg_count: int):
    """`E for x in L if C` as a function's only argument: a list of E's type."""
    source, st = checker.check(node.source)
    if st != ERROR and not isinstance(st, ListOf):
        checker.report(codes.TYPE_MISMATCH, source.offset,
                       f"`for` goes through a list; this is {describe(st)}")
    item = st.item if isinstance(st, ListOf) else ERROR
    if checker.nesting >= MAX_COMPREHENSION_NESTING:
        checker.report(codes.TOO_COMPLEX, node.offset,
                       f"`for` forms nested more than {MAX_COMPREHENSION_NESTING} deep")
    outer_iterations, depth, inner_before = checker.iterations, checker.nesting, checker.inner_loops
    _bound_iterations(checker, node, source)
    slot = f"_l{checker.slots}"
    checker.slots += 1
    checker.scopes.append((node.var, slot, item))
    checker.nesting += 1
    try:
        condition = None
        if node.condition is not None:
            condition, ct = checker.check(node.condition)
            checker.want(condition, ct, BOOL, "the condition after `if`")
        element, et = checker.check(node.element)
    finally:
        checker.nesting -= 1
        checker.scopes.pop()
        checker.iterations = outer_iterations
    new = A.Comprehension(element, node.var, source, condition,
                          offset=node.offset, line=node.line, col=node.col)
    checker.out.refs[id(new)] = ("local", slot)
    _mark_budget(checker, new, depth, inner_before)
    if function is not None and (not function.takes_list or arg_count != 1):
        return new, checker.report(
            codes.MISPLACED_COMPREHENSION, node.offset,
            f"a `for` form must be the only argument of a function that takes a list; `{function.name}` does not take one"
            if not function.takes_list else "a `for` form must be the only argument")
    return checker.typed(new, ListOf(et if et != ERROR else ERROR))
