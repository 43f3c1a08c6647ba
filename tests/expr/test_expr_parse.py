"""Parsing: the AST shape, precedence, positions, and syntax errors."""

import pytest

from engine.expr import ast as A
from engine.expr.parser import SyntaxProblem, parse


def shape(text):
    node = parse(text)
    assert not isinstance(node, SyntaxProblem), node
    return node


@pytest.mark.parametrize("text, canonical", [
    ("1+2*3", "1 + 2 * 3"),
    ("(1+2)*3", "(1 + 2) * 3"),
    ("1-(2-3)", "1 - (2 - 3)"),
    ("1-2-3", "1 - 2 - 3"),
    ("2**3**2", "2 ** 3 ** 2"),
    ("(2**3)**2", "(2 ** 3) ** 2"),
    ("-2**2", "-2 ** 2"),
    ("(-2)**2", "(-2) ** 2"),
    ("not a and b or c", "not a and b or c"),
    ("not (a and b)", "not (a and b)"),
    ("(not a) == b", "(not a) == b"),
    ("a not in [1,2]", "a not in [1, 2]"),
    ("if a then 1 else if b then 2 else 3", "if a then 1 else if b then 2 else 3"),
    ("(if a then 1 else 2) + 3", "(if a then 1 else 2) + 3"),
    ("sum(p.hand_value for p in opponents)", "sum(p.hand_value for p in opponents)"),
    ("any(l.length==3 for l in move.lines if l.new)", "any(l.length == 3 for l in move.lines if l.new)"),
    ("xs[0].f[1]", "xs[0].f[1]"),
    ("'peak' in move.slot.tags", '"peak" in move.slot.tags'),
    ('"a\\"b\\\\c"', '"a\\"b\\\\c"'),
    ("f()", "f()"),
])
def test_canonical_text(text, canonical):
    node = shape(text)
    assert A.to_source(node) == canonical
    assert shape(canonical) == node


def test_precedence_tree():
    node = shape("a + b * c ** d")
    assert node == A.Binary("+", A.Name("a"), A.Binary("*", A.Name("b"),
                            A.Binary("**", A.Name("c"), A.Name("d"))))
    assert shape("-x ** 2") == A.Unary("-", A.Binary("**", A.Name("x"), A.Int(2)))
    assert shape("a or b and c") == A.Binary("or", A.Name("a"), A.Binary("and", A.Name("b"), A.Name("c")))


def test_keywords_are_not_name_prefixes():
    assert shape("index + iffy + notes + order") is not None
    assert shape("true_value") == A.Name("true_value")


def test_nodes_know_offset_line_and_col():
    node = shape("1 +\n  move.hexgons")
    attr = node.right
    assert (attr.offset, attr.line, attr.col) == (6, 2, 3)
    assert attr.name_offset == 11


def test_comprehension_parts():
    node = shape("count(x for x in xs if x > 1)")
    (comp,) = node.args
    assert comp == A.Comprehension(A.Name("x"), "x", A.Name("xs"),
                                   A.Binary(">", A.Name("x"), A.Int(1)))


@pytest.mark.parametrize("text, offset, words", [
    ("50 * (move.hexagons", 19, "end of expression"),
    ("1 +", 3, "end of expression"),
    ("1 + * 2", 4, "unexpected `*`"),
    ("a = b", 2, "unexpected character `=`"),
    ("a && b", 2, "unexpected character `&`"),
    ("0 < x < 5", 6, "do not chain"),
    ("move.", 5, "end of expression"),
    ("sum(x for x in)", 14, "unexpected `)`"),
    ("@", 0, "unexpected character `@`"),
    ("a == not b", 5, "unexpected `not`"),   # a keyword never becomes a name
    ("move.in", 5, "unexpected `in`"),
    ("", 0, "empty"),
    ("   ", 0, "empty"),
])
def test_syntax_errors_point_at_the_character(text, offset, words):
    problem = parse(text)
    assert isinstance(problem, SyntaxProblem)
    assert problem.offset == offset
    assert words in problem.message


def test_syntax_error_help():
    assert parse("a = b").help == "compare with `==`"
    assert parse("a && b").help == "write `and` / `or`"
    assert "and" in parse("0 < x < 5").help
    assert "(not x)" in parse("a == not b").help
