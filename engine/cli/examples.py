"""One or two examples per command, shown under its `--help` (and run by the tests).

The examples are data (`examples.yaml` beside this file): they name shipped rulesets,
which engine code never does.
"""

from __future__ import annotations

from pathlib import Path

import yaml

EXAMPLES: dict[str, list[str]] = yaml.safe_load(
    (Path(__file__).with_name("examples.yaml")).read_text(encoding="utf-8"))


def epilog(lines: list[str]) -> str:
    """The examples as a help epilog (`\\b` keeps click from re-wrapping the lines)."""
    return "\b\nExamples:\n" + "\n".join(f"  {line}" for line in lines)
