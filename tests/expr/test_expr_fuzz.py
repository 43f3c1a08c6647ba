"""Whatever the text, compiling gives diagnostics or an expression, never a traceback;
and a compiled expression fails only with EvaluationError; generated code and closures
agree. Budgets: tests/fuzzing.py (`--fuzz-long`, RULECRAFT_FUZZ_EXAMPLES)."""

from hypothesis import given
from hypothesis import strategies as st

from expr_context import ENV, START, make_values
from engine.diagnostics import CODES
from engine.expr import EvaluationError, compile_expression
from tests.fuzzing import fuzz_settings

TOKENS = ["move", ".", "value", "hexagons", "lines", "length", "new", "p", "l", "opponents",
          "players", "hand_value", "score", "count", "sum", "min", "max", "any", "abs", "sorted",
          "(", ")", "[", "]", ",", "+", "-", "*", "//", "%", "**", "/", "==", "<", ">=",
          "and", "or", "not", "in", "if", "then", "else", "for", "true", "false", "0", "1",
          "2", "300", '"peak"', "move.slot.tags", " ",
          # what the fuzzing run of issue 16 found: huge numbers, Python's own names,
          # control characters, nests of `for`, definitions
          "9" * 400, "9 ** 256", "__class__", "_x", "\x1b", "\u2028", "\x00", "zl", "big",
          "sum(sum(1 for a in zl) for b in zl)", "x for x in zl", "[" + ",".join("7" * 60) + "]"]
DEFINITIONS = {"zl": "[" + ",".join(["1"] * 999) + "]", "big": "(9 ** 256) * (9 ** 200)",
               "twice": "2 * move.value"}

texts = st.one_of(
    st.lists(st.sampled_from(TOKENS), max_size=25).map(" ".join),
    st.text(max_size=40),
)


@fuzz_settings(300)
@given(texts)
def test_compile_never_raises(text):
    expr, problems = compile_expression(text, ENV, START, definitions=DEFINITIONS)
    assert (expr is None) == any(p.is_error for p in problems)
    for problem in problems:
        assert problem.pos.path == START.path and problem.pos.line >= START.line
        assert problem.code in CODES and problem.code.startswith("E")
    if expr is not None:
        try:
            expr.evaluate(make_values())
        except EvaluationError:
            pass


# Well-typed random expressions over the conftest context: both backends must agree.
INT_LEAVES = ["move.value", "move.hexagons", "move.bridges", "player.score", "players.count",
              "len(move.lines)", "0", "1", "2", "7", "-3"]
BOOL_LEAVES = ["true", "false", "move.opening", "can_place", '("peak" in move.slot.tags)',
               "player.won_last_round"]
LINE_INT = ["l.length", "l.sum", "3"]
LINE_BOOL = ["l.new", "l.length == 3", "l.sum > 10"]


def _ints(children_int, children_bool):
    return st.one_of(
        st.tuples(children_int, st.sampled_from(["+", "-", "*", "//", "%"]), children_int)
        .map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        children_int.map(lambda a: f"-({a})"),
        children_int.map(lambda a: f"abs({a})"),
        st.tuples(children_bool, children_int, children_int)
        .map(lambda t: f"(if {t[0]} then {t[1]} else {t[2]})"),
        st.tuples(children_int, children_int).map(lambda t: f"min({t[0]}, {t[1]})"),
        st.tuples(children_int, st.integers(0, 3)).map(lambda t: f"({t[0]}) ** {t[1]}"),
        st.tuples(st.sampled_from(LINE_INT), st.sampled_from(LINE_BOOL))
        .map(lambda t: f"sum({t[0]} for l in move.lines if {t[1]})"),
        st.sampled_from(LINE_BOOL).map(lambda c: f"count({c} for l in move.lines)"),
        # a nest of `for` forms: counted by the step budget in both backends
        st.sampled_from(LINE_INT).map(
            lambda e: f"sum(sum({e} + m.length for m in move.lines) for l in move.lines)"),
        children_int.map(lambda i: f"move.lines[({i}) % 3].sum"),
    )


def _bools(children_int, children_bool):
    return st.one_of(
        st.tuples(children_int, st.sampled_from(["==", "!=", "<", "<=", ">", ">="]), children_int)
        .map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        st.tuples(children_bool, st.sampled_from(["and", "or", "=="]), children_bool)
        .map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        children_bool.map(lambda b: f"(not ({b}))"),
        st.sampled_from(LINE_BOOL).map(lambda c: f"any({c} for l in move.lines)"),
        children_int.map(lambda i: f"({i} in [1, 2, 3])"),
    )


# leaves twice as likely as an operation (`.map(str)` keeps one_of from flattening), so
# the trees stay small
INTS = st.deferred(lambda: st.one_of(st.sampled_from(INT_LEAVES), st.sampled_from(INT_LEAVES),
                                     _ints(INTS, BOOLS).map(str)))
BOOLS = st.deferred(lambda: st.one_of(st.sampled_from(BOOL_LEAVES), st.sampled_from(BOOL_LEAVES),
                                      _bools(INTS, BOOLS).map(str)))


@fuzz_settings(200)
@given(st.one_of(INTS, BOOLS))
def test_well_typed_expressions_compile_and_backends_agree(text):
    from engine.expr.checker import Checker
    from engine.expr.closures import compile_closures
    from engine.expr.definitions import mapping
    from engine.expr.parser import parse

    expr, problems = compile_expression(text, ENV, START)
    if expr is None:  # only a constant failure may stop a well-typed expression
        assert {p.code for p in problems} <= {"E306", "E313", "E307"}, problems
        return
    closures = compile_closures(Checker(ENV, {}, mapping(text, START)).check_root(parse(text), None))
    outcomes = []
    for function in (expr.evaluate, closures):
        try:
            outcomes.append(("value", function(make_values())))
        except EvaluationError as exc:
            outcomes.append(("error", str(exc)))
    assert outcomes[0] == outcomes[1]
