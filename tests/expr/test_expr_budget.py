"""issue 16 item 7: the cost of nested `for` forms is bounded: statically (E315) where the
sizes are known, and at run time by a step budget, in generated code and closures alike."""

from __future__ import annotations

from types import SimpleNamespace as Obj

import pytest

from expr_context import ENV, START
from engine.expr import EvaluationError, compile_expression
from engine.expr.closures import compile_closures
from engine.expr.runtime import MAX_STEPS

ZL = "[" + ",".join(["0"] * 999) + "]"
NESTED = "sum(sum(sum(1 for a in move.lines) for b in move.lines) for c in move.lines)"


def _both(text: str):
    expr, problems = compile_expression(text, ENV, START)
    assert expr is not None, problems
    return expr.evaluate, compile_closures(expr._checked)


def test_a_known_999_item_list_three_deep_is_e315():
    # the reproducer: 999 ** 3 = 997,002,999 steps, 19 s per evaluation
    expr, problems = compile_expression("sum(sum(sum(1 for a in zl) for b in zl) for c in zl)",
                                        ENV, START, definitions={"zl": ZL})
    assert expr is None and [p.code for p in problems] == ["E315"]
    assert "997,002,999 items" in problems[0].message


def test_two_deep_over_999_is_allowed():
    # 999 * 999 = 998,001 items, under 1,000,000
    expr, problems = compile_expression("sum(sum(1 for a in zl) for b in zl)", ENV, START,
                                        definitions={"zl": ZL})
    assert not problems and expr.evaluate({}) == 998_001


@pytest.mark.parametrize("backend", ["generated", "closures"])
def test_the_run_time_budget_stops_a_long_nest(backend):
    generated, closures = _both(NESTED)
    evaluate = generated if backend == "generated" else closures
    with pytest.raises(EvaluationError, match="E315"):
        evaluate({"move": Obj(lines=list(range(999)))})  # 999 ** 3 items


@pytest.mark.parametrize("backend", ["generated", "closures"])
def test_the_budget_allows_what_fits(backend):
    generated, closures = _both(NESTED)
    evaluate = generated if backend == "generated" else closures
    # 100 players' worth: 100 ** 2 + 100 ** 3 = 1,010,000 items counted, under 2,000,000;
    # the count restarts with each evaluation
    for _ in range(2):
        assert evaluate({"move": Obj(lines=list(range(100)))}) == 1_000_000


def test_a_single_for_is_not_counted():
    expr, _ = compile_expression("sum(l.sum for l in move.lines)", ENV, START)
    assert "_steps" not in expr.python
    lines = [Obj(sum=1)] * (MAX_STEPS + 5)  # longer than the budget: one `for` is cheap
    assert expr.evaluate({"move": Obj(lines=lines)}) == MAX_STEPS + 5


@pytest.mark.parametrize("args", [["simulate", "--games", "1"], ["lint", "--simulate", "1"]],
                         ids=["simulate", "lint-simulate"])
def test_the_reproducer_is_refused_at_once(args):
    # both ran past 60 s
    from pathlib import Path

    from typer.testing import CliRunner

    from engine.cli import app

    fixture = Path(__file__).parents[1] / "fixtures" / "diagnostics" / "E315-too-costly.yaml"
    result = CliRunner().invoke(app, [args[0], str(fixture), *args[1:]])
    assert result.exit_code == 1 and "E315" in result.output, result.output
