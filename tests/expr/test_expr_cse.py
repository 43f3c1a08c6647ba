"""Common-subexpression reuse in generated code: a repeated subexpression is computed
once when its first copy surely runs first, and sharing never changes a result.

Expected values are worked out by hand from `conftest.make_values()`: move.value 11,
move.bridges 1, move.opening false, line sums 15, 9, 12 and lengths 3, 2, 3, the
player's score 390 and hand_count 0.
"""

from types import SimpleNamespace as Obj

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from expr_context import ENV, START, compile_ok, make_values
from engine.expr import EvaluationError
from engine.expr.checker import Checker
from engine.expr.closures import compile_closures
from engine.expr.definitions import mapping
from engine.expr.parser import parse
from test_expr_fuzz import _bools, _ints


def outcome(function, values):
    try:
        return ("value", function(values))
    except EvaluationError as exc:
        return ("error", str(exc))


def closures_of(text, definitions=None):
    checker = Checker(ENV, definitions or {}, mapping(text, START))
    return compile_closures(checker.check_root(parse(text), None))


# -- shared when the first copy surely runs first --------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("(move.value * 3) + (move.value * 3)", 66),
    ("move.value * 2 > 20 and move.value * 2 < 30", True),         # 22
    ("if move.value * 2 > 20 then move.value * 2 else 0", 22),     # test runs first
    ("(move.value * 2 > 99 or move.value * 2 == 22) and true", True),
    ("min(move.value * 2, 30) + max(move.value * 2, 5)", 44),      # 22 + 22
])
def test_repeated_subexpression_is_computed_once(text, expected):
    expr = compile_ok(text)
    assert expr.evaluate(make_values()) == expected
    assert ":=" in expr.python
    assert expr.python.count("v['move'].value") == 1, expr.python


def test_shared_value_is_read_from_the_same_evaluation(values):
    # two evaluations with different values: the kept copy belongs to each evaluation
    expr = compile_ok("move.value * 2 + move.value * 2")
    assert expr.evaluate(values) == 44
    values["move"].value = 5
    assert expr.evaluate(values) == 20


# -- not shared when the later copy may run without the first --------------------------

@pytest.mark.parametrize("text, expected", [
    # `and` skips its right side: the later copy on the `or` side still runs (22 > 20)
    ("(move.opening and move.value * 2 > 30) or move.value * 2 > 20", True),
    # `or` skips its right side when the left is true
    ("(move.bridges == 1 or move.value * 2 > 30) and move.value * 2 == 22", True),
    # `then` and `else` exclude each other: 11 * 2 + 1
    ("if move.opening then move.value * 2 else move.value * 2 + 1", 23),
    # the first copy is in a branch not taken: 0 + 22
    ("(if move.opening then move.value * 2 else 0) + move.value * 2", 22),
    # the first copy is in the test of a nested if: always runs
    ("(if move.value * 2 > 20 then true else false) and move.value * 2 == 22", True),
    # 11 % 3 = 2: line sum 12, twice is 24; the guarded index 11 is never read
    ("move.value < 3 and move.lines[move.value].sum > 0"
     " or move.lines[move.value % 3].sum + move.lines[move.value % 3].sum == 24", True),
])
def test_conditional_first_copy_does_not_feed_later_copy(text, expected):
    expr = compile_ok(text)
    assert expr.evaluate(make_values()) == expected
    assert outcome(closures_of(text), make_values()) == ("value", expected)


def test_guarded_failing_copies_do_not_fail(values):
    # hand_count 0 guards both divisions
    text = "player.hand_count == 0 or (100 // player.hand_count) + (100 // player.hand_count) > 3"
    expr = compile_ok(text)
    assert expr.evaluate(values) is True
    values["player"] = values["opponents"][0]  # hand_count 4: 25 + 25 = 50
    assert expr.evaluate(values) is True
    values["player"] = Obj(index=5, score=0, hand_count=60, hand_value=0, won_last_round=False)
    assert expr.evaluate(values) is False  # 1 + 1


def test_guard_on_both_sides_of_and(values):
    # bridges is 1: each `or` stops at its left side, no division by zero
    text = ("(move.bridges == 1 or 100 // (move.bridges - 1) > 0)"
            " and (move.bridges == 1 or 100 // (move.bridges - 1) > 1)")
    assert compile_ok(text).evaluate(values) is True
    values["move"].bridges = 2  # 100 // 1 = 100
    assert compile_ok(text).evaluate(values) is True


def test_later_copy_that_fails_still_fails(values):
    # the guarded first division is skipped (hand_count 0); the unguarded second fails
    text = "player.hand_count != 0 and 100 // player.hand_count > 1 or 100 // player.hand_count > 1"
    expr = compile_ok(text)
    with pytest.raises(EvaluationError, match="division by zero"):
        expr.evaluate(values)


def test_unguarded_failing_repeat_fails(values):
    expr = compile_ok("100 // (move.bridges - 1) + 100 // (move.bridges - 1)")
    with pytest.raises(EvaluationError, match="division by zero"):
        expr.evaluate(values)
    with pytest.raises(EvaluationError, match="list index out of range"):
        compile_ok("move.lines[move.value].sum + move.lines[move.value].sum").evaluate(values)


