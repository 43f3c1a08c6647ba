"""An unknown ruleset is a usage error: exit 2 from every command that names one, directly
or through the scenario or record it reads (never 1, which means a broken ruleset)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from engine.cli import app

runner = CliRunner()
NOPE = "no-such-game/no-such-ruleset"


@pytest.mark.parametrize("args", [
    ["lint", NOPE],
    ["show", NOPE],
    ["names", NOPE],
    ["play", NOPE],
    ["simulate", NOPE],
    ["simulate", "triominos", "--with", "no-such-overlay"],
    ["solve", NOPE, "--seed", "1"],
    ["solve", "tripeaks+no-such-overlay", "--seed", "1"],
    ["diff", NOPE, "triominos"],
    ["diff", "triominos", NOPE],
    ["compare", NOPE, "triominos"],
    ["compare", "triominos", NOPE],
], ids=lambda a: " ".join(a))
def test_an_unknown_ruleset_given_on_the_command_line_exits_2(args):
    result = runner.invoke(app, args, input="")
    assert result.exit_code == 2, result.output
    assert result.stderr and "Traceback" not in result.output


def _scenario(tmp_path, ruleset: str = NOPE, overlays: str = "[]"):
    path = tmp_path / "s.yaml"
    path.write_text(f"ruleset: {ruleset}\nwith: {overlays}\nplayers: 2\n")
    return str(path)


def _record(tmp_path):
    path = tmp_path / "game.json"
    record = {"format": "rulecraft-record", "version": 1,
              "ruleset": {"id": NOPE, "overlays": [], "hash": "0" * 64},
              "seed": 1, "players": 2, "agents": [], "setup": [], "moves": [], "final": None}
    path.write_text(json.dumps(record))
    return str(path)


@pytest.mark.parametrize("command", ["moves", "explain"])
@pytest.mark.parametrize("ruleset, overlays", [(NOPE, "[]"), ("triominos", "[no-such-overlay]")])
def test_a_scenario_naming_an_unknown_ruleset_exits_2(tmp_path, command, ruleset, overlays):
    result = runner.invoke(app, [command, _scenario(tmp_path, ruleset, overlays)])
    assert result.exit_code == 2, result.output
    assert "s.yaml:" in result.stderr  # the message says which file names it


@pytest.mark.parametrize("command", ["replay", "explain"])
def test_a_record_naming_an_unknown_ruleset_exits_2(tmp_path, command):
    result = runner.invoke(app, [command, _record(tmp_path)])
    assert result.exit_code == 2, result.output
    assert "game.json" in result.stderr


def test_a_broken_scenario_is_still_exit_1(tmp_path):
    # Not a ruleset that names nothing: a malformed field of the scenario itself.
    path = tmp_path / "s.yaml"
    path.write_text("ruleset: triominos\nplayers: many\n")
    assert runner.invoke(app, ["moves", str(path)]).exit_code == 1
