"""Every shipped ruleset as a PettingZoo AEC environment (PettingZoo's own api_test), and
every solitaire as a Gymnasium environment (Gymnasium's check_env)."""

from __future__ import annotations

import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from tests.interop.conftest import SHIPPED

pytest.importorskip("pettingzoo")
pz = pytest.importorskip("engine.interop.pettingzoo")
from engine.interop.views import load_game  # noqa: E402

SOLITAIRES = [r for r in SHIPPED if load_game(r).model.players_max == 1]


@pytest.mark.parametrize("ruleset", SHIPPED)
def test_api_test(ruleset):
    from pettingzoo.test import api_test

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its advice (e.g. "not a NumPy array") is not a failure
        api_test(pz.env(ruleset), num_cycles=300)  # to the end of a game


@pytest.mark.parametrize("ruleset", SOLITAIRES)
def test_check_env(ruleset):
    from gymnasium.utils.env_checker import check_env

    check_env(pz.solitaire_env(ruleset), skip_render_check=True)


def test_the_aec_game_is_the_kernel_game():
    """Playing index 0 each step plays the kernel's first legal move: the same game."""
    aec = pz.env("triominos/pressman")
    aec.reset(seed=4)
    state = load_game("triominos/pressman").new_game(2, 4)
    totals = {a: 0 for a in aec.possible_agents}
    for agent in aec.agent_iter():
        obs, reward, done, cut, info = aec.last()
        totals[agent] += reward
        if done or cut:
            aec.step(None)
            continue
        assert info["moves"][0] == state.legal_moves()[0].text
        assert obs["action_mask"].sum() == len(state.legal_moves())
        state.apply(state.legal_moves()[0])
        aec.step(0)
    assert [totals[a] for a in aec.possible_agents] == state.scores


def test_observations_hide_the_other_hand():
    aec = pz.env("triominos/pressman")
    aec.reset(seed=1)
    hands = aec.state_.hands
    mine = aec.observe("seat_0")["observation"]
    assert [int(mine[4 * p.uid]) for p in hands[0]] == [1] * len(hands[0])
    assert [int(mine[4 * p.uid]) for p in hands[1]] == [0] * len(hands[1])


def test_tableau_face_down_cards_are_not_observed():
    single = pz.solitaire_env("tripeaks")
    obs, _ = single.reset(seed=3)
    seen = int(obs["observation"][1::4][: len(single.game.pieces)].sum())
    assert seen == len(single.state_.board.exposed_items()) == 10  # the bottom row


def test_a_missing_extra_is_one_line_naming_it():
    root = Path(__file__).resolve().parents[2]
    code = "import sys; sys.modules['pettingzoo'] = None; import engine.interop.pettingzoo"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=root,
                          env={**os.environ, "PYTHONPATH": str(root)})
    assert done.stderr.strip().splitlines()[-1] == (
        "engine.extras.MissingExtra: engine.interop.pettingzoo needs pettingzoo, which is not"
        " installed: pip install 'rulecraft[rl]'")
