"""Prints the time to lint every shipped ruleset (cold, then warm), and a folder of 1,000
small variants. A script that prints figures, not a timed test.

    python benchmarks/bench_lint.py
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import paths  # noqa: E402
from engine.rules import files  # noqa: E402
from engine.rules.lint import lint_paths  # noqa: E402


def timed(label: str, target, repeat: int = 1) -> None:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        found = lint_paths([target])
        best = min(best, time.perf_counter() - start)
    count = sum(1 for _ in Path(target).rglob("*.yaml"))
    print(f"{label:<38} {count:>5} files  {best * 1000:9.1f} ms  "
          f"({best * 1000 / max(count, 1):.2f} ms/file, {len(found)} diagnostics)")


def main() -> None:
    shipped = paths.rulesets_dir()
    timed("shipped rulesets, cold", shipped)
    timed("shipped rulesets, warm (best of 5)", shipped, repeat=5)
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(1000):
            Path(tmp, f"r{i:04d}.yaml").write_text(
                "extends: triominos/pressman\n"
                f"ruleset: {{game: triominos, title: House {i}}}\n"
                f"players: {{max: {2 + i % 4}}}\n", encoding="utf-8")
        files._cache.clear()
        timed("1,000 one-line variants of a base", tmp)


if __name__ == "__main__":
    main()
