"""Random games on a ruleset's compiled program (`engine.program`), for `play_game`.

When every seat is the `random` agent and the ruleset has a program, a game is played
on the program: the same deal, the same agents' generators (`agent_seed`), the same
choices (`rng.choice` of the legal moves, listed in the interpreter's order), so the
same `GameStats` as the interpreter gives (tests/analysis/test_program_runs.py), in
less time. Anything else, or any ruleset without a program, plays on the interpreter.
"""

from __future__ import annotations

import random
import time
from typing import Sequence

from engine.program import program_for


def random_program(game, agent_names: Sequence[str], deal):
    """The program to play on, or None: the game's program when every agent is
    `random` and no deal is fixed."""
    if deal is not None or any(name.strip().lower() != "random" for name in agent_names):
        return None
    return program_for(game)


def play_program_game(program, stats, players: int, seed: int, max_moves: int,
                      finish_on_state) -> None:
    """Play game `seed` on `program`, filling `stats` as `runs.play_game` does."""
    from engine.players.agents import agent_seed

    start = time.perf_counter()
    choosers = [random.Random(agent_seed(seed, s)).choice for s in range(players)]
    s = program.new(players, seed)
    stats.first = program.to_move(s)
    events = s[program.fields["events"]]
    names = [name for name, _, _ in program.rules]
    _tally(stats, names, events)
    legal, moves, apply, to_move = program.legal(s), 0, program.apply, program.fields["to_move"]
    while legal and moves < max_moves:
        before = len(events)
        legal = apply(s, choosers[s[to_move]](legal))
        if len(events) > before:
            _tally(stats, names, events[before:])
        moves += 1
    for reason in program.round_reasons(s):
        stats.reasons[reason] = stats.reasons.get(reason, 0) + 1
    reasons = program.round_reasons(s)
    stats.last_reason = reasons[-1] if reasons else None
    _finish(program, stats, s, finish_on_state)
    stats.duration_ms = round((time.perf_counter() - start) * 1000, 3)


def _tally(stats, names: list, compact) -> None:
    """`runs._tally` of one move's events, from the program's (seat, points, rule)."""
    seen = set()
    points, fired = stats.points, stats.fired
    for _, gained, rule in compact:
        name = names[rule]
        points[name] = points.get(name, 0) + gained
        if name not in seen:
            seen.add(name)
            fired[name] = fired.get(name, 0) + 1


def _finish(program, stats, s, finish_on_state) -> None:
    model = program.game.model
    stats.scores = list(program.scores(s))
    stats.winner = program.winner(s)
    stats.turns = program.turns(s)
    stats.rounds = program.round_number(s)
    if model.match_end is not None and stats.rounds >= model.max_rounds:
        finish_on_state(stats, program.to_state(s), model)  # (rare: the interpreter's check)
