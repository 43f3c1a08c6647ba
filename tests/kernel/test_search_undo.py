"""Apply and take back in place (`State.search_save` / `search_restore`) and the search
steps (`Game.search_steps`): a search may step the position itself and undo it.

For every shipped ruleset and overlay, random games (multi-player ones too): at each
position every legal move is applied with the search step and taken back, after which
the position must be exactly what it was (the kernel's full `key`, the scores, the
legal moves, the log, the events); and the search step must leave the same position
and scores as the real step on a clone.
"""

from __future__ import annotations

import random

import pytest

from engine.kernel import Game
from engine.rules import load_ruleset
from engine.rules.model import compile_model
from tests.kernel.test_properties import shipped


def _snapshot(state) -> tuple:
    return (state.key(), list(state.scores), [m.text for m in state.legal_moves()],
            len(state.log), list(state.events), state.is_over, state.winner,
            state.turns_total, state.history[-3:], state.rng.getstate())


def _check_position(game: Game, state) -> None:
    before = _snapshot(state)
    for move in list(state.legal_moves()):
        real = state.clone()
        game.steps[move.action](real, move)
        saved = state.search_save()
        game.search_steps[move.action](state, move)
        assert state.key(False) == real.key(False), move.text
        assert state.scores == real.scores and state.is_over == real.is_over, move.text
        assert [m.text for m in state.legal_moves()] == [m.text for m in real.legal_moves()]
        state.search_restore(saved)
        assert _snapshot(state) == before, f"after taking back {move.text}"


@pytest.mark.parametrize("ref,overlays", shipped(),
                         ids=lambda x: "+".join(x) if isinstance(x, tuple) else x)
def test_every_move_is_taken_back_exactly(ref, overlays):
    model, diagnostics = compile_model(load_ruleset(ref, overlays))
    assert model is not None, "\n".join(map(str, diagnostics))
    for game in (Game(model), Game(model, compiled=False)):
        players = None if model.players_max == 1 else 2
        state, rng = game.new_game(players, 3), random.Random(3)
        for _ in range(40):
            if state.is_over:
                break
            _check_position(game, state)
            state.apply(rng.choice(state.legal_moves()))
        # taken back, the game goes on as if nothing had been tried
        replay = game.new_game(players, 3)
        for entry in state.history:
            replay.apply(entry["move"])
        assert replay.key() == state.key() and replay.scores == state.scores
