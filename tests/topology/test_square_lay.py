"""Laying plays on the `square` board: the written-out ways of `apply_placement` (one
piece, two pieces, any other play) keep the run index as a rebuild of it from the
cells would, and measure the plays as the rules define lines; `new_board` copies a
kept empty board that shares nothing a board changes."""

from __future__ import annotations

import random

import pytest

from engine.topology import BOARD_KINDS
from engine.topology.square import Square
from engine.topology.square_board import SquareBoard
from tests.topology.test_square import PLACE, STANDARD, tokens


@pytest.fixture()
def topo() -> Square:
    """A topology of its own per test: `new_board` keeps an empty board on it."""
    return BOARD_KINDS["square"](STANDARD["board"])


def lay(board, rules, text, hand, first=False):
    play = board.parse_placement(text, hand, first, rules)
    board.apply_placement(play)
    return play


def test_measures_of_plays_worked_out_by_hand(topo):
    """Section 4 of the fact sheet: a line is a run of two or three tokens; each record
    worked out by hand from the cells (H8 is the star, x2; G8, G9, H9 are plain)."""
    rules = topo.compile_place(PLACE)
    board = topo.new_board()
    board.crosses(rules)
    hand = tokens(5, 3, 7, 2)
    first = lay(board, rules, "H8=5", hand, first=True)
    assert first.lines == []
    (p,) = first.placed
    assert (p.x, p.y, p.multiplier, p.value, p.declared, p.max_line, p.lines_through) == (
        7, 7, 2, 5, 5, 1, [])
    # a column pair: G9 has no row, H9 makes the row H8-H9; the column is found first
    pair = lay(board, rules, "G9=3 H9=7", hand)
    assert [(l.length, l.sum, l.new) for l in pair.lines] == [(2, 10, 2), (2, 12, 1)]
    assert [(p.x, p.y, p.multiplier, p.max_line, p.lines_through) for p in pair.placed] == [
        (8, 6, 1, 2, [2]), (8, 7, 1, 2, [2, 2])]
    # one piece closing a corner: its row (G8-G9) before its column (G8-H8)
    corner = lay(board, rules, "G8=2", hand)
    assert [(l.length, l.sum, l.face_sum, l.new, l.jokers) for l in corner.lines] == [
        (2, 5, 5, 1, 0), (2, 7, 7, 1, 0)]
    assert [(p.max_line, p.lines_through, p.value) for p in corner.placed] == [(2, [2, 2], 2)]
    assert board.check_invariants(rules) == []
    # G7 would make a row of three summing 2 + 3 + x: only 10 fits; column G7-H7: empty
    after = {p.text for p in board.iter_placements(tokens(10, 9), False, rules)}
    assert "G7=10" in after and "G7=9" not in after
    # a column pair whose first cell ends a row of three: that row, the column, the other row
    rows = lay(board, rules, "G10=10 H10=3", tokens(10, 3, start=20))
    assert [(l.length, l.sum, l.new) for l in rows.lines] == [(3, 15, 1), (2, 13, 2), (3, 15, 1)]
    assert [(p.max_line, p.lines_through) for p in rows.placed] == [(3, [3, 2]), (3, [2, 3])]
    assert board.check_invariants(rules) == []


def test_a_pair_across_a_filled_cell_is_laid_as_one_run(topo):
    """Two new pieces with a piece between them (the general way): one line of three."""
    rules = topo.compile_place(PLACE)
    board = topo.new_board()
    board.crosses(rules)
    lay(board, rules, "H8=5", tokens(5), first=True)
    play = lay(board, rules, "H7=4 H9=6", tokens(4, 6, start=10))
    assert [(l.length, l.sum, l.new) for l in play.lines] == [(3, 15, 2)]
    assert [p.max_line for p in play.placed] == [3, 3]
    assert board.check_invariants(rules) == []


@pytest.mark.parametrize("jokers", [0, 2])
def test_the_index_is_a_rebuilt_one_after_every_play(topo, jokers):
    """After each random legal play (one, two or three pieces, jokers or not), the run
    index, the `cross` intervals, their cells and the anchors are those a board rebuilt
    from its cells has."""
    action = {**PLACE, "jokers": {"max_per_play": 1}} if jokers else PLACE
    rules = topo.compile_place(action)
    rng = random.Random(5 + jokers)
    sizes = set()
    for _ in range(4):
        board, bag, first = topo.new_board(), tokens(*range(16), *range(16), jokers=jokers), True
        rng.shuffle(bag)
        for _ in range(14):
            plays = list(board.iter_placements(bag[:3], first, rules))
            if not plays:
                rng.shuffle(bag)
                continue
            chosen = rng.choice(plays)
            board.apply_placement(chosen)
            sizes.add(chosen.count)
            assert board.check_invariants(rules) == [], chosen.text
            bag = [p for p in bag if p not in chosen.pieces]
            first = False
    assert sizes == {1, 2, 3}


def test_new_boards_copy_an_empty_board_and_share_nothing(topo):
    rules = topo.compile_place(PLACE)
    one = topo.new_board()
    assert topo.empty_board is None  # (nothing kept before a game asks for the intervals)
    one.crosses(rules)
    kept = topo.empty_board
    assert kept is not None and kept.cross_for is rules and not kept.piece
    two, three = topo.new_board(), topo.new_board()
    assert two.cross_for is rules and two.starts is not three.starts
    lay(two, rules, "H8=5 H9=7", tokens(5, 7), first=True)
    assert two.check_invariants(rules) == []
    built = SquareBoard(topo)
    built.crosses(rules)
    for board in (kept, three, topo.new_board()):
        assert not board.piece and board.v == built.v and board.cross == built.cross
        assert board.by_iv == built.by_iv and board.back == built.back
        assert (board.anchor_bits, board.filled) == (built.anchor_bits, built.filled)
    hand = tokens(5, 7)
    assert [p.text for p in three.iter_placements(hand, True, rules)] == [
        p.text for p in built.iter_placements(hand, True, rules)]
