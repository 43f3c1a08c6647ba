"""The kernel's turn, round and match flow on the fake board kinds, worked out by hand."""

from __future__ import annotations

import pytest

from engine.kernel import IllegalMove, Move
from tests.kernel.helpers import game

STACK_DEAL = "Ac 2c 3c 4c 5c Ad 2d 3d 4d 5d"


def test_move_repr_rebuilds_it():
    move = Move("place", "L=4")
    assert eval(repr(move)) == move  # noqa: S307 - the repr contract itself
    assert move.text == "place L=4" and Move("draw").text == "draw"


def test_deal_lays_out_board_pile_and_stock_in_order():
    state = game("stack").new_game(1, 0, deal=STACK_DEAL)
    # the board takes the first four cards, dealt across the two columns
    assert state.board.dump_position() == "Ac 3c / 2c 4c"
    assert [p.name for p in state.pile] == ["5c"]
    assert [p.name for p in reversed(state.pool)] == ["Ad", "2d", "3d", "4d", "5d"]


def test_counters_update_before_scoring_and_bonuses_follow_the_board():
    state = game("stack").new_game(1, 0, deal=STACK_DEAL)
    assert [m.text for m in state.legal_moves()] == ["play 4c", "deal"]
    gains = []
    for text in ["play 4c", "play 3c", "play 2c", "play Ac"]:
        gains.append(sum(e.points for e in state.apply(text)))
    # run 1, 2, 3 (+15: a bottom card, board not empty), 4 (+30: the board is cleared)
    assert gains == [1, 2, 18, 34]
    assert state.scores == [55]
    # the round was cleared, so a new one was dealt (the match ends only when stuck)
    assert state.round.number == 2 and not state.is_over
    assert state.counters.run == 0


def test_deal_resets_the_run_and_its_cost_is_floored():
    state = game("stack").new_game(1, 0, deal=STACK_DEAL)
    assert state.apply("play 4c")[0].points == 1
    # dealing costs 5, but never more than the score: -min(5, 1)
    assert [(e.rule, e.points) for e in state.apply("deal")] == [("deal_cost", -1)]
    assert state.pile[-1].name == "Ad" and state.counters.run == 0
    # the run starts again at 1; 2c was the bottom card of its column: +15
    assert [(e.rule, e.points) for e in state.apply("play 2c")] == [("card", 1), ("bottom", 15)]
    assert state.scores == [16]


def test_opening_rule_chooses_the_holder_of_the_best_piece():
    g = game("line")
    for seed in range(5):
        state = g.new_game(2, seed)
        best = max(p.value for h in state.hands for p in h)
        assert max(p.value for p in state.hands[state.to_move]) == best
        assert {m.data.pieces[0].value for m in state.legal_moves()} == {best}


def test_draw_only_when_unable_and_pass_only_with_an_empty_pool():
    g = game("line")
    state = g.new_game(2, 3)
    for _ in range(400):
        if state.is_over:
            break
        moves = state.legal_moves()
        kinds = {m.action for m in moves}
        if "place" in kinds:
            assert kinds == {"place"}
        elif state.pool:
            assert kinds == {"draw"}
        else:
            assert kinds == {"pass"}
        state.apply(moves[0])


def test_illegal_moves_say_why():
    state = game("line").new_game(2, 0)
    with pytest.raises(IllegalMove, match="no action is named `jump`"):
        state.apply("jump")
    with pytest.raises(IllegalMove, match="`draw` is not allowed now"):
        state.apply("draw")


def test_clone_is_independent_and_keys_agree():
    state = game("line").new_game(2, 1)
    copy = state.clone()
    assert copy.key() == state.key()
    copy.apply(copy.legal_moves()[0])
    assert copy.key() != state.key()
    assert state.history == [] and len(copy.history) == 1
    state.apply(state.legal_moves()[0])
    assert copy.key() == state.key()


