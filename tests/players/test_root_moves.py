"""The root's moves with `leaves` and the hand's worth at a cut-off (`next=X`), on the
first turn of a Triolet game worked out from the fact sheet (section 6: a lone first
token scores its face value, doubled by the star)."""

from __future__ import annotations

import pytest

from engine.players.mcts import parse_spec
from engine.players.objective import looked_ahead
from engine.players.root_moves import best_gain, ranked_by_gain, root_moves

from tests.players.test_mcts import game


def first_turn(seed: int):
    state = game("triolet/standard").new_game(2, seed)
    return state, sorted(state.game.values[p.uid] for p in state.hands[0])


def test_the_hand_and_its_plays_on_the_first_turn():
    # seed 4 deals the first player 13, 8 and 10: no two of them sum to 15 or less, so
    # the only plays are one token on the star (26, 20, 16 points), else exchanges
    state, rack = first_turn(4)
    assert rack == [8, 10, 13]
    gains = {m.text: g for g, _, m in ranked_by_gain(state)}
    assert gains["place H8=13"] == 26 and gains["place H8=10"] == 20
    assert gains["place H8=8"] == 16 and gains["exchange 10 13"] == 0
    assert best_gain(state) == 26


def test_leaves_adds_the_best_move_of_each_kept_hand():
    state, _ = first_turn(4)
    assert [m.text for m in root_moves(state, 1, False)] == ["place H8=13"]
    moves = [m.text for m in root_moves(state, 1, True)]
    # H8=13 keeps {8, 10}; H8=10 keeps {8, 13}, H8=8 keeps {10, 13}: the best of each
    # leave by points, then exchanges that keep fewer tokens (what they keep depends on
    # the tokens drawn back, so only their number is bounded: 8 subsets of 3 tokens)
    assert moves[:3] == ["place H8=13", "place H8=10", "place H8=8"]
    assert all(m.startswith("exchange") for m in moves[3:])
    assert len(set(moves)) == len(moves) <= 8


def test_equal_tokens_make_one_leave():
    # seed 9 deals 4, 4 and 10. The best play is 24: a pair 4 + 10 = 14 with the 10 on
    # the star (+10); it keeps a 4. Then the best of each other leave: the 10 alone on
    # the star, 20, keeps {4, 4}; the two 4s as a pair with one on the star, 8 + 4 = 12,
    # keep {10}; a 4 alone on the star, 8, keeps {4, 10}, whichever 4 it is
    state, rack = first_turn(9)
    assert rack == [4, 4, 10]
    moves = [m.text for m in root_moves(state, 1, True)]
    assert moves[0] == "place H7=4 H8=10" and moves[1] == "place H8=10"
    assert moves[2] == "place H7=4 H8=4" and moves[3] == "place H8=4"
    assert all(m.startswith("exchange") for m in moves[4:])


def test_looked_ahead_adds_the_gain_the_objectives_way_round():
    assert looked_ahead(game("triolet/standard"), [10, 20], 0, 13.0) == [23, 20]
    assert looked_ahead(game("tripeaks/aisleriot"), [5], 0, 2.0) == [7]


def test_the_spec_takes_next_and_leaves():
    config = parse_spec("300:greedy:halving:plies=2:next=0.5:leaves")
    assert config.lookahead == 0.5 and config.leaves and not config.auto
    assert parse_spec("300").lookahead == 0 and not parse_spec("300").leaves
    with pytest.raises(ValueError, match="next=X"):
        parse_spec("300:next=-1")


def test_endgame_plays_out_to_the_horizon_once_the_pool_is_small():
    from tests.players.test_mcts import started
    from tests.players.test_mcts_program import rows

    state = started("triolet/standard", 2, 3, 4)
    assert 0 < len(state.pool) < 81
    full, _ = rows(state, "20:greedy:halving:w=1")
    cut, _ = rows(state, "20:greedy:halving:w=1:plies=2")
    assert full != cut  # (the two searches differ here, so the test can tell them apart)
    # a pool at most N: no cut; above N: the plies' cut
    assert rows(state, f"20:greedy:halving:w=1:plies=2:endgame={len(state.pool)}")[0] == full
    assert rows(state, f"20:greedy:halving:w=1:plies=2:endgame={len(state.pool) - 1}")[0] == cut
    assert parse_spec("20:endgame=0").endgame == 0 and parse_spec("20").endgame == -1
