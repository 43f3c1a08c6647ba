"""A `move` action's `safe:` and `defer:` (engine/players/solver_safe.py) on a compiled
program's positions: each condition written as one function of the position and the
move's code, over the names the program's listing gives the move's own `accepts:`
and `if:` (`ZonesCode.candidate_names`), run in the program's namespace.

The function decodes the code as the program's step does (`ZonesCode.taken`): the
zone the pieces come from and how many (`run` and `pack` moves), the destination's
index; a `pick` move's origins and their pieces. A condition reading a name the
program does not give is not written (`conditions` returns None): the interpreter's search then.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Callable

from engine.program.plan import PIECE_NAMES, names_for

#: what `conditions` returns when a condition could not be written
NOT_WRITTEN = object()


def _condition_text(program, action, field: str, offset_base: int) -> str | None:
    """The text of `cond(s, code)` for `action`'s `field`, or None if not written."""
    plan, f, zones = program.plan, program.fields, program.plan.zones
    spec, expr = action.move, getattr(action, field)
    names = {**names_for(plan, "seat", "seat"), **zones.candidate_names(action)}
    names.update((alias, "mp[0]") for alias in PIECE_NAMES)
    text = expr.inline(names, keep=True)
    if text is None:
        return None
    rows = zones.count(spec.target)
    lines = ["def cond(s, code):", f"    seat = s[{f['to_move']}]",
             f"    scores, counters = s[{f['scores']}], s[{f['counters']}]",
             f"    pool, pile = s[{f['pool']}], s[{f['pile']}]"]
    if "hands" in f:
        lines.append(f"    hands = s[{f['hands']}]")
    lines += ["    " + line for line in zones._bind_lines(f)]
    lines.append(f"    c, ti = k_divmod(code - {offset_base}, {rows})")
    if spec.mode == "pick":  # (`ZonesCode.taken`: the origins' pieces, board or zone)
        j, size = zones.moves.index(action), zones.size
        board = f"s[{f['cards']}][o] if o < {size} else " if size else ""
        lines += [f"    mo = K_mo[{j}][c]", "    mk = _len(mo)",
                  f"    mp = [{board}zs[o - {size}][-1] for o in mo]"]
    elif spec.mode == "run":
        lines += [f"    z, mk = k_divmod(c, {spec.high + 1})", "    zl = zs[z]"]
    else:
        whole = "_len(zl)" if spec.high == 0 else f"min({spec.high}, _len(zl))"
        lines += ["    z = c", "    zl = zs[z]", f"    mk = {whole}"]
    if spec.mode != "pick":
        lines.append("    mp = zl[-mk:]")
    lines += [f"    tz = zs[{zones.first[spec.target]} + ti]",
              f"    return not not ({text})"]
    return "\n".join(lines) + "\n"


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
        text = _condition_text(program, action, field, base)
        if text is None:
            return NOT_WRITTEN
        namespace = dict(program.module)
        # the solver's own text over the ruleset's expression, as the program's listing
        exec(compile(text, f"<solver {field} {action.name}>", "exec"), namespace)
        tests.append(namespace["cond"])
    if not any(tests):
        return None

    def holds(s: list, code: int) -> bool:
        test = tests[bisect_right(starts, code) - 1]
        return test is not None and test(s, code)

    return holds
