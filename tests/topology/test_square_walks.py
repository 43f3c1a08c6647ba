"""The generated walks of the `square` generator (`square_walks.py`) find the plays the
general loops find, in the same order, for windows, counts and line lengths of every
size (the shipped rulesets use one set of numbers; these cover the others)."""

from __future__ import annotations

import random

import pytest

from engine.topology import square_moves as sm
from engine.topology import square_walks as sw
from engine.topology.square import Square
from tests.topology.test_square import board_with, general_plays, tokens


def random_case(rng):
    width, height = rng.randint(3, 9), rng.randint(3, 9)
    density = rng.choice([0.1, 0.2, 0.4, 0.6])
    cells = {(x, y): rng.randrange(8) for y in range(height) for x in range(width)
             if rng.random() < density}
    topo = Square({"kind": "square", "width": width, "height": height,
                   "cell_defaults": {"start": False}})
    most = rng.randint(2, 4)
    rules = topo.compile_place({
        "count": {"min": rng.randint(1, most), "max": most}, "window": rng.randint(1, 8),
        "lines": {"max_length": rng.randint(2, 6),
                  "sums": {2: {"max": rng.randint(5, 20)}, 3: {"min": rng.randint(5, 15)},
                           4: {"max": rng.randint(10, 30)}}}})
    rack = tokens(*[rng.randrange(8) for _ in range(rng.randint(1, 4))])
    return topo, cells, rules, rack


def random_boards(rng, count):
    """(board, rules, rack) of `count` random cases, those with an empty board left out."""
    for _ in range(count):
        topo, cells, rules, rack = random_case(rng)
        if cells:
            yield board_with(topo, cells), rules, rack


def test_generated_walks_find_the_plays_of_the_general_loops_in_order():
    rng = random.Random(11)
    compared = 0
    for board, rules, rack in random_boards(rng, 400):
        found = [p.text for p in board.iter_placements(rack, False, rules)]
        assert found == general_plays(board, rack, rules)
        compared += len(found)
    assert compared > 2000


def test_written_out_walk_matches_the_loop_it_replaces():
    rng = random.Random(12)
    compared = 0
    for _ in range(300):
        topo, cells, rules, rack = random_case(rng)
        maxk = min(rules.max_count, len(rack))
        along = sw.along_function(rules.window, max(2, rules.min_count), maxk)
        if not cells or maxk < 2 or along is None:
            continue
        board = board_with(topo, cells)
        plan, ranked = sm.hand_plan(rack, maxk, rules)
        board.crosses(rules)
        fits = board.fit_bits(plan.mask)
        lines = sm._useful_starts(board, fits, rules, maxk)
        loop, written = [], []
        sw.plain_along(loop, board, lines, plan.mask, plan, maxk, ranked, rules)
        along(written, board, lines, plan.mask, plan, ranked, rules)
        assert [p.text for p in written] == [p.text for p in loop]
        assert [p.pieces for p in written] == [p.pieces for p in loop]
        compared += len(loop)
    assert compared > 1000


def test_a_window_too_wide_to_write_out_keeps_the_loop():
    assert sw.along_function(sw.ALONG_WINDOW + 1, 2, 3) is None
    assert sw.along_function(sw.ALONG_WINDOW, 2, 4) is not None


def test_a_walk_for_single_pieces_is_refused_not_generated_broken():
    # the walk lists plays of two pieces or more; maxk 1 once generated invalid code
    with pytest.raises(ValueError, match="2 or more"):
        sw.walk_functions(3, 3, 2, 1)
    steps, live = sw.walk_functions(3, 3, 2, 2)
    assert callable(steps) and callable(live)


def test_the_straight_way_reads_a_rack_in_any_order_and_pieces_without_a_joker_flag():
    """After the first play, a rack of plain tokens is ranked by value (equal values in
    rack order): its plays are the general loops' whatever the order of the rack, the
    equal tokens are laid in rack order, and a token with no `joker` attribute is no
    joker."""
    from engine.pieces import Piece

    rng = random.Random(13)
    compared = 0
    for board, rules, rack in random_boards(rng, 150):
        rng.shuffle(rack)
        plays = list(board.iter_placements(rack, False, rules))
        assert [p.text for p in plays] == general_plays(board, rack, rules)
        for play in plays:  # equal values: the rack's first tokens, in rack order
            for value in set(play.values):
                taken = [p for p in play.pieces if p.value == value]
                first = [p for p in rack if p.value == value][:len(taken)]
                assert sorted(taken, key=rack.index) == first
        bare = [Piece(p.uid, "tokens", p.name, {"value": p.value}) for p in rack]
        assert [p.text for p in board.iter_placements(bare, False, rules)] == \
            [p.text for p in plays]
        compared += len(plays)
    assert compared > 300


def test_the_generated_code_is_the_text_along_source_and_walk_source_print():
    # the numbers of triolet/standard: window 3, two to three pieces, lines of 15 at most
    text = sw.along_source(3, 2, 3)
    assert text.startswith("def along(out, board, lines, mask, plan, ranked, rules):")
    assert "for c in lines[k]:" in text and "while" not in text  # written out: no loop
    compile(text, "<along>", "exec")
    walks = sw.walk_source(3, 15, 2, 3, True)
    assert "def steps(" in walks and "def live(" in walks
    along = sw.along_function(3, 2, 3)
    assert along.__code__.co_filename == "<square along (3, 2, 3)>"


def test_the_square_modules_import_one_way():
    """The board's modules, bottom up, each importing only modules below it (imports
    inside functions and TYPE_CHECKING blocks included): docs/architecture.md's table."""
    import ast
    from pathlib import Path

    order = ["square_placement", "square_text", "square_hands", "square_general",
             "square_walks", "square_moves", "square_board", "square"]
    folder = Path(sw.__file__).parent
    assert sorted(p.stem for p in folder.glob("square*.py")) == sorted(order)
    for i, name in enumerate(order):
        tree = ast.parse((folder / f"{name}.py").read_text(encoding="utf-8"))
        found = {n.module.rsplit(".", 1)[-1] for n in ast.walk(tree)
                 if isinstance(n, ast.ImportFrom) and n.module
                 and n.module.startswith("engine.topology.square")}
        assert found <= set(order[:i]), (name, found - set(order[:i]))
