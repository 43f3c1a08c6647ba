"""Each E-code fixture really fails with its code, checked here against a scoring
context like the one the rules layer declares (`rulecraft lint` runs them for real)."""

from pathlib import Path

import pytest
import yaml

from expr_context import ENV
from engine.diagnostics import Position
from engine.expr import Definition, compile_expression
from engine.expr import types as T

FIXTURES = sorted((Path(__file__).resolve().parents[1] / "fixtures" / "diagnostics").glob("E3*.yaml"))
TILE = T.Record("tile", {"value": T.INT, "distinct": T.INT, "high": T.INT, "low": T.INT})
SCORING_ENV = {**ENV, "tile": TILE}


def scoring_expressions(path: Path):
    doc = yaml.compose(path.read_text(encoding="utf-8"))
    sections = {key.value: value for key, value in doc.value}
    definitions = {}
    for key, value in getattr(sections.get("define"), "value", []):
        mark = value.start_mark
        definitions[key.value] = Definition(value.value, Position(str(path), mark.line + 1, mark.column + 1))
    for _, rule in sections["scoring"].value:
        for key, value in rule.value:
            if key.value in ("points", "if"):
                mark = value.start_mark
                expected = T.INT if key.value == "points" else T.BOOL
                yield value.value, Position(str(path), mark.line + 1, mark.column + 1), expected, definitions


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_fixture_fails_with_its_code(path):
    code = path.stem.split("-")[0]
    found = []
    for text, pos, expected, definitions in scoring_expressions(path):
        _, problems = compile_expression(text, SCORING_ENV, pos, expected, definitions)
        found += problems
    assert code in {p.code for p in found}, found
    assert all(p.pos.path == str(path) and p.pos.line > 3 for p in found)
