"""Shared pytest setup: golden scenario files under tests/golden/ become test cases.

Every `expect:` case of every scenario file under tests/golden/ is one test named
`<file>::<case>`. `--update-golden` rewrites each case's `points`, `breakdown` and
`scores` with what the engine computes (in place where a value sits on one line, so
comments are kept; otherwise the YAML is re-dumped);
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
    """Rewrite the expectations collected under --update-golden, in place where the
    value sits on one line (comments and layout kept), else by re-dumping the file."""
    for path, cases in _UPDATES.items():
        text = Path(path).read_text(encoding="utf-8")
        updated = _update_in_place(path, text, cases)
        if updated is None:
            data = yaml.safe_load(text)
            for name, values in cases.items():
                case = data["expect"][name]
                case.update({k: v for k, v in values.items() if k in case or k == "points"})
            updated = yaml.safe_dump(data, sort_keys=False, allow_unicode=True,
                                     default_flow_style=None)
        Path(path).write_text(updated, encoding="utf-8")
    _UPDATES.clear()


def _flow(value) -> str:
    """A value in YAML flow style on one line: `60`, `[70, 20]`, `{tile_value: 10}`."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    return str(value)


def _update_in_place(path: str, text: str, cases: dict) -> str | None:
    """Each expected value replaced on its own line; None if one is not on one line."""
    from engine.rules.yamlload import parse_text

    doc = parse_text(text, path)
    lines = text.splitlines(keepends=True)
    edits = []
    for name, values in cases.items():
        for key, value in values.items():
            if key not in doc.data["expect"][name]:
                if key == "points":
                    return None
                continue
            pos = doc.where("expect", name, key)
            line = lines[pos.line - 1]
            start = pos.col - 1
            comment = line.find(" #", start)
            end = comment if comment >= 0 else len(line.rstrip("\r\n"))
            old = line[start:end].rstrip()
            if not old or yaml.safe_load(old) != doc.data["expect"][name][key]:
                return None
            edits.append((pos.line - 1, start, start + len(old), _flow(value)))
    for index, start, end, new in sorted(edits, reverse=True):
        lines[index] = lines[index][:start] + new + lines[index][end:]
    return "".join(lines)


def pytest_addoption(parser):
    parser.addoption(
        "--update-golden", action="store_true", default=False,
        help="rewrite the expected points of golden scenarios with what the engine computes",
    )
    parser.addoption(
        "--fuzz-long", action="store_true", default=False,
        help="run the fuzz tests 20 times longer (or set RULECRAFT_FUZZ_EXAMPLES=N)",
    )


def pytest_configure(config):
    if config.getoption("--fuzz-long"):  # read by tests/fuzzing.py when tests are collected
        import os

        os.environ["RULECRAFT_FUZZ_LONG"] = "1"


def pytest_collect_file(parent, file_path):
    if file_path.suffix in (".yaml", ".yml") and GOLDEN in file_path.parents:
        return GoldenFile.from_parent(parent, path=file_path)
    return None


def pytest_sessionfinish(session, exitstatus):
    if session.config.getoption("--update-golden"):
        write_updates()
