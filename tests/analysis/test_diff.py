"""`diff`: one sentence per kind of change, positions on both sides, games kept apart."""

import json

import pytest
from typer.testing import CliRunner

from engine.analysis.diff import diff_rulesets, format_text
from engine.analysis.refs import split_spec
from engine.cli import app
from engine.rules import load_ruleset

runner = CliRunner()
HEADER = "extends: triominos/pressman\nruleset: {game: triominos, title: House}\n"


@pytest.fixture(scope="module")
def base():
    return load_ruleset("triominos/pressman")


def house(tmp_path, body: str, name: str = "house.yaml"):
    path = tmp_path / name
    path.write_text(HEADER + body, encoding="utf-8")
    return path


def only_change(base, path):
    (change,) = diff_rulesets(base, load_ruleset(str(path))).changes
    return change


def test_a_number_changed(tmp_path, base):
    path = house(tmp_path, "scoring:\n  bridge:\n    points: 50\n")
    change = only_change(base, path)
    assert change.kind == "number"
    assert change.path == ("scoring", "bridge", "points")
    assert (change.a, change.b) == (40, 50)
    assert change.text == "The rule `bridge` (a bridge) scores 50 instead of 40."
    assert change.a_pos.path.endswith("pressman.yaml") and change.a_pos.line == base.where(
        "scoring", "bridge", "points").line
    assert (change.b_pos.path, change.b_pos.line) == (str(path), 5)


def test_an_expression_changed_shows_both_texts(tmp_path, base):
    path = house(tmp_path, "scoring:\n  hexagon:\n    points: 40 + 10 * move.hexagons\n")
    change = only_change(base, path)
    assert change.kind == "expression"
    assert change.text == ("The rule `hexagon` (completing a hexagon) scores "
                           "`40 + 10 * move.hexagons` instead of `50 * move.hexagons`.")


def test_a_condition_changed_on_an_action(tmp_path, base):
    path = house(tmp_path, "actions:\n  draw:\n    if: pool.count > 0\n")
    change = only_change(base, path)
    assert change.kind == "expression"
    assert change.text == ("The action `draw` is allowed when `pool.count > 0` instead of when "
                           "`not can_place and pool.count > 0`.")


def test_a_constant_condition_reads_never(tmp_path, base):
    path = house(tmp_path, "scoring:\n  stuck:\n    if: false\n")
    change = only_change(base, path)
    assert change.kind == "key_added"
    assert change.text.startswith("The rule `stuck` (unable to place with the well empty) never scores")


def test_a_list_changed_names_items_added_and_removed(tmp_path, base):
    path = house(tmp_path, "round:\n  end:\n    blocked:\n      winner: {lowest: [player.hand_value]}\n")
    change = only_change(base, path)
    assert change.kind == "list"
    assert change.path == ("round", "end", "blocked", "winner", "lowest")
    assert change.b == ["player.hand_value"]
    assert "(removes `player.hand_count`)" in change.text
    assert change.text.startswith("The round end `blocked`")


def test_a_rule_added(tmp_path, base):
    path = house(tmp_path, "scoring:\n  tip:\n    on: pass\n    points: 3\n    label: a tip\n")
    change = only_change(base, path)
    assert change.kind == "rule_added"
    assert change.b == {"on": "pass", "points": 3, "label": "a tip"}
    assert change.text == "B adds the rule `tip` (a tip): it is triggered by pass, scores 3."
    assert change.b_pos.line == 4
    assert change.a_pos == base.key_where("scoring")  # the section, for a rule A lacks


def test_a_rule_removed_and_the_reverse_direction(tmp_path, base):
    path = house(tmp_path, "scoring:\n  $delete: [draw_penalty]\n")
    change = only_change(base, path)
    assert change.kind == "rule_removed"
    assert change.text == ("B drops the rule `draw_penalty` (drawing a tile); in A it is "
                           "triggered by draw, scores -5.")
    (back,) = diff_rulesets(load_ruleset(str(path)), base).changes
    assert back.kind == "rule_added"


