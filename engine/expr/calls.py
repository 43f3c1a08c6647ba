"""Static rules for library calls and their `for` forms (part of the checker)."""

from __future__ import annotations

from engine.diagnostics import closest
from engine.expr import ast as A
from engine.expr import codes
from engine.expr.library import FUNCTIONS
from engine.expr.types import BOOL, ERROR, ListOf, describe

MAX_COMPREHENSION_NESTING = 3  # bounds run time at n**3 for lists of n items


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


def _arity(function) -> str:
    if function.max_args is None:
        return f"at least {function.min_args} argument{'s' * (function.min_args != 1)}"
    if function.min_args == function.max_args:
        return f"{function.min_args} argument{'s' * (function.min_args != 1)}"
    return f"{function.min_args} to {function.max_args} arguments"


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
    new = A.Comprehension(element, node.var, source, condition,
                          offset=node.offset, line=node.line, col=node.col)
    checker.out.refs[id(new)] = ("local", slot)
    if function is not None and (not function.takes_list or arg_count != 1):
        return new, checker.report(
            codes.MISPLACED_COMPREHENSION, node.offset,
            f"a `for` form must be the only argument of a function that takes a list; `{function.name}` does not take one"
            if not function.takes_list else "a `for` form must be the only argument")
    return checker.typed(new, ListOf(et if et != ERROR else ERROR))
