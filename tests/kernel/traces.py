"""What a seeded game shows, for tests that play one game two ways and compare."""

from __future__ import annotations

import random


def seeded_trace(game, seed: int, greedy: bool, players=None, limit: int | None = None) -> list:
    """Each position's move texts and each move's events, by random (seeded) or greedy
    (best immediate score, the first of equals) choices, then the end: history, scores,
    winner, round number and every event. `limit` caps the trace's entries."""
    state, rng, trace = game.new_game(players, seed), random.Random(seed), []
    while not state.is_over and (limit is None or len(trace) < limit):
        legal = state.legal_moves()
        trace.append([m.text for m in legal])
        if greedy:
            gains = [state.preview(m)[1].scores[state.to_move] for m in legal]
            move = legal[gains.index(max(gains))]
        else:
            move = rng.choice(legal)
        trace.append([e.as_dict() for e in state.apply(move)])
    trace.append((state.history, state.scores, state.winner, state.round.number,
                  [e.as_dict() for e in state.events]))
    return trace


def plays_as_the_program(path, program, players: int, seeds: int) -> None:
    """Import the module `rulecraft compile -o` wrote at `path` and play seeded random
    games on it and on `program` side by side: the same moves listed at every position,
    the same scores at the end, and the compiled program's match over."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for seed in range(seeds):
        mine, theirs = module.new(players, seed), program.new(players, seed)
        rng = random.Random(seed)
        while module.legal(mine):
            assert module.legal(mine) == program.legal(theirs)
            code = rng.choice(module.legal(mine))
            module.apply(mine, code)
            program.apply(theirs, code)
        assert module.scores(mine) == program.scores(theirs) and program.is_over(theirs)
