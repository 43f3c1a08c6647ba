"""`Expression.inline(names)`: the expression as Python text reading each context name
as the caller's text for it (a local of a generated function), so that the caller need
not build a context; None when a name it reads has no text.

Expected values are worked out by hand from `conftest.make_values()`: me (score 390),
opponents 1 (120 points, hand 12) and 2 (405, hand 7); move.value 11, line sums 15, 9, 12.
"""

import pytest

from conftest import compile_ok, make_values
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
