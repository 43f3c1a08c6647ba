"""Golden lines of play for Pyramid: deals from shared/rules/pyramid.md, worked out by hand
(the format: tests/golden/lines.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.golden.lines import cases, play_line


@pytest.mark.parametrize("path, data, line", list(cases(Path(__file__).parent)))
def test_line(path, data, line):
    play_line(path, data, line)
