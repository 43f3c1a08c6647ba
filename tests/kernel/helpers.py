"""Helpers for the kernel's tests: compile the test rulesets on the fake board kinds."""

from __future__ import annotations

from pathlib import Path

import tests.kernel.fakes  # noqa: F401 - registers the `line` and `stack` board kinds
from engine.kernel import Game
from engine.rules.model import compile_model
from tests.kernel.stub_ruleset import StubRuleset

HERE = Path(__file__).parent / "rulesets"


def stub(name: str, replace: dict[str, str] | None = None, text: str | None = None) -> StubRuleset:
    """A test ruleset by file name, with optional text replacements."""
    path = HERE / f"{name}.yaml"
    text = path.read_text() if text is None else text
    for old, new in (replace or {}).items():
        assert old in text, old
        text = text.replace(old, new)
    return StubRuleset(text, str(path.relative_to(Path.cwd())) if path.is_relative_to(Path.cwd()) else str(path))


def game(name: str, replace: dict[str, str] | None = None, compiled: bool = True) -> Game:
    """A test ruleset compiled on the fake board kinds; `compiled=False` plays it on the
    generic kernel path (the reference the compiled steps are compared with)."""
    model, diagnostics = compile_model(stub(name, replace))
    assert model is not None, diagnostics
    return Game(model, compiled=compiled)


def diagnose(name: str, replace: dict[str, str]) -> list:
    return compile_model(stub(name, replace))[1]
