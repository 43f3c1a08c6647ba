"""Refill, exchange, pass and extra turns on the fake line board (a Scrabble-like flow)."""

from __future__ import annotations

from collections import Counter

from tests.kernel.helpers import game

# deal order: seat 0's rack, seat 1's rack, then the bag from the top
DEAL = "5 5 9  1 8 0  2 3 4 6 7 9 0 1 2 3 4 6 7 8"


def test_refill_after_a_placement():
    state = game("refill").new_game(2, 0, deal=DEAL)
    assert [p.name for p in state.hands[0]] == ["5", "5", "9"]
    state.apply("place L=5")  # the opening placement: no extra turn
    assert sorted(p.name for p in state.hands[0]) == ["2", "5", "9"]
    assert state.to_move == 1 and len(state.pool) == 13


def test_extra_turn_and_its_chain():
    state = game("refill").new_game(2, 0, deal=DEAL)
    state.apply("place L=5")
    state.apply("exchange 0 1")  # seat 1 cannot play 5 +- 2 with 1 8 0: it exchanges
    assert state.to_move == 0
    state.apply("place R=5")  # the same value as the end: diff 0, another turn
    assert state.to_move == 0 and state.round.turns == 3


def test_exchange_returns_reshuffles_and_draws_as_many():
    state = game("refill").new_game(2, 0, deal=DEAL)
    state.apply("place L=5")
    before = Counter(p.uid for p in state.pool) + Counter(p.uid for p in state.hands[1])
    state.apply("exchange 0 1")
    after = Counter(p.uid for p in state.pool) + Counter(p.uid for p in state.hands[1])
    assert before == after and len(state.hands[1]) == 3
    (chance,) = state.history[-1]["chances"]  # the pool's new order is recorded, first drawn first
    kept = [p.uid for p in state.hands[1]][:1]
    assert [p.uid for p in state.hands[1]] == kept + chance[:2]
    assert [p.uid for p in reversed(state.pool)] == chance[2:]


def test_exchange_moves_are_distinct_by_names():
    state = game("refill").new_game(2, 0, deal=DEAL)
    # 5 5 9: one 5, the other 5 is the same exchange
    assert [m.arg for m in state.legal_moves() if m.action == "exchange"] == [
        "5", "9", "5 5", "5 9"]


def test_a_round_of_turns_without_a_placement_ends_it():
    state = game("refill").new_game(2, 0, deal=DEAL)
    state.apply("place L=5")
    # seat 1 holds 1 8 0 against a 5 with max_diff 2: it cannot place, and exchanges
    state.apply("exchange 8")
    assert state.round.unable_in_row == 1
    # seat 0 could place, and exchanges anyway: the count starts again
    state.apply(next(m for m in state.legal_moves() if m.action == "exchange"))
    assert state.round.unable_in_row == 0


def test_the_unable_count_ends_the_round():
    state = game("refill").new_game(2, 0, deal=DEAL)
    state.apply("place L=5")
    state.round.unable_in_row = 1  # as if seat 0 had been unable the turn before
    state.apply("exchange 8")
    assert state.round.number == 1 and state.is_over
    assert state.round.reason == "nobody_can_place" and state.winner == 0
