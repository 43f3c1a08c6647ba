"""The reference cannot drift: docs/expressions.md is generated from the library, and
every documented example evaluates to its stated result; every E-code has its
documentation section and its failing fixture."""

import re
from pathlib import Path

import pytest

from expr_context import compile_ok
from engine.expr import codes
from engine.expr.docs import BEGIN, END, render_functions, splice
from engine.expr.library import FUNCTIONS

ROOT = Path(__file__).resolve().parents[2]
EXPRESSIONS_MD = ROOT / "docs" / "expressions.md"
DIAGNOSTICS_MD = ROOT / "docs" / "diagnostics.md"
FIXTURES = ROOT / "tests" / "fixtures" / "diagnostics"
E_CODES = [c for c in vars(codes).values() if hasattr(c, "code")]


def test_committed_reference_is_generated_from_the_library():
    text = EXPRESSIONS_MD.read_text(encoding="utf-8")
    assert splice(text, render_functions()) == text, "run: python -m engine.expr.docs --write"


@pytest.mark.parametrize("name", list(FUNCTIONS))
def test_function_documented_with_exact_signature(name):
    text = EXPRESSIONS_MD.read_text(encoding="utf-8")
    section = text[text.index(BEGIN):text.index(END)]
    for form in FUNCTIONS[name].signature.split(";"):
        assert f"`{form.strip()}`" in section


@pytest.mark.parametrize("name", list(FUNCTIONS))
def test_example_evaluates_to_stated_result(name):
    function = FUNCTIONS[name]
    assert re.search(rf"\b{name}\(", function.example)
    assert compile_ok(function.example).evaluate({}) == compile_ok(function.result).evaluate({})


@pytest.mark.parametrize("code", E_CODES, ids=[c.code for c in E_CODES])
def test_code_has_documentation_and_fixture(code):
    docs = DIAGNOSTICS_MD.read_text(encoding="utf-8")
    expr_part = docs[docs.index("## E: expressions"):]
    assert f"### {code.code} {code.name}\n" in expr_part
    assert (FIXTURES / f"{code.code}-{code.name}.yaml").is_file()
