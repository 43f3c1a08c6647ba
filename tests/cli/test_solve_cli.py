"""`rulecraft solve` on a user's mistakes: a clear message and exit 2, never a run."""

from __future__ import annotations

from typer.testing import CliRunner

from engine.cli import app

runner = CliRunner()


def test_a_multi_player_ruleset_is_refused_before_asking_for_a_deal():
    # Tri-Ominos is for 2 to 6 players (rulesets/triominos/pressman.yaml): no deal would help.
    result = runner.invoke(app, ["solve", "triominos"])
    assert result.exit_code == 2
    assert "single-player" in result.stderr and "2 to 6 players" in result.stderr
    assert "--deal" not in result.stderr


def test_a_count_of_games_below_one_is_refused():
    for count in ("0", "-3"):
        result = runner.invoke(app, ["solve", "tripeaks", "--games", count])
        assert result.exit_code == 2, result.output
        assert "seeded deals" not in result.output


def test_a_negative_node_limit_is_refused():
    result = runner.invoke(app, ["solve", "tripeaks", "--seed", "1", "--max-nodes", "-5"])
    assert result.exit_code == 2
    assert "searched" not in result.output
