"""`Expression.filter(names)`: one call keeps the `(key, item)` pairs for which the
expression is true with `names` bound to the item; the same items, in the same order,
and the same first error as evaluating it once per item.

Expected values are worked out by hand from `conftest.make_values()`: players are me
(index 0, score 390, hand_count 0, hand_value 0, won), then 1 (120, 4, 12) and 2 (405,
2, 7); move.value 11, move.bridges 1, line sums 15, 9, 12.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from expr_context import ENV, PLAYER, START, compile_ok, make_values
from engine.expr import EvaluationError, compile_expression
from engine.expr.checker import Checker
from engine.expr.closures import compile_closures
from engine.expr.definitions import mapping
from engine.expr.parser import parse
from test_expr_fuzz import _bools, _ints

PENV = dict(ENV, p=PLAYER)


def keep(text, values, items, names=("p",), definitions=None):
    """The pairs the filter keeps (or the error it raises)."""
    function = compile_ok(text, definitions=definitions, env=PENV).filter(names)
    assert function is not None
    try:
        return ("value", function(values, items))
    except EvaluationError as exc:
        return ("error", str(exc))


def one_by_one(evaluate, values, items, names=("p",)):
    """Evaluating the expression once per item, stopping at the first error."""
    kept = []
    for key, item in items:
        try:
            if evaluate({**values, **{name: item for name in names}}):
                kept.append((key, item))
        except EvaluationError as exc:
            return ("error", str(exc))
    return ("value", kept)


def pairs(values, *indexes):
    return [(i, values["players"][i]) for i in indexes]


@pytest.mark.parametrize("text, kept", [
    ("p.score > 200", [0, 2]),
    ("p.score > move.value * 30", [0, 2]),                     # 330
    ("p.hand_count > 0 and 100 // p.hand_count > 30", [2]),      # 25, 50
    ("count(l.sum > p.hand_value for l in move.lines) == 1", [1]),  # 3, 1, 3
    # the inner `p` is the comprehension's: 405 > 400, so every index above 0
    ("any(p.score > 400 for p in players) and p.index > 0", [1, 2]),
    ("not p.won_last_round and p.score < player.score", [1]),
    ("true", [0, 1, 2]),
    ("move.opening", []),
])
def test_kept_items(text, kept):
    values = make_values()
    items = pairs(values, 0, 1, 2)
    expected = ("value", pairs(values, *kept))
    assert keep(text, values, items) == expected
    assert one_by_one(compile_ok(text, env=PENV).evaluate, values, items) == expected


def test_order_and_keys_follow_the_items():
    values = make_values()
    me, one, two = values["players"]
    items = iter([("c", two), ("a", me), ("b", one), ("d", two)])  # any iterable
    assert keep("p.score > 200", values, items) == ("value", [("c", two), ("a", me), ("d", two)])
    assert keep("p.score > 200", values, []) == ("value", [])


@pytest.mark.parametrize("text, order, expected", [
    # me has no cards: 100 // 0, after 1 and 2 were kept
    ("100 // p.hand_count > 10", [1, 2, 0], ("error", "division by zero")),
    ("100 // p.hand_count > 10", [1, 2], ("value", [1, 2])),
    # index + 1: lines 1, 2 exist, line 3 does not
    ("move.lines[p.index + 1].new", [0, 1, 2], ("error", "list index out of range")),
    ("move.lines[p.index + 1].new", [0, 1], ("value", [])),
    # the part without `p` fails (11 // 0) only where it is reached: for the winner
    ("p.won_last_round and move.value // (move.bridges - 1) > 0", [1, 2], ("value", [])),
    ("p.won_last_round and move.value // (move.bridges - 1) > 0", [1, 0, 2],
     ("error", "division by zero")),
    ("p.index == 2 or move.lines[move.value].sum > 0", [2, 0], ("error", "list index out of range")),
    # the first error wins: index 1 fails on the line index before me divides by zero
    ("move.lines[p.index + 1].sum > 100 // p.hand_count", [2, 0],
     ("error", "list index out of range")),
])
def test_first_error(text, order, expected):
    values = make_values()
    items = pairs(values, *order)
    if expected[0] == "value":
        expected = ("value", pairs(values, *expected[1]))
    assert keep(text, values, items) == expected
    assert one_by_one(compile_ok(text, env=PENV).evaluate, values, items) == expected


def test_invariant_part_is_hoisted_and_recomputed_per_call():
    expr = compile_ok("p.score > move.value * 30", env=PENV)
    function = expr.filter(["p"])
    values = make_values()
    assert function(values, pairs(values, 0, 1, 2)) == pairs(values, 0, 2)  # over 330
    values["move"].value = 20  # over 600: nobody; nothing kept from the last call
    assert function(values, pairs(values, 0, 1, 2)) == []
    values["move"].value = 4  # over 120: 390 and 405 (120 is not over)
    assert function(values, pairs(values, 0, 1, 2)) == pairs(values, 0, 2)


def test_repeated_parts_with_the_item():
    # (11 + score) twice: 401, 131, 416 within 130..410
    text = "(move.value + p.score) > 130 and (move.value + p.score) < 410"
    values = make_values()
    assert keep(text, values, pairs(values, 0, 1, 2)) == ("value", pairs(values, 0, 1))


def test_several_names_read_the_same_item():
    values = make_values()
    text = "p.index == player.index and player.score > 200"
    assert keep(text, values, pairs(values, 0, 1, 2), names=("p", "player")) == (
        "value", pairs(values, 0, 2))


def test_definitions():
    values = make_values()
    # used once: written in place; 11 * 20 = 220
    assert keep("p.score > limit", values, pairs(values, 0, 1, 2),
                definitions={"limit": "move.value * 20"}) == ("value", pairs(values, 0, 2))
    assert keep("rich and p.index > 0", values, pairs(values, 0, 1, 2),
                definitions={"rich": "p.score > 300"}) == ("value", pairs(values, 2))


def test_no_filter_for_a_memoised_definition():
    # used twice, so memoised per evaluation: a filter would need a memo per item
    expr = compile_ok("p.score > limit and limit > 0", env=PENV,
                      definitions={"limit": "move.value * 20"})
    assert expr.filter(["p"]) is None


# -- property: the filter equals one evaluation per item, and the closure backend -------

P_INT = ["p.score", "p.hand_count", "p.hand_value", "p.index", "100 // p.hand_count",
         "move.lines[p.index + 1].sum", "move.value // (move.bridges - 1)", "move.value",
         "move.value * 2", "player.score", "1"]
P_BOOL = ["p.won_last_round", "p.hand_count == 0", "p.score > 200", "move.opening",
          "can_place", "move.bridges == 1", "any(l.sum > p.hand_value for l in move.lines)"]
P_INT = [f"({leaf})" for leaf in P_INT]
P_BOOL = [f"({leaf})" for leaf in P_BOOL]

F_INTS = st.deferred(lambda: st.one_of(st.sampled_from(P_INT), st.sampled_from(P_INT),
                                       _ints(F_INTS, F_BOOLS).map(str)))
F_BOOLS = st.deferred(lambda: st.one_of(st.sampled_from(P_BOOL), st.sampled_from(P_BOOL),
                                        _bools(F_INTS, F_BOOLS).map(str)))


@settings(max_examples=200, deadline=None)
@given(F_BOOLS, st.lists(st.integers(0, 2), max_size=5), st.booleans())
def test_filter_agrees_with_one_evaluation_per_item(text, order, flip):
    expr, problems = compile_expression(text, PENV, START)
    if expr is None:
        assert {p.code for p in problems} <= {"E306", "E313", "E307"}, problems
        return
    values = make_values()
    if flip:  # other guards: no failing division outside the item, line 1 for bridges
        values["move"].bridges, values["move"].opening, values["can_place"] = 2, True, True
    items = pairs(values, *order)
    function = expr.filter(["p"])
    expected = one_by_one(expr.evaluate, values, items)
    try:
        got = ("value", function(values, items))
    except EvaluationError as exc:
        got = ("error", str(exc))
    assert got == expected, text
    closures = compile_closures(Checker(PENV, {}, mapping(text, START)).check_root(parse(text), None))
    assert one_by_one(closures, values, items) == expected, text
