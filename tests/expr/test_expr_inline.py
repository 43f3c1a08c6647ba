"""`Expression.inline(names)`: the expression as Python text reading each context name
as the caller's text for it (a local of a generated function), so that the caller need
not build a context; None when a name it reads has no text.

Expected values are worked out by hand from `conftest.make_values()`: me (score 390),
opponents 1 (120 points, hand 12) and 2 (405, hand 7); move.value 11, line sums 15, 9, 12.
"""

import pytest

from expr_context import compile_ok, make_values
from engine.expr import runtime
from engine.expr.compiler import UNSET

LOCALS = {name: f"x_{name}" for name in make_values()}


def run(text: str, names=LOCALS, definitions=None):
    """Evaluate the inlined text with the locals bound to the conftest values."""
    source = compile_ok(text, definitions=definitions).inline(names)
    assert source is not None
    scope = dict(runtime.NAMESPACE, _UNSET=UNSET)
    scope.update({f"x_{name}": value for name, value in make_values().items()})
    return eval(compile(source, "<test>", "eval"), scope), source  # our generated text


@pytest.mark.parametrize("text, expected", [
    ("player.score + move.value", 401),
    ("sum(p.hand_value for p in opponents)", 19),
    ("count(l for l in move.lines if l.sum == 15) * 30", 30),
    ("if can_place then 1 else max(p.score for p in players)", 405),
])
def test_the_same_value_as_evaluate(text, expected):
    value, source = run(text)
    assert value == expected == compile_ok(text).evaluate(make_values())
    assert "v[" not in source  # no context read at all


def test_definitions_are_written_through_the_names():
    value, source = run("double + 1", definitions={"double": "2 * move.value"})
    assert value == 23 and "x_move" in source


def test_a_name_without_text_cannot_be_inlined():
    names = {k: v for k, v in LOCALS.items() if k != "opponents"}
    expression = compile_ok("player.score + sum(p.score for p in opponents)")
    assert expression.inline(names) is None
    assert expression.inline() is not None  # over `v`, it still can


def test_without_names_it_reads_the_context():
    assert "v['player']" in compile_ok("player.score").inline()


def run_loop(text: str):
    """The value `Expression.loop` sets its target to, run in a function of its own."""
    lines = compile_ok(text).loop("t", LOCALS)
    assert lines is not None
    source = "def f():\n" + "".join(f"    {line}\n" for line in lines) + "    return t\n"
    scope = dict(runtime.NAMESPACE, _UNSET=UNSET)
    scope.update({f"x_{name}": value for name, value in make_values().items()})
    exec(compile(source, "<test>", "exec"), scope)  # our generated text
    return scope["f"]()


@pytest.mark.parametrize("text, expected", [
    ("sum(l.sum for l in move.lines)", 36),  # 15 + 9 + 12
    ("sum(l.sum * 2 for l in move.lines if l.new)", 30),  # the first line only
    ("sum(l.sum for l in move.lines if l.length > 3)", 0),  # none: 0
    ("any(l.length == 2 for l in move.lines)", True),
    ("any(l.sum > 20 for l in move.lines)", False),
    ("any(l.length == 3 for l in move.lines if not l.new)", True),  # the third line
    ("all(l.length == 3 for l in move.lines if l.sum > 10)", True),
    ("all(l.length == 3 for l in move.lines)", False),  # the second line
])
def test_a_loop_has_the_value_evaluate_gives(text, expected):
    value = run_loop(text)
    assert value == expected == compile_ok(text).evaluate(make_values())
    assert type(value) is type(expected)


@pytest.mark.parametrize("text, expected", [
    # the first line's 10 // (15 - 9) is 1: decided there, before the second divides by 0
    ("any(10 // (l.sum - 9) > 0 for l in move.lines)", True),
    ("all(10 // (l.sum - 9) > 5 for l in move.lines)", False),
])
def test_any_and_all_stop_at_the_item_that_decides(text, expected):
    assert run_loop(text) == expected


def test_a_sum_reaching_a_failing_item_fails_there():
    with pytest.raises(ZeroDivisionError):
        run_loop("sum(10 // (l.sum - 9) for l in move.lines)")


@pytest.mark.parametrize("text", ["player.score + 1", "max(p.score for p in players)",
                                  "sum(p.score for p in players) + 1"])
def test_only_a_whole_sum_any_or_all_of_a_comprehension_is_a_loop(text):
    assert compile_ok(text).loop("t", LOCALS) is None


def test_a_definition_read_twice_is_kept_only_when_asked_for():
    # `gain` = move.value * 2 = 22 (make_values: move.value 11); read twice, it would need
    # a memo: refused unless the caller keeps it (`keep`), then worked out once, lazily
    # (the branch not taken never reads it: the 1 // 0 is never divided)
    definitions = {"gain": "move.value * 2", "broken": "1 // (move.value - 11)"}
    text = "if gain > 20 then gain + 1 else broken + broken"
    expression = compile_ok(text, definitions=definitions)
    assert expression.inline(LOCALS) is None
    source = expression.inline(LOCALS, keep=True)
    scope = dict(runtime.NAMESPACE, _UNSET=UNSET)
    scope.update({f"x_{name}": value for name, value in make_values().items()})
    body = f"def f():\n    return {source}\n"
    exec(compile(body, "<test>", "exec"), scope)  # our generated text
    assert scope["f"]() == 23 == expression.evaluate(make_values())
