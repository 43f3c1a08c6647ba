"""Agents that choose moves: `random`, `greedy` and `mcts`, each seeded.

An agent is any object with `choose(state) -> Move`. `make_agent(spec, seed)` builds one
from a spec, a name with parameters after colons (`greedy`, `mcts:800:greedy`); the
specs are those accepted by `simulate --agents`, `compare --agents` and `play`.
`AGENT_INFO` describes each agent and its parameters (`rulecraft agents`).
"""

from __future__ import annotations

import random
from typing import Callable

from engine.kernel import Move, State
from engine.players.determinize import determinize
from engine.players.mcts import PARAMETERS, MctsAgent, parse_spec
from engine.players.objective import greedy_move, score_sign


class RandomAgent:
    """Any legal move, uniformly, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, state: State) -> Move:
        return self.rng.choice(state.legal_moves())


def move_gain(state: State, move: Move) -> tuple[int, list]:
    """The mover's immediate score change from `move`, and the events it causes."""
    seat = state.to_move
    events, trial = state.preview(move)
    return trial.scores[seat] - state.scores[seat], events


def ranked_moves(state: State, seed: int = 0) -> list[tuple[int, int, Move, list]]:
    """Every legal move with its immediate gain, best first by the ruleset's objective
    (the lowest gain first under `objective: lowest`); ties keep the legal order.

    Previewed, as greedy previews, in a sample of what the mover cannot see (seeded by
    `seed`, so the same position lists the same way), never in the hidden pieces
    themselves: a move's score may read them (a going-out bonus, the tiles left on the
    other racks), and this list is shown to the player. A move legal in the position
    but not in the sample (its legality read a hidden piece, which the player is
    shown by its being listed) is previewed in the position."""
    sample = determinize(state, state.to_move, random.Random(seed))
    listed = {m.text: m for m in sample.legal_moves()}
    scored = []
    for index, move in enumerate(state.legal_moves()):
        seen = listed.get(move.text)
        gain, events = move_gain(sample, seen) if seen is not None else move_gain(state, move)
        scored.append((gain, index, move, events))
    sign = score_sign(state.game)
    scored.sort(key=lambda item: (-sign * item[0], item[1]))
    return scored


class GreedyAgent:
    """The move with the best immediate score for the mover (by the ruleset's objective:
    the lowest under `objective: lowest`); ties: the first legal one. The scores are
    previewed in a sample of what the mover cannot see, never in the real hidden pieces."""

    name = "greedy"

    def __init__(self, seed: int = 0):
        self.seed = seed
        # What the mover cannot see is sampled before a move is previewed (`greedy_move`).
        self.rng = random.Random(seed)

    def choose(self, state: State) -> Move:
        return greedy_move(state, self.rng)


def _mcts(seed: int, params: str = ""):
    return MctsAgent(seed, parse_spec(params))


AGENTS: dict[str, Callable[..., object]] = {
    "random": RandomAgent, "greedy": GreedyAgent, "mcts": _mcts,
}

AGENT_INFO = {
    "random": {"summary": "any legal move, uniformly at random", "parameters": []},
    "greedy": {"summary": "the move with the best immediate score (by the ruleset's"
               " objective); ties: the first legal one", "parameters": []},
    "mcts": {"summary": "information-set Monte Carlo tree search: samples what it cannot"
             " see, never looks. A budget alone (mcts, mcts:800, mcts:1s) picks the"
             " search from the ruleset's measured cost; other parameters are taken as"
             " written (mcts:800:greedy:halving:plies=2)", "parameters": PARAMETERS},
}


def make_agent(spec: str, seed: int = 0):
    """An agent from its spec (`greedy`, `mcts:800:greedy`), seeded; raises ValueError
    for an unknown name or a bad parameter."""
    name, _, params = spec.strip().partition(":")
    factory = AGENTS.get(name.strip().lower())
    if factory is None:
        raise ValueError(f"unknown agent `{name}` (agents: {', '.join(AGENTS)})")
    if factory is _mcts:
        return factory(seed, params)
    if params:
        raise ValueError(f"agent `{name}` takes no parameters (`{spec}`)")
    return factory(seed)


def check_agent(spec: str) -> str | None:
    """Why `spec` names no agent (a message), or None if it is a good spec."""
    try:
        make_agent(spec)
    except ValueError as exc:
        return str(exc)
    return None


def agent_seed(game_seed: int, seat: int) -> int:
    """The seed of the agent in `seat` for the game seeded `game_seed` (stable, distinct)."""
    return game_seed * 7919 + seat + 1


def play_out(state: State, agents: list, max_moves: int = 1_000_000,
             seconds_per_move: int = 0) -> State:
    """Let the agents (one per seat) play until the match is over; returns the state.
    With `seconds_per_move` and a ruleset that reads `clock`, move k (from 1) is made
    with the clock at k x seconds_per_move; else the clock is never set (it reads 0)."""
    moves = 0
    timed = seconds_per_move > 0 and state.game.model.reads_clock
    while not state.is_over and moves < max_moves:
        move = agents[state.to_move].choose(state)
        if timed:
            state.set_clock((len(state.log) + 1) * seconds_per_move)
        state.apply(move)
        moves += 1
    return state
