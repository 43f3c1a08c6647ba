"""Named definitions: use, checking at the use site, cycles, names_used, memoising."""

import pytest

from expr_context import ENV, START, compile_ok, problems_of
from engine.diagnostics import Position
from engine.expr import Definition, compile_expression
from engine.expr import types as T

DEFS = {
    "hand_total": "sum(p.hand_value for p in opponents)",
    "bonus": Definition("hand_total + 25", Position("rules.yaml", 30, 10)),
    "hex_points": Definition("50 * move.hexagons", Position("rules.yaml", 31, 15)),
    "unused": "1",
    "forty": 40,
}


def test_definitions_are_usable_as_names(values):
    expr = compile_ok("bonus + forty", T.INT, DEFS)
    assert expr.evaluate(values) == 19 + 25 + 40
    assert expr.names_used == {"bonus", "hand_total", "forty", "opponents"}


def test_a_definition_is_checked_in_the_site_context():
    env = {k: v for k, v in ENV.items() if k != "move"}
    expr, problems = compile_expression("hex_points", env, START, None, DEFS)
    assert expr is None
    (problem,) = problems
    assert problem.code == "E302" and "in definition `hex_points`" in problem.message
    assert problem.pos == Position("rules.yaml", 31, 20)  # on `move`, in the definition's own text


def test_a_definition_without_a_position_reports_at_the_use_site():
    (problem,) = problems_of("1 + broken", definitions={"broken": "move.hexgons"})
    assert problem.code == "E303"
    assert problem.pos == Position("rules.yaml", 7, 17)


def test_a_definition_does_not_see_comprehension_variables():
    (problem,) = problems_of("sum(uses_p for p in opponents)", definitions={"uses_p": "p.score"})
    assert problem.code == "E302" and "`p`" in problem.message


def test_cycle():
    defs = {"base": Definition("bonus + 10", Position("r.yaml", 5, 9)),
            "bonus": Definition("base * 2", Position("r.yaml", 6, 10))}
    problems = problems_of("bonus", definitions=defs)
    assert [p.code for p in problems] == ["E310"]
    assert "bonus -> base -> bonus" in problems[0].message
    assert problems[0].pos == Position("r.yaml", 5, 9)
    assert problems_of("me", definitions={"me": "me + 1"})[0].code == "E310"


def test_syntax_error_inside_a_definition():
    (problem,) = problems_of("bad", definitions={"bad": Definition("1 +", Position("r.yaml", 9, 8))})
    assert problem.code == "E301" and problem.pos == Position("r.yaml", 9, 11)


def test_context_names_win_over_definitions(values):
    assert compile_ok("can_place", definitions={"can_place": "true"}).evaluate(values) is False


def test_definitions_are_computed_once_per_evaluation():
    # d9 reads move.value 3 ** 9 times if definitions were expanded; memoised, once.
    defs = {"d0": "move.value"}
    for i in range(1, 10):
        defs[f"d{i}"] = f"d{i - 1} + d{i - 1} - d{i - 1}"
    expr = compile_ok("d9", definitions=defs)

    class Move:
        reads = 0

        @property
        def value(self):
            Move.reads += 1
            return 7

    assert expr.evaluate({"move": Move()}) == 7
    assert Move.reads == 1


def test_long_definition_chains_are_refused():
    defs = {"d0": "1", **{f"d{i}": f"d{i - 1} + 1" for i in range(1, 30)}}
    problems = problems_of("d29", definitions=defs)
    assert {p.code for p in problems} == {"E307"}


@pytest.mark.parametrize("n", [8, 9])
def test_squaring_through_definitions_is_bounded(n, values):
    from engine.expr import EvaluationError

    defs = {"d0": "move.value", **{f"d{i}": f"d{i - 1} * d{i - 1}" for i in range(1, n + 1)}}
    expr = compile_ok(f"d{n}", definitions=defs)
    values["move"].value = 2**64
    with pytest.raises(EvaluationError, match="bits"):
        expr.evaluate(values)


def test_closure_backend_evaluates_definitions_alike(values):
    from engine.expr.checker import Checker
    from engine.expr.closures import compile_closures
    from engine.expr.definitions import mapping
    from engine.expr.parser import parse

    defs = {"a": "b + 1", "b": "move.value * 2"}  # a uses b, defined after it
    checked = Checker(ENV, defs, mapping("a + b", START)).check_root(parse("a + b"), None)
    assert compile_closures(checked)(values) == compile_ok("a + b", definitions=defs).evaluate(values) == 45
