"""What the `square` generator keeps across boards and hands (`square_moves.py`): the plays
on a board holding no piece, kept across games by the hand's plan, and the plans of plain
hands, kept by their values in hand order with the order that ranks them. Either way the
plays must be those the general loops find, in the same order, with the same pieces (a
piece's identity, not only its value: equal values are taken in hand order)."""

from __future__ import annotations

import random
from itertools import permutations

import pytest
import yaml

from engine.topology import BOARD_KINDS
from engine.topology import square_moves as sm
from tests.topology.test_square import ROOT, STANDARD, board_with, tokens
from tests.topology.test_square_walks import random_boards, random_case

JOKERS = yaml.safe_load((ROOT / "rulesets/triolet/overlays/jokers.yaml").read_text())


def general(board, hand, first, rules):
    """The plays of the general loops: every arrangement tried against the cells'
    intervals one by one (the way a hand with a joker goes), for any hand."""
    maxk = min(rules.max_count, len(hand))
    plan, _ = sm.hand_plan(hand, maxk, rules)
    cross = board.crosses(rules)
    plain, plan.plain = plan.plain, False
    try:
        return sm._general([], board, hand, first, rules, maxk, cross)
    finally:
        plan.plain = plain


def described(plays):
    """What must not change: texts, the very pieces (in order) and the joker flags."""
    return [(p.text, tuple(map(id, p.pieces)), p.flags) for p in plays]


def standard():
    topo = BOARD_KINDS["square"](STANDARD["board"])
    return topo, topo.compile_place(STANDARD["actions"]["place"])


def with_jokers():
    place = dict(STANDARD["actions"]["place"], **JOKERS["actions"]["place"])
    topo = BOARD_KINDS["square"](STANDARD["board"])
    return topo, topo.compile_place(place)


def random_rack(rng, uid, jokers=False):
    values = [rng.randrange(16) for _ in range(rng.randint(1, 3))]
    return tokens(*values, jokers=rng.randint(0, 1) if jokers else 0, start=uid)


@pytest.mark.parametrize("make", [standard, with_jokers])
def test_first_plays_kept_across_boards_are_those_of_the_general_loops(make):
    topo, rules = make()
    assert rules.cover_start
    rng = random.Random(21)
    compared = hits = 0
    for n in range(150):
        rack = random_rack(rng, 100 * n, jokers=make is with_jokers)
        maxk = min(rules.max_count, len(rack))
        key = (sm.hand_plan(rack, maxk, rules)[0], rules, topo)
        hits += isinstance(sm._EMPTY_PLAYS.get(key), list)
        # (kept when met again: the third order is made from what the second kept)
        for hand in (rack, rack[::-1], rack[1:] + rack[:1]):
            board = topo.new_board()
            found = sm.find_plays(board, hand, True, rules)
            expected = general(topo.new_board(), hand, True, rules)
            assert described(found) == described(expected)
            assert all(play.board is board for play in found)
            compared += len(found)
    assert compared > 2000 and hits > 5


def test_first_plays_anywhere_are_kept_for_the_rules_and_board_they_were_found_on():
    rng = random.Random(22)
    compared = 0
    for _ in range(40):
        topo, _, rules, rack = random_case(rng)  # (no start cell: a first play goes anywhere)
        assert not rules.cover_start
        for hand in (rack, rack[::-1], rack, rack[::-1]):
            found = sm.find_plays(topo.new_board(), hand, True, rules)
            assert described(found) == described(general(topo.new_board(), hand, True, rules))
            compared += len(found)
    assert compared > 20000


def test_a_first_play_on_a_board_holding_pieces_is_not_taken_from_the_empty_board():
    topo, rules = standard()
    rack = tokens(4, 5, 6)
    empty = sm.find_plays(topo.new_board(), rack, True, rules)
    # a position loaded with a piece away from the star, before any play was made
    board = board_with(topo, {(0, 0): 9})
    found = sm.find_plays(board, rack, True, rules)
    assert described(found) == described(general(board, rack, True, rules))
    assert [p.text for p in found] == [p.text for p in empty]  # (still: cover the star)
    assert all(play.board is board for play in found)


def test_every_order_of_a_hand_gives_the_plays_of_the_general_loops():
    rng = random.Random(23)
    compared = 0
    for board, rules, rack in random_boards(rng, 50):
        for hand in map(list, set(permutations(rack))):
            found = sm.find_plays(board, hand, False, rules)
            assert described(found) == described(general(board, hand, False, rules))
            compared += len(found)
    assert compared > 20000


def test_equal_values_are_taken_in_hand_order_whatever_the_order_met_first():
    topo, rules = standard()
    board = board_with(topo, {(7, 7): 5})
    first, second = tokens(5, 5, 3, start=0), tokens(3, 5, 5, start=10)
    for hand in (first, second, first[::-1], second[::-1]):
        found = sm.find_plays(board, hand, False, rules)
        assert described(found) == described(general(board, hand, False, rules))
        fives = [p for p in hand if p.value == 5]
        # a play of one 5 takes the first 5 of the hand, as the ranked hand lists them
        lone = [p.pieces for p in found if p.values == (5,)]
        assert lone and all(pieces == (fives[0],) for pieces in lone)
