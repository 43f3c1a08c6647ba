"""Types from plain names, doctests, and the safety of generated code."""

import doctest

import pytest

import engine.expr
import engine.expr.types
from expr_context import compile_ok, problems_of
from engine.expr import types as T


def test_type_from_name_plain_and_lists():
    assert T.type_from_name("int") == T.INT
    assert T.type_from_name("bool") == T.BOOL
    assert T.type_from_name(" str ") == T.STR
    assert T.type_from_name("list[list[int]]") == T.ListOf(T.ListOf(T.INT))


def test_type_from_name_records_may_refer_to_each_other():
    records = {"line": {"length": "int", "cells": "list[cell]"},
               "cell": {"value": "int", "line": "line"}}
    line = T.type_from_name("list[line]", records).item
    cell = line.fields["cells"].item
    assert isinstance(line, T.Record) and line.name == "line"
    assert cell.fields["value"] == T.INT
    assert cell.fields["line"] is line


def test_type_from_name_accepts_ready_records_and_refuses_unknown_names():
    tile = T.Record("tile", {"value": T.INT})
    assert T.type_from_name("tile", {"tile": tile}) is tile
    with pytest.raises(ValueError, match="unknown type name `tiel`"):
        T.type_from_name("list[tiel]", {"tile": tile})


def test_booleans_are_not_numbers():
    assert not T.fits(T.BOOL, T.INT) and not T.fits(T.INT, T.BOOL)
    assert T.fits(T.ListOf(T.NOTHING), T.ListOf(T.INT))
    assert T.join(T.ListOf(T.NOTHING), T.ListOf(T.STR)) == T.ListOf(T.STR)
    assert T.join(T.INT, T.BOOL) is None


@pytest.mark.parametrize("module", [engine.expr, engine.expr.types])
def test_doctests(module):
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0


def test_string_literals_stay_data(values):
    text = '"__import__(\'os\').system(\'x\')\\" + 1" in move.slot.tags'
    expr = compile_ok(text)
    assert expr.evaluate(values) is False
    literal = "__import__('os').system('x')\" + 1"
    assert repr(literal) in expr.python  # written with repr: a Python string literal


@pytest.mark.parametrize("text", ["move.__class__", "move.__dict__", "__import__", "move._private"])
def test_only_declared_names_and_fields_are_reachable(text):
    assert problems_of(text)[0].code in ("E302", "E303")


def test_generated_code_uses_renamed_variables():
    expr = compile_ok("sum(v.hand_value for v in opponents)")
    assert " for _l0 in v['opponents']" in expr.python
