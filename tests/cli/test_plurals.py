"""Counts printed with a noun agree with it: `1 game`, `2 games`, never `1 games`."""

from __future__ import annotations

import re

import pytest

from typer.testing import CliRunner

from engine.analysis.phrases import counted
from engine.cli import app

runner = CliRunner()
BAD = re.compile(r"\b1 (games|moves|players|agents|steps|positions|seeded deals|errors|warnings)\b"
                 r"|\(s\)")


def test_counted():
    assert [counted(n, "game") for n in (0, 1, 2)] == ["0 games", "1 game", "2 games"]
    assert counted(1_000, "position") == "1,000 positions"


def test_one_game_is_singular_in_simulate_and_its_coverage():
    result = runner.invoke(app, ["simulate", "tripeaks", "--games", "1", "--coverage"])
    assert result.exit_code == 0, result.output
    assert "tripeaks/aisleriot: 1 game" in result.stdout
    assert "rule coverage of tripeaks/aisleriot over 1 game:" in result.stdout
    assert not BAD.search(result.stdout), BAD.search(result.stdout)


def test_one_seeded_deal_and_one_step_are_singular_in_solve():
    result = runner.invoke(app, ["solve", "tripeaks", "--games", "1", "--seed", "1",
                                 "--max-nodes", "500"])
    assert result.exit_code == 0, result.output
    assert "1 seeded deal (seed 1)" in result.stdout
    assert not BAD.search(result.stdout)


def test_one_agent_too_many_for_one_player_is_singular():
    result = runner.invoke(app, ["simulate", "tripeaks", "--agents", "greedy,random"])
    assert result.exit_code == 2
    assert "2 agents for 1 player;" in result.stderr and not BAD.search(result.stderr)
    result = runner.invoke(app, ["simulate", "tripeaks", "--agents", "clever"])
    assert "unknown agent clever" in result.stderr


def test_lint_summary_counts_agree():
    # The fixture has exactly one mistake: an unknown name in an expression.
    result = runner.invoke(app, ["lint", "tests/fixtures/diagnostics/E302-unknown-name.yaml"])
    assert result.exit_code == 1
    assert re.search(r"^1 error, 0 warnings$", result.stderr, re.M), result.stderr


def test_counts_below_the_cli_are_in_the_right_number_too():
    from engine.kernel import Game
    from engine.rules import load_ruleset
    from engine.rules.model import compile_model

    game = Game(compile_model(load_ruleset("tripeaks/aisleriot"))[0])
    with pytest.raises(ValueError) as caught:
        game.parse_deal("Ah")
    assert "the deal names 1 piece but" in str(caught.value)
