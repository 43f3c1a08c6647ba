"""R442: an action whose `if` needs that action's own moves.

Whether an action is allowed is decided before its moves are listed, so its condition
cannot ask whether it has moves: `draw: {if: not can_draw}` has no answer. The question
may also come round through other actions (`a` reads `can_b`, whose `if` reads `can_a`)
or through definitions. Found at lint time, so that play never meets it.
"""

from __future__ import annotations

from typing import Callable, Mapping

from engine.diagnostics import define
from engine.expr import ast as A
from engine.expr.parser import parse

R_CAN_CYCLE = define(
    "R442", "can-cycle", "an action's `if` needs its own moves (`can_<itself>`, maybe through others)"
)


def can_reads(names, definitions: Mapping) -> set[str]:
    """The actions whose `can_<action>` is read by an expression using `names`, directly or
    through the definitions it uses (each definition looked at once)."""
    found: set[str] = set()
    todo, seen = list(names), set()
    while todo:
        name = todo.pop()
        if name.startswith("can_"):
            found.add(name[4:])
        elif name in definitions and name not in seen:
            seen.add(name)
            source = definitions[name].source
            node = parse(source) if isinstance(source, str) else None
            if isinstance(node, A.Node):
                todo += [n.name for n in A.iter_nodes(node) if isinstance(n, A.Name)]
    return found


def can_graph(actions, definitions: Mapping) -> dict[str, set[str]]:
    """Action name -> the actions whose `can_` its `if` reads (a guard whose names are
    not known reads every one)."""
    every = {a.name for a in actions}
    graph = {}
    for action in actions:
        used = frozenset() if action.guard is None else getattr(action.guard, "names_used", None)
        graph[action.name] = set(every) if used is None else can_reads(used, definitions) & every
    return graph


def check_can_cycles(actions, definitions: Mapping, report: Callable) -> None:
    """Report (R442) each action whose `if` leads back to its own `can_`: `report(code,
    message, path, help)`, at that action's `if`."""
    reads = can_graph(actions, definitions)
    for action in actions:
        chain = cycle_through(action.name, reads)
        if chain is None:
            continue
        how = " reads " + ", whose `if` reads ".join(f"`can_{n}`" for n in chain)
        report(
            R_CAN_CYCLE,
            f"the `if` of action `{action.name}`{how}: whether `{action.name}` is allowed"
            f" would depend on its own moves",
            ("actions", action.name, "if"),
            "an action's condition may read `can_` of other actions only; say directly what"
            " must hold (e.g. `pool.count > 0`)",
        )


def cycle_through(start: str, reads: Mapping[str, set]) -> list[str] | None:
    """The actions read one after another from `start`'s `if` back to `start`, if any."""
    todo, seen = [(n, [n]) for n in sorted(reads.get(start, ()))], set()
    while todo:
        name, chain = todo.pop(0)
        if name == start:
            return chain
        if name in seen:
            continue
        seen.add(name)
        todo += [(n, chain + [n]) for n in sorted(reads.get(name, ()))]
    return None
