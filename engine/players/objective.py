"""Which way scores count (`match.objective`), and the greedy choice that follows it:
shared by the agents, the search agents and the solver."""

from __future__ import annotations


def score_sign(game) -> int:
    """1 when higher scores are better (the default), -1 under `match.objective: lowest`."""
    return -1 if game.model.objective == "lowest" else 1


def greedy_move(state):
    """The legal move with the best immediate score for the mover, by the objective;
    ties: the first legal one."""
    moves = state.legal_moves()
    if len(moves) == 1:
        return moves[0]
    seat = state.to_move
    sign = score_sign(state.game)
    now = state.scores[seat]
    best, best_gain = moves[0], None
    for move in moves:
        _, trial = state.preview(move)
        gain = sign * (trial.scores[seat] - now)
        if best_gain is None or gain > best_gain:
            best, best_gain = move, gain
    return best
