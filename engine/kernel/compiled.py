"""Compiled steps: what a move runs after its effect, as one generated function per action.

`flow.apply_move` is generic: it loops over an action's `then:` updates and scoring rules,
evaluating one compiled expression at a time. For each action, this module writes those
steps out as a single Python function, with each expression's own generated code
(`Expression.inline`) written in place, so that a move costs one call instead of one per
expression. The same is done for the round-end conditions, checked after every turn.

What is generated comes only from checked expression nodes and from the kernel's own
fixed text; every name, label and position from the ruleset is passed in as a constant of
the function's namespace, never written into the source. The steps do exactly what the
generic loops do, in the same order, with the same failures (`RuleFailure` naming the
rule and its line): the tests play every shipped ruleset both ways and compare.
"""

from __future__ import annotations

import keyword
import re
from typing import Callable

from engine.expr import runtime
from engine.expr.runtime import EvaluationError
from engine.kernel.moves import RuleFailure, make_event
from engine.kernel.views import make_context

_IDENT = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_PIECE_NAMES = ("tile", "card", "token", "piece")

#: errors an expression may raise: Python failures inside inlined code, or an
#: EvaluationError from an expression called as a function
_ERRORS = (EvaluationError,) + runtime.FAILURES


class _Writer:
    """Lines of one generated function, and the constants it reads."""

    def __init__(self):
        self.lines: list[str] = []
        self.consts: dict[str, object] = {}

    def const(self, value: object) -> str:
        name = f"K{len(self.consts)}"
        self.consts[name] = value
        return name

    def expr(self, expression) -> str:
        """Source evaluating `expression` over `v`: inlined, or a call of its function."""
        inline = expression.inline()
        return inline if inline is not None else f"{self.const(expression.evaluate)}(v)"

    def add(self, indent: int, text: str) -> None:
        self.lines.append("    " * indent + text)

    def guarded(self, indent: int, body: list[str], what: str, pos) -> None:
        """`body` inside a try that turns an expression's failure into a RuleFailure."""
        self.add(indent, "try:")
        for line in body:
            self.add(indent + 1, line)
        self.add(indent, "except k_ERRORS as exc:")
        self.add(indent + 1, f"raise k_failure({self.const(what)}, {self.const(pos)}, exc)"
                 " from exc")

    def build(self, name: str) -> Callable:
        namespace = dict(runtime.NAMESPACE, **self.consts)
        namespace.update(
            k_ERRORS=_ERRORS, k_failure=_failure, k_make_context=make_context,
            k_make_event=make_event, k_int=int, k_bool=bool,
            __builtins__={"getattr": getattr},
        )
        source = "\n".join(self.lines) + "\n"
        exec(compile(source, f"<compiled {name}>", "exec"), namespace)  # kernel text + checked nodes
        function = namespace[name]
        function.source = source
        return function


def _failure(what: str, pos, exc: Exception) -> RuleFailure:
    return RuleFailure(what, pos, runtime.explain(exc))


def _assign(counter: str, value: str) -> str:
    if _IDENT.fullmatch(counter) and not keyword.iskeyword(counter):
        return f"counters.{counter} = {value}"
    return f"setattr(counters, {counter!r}, {value})"


def compile_after(game, action) -> Callable | None:
    """`after(state, view, mover) -> extra turn?`: the action's `then:` updates and its
    scoring rules, as `flow._after_effect` runs them; None when the action has none of
    these, or when its rules pay someone other than the mover (the generic path)."""
    if not (action.then or action.scoring or action.extra_turn is not None):
        return None
    if action.scoring and not action.scoring_mover_only:
        return None
    w = _Writer()
    w.add(0, "def after(state, view, mover):")
    w.add(1, "v = k_make_context(state, mover)")
    w.add(1, "if view is not None:")
    w.add(2, 'v["move"] = view')
    if action.move_aliases:
        w.add(2, "pieces = view.pieces")
        w.add(2, "if pieces:")
        w.add(3, " = ".join(f'v["{n}"]' for n in action.move_aliases) + " = pieces[0]")
    what = f"action `{action.name}` (its `then` or `extra_turn`)"
    if action.then:
        w.add(1, "counters = state.counters")
        body = [f"n{i} = k_int({w.expr(e)})" for i, (_, e) in enumerate(action.then)]
        w.guarded(1, body, what, action.pos)
        for i, (name, _) in enumerate(action.then):
            w.add(1, _assign(name, f"n{i}"))
    if action.scoring:
        w.add(1, "scores = state.scores")
        w.add(1, "events = state.events")
    for rule in action.scoring:
        body = []
        indent = 0
        if rule.guard is not None:
            body.append(f"if {w.expr(rule.guard)}:")
            indent = 1
        pad = "    " * indent
        event = (f"k_make_event(mover, p, {w.const(rule.name)}, {w.const(rule.pos)}, "
                 f"{w.const(rule.label)})")
        body += [f"{pad}p = k_int({w.expr(rule.points)})", f"{pad}if p:",
                 f"{pad}    scores[mover] += p", f"{pad}    events.append({event})"]
        w.guarded(1, body, f"scoring rule `{rule.name}`", rule.pos)
    if action.extra_turn is None:
        w.add(1, "return False")
    else:
        w.guarded(1, [f"return k_bool({w.expr(action.extra_turn)})"], what, action.pos)
    return w.build("after")


def compile_round_end(model) -> Callable | None:
    """`round_end(v) -> index`: the first round-end condition true in context `v`, or -1;
    None when there are no conditions."""
    if not model.round_end:
        return None
    w = _Writer()
    w.add(0, "def round_end(v):")
    for i, cond in enumerate(model.round_end):
        w.guarded(1, [f"if {w.expr(cond.cond)}:", f"    return {i}"],
                  f"round-end condition `{cond.name}`", cond.pos)
    w.add(1, "return -1")
    return w.build("round_end")
