"""Which way scores count (`match.objective`), and the greedy choice that follows it:
shared by the agents, the search agents and the solver."""

from __future__ import annotations

import random

from engine.players.determinize import determinize


def score_sign(game) -> int:
    """1 when higher scores are better (the default), -1 under `match.objective: lowest`."""
    return -1 if game.model.objective == "lowest" else 1


def greedy_move(state, rng: random.Random | None = None):
    """The legal move with the best immediate score for the mover, by the objective;
    ties: the first legal one.

    With `rng`, the moves are previewed in a sample of what the mover cannot see
    (`determinize`), never in `state` itself: a move's score may depend on a hidden
    piece (the next one drawn, the tiles left on the other racks when it goes out),
    and an agent playing a real game must not read it. Without, `state` is previewed
    as it is (a search's own sample, which hides nothing real)."""
    moves = state.legal_moves()
    if len(moves) == 1:
        return moves[0]
    if rng is None:
        return moves[best_index(state, moves)]
    sample = determinize(state, state.to_move, rng)
    seen = sample.legal_moves()
    if [m.text for m in seen] != [m.text for m in moves]:  # legality read something hidden
        by_text = {m.text: m for m in seen}
        seen = [by_text.get(m.text) for m in moves]  # None: not legal in the sample
    return moves[best_index(sample, seen)]


def best_index(state, moves: list) -> int:
    """The index of the first move with the best immediate gain for the mover; a move
    given as None (not legal in a sample) is not previewed and taken only if none is."""
    seat = state.to_move
    sign = score_sign(state.game)
    now = state.scores[seat]
    best, best_gain = 0, None
    steps, scratch = state.game.steps, None
    for index, move in enumerate(moves):
        if move is None:
            continue
        # `state.preview(move)`, but a move that shuffles (an exchange) draws from one
        # scratch copy of the position's generator, made once for all the moves, where
        # a preview copies the generator for each (a copy costs about as much as the
        # preview itself): the gains are the same, the pieces an exchange previewed
        # would draw need not be
        trial = state.clone()
        trial.previewing = True
        if scratch is None:
            scratch = random.Random(0)
            scratch.setstate(state.rng.getstate())
        trial.rng, trial._rng_shared = scratch, False
        steps[move.action](trial, move)
        gain = sign * (trial.scores[seat] - now)
        if best_gain is None or gain > best_gain:
            best, best_gain = index, gain
    return best
