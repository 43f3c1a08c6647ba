"""R442: an action's condition that needs the action's own moves is found at lint time."""

from __future__ import annotations

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


def test_the_kernel_counts_an_unknown_name_as_a_possible_cycle(write, tree):
    # the kernel's own check (it skips marking actions under way when there is no cycle)
    # cannot see into definitions: a guard reading one counts as reading every `can_`
    model, _ = _codes(write, tree, "if: unable and pool.count > 0",
                      define="  unable: not can_place\n")
    assert model is not None and can_cycle(model.actions)
