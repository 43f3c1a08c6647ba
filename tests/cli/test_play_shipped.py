"""The game commands on a shipped ruleset (the default Tri-Ominos), end to end."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from engine.cli import app

runner = CliRunner()


def run(*args, input=None):
    return runner.invoke(app, list(args), input=input)


def test_simulate_a_shipped_game_the_same_with_two_jobs(tmp_path):
    args = ["simulate", "triominos", "--games", "2", "--seed", "11", "--agents",
            "greedy,random", "--json"]
    one, two = run(*args), run(*args, "--jobs", "2")
    assert one.exit_code == 0, one.output
    assert two.exit_code == 0, two.output
    a, b = json.loads(one.output), json.loads(two.output)
    a.pop("games_per_second"), b.pop("games_per_second")
    for row in a["rows"] + b["rows"]:  # the time taken is the one thing that varies
        assert row.pop("duration_s") >= 0
    assert a == b and a["ruleset"] == "triominos/pressman"


def test_play_a_few_moves_then_save_and_replay(tmp_path):
    record = tmp_path / "game.json"
    result = run("play", "triominos", "--seed", "5", input=f"hint\n1\n1\nquit\n{record}\n")
    assert result.exit_code == 0, result.output
    assert "your rack:" in result.output and "record written" in result.output
    # with others, `hint` also names the search's move and its share of the visits
    assert "the search (mcts:400) plays: " in result.output and "% of visits" in result.output
    replayed = run("replay", str(record))
    assert replayed.exit_code == 0, replayed.output


def test_an_unknown_ruleset_is_a_usage_error():
    result = run("play", "triominos/nosuch")
    assert result.exit_code == 2 and "Traceback" not in result.output
