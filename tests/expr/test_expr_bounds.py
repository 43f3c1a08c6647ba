"""issue 16 item 1: integers over 1024 bits (Python refuses to print one of over 4,300
digits) are an E314 lint error with a position, never a ValueError."""

from __future__ import annotations

import pytest

from expr_context import ENV, START
from engine.diagnostics import Position
from engine.expr import compile_expression

TWENTY = "*".join(["(9**256)"] * 20)  # 9**256 has 812 bits: allowed alone, not twice


@pytest.mark.parametrize("text, col", [
    (TWENTY, 1),  # the first product over 1024 bits, (9**256)*(9**256), at its first `9`
    ("9" * 1990, 0),                 # a literal of 1,990 digits (the text limit is 2,000)
    ("move.value + " + "9" * 400, 13),  # 400 digits: over 1024 bits
    ("[1, 2 ** 256 * 2 ** 256 * 2 ** 256 * 2 ** 256 * 2 ** 256]", 4),
], ids=["folded-product", "1990-digits", "400-digits", "in-a-list"])
def test_too_large_is_e314_at_its_place(text, col):
    expr, problems = compile_expression(text, ENV, START)
    assert expr is None
    (problem,) = [p for p in problems if p.is_error]
    assert problem.code == "E314"
    assert problem.pos == Position(START.path, START.line, START.col + col)


def test_an_integer_source_too_large():
    expr, problems = compile_expression(10**5000, ENV, START)
    assert expr is None and [p.code for p in problems] == ["E314"]


def test_large_but_allowed_values_still_fold():
    # 2**250 * 2**250 * 2**250 * 2**250 * 16 = 2**1004: 1005 bits, under 1024
    expr, problems = compile_expression("2 ** 250 * 2 ** 250 * 2 ** 250 * 2 ** 250 * 16", ENV, START)
    assert not problems and expr.evaluate({}) == 2**1004
    expr, _ = compile_expression("9" * 300, ENV, START)  # 300 digits: 997 bits
    assert expr.evaluate({}) == int("9" * 300)


def test_a_ruleset_number_of_5000_digits_is_y114(tmp_path):
    from engine.rules.lint import lint_paths

    path = tmp_path / "house.yaml"
    path.write_text("extends: triominos/pressman\nruleset: {game: triominos, title: H}\n"
                    "scoring:\n  hexagon: {points: " + "9" * 5000 + "}\n", encoding="utf-8")
    (problem,) = lint_paths([path])
    assert problem.code == "Y114" and (problem.pos.line, problem.pos.col) == (4, 21)


def test_twenty_factors_in_points_fail_lint_and_simulate(tmp_path):
    from typer.testing import CliRunner

    from engine.cli import app

    path = tmp_path / "house.yaml"
    path.write_text("extends: triominos/pressman\nruleset: {game: triominos, title: H}\n"
                    f"scoring:\n  hexagon: {{points: \"{TWENTY}\"}}\n", encoding="utf-8")
    for args in (["lint", str(path)], ["simulate", str(path), "--games", "1"]):
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 1, result.output
        assert "E314" in result.output and "internal error" not in result.output


def test_a_typed_number_of_5000_digits_is_not_a_move_number():
    from engine.cli.play import resolve
    from engine.analysis.runs import Spec, compile_spec
    from engine.kernel.moves import IllegalMove

    state = compile_spec(Spec("tripeaks", ())).new_game(1, 1)
    with pytest.raises(IllegalMove):
        resolve(state, "9" * 5000)


@pytest.mark.parametrize("backend", ["generated", "closures"])
def test_a_product_of_powers_is_stopped_at_run_time(backend):
    # 20 factors of 999 ** 100 (997 bits each): about 20,000 bits, 6,000 digits, which
    # Python cannot print; the result is checked because two non-constants are multiplied
    from types import SimpleNamespace as Obj

    from engine.expr import EvaluationError
    from engine.expr.closures import compile_closures

    expr, problems = compile_expression("*".join(["(move.value ** 100)"] * 20), ENV, START)
    assert not problems
    evaluate = expr.evaluate if backend == "generated" else compile_closures(expr._checked)
    with pytest.raises(EvaluationError, match="over 1024 bits"):
        evaluate({"move": Obj(value=999)})
    assert evaluate({"move": Obj(value=1)}) == 1


def test_plain_scores_are_not_checked():
    # a product with a constant cannot outgrow its operand by much: no check, no cost
    expr, _ = compile_expression("50 * move.hexagons + 2 ** move.value", ENV, START)
    assert "_bounded" not in expr.python
