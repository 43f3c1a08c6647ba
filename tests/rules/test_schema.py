"""The JSON schemas: well-formed, documented, closed, covering the whole format; and the
mapping of schema errors to positioned diagnostics."""

import json
import tomllib
from pathlib import Path

import jsonschema
import pytest

from engine import paths
from engine.rules import check_ruleset
from engine.rules.overlay_schema import FILE_KEYS, overlay_schema, overlay_schema_text
from engine.rules.schema import load_schema
from engine.rules.yamlload import parse_text

ROOT = Path(__file__).resolve().parents[2]

TRIOLET = """\
ruleset: {game: triolet, title: "Triolet, printed rules", default: true}
players: {min: 2, max: 4, default: 2}
components:
  tokens:
    kind: numbered
    counts: {0: 9, 1: 9, 2: 8, 3: 8, 4: 7, 5: 8, 6: 6, 7: 6, 8: 4, 9: 4, 10: 3, 11: 3, 12: 2, 13: 2, 14: 1, 15: 1}
board:
  kind: square
  size: 15
  cell_defaults: {multiplier: 1, extra_turn: false, start: false}
  cells: {"2": {multiplier: 2}, "3": {multiplier: 3}, "B": {extra_turn: true}, "S": {multiplier: 2, start: true}}
  map: |
    . . . . . . . B . . . . . . .
zones: {pool: {name: bag}, hand: {name: rack, refill: true}}
setup: {hand_size: 3}
actions:
  place:
    kind: place
    count: {min: 1, max: 3}
    window: 3
    first_play: cover_start
    lines: {max_length: 3, sums: {2: {max: 15}, 3: {exact: 15}}}
    extra_turn: any(p.extra_turn for p in move.placed)
  exchange: {kind: exchange, max: 3, if: pool.count > 5}
  pass: {kind: pass, if: pool.count <= 5}
scoring:
  lines: {on: place, points: sum(if l.length == 3 then 30 else l.sum for l in move.lines)}
  lone_token: {on: place, if: len(move.lines) == 0, points: move.value}
  triolet: {on: place, if: move.count == 3, points: 50}
  going_out: {on: round_end, if: round.reason == "went_out", to: winner, points: sum(p.hand_value for p in opponents)}
round:
  end:
    went_out: {if: pool.count == 0 and player.hand_count == 0, winner: mover}
    all_passed: {if: round.passes_in_row >= players.count}
match: {end_if: true, winner: {highest: [player.score]}}
"""

TRIPEAKS = """\
ruleset: {game: tripeaks, title: "Tri Peaks, Aisleriot scoring", default: true}
players: {min: 1, max: 1, default: 1}
components: {cards: {kind: deck, ranks: 13, suits: [c, d, h, s]}}
board:
  kind: tableau
  rows:
    - [1.5, 4.5, 7.5]
    - [1, 2, 4, 5, 7, 8]
    - [0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5]
    - [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
  face_down_rows: [0, 1, 2]
  tags: {peak: [0, 1, 2]}
zones: {pool: {name: stock}, pile: {name: waste}}
setup: {deal: [{to: board}, {to: pile, count: 1}]}
counters: {run: 0, peaks: 0}
actions:
  play:
    kind: play
    if: abs(card.rank - pile.top.rank) == 1 or abs(card.rank - pile.top.rank) == 12
    then: {run: counters.run + 1, peaks: 'counters.peaks + (if "peak" in move.slot.tags then 1 else 0)'}
  deal: {kind: deal, if: pool.count > 0, then: {run: 0}}
scoring:
  card: {on: play, points: counters.run}
  peak: {on: play, if: '"peak" in move.slot.tags', points: if board.count == 0 then 30 else 15}
  deal_cost: {on: deal, points: '-min(5, player.score)'}  # quoted: a comma in {...}
round:
  end:
    cleared: {if: board.count == 0, winner: mover}
    stuck: {if: not can_play and not can_deal}
match: {end_if: true}
"""


def _walk(schema, where="#"):
    """Every subschema with its location."""
    if isinstance(schema, dict):
        yield where, schema
        for key, value in schema.items():
            if isinstance(value, dict):
                yield from _walk(value, f"{where}/{key}")
            elif isinstance(value, list):
                for i, item in enumerate(value):
                    yield from _walk(item, f"{where}/{key}/{i}")


