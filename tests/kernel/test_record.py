"""Records: written, read back and replayed exactly; damaged ones give K5xx errors."""

from __future__ import annotations

import json

import pytest

from engine.diagnostics import RulecraftError
from engine.kernel.record import dumps, load_record, make_record, replay_record, save_record
from engine.players.agents import RandomAgent, play_out
from tests.kernel.helpers import game


def _played(g, seed=5, players=2):
    agents = [RandomAgent(seed * 10 + s) for s in range(players)]
    return play_out(g.new_game(players, seed), agents)


def _write(tmp_path, g, state, name="rec.json"):
    path = tmp_path / name
    save_record(path, make_record(state, "linegame/line", [], "h1", ["random", "random"]))
    return path


def test_a_record_replays_to_the_same_scores(tmp_path):
    g = game("line")
    state = _played(g)
    loaded = load_record(_write(tmp_path, g, state))
    result = replay_record(loaded, g, "h1")
    assert result.state.scores == state.scores and not result.problems
    assert result.state.history == state.history
    # the chance outcomes alone replay it: a different seed gives the same game
    loaded.data["seed"] = 999
    assert replay_record(loaded, g, "h1").state.scores == state.scores


def test_one_move_per_line(tmp_path):
    g = game("line")
    state = _played(g)
    text = dumps(make_record(state, "x", [], "h", []))
    assert len([line for line in text.splitlines() if '{"move"' in line]) == len(state.history)
    json.loads(text)


def _code(excinfo) -> str:
    return excinfo.value.diagnostics[0].code


def test_a_changed_ruleset_stops_unless_rescored(tmp_path):
    g = game("line")
    state = _played(g)
    loaded = load_record(_write(tmp_path, g, state))
    with pytest.raises(RulecraftError) as exc:
        replay_record(loaded, g, "other-hash")
    assert _code(exc) == "K503"
    # under rules where going out is worth more, the same moves score differently
    richer = game("line", {"points: 10 + hand_total": "points: 20 + hand_total"})
    result = replay_record(loaded, richer, "other-hash", rescore=True)
    assert result.changed and not result.problems
    assert result.state.history[0]["move"] == state.history[0]["move"]


def test_rescore_reports_moves_no_longer_legal(tmp_path):
    g = game("line")
    state = _played(g)
    loaded = load_record(_write(tmp_path, g, state))
    strict = game("line", {"if: move.diff <= 1": "if: move.diff == 0 or move.opening"})
    result = replay_record(loaded, strict, "other", rescore=True)
    assert result.problems and result.problems[0].code == "K504"
    assert result.problems[0].pos.line > 1


