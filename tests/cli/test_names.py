"""`rulecraft names`: the names an author may use in each place of a ruleset."""

import json

from typer.testing import CliRunner

from engine.cli import app

runner = CliRunner()


def test_place_lists_the_board_kinds_measures():
    result = runner.invoke(app, ["names", "triominos", "--on", "place"])
    assert result.exit_code == 0, result.output
    assert "card, piece, tile, token: piece" in result.output
    record = next(l for l in result.output.splitlines() if "record place_move:" in l)
    for field in ("hexagons int", "bridges int", "edges int", "opening bool", "value int"):
        assert field in record


def test_json_names_and_records_per_place():
    result = runner.invoke(app, ["names", "tripeaks", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert set(data) == {"everywhere", "play", "deal", "opening"}
    assert data["everywhere"]["names"]["counters"] == "counters"
    assert data["everywhere"]["records"]["counters"] == {"peaks": "int", "run": "int"}
    assert data["play"]["records"]["slot"]["tags"] == "list[str]"
    assert "move" not in data["deal"]["names"]  # a deal concerns no piece of the board


def test_unknown_place_is_a_usage_error():
    result = runner.invoke(app, ["names", "triolet", "--on", "nowhere"])
    assert result.exit_code == 2
    assert "places: everywhere, place, exchange, pass, opening" in result.output


def test_unknown_ruleset_exits_with_its_diagnostic():
    result = runner.invoke(app, ["names", "nosuchgame"])
    assert result.exit_code != 0
    assert "R40" in result.output


def test_exit_2_for_a_reference_to_nothing_and_1_for_a_broken_ruleset(tmp_path):
    assert runner.invoke(app, ["names", "nosuchgame"]).exit_code == 2  # as `show`
    assert runner.invoke(app, ["names", "triominos", "--with", "nope"]).exit_code == 2
    broken = tmp_path / "broken.yaml"
    broken.write_text("extends: triominos/pressman\nruleset: {game: triominos, title: B}\n"
                      "players: {mx: 3}\n")
    result = runner.invoke(app, ["names", str(broken)])
    assert result.exit_code == 1 and "S200" in result.output
