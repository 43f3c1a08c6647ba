"""The game commands, run with typer's CliRunner on the kernel's test games."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import engine.cli.games
import tests.kernel.fakes  # noqa: F401 - the `line` and `stack` board kinds
from engine.cli import app
from tests.kernel.stub_ruleset import StubRuleset

runner = CliRunner()
RULESETS = Path(__file__).resolve().parent.parent / "kernel" / "rulesets"
LINE = str(RULESETS / "line.yaml")
STACK = str(RULESETS / "stack.yaml")


@pytest.fixture(autouse=True)
def _test_rulesets(monkeypatch):
    """The test games use board kinds of their own, which the schema does not list: load
    them with the stub loader; other references go to the rules layer as usual."""
    real = engine.cli.games.resolve

    def resolve(ref, overlays):
        if Path(ref).resolve().parent == RULESETS:
            return StubRuleset(Path(ref).read_text(), ref), []
        return real(ref, overlays)

    monkeypatch.setattr(engine.cli.games, "resolve", resolve)


def run(*args, input=None):
    return runner.invoke(app, list(args), input=input)


def _lines_without_timing(output: str) -> list[str]:
    return [line for line in output.splitlines() if not line.startswith("games/s")]


def test_simulate_prints_per_seat_figures_the_same_whatever_jobs():
    one = run("simulate", LINE, "--games", "12", "--seed", "3", "--agents", "greedy,random")
    assert one.exit_code == 0, one.output
    assert "mean score" in one.output and "greedy" in one.output and "games/s" in one.output
    two = run("simulate", LINE, "--games", "12", "--seed", "3", "--agents", "greedy,random",
              "--jobs", "2")
    assert two.exit_code == 0, two.output
    assert _lines_without_timing(one.output) == _lines_without_timing(two.output)


def test_simulate_json_and_record(tmp_path):
    record = tmp_path / "game.json"
    result = run("simulate", LINE, "--games", "5", "--players", "3", "--json",
                 "--record", str(record))
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["games"] == 5 and len(data["seats"]) == 3
    assert abs(sum(s["win_rate"] for s in data["seats"]) + data["no_winner"] - 1) < 1e-6
    replayed = run("replay", str(record))
    assert replayed.exit_code == 0, replayed.output
    assert "replayed" in replayed.output


def test_simulate_usage_errors():
    assert run("simulate", LINE, "--agents", "clever").exit_code == 2
    empty = run("simulate", LINE, "--agents", " , ")
    assert empty.exit_code == 2 and "--agents names no agent; agents: random" in empty.output
    # a known agent with a parameter it does not take: the agent's own reason is said
    wrong = run("simulate", LINE, "--agents", "mcts:10:plies=x")
    assert wrong.exit_code == 2 and "unknown agent mcts:10:plies=x" in wrong.output
    assert "mcts: `plies=x` is not a budget" in wrong.output
    assert run("simulate", LINE, "--players", "9").exit_code == 2
    missing = run("simulate", "no/such-ruleset")
    assert missing.exit_code in (1, 2) and "Traceback" not in missing.output


def test_a_record_path_that_cannot_be_written_is_an_error_not_a_traceback(tmp_path):
    bad = str(tmp_path / "no-such-dir" / "game.json")
    result = run("simulate", LINE, "--games", "2", "--record", bad)
    assert result.exit_code == 1 and not isinstance(result.exception, OSError)
    assert f"cannot write the record to {bad}" in result.output
    # play asks again rather than losing the game (#16 item 11): a good name is written
    good = tmp_path / "game.json"
    result = run("play", LINE, input=f"quit\n{bad}\n{good}\n")
    assert result.exit_code == 0, result.output
    assert "cannot write the record there: there is no folder" in result.output
    assert good.exists() and f"record written to {good}" in result.output


def test_a_one_player_game_says_so_when_given_more():
    result = run("simulate", STACK, "--players", "3")
    assert result.exit_code == 2
    assert "this ruleset is for 1 player, not 3" in result.output


def test_play_by_number_hint_bad_input_and_quit(tmp_path):
    record = tmp_path / "quit.json"
    # 1: the first listed move; `zzz` is refused and asked again; `hint` lists best moves
    result = run("play", LINE, "--seed", "2", input=f"zzz\nhint\n1\nquit\n{record}\n")
    assert result.exit_code == 0, result.output
    assert "not a legal move" in result.output
    assert "P1: " in result.output
    assert record.exists() and "bye" in result.output
    assert run("replay", str(record)).exit_code == 0


def test_play_typed_moves_and_ctrl_d_leaves_cleanly():
    result = run("play", STACK, "--deal", "Ac 2c 3c 4c 5c Ad 2d 3d 4d 5d",
                 input="4c\nplay 3c\n")
    assert result.exit_code == 0, result.output
    assert "P1: play 4c" in result.output and "P1: play 3c" in result.output
    assert "Traceback" not in result.output and "bye" in result.output


def test_play_a_whole_game_to_the_end(tmp_path):
    record = tmp_path / "done.json"
    moves = "\n".join(["1"] * 60) + "\n"
    result = run("play", STACK, "--seed", "1", "--record", str(record), input=moves)
    assert result.exit_code == 0, result.output
    assert "game over" in result.output and record.exists()


def test_replay_of_a_record_whose_ruleset_is_gone_names_the_record(tmp_path):
    record = tmp_path / "r.json"
    assert run("simulate", LINE, "--games", "1", "--record", str(record)).exit_code == 0
    data = json.loads(record.read_text())
    data["ruleset"]["ref"] = str(tmp_path / "gone.yaml")
    record.write_text(json.dumps(data))
    result = run("replay", str(record))
    assert result.exit_code == 2 and "gone.yaml" in result.output
    assert f"{record}: the ruleset this record names" in result.output


def test_replay_detects_a_changed_ruleset(tmp_path):
    record = tmp_path / "r.json"
    assert run("simulate", LINE, "--games", "1", "--record", str(record)).exit_code == 0
    data = json.loads(record.read_text())
    data["ruleset"]["hash"] = "0" * 64
    record.write_text(json.dumps(data))
    stopped = run("replay", str(record))
    assert stopped.exit_code == 1 and "K503" in stopped.output
    rescored = run("replay", str(record), "--rescore")
    assert rescored.exit_code == 0, rescored.output
    assert "changed since the record" in rescored.output


def test_replay_of_a_damaged_record_names_the_problem(tmp_path):
    record = tmp_path / "bad.json"
    record.write_text("{ not json")
    result = run("replay", str(record))
    assert result.exit_code == 1 and "K501" in result.output and "Traceback" not in result.output


SCENARIOS = RULESETS.parent / "scenarios"


def test_moves_lists_points_and_breakdown():
    result = run("moves", str(SCENARIOS / "stack-run.yaml"))
    assert result.exit_code == 0, result.output
    assert "2 legal moves" in result.output
    assert "play 4c" in result.output and "+3" in result.output
    assert "card +3 (" in result.output and "stack.yaml:" in result.output


def test_moves_json():
    result = run("moves", str(SCENARIOS / "stack-run.yaml"), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    by_text = {m["move"]: m for m in data["moves"]}
    assert by_text["play 4c"]["points"] == 3
    assert by_text["deal"]["breakdown"][0]["rule"] == "deal_cost"
    assert by_text["deal"]["breakdown"][0]["where"].endswith("stack.yaml:27")


def test_moves_on_a_broken_scenario_is_an_error_not_a_traceback(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("ruleset: [unclosed\n")
    result = run("moves", str(bad))
    assert result.exit_code == 1 and "Traceback" not in result.output


def test_simulate_from_a_fixed_deal():
    deal = "Ac 2c 3c 4c 5c Ad 2d 3d 4d 5d"
    result = run("simulate", STACK, "--games", "3", "--deal", deal, "--agents", "greedy", "--json")
    assert result.exit_code == 0, result.output
    # greedy plays 4c 3c 2c Ac from this deal: 1 + 2 + (3 + 15) + (4 + 30) = 55 in round 1
    assert json.loads(result.output)["seats"][0]["mean_score"] >= 55
    bad = run("simulate", STACK, "--deal", "Ac 2c")
    assert bad.exit_code == 2 and "--deal" in bad.output


def test_ctrl_c_while_an_agent_thinks_leaves_cleanly(monkeypatch, tmp_path):
    from engine.players import agents

    def interrupted(self, state):
        raise KeyboardInterrupt

    monkeypatch.setattr(agents.GreedyAgent, "choose", interrupted)
    record = tmp_path / "r.json"
    # the human moves first or not, depending on the deal: answer both prompts
    result = run("play", LINE, "--seed", "2", "--record", str(record), input="1\n1\n")
    assert result.exit_code == 0, result.output
    assert "bye" in result.output and "Traceback" not in result.output
    assert record.exists()


def test_simulate_names_the_ruleset_with_its_overlays():
    # `triominos` is a game name: what runs is its default ruleset, with the overlay.
    result = run("simulate", "triominos", "--with", "three-vertex", "--games", "2", "--coverage")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "triominos/pressman+three-vertex: 2 games"
    assert any(line.startswith("rule coverage of triominos/pressman+three-vertex over 2 game")
               for line in lines)
    data = json.loads(run("simulate", "triominos", "-w", "three-vertex", "-n", "1", "--json").stdout)
    assert data["ruleset"] == "triominos/pressman" and data["overlays"] == ["three-vertex"]


def test_simulate_refuses_more_agents_than_players():
    # Two seats, three agents: the third used to be dropped without a word.
    result = run("simulate", LINE, "--players", "2", "--agents", "greedy,random,greedy")
    assert result.exit_code == 2
    assert "--agents names 3 agents for 2 players; give at most 2" in result.stderr
    assert "mean score" not in result.stdout
    alone = run("simulate", STACK, "--agents", "greedy,random")
    assert alone.exit_code == 2 and "for 1 player; give at most 1" in alone.stderr
    assert "--players" not in alone.stderr  # the game cannot have 2
    assert "refused" in run("simulate", "--help").stdout


@pytest.mark.parametrize("answer", ["n", "No"])
def test_quit_answered_no_saves_no_file(tmp_path, monkeypatch, answer):
    # the question asks for a file; `no` is an answer to it, not a file to write
    monkeypatch.chdir(tmp_path)
    result = run("play", LINE, "--seed", "2", input=f"quit\n{answer}\n")
    assert result.exit_code == 0, result.output
    assert "record written" not in result.output and "bye" in result.output
    assert list(tmp_path.iterdir()) == []
