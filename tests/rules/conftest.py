"""Helpers for building small ruleset trees in a temporary folder."""

from pathlib import Path

import pytest

from engine import paths

PRESSMAN = (paths.rulesets_dir() / "triominos" / "pressman.yaml").read_text(encoding="utf-8")


def write(root: Path, rel: str, text: str) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(name="write")
def write_fixture():
    """`write(root, rel, text)`: create a file and its folders."""
    return write


@pytest.fixture
def tree(tmp_path):
    """A rulesets root with game `demo`: a complete default ruleset `demo/base`."""
    root = tmp_path / "rulesets"
    write(root, "demo/base.yaml", PRESSMAN.replace("game: triominos", "game: demo"))
    return root
