"""lint_paths: every problem of every file, folders, --with, --strict, bounded time."""

import time

from engine.diagnostics import Severity
from engine.rules.lint import lint_paths

HEADER = "extends: triominos/pressman\nruleset: {game: triominos, title: House}\n"


def own(diagnostics, root):
    """The diagnostics located in the test's own files (the shipped base has its own test)."""
    return [d for d in diagnostics if d.pos and str(root) in str(d.pos.path)]


def test_shipped_rulesets_are_clean(tmp_path):
    from engine import paths

    assert [d for d in lint_paths([paths.rulesets_dir()]) if d.is_error] == []


def test_every_problem_of_a_file_is_reported_not_just_the_first(tmp_path, write):
    path = write(tmp_path, "house.yaml", HEADER +
                 "players: {min: 0, max: six}\n"
                 "scoring:\n  hexagon: {pionts: 1, to: everyone}\n  $delete: [nothing]\n")
    codes = sorted(d.code for d in own(lint_paths([path]), tmp_path))
    assert codes == ["R407", "S200", "S201", "S203", "S204"]


def test_folders_are_searched_recursively_and_problems_sorted(tmp_path, write):
    write(tmp_path, "a/one.yaml", HEADER + "players: {max: 0}\n")
    write(tmp_path, "a/b/two.yml", HEADER + "players: {max: 5}\n")
    write(tmp_path, "a/b/notes.txt", "not a ruleset")
    write(tmp_path, "a/b/three.yaml", "- not a mapping\n")
    diags = own(lint_paths([tmp_path / "a"]), tmp_path)
    assert [(d.pos.path.rsplit("/", 1)[-1], d.code) for d in diags] == [
        ("three.yaml", "Y110"), ("one.yaml", "S203")]  # no model (R440) after a range error
    # sorted by path: a/b/ before a/one; max 0 is below the base's min 2 (R440, in one.yaml,
    # where max was written) and below 1 (S203)


def test_overlay_files_are_checked_on_their_games_default_ruleset(tmp_path, write):
    ok = write(tmp_path, "rulesets/triominos/overlays/four.yaml",
               "overlay: {game: triominos, title: Four}\nplayers: {max: 4}\n")
    assert own(lint_paths([ok]), tmp_path) == []
    bad = write(tmp_path, "rulesets/triominos/overlays/bad.yaml",
                "overlay: {game: triominos, title: Bad}\nplayers: {max: 6}\nboard: {sizes: 3}\n")
    # checked alone, restating the default's value (max 6) is not reported: the overlay may
    # be meant for other bases; applied with --with to a ruleset, it is (see below)
    assert sorted(d.code for d in own(lint_paths([bad]), tmp_path)) == ["S200"]


def test_with_overlays_and_strict(tmp_path, write):
    overlay = write(tmp_path, "six.yaml", "overlay: {game: triominos, title: Six}\nplayers: {max: 6}\n")
    house = write(tmp_path, "house.yaml", HEADER)
    (warning,) = own(lint_paths([house], overlays=[str(overlay)]), tmp_path)
    assert warning.code == "R404" and warning.level is Severity.WARNING
    (strict,) = own(lint_paths([house], overlays=[str(overlay)], strict=True), tmp_path)
    assert strict.code == "R404" and strict.is_error


def test_a_missing_path_is_a_diagnostic(tmp_path):
    (d,) = lint_paths([tmp_path / "nope.yaml"])
    assert d.code == "Y111"


def test_a_thousand_files_in_bounded_time(tmp_path, write):
    for i in range(1000):
        body = HEADER.replace("House", f"House {i}") + f"players: {{max: {2 + i % 4}}}\n"
        if i % 10 == 0:
            body += "setup: {hand_size: -1}\n"
        write(tmp_path, f"many/r{i:04d}.yaml", body)
    # CPU time, not wall time: a loaded machine slows the clock on the wall, not the work
    start = time.process_time()
    diags = own(lint_paths([tmp_path / "many"]), tmp_path)
    elapsed = time.process_time() - start
    assert sum(d.code == "S203" for d in diags) == 100
    assert elapsed < 60, elapsed


def test_a_file_in_another_games_folder_is_r411_in_a_users_folder_too(tmp_path, write):
    # Found through --rulesets, `dominoes/lost` would have played Tri-Ominos; an overlay in
    # `dominoes/overlays/` for triominos would have been checked against triominos, clean.
    from engine.rules import files

    lost = write(tmp_path, "mine/dominoes/lost.yaml", HEADER)
    stray = write(tmp_path, "mine/dominoes/overlays/stray.yaml",
                  "overlay: {game: triominos, title: Stray}\n")
    files.set_user_roots([tmp_path / "mine"])
    try:
        found = [(d.code, d.pos.path.rsplit("/", 1)[-1], d.pos.line, d.pos.col)
                 for d in lint_paths([lost, stray])]
    finally:
        files.set_user_roots([])
    # the value of `game`: line 2, column 17 (`ruleset: {game: ` is 16 characters) of the
    # ruleset, line 1, column 17 (`overlay: {game: `, 16 too) of the overlay
    assert found == [("R411", "lost.yaml", 2, 17), ("R411", "stray.yaml", 1, 17)]
