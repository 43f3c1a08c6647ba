"""The moves a search compares at its root, and what a hand can score at once.

A search that can afford only a few root moves takes the best by immediate score
(`ranked_by_gain`). In a game where a hand's pieces wait for a better turn, the moves
that win are often not among them: a small play now that keeps the pieces that make a
large one later. With `leaves`, the root also takes, for each set of pieces a move
leaves in the hand (its *leave*, told by the pieces' values), the best move by immediate
score that leaves it (`with_leaves`): for a hand of three, at most eight more moves.

`best_gain` is what the seat to move could score with one move now, the value a search
adds for the hand when it stops a play-out early (`next=X`).
"""

from __future__ import annotations

from engine.players.objective import score_sign


def gains(state):
    """(signed immediate gain, index, move, the state after it) for each legal move of
    the seat to move, in the legal order (each previewed on a copy)."""
    seat, sign = state.to_move, score_sign(state.game)
    now = state.scores[seat]
    for index, move in enumerate(state.legal_moves()):
        _, trial = state.preview(move)
        yield sign * (trial.scores[seat] - now), index, move, trial


def ranked_by_gain(state) -> list[tuple]:
    """(signed immediate gain, index, move) for each legal move, best first; ties keep
    the legal order (the root's order of trial)."""
    return _ranked([(gain, index, move) for gain, index, move, _ in gains(state)])


def root_moves(state, width: int, leaves: bool) -> list:
    """The root's moves: the best `width` by immediate gain (the best first), then,
    with `leaves`, the best of each other leave, by gain."""
    if not leaves:
        return [row[2] for row in ranked_by_gain(state)[:width]]
    rows = _with_leave(state)
    return [row[2] for row in rows[:width]] + with_leaves(rows, {row[3] for row in rows[:width]})


def with_leaves(rows: list, seen: set) -> list:
    """The first move (rows best first) of each leave not in `seen`."""
    out = []
    for _, _, move, leave in rows:
        if leave not in seen:
            seen.add(leave)
            out.append(move)
    return out


def _with_leave(state) -> list[tuple]:
    """(gain, index, move, leave) for each legal move, best gain first: the leave is the
    sorted values of the mover's pieces still in hand after the move (new draws aside)."""
    values, before = state.game.values, state.hands[state.to_move]
    rows = []
    for gain, index, move, trial in gains(state):
        after = {id(p) for p in trial.hands[state.to_move]}
        rows.append((gain, index, move,
                     tuple(sorted(values[p.uid] for p in before if id(p) in after))))
    return _ranked(rows)


def _ranked(rows: list) -> list:
    rows.sort(key=lambda r: (-r[0], r[1]))
    return rows


def best_gain(state) -> float:
    """The most the seat to move can gain with one move now (the objective's way round;
    0 with no choice but one move that scores nothing)."""
    return max((gain for gain, _, _, _ in gains(state)), default=0.0) or 0.0
