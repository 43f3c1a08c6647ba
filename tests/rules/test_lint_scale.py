"""issue 16 item 8: lint is linear in the number of definitions (unused ones are found in
one pass over the sources) and the `did you mean` search is capped."""

from __future__ import annotations

from engine.diagnostics import MAX_CANDIDATES, closest
from engine.expr.definitions import words_in
from engine.rules.lint import lint_paths

HEAD = "extends: triominos/pressman\nruleset: {game: triominos, title: H}\n"


def test_thousands_of_definitions_and_unknown_names(tmp_path):
    # 2,000 definitions d0..d1999, d0 used by d1 (so d0 is used), the rest unused;
    # 300 scoring rules each naming an unknown `zz<i>`
    path = tmp_path / "house.yaml"
    path.write_text(HEAD + "define:\n  d0: 1\n  d1: d0 + 1\n"
                    + "".join(f"  d{i}: {i}\n" for i in range(2, 2000))
                    + "scoring:\n" + "".join(f"  s{i}: {{on: place, points: zz{i}}}\n"
                                             for i in range(300)), encoding="utf-8")
    found = lint_paths([path])
    unused = {d.message.split("`")[1] for d in found if d.code == "R439"}
    unknown = [d for d in found if d.code == "E302"]
    assert unused == {f"d{i}" for i in range(1, 2000)}  # d0 is used by d1, itself by none
    assert len(unknown) == 300


def test_a_definition_used_only_by_itself_is_unused():
    assert words_in(["total + move.total", "x.y"]) == {"total", "move", "x"}


def test_did_you_mean_among_many_names():
    names = [f"d{i}" for i in range(5000)] + ["hexagon_bonus"]
    assert closest("hexagon_bonsu", names) == "hexagon_bonus"
    assert closest("d17x", names) == "d17"  # `d1`... come first among the `d1` names
    assert closest("qq", names) is None
    assert MAX_CANDIDATES <= 500
