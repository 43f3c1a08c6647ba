"""A plain `mcts` spec chooses its search from what the ruleset's greedy play-outs cost
(`engine.players.tuning`); `plies=N` cuts play-outs by turns, not moves."""

from __future__ import annotations

import pytest

from engine.players.agents import GreedyAgent, make_agent
from engine.players.mcts import MctsAgent, parse_spec
from engine.players.tuning import DEAR_PREVIEWS, Cost, choose, measure

from tests.players.test_mcts import permuted, started


def test_only_a_plain_spec_is_tuned():
    for spec in ("", "800", "0.5s", "1S"):
        assert parse_spec(spec).auto, spec
    for spec in ("800:greedy", "halving", "1s:win", "depth=4", "c=1", "random"):
        assert not parse_spec(spec).auto, spec
    assert parse_spec("800").budget_given and not parse_spec("").budget_given


def test_the_choice_follows_the_cost():
    alone = choose(Cost(1, 48, 1.8), None)
    assert (alone["playout"], alone["halving"], alone["objective"]) == ("greedy", True, "win")
    cheap = choose(Cost(2, 66, DEAR_PREVIEWS), None)
    assert (cheap["depth"], cheap["held"], cheap["plies"]) == (6, 1.0, 0)
    dear = choose(Cost(2, 18, 30.0), None)
    dearer = choose(Cost(2, 18, 60.0), None)
    assert dear["plies"] and not dear["depth"]
    # twice the moves to preview a move: half the samples (the same work a search)
    assert dearer["iterations_default"] < dear["iterations_default"]


@pytest.mark.parametrize("ref, players, dear", [
    ("triolet/standard", 2, True), ("triominos/pressman", 2, False),
    ("dominoes/draw", 2, False), ("tripeaks/aisleriot", 1, False),
])
def test_each_family_is_measured_and_tuned(ref, players, dear):
    # Triolet's greedy move previews some 30 placements and exchanges (measured 28.6 a
    # move over five greedy games), the others' fewer than 2 (most moves are forced)
    state = started(ref, players, 4, 2)
    while len(state.legal_moves()) < 2:
        state.apply(GreedyAgent().choose(state))
    agent = MctsAgent(5, parse_spec("40"))
    cost = measure(state, state.to_move, agent.rng)
    assert cost.players == players and cost.moves >= 1
    assert (cost.previews > DEAR_PREVIEWS) == dear
    agent.ranked(state)
    assert not agent.config.auto and agent.config.halving and agent.config.iterations == 40
    assert agent.tuned.startswith("mcts:40:greedy:halving")
    assert ("win" in agent.tuned) == (players == 1)
    # dear play-outs: cut after the reply, half the mover's best score then counted
    assert agent.tuned.endswith(":plies=2:next=0.5") == dear
    # the same hidden pieces dealt otherwise: the same measurement and the same choice
    other = MctsAgent(5, parse_spec("40"))
    other.ranked(permuted(state, state.to_move, 3))
    assert other.tuned == agent.tuned


def test_a_plain_spec_takes_the_tuned_budget():
    state = started("triominos/pressman", 2, 4, 2)
    while len(state.legal_moves()) < 2:
        state.apply(GreedyAgent().choose(state))
    agent = make_agent("mcts", 1)
    agent.choose(state)
    assert agent.config.iterations == 300 and agent.tuned.startswith("mcts:300:")


def test_plies_count_turns_not_moves():
    # Triolet from a seeded position: plies=1 stops a play-out as soon as the turn has
    # passed on (the searching seat's own turn only, an extra turn included); plies=2
    # after the reply. Counted on the play-outs themselves (the interpreter's: on the
    # program they are the same, tests/players/test_mcts_program.py).
    state = started("triolet/standard", 2, 4, 2)
    seen = []

    class Counting(MctsAgent):
        def play_out(self, world, start, seat):
            before = len(world.log)
            results = super().play_out(world, start, seat)
            seen.append((len(world.log) - before, world.to_move))
            return results

    for plies, back_to_seat in ((1, False), (2, True)):
        seen.clear()
        Counting(2, parse_spec(f"12:greedy:halving:plies={plies}:interpreter")).ranked(state)
        assert seen and all((to == state.to_move) == back_to_seat for _, to in seen)
        assert all(moves >= (1 if back_to_seat else 0) for moves, _ in seen)
