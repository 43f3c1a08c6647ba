"""Tables folded from a ruleset's expressions when its program is generated.

Some conditions read so little that their every value can be worked out once, for
every case, and looked up instead of evaluated on each step:

- `K_fit<i>`: a board action's guard that reads only the candidate piece and the
  pile's top (a card playable on the waste card): `K_fit<i>[top uid][piece uid]`,
  the guard's truth for that pair. The listing reads it whenever the pile has a top
  (an empty pile: the guard is evaluated as written, and fails as it does).
- `K_slot<i>`: a scoring rule's guard, on a board action's move, that reads only
  the move's slot (`"peak" in move.slot.tags`): `K_slot<i>[slot]`, its truth there.

A table is made only when the expression's value is known for every case without a
failure, so a lookup gives what evaluating would. The tables are a function of the
plan alone (`tables`): the generator writes a lookup where `tables(plan)` has one,
and the program's namespace binds the same tables (`engine.program.program`), so a
source kept in the cache reads exactly the tables a fresh one would.
"""

from __future__ import annotations

from engine.expr import runtime
from engine.program.plan import PIECE_NAMES, Plan

#: pieces at most for a pair table (it holds one entry per pair of pieces)
MOST_PIECES = 256


def fit_name(index: int) -> str:
    """The name of action `index`'s pair table."""
    return f"K_fit{index}"


def slot_name(index: int) -> str:
    """The name of scoring rule `index`'s slot table."""
    return f"K_slot{index}"


def tables(plan: Plan) -> dict[str, tuple]:
    """Every table folded for `plan` (see the module's docstring), by name."""
    kept = getattr(plan, "_folded", None)
    if kept is None:
        kept = {}
        for i, (action, _) in enumerate(plan.actions):
            table = _fit_table(plan, action)
            if table is not None:
                kept[fit_name(i)] = table
        for i, rule in enumerate(plan.model.scoring):
            table = _slot_table(plan, rule)
            if table is not None:
                kept[slot_name(i)] = table
        plan._folded = kept
    return kept


def expression_function(expr, names: dict, params: str, namespace: dict | None = None):
    """`expr` as a Python function of `params` (its names read as `names` give them),
    or None when it reads any other name; its globals a copy of `namespace` (default:
    the expressions' runtime, `runtime.NAMESPACE`; a program's module for names that
    read the program's tables)."""
    text = expr.inline(names, keep=True)
    if text is None:
        return None
    namespace = dict(runtime.NAMESPACE if namespace is None else namespace)
    # the checked expression compiler's own text (`Expression.inline`), as in a program
    exec(compile(f"def _folded({params}):\n    return {text}\n", "<folded>", "exec"),
         namespace)
    return namespace["_folded"]


def _pieces(plan: Plan) -> list | None:
    pieces = sorted(plan.game.pieces, key=lambda p: p.uid)
    if len(pieces) > MOST_PIECES or [p.uid for p in pieces] != list(range(len(pieces))):
        return None
    return pieces


def _fit_table(plan: Plan, action) -> tuple | None:
    if action.guard is None or action.kind not in plan.board.move_kinds:
        return None
    pieces = _pieces(plan)
    if pieces is None:
        return None
    names = {"pile.top": "_t", **{alias: "_p" for alias in PIECE_NAMES}}
    fits = expression_function(action.guard, names, "_p, _t")
    if fits is None:
        return None
    try:
        return tuple(tuple(bool(fits(p, top)) for p in pieces) for top in pieces)
    except Exception:  # (some pair fails: evaluated as written, failing as written)
        return None


def _slot_table(plan: Plan, rule) -> tuple | None:
    slots = getattr(plan.board, "slot_values", None)
    if rule.guard is None or slots is None:
        return None
    if not any(a.name == rule.on and a.kind in plan.board.move_kinds for a, _ in plan.actions):
        return None
    holds = expression_function(rule.guard, {"move.slot": "_slot"}, "_slot")
    if holds is None:
        return None
    try:
        return tuple(bool(holds(slot)) for slot in slots())
    except Exception:
        return None
