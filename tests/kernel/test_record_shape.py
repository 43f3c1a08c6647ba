"""issue 16 items 1-3: a damaged record is a K5xx diagnostic naming the field, from
`replay` and `explain` alike (exit 1), never a traceback."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from engine.cli import app
from engine.diagnostics import RulecraftError
from engine.kernel.record import load_record

runner = CliRunner()


@pytest.fixture(scope="module")
def good(tmp_path_factory) -> dict:
    """A real record of one seeded Tri Peaks game."""
    path = tmp_path_factory.mktemp("rec") / "good.json"
    result = runner.invoke(app, ["simulate", "tripeaks", "--games", "1", "--seed", "3",
                                 "--record", str(path)])
    assert result.exit_code == 0, result.output
    return json.loads(path.read_text(encoding="utf-8"))


def _damaged(tmp_path, good: dict, change) -> str:
    data = json.loads(json.dumps(good))
    change(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def _codes(path) -> list[tuple[str, str]]:
    with pytest.raises(RulecraftError) as exc:
        load_record(path)
    return [(d.code, d.message) for d in exc.value.diagnostics]


def _set(*path_and_value):
    *path, value = path_and_value

    def change(data):
        for key in path[:-1]:
            data = data[key]
        data[path[-1]] = value
    return change


@pytest.mark.parametrize("change, field", [
    (_set("ruleset", "overlays", [1]), "`ruleset.overlays[0]` must be a string"),
    (_set("ruleset", "overlays", [None]), "`ruleset.overlays[0]` must be a string"),
    (_set("ruleset", "ref", 7), "`ruleset.ref` must be a string"),
    (_set("final", []), "`final` must be a mapping or null, found a list"),
    (_set("final", "x"), "`final` must be a mapping or null, found a string"),
    (_set("ruleset", "id", "x" * 300), "`ruleset.id` must be at most 255 characters"),
    (_set("moves", 0, "scores", [True]), "`moves[0].scores[0]` must be an integer"),
    (_set("moves", 0, "extra", 1), "`moves[0].extra` is not a field of a record"),
], ids=["overlay-int", "overlay-null", "ref-int", "final-list", "final-str", "long-id",
        "bool-score", "extra-field"])
def test_a_wrong_field_is_k502_naming_it(tmp_path, good, change, field):
    (code, message), *_ = _codes(_damaged(tmp_path, good, change))
    assert code == "K502" and message.startswith(field), message


def test_the_field_is_located_on_its_line(tmp_path, good):
    from engine.kernel.record import dumps

    data = json.loads(json.dumps(good))
    data["moves"][2]["scores"] = "x"
    path = tmp_path / "bad.json"
    path.write_text(dumps(data), encoding="utf-8")
    with pytest.raises(RulecraftError) as exc:
        load_record(path)
    # dumps writes 9 lines of header (`{`, format, version, ruleset, seed, players, agents,
    # setup, `"moves": [`), then one move a line: moves[2] is on line 9 + 3
    assert exc.value.diagnostics[0].pos.line == 9 + 3


@pytest.mark.parametrize("text, code", [
    ('{"format": "rulecraft-record", "version": true}', "K501"),
    ('{"format": "rulecraft-record", "format": "rulecraft-record", "version": 1}', "K507"),
    ('{"format": "rulecraft-record", "version": 1, "seed": ' + "9" * 5000 + "}", "K509"),
    ("[" * 100_000, "K509"),
    ("[" * 500 + "]" * 500, "K509"),
    ('{"format": "rulecraft-record", "version": 1, "seed": NaN}', "K501"),
], ids=["version-true", "duplicate-key", "5000-digits", "deep-100000", "deep-500", "nan"])
def test_text_limits(tmp_path, text, code):
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    assert _codes(path)[0][0] == code


def test_unused_chance_outcomes_are_refused(tmp_path, good):
    path = _damaged(tmp_path, good, lambda d: d["moves"][-1]["chances"].append([0, 1, 2]))
    result = runner.invoke(app, ["replay", path])
    assert result.exit_code == 1
    assert "K508" in result.output and "left over" in result.output


@pytest.mark.parametrize("command", ["replay", "explain"])
@pytest.mark.parametrize("change", [
    _set("ruleset", "overlays", [1]), _set("final", []), _set("ruleset", "ref", 7)],
    ids=["overlays", "final", "ref"])
def test_commands_report_and_exit_1(tmp_path, good, command, change):
    result = runner.invoke(app, [command, _damaged(tmp_path, good, change)])
    assert result.exit_code == 1, result.output
    assert "K502" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("command", ["replay", "explain"])
def test_deep_nesting_and_non_utf8(tmp_path, command):
    deep = tmp_path / "deep.json"
    deep.write_text('{"format": "rulecraft-record", "x": ' + "[" * 100_000, encoding="utf-8")
    result = runner.invoke(app, [command, str(deep)])
    assert result.exit_code == 1, result.output
    latin = tmp_path / "latin.json"
    latin.write_bytes(b'{"format": "rulecraft-record", "t": "caf\xe9"}')
    result = runner.invoke(app, [command, str(latin)])
    assert result.exit_code in (1, 2) and "internal error" not in result.output, result.output


def test_schema_record_prints_the_schema():
    result = runner.invoke(app, ["schema", "--record"])
    assert result.exit_code == 0
    schema = json.loads(result.output)
    assert schema["properties"]["format"] == {"const": "rulecraft-record"}


@pytest.mark.parametrize("text, words, where", [
    ('{"format": }', "a value (a number, string, list or object) is missing here", ":1:12"),
    ('{"format": "rulecraft-record"} x', "there is more text after the record's closing brace",
     ":1:32"),
    ('{"format": "rulecraft-record" "version": 1}', "a comma is missing between two items",
     ":1:31"),
], ids=["missing-value", "extra-data", "missing-comma"])
def test_bad_json_is_said_in_our_words_at_its_place(tmp_path, text, words, where):
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 1
    assert f"bad.json{where}" in result.output and words in result.output, result.output
    assert "Expecting" not in result.output and "Extra data" not in result.output