def test_a_key_removed(tmp_path, base):
    path = house(tmp_path, "setup:\n  hand_size: {$delete: [6]}\n")
    change = only_change(base, path)
    assert change.kind == "key_removed"
    assert change.path == ("setup", "hand_size", 6)
    assert change.text == "The setup: B drops `hand_size.6`; in A it deals hands of 6 with 6 players."


def test_a_section_field_and_a_word_value(tmp_path, base):
    path = house(tmp_path, "players: {max: 4}\nscoring:\n  stuck: {to: each}\n")
    texts = [c.text for c in diff_rulesets(base, load_ruleset(str(path))).changes]
    assert texts == [
        "A game takes at most 4 players instead of 6.",
        "The rule `stuck` (unable to place with the well empty) gives its points to each "
        "(A does not set `to`).",
    ]


def test_identical_rulesets(base):
    result = diff_rulesets(base, base)
    assert result.changes == [] and result.same_game
    assert "no rule differs" in format_text(result)


def test_overlays_inline_and_by_option(tmp_path, base):
    overlay = tmp_path / "ov.yaml"
    overlay.write_text("overlay: {game: triominos, title: Ov}\nscoring:\n  bridge: {points: 45}\n",
                       encoding="utf-8")
    assert split_spec(f"triominos/pressman+{overlay}") == ("triominos/pressman", [str(overlay)])
    by_spec = runner.invoke(app, ["diff", "triominos/pressman", f"triominos/pressman+{overlay}"])
    by_option = runner.invoke(app, ["diff", "triominos/pressman", "triominos/pressman",
                                    "--with-b", str(overlay)])
    assert by_spec.exit_code == by_option.exit_code == 0
    assert "scores 45 instead of 40." in by_spec.stdout
    assert by_option.stdout == by_spec.stdout
    assert f"B: {overlay}:3" in by_spec.stdout


def test_cli_json_shape(tmp_path):
    path = house(tmp_path, "scoring:\n  bridge:\n    points: 50\n")
    result = runner.invoke(app, ["diff", "triominos/pressman", str(path), "--json"])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["same_game"] is True and data["identical"] is False
    (change,) = data["changes"]
    assert change["kind"] == "number" and change["path"] == ["scoring", "bridge", "points"]
    assert (change["a"], change["b"]) == (40, 50)
    assert change["b_pos"] == {"path": str(path), "line": 5, "col": 13}
    assert set(data["a"]) >= {"id", "game", "hash", "overlays"}


def test_different_games_exit_1_unless_asked(tmp_path):
    text = load_ruleset("triominos/pressman").path.read_text(encoding="utf-8")
    other = tmp_path / "other.yaml"
    other.write_text(text.replace("game: triominos", "game: othergame"), encoding="utf-8")
    refused = runner.invoke(app, ["diff", "triominos/pressman", str(other)])
    assert refused.exit_code == 1
    assert "different games" in refused.stderr and "--across-games" in refused.stderr
    forced = runner.invoke(app, ["diff", "triominos/pressman", str(other), "--across-games"])
    assert forced.exit_code == 0 and "note: different games" in forced.stdout


def test_unknown_ruleset_is_a_usage_error():
    result = runner.invoke(app, ["diff", "triominos/pressman", "no/such"])
    assert result.exit_code == 2 and "R400" in result.stderr


def test_definitions_counters_and_booleans(tmp_path, base):
    path = house(tmp_path, "define:\n  big: move.value >= 10\ncounters: {streak: 0}\n"
                           "actions:\n  draw: {ends_turn: true}\n"
                           "scoring:\n  tile_value: {if: big}\n")
    changes = {c.path: c for c in diff_rulesets(base, load_ruleset(str(path))).changes}
    assert changes[("define", "big")].text == "B adds the definition `big`: it means `move.value >= 10`."
    assert changes[("counters", "streak")].text == "B adds the counter `streak`: it starts at 0."
    flag = changes[("actions", "draw", "ends_turn")]
    assert flag.kind == "value" and flag.text == "The action `draw` ends the turn: true instead of false."
    cond = changes[("scoring", "tile_value", "if")]
    assert cond.kind == "key_added"  # a one-word condition is still an expression
    assert cond.text == "The rule `tile_value` (the tile's value) scores only when `big` (A does not set `if`)."
