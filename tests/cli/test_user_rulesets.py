"""Finding the user's own rulesets (`--rulesets DIR`, RULECRAFT_PATH), lint's default
excludes, overlays that retitle their ruleset, progress bars and paths as shown (#18)."""

import io
import json
import os

from typer.testing import CliRunner

from engine.cli import app
from engine.cli.progress import progress_bar, wanted
from engine.rules import files

runner = CliRunner()
KITCHEN = ("extends: triominos/pressman\nruleset: {game: triominos, title: Kitchen table}\n"
           "players: {max: 4}\n")


def run(*args, **kwargs):
    return runner.invoke(app, list(args), **kwargs)


def _mine(tmp_path):
    root = tmp_path / "mine"
    (root / "triominos" / "overlays").mkdir(parents=True)
    (root / "triominos" / "kitchen.yaml").write_text(KITCHEN, encoding="utf-8")
    (root / "triominos" / "overlays" / "short.yaml").write_text(
        "overlay: {game: triominos, title: Short match, ruleset_title: Quick kitchen,"
        " ruleset_description: Played to 200.}\n"
        "match: {end_if: 'any(p.score >= 200 for p in players)'}\n",
        encoding="utf-8")
    return root


def test_rulesets_option_finds_a_user_id_on_every_command(tmp_path):
    root = _mine(tmp_path)
    unknown = run("simulate", "triominos/kitchen", "-n", "1")
    assert unknown.exit_code == 2 and "unknown ruleset `triominos/kitchen`" in unknown.stderr
    for args in (["simulate", "triominos/kitchen", "-n", "1", "--rulesets", str(root)],
                 ["--rulesets", str(root), "simulate", "triominos/kitchen", "-n", "1"],
                 ["show", "triominos/kitchen", "--rulesets", str(root)],
                 ["names", "triominos/kitchen", "--rulesets", str(root)]):
        result = run(*args)
        assert result.exit_code == 0, (args, result.output)


def test_rulecraft_path_is_searched_and_rulesets_lists_the_origin(tmp_path):
    root = _mine(tmp_path)
    env = {"RULECRAFT_PATH": os.pathsep.join([str(tmp_path / "nowhere"), str(root)])}
    data = json.loads(run("rulesets", "--json", env=env).stdout)
    (kitchen,) = [r for r in data["rulesets"] if r["id"] == "triominos/kitchen"]
    assert kitchen["origin"] == str(root) and kitchen["base"] == "triominos/pressman"
    (pressman,) = [r for r in data["rulesets"] if r["id"] == "triominos/pressman"]
    assert pressman["origin"] == "shipped"
    assert any(o["id"] == "triominos/overlays/short" and o["origin"] == str(root)
               for o in data["overlays"])
    shown = run("show", "triominos/kitchen", "--json", env=env)
    assert json.loads(shown.stdout)["data"]["players"]["max"] == 4


def test_a_rulecraft_path_folder_that_is_not_one_is_a_warning_with_a_fix(tmp_path):
    root = _mine(tmp_path)
    (tmp_path / "a-file").write_text("", encoding="utf-8")
    listed = [str(tmp_path / "nowhere"), str(root), str(tmp_path / "a-file")]
    result = run("show", "triominos/kitchen", "--json",
                 env={"RULECRAFT_PATH": os.pathsep.join(listed)})
    assert result.exit_code == 0  # the other folders are still searched
    assert json.loads(result.stdout)["data"]["players"]["max"] == 4
    lines = result.stderr.splitlines()
    assert lines == [
        f"warning: RULECRAFT_PATH names {tmp_path / 'nowhere'}, which does not exist:"
        " no rulesets are looked up there",
        f"  help: create it, or remove it from RULECRAFT_PATH (folders separated by `{os.pathsep}`)",
        f"warning: RULECRAFT_PATH names {tmp_path / 'a-file'}, which is a file, not a folder:"
        " no rulesets are looked up there",
        "  help: name the folder holding your rulesets, or remove it from RULECRAFT_PATH"
        f" (folders separated by `{os.pathsep}`)",
    ]
    quiet = run("show", "triominos/kitchen", "--json", env={"RULECRAFT_PATH": str(root)})
    assert quiet.exit_code == 0 and quiet.stderr == ""


