"""Dominoes compiled (`engine/program/chain.py`): what the shared rule of
test_program.py (every covered ruleset and overlay played both ways) does not show by
itself: a program's state made from the interpreter's (the placements listed again,
`relist`), the opener of a later round (the rank reads `player.won_last_round`), and a
condition on the place action, which the chain board's code does not cover."""

from __future__ import annotations

import random

import pytest

from engine.program import NotCompiled, compile_program, why_not
from tests.program.test_program import _game


@pytest.fixture(autouse=True)
def _no_disk_cache(monkeypatch):
    monkeypatch.setenv("RULECRAFT_CACHE", "off")


def test_a_program_state_from_the_interpreters_plays_on_the_same():
    # half-way through a random round of All Fives with three players, the program's
    # state made from the interpreter's (`Program.from_state`) lists and scores the
    # same moves to the end of the match
    game = _game("dominoes/all-fives")
    program = compile_program(game)
    state, rng = game.new_game(3, 5), random.Random(5)
    for _ in range(6):
        state.apply(rng.choice(state.legal_moves()))
    s = program.from_state(state)
    while not state.is_over:
        assert program.legal_texts(s) == [m.text for m in state.legal_moves()]
        code = rng.choice(program.legal(s))
        text = program.move_text(s, code)
        program.apply(s, code)
        state.apply(text)
        assert program.scores(s) == state.scores
    assert program.is_over(s) and program.winner(s) == state.winner


def test_the_last_rounds_winner_opens_the_next_with_any_tile():
    # DO-4, DO-5 (shared/rules/dominoes.md): the first hand opens with the highest
    # double, a later one's opener is the last hand's winner, who may set any tile:
    # so in round 2 the opener's first listing offers every tile of its hand (7 in a
    # two-player Draw game, each a set: no two tiles give the same placement)
    game = _game("dominoes/draw")
    program = compile_program(game)
    for seed in range(40):
        s, rng = program.new(2, seed), random.Random(seed)
        while not program.is_over(s) and program.round_number(s) == 1:
            program.apply(s, rng.choice(program.legal(s)))
        last = s[program.fields["last_winner"]]
        if not program.is_over(s) and last is not None:
            break
    else:
        pytest.fail("no random game of 40 had a second round after a won hand")
    assert program.to_move(s) == last
    sets = [t for t in program.legal_texts(s) if t.startswith("place")]
    assert len(sets) == 7 and all("@" not in t for t in sets)


def test_a_condition_on_the_place_action_is_not_compiled(tmp_path):
    path = tmp_path / "doubles.yaml"
    path.write_text("extends: dominoes/draw\nruleset: {game: dominoes, title: t}\n"
                    "actions:\n  place:\n    kind: place\n    if: pool.count >= 0\n",
                    encoding="utf-8")
    game = _game(str(path))
    reason = why_not(game)
    assert reason == "a condition on the chain board's place action `place`"
    with pytest.raises(NotCompiled):
        compile_program(game)
