"""Each board kind's part of a program meets its declared protocol
(`engine/program/parts.py`): every member, with the protocol's parameter names, for the
move kinds the part says it moves pieces with."""

from __future__ import annotations

import pytest

from engine.kernel import Game
from engine.program import parts
from engine.program.plan import BOARD_CODE, make_plan
from engine.rules import load_ruleset
from engine.rules.model import compile_model

#: one ruleset of each board kind with a part (its default; jokers: another square text)
_RULESETS = {"tableau": ["tripeaks", "pyramid"], "triangular": ["triominos"],
             "square": ["triolet", "triolet/standard+jokers"], "chain": ["dominoes"],
             "none": ["klondike"]}


def _part(ref: str):
    name, _, overlay = ref.partition("+")
    model, problems = compile_model(load_ruleset(name, (overlay,) if overlay else ()))
    assert model is not None, problems
    return make_plan(Game(model)).board


def test_every_registered_kind_has_a_ruleset_here():
    assert set(_RULESETS) == set(BOARD_CODE)


@pytest.mark.parametrize("ref", [r for refs in _RULESETS.values() for r in refs])
def test_part_meets_its_protocols(ref):
    part = _part(ref)
    assert isinstance(part, BOARD_CODE[part.kind])
    assert parts.breaches(part, parts.BoardPart) == []
    assert isinstance(part, parts.BoardPart)
    for kind in part.move_kinds:
        assert parts.breaches(part, parts.FOR_MOVE_KIND[kind]) == [], kind
    if hasattr(part, "key_text"):  # (a part the solver keys: both of what it reads)
        assert parts.breaches(part, parts.SearchPart) == []


class _Renamed:
    """A part whose `place_lines` names its parameters otherwise, and lacks `direct`."""

    kind, fields, move_kinds, size = "x", (), frozenset({"place"}), 0

    def place_lines(self, f, index, piece):
        return []


def test_breaches_name_what_is_missing_or_misnamed():
    found = parts.breaches(_Renamed(), parts.PlacingPart)
    assert "no `direct`" in found and "no `constants`" in found
    assert any(b.startswith("`place_lines(f, index, piece)` is not") for b in found)
    assert not any("kind" in b for b in found)
