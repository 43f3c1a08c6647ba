"""The caret lands on the character inside the YAML file, for every scalar style."""

import yaml

from expr_context import ENV
from engine.diagnostics import Position
from engine.expr import compile_expression

DOC = """\
scoring:
  hexagon:
    points: 50 * move.hexgons
  quoted:
    points: '"peak" in move.slot.tagz'
  double:
    if: "move.value > 0 and move.opning"
  block:
    points: |
      25 +
        sum(p.hand_vaule for p in opponents)
"""


def scalar(path):
    node = yaml.compose(DOC)
    for key in path:
        node = next(v for k, v in node.value if k.value == key)
    return node


def plain_position(node):
    mark = node.start_mark
    return Position("rules.yaml", mark.line + 1, mark.column + 1)


def quoted_mapping(node):
    mark = node.start_mark  # on the quote; no escapes in these texts
    return lambda offset: Position("rules.yaml", mark.line + 1, mark.column + 2 + offset)


def block_mapping(node, indent):
    first_line = node.start_mark.line + 2  # the line after `|`

    def where(offset):
        before = node.value[:offset]
        return Position("rules.yaml", first_line + before.count("\n"),
                        indent + 1 + offset - (before.rfind("\n") + 1))

    return where


def caret(pos):
    """The character of DOC at a file position."""
    return DOC.splitlines()[pos.line - 1][pos.col - 1:]


def test_plain_scalar():
    node = scalar(["scoring", "hexagon", "points"])
    _, (problem,) = compile_expression(node.value, ENV, plain_position(node))
    assert problem.pos == Position("rules.yaml", 3, 23)
    assert caret(problem.pos).startswith("hexgons")


def test_single_quoted_scalar():
    node = scalar(["scoring", "quoted", "points"])
    _, (problem,) = compile_expression(node.value, ENV, quoted_mapping(node))
    assert problem.code == "E303"
    assert caret(problem.pos).startswith("tagz'")


def test_double_quoted_scalar():
    node = scalar(["scoring", "double", "if"])
    _, (problem,) = compile_expression(node.value, ENV, quoted_mapping(node))
    assert caret(problem.pos).startswith('opning"')


def test_block_scalar_over_two_lines():
    node = scalar(["scoring", "block", "points"])
    _, (problem,) = compile_expression(node.value, ENV, block_mapping(node, indent=6))
    assert problem.pos.line == 11
    assert caret(problem.pos).startswith("hand_vaule")


def test_syntax_error_in_a_plain_scalar():
    doc = "points: 50 * (move.hexagons + 1))\n"
    node = yaml.compose(doc).value[0][1]
    _, (problem,) = compile_expression(node.value, ENV, plain_position(node))
    assert problem.code == "E301"
    assert problem.pos == Position("rules.yaml", 1, 33)
    assert doc[problem.pos.col - 1] == ")"
