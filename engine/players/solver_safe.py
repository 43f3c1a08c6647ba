"""Safe and deferred moves: a `move` action's `safe:` and `defer:` conditions, read by
the solver's reachability search (`Solver.decide`).

A ruleset may mark an action's moves as safe to take without trying the others when a
condition holds (`safe:`, an expression over the move, read as the action's `if:` and
its destination's `accepts:` read it, `zone` the destination): a card put on a
foundation once nothing could still need it on the tableau. That is the author's word,
not the engine's proof; the search then expands such a position into that one move, so
a deal is decided in far fewer positions. Only deciding reads it: a safe move may still
cost points, so the fewest steps and the best score search every move.

`defer:` marks moves that seldom help (a run moved from one card onto its twin): the
search for a line first leaves them out, and only when that search ends without a line
(it proves nothing: it did not try every move) does a search with every move follow.
A line found either way is a real line, and only the full search says there is none,
so `defer:` can make deciding faster, never wrong.
"""

from __future__ import annotations

from typing import Callable

from engine.kernel.general_move import MoveRecord
from engine.kernel.zones import ListingView, zone_pieces

_PIECE_NAMES = ("tile", "card", "token", "piece")


def _conditions(game, field: str) -> dict:
    """Action name -> the compiled `field` (`safe` or `defer`) of its `move` actions."""
    return {a.name: getattr(a, field).evaluate for a in game.actions
            if a.kind == "move" and getattr(a, field) is not None}


def _tester(game, conditions: dict) -> Callable:
    """`holds(state, move)`: whether the condition of the move's action holds for it
    (the context as the move's listing sets it: `move`, the piece, `zone`)."""
    zones = game.model.zones.zones

    def holds(state, move) -> bool:
        condition = conditions.get(move.action)
        if condition is None:
            return False
        ctx = state._decision_context()
        data = move.data
        key, index = data.target, data.target_index
        ctx["move"] = MoveRecord(state.weak, data)
        for name in _PIECE_NAMES:
            ctx[name] = data.pieces[0]
        ctx["zone"] = ListingView(state.weak, key, index, zones[key].label,
                                  zone_pieces(state, key, index))
        try:
            return bool(condition(ctx))
        finally:
            for name in ("move", "zone") + _PIECE_NAMES:
                ctx.pop(name, None)

    return holds


def safe_picker(game) -> Callable | None:
    """`pick(state, moves)`: the first of `moves` whose action's `safe:` holds in
    `state`, else None; None when no action of `game` has a `safe:`."""
    conditions = _conditions(game, "safe")
    if not conditions:
        return None
    holds = _tester(game, conditions)

    def pick(state, moves):
        return next((m for m in moves if m.action in conditions and holds(state, m)), None)

    return pick


def defer_filter(game) -> Callable | None:
    """`kept(state, moves)`: `moves` without those whose action's `defer:` holds;
    None when no action of `game` has a `defer:`."""
    conditions = _conditions(game, "defer")
    if not conditions:
        return None
    holds = _tester(game, conditions)

    def kept(state, moves):
        return [m for m in moves if m.action not in conditions or not holds(state, m)]

    return kept
