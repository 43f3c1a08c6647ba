"""Every diagnostic code has a failing fixture that lint reports, and a docs entry.

Fixtures live in `tests/fixtures/diagnostics/`: `<CODE>-<name>.yaml`, or a folder
`<CODE>-<name>/` when several files are needed (the whole folder is linted).
"""

import importlib
import pkgutil
import re
from pathlib import Path

import pytest

import engine
from engine.diagnostics import CODES
from engine.rules.lint import lint_paths

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "diagnostics"
DOCS = ROOT / "docs" / "diagnostics.md"
# Codes whose fixtures `lint` checks. Other letters (K scenarios/records, L simulation)
# are checked by their own layer's tests with their own tools.
LINTED = ("Y", "S", "E", "R")


def _import_every_layer() -> None:
    """Import every engine module, so that every layer's codes are registered."""
    for info in pkgutil.walk_packages(engine.__path__, "engine."):
        try:
            importlib.import_module(info.name)
        except Exception:  # a module with unmet optional needs defines no codes we test
            pass


_import_every_layer()
ALL = sorted(CODES)


def _fixture(code: str) -> Path | None:
    found = sorted(FIXTURES.glob(f"{code}-*"))
    return found[0] if found else None


@pytest.mark.parametrize("code", ALL)
def test_code_has_a_failing_fixture_that_reports_it(code):
    if not code.startswith(LINTED):
        pytest.skip(f"{code} is not a lint code; its layer's tests cover it")
    fixture = _fixture(code)
    assert fixture is not None, f"no fixture tests/fixtures/diagnostics/{code}-<name>.yaml"
    assert fixture.name.startswith(f"{code}-{CODES[code].name}"), "fixture named after the code"
    reported = {d.code for d in lint_paths([fixture])}
    assert code in reported, f"{fixture.name} reported {sorted(reported)}"


@pytest.mark.parametrize("code", ALL)
def test_code_is_documented(code):
    text = DOCS.read_text(encoding="utf-8")
    heading = re.search(rf"^#+ .*\b{code}\b.*$", text, re.M)
    assert heading, f"docs/diagnostics.md has no `### {code} {CODES[code].name}` section"
    section = text[heading.end():].split("\n##", 1)[0].lower()
    for part in ("what", "why", "example", "fix"):
        assert part in section, f"{code}: the section does not say {part}"