@pytest.mark.parametrize("kind", ["ruleset", "overlay"])
def test_schema_is_draft_2020_12_with_id_descriptions_and_closed_objects(kind):
    schema = load_schema(kind)
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"].endswith(f"/{kind}.schema.json")
    for where, sub in _walk(schema):
        if "/if" in where or "/then" in where:
            continue  # conditions that restrict by kind, not documentation
        for name, prop in sub.get("properties", {}).items():
            if isinstance(prop, dict):
                assert prop.get("description"), f"{where}/properties/{name} has no description"
        types = sub.get("type")
        types = types if isinstance(types, list) else [types]
        if "object" in types:
            assert sub.get("additionalProperties") is False, f"{where} is not closed"
    assert (paths.schemas_dir() / f"{kind}.schema.json").is_file()


@pytest.mark.parametrize("text", [TRIOLET, TRIPEAKS], ids=["triolet", "tripeaks"])
def test_the_other_games_sketches_fit_the_schema(text, tmp_path):
    doc = parse_text(text, "sketch.yaml")
    assert doc.diagnostics == []
    data = json.loads(json.dumps(doc.data))  # keys as strings, as the schema sees them
    errors = list(jsonschema.Draft202012Validator(load_schema("ruleset")).iter_errors(data))
    assert [e.message for e in errors] == []


