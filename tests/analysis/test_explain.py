"""`explain`: each move's breakdown by rule adds up to the move's points."""

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

pytest.importorskip("engine.kernel")

from engine.analysis.explain import explain_record, explain_scenario  # noqa: E402
from engine.analysis.runs import Spec, compile_spec  # noqa: E402
from engine.cli import app  # noqa: E402
from engine.kernel.record import make_record, save_record  # noqa: E402
from engine.players.agents import RandomAgent, play_out  # noqa: E402
from engine.rules import load_ruleset  # noqa: E402

runner = CliRunner()
BRIDGE = str(Path(__file__).parent / "scenarios" / "bridge-49.yaml")


@pytest.fixture
def record(tmp_path, one_round):
    """A record of a seeded one-round game between random agents."""
    ref = one_round()
    game = compile_spec(Spec(ref))
    state = play_out(game.new_game(2, 11), [RandomAgent(1), RandomAgent(2)])
    path = tmp_path / "game.json"
    save_record(path, make_record(state, ref, [], load_ruleset(ref).hash, ["random", "random"],
                                  ref=ref))
    return path


def test_every_move_of_a_record_sums_to_its_points(record):
    data = json.loads(record.read_text())
    result = explain_record(str(record))
    assert len(result.moves) == len(data["moves"])
    before = [0, 0]
    for m, entry in zip(result.moves, data["moves"]):
        after = entry["scores"]  # as recorded when the game was played
        assert m.points == after[m.seat] - before[m.seat], m.move
        assert sum(e.points for e in m.breakdown) == m.points, m.move
        for seat in range(2):  # other seats' events explain their own changes
            if seat != m.seat:
                assert sum(e.points for e in m.others if e.player == seat) == after[seat] - before[seat]
        assert m.scores == after
        before = after
    assert any(len(m.breakdown) > 1 for m in result.moves) or any(m.others for m in result.moves)


def test_the_bridge_example_scores_49_rule_by_rule():
    ruleset = load_ruleset("triominos/pressman")
    (m,) = explain_scenario(BRIDGE, "place 1-4-4@1,-1r0").moves
    assert m.points == 49
    assert [(e.rule, e.points) for e in m.breakdown] == [("tile_value", 9), ("bridge", 40)]
    assert m.breakdown[1].pos.line == ruleset.where("scoring", "bridge").line


def test_every_legal_move_of_a_scenario(tmp_path):
    result = explain_scenario(BRIDGE)
    assert len(result.moves) >= 2 and [m.number for m in result.moves] == list(
        range(1, len(result.moves) + 1))
    for m in result.moves:
        assert sum(e.points for e in m.breakdown) == m.points == m.scores[m.seat]


def test_cli_text_and_json(record):
    text = runner.invoke(app, ["explain", BRIDGE, "--move", "place 1-4-4@1,-1r0"])
    assert text.exit_code == 0, text.stderr
    lines = text.stdout.splitlines()
    assert "P1 place 1-4-4@1,-1r0: +49" in lines[1]
    assert "bridge" in lines[3] and "+40" in lines[3] and "pressman.yaml:" in lines[3]
    assert lines[3].endswith("a bridge")
    assert lines[5].split() == ["total", "+49"]
    out = runner.invoke(app, ["explain", str(record), "--move", "1", "--json"])
    assert out.exit_code == 0, out.stderr
    data = json.loads(out.stdout)
    (move,) = data["moves"]
    assert data["kind"] == "record" and move["number"] == 1
    assert sum(e["points"] for e in move["breakdown"]) == move["points"]
    assert all(":" in e["where"] for e in move["breakdown"])


def test_cli_errors(record, tmp_path):
    assert runner.invoke(app, ["explain", str(record), "--move", "100000"]).exit_code == 2
    assert runner.invoke(app, ["explain", BRIDGE, "--move", "place 9-9-9@0,0r0"]).exit_code == 2
    assert runner.invoke(app, ["explain", str(tmp_path / "none.json")]).exit_code == 2
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "rulecraft-record", "version": 1}', encoding="utf-8")
    result = runner.invoke(app, ["explain", str(broken)])
    assert result.exit_code == 1 and "K50" in result.stderr


def test_points_changed_in_another_file_are_located(tmp_path):
    house = tmp_path / "house.yaml"
    house.write_text("extends: triominos/pressman\nruleset: {game: triominos, title: House}\n"
                     "scoring:\n  bridge:\n    points: 45\n", encoding="utf-8")
    text = Path(BRIDGE).read_text(encoding="utf-8")
    scenario = tmp_path / "bridge.yaml"
    scenario.write_text(text.replace("ruleset: triominos/pressman", "ruleset: house.yaml"),
                        encoding="utf-8")
    result = explain_scenario(str(scenario), "place 1-4-4@1,-1r0")
    (m,) = result.moves
    assert (m.points, [e.points for e in m.breakdown]) == (54, [9, 45])
    bridge = result.as_dict()["moves"][0]["breakdown"][1]
    assert bridge["where"].split(":")[0].endswith("pressman.yaml")
    assert bridge["points_where"] == f"{house}:5"


@pytest.mark.parametrize("number", ["0", "-1", "99999"])
def test_a_scenario_move_number_out_of_range_says_the_range(number):
    count = len(explain_scenario(BRIDGE).moves)
    result = runner.invoke(app, ["explain", BRIDGE, "--move", number])
    assert result.exit_code == 2
    assert f"legal moves 1..{count}, not `{number}`" in result.stderr
    assert "unknown action" not in result.stderr


def test_a_ruleset_file_is_not_taken_for_a_scenario():
    # A ruleset's `ruleset:` is a mapping; read as a scenario it was once named `{'game': ...}`.
    ruleset = str(Path(__file__).resolve().parents[2] / "rulesets" / "triominos" / "pressman.yaml")
    result = runner.invoke(app, ["explain", ruleset])
    assert result.exit_code == 2
    assert f"{ruleset}:1:1:" in result.stderr
    assert "is a ruleset, not a record or a scenario" in result.stderr
    assert "{'game'" not in result.stderr


def test_a_record_naming_a_missing_ruleset_says_which_file(record, tmp_path):
    data = json.loads(record.read_text(encoding="utf-8"))
    data["ruleset"]["id"] = data["ruleset"]["ref"] = "no/such-ruleset"
    lost = tmp_path / "lost.json"
    lost.write_text(json.dumps(data), encoding="utf-8")
    result = runner.invoke(app, ["explain", str(lost)])
    assert result.exit_code == 2  # a reference that names nothing: as `replay` says
    assert f"{lost}:1:1:" in result.stderr and "`no/such-ruleset`" in result.stderr


def test_a_changed_ruleset_suggests_what_works(record, monkeypatch):
    from engine.analysis import runs

    # The ruleset file changes after the game: explain cannot re-score (it has no
    # --rescore), so it must not suggest that option as its own.
    data = json.loads(record.read_text(encoding="utf-8"))
    ruleset = Path(data["ruleset"]["id"])
    ruleset.write_text(ruleset.read_text() + "players: {default: 3}\n")
    monkeypatch.setattr(runs, "_GAMES", {})  # compiled once per process: as a new run
    result = runner.invoke(app, ["explain", str(record)])
    assert result.exit_code == 1
    assert "K503" in result.stderr
    assert f"rulecraft replay {record} --rescore" in result.stderr
    assert "explain" in result.stderr and "the rules the record was made with" in result.stderr