@pytest.mark.parametrize("edit,code", [
    (lambda t: t[: len(t) // 2], "K501"),
    (lambda t: t.replace('"rulecraft-record"', '"other"'), "K501"),
    (lambda t: t.replace('"seed": 5', '"seed": "five"'), "K502"),
    (lambda t: t.replace('{"move": "', '{"mvoe": "', 1), "K502"),
])
def test_damaged_records_are_named(tmp_path, edit, code):
    g = game("line")
    path = _write(tmp_path, g, _played(g))
    path.write_text(edit(path.read_text()))
    with pytest.raises(RulecraftError) as exc:
        load_record(path)
    assert _code(exc) == code


def test_hand_edited_moves_and_scores_are_caught(tmp_path):
    g = game("line")
    state = _played(g)
    path = _write(tmp_path, g, state)
    data = json.loads(path.read_text())
    data["moves"][3]["scores"][0] += 1
    path.write_text(dumps(data))
    with pytest.raises(RulecraftError) as exc:
        replay_record(load_record(path), g, "h1")
    assert _code(exc) == "K505" and "moves[3]" in str(exc.value)
    line = path.read_text().splitlines()[exc.value.diagnostics[0].pos.line - 1]
    assert json.loads(line.rstrip(","))["move"] == data["moves"][3]["move"]
    data["moves"][3]["scores"][0] -= 1
    data["moves"][2]["move"] = "jump"
    path.write_text(dumps(data))
    with pytest.raises(RulecraftError) as exc:
        replay_record(load_record(path), g, "h1")
    assert _code(exc) == "K504"
    data["moves"][2]["move"] = state.history[2]["move"]
    data["setup"][0] = data["setup"][0][:-1]
    path.write_text(dumps(data))
    with pytest.raises(RulecraftError) as exc:
        replay_record(load_record(path), g, "h1")
    assert _code(exc) == "K506"


def _line_of(path, pos) -> str:
    assert pos.path == str(path)
    return path.read_text().splitlines()[pos.line - 1][pos.col - 1:]


def test_k503_and_k506_point_at_the_ruleset_and_setup_lines(tmp_path):
    g = game("line")
    path = _write(tmp_path, g, _played(g))
    with pytest.raises(RulecraftError) as exc:
        replay_record(load_record(path), g, "other-hash")
    (diag,) = exc.value.diagnostics
    assert diag.code == "K503" and _line_of(path, diag.pos).startswith('"ruleset": {')
    data = json.loads(path.read_text())
    data["setup"][0] = data["setup"][0][:-1]
    path.write_text(dumps(data))
    with pytest.raises(RulecraftError) as exc:
        replay_record(load_record(path), g, "h1")
    (diag,) = exc.value.diagnostics
    assert diag.code == "K506" and _line_of(path, diag.pos).startswith('"setup": [')


def test_a_damaged_field_points_at_its_line(tmp_path):
    g = game("line")
    path = _write(tmp_path, g, _played(g))
    path.write_text(path.read_text().replace('"seed": 5', '"seed": "five"'))
    with pytest.raises(RulecraftError) as exc:
        load_record(path)
    assert _line_of(path, exc.value.diagnostics[0].pos).startswith('"seed": "five"')


def test_a_changed_ruleset_suggests_a_command_that_has_the_option(tmp_path):
    # `explain` replays a record too, but has no --rescore: name the command that has it.
    g = game("line")
    path = _write(tmp_path, g, _played(g))
    with pytest.raises(RulecraftError) as exc:
        replay_record(load_record(path), g, "other-hash")
    assert f"rulecraft replay {path} --rescore" in exc.value.diagnostics[0].help



def test_an_exchange_replays_any_recorded_order_of_the_pool():
    # An exchange records the pool's whole new order, first drawn first. A record made
    # when exchanges reshuffled the whole pool holds some other order of the same pieces:
    # replaying follows whichever order is recorded.
    g = game("refill")
    state = _played(g, seed=3)
    history = state.history
    at = next(i for i, m in enumerate(history) if m["move"].startswith("exchange"))
    (order,) = history[at]["chances"]
    before = list(state.setup_chances) + [c for m in history[:at] for c in m["chances"]]
    given_back = len(history[at]["move"].split()) - 1
    for recorded in (order, order[::-1]):
        replay = g.new_game(2, 12345, chances=before + [recorded])
        for entry in history[:at]:
            replay.apply(entry["move"])
        seat = replay.to_move
        replay.apply(history[at]["move"])
        assert [p.uid for p in replay.hands[seat]][-given_back:] == recorded[:given_back]
        assert [p.uid for p in reversed(replay.pool)] == recorded[given_back:]


def test_undone_moves_are_kept_apart_and_replay_reads_the_kept_line(tmp_path):
    g = game("line")
    state = _played(g)
    taken_back = [{"move": "pass", "chances": [], "scores": [0, 0]}]
    record = make_record(state, "linegame/line", [], "h1", [], undone=[
        {"after": 1, "moves": taken_back}])
    assert record["undone"] == [{"after": 1, "moves": taken_back}]
    path = tmp_path / "undone.json"
    save_record(path, record)
    result = replay_record(load_record(path), g, "h1")
    assert result.state.scores == state.scores and not result.problems
    assert "undone" not in make_record(state, "x")  # an old-style record has none
    record["undone"] = [{"after": "one", "moves": []}]
    save_record(path, record)
    with pytest.raises(RulecraftError) as exc:
        load_record(path)
    assert _code(exc) == "K502" and "undone[0]" in exc.value.diagnostics[0].message
