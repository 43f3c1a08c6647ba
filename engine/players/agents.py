"""Agents that choose moves: `random` and `greedy`, each seeded.

An agent is any object with `choose(state) -> Move`. `make_agent(name, seed)` builds one
by name; the names are those accepted by `simulate --agents`.
"""

from __future__ import annotations

import random
from typing import Callable

from engine.kernel import Move, State


class RandomAgent:
    """Any legal move, uniformly, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, state: State) -> Move:
        return self.rng.choice(state.legal_moves())


def score_sign(game) -> int:
    """1 when higher scores are better (the default), -1 under `match.objective: lowest`."""
    return -1 if game.model.objective == "lowest" else 1


def move_gain(state: State, move: Move) -> tuple[int, list]:
    """The mover's immediate score change from `move`, and the events it causes."""
    seat = state.to_move
    events, trial = state.preview(move)
    return trial.scores[seat] - state.scores[seat], events


def ranked_moves(state: State) -> list[tuple[int, int, Move, list]]:
    """Every legal move with its immediate gain, best first by the ruleset's objective
    (the lowest gain first under `objective: lowest`); ties keep the legal order."""
    scored = []
    for index, move in enumerate(state.legal_moves()):
        gain, events = move_gain(state, move)
        scored.append((gain, index, move, events))
    sign = score_sign(state.game)
    scored.sort(key=lambda item: (-sign * item[0], item[1]))
    return scored


class GreedyAgent:
    """The move with the best immediate score for the mover (by the ruleset's objective:
    the lowest under `objective: lowest`); ties: the first legal one."""

    name = "greedy"

    def __init__(self, seed: int = 0):
        self.seed = seed

    def choose(self, state: State) -> Move:
        moves = state.legal_moves()
        if len(moves) == 1:
            return moves[0]
        seat = state.to_move
        sign = score_sign(state.game)
        best, best_gain = moves[0], None
        for move in moves:
            _, trial = state.preview(move)
            gain = sign * (trial.scores[seat] - state.scores[seat])
            if best_gain is None or gain > best_gain:
                best, best_gain = move, gain
        return best


AGENTS: dict[str, Callable[[int], object]] = {"random": RandomAgent, "greedy": GreedyAgent}


def make_agent(name: str, seed: int = 0):
    """An agent by name, seeded; raises ValueError for an unknown name."""
    try:
        return AGENTS[name](seed)
    except KeyError:
        raise ValueError(f"unknown agent `{name}` (agents: {', '.join(AGENTS)})") from None


def agent_seed(game_seed: int, seat: int) -> int:
    """The seed of the agent in `seat` for the game seeded `game_seed` (stable, distinct)."""
    return game_seed * 7919 + seat + 1


def play_out(state: State, agents: list, max_moves: int = 1_000_000) -> State:
    """Let the agents (one per seat) play until the match is over; returns the state."""
    moves = 0
    while not state.is_over and moves < max_moves:
        state.apply(agents[state.to_move].choose(state))
        moves += 1
    return state
