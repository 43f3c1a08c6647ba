"""Shared pytest setup: golden scenario files under tests/golden/ become test cases.

Every `expect:` case of every scenario file under tests/golden/ is one test named
`<file>::<case>`. `--update-golden` rewrites each case's `points`, `breakdown` and
`scores` with what the engine computes (the YAML is re-dumped, so comments are lost);
review the diff, since golden values must come from the rules, not from the code.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

GOLDEN = Path(__file__).parent / "golden"

_CACHE: dict[str, object] = {}
_UPDATES: dict[str, dict[str, dict]] = {}


class GoldenFailure(Exception):
    pass


def scenario_for(path: Path):
    from engine.kernel.scenario import load_scenario

    key = str(path)
    if key not in _CACHE:
        try:
            _CACHE[key] = load_scenario(path)
        except Exception as exc:  # noqa: BLE001 - reported by each of the file's cases
            _CACHE[key] = exc
    return _CACHE[key]


class GoldenFile(pytest.File):
    def collect(self):
        data = yaml.safe_load(self.path.read_text(encoding="utf-8")) or {}
        expect = data.get("expect") or {}
        if not expect:
            yield GoldenItem.from_parent(self, name="position", case=None)
        for name in expect:
            yield GoldenItem.from_parent(self, name=str(name), case=str(name))


class GoldenItem(pytest.Item):
    def __init__(self, *, case, **kwargs):
        super().__init__(**kwargs)
        self.case = case

    def runtest(self):
        from engine.diagnostics import RulecraftError, format_text
        from engine.kernel.moves import IllegalMove
        from engine.kernel.scenario import check_case

        scenario = scenario_for(self.path)
        if isinstance(scenario, RulecraftError):
            raise GoldenFailure(format_text(scenario.diagnostics))
        if isinstance(scenario, Exception):
            raise scenario
        if self.case is None:
            return
        case = next(c for c in scenario.cases if c.name == self.case)
        if self.config.getoption("--update-golden") and not case.illegal:
            try:
                got = scenario.outcome(case.move)
            except IllegalMove as exc:
                raise GoldenFailure(f"{case.pos}: `{case.move}` is illegal: {exc}") from None
            _UPDATES.setdefault(str(self.path), {})[case.name] = {
                "points": got.points, "breakdown": got.breakdown, "scores": got.scores,
            }
            return
        problems = check_case(scenario, case)
        if problems:
            raise GoldenFailure(f"{case.pos}: case `{case.name}` (`{case.move}`):\n  "
                                + "\n  ".join(problems))

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, GoldenFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, 0, f"{self.path.name}::{self.name}"


def write_updates() -> None:
    """Rewrite the expectations collected under --update-golden."""
    for path, cases in _UPDATES.items():
        data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
        for name, values in cases.items():
            data["expect"][name].update(values)
        Path(path).write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True),
                              encoding="utf-8")
    _UPDATES.clear()


def pytest_addoption(parser):
    parser.addoption(
        "--update-golden", action="store_true", default=False,
        help="rewrite the expected points of golden scenarios with what the engine computes",
    )


def pytest_collect_file(parent, file_path):
    if file_path.suffix in (".yaml", ".yml") and GOLDEN in file_path.parents:
        return GoldenFile.from_parent(parent, path=file_path)
    return None


def pytest_sessionfinish(session, exitstatus):
    if session.config.getoption("--update-golden"):
        write_updates()
