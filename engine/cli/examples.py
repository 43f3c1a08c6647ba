"""One or two examples per command, shown under its `--help` (and checked by the tests).

They name shipped rulesets, so they live in a data file beside this module
(`examples.txt`, one `command: example` a line), not in the engine's code.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources


@lru_cache(maxsize=1)
def examples() -> dict[str, list[str]]:
    """command -> its example command lines, in the file's order."""
    text = resources.files("engine.cli").joinpath("examples.txt").read_text(encoding="utf-8")
    out: dict[str, list[str]] = {}
    for line in text.splitlines():
        if line.strip() and not line.startswith("#"):
            command, _, example = line.partition(":")
            out.setdefault(command.strip(), []).append(example.strip())
    return out


def epilog(lines: list[str]) -> str:
    """The examples as a help epilog (`\\b` keeps click from re-wrapping the lines)."""
    return "\b\nExamples:\n" + "\n".join(f"  {line}" for line in lines)
