"""The clock: seconds of play that the front end supplies (`State.set_clock`), read as
`clock.seconds`, kept in records move by move and replayed with them; records without
seconds (older ones) still load, the clock reading 0."""

from __future__ import annotations

import json

import pytest

from engine.diagnostics import RulecraftError
from engine.kernel.record import load_record, make_record, replay_record, save_record
from engine.players.agents import RandomAgent, play_out
from tests.kernel.helpers import diagnose, game

# The test line game, its `value` rule paying one more point per full 10 seconds.
TIMED = {"value: {on: place, points: move.value,":
         "value: {on: place, points: move.value + clock.seconds // 10,"}


def _played(g, seconds_per_move=0, seed=5):
    agents = [RandomAgent(seed * 10 + s) for s in range(2)]
    return play_out(g.new_game(2, seed), agents, seconds_per_move=seconds_per_move)


def _record(tmp_path, state, name="rec.json"):
    path = tmp_path / name
    save_record(path, make_record(state, "linegame/line", [], "h1", ["random", "random"]))
    return path


def test_a_rule_reads_the_seconds_the_front_end_set():
    g = game("line", TIMED)
    assert g.model.reads_clock and not game("line").model.reads_clock
    state = g.new_game(2, 5)
    move = next(m for m in state.legal_moves() if m.action == "place")
    value = sum(e.points for e in state.preview(move)[0] if e.rule == "value")
    state.set_clock(25)  # two full 10 seconds: +2 on the same move
    events = state.apply(move.text)
    assert sum(e.points for e in events if e.rule == "value") == value + 2


def test_each_move_keeps_its_reading_and_a_replay_scores_the_same(tmp_path):
    g = game("line", TIMED)
    state = _played(g, seconds_per_move=7)
    history = state.history
    # move k (from 1) is made at 7k seconds
    assert [entry["seconds"] for entry in history] == [7 * (k + 1) for k in range(len(history))]
    loaded = load_record(_record(tmp_path, state))
    again = replay_record(loaded, g, "h1").state
    assert again.scores == state.scores and again.history == history
    # the same moves at other times score otherwise: the recorded seconds matter
    assert state.scores != _played(g).scores


def test_a_record_with_a_changed_reading_is_a_score_mismatch(tmp_path):
    g = game("line", TIMED)
    state = _played(g, seconds_per_move=7)
    data = make_record(state, "linegame/line", [], "h1", [])
    first_place = next(i for i, m in enumerate(data["moves"]) if m["move"].startswith("place"))
    for entry in data["moves"][first_place:]:
        entry["seconds"] += 100  # ten more points on every later place
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(data))
    with pytest.raises(RulecraftError) as exc:
        replay_record(load_record(path), g, "h1")
    assert exc.value.diagnostics[0].code == "K505"


def test_records_without_seconds_load_and_the_clock_reads_0(tmp_path):
    g = game("line", TIMED)
    state = _played(g)  # the clock never set: the record writes no seconds
    assert all("seconds" not in entry for entry in state.history)
    again = replay_record(load_record(_record(tmp_path, state)), g, "h1").state
    assert again.clock.seconds == 0 and again.scores == state.scores


@pytest.mark.parametrize("value, words", [(-1, "at least 0"), ("12", "an integer"),
                                          (1.5, "an integer")])
def test_a_bad_reading_in_a_record_is_named(tmp_path, value, words):
    g = game("line", TIMED)
    data = make_record(_played(g, seconds_per_move=3), "linegame/line", [], "h1", [])
    data["moves"][0]["seconds"] = value
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(RulecraftError) as exc:
        load_record(path)
    diag = exc.value.diagnostics[0]
    assert diag.code == "K502" and "moves[0].seconds" in diag.message and words in diag.message


def test_the_clock_is_typed_by_lint():
    problems = diagnose("line", {"move.value,": "move.value + clock.minutes,"})
    assert any("minutes" in p.message and p.code.startswith("E3") for p in problems), problems
    problems = diagnose("line", {"move.value,": "move.value + (clock.seconds == 1),"})
    assert any(p.code.startswith("E3") for p in problems), problems


def test_a_reading_is_whole_seconds_from_0():
    state = game("line", TIMED).new_game(2, 5)
    for bad in (-1, 2.5, "3"):
        with pytest.raises(ValueError, match="whole seconds"):
            state.set_clock(bad)


def test_undoing_to_a_clone_keeps_the_readings_of_its_moves():
    g = game("line", TIMED)
    state = g.new_game(2, 5)
    state.set_clock(4)
    state.apply(state.legal_moves()[0])
    before = state.clone()
    state.set_clock(90)
    state.apply(state.legal_moves()[0])
    assert [e["seconds"] for e in state.history] == [4, 90]
    assert [e["seconds"] for e in before.history] == [4] and before.clock.seconds == 4
