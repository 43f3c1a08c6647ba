"""Evaluation: values worked out by hand from the context in conftest, both backends."""

import pytest

from expr_context import ENV, START, compile_ok, make_values
from engine.expr import EvaluationError
from engine.expr import types as T
from engine.expr.checker import Checker
from engine.expr.closures import compile_closures
from engine.expr.definitions import mapping
from engine.expr.parser import parse

# Opponents hold 12 and 7 points; the move has 2 hexagons, value 11 and lines of
# (length, sum, new): (3, 15, new), (2, 9), (3, 12); the player has 390 points.
CASES = [
    ("25 + sum(p.hand_value for p in opponents)", 44),
    ("sum(p.hand_value for p in opponents) - player.hand_value", 19),
    ("if move.hexagons > 0 then 50 * move.hexagons else 0", 100),
    ("move.bridges > 0 and move.hexagons == 0", False),
    ("any(l.length == 3 for l in move.lines if l.new)", True),
    ("all(l.length == 3 for l in move.lines)", False),
    ("count(l for l in move.lines if l.length == 3)", 2),
    ("count(l.new for l in move.lines)", 1),
    ("count(move.lines)", 3),
    ("len(move.lines)", 3),
    ("move.lines.count + players.count", 6),
    ("sorted(p.score for p in players).count", 3),
    ("sum(if l.length == 3 then 30 else l.sum for l in move.lines)", 69),
    ("max(p.score for p in players)", 405),
    ("min(p.score for p in players if p.index > 0)", 120),
    ("min(move.value, 10)", 10),
    ("max(3, move.hexagons, -1)", 3),
    ("abs(move.value - 20)", 9),
    ("any(p.score >= 400 for p in players)", True),
    ("player.score >= 400 and player.won_last_round", False),
    ('"peak" in move.slot.tags', True),
    ('"base" not in move.slot.tags', True),
    ('round.reason == "went_out"', True),
    ("move.value // 2", 5),
    ("-move.value // 2", -6),
    ("move.value % 4", 3),
    ("-move.value % 4", 1),
    ("move.value ** 2", 121),
    ("2 ** move.hexagons ** 2", 16),
    ("-move.hexagons ** 2", -4),
    ("sorted(p.score for p in players)[0]", 120),
    ("sort_desc(p.score for p in players)", [405, 390, 120]),
    ("[move.value, move.edges][-1]", 2),
    ("move.lines[1].sum", 9),
    ("not can_place and move.value > 0", True),
    ("sum(sum(1 for m in move.lines if m.length == l.length) for l in move.lines)", 5),
    ("sum(p.hand_value for p in opponents if p.hand_count > 10)", 0),
    ("if can_place then 1 else if move.opening then 2 else 3", 3),
]


@pytest.mark.parametrize("text, expected", CASES, ids=[c[0][:40] for c in CASES])
def test_evaluate(text, expected, values):
    expr = compile_ok(text)
    result = expr.evaluate(values)
    assert result == expected and type(result) is type(expected)


def closures_for(text):
    checked = Checker(ENV, {}, mapping(text, START)).check_root(parse(text), None)
    assert not checked.problems
    return compile_closures(checked)


@pytest.mark.parametrize("text, expected", CASES, ids=[c[0][:40] for c in CASES])
def test_closure_backend_agrees(text, expected, values):
    assert closures_for(text)(values) == expected


def test_evaluate_takes_any_mapping_and_sequences(values):
    from types import MappingProxyType

    values["opponents"] = tuple(values["opponents"])
    assert compile_ok("sum(p.hand_value for p in opponents)").evaluate(MappingProxyType(values)) == 19


def test_record_fields_may_be_computed_properties(values):
    class Move:
        calls = 0

        @property
        def hexagons(self):
            Move.calls += 1
            return 3

    values["move"] = Move()
    assert compile_ok("if move.hexagons > 0 then 50 * move.hexagons else 0").evaluate(values) == 150


@pytest.mark.parametrize("text, change, words", [
    ("100 // move.bridges", {"bridges": 0}, "division by zero"),
    ("100 % move.bridges", {"bridges": 0}, "division by zero"),
    ("move.value ** move.hexagons", {"value": 10**100, "hexagons": 50}, "power too large"),
    ("move.value ** move.hexagons", {"value": 2, "hexagons": 5000}, "power too large"),
    ("move.value ** move.hexagons", {"hexagons": -1}, "negative exponent"),
    ("move.lines[move.value]", {}, "index out of range"),
    ("max(l.sum for l in move.lines if l.length > 5)", {}, "empty"),
])
def test_run_time_failures_are_evaluation_errors(text, change, words, values):
    for key, value in change.items():
        setattr(values["move"], key, value)
    expr = compile_ok(text)
    with pytest.raises(EvaluationError, match=words):
        expr.evaluate(values)
    with pytest.raises(EvaluationError, match=words):
        closures_for(text)(values)


def test_missing_value_is_an_evaluation_error():
    with pytest.raises(EvaluationError, match="no value given for name 'move'"):
        compile_ok("move.value + 1").evaluate({})


def test_booleans_are_not_numbers_at_check_time_only():
    expr = compile_ok("count(p.won_last_round for p in players)", T.INT)
    assert expr.evaluate(make_values()) == 1
