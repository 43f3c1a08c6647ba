"""R442: an action's condition that needs the action's own moves is found at lint time."""

from __future__ import annotations

from types import SimpleNamespace

from engine.kernel import Game
from engine.kernel.game import can_cycle
from engine.rules import check_ruleset
from engine.rules.model import compile_model

DRAW = "if: not can_place and pool.count > 0         # TO-6, TO-7: only when unable, unlimited"
PASS = "if: not can_place and pool.count == 0        # TO-8"


def _codes(write, tree, draw: str, passing: str = PASS, define: str = "") -> list:
    from tests.rules.conftest import PRESSMAN

    assert DRAW in PRESSMAN and PASS in PRESSMAN
    text = PRESSMAN.replace("game: triominos", "game: demo").replace(DRAW, draw).replace(PASS, passing)
    if define:
        text = text.replace("define:\n", "define:\n" + define, 1)
    path = write(tree, "demo/variant.yaml", text)
    ruleset, diagnostics = check_ruleset(str(path))
    assert ruleset is not None, diagnostics
    model, diagnostics = compile_model(ruleset)
    return model, [(d.code, d.pos.line if d.pos else None) for d in diagnostics if d.code == "R442"]


def test_reading_its_own_can_is_an_error_at_its_if(write, tree):
    model, found = _codes(write, tree, "if: not can_draw and pool.count > 0")
    assert model is None and found == [("R442", 46)]


def test_a_cycle_through_another_action_names_both(write, tree):
    model, found = _codes(write, tree, "if: not can_pass and pool.count > 0",
                          "if: not can_draw and pool.count == 0")
    assert model is None and found == [("R442", 46), ("R442", 50)]


def test_a_cycle_through_a_definition(write, tree):
    model, found = _codes(write, tree, "if: stuck and pool.count > 0",
                          define="  stuck: not can_draw\n")
    assert model is None and found == [("R442", 47)]  # a line lower: the definition added


def test_reading_other_actions_can_is_fine(write, tree):
    model, found = _codes(write, tree, "if: not can_pass and pool.count > 0")  # pass reads can_place
    assert model is not None and found == []
    assert not can_cycle(model.actions)


def test_the_kernel_looks_through_definitions_as_lint_does(write, tree):
    # the kernel lists moves without marking actions under way when no guard can lead
    # back to its own action; it must see a definition's `can_` reads as lint does
    model, found = _codes(write, tree, "if: unable and pool.count > 0",
                          define="  unable: not can_place\n")
    assert model is not None and found == []
    assert not can_cycle(model.actions, model.definitions)
    assert Game(model).legal is not None
    guard = SimpleNamespace(names_used=frozenset({"stuck"}))
    definitions = {"stuck": SimpleNamespace(source="not can_draw")}
    draw = SimpleNamespace(name="draw", guard=guard)
    assert can_cycle([draw], definitions) and not can_cycle([draw], {})
    # a guard whose names are not known counts as reading every `can_`
    assert can_cycle([SimpleNamespace(name="draw", guard=SimpleNamespace(names_used=None))])
