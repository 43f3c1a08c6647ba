"""The six older action kinds are short forms of `move`: a ruleset with each written as
its long form (tests/kernel/rulesets/*-long-forms.yaml) plays the same games as the
shipped one, seed for seed: the same legal moves listed at every step, the same score
events, the same record (moves, chance outcomes, scores) and the same end.

`place`, `pass` and `exchange` written long compile to their own kind's action (the
model rewrites them, one code path); `play`, `deal` and `draw` written long are general
moves, which must behave as the short forms do, `turn.draws` included."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine.kernel import Game
from engine.rules import load_ruleset
from engine.rules.model import compile_model

HERE = Path(__file__).parent / "rulesets"


def _game(ref: str) -> Game:
    model, problems = compile_model(load_ruleset(ref))
    assert model is not None, problems
    assert problems == []  # a long form is no mistake: not even a warning
    return Game(model)


def _trace(game: Game, seed: int) -> list:
    """Everything observable of a random game: each step's legal moves, the move chosen,
    its score events; then the record's history, the scores and the round's end."""
    state, rng, out = game.new_game(None, seed), random.Random(seed), []
    while not state.is_over:
        legal = state.legal_moves()
        move = rng.choice(legal)
        out.append(([m.text for m in legal], move.text, state.turn.draws))
        out.append([(e.player, e.rule, e.points) for e in state.apply(move)])
    return out + [state.history, state.scores, state.round.reason]


CASES = {
    # long form fixture: (short form ruleset, the actions written long, their inner kinds)
    "triominos-long-forms.yaml": ("triominos/pressman", {"place": "place", "draw": "move",
                                                         "pass": "pass"}),
    "triolet-long-forms.yaml": ("triolet/standard", {"place": "place",
                                                     "exchange": "exchange", "pass": "pass"}),
    "dominoes-long-forms.yaml": ("dominoes/draw", {"place": "place", "draw": "move",
                                                   "pass": "pass"}),
    "long-forms.yaml": ("tripeaks/aisleriot", {"play": "move", "deal": "move"}),
    "pyramid-long-forms.yaml": ("pyramid/pysol", {"deal": "move"}),
}


@pytest.mark.parametrize("fixture", sorted(CASES))
def test_a_long_form_plays_the_games_of_its_short_form(fixture):
    short_ref, written_long = CASES[fixture]
    long_game, short_game = _game(str(HERE / fixture)), _game(short_ref)
    data = long_game.model.ruleset.data["actions"]
    for name, inner in written_long.items():
        assert data[name]["kind"] == "move"  # written as a move ...
        assert long_game.action_by_name[name].kind == inner  # ... compiled to this
    played = set()
    for seed in range(4):
        trace = _trace(long_game, seed)
        assert trace == _trace(short_game, seed), (fixture, seed)
        played |= {chosen.split()[0] for _, chosen, _ in trace[:-3:2]}
    assert set(written_long) <= played  # every long form was played, and played alike


def test_a_long_form_draw_counts_in_turn_draws():
    # Tri-Ominos draws do not end the turn: after two draws in one turn, `turn.draws` is 2
    # both ways (worked by hand: a 2-player game, a draw is legal only when unable to place,
    # found by playing seeds until one turn draws twice).
    for ref in ("triominos/pressman", str(HERE / "triominos-long-forms.yaml")):
        game = _game(ref)
        for seed in range(40):
            state = game.new_game(2, seed)
            while not state.is_over and state.turn.draws < 2:
                draws = [m for m in state.legal_moves() if m.action == "draw"]
                state.apply(draws[0] if draws else state.legal_moves()[0])
            if state.turn.draws == 2:
                break
        assert state.turn.draws == 2, ref


@pytest.mark.parametrize("fixture", ["dominoes-long-forms.yaml", "triolet-long-forms.yaml",
                                     "triominos-long-forms.yaml"])
def test_a_long_form_plays_as_its_short_form_under_greedy_agents(fixture):
    # greedy previews every move on copies of the state (a long form's moves must preview,
    # copy and score as the short form's do)
    from engine.players.agents import make_agent, play_out

    def played(game: Game) -> tuple:
        seats = game.model.players_default
        state = play_out(game.new_game(None, 1), [make_agent("greedy", s) for s in range(seats)])
        return state.history, state.scores, state.round.reason

    assert played(_game(str(HERE / fixture))) == played(_game(CASES[fixture][0]))


def test_the_long_form_fixtures_lint_clean():
    from engine.rules.lint import lint_paths

    assert [str(d) for d in lint_paths([HERE / f for f in sorted(CASES)])] == []
