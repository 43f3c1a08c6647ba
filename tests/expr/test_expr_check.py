"""Static checking: every E-code, with the caret on the right character, and help."""

import pytest

from expr_context import ENV, START, compile_ok, problems_of
from engine.diagnostics import CODES, Position
from engine.expr import codes
from engine.expr import types as T


def one(text, **kwargs):
    problems = problems_of(text, **kwargs)
    assert len(problems) == 1, problems
    return problems[0]


def col_of(text, fragment, nth=0):
    """The file column of `fragment` in `text`, given that the text starts at START."""
    index = -1
    for _ in range(nth + 1):
        index = text.index(fragment, index + 1)
    return START.col + index


LIST_300 = "[" + ",".join(["0"] * 300) + "]"  # 601 characters (the text limit is 2,000)

# (text, expected type, code, fragment the caret must be on, words in the message, help)
CASES = [
    ("50 * (move.hexagons", None, "E301", None, "expected `)`", None),
    ("25 + sum(p.hand_value for p in opponnts)", None, "E302", "opponnts", "unknown name `opponnts`",
     "did you mean `opponents`?"),
    ("True", None, "E302", "True", "unknown name", "booleans are written `true`"),
    ("50 * move.hexgons", None, "E303", "hexgons", "has no field `hexgons`", "did you mean `hexagons`?"),
    ("len(move.lines) + move.lines.size", None, "E303", "size", "no field `size`", "`.count`"),
    ("move.value.digits", None, "E303", "digits", "no field `digits`", None),
    ("abs(move.value, 1)", None, "E304", "abs", "`abs` takes 1 argument, given 2", "signature: abs(a: int) -> int"),
    ("min()", None, "E304", "min", "at least 1 argument", None),
    ("move.hexagons > 0", T.INT, "E305", "move", "expected a number (int) here, found a boolean",
     "booleans are not numbers"),
    ("move.value", T.BOOL, "E305", "move", "found a number", "compare the number"),
    ("move.opening + 1", None, "E305", "move", "left operand of `+` must be a number", None),
    ("1 + move.opening", None, "E305", "move", "right operand of `+`", None),
    ("if move.value then 1 else 0", None, "E305", "move", "condition after `if`", None),
    ("if can_place then 1 else false", None, "E305", "false", "`else` gives a boolean", None),
    ("[1, true]", None, "E305", "true", "one type", None),
    ("move.value == true", None, "E305", "true", "never equal", "different types"),
    ("move.value < \"a\"", None, "E305", '"a"', "compares numbers", None),
    ("sum(l.new for l in move.lines)", None, "E305", "l.new", "needs a list of numbers", None),
    ("any(move.lines)", None, "E305", "move", "needs a list of booleans", None),
    ("sum(x for x in move.value)", None, "E305", "move", "`for` goes through a list", None),
    ("1 in move.slot.tags", None, "E305", "1", "looks for a number", None),
    ("move.lines[true]", None, "E305", "true", "an index must be a number", None),
    ("move.value // 0", None, "E306", "0", "`//` by zero", None),
    ("move.value % (2 - 2)", None, "E306", "2 - 2", "`%` by zero", None),
    ("abs(" * 45 + "move.value" + ")" * 45, None, "E307", "abs", "more than 40 levels", "define"),
    ("25 + summ(p.hand_value for p in opponents)", None, "E308", "summ", "unknown function `summ`",
     "did you mean `sum`?"),
    ("2 ** 1000 * move.hexagons", None, "E309", "1000", "exponent 1000 is out of range", None),
    ("move.value ** -1", None, "E309", "-1", "out of range", None),
    ("move.value / 2", None, "E311", "/", "`/` is not an operator", "write `//`"),
    ("abs(p.hand_value for p in opponents)", None, "E312", "p.hand_value", "only argument", None),
    ("x for x in [1]", None, "E301", "for", "unexpected `for`", None),
    ("move.value + [10, 20][5]", None, "E313", "[10", "list index out of range", None),
    ("min([])", None, "E313", "min", "empty", None),
    ("move.value + (9 ** 256) * (9 ** 256)", None, "E314", "9 ** 256) *", "over 1024 bits", None),
    # 300 x 300 x 300 = 27,000,000 items: past 1,000,000 at the innermost `for`
    ("sum(sum(sum(1 for a in " + LIST_300 + ") for b in " + LIST_300 + ") for c in " + LIST_300
     + ")", None, "E315", "1 for a", "27,000,000 items", "fewer or shorter lists"),
]


@pytest.mark.parametrize("text, expected, code, fragment, words, help", CASES,
                         ids=[f"{c[2]}:{c[0][:30]}" for c in CASES])
def test_diagnostic(text, expected, code, fragment, words, help):
    problem = one(text, expected=expected)
    assert problem.code == code
    assert words in problem.message
    if fragment is not None:
        assert problem.pos == Position(START.path, START.line, col_of(text, fragment))
    if help is not None:
        assert help in (problem.help or "")
    assert CODES[code].name  # a registered code


def test_every_expression_code_is_exercised():
    exercised = {case[2] for case in CASES} | {"E310"}
    declared = {c.code for c in vars(codes).values() if hasattr(c, "code")}
    assert declared == exercised


def test_several_problems_are_all_reported():
    problems = problems_of("move.hexgons + opponnts + summ(1)")
    assert [p.code for p in problems] == ["E303", "E302", "E308"]


def test_one_mistake_does_not_cascade():
    problems = problems_of("(move.hexgons + 1) * 2 > 3 and true")
    assert [p.code for p in problems] == ["E303"]


def test_comprehension_variable_is_local_and_may_hide_a_context_name():
    assert compile_ok("sum(player.hand_value for player in opponents)").type == T.INT
    problem = one("sum(p.hand_value for p in opponents) + p.score")
    assert problem.code == "E302" and "`p`" in problem.message


def test_types_of_results():
    assert compile_ok("move.lines").type == T.ListOf(ENV["move"].fields["lines"].item)
    assert compile_ok("sorted(p.score for p in players)").type == T.ListOf(T.INT)
    assert compile_ok("if can_place then [] else [1]").type == T.ListOf(T.INT)
    assert compile_ok('round.reason == "went_out"', T.BOOL).type == T.BOOL


def test_constant_folding():
    assert compile_ok("50 * 2 + 3").ast.value == 103
    assert compile_ok("if true then move.value else 7").python.count("7") == 0
    assert compile_ok("-(2 ** 3)").ast.value == -8
    assert compile_ok("max(3, 9, 4)").ast.value == 9
    assert compile_ok("not (1 < 2)").ast.value is False
    assert compile_ok('"pe" in "peak"').is_constant
    assert not compile_ok("move.value * 2").is_constant


def test_yaml_scalars_are_expressions():
    assert compile_ok(40, T.INT).evaluate({}) == 40
    assert compile_ok(True, T.BOOL).evaluate({}) is True
    assert one(True, expected=T.INT).code == "E305"
    assert one(2.5).code == "E305"
    assert one(None).code == "E305"