def test_a_relative_rulecraft_path_entry_is_shown_with_where_it_points(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("RULECRAFT_PATH", "mine")
    (warning,) = files.path_warnings()
    assert warning.startswith(f"warning: RULECRAFT_PATH names mine ({tmp_path / 'mine'}),"
                              " which does not exist")


def test_the_api_warns_of_a_rulecraft_path_folder_that_is_not_one(tmp_path, monkeypatch):
    import pytest

    from engine import api

    monkeypatch.setenv("RULECRAFT_PATH", str(tmp_path / "nowhere"))
    with pytest.warns(files.RulesetPathWarning, match="nowhere, which does not exist"):
        api.load("tripeaks")


def test_an_overlay_replaces_the_rulesets_title_and_description(tmp_path):
    root = _mine(tmp_path)
    data = json.loads(run("show", "triominos/kitchen", "--with", "short", "--json",
                          "--rulesets", str(root)).stdout)
    assert (data["title"], data["description"]) == ("Quick kitchen", "Played to 200.")
    text = run("simulate", "triominos/kitchen", "-w", "short", "-n", "1", "--rulesets", str(root))
    assert "Quick kitchen (overlays: short)" in text.stdout


def test_tiles_0_6_no_longer_plays_under_the_56_tile_title():
    # fact sheet: numbers 0-5 give the 56 tiles of the base; 0-6 give C(9,3) = 84 tiles
    data = json.loads(run("show", "triominos", "-w", "tiles-0-6", "--json").stdout)
    assert data["title"] == "Tri-Ominos, Pressman rules (84 tiles, 0-6)"
    assert "84 tiles numbered 0 to 6" in data["description"]
    compared = run("compare", "triominos", "triominos+tiles-0-6", "-n", "2")
    assert "Pressman rules (84 tiles, 0-6) (overlays: tiles-0-6)" in compared.stdout


def test_every_shipped_overlay_says_what_it_changes_in_the_rulesets_header():
    # the base's description would otherwise stay silent about (or contradict) the overlay
    for game, name, path in files.iter_overlay_files():
        header = files.load_document(path).data["overlay"]
        assert "description_append" in header or "ruleset_description" in header, (game, name)


def test_lint_skips_what_is_no_ruleset_in_a_checkout(tmp_path):
    bad = KITCHEN.replace("{max: 4}", "{min: 9}")  # R440 wherever it is linted
    (tmp_path / "rulesets" / "g").mkdir(parents=True)
    (tmp_path / "rulesets" / "g" / "bad.yaml").write_text(bad)
    for folder in ("tests", ".venv", "build", "docs"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "x.yaml").write_text(bad)
    (tmp_path / "ci.yaml").write_text("jobs: {test: {runs-on: linux}}\n")  # no ruleset: key
    result = run("lint", str(tmp_path))
    assert result.exit_code == 1
    found = {line.split(":")[0] for line in result.stdout.splitlines() if "error[" in line}
    assert found == {str(tmp_path / "docs" / "x.yaml"), str(tmp_path / "rulesets/g/bad.yaml")}
    assert "4 files skipped" in result.stderr  # tests/, .venv/, build/ and ci.yaml
    result = run("lint", str(tmp_path), "--exclude", "docs", "--exclude", "rulesets/g/*")
    assert result.exit_code == 0 and "6 files skipped" in result.stderr
    named = run("lint", str(tmp_path / "tests" / "x.yaml"))  # a file named is always checked
    assert named.exit_code == 1


def test_progress_only_on_a_terminal_and_never_with_json():
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    assert not wanted(stream=io.StringIO()) and not wanted(quiet=True, stream=Terminal())
    screen = Terminal()
    with progress_bar(4, "simulating", stream=screen) as advance:
        advance(4)
    assert "simulating" in screen.getvalue()
    with progress_bar(4, "simulating", quiet=True, stream=screen) as advance:
        assert advance is None
    piped = run("simulate", "tripeaks", "-n", "2")  # CliRunner's stderr is no terminal
    assert piped.stderr == ""


def test_shipped_files_show_as_rulesets_wherever_installed():
    site = "/venv/lib/python3.11/site-packages/engine/_data/rulesets"
    shown = files.shown_path(f"{site}/triolet/standard.yaml", "/home/me/work", site)
    assert shown == "rulesets/triolet/standard.yaml"
    mine = files.shown_path("/home/me/work/house.yaml", "/home/me/work", site)
    assert mine == "house.yaml"  # the user's own file, relative to where they stand
    assert files.shown_path("/srv/x.yaml", "/home/me", site) == "/srv/x.yaml"
    venv = "/home/me/work/.venv/lib/python3.11/site-packages/engine/_data/rulesets"
    inside = files.shown_path(f"{venv}/g/a.yaml", "/home/me/work", venv)
    assert inside == "rulesets/g/a.yaml"  # a virtual environment inside the project


def test_github_annotations_land_in_the_users_file(tmp_path):
    child = tmp_path / "house.yaml"
    child.write_text(KITCHEN.replace("{max: 4}", "{max: 4, min: 9}"), encoding="utf-8")
    result = run("lint", "--format", "github", str(child))
    # line 3 `players: {max: 4, min: 9}`: the child's `9` at column 24, not the base's line
    assert result.exit_code == 1
    assert result.stdout.startswith(f"::error file={child},line=3,col=24,title=R440")
    assert "pressman" not in result.stdout


def test_rulesets_option_names_a_missing_folder(tmp_path, monkeypatch):
    # A mistyped folder was ignored, and the id then looked unknown; now it is a usage error.
    # (A short relative name, so that the message's box does not wrap it.)
    monkeypatch.chdir(tmp_path)
    for args in (["simulate", "triominos", "-n", "1", "--rulesets", "nope"],
                 ["--rulesets", "nope", "rulesets"]):
        result = run(*args)
        assert result.exit_code == 2
        assert "'--rulesets': dir 'nope' does not exist" in result.stderr


def test_replay_advice_repeats_the_rulesets_folder_it_needs(tmp_path):
    root = _mine(tmp_path)
    record = tmp_path / "game.json"
    made = run("simulate", "triominos/kitchen", "-n", "1", "--rulesets", str(root),
               "--record", str(record))
    assert made.exit_code == 0, made.output
    kitchen = root / "triominos" / "kitchen.yaml"
    kitchen.write_text(KITCHEN.replace("max: 4", "max: 3"), encoding="utf-8")  # changed
    result = run("replay", str(record), "--rulesets", str(root))
    assert result.exit_code == 1 and "K503" in result.output
    assert f"--rescore --rulesets {root}" in result.output  # the advice works as typed
    again = run("replay", str(record), "--rescore", "--rulesets", str(root))
    assert again.exit_code == 0, again.output
