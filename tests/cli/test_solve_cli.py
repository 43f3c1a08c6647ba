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


def _solve_json(*args):
    import json

    result = runner.invoke(app, ["solve", *args, "--seed", "3", "--decide", "--json",
                                 "--max-nodes", "3000"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    del data["seconds"]
    return data


def test_overlays_inline_are_the_same_as_with():
    # `id+overlay` as compare and diff take it; no-wrap changes which plays are legal.
    inline = _solve_json("tripeaks/aisleriot+no-wrap")
    option = _solve_json("tripeaks/aisleriot", "--with", "no-wrap")
    plain = _solve_json("tripeaks/aisleriot")
    assert inline == {**option, "ruleset": "tripeaks/aisleriot+no-wrap"}
    assert (inline["nodes"], inline["line"]) != (plain["nodes"], plain["line"])
    result = runner.invoke(app, ["solve", "tripeaks+no-such-overlay", "--seed", "3"])
    assert result.exit_code == 2 and "no-such-overlay" in result.stderr


def test_the_node_limit_is_a_budget_for_the_whole_call():
    # Seed 19 cannot be cleared, which takes ~490,000 positions to prove (docs/games/
    # tripeaks.md): deciding, then fewest steps, then best score used to get 2,000 each.
    import json

    args = ["solve", "tripeaks", "--seed", "19", "--max-nodes", "2000"]
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert 0 < data["nodes"] <= 2000
    assert data["reachable"] is False and data["exhaustive"] is False and data["decided"] is False
    text = runner.invoke(app, args).stdout
    assert "goal `cleared`: undecided" in text and "not found" not in text
    assert "budget" in runner.invoke(app, ["solve", "--help"]).stdout
