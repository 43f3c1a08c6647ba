"""The rules commands through typer's CliRunner: exit codes and output formats."""

import json

import yaml
from typer.testing import CliRunner

from engine import paths
from engine.cli import app

runner = CliRunner()
HEADER = "extends: triominos/pressman\nruleset: {game: triominos, title: House}\n"


def run(*args):
    return runner.invoke(app, list(args))


def test_lint_shipped_rulesets_is_clean():
    result = run("lint", str(paths.rulesets_dir()))
    assert result.exit_code == 0, result.stdout + result.stderr
    assert result.stdout == ""


def test_lint_text_format_and_exit_1(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(HEADER + "players: {maxx: 4}\n", encoding="utf-8")
    result = run("lint", str(bad))
    assert result.exit_code == 1
    assert f"{bad}:3:11: error[S200] unknown key `maxx` in `players`" in result.stdout
    assert "  help: did you mean `max`?" in result.stdout


def test_lint_json_and_github_formats(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(HEADER + "players: {min: 0}\n", encoding="utf-8")
    result = run("lint", "--format", "json", str(bad))
    assert result.exit_code == 1
    # min 0 is below 1 (S203), in bad.yaml where `min: 0` is written; lint builds no model
    # after a range error (as simulate refuses it), so no model check follows it
    found = {e["code"]: e for e in json.loads(result.stdout) if e["path"] == str(bad)}
    assert set(found) == {"S203"}
    entry = found["S203"]
    assert (entry["code"], entry["line"], entry["col"], entry["severity"]) == ("S203", 3, 16, "error")
    result = run("lint", "--format", "github", str(bad))
    assert result.exit_code == 1
    assert result.stdout.startswith("::error file=") and ",line=3,col=16,title=S203 out-of-range::" in result.stdout


def test_lint_warnings_pass_unless_strict(tmp_path):
    same = tmp_path / "same.yaml"
    same.write_text(HEADER + "players: {max: 6}\n", encoding="utf-8")
    assert run("lint", str(same)).exit_code == 0
    result = run("lint", "--strict", str(same))
    assert result.exit_code == 1 and "[R404]" in result.stdout


def test_lint_usage_errors_exit_2(tmp_path):
    assert run("lint", str(tmp_path / "missing.yaml")).exit_code == 2
    assert run("lint").exit_code == 2
    (tmp_path / "no-rulesets").mkdir()
    (tmp_path / "no-rulesets" / "notes.txt").write_text("not a ruleset\n")
    result = run("lint", str(tmp_path / "no-rulesets"))
    assert result.exit_code == 2 and "no .yaml or .yml file under" in result.stderr
    assert run("lint", "--format", "xml", str(paths.rulesets_dir())).exit_code == 2


def test_lint_with_overlay(tmp_path):
    overlay = tmp_path / "six.yaml"
    overlay.write_text("overlay: {game: triominos, title: Six}\nplayers: {max: 6}\n", encoding="utf-8")
    result = run("lint", "--strict", "--with", str(overlay), str(paths.rulesets_dir() / "triominos/pressman.yaml"))
    assert result.exit_code == 1 and "six.yaml:2:16: error[R404]" in result.stdout


def test_rulesets_table_and_json():
    result = run("rulesets")
    assert result.exit_code == 0
    header, *rows = result.stdout.splitlines()
    assert header.split() == ["ID", "GAME", "TITLE", "BASE", "OVERLAYS", "ORIGIN"]
    assert any(r.startswith("triominos/pressman *") for r in rows)
    data = json.loads(run("rulesets", "--json").stdout)
    (entry,) = [r for r in data["rulesets"] if r["id"] == "triominos/pressman"]
    assert entry == {"id": "triominos/pressman", "game": "triominos", "title": "Tri-Ominos, Pressman rules",
                     "base": None, "overlays": [], "default": True, "origin": "shipped"}
    assert isinstance(data["overlays"], list)


def test_show_prints_resolved_yaml_and_provenance(tmp_path):
    result = run("show", "triominos")
    assert result.exit_code == 0
    data = yaml.safe_load(result.stdout)
    assert data["players"] == {"min": 2, "max": 6, "default": 2}
    assert data["scoring"]["hexagon"]["on"] == "place"  # `on` stays a key, not `True`
    child = tmp_path / "house.yaml"
    child.write_text(HEADER + "players: {max: 4}\n", encoding="utf-8")
    result = run("show", "--provenance", str(child))
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert any(l.strip().startswith("max: 4  # ") and l.endswith("house.yaml:3") for l in lines)
    assert any(l.strip().startswith("min: 2  # ") and l.endswith("pressman.yaml:13") for l in lines)


def test_show_bad_refs_exit_2_or_1(tmp_path):
    result = run("show", "triominos/presman")
    assert result.exit_code == 2 and "did you mean `triominos/pressman`?" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    assert run("show", "triominos", "--with", "nope").exit_code == 2
    broken = tmp_path / "broken.yaml"
    broken.write_text(HEADER + "players: {max: 0}\n", encoding="utf-8")
    result = run("show", str(broken))
    assert result.exit_code == 1 and "[S203]" in result.stderr


def test_schema_command():
    ruleset = json.loads(run("schema").stdout)
    overlay = json.loads(run("schema", "--overlay").stdout)
    assert ruleset["$id"].endswith("ruleset.schema.json")
    assert overlay["$id"].endswith("overlay.schema.json")
    assert run("schema", "--overlay").stdout == (paths.schemas_dir() / "overlay.schema.json").read_text()


def test_schema_overlay_write_writes_the_derived_schema(tmp_path, monkeypatch):
    expected = run("schema", "--overlay").stdout
    monkeypatch.setattr(paths, "schemas_dir", lambda: tmp_path)
    result = run("schema", "--overlay", "--write")
    assert result.exit_code == 0 and result.stdout == ""
    assert (tmp_path / "overlay.schema.json").read_text(encoding="utf-8") == expected
    refused = run("schema", "--write")
    assert refused.exit_code == 2 and "give --overlay" in refused.stderr


def _yaml_blocks(path):
    text = (paths.rulesets_dir().parent / path).read_text(encoding="utf-8")
    return [b.split("```", 1)[0] for b in text.split("```yaml\n")[1:]]


def test_readme_variant_example_lints_clean(tmp_path):
    (block,) = _yaml_blocks("README.md")
    house = tmp_path / "house.yaml"
    house.write_text(block, encoding="utf-8")
    result = run("lint", "--strict", str(house))
    assert result.exit_code == 0, result.stdout
    shown = yaml.safe_load(run("show", str(house)).stdout)
    assert shown["players"]["max"] == 4 and shown["scoring"]["hexagon"]["points"] == "60 * move.hexagons"


def test_authoring_guide_variant_example_lints_clean(tmp_path):
    block = next(b for b in _yaml_blocks("docs/authoring.md") if b.lstrip("# \n").count("extends:")
                 and "players:" in b)
    house = tmp_path / "house.yaml"
    house.write_text(block, encoding="utf-8")
    result = run("lint", "--strict", str(house))
    assert result.exit_code == 0, result.stdout


def test_provenance_output_is_the_same_yaml(tmp_path):
    house = tmp_path / "house.yaml"
    house.write_text("extends: triominos/pressman\n"
                     "ruleset:\n  game: triominos\n  title: House\n  description: |\n    two\n    lines\n",
                     encoding="utf-8")
    plain = yaml.safe_load(run("show", str(house)).stdout)
    marked = yaml.safe_load(run("show", "--provenance", str(house)).stdout)
    assert plain == marked and marked["ruleset"]["description"] == "two\nlines\n"
