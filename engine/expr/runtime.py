"""What compiled expressions call at run time: bounded arithmetic and small helpers.

Generated code and the closure backend both use these, so the bounds hold whichever
backend runs.
"""

from __future__ import annotations

#: the largest magnitude of a number built by `**` or kept by a definition, in bits
#: (about 300 decimal digits: far beyond any score, far below a slow computation)
MAX_BITS = 1024


class EvaluationError(Exception):
    """An expression failed at run time: division by zero, a power too large, ..."""


def power(base: int, exponent: int) -> int:
    """`base ** exponent`, refusing negative exponents and results over MAX_BITS."""
    if exponent < 0:
        raise EvaluationError(f"negative exponent {exponent}: integer arithmetic only")
    if abs(base) > 1 and (abs(base).bit_length() - 1) * exponent > MAX_BITS:
        raise EvaluationError(
            f"power too large: a {abs(base).bit_length()}-bit number to the power {exponent}"
            f" exceeds {MAX_BITS} bits")
    return base**exponent


def too_large(value) -> bool:
    """Whether `value` is an integer (or a list holding one) over MAX_BITS."""
    if type(value) is int:
        return value.bit_length() > MAX_BITS
    return isinstance(value, list) and any(too_large(item) for item in value)


def bounded(value):
    """`value` unchanged, unless it is an integer too large to keep computing with."""
    if type(value) is int and value.bit_length() > MAX_BITS:
        raise EvaluationError(f"a number over {MAX_BITS} bits was computed")
    return value


#: items that the inner `for` forms of one nest may go through in one evaluation: about
#: 40 ms; three nested `for` forms over 999 items (10**9 steps) took 19 s a move. Twice
#: the static limit (`calls.MAX_ITERATIONS`, on the innermost product only), so that what
#: lint lets through (3 nested over 100 players: 10**4 + 10**6 items) always runs
MAX_STEPS = 2_000_000
_steps = [0]  # items counted since the outermost `for` of the nest began


def start_steps(items):
    """The source of the outermost `for` of a nest: begin counting (`items` unchanged)."""
    _steps[0] = 0
    return items


def tick_steps(items):
    """The source of an inner `for`: count its items, and stop past MAX_STEPS."""
    if not hasattr(items, "__len__"):
        items = tuple(items)
    count = _steps[0] + len(items)
    if count > MAX_STEPS:
        raise EvaluationError(f"stopped after {MAX_STEPS:,} steps (E315): nested `for`"
                              " forms go through too many items")
    _steps[0] = count
    return items


def count_items(items) -> int:
    """How many items (works on generators)."""
    return sum(1 for _ in items)


def count_true(items) -> int:
    """How many items are true."""
    return sum(1 for item in items if item)


def sort_desc(items) -> list:
    """The items, largest first."""
    return sorted(items, reverse=True)


def explain(exc: Exception) -> EvaluationError:
    """Turn a Python failure inside an expression into an EvaluationError."""
    if isinstance(exc, EvaluationError):
        return exc
    if isinstance(exc, ZeroDivisionError):
        return EvaluationError("division by zero")
    if isinstance(exc, IndexError):
        return EvaluationError("list index out of range")
    if isinstance(exc, KeyError):
        return EvaluationError(f"no value given for name {exc}")
    if isinstance(exc, ValueError) and "empty" in str(exc):
        return EvaluationError("min/max of an empty list")
    if isinstance(exc, AttributeError) and "'NoneType'" in str(exc):
        field = str(exc).rsplit("'", 2)[-2]
        return EvaluationError(f"`.{field}` of none: the top of an empty zone was read"
                               " (guard it with `<zone>.count > 0`)")
    if isinstance(exc, RecursionError):
        return EvaluationError("expression too deeply nested to evaluate")
    return EvaluationError(f"{type(exc).__name__}: {exc}")


#: Python failures that evaluation turns into EvaluationError
FAILURES = (
    ArithmeticError, LookupError, ValueError, TypeError, AttributeError, RecursionError,
    MemoryError,
)

#: names generated code may use, and nothing else
NAMESPACE = {
    "_pow": power,
    "_bounded": bounded,
    "_start_steps": start_steps,
    "_tick_steps": tick_steps,
    "_count_items": count_items,
    "_count_true": count_true,
    "_sort_desc": sort_desc,
    "_explain": explain,
    "_FAILURES": FAILURES,
    "_sum": sum,
    "_min": min,
    "_max": max,
    "_len": len,
    "_abs": abs,
    "_any": any,
    "_all": all,
    "_sorted": sorted,
}