# -- comprehensions ---------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    # (15 + 9 + 12) * 2 = 72, twice
    ("sum(l.sum * 2 for l in move.lines) + sum(l.sum * 2 for l in move.lines)", 144),
    ("max(l.sum for l in move.lines) - min(l.sum for l in move.lines)", 6),
    # one new line; two of length 3
    ("count(l.new for l in move.lines) + count(l.length == 3 for l in move.lines)", 3),
    # (22 + 15) + (22 + 9) + (22 + 12), then + 22
    ("sum(move.value * 2 + l.sum for l in move.lines) + move.value * 2", 124),
    ("move.value * 2 + sum(move.value * 2 + l.sum for l in move.lines)", 124),
    # lengths 3, 2, 3: the condition guards 10 // 0 on the middle line: 10 + 10, twice
    ("sum(10 // (l.length - 2) for l in move.lines if l.length != 2)"
     " + sum(10 // (l.length - 2) for l in move.lines if l.length != 2)", 40),
    # an empty selection: the guarded max never runs
    ("count(l.sum > 99 for l in move.lines) > 0 and max(l.sum for l in move.lines if l.sum > 99) > 0",
     False),
    # each line's own value, not the first line's: 15 > 10, 9 < 10, 12 > 10
    ("count(l.sum > 10 and l.sum > 10 for l in move.lines)", 2),
])
def test_comprehensions(text, expected):
    expr = compile_ok(text)
    assert expr.evaluate(make_values()) == expected
    assert outcome(closures_of(text), make_values()) == ("value", expected)


def test_repeated_definition_use(values):
    # d = 12, memoised: 24 + 24
    defs = {"d": "move.value + 1"}
    expr = compile_ok("d * 2 + d * 2", definitions=defs)
    assert expr.evaluate(values) == 48


# -- property: sharing never changes a result --------------------------------------------

# few leaves, so random trees repeat them; some fail (11 // 0, index 11 of 3 lines)
CSE_INT = ["move.value * 2", "move.value", "player.hand_count", "move.bridges - 1",
           "100 // (move.bridges - 1)", "100 // player.hand_count", "move.lines[move.value].sum",
           "move.lines[move.bridges].sum", "1"]
CSE_BOOL = ["move.opening", "player.hand_count == 0", "move.bridges == 1", "can_place",
            "move.value * 2 > 20", "100 // player.hand_count > 3"]


def _repeat(ints, bools):
    """Shapes that copy one subexpression into places run under different guards."""
    pair = st.tuples(bools, ints, ints)
    return st.one_of(
        pair.map(lambda t: f"({t[0]} and {t[1]} > 0) or {t[1]} > 0"),
        pair.map(lambda t: f"({t[0]} or {t[1]} > 0) and {t[1]} > 0"),
        pair.map(lambda t: f"(if {t[0]} then {t[1]} > 0 else {t[2]} > 0) == ({t[1]} > 0)"),
        pair.map(lambda t: f"(if {t[0]} then {t[1]} else {t[2]}) + {t[1]} + {t[2]} > 0"),
        pair.map(lambda t: f"{t[0]} and ({t[1]} > 0 or {t[1]} < {t[2]}) and {t[0]}"),
        pair.map(lambda t: f"count({t[0]} and {t[1]} > l.sum for l in move.lines) + {t[1]} > 0"),
        pair.map(lambda t: f"any({t[1]} > l.sum for l in move.lines if {t[0]}) or {t[1]} == {t[2]}"),
    )


CSE_INT = [f"({leaf})" for leaf in CSE_INT]  # so a leaf nests anywhere
CSE_BOOL = [f"({leaf})" for leaf in CSE_BOOL]

C_INTS = st.deferred(lambda: st.one_of(st.sampled_from(CSE_INT), st.sampled_from(CSE_INT),
                                       _ints(C_INTS, C_BOOLS).map(str)))
C_BOOLS = st.deferred(lambda: st.one_of(st.sampled_from(CSE_BOOL), st.sampled_from(CSE_BOOL),
                                        _bools(C_INTS, C_BOOLS).map(str),
                                        _repeat(C_INTS, C_BOOLS).map(lambda s: f"({s})")))


def _variants():
    """Values that flip the guards: no division by zero, and an index that exists."""
    plain = make_values()
    other = make_values()
    other["move"].bridges, other["move"].opening, other["move"].value = 2, True, 1
    other["player"] = other["opponents"][0]
    other["can_place"] = True
    return [plain, other]


@settings(max_examples=150, deadline=None)
@given(C_BOOLS)
def test_sharing_agrees_with_closures(text):
    from engine.expr import compile_expression

    expr, problems = compile_expression(text, ENV, START)
    if expr is None:  # only a constant failure may stop a well-typed expression
        assert {p.code for p in problems} <= {"E306", "E313", "E307"}, problems
        return
    closures = closures_of(text)
    for values in _variants():
        assert outcome(expr.evaluate, values) == outcome(closures, values), expr.python
