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


def _tie_break(score: float) -> float:
    """A solitaire's score (the objective's way round) squeezed into (-0.001, 0.001):
    it orders results that clear alike (a deal nobody clears is still played for the
    best score: under `lowest`, the fewest cards left) and never outweighs clearing."""
    return 0.001 * score / (1.0 + abs(score))


def results_of(game, scores: list, hands: list, winner: int | None, objective: str,
               held: float = 0.0) -> list[float]:
    """Each seat's result: a win (1, a tie 0.5, a loss 0) or the score margin over the
    best other seat (alone: the score), the objective's way round. With `held` (a
    playout cut short), `held` times the value of the pieces a seat still holds counts
    against it: most rulesets pay them to whoever goes out. (`scores` and `hands` are
    the interpreter's or a program's: the same lists.)"""
    n, sign = len(scores), score_sign(game)
    scores = [sign * v for v in scores]
    if held and n > 1:
        values = game.values
        scores = [v - held * sum(values[p.uid] for p in hands[s])
                  for s, v in enumerate(scores)]
    if objective == "win":
        if n == 1:  # cleared first; between lines that do not clear, the better score
            return [(1.0 if winner == 0 else 0.0) + _tie_break(scores[0])]
        return [0.5 if winner is None else float(winner == s) for s in range(n)]
    if n == 1:
        return [float(scores[0])]
    out = []
    for s in range(n):
        best_other = max(scores[o] for o in range(n) if o != s)
        out.append(float(scores[s] - best_other))
    return out


def looked_ahead(game, scores: list, seat: int, gain: float) -> list:
    """`scores` with `gain` (the objective's way round) added to `seat`'s: what a play-out
    cut short counts for the hand of the seat to move (`mcts`'s `next=X`)."""
    out = list(scores)
    out[seat] += score_sign(game) * gain
    return out
