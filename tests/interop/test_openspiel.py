"""Every shipped ruleset through OpenSpiel: its own consistency test, its MCTS bot, and
the action encoding."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.interop.conftest import SHIPPED

pyspiel = pytest.importorskip("pyspiel")
rc = pytest.importorskip("engine.interop.openspiel")
from engine.interop import views  # noqa: E402
pytestmark = pytest.mark.openspiel


@pytest.mark.parametrize("ruleset", SHIPPED)
def test_random_sim_test(ruleset):
    # mask_test is off: the mask would be a list as long as the 2**31 - 1 action codes.
    pyspiel.random_sim_test(rc.load(ruleset), num_sims=1, serialize=True, verbose=False,
                            mask_test=False)


@pytest.mark.parametrize("ruleset", SHIPPED)
def test_mcts_plays_a_game(ruleset):
    from open_spiel.python.algorithms import mcts

    game = rc.load(ruleset)
    rng = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng, max_length=8)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=3, evaluator=evaluator,
                       solve=False, random_state=rng)
    state, picks = game.new_initial_state(), random.Random(1)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[picks.randrange(len(outcomes))][0])
        elif state.current_player() == 0:
            state.apply_action(bot.step(state))
        else:
            state.apply_action(picks.choice(state.legal_actions()))
    assert len(state.returns()) == game.num_players()


def test_parameters_ruleset_overlays_players():
    game = pyspiel.load_game("rulecraft", {"ruleset": "triominos/club", "with": "three-vertex",
                                           "players": 3})
    assert game.num_players() == 3
    with pytest.raises(Exception, match="2-6 players, not 7"):
        rc.load("triominos/club", players=7)


def _dealt(game, order=None):
    """A state after its chance nodes: the pieces dealt in uid order (or `order`)."""
    state = game.new_initial_state()
    for uid in order or range(len(state.chance_outcomes())):
        state.apply_action(uid)
    assert not state.is_chance_node()
    return state


def test_actions_are_codes_of_the_move_texts():
    from engine.interop.views import move_code

    state = _dealt(rc.load("triominos/pressman"))
    kernel = state.match.state
    texts = sorted(m.text for m in kernel.legal_moves())
    assert sorted(state.action_to_string(a) for a in state.legal_actions()) == texts
    assert state.legal_actions() == sorted(move_code(t) for t in texts)
    # The code is a function of the text alone: "draw" has one integer in every game.
    assert move_code("draw") == int.from_bytes(__import__("hashlib").blake2b(
        b"draw", digest_size=8).digest(), "big") >> 33


def test_returns_are_the_final_scores():
    state = _dealt(rc.load("tripeaks/pysol-scored"))  # its round start scores (a buy-in)
    while not state.is_terminal():
        assert state.returns() == state.rewards() == [0.0]
        state.apply_action(state.legal_actions()[0])
    assert state.returns() == state.rewards() == [float(state.match.state.scores[0])]


def test_information_states_hide_the_other_hand():
    state = _dealt(rc.load("triominos/pressman"))
    hands = state.match.state.hands
    mine, theirs = state.information_state_string(0), state.information_state_string(1)
    assert " ".join(p.name for p in hands[0]) in mine
    assert " ".join(p.name for p in hands[0]) not in theirs
    # Two deals that give seat 0 the same hand look the same to seat 0 and to seat 1 not.
    game = rc.load("triominos/pressman")
    uids = list(range(56))
    other = uids[:9] + uids[9:18][::-1] + uids[18:]  # seat 1's nine pieces in another order
    a, b = _dealt(game, uids), _dealt(game, other)
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.information_state_string(1) != b.information_state_string(1)
    assert str(a) != str(b)  # the full state (for debugging) does show every hand


def test_a_missing_openspiel_is_one_line_naming_the_extra():
    code = "import sys; sys.modules['pyspiel'] = None; import engine.interop.openspiel"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parents[2],
                          env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])})
    assert done.stderr.strip().splitlines()[-1] == (
        "engine.extras.MissingExtra: engine.interop.openspiel needs pyspiel, which is not"
        " installed: pip install 'rulecraft[openspiel]'")


def test_a_game_without_a_ruleset_says_so():
    with pytest.raises(Exception, match="needs a `ruleset` parameter"):
        pyspiel.load_game("rulecraft")


def test_an_exchange_shows_its_pieces_to_the_mover_only():
    from engine.interop.views import Match, seat_view

    game_ref = next(r for r in SHIPPED if any(
        a.kind == "exchange" for a in views.load_game(r).actions))
    match = Match(game_ref, (), 2)
    for uid in range(len(match.game.pieces)):
        match.apply_chance(uid)
    mover = match.state.to_move
    exchanges = [m for m in match.state.legal_moves() if m.action == "exchange"]
    match.play(exchanges[0])
    assert match.dealing  # the pool's new order is chance: one step per piece
    while match.dealing:
        match.apply_chance(match.chance_outcomes()[-1][0])
    count = len(exchanges[0].text.split()) - 1
    assert f"{mover}:{exchanges[0].text}" in seat_view(match, mover)
    assert f"{mover}:exchange ({count} pieces)" in seat_view(match, 1 - mover)


def test_every_shuffle_is_chance_nodes_and_the_kernel_uses_those_outcomes():
    """Tri-Ominos deals every round anew: each round's shuffle is a run of chance nodes,
    and the kernel's own record holds exactly the orders chance chose."""
    state, picks = rc.load("triominos/pressman").new_initial_state(), random.Random(2)
    mid_game = 0
    while not state.is_terminal():
        if state.is_chance_node():
            mid_game += bool(state.match.moves)
            state.apply_action(picks.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(picks.choice(state.legal_actions()))
    match, kernel = state.match, state.match.state
    assert kernel.round.number > 1 and mid_game == 56 * (len(match.chances) - 1)
    recorded = [list(c) for c in kernel.setup_chances] + [
        list(c) for entry in kernel.history for c in entry["chances"]]
    assert recorded == match.chances
