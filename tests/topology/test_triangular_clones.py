"""Clones of a triangular board each keep their own records of open cells (those sharing
an edge, and those touching a tile once `contact: point` asked for them): whichever lays
a tile first, and in whatever order, neither may see the other's."""

from __future__ import annotations

import random

from engine.pieces import build_pieces
from engine.topology import triangular as T

TILES = build_pieces({"tiles": {"kind": "corner_tiles", "corners": 3, "values": {"min": 0, "max": 5}}})


def _off(board, hand):
    """The pieces of `hand` not on `board` (a piece is in one place)."""
    return [p for p in hand if p not in board.pieces_on_board()]


def _names(board, hand, rules):
    hand = _off(board, hand)
    return [(p.piece.name, p.cell, p.rotation) for p in board.iter_placements(hand, False, rules)]


def _fresh(board):
    """The same tiles laid on a new board (the records of `contact: point` made from scratch)."""
    other = T.TriangularBoard()
    for cell, (piece, _, rotation) in board.cells.items():
        other.put_tile(cell, piece, rotation)
    return other


def test_a_clone_and_its_original_diverge_without_touching_each_other():
    rng = random.Random(3)
    pool = list(TILES)
    rng.shuffle(pool)
    board, hand = T.TriangularBoard(), pool[:40]
    board.apply_placement(board.iter_placements(hand, True, None)[0])
    hand = hand[1:]
    for step in range(12):
        _names(board, hand, "point")  # both sets of records are made, to be copied
        copy = board.clone()
        before = {rules: _names(board, hand, rules) for rules in (None, "point")}
        # the clone lays a tile first on odd steps, the original first on even ones
        first, second = (copy, board) if step % 2 else (board, copy)
        first.apply_placement(first.iter_placements(_off(first, hand), False, None)[0])
        assert {rules: _names(second, hand, rules) for rules in (None, "point")} == before
        second.apply_placement(list(second.iter_placements(_off(second, hand), False, None))[-1])
        for one in (board, copy):
            assert one.check_invariants() == []
            for rules in (None, "point"):
                assert _names(one, hand, rules) == _names(_fresh(one), hand, rules)
        board = copy if step % 3 == 0 else board