def test_every_error_is_reported_at_its_key_or_value(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(
        "extends: triominos/pressman\n"
        "ruleset: {game: triominos, title: Bad}\n"
        "players: {min: 0, maxx: 3}\n"
        "board: {kind: square, rows: [[1]]}\n"
        "scoring:\n  hexagon: {to: everyone, points: [1]}\n",
        encoding="utf-8",
    )
    _, diags = check_ruleset(str(path))
    got = {(d.code, d.pos.line, d.pos.col, d.help) for d in diags}
    # columns counted by hand in the text above
    assert ("S203", 3, 16, None) in got                      # min: 0
    assert ("S200", 3, 19, "did you mean `max`?") in got     # maxx
    assert ("S200", 4, 23, "remove it, or change the kind") in got   # rows on a square board
    assert ("S204", 6, 17, None) in got                      # to: everyone
    assert ("S201", 6, 35, None) in got                      # points: a list


def test_a_comma_in_a_flow_mapping_gets_a_hint(tmp_path):
    path = tmp_path / "comma.yaml"
    path.write_text("extends: triominos/pressman\nruleset: {game: triominos, title: Comma}\n"
                    "scoring:\n  cost: {on: draw, points: -min(5, player.score)}\n", encoding="utf-8")
    _, diags = check_ruleset(str(path))
    (d,) = [d for d in diags if d.code == "S200"]
    assert "player.score)" in d.message and "quote" in d.help


def test_extends_in_an_overlay_says_overlays_have_none(tmp_path):
    from engine.rules.lint import lint_file

    path = tmp_path / "ov.yaml"
    path.write_text("overlay: {game: triominos, title: O}\nextends: triominos/pressman\n"
                    "players: {max: 3}\n", encoding="utf-8")
    (d,) = [d for d in lint_file(path) if d.code == "S200"]
    assert (d.message, d.pos.line, d.pos.col) == ("an overlay has no `extends`", 2, 1)
    assert "write a ruleset with `extends:`" in d.help


def test_a_quoted_number_is_told_to_lose_its_quotes(tmp_path):
    path = tmp_path / "quoted.yaml"
    path.write_text("extends: triominos/pressman\nruleset: {game: triominos, title: Q}\n"
                    "players: {min: \"2\"}\n", encoding="utf-8")
    (d,) = [d for d in check_ruleset(str(path))[1] if d.code == "S201"]
    assert (d.pos.line, d.pos.col, d.help) == (3, 16, "remove the quotes: 2")


def test_a_name_where_a_mapping_goes_is_told_the_keys_it_takes(tmp_path):
    path = tmp_path / "named.yaml"
    path.write_text("ruleset: my-variant\nextends: triominos/pressman\n", encoding="utf-8")
    (d,) = [d for d in check_ruleset(str(path))[1] if d.code == "S201"]
    assert (d.pos.line, d.pos.col) == (1, 10)
    assert d.message == '`ruleset` must be a mapping, not the string "my-variant"'
    assert d.help.startswith("write its keys under it, one a line, indented: `game`, `title`")
    assert "$delete" not in d.help


def test_missing_keys_of_a_complete_ruleset(tmp_path):
    path = tmp_path / "thin.yaml"
    path.write_text("ruleset: {game: thin, title: Thin}\nplayers: {min: 1}\n", encoding="utf-8")
    _, diags = check_ruleset(str(path))
    missing = sorted(d.message.split("`")[1] for d in diags if d.code == "S202")
    assert missing == ["actions", "board", "components", "match", "max", "round", "scoring"]


def test_shipped_rulesets_name_their_schema_for_editors():
    for path in sorted(paths.rulesets_dir().rglob("*.yaml")):
        first = path.read_text(encoding="utf-8").splitlines()[0]
        kind = "overlay" if path.parent.name == "overlays" else "ruleset"
        assert first.startswith("# yaml-language-server: $schema="), path
        target = (path.parent / first.split("=", 1)[1].strip()).resolve()
        assert target == (paths.schemas_dir() / f"{kind}.schema.json").resolve(), path


def test_wheel_carries_rulesets_and_schemas():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    include = config["tool"]["hatch"]["build"]["targets"]["wheel"]["force-include"]
    assert include["rulesets"] == "engine/_data/rulesets"
    assert include["schemas"] == "engine/_data/schemas"
    # engine.paths looks exactly there inside an installed package
    assert paths._data_dir("schemas") == ROOT / "schemas" or paths._data_dir("schemas").parts[-2:] == (
        "_data", "schemas")


def test_the_committed_overlay_schema_is_the_derived_one():
    committed = (paths.schemas_dir() / "overlay.schema.json").read_text(encoding="utf-8")
    assert committed == overlay_schema_text(load_schema("ruleset")), (
        "schemas/overlay.schema.json differs from its derivation from ruleset.schema.json:"
        " run `rulecraft schema --overlay --write`")
    assert load_schema("overlay") == json.loads(committed)


def test_the_overlay_schema_is_the_rulesets_sections_under_an_overlay_header():
    ruleset, overlay = load_schema("ruleset"), load_schema("overlay")
    assert "generated" in overlay["$comment"].lower() and "--write" in overlay["$comment"]
    assert overlay["required"] == ["overlay"] and "allOf" not in overlay
    assert overlay["properties"]["overlay"]["$ref"] == "#/$defs/overlay_header"
    sections = [k for k in ruleset["properties"] if k != "ruleset" and k not in FILE_KEYS]
    assert list(overlay["properties"]) == ["overlay", *sections]
    for key in sections:  # each section, with `$delete`, the ruleset's own
        assert overlay["properties"][key] == ruleset["properties"][key], key
    for name, definition in overlay["$defs"].items():
        assert definition == ruleset["$defs"][name], name
    assert set(ruleset["$defs"]) - set(overlay["$defs"]) == {"header", "complete"}


def test_the_derivation_is_general():
    """A made-up ruleset schema: a new section is an overlay's too, the root's required
    sections and conditions are not, and unused definitions go."""
    source = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://example.org/ruleset.schema.json", "title": "T", "type": "object",
        "properties": {"ruleset": {"$ref": "#/$defs/header"}, "extends": {"type": "string"},
                       "tokens": {"$ref": "#/$defs/tokens"}},
        "additionalProperties": False, "required": ["ruleset", "tokens"],
        "allOf": [{"$ref": "#/$defs/complete"}],
        "$defs": {"header": {"type": "object"}, "complete": {"required": ["tokens"]},
                  "tokens": {"type": "object", "properties": {"n": {"$ref": "#/$defs/count"}}},
                  "count": {"type": "integer"}, "unused": {"type": "string"},
                  "overlay_header": {"type": "object", "description": "An overlay's header."}},
    }
    derived = overlay_schema(source)
    assert derived["$id"] == "https://example.org/overlay.schema.json"
    assert list(derived["properties"]) == ["overlay", "tokens"]
    assert derived["required"] == ["overlay"]
    assert list(derived["$defs"]) == ["tokens", "count", "overlay_header"]
    assert "allOf" not in derived and source["allOf"]  # the source is left as it was
