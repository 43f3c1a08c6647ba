"""The square board's templates (`engine/program/square_lay.py`) run as the functions
they are do what the program's text made of them does: laying every play of random
games (`lay`, its parts inlined in the text, called in the function) leaves the same
board and gives the same measures, with and without jokers."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from engine.program import square_lay
from engine.program.square_source import TABLES
from engine.program.template import Inline
from tests.program.test_program_square import _code, _game, _place_action


def _lay_called(code, ns):
    """`square_lay.lay` with its parts, called over the program's own tables."""
    tables = SimpleNamespace(**{name: ns.get(text) for name, text in TABLES.items()})
    ends = Inline(square_lay.run_ends, {"B": tables})
    parts = dict(
        CELLS=Inline(square_lay.lay_cells, {"B": tables, "STRIDE": code.stride}),
        LINES=Inline(square_lay.lay_lines, {"B": tables, "STRIDE": code.stride,
                                            "SHIFT": code.shift,
                                            "MOST": code.rules.max_count,
                                            "NAMED": code.jokers, "ENDS": ends}),
        RECORDS=Inline(square_lay.lay_records, {"B": tables, "NAMED": code.jokers,
                                                "LAID": code.laid_table}))
    return lambda b, cells, values: square_lay.lay(b, cells, values, **parts)


@pytest.mark.parametrize("overlays", [(), ("jokers",)])
def test_the_laying_template_called_lays_as_its_text(overlays):
    game = _game("triolet/standard", overlays)
    code = _code(game)
    ns = code.functions()
    called, action = _lay_called(code, ns), _place_action(game)
    laid = 0
    for seed in range(6):
        state, rng = game.new_game(None, seed), random.Random(seed)
        mine, theirs = ns["B_new"](), ns["B_new"]()
        while not state.is_over:
            move = rng.choice(state.legal_moves())
            if move.action == action.name:
                play = move.data
                assert called(mine, play.cells, play.values) == \
                    ns["B_lay"](theirs, play.cells, play.values)
                assert mine == theirs
                laid += 1
            state.apply(move)
    assert laid > 100
