"""Lint reports a problem in the file where the faulty value was written, for merged values
too (#18): one test per merge path (extends, a listed overlay, --with, $append, $prepend,
$delete). Positions are line:col of the child's own text, counted by hand."""

from engine.rules.lint import lint_paths

HEAD = "extends: triominos/pressman\nruleset: {game: triominos, title: House}\n"


def _at(diagnostics, code):
    """(file name, line, col) of each diagnostic with `code`."""
    return [(d.pos.path.rsplit("/", 1)[-1], d.pos.line, d.pos.col)
            for d in diagnostics if d.code == code]


def test_extends_min_above_the_bases_max_is_the_childs_min(tmp_path, write):
    # line 3 `players: {max: 4, min: 9}`: `9` is column 24 (the base's max 6 is replaced)
    child = write(tmp_path, "house.yaml", HEAD + "players: {max: 4, min: 9}\n")
    assert _at(lint_paths([child]), "R440") == [("house.yaml", 3, 24)]


def test_extends_through_two_levels_lands_in_the_middle_file(tmp_path, write):
    write(tmp_path, "house.yaml", HEAD + "players: {default: 9}\n")  # `9` at 3:20
    grand = write(tmp_path, "grand.yaml",
                  "extends: ./house.yaml\nruleset: {game: triominos, title: Grand}\n")
    assert _at(lint_paths([grand]), "R440") == [("house.yaml", 3, 20)]


def test_an_overlay_listed_by_the_ruleset(tmp_path, write):
    write(tmp_path, "nine.yaml", "overlay: {game: triominos, title: Nine}\nplayers: {min: 9}\n")
    child = write(tmp_path, "house.yaml", HEAD + "overlays: [./nine.yaml]\n")
    # the overlay's line 2 `players: {min: 9}`: `9` at column 16, not the base's max
    assert _at(lint_paths([child]), "R440") == [("nine.yaml", 2, 16)]


def test_an_overlay_given_with_with(tmp_path, write):
    nine = write(tmp_path, "nine.yaml", "overlay: {game: triominos, title: Nine}\nplayers: {min: 9}\n")
    child = write(tmp_path, "house.yaml", HEAD + "players: {max: 4}\n")
    # min 9 (the overlay's, applied last) against the child's max 4: the overlay wrote it
    assert _at(lint_paths([child], overlays=[str(nine)]), "R440") == [("nine.yaml", 2, 16)]


def test_append_lands_on_the_appended_item(tmp_path, write):
    text = HEAD + "setup:\n  opening:\n    rank: {$append: [tile.vaule]}\n"
    child = write(tmp_path, "house.yaml", text)
    # line 5 `    rank: {$append: [tile.vaule]}`: `tile` at column 22, its field `vaule` at 27
    assert _at(lint_paths([child]), "E303") == [("house.yaml", 5, 27)]


def test_prepend_lands_on_the_prepended_item(tmp_path, write):
    child = write(tmp_path, "house.yaml", "extends: triominos/pressman\n"
                  "ruleset: {game: triominos, title: House, sources: {$prepend: [Pressman rules]}}\n")
    # "Pressman rules" is already the base's first source: the list is the one the child's
    # `{$prepend: ...}` (2:51) made, so the problem is reported there, not in the base
    assert _at(lint_paths([child]), "S205") == [("house.yaml", 2, 51)]


def test_delete_is_blamed_for_what_it_removed(tmp_path, write):
    child = write(tmp_path, "house.yaml", HEAD + "players: {$delete: [max], min: 3}\n")
    found = lint_paths([child])
    # `max` is removed at 3:21 (inside `[max]`): the schema's missing key lands there
    assert _at(found, "S202") == [("house.yaml", 3, 21)]
    # without max, min 3 leaves the base's default 2 out of range: the child changed both
    assert [p[0] for p in _at(found, "R440")] == ["house.yaml"]
