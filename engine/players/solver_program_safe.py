"""A `move` action's `safe:` and `defer:` (engine/players/solver_safe.py) on a compiled
program's positions: each condition a function of the position and the move's code.

The move's code is decoded as the program's step decodes it (`ZonesCode.candidate`:
the zone the pieces come from and how many, a pick's origins, their pieces, the
destination's index), and the condition is the expression compiler's own function of
those values (`fold.expression_function`), read with the names the program's listing
gives a move's `accepts:` and `if:` (`ZonesCode.candidate_names`). A condition reading
a name the program does not give is not written (`conditions` returns `NOT_WRITTEN`):
the interpreter's search then.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Callable

from engine.program.fold import expression_function
from engine.program.plan import PIECE_NAMES, names_for

#: what `conditions` returns when a condition could not be written
NOT_WRITTEN = object()

#: the values a condition is a function of: the names the program's generated
#: functions bind (`names_for`, the zones' `zs` and `dn`) and those a candidate move's
#: code decodes to (`ZonesCode.candidate`), with `tz` the destination's pieces
PARAMS = "s, seat, scores, counters, pool, pile, hands, zs, dn, c, ti, mo, z, zl, mk, mp, tz"


def _condition(program, action, field: str, base: int) -> Callable | None:
    """`cond(s, code)` for `action`'s `field`, or None if not written."""
    plan, f, zones = program.plan, program.fields, program.plan.zones
    names = {**names_for(plan, "seat", "seat"), **zones.candidate_names(action)}
    names.update((alias, "mp[0]") for alias in PIECE_NAMES)
    test = expression_function(getattr(action, field), names, PARAMS, program.module)
    if test is None:
        return None
    first = zones.first[action.move.target]  # (the destination's first place)
    candidate = zones.candidate
    seat_at, scores_at, counters_at = f["to_move"], f["scores"], f["counters"]
    pool_at, pile_at, zones_at, down_at = f["pool"], f["pile"], f["zones"], f["down"]
    hands_at = f.get("hands")

    def cond(s: list, code: int) -> bool:
        zs, pool, pile = s[zones_at], s[pool_at], s[pile_at]
        zs[0], zs[1] = pool, pile  # (as the program's functions bind them)
        c, ti, mo, z, zl, mk, mp = candidate(s, f, action, code - base, zs)
        return bool(test(s, s[seat_at], s[scores_at], s[counters_at], pool, pile,
                         None if hands_at is None else s[hands_at], zs, s[down_at],
                         c, ti, mo, z, zl, mk, mp, zs[first + ti]))

    return cond


def conditions(program, field: str) -> Callable | None | object:
    """`holds(s, code)`: whether the `field` (`safe` or `defer`) of the move's action
    holds for the move `code` of position `s`; None when no action has one;
    `NOT_WRITTEN` when one could not be written (see the module's docstring)."""
    starts, tests = [], []
    for action, base in program.plan.actions:
        starts.append(base)
        expr = getattr(action, field, None) if action.kind == "move" else None
        if expr is None:
            tests.append(None)
            continue
        test = _condition(program, action, field, base)
        if test is None:
            return NOT_WRITTEN
        tests.append(test)
    if not any(tests):
        return None

    def holds(s: list, code: int) -> bool:
        test = tests[bisect_right(starts, code) - 1]
        return test is not None and test(s, code)

    return holds
