"""Who sets the clock (`clock.seconds`): `play` the real seconds, the web server its own
measure, `simulate --seconds-per-move` a fixed step; a ruleset that never reads the
clock gets none, and its records carry no seconds."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from engine.cli import app
from engine.cli.games import compile_game
from engine.kernel.state import State
from engine.web import sessions
from engine.web.sessions import Session, Setup

runner = CliRunner()


def test_play_sets_the_clock_from_the_seconds_of_play(tmp_path, monkeypatch):
    # a fake monotonic clock: 1000.0 when the game begins (its first reading), then
    # 1042.9 until the first move is applied, 1050.0 after it
    applied, calls = [0], []
    real_apply = State.apply

    def counting(self, move):
        applied[0] += 1
        return real_apply(self, move)

    def now():
        calls.append(1)
        return 1000.0 if len(calls) == 1 else (1042.9, 1050.0, 1050.0)[min(applied[0], 2)]

    monkeypatch.setattr(State, "apply", counting)
    monkeypatch.setattr("engine.cli.play.now", now)
    record = tmp_path / "timed.json"
    result = runner.invoke(app, ["play", "klondike/windows", "--with", "timed", "--seed", "3",
                                 "--record", str(record)], input="deal\ndeal\nquit\n")
    assert result.exit_code == 0, result.output
    assert "time 42 s" in result.output  # the status line shows the clock
    seconds = [m["seconds"] for m in json.loads(record.read_text())["moves"]]
    assert seconds == [42, 50]  # int(1042.9 - 1000), int(1050 - 1000)
    assert runner.invoke(app, ["replay", str(record)]).exit_code == 0


def test_a_ruleset_without_a_clock_gets_no_seconds(tmp_path):
    record = tmp_path / "plain.json"
    result = runner.invoke(app, ["play", "klondike/windows", "--seed", "3", "--record",
                                 str(record)], input="deal\nquit\n")
    assert result.exit_code == 0 and "time " not in result.output
    assert "seconds" not in json.loads(record.read_text())["moves"][0]


def test_simulate_steps_the_clock_and_its_records_replay(tmp_path):
    folder = tmp_path / "records"
    result = runner.invoke(app, ["simulate", "klondike/windows", "--with", "timed", "--games",
                                 "2", "--agents", "greedy", "--seconds-per-move", "10",
                                 "--record", f"{folder}/", "--json"])
    assert result.exit_code == 0, result.output
    for path in sorted(folder.glob("*.json")):
        moves = json.loads(path.read_text())["moves"]
        assert [m["seconds"] for m in moves] == [10 * (k + 1) for k in range(len(moves))]
        assert runner.invoke(app, ["replay", str(path)]).exit_code == 0
    # 250 moves (the cap) at 10 s: 2,500 s, 250 ticks of -2, never below 0; untimed, the
    # same moves keep their points
    timed = [row["scores"][0] for row in json.loads(result.output)["rows"]]
    plain = runner.invoke(app, ["simulate", "klondike/windows", "--with", "timed", "--games",
                                "2", "--agents", "greedy", "--json"])
    untimed = [row["scores"][0] for row in json.loads(plain.output)["rows"]]
    assert timed == [max(0, s - 500) for s in untimed]


def test_simulate_refuses_a_clock_it_cannot_pass_on():
    result = runner.invoke(app, ["simulate", "klondike/windows", "--games", "2",
                                 "--seconds-per-move", "3", "--coverage"])
    assert result.exit_code == 2 and "--seconds-per-move" in result.output


def test_the_web_session_measures_the_clock_and_undo_replays_the_readings(monkeypatch):
    ruleset, game, _ = compile_game("klondike/windows", ["timed"])
    now = [500.0]
    monkeypatch.setattr(sessions, "now", lambda: now[0])
    session = Session(Setup("klondike/windows", ["timed"], 1, 3, ["human"]), ruleset, game)
    session.start()
    session.started = 500.0
    now[0] = 512.5
    session.play("deal")
    now[0] = 530.0
    session.play("deal")
    assert [p.seconds for p in session.played] == [12, 30]
    session.undo()  # the first move is replayed at its own reading
    assert [e["seconds"] for e in session.state.history] == [12]
    assert session.undone[0]["moves"][0]["seconds"] == 30
