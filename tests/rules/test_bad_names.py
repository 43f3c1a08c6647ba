"""issue 16 items 4, 5, 6 and 13: names too long for a file system, `extends` chains too
deep, names starting with `_`, `extends` not a string: each one located diagnostic."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from engine.cli import app
from engine.rules import check_ruleset
from engine.rules.lint import lint_paths

runner = CliRunner()
LONG = "x" * 300  # over the 255 bytes a file name may have
HOUSE = "extends: triominos/pressman\nruleset: {game: triominos, title: House}\n"


def _codes(diagnostics) -> list[str]:
    return [d.code for d in diagnostics]


def test_a_long_name_on_the_command_line_is_a_usage_error():
    for args in (["show", LONG], ["show", f"triominos/{LONG}"], ["names", LONG],
                 ["show", "triominos", "--with", LONG], ["simulate", LONG, "--games", "1"]):
        result = runner.invoke(app, args)
        assert result.exit_code == 2, (args, result.output)
        assert "R425" in result.output and "Traceback" not in result.output
    result = runner.invoke(app, ["lint", LONG])
    assert result.exit_code == 2 and "no such file or folder" in result.output


def test_a_name_with_a_nul_is_refused():
    _, diagnostics = check_ruleset("triominos/\0pressman")
    assert _codes(diagnostics) == ["R425"]


def test_a_long_extends_is_located(tmp_path):
    path = tmp_path / "house.yaml"
    path.write_text(f"extends: triominos/{LONG}\nruleset: {{game: triominos, title: H}}\n")
    (problem,) = lint_paths([path])
    assert problem.code == "R425" and (problem.pos.line, problem.pos.col) == (1, 10)


def _record(tmp_path, ruleset_id: str) -> str:
    record = tmp_path / "r.json"
    record.write_text(json.dumps({
        "format": "rulecraft-record", "version": 1, "ruleset": {"id": ruleset_id},
        "seed": 1, "players": 1, "setup": [], "moves": []}))
    return str(record)


def test_a_long_id_in_a_record_or_a_scenario(tmp_path):
    # the record schema allows 255 characters: a longer id is K502, a 255-character one
    # (`triominos/` and 245 more, 250 with `.yaml`) is looked up and not found
    result = runner.invoke(app, ["replay", _record(tmp_path, "triominos/" + LONG)])
    assert result.exit_code == 1 and "K502" in result.output, result.output
    result = runner.invoke(app, ["replay", _record(tmp_path, "triominos/" + "x" * 245)])
    assert result.exit_code == 2 and "R400" in result.output, result.output
    scenario = tmp_path / "s.yaml"
    scenario.write_text(f"ruleset: {LONG}\nplayers: 2\n")
    result = runner.invoke(app, ["moves", str(scenario)])
    assert result.exit_code == 2 and "R425" in result.output, result.output


def test_an_extends_chain_over_32_is_r426(tmp_path):
    # 500 deep gave RecursionError; level i extends level i + 1, the last one pressman
    depth = 500
    for i in range(depth):
        base = f"l{i + 1}.yaml" if i + 1 < depth else "triominos/pressman"
        (tmp_path / f"l{i}.yaml").write_text(
            f"extends: {base}\nruleset: {{game: triominos, title: L{i}}}\n")
    _, diagnostics = check_ruleset(str(tmp_path / "l0.yaml"))
    (problem,) = diagnostics
    # l0 .. l31 are 32 rulesets in the chain: l32's `extends` is one too many
    assert problem.code == "R426" and problem.pos.path.endswith("l32.yaml")


def test_a_chain_of_30_still_resolves(tmp_path):
    for i in range(30):
        base = f"l{i + 1}.yaml" if i + 1 < 30 else "triominos/pressman"
        (tmp_path / f"l{i}.yaml").write_text(
            f"extends: {base}\nruleset: {{game: triominos, title: L{i}}}\n")
    ruleset, diagnostics = check_ruleset(str(tmp_path / "l0.yaml"))
    assert ruleset is not None and not diagnostics


def test_underscore_names_are_s206_and_simulate_refuses(tmp_path):
    path = tmp_path / "house.yaml"
    path.write_text(HOUSE + "counters:\n  __class__: 0\n  __dict__: 1\n")
    problems = [d for d in lint_paths([path]) if d.code == "S206"]
    assert [(d.pos.line, d.pos.col) for d in problems] == [(4, 3), (5, 3)]
    result = runner.invoke(app, ["simulate", str(path), "--games", "1"])
    assert result.exit_code == 1 and "S206" in result.output, result.output


def test_an_underscore_cell_attribute_cannot_reach_python(tmp_path):
    # `p.__class__` read the Python class object at run time: scores silently wrong
    path = tmp_path / "house.yaml"
    path.write_text("extends: triolet/standard\nruleset: {game: triolet, title: H}\n"
                    "board:\n  cell_defaults: {__class__: 0}\n")
    (problem,) = [d for d in lint_paths([path]) if d.code == "S206"]
    assert (problem.pos.line, problem.pos.col) == (4, 19)


def test_extends_not_a_string_is_one_error(tmp_path):
    # it also gave an unlocated `error[R430] unknown board kind None`
    path = tmp_path / "house.yaml"
    path.write_text("extends: [triominos/pressman]\nruleset: {game: triominos, title: H}\n")
    assert _codes(lint_paths([path])) == ["S201"]
