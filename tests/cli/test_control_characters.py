"""issue 16 item 12: a string from a ruleset never reaches the terminal as a control
character; every printer escapes it (`\\x1b`, `\\x07`, `\\u2028`)."""

from __future__ import annotations

from typer.testing import CliRunner

from engine.cli import app
from engine.diagnostics import printable

runner = CliRunner()
TITLE = "\x1b]0;PWNED\x07"  # sets the terminal's window title when printed raw


def _house(tmp_path, title: str, body: str = "") -> str:
    path = tmp_path / "house.yaml"
    path.write_text("extends: triominos/pressman\nruleset: {game: triominos, title: \""
                    + title.replace("\x1b", "\\e").replace("\x07", "\\a") + "\"}\n" + body,
                    encoding="utf-8")
    return str(path)


def _no_controls(text: str) -> None:
    assert "\x1b" not in text and "\x07" not in text and "\u2028" not in text


def test_printable_escapes_c0_c1_and_separators():
    assert printable("a\x1bb\x07c\x85d\u2028e\u202ef") == "a\\x1bb\\x07c\\x85d\\u2028e\\u202ef"
    assert printable("two\nlines") == "two\nlines"
    assert printable("two\nlines", newlines=False) == "two\\nlines"
    assert printable("Tri-Ominos, règle «club»") == "Tri-Ominos, règle «club»"


def test_diff_escapes_a_title(tmp_path):
    result = runner.invoke(app, ["diff", "triominos/pressman", _house(tmp_path, TITLE)])
    assert result.exit_code == 0, result.output
    _no_controls(result.output)
    assert "\\x1b]0;PWNED\\x07" in result.output


def test_show_escapes_the_title(tmp_path):
    result = runner.invoke(app, ["show", _house(tmp_path, TITLE)])
    assert result.exit_code == 0, result.output
    _no_controls(result.output)
    result = runner.invoke(app, ["show", _house(tmp_path, TITLE), "--provenance"])
    _no_controls(result.output)


def test_a_syntax_error_does_not_echo_raw_escapes(tmp_path):
    # E301 quoted the expression's text, ESC and U+2028 included
    house = _house(tmp_path, "House", "scoring:\n  hexagon: {points: \"1 + \\e[31m\\L\"}\n")
    result = runner.invoke(app, ["lint", house])
    assert result.exit_code == 1
    assert "E301" in result.output
    _no_controls(result.output)


def test_simulate_and_compare_escape_the_title_they_name(tmp_path):
    house = _house(tmp_path, TITLE)
    for args in (["simulate", house, "-n", "2"],
                 ["compare", "triominos/pressman", house, "-n", "2"]):
        result = runner.invoke(app, args)
        assert result.exit_code == 0, result.output
        _no_controls(result.output)
        assert "\\x1b]0;PWNED\\x07" in result.output
