"""`mcts` on the compiled program (engine/players/program_playout.py): the same search
as on the interpreter, sample for sample, so the same moves, visit counts and means."""

from __future__ import annotations

import random

import pytest

from engine.players.agents import GreedyAgent
from engine.players.determinize import determinize
from engine.players.mcts import MctsAgent, parse_spec
from engine.players.objective import best_index
from engine.players.program_playout import ProgramPlayout

from tests.players.test_mcts import game, permuted, started

FAMILIES = [
    ("triominos/pressman", 2, "30:greedy:halving:w=1:depth=6:held=1"),
    ("triolet/standard", 2, "30:greedy:halving:w=1:plies=2"),
    ("triolet/standard", 2, "30:greedy:halving:w=0.5:plies=2:next=0.5:leaves"),
    ("triominos/pressman", 2, "30:greedy:halving:w=0.5:plies=2:next=1:leaves"),
    ("tripeaks/aisleriot", 1, "30:greedy:halving:win"),
    ("dominoes/draw", 2, "30:greedy:halving:w=1:depth=6:held=1"),
    ("dominoes/draw", 2, "20:random:halving:horizon=match:depth=20"),
    ("pyramid/pysol", 1, "30:greedy:halving:win"),  # the stock's top face up
]


def rows(state, spec: str, seed: int = 5) -> list[tuple]:
    agent = MctsAgent(seed, parse_spec(spec))
    return [(m.text, share, mean) for m, share, mean in agent.ranked(state)], agent


@pytest.mark.parametrize("ref, players, spec", FAMILIES)
def test_the_program_searches_as_the_interpreter(ref, players, spec):
    assert ProgramPlayout.of(game(ref)) is not None
    for seed, moves in ((1, 2), (3, 7)):
        state = started(ref, players, seed, moves)
        if len(state.legal_moves()) < 2:
            state.apply(GreedyAgent().choose(state))
        compiled, agent = rows(state, spec)
        interpreted, _ = rows(state, spec + ":interpreter")
        assert agent.iterations > 0 and compiled == interpreted


def test_a_plain_spec_searches_on_the_program_as_on_the_interpreter():
    state = started("triolet/standard", 2, 2, 3)
    compiled, agent = rows(state, "40")
    interpreted, other = rows(state, "40:interpreter")
    assert agent.config.compiled and not other.config.compiled
    assert agent.tuned == other.tuned and compiled == interpreted


@pytest.mark.parametrize("ref, players", [("triolet/standard", 2), ("triominos/pressman", 2),
                                          ("pyramid/pysol", 1)])
@pytest.mark.parametrize("spec", ["24:greedy:halving:depth=4",
                                  "24:greedy:halving:w=0.5:plies=2:next=0.5:leaves"])
def test_it_does_not_cheat_on_the_program(ref, players, spec):
    state = started(ref, players, 4, 3)
    other = permuted(state, state.to_move, 99)
    first, _ = rows(state, spec, 7)
    second, _ = rows(other, spec, 7)
    assert [r[:2] for r in first] == [r[:2] for r in second]


@pytest.mark.parametrize("ref, players", [("triolet/standard", 2), ("triominos/pressman", 2),
                                          ("dominoes/draw", 2), ("tripeaks/aisleriot", 1)])
def test_a_greedy_move_on_the_program_is_the_interpreters(ref, players):
    # Along a greedy game, in a sample of each position: the program's greedy move
    # (previews by `preview_apply`) is the interpreter's (`best_index`).
    state = game(ref).new_game(players, 6)
    playout = ProgramPlayout.of(state.game)
    rng = random.Random(2)
    for _ in range(30):
        if state.is_over:
            break
        world = determinize(state, state.to_move, rng)
        s = playout.program.from_state(world)
        moves = world.legal_moves()
        assert s[playout.legal][best_index(world, moves)] == playout.greedy_code(s)
        state.apply(GreedyAgent().choose(state))
