"""`lint --simulate N`: L6xx diagnostics, one failing fixture per code.

The generic fixture test (tests/rules/test_diagnostic_codes.py) lints fixtures
statically and leaves L codes to this file: an L fixture names the lint options it needs
on a first line `# lint: --simulate N`, and is linted here with them.
"""

import json
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

pytest.importorskip("engine.kernel")

import engine.analysis.dynlint  # noqa: E402,F401  (registers the L codes)
from engine.analysis.dynlint import simulate_paths  # noqa: E402
from engine.cli import app  # noqa: E402
from engine.diagnostics import CODES  # noqa: E402

runner = CliRunner()
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "diagnostics"
L_CODES = sorted(c for c in CODES if c.startswith("L"))


def lint_options(fixture: Path) -> list[str]:
    first = fixture.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith("# lint:"), f"{fixture.name}: first line `# lint: --simulate N`"
    return shlex.split(first[len("# lint:"):])


def test_the_l_codes_exist():
    assert L_CODES == ["L601", "L602", "L603", "L604"]


@pytest.mark.parametrize("code", L_CODES)
def test_fixture_reports_its_code(code):
    (fixture,) = FIXTURES.glob(f"{code}-*.yaml")
    assert fixture.name == f"{code}-{CODES[code].name}.yaml"
    static = runner.invoke(app, ["lint", "--format", "json", str(fixture)])
    assert static.exit_code == 0 and json.loads(static.stdout) == [], "statically clean"
    result = runner.invoke(app, ["lint", "--format", "json", *lint_options(fixture), str(fixture)])
    found = [d for d in json.loads(result.stdout) if d["code"] == code]
    assert found, result.stdout
    assert result.exit_code == (1 if CODES[code].severity.value == "error" else 0)


def test_positions_point_at_the_rule_at_fault():
    crash = FIXTURES / "L601-simulation-crash.yaml"
    (d,) = [d for d in simulate_paths([crash], games=2) if d.code == "L601"]
    assert (Path(d.pos.path).name, d.pos.line) == (crash.name, 8)
    assert "division by zero" in d.message and "2 of 2 games" in d.message
    never = FIXTURES / "L603-rule-never-fired.yaml"
    mine = [d for d in simulate_paths([never], games=2) if Path(d.pos.path).name == never.name]
    assert [(d.code, d.pos.line) for d in mine] == [("L603", 7)]  # where the rule starts
    assert "`four_hexagons` never gave points in 2 random games" in mine[0].message


def test_strict_makes_warnings_errors():
    never = FIXTURES / "L603-rule-never-fired.yaml"
    result = runner.invoke(app, ["lint", "--simulate", "1", "--strict", str(never)])
    assert result.exit_code == 1 and "error[L603]" in result.stdout


def test_an_overlay_is_played_on_its_games_default(tmp_path):
    overlay = tmp_path / "ov.yaml"
    overlay.write_text("overlay: {game: triominos, title: Ov}\nscoring:\n  never:\n"
                       "    on: place\n    if: move.hexagons >= 4\n    points: 1\n"
                       "match: {end_if: true}\n", encoding="utf-8")
    found = simulate_paths([overlay], games=1)
    assert [d.code for d in found] == ["L603"]  # the base's own rare rules are not repeated
    assert found[0].pos.path == str(overlay)
