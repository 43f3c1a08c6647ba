"""The ruleset model's semantic checks (R430-R441): each problem found, with a position."""

from __future__ import annotations

import pytest

from engine.diagnostics import Severity
from engine.rules.model import compile_model
from tests.kernel.helpers import diagnose, stub

CASES = [
    ("R430", "line", {"board: {kind: line}": "board: {kind: lines}"}, "did you mean `line`?"),
    ("R431", "line", {"kind: numbered": "kind: numbred"}, "did you mean `numbered`?"),
    ("R432", "line", {"kind: draw": "kind: drew"}, "did you mean `draw`?"),
    ("R433", "line", {"  pass:\n    kind: pass": "  pass:\n    kind: play"}, None),
    ("R434", "line", {"draw_cost: {on: draw": "draw_cost: {on: drow"}, "did you mean `draw`?"),
    ("R435", "line", {"hand_size: {2: 5, 3: 5, 4: 4}": "hand_size: {2: 5, 3: 5, 4: 7}"}, None),
    ("R436", "stack", {"then: {run: 0}": "then: {runs: 0}"}, "did you mean `run`?"),
    ("R437", "line", {"winner: mover": "winner: first"}, None),
    ("R438", "line", {"value: {on: place,": "value: {on: place, to: winner,"}, None),
    ("R438", "line", {"value: {on: place,": "value: {on: place, to: all,"}, None),
    ("R439", "line", {"points: 10 + hand_total": "points: 10"}, None),
    ("R440", "line", {"players: {min: 2, max: 4, default: 2}": "players: {min: 3, max: 2}"}, None),
    ("R441", "stack", {"{to: pile, count: 1}": "{to: hand, count: 1}"}, None),
]


@pytest.mark.parametrize("code,name,replace,help", CASES, ids=[c[0] for c in CASES])
def test_each_semantic_problem_is_reported_where_it_is(code, name, replace, help):
    diagnostics = diagnose(name, replace)
    found = [d for d in diagnostics if d.code == code]
    assert found, diagnostics
    assert found[0].pos is not None and found[0].pos.line > 1
    if help:
        assert found[0].help == help


def test_an_unused_definition_is_only_a_warning():
    model, diagnostics = compile_model(stub("line", {"points: 10 + hand_total": "points: 10"}))
    assert model is not None
    assert [d.level for d in diagnostics] == [Severity.WARNING]


def test_the_shortage_names_the_counts():
    (d,) = [x for x in diagnose("line", {"hand_size: {2: 5, 3: 5, 4: 4}": "hand_size: 7"})
            if x.code == "R435"]
    assert "3 players x 7 pieces = 21, more than the 24 pieces" not in d.message
    assert "4 players x 7 pieces = 28, more than the 24 pieces of the set" in d.message


def test_expressions_are_checked_in_their_context():
    # `move` exists in a place action's guard, not in a round-end condition
    codes = [d.code for d in diagnose("line", {"if: player.hand_count == 0": "if: move.diff == 0"})]
    assert "E302" in codes
    # counters are typed: an undeclared one is an unknown field
    codes = [d.code for d in diagnose("stack", {"points: counters.run,": "points: counters.runs,"})]
    assert "E303" in codes


def test_the_model_carries_what_the_kernel_needs():
    model, _ = compile_model(stub("line"))
    assert [a.name for a in model.actions] == ["place", "draw", "pass"]
    assert model.action("draw").ends_turn is False
    assert model.hand_size_for(3) == 5 and len(model.pieces) == 24
    assert [r.name for r in model.scoring][:2] == ["value", "same"]
    assert model.scoring[0].pos.line == 29
    assert [c.name for c in model.round_end] == ["went_out", "blocked"]
    assert model.round_end[1].winner.mode == "lowest"
    assert model.match_winner.mode == "highest" and model.max_rounds == 20
    assert compile_model(stub("stack"))[0].match_winner.mode == "default"


def test_every_declared_name_and_field_exists_at_run_time():
    from engine.rules.contexts import ContextTypes
    from engine.expr.types import ListOf, Record
    from tests.kernel.helpers import game

    g = game("refill")
    state = g.new_game(2, 0)
    move = state.legal_moves()[0]
    types = ContextTypes(["numbered"], g.model.topology, [], [a.name for a in g.actions])
    env = types.move("place")
    ctx = state.context()
    from engine.kernel.generators import move_view

    ctx["move"] = move_view(state, g.action_by_name[move.action], move)
    for name, t in env.items():
        value = ctx[name] if name not in ("tile", "card", "token", "piece") else ctx["move"].pieces[0]
        if isinstance(t, ListOf) and isinstance(t.item, Record):
            value, t = value[0], t.item
        if isinstance(t, Record):
            for field in t.fields:
                getattr(value, field)