def test_round_end_scoring_goes_to_the_winner_with_the_opponents_hands():
    state = game("line", {"hand_size: {2: 5, 3: 5, 4: 4}": "hand_size: 1"}).new_game(2, 4)
    # one token each: the opener places it and goes out at once
    opener = state.to_move
    other = 1 - opener
    left = state.hands[other][0].value
    placed = state.hands[opener][0].value
    events = state.apply(state.legal_moves()[0])
    rules = [(e.rule, e.player, e.points) for e in events]
    assert ("going_out", opener, 10 + left) in rules
    assert ("value", opener, placed) in rules and ("opening", opener, 3) in rules
    assert state.round.number == 2 and state.last_round_winner == opener


def test_every_game_ends_and_events_add_up():
    g = game("line")
    for seed in range(10):
        state = g.new_game(3, seed)
        while not state.is_over:
            state.apply(state.legal_moves()[seed % len(state.legal_moves())])
        assert sum(e.points for e in state.events) == sum(state.scores)
        assert state.round.number <= 20


def test_an_expression_failing_in_play_names_its_rule():
    from engine.kernel import RuleFailure

    # without a pile there is no `pile.top` for the play condition to read
    g = game("stack", {"deal: [{to: board}, {to: pile, count: 1}]": "deal: [{to: board}]"})
    with pytest.raises(RuleFailure, match=r"stack.yaml:15: the condition of action `play`.*`.rank` of none.*K520"):
        g.new_game(1, 0)


def test_mover_is_who_moved_even_in_rules_paying_others():
    # a round-end rule paying every player: `mover` is still the one who went out
    g = game("line", {
        "hand_size: {2: 5, 3: 5, 4: 4}": "hand_size: 1",
        "  draw_cost: {on: draw, points: -1}": (
            "  draw_cost: {on: draw, points: -1}\n"
            "  mover_bonus: {on: round_end, to: each, points: 'if player.index == mover.index "
            "then 100 else 1'}"),
    })
    state = g.new_game(2, 4)
    opener = state.to_move
    events = state.apply(state.legal_moves()[0])
    bonus = {e.player: e.points for e in events if e.rule == "mover_bonus"}
    assert bonus == {opener: 100, 1 - opener: 1}


def test_a_solitaire_is_won_by_clearing_not_by_scoring():
    g = game("stack", {'match: {end_if: round.reason == "stuck"}': "match: {end_if: true}"})
    cleared = g.new_game(1, 0, deal=STACK_DEAL)
    for text in ["play 4c", "play 3c", "play 2c", "play Ac"]:
        cleared.apply(text)
    assert cleared.is_over and cleared.round.reason == "cleared" and cleared.winner == 0
    # tops 3c and 3d; dealing the whole stock leaves 5d on the waste: nothing fits
    stuck = g.new_game(1, 0, deal="Ac Ad 3c 3d 5c 2c 4c 2d 4d 5d")
    while stuck.pool:
        stuck.apply("deal")
    assert stuck.is_over and stuck.round.reason == "stuck" and stuck.winner is None


@pytest.mark.parametrize("ref", ["triominos/pressman", "tripeaks/aisleriot"])
def test_a_dropped_state_is_freed_without_the_garbage_collector(ref):
    # Views and contexts reach their state weakly: a state is no reference cycle, so a
    # finished game goes at once rather than waiting for (and costing) a collection.
    import gc
    import random

    from engine.kernel import Game
    from engine.rules import load_ruleset
    from engine.rules.model import compile_model

    game = Game(compile_model(load_ruleset(ref))[0])
    gc.collect()
    gc.disable()
    try:
        for seed in range(3):
            state, rng = game.new_game(None, seed), random.Random(seed)
            state.context()["pool"].count  # noqa: B018 - a context and a view in use
            while not state.is_over:
                state.apply(rng.choice(state.legal_moves()))
            copy = state.clone()
            del state, copy
        assert gc.collect() == 0
    finally:
        gc.enable()
