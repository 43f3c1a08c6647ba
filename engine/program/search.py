"""What a search needs of a program beyond `search_apply`: a cheap copy.

    child = search_fork(s)      a copy of `s` whose round-end lists are shared
    search_apply(child, m)      the step without the move's events or log entry

A search copies a position for each of its moves but the last (the position itself
takes that one: nothing reads it once its last child is searched), and a copy's
subtree applies moves in place, so every list a step changes must be the copy's own:
the scores and counters, the pool, the pile, the hands and the board's lists
(`copy_lines` of the board's part), as `search_copy` copies them; a fork may share
a board list that `search_apply` never changes (`search_copy_lines`: a tableau's cards,
whose taken slots are never exposed again). The lists only a round's end appends to
(`ended`, `chances`, its events) and the log stay shared: `search_apply` adds no event and no log entry, so
they are empty at every position within the round, and a search empties them again
after reading why a round ended (engine/players/solver_program.py).
"""

from __future__ import annotations

import re

from engine.program import match
from engine.program.plan import Plan
from engine.program.source import Source
from engine.program.template import fragment


def shares_board(plan: Plan) -> bool:
    """Whether a search's forks may share the board's lists that its step then leaves
    alone (`search_copy_lines`, `remove_lines(..., search=True)`): not when zones'
    moves may take from the board too, nor when an expression reads what those lists
    tell (the board's `shared_names`, `board.row_counts`)."""
    board = plan.board
    if plan.zones is not None or not hasattr(board, "search_copy_lines"):
        return False
    return not any(plan.mentions(re.escape(name)) for name in board.shared_names)


def own_lists(plan: Plan, fork: bool = False) -> list[str]:
    """The lines giving the copy `c` of `s` its own copy of every list a search's step
    changes: the scores, counters, pool, pile, hands and the board's (`search_copy` and
    `search_fork` both). `fork`: a board kind may share the lists its search step
    leaves alone (`search_copy_lines`): a fork is stepped by `search_apply` only,
    while a `search_copy` may play on with `apply`."""
    f = plan.fields
    lines = fragment(match.search_lists, dict(F=match.layout(f), HANDS=plan.hands,
                                              HELD=plan.held))
    board_lines = plan.board.copy_lines
    if fork and shares_board(plan):
        board_lines = plan.board.search_copy_lines
    lines += board_lines(f)
    return lines + (plan.zones.copy_lines(f) if plan.zones is not None else [])


def fork_lines(src: Source, plan: Plan) -> None:
    """`search_fork(s)` (see the module's docstring)."""
    src.add(0, "def search_fork(s):")
    src.add(1, "\"\"\"A copy of `s` for `search_apply`: its round-end lists shared.\"\"\"")
    src.add(1, "c = s[:]")
    src.block(1, own_lists(plan, fork=True))
    src.add(1, "return c")
    src.add(0, "")
