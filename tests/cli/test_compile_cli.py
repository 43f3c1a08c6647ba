"""`rulecraft compile`: the program printed or written as an importable module, or
the reason the ruleset is not compiled."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from engine.cli import app
from engine.program import compile_program
from tests.kernel.traces import plays_as_the_program
from tests.program.test_program import _game

runner = CliRunner()


def test_a_written_program_imports_and_plays_as_the_compiled_one(tmp_path, monkeypatch):
    monkeypatch.setenv("RULECRAFT_CACHE", "off")
    out = tmp_path / "tripeaks_program.py"
    result = runner.invoke(app, ["compile", "tripeaks", "--with", "no-wrap", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "the program of tripeaks/aisleriot" in result.stderr
    lines = out.read_text(encoding="utf-8").count("\n")
    assert f"wrote {out}: {lines} lines," in result.stderr  # the file's own count
    plays_as_the_program(out, compile_program(_game("tripeaks/aisleriot", ("no-wrap",))), 1, 5)


def test_printed_with_comments_pointing_at_the_yaml(monkeypatch):
    monkeypatch.setenv("RULECRAFT_CACHE", "off")
    result = runner.invoke(app, ["compile", "tripeaks/msc"])
    assert result.exit_code == 0
    # the rule is first written in aisleriot.yaml; msc.yaml sets its points
    assert "# scoring rule `peak` (rulesets/tripeaks/aisleriot.yaml:68; points: " \
        "rulesets/tripeaks/msc.yaml:18)" in result.stdout
    assert "def apply(s, m):" in result.stdout


def test_a_ruleset_not_covered_says_which_feature(tmp_path):
    path = tmp_path / "anywhere.yaml"  # (a first play anywhere on the square board)
    path.write_text("extends: triolet/standard\nruleset: {game: triolet, title: t}\n"
                    "actions:\n  place:\n    $delete: [first_play]\n", encoding="utf-8")
    anywhere = ["compile", str(path), "--with", "jokers"]
    result = runner.invoke(app, anywhere)
    assert result.exit_code == 1
    assert result.stderr.strip() == "not compiled: a first play that need not cover a start cell"
    data = json.loads(runner.invoke(app, anywhere + ["--json"]).stdout)
    assert data == {"ruleset": str(path), "compiled": False,
                    "reason": "a first play that need not cover a start cell"}


def test_a_written_program_with_jokers_imports_and_plays_as_the_compiled_one(tmp_path,
                                                                             monkeypatch):
    monkeypatch.setenv("RULECRAFT_CACHE", "off")
    out = tmp_path / "triolet_jokers.py"
    result = runner.invoke(app, ["compile", "triolet", "--with", "jokers", "-o", str(out)])
    assert result.exit_code == 0, result.output
    plays_as_the_program(out, compile_program(_game("triolet/standard", ("jokers",))), 2, 3)


def test_json_names_the_cache_key(tmp_path, monkeypatch):
    monkeypatch.setenv("RULECRAFT_CACHE", str(tmp_path))
    data = json.loads(runner.invoke(app, ["compile", "tripeaks", "--json"]).stdout)
    assert data["compiled"] is True and data["lines"] > 100
    assert data["cache"] == str(tmp_path / "programs" / f"{data['key']}.py")
