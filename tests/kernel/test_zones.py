"""Zones and the general `move` action: the deal into a row of zones follows the deal
listing, what each seat may not see, and an empty zone's top (the short forms played as
`move`s: tests/kernel/test_long_forms.py)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine.kernel import Game, RuleFailure
from engine.rules import load_ruleset
from engine.rules.model import compile_model

HERE = Path(__file__).parent


def _game(ref: str, overlays=()) -> Game:
    model, problems = compile_model(load_ruleset(ref, overlays))
    assert model is not None, problems
    return Game(model)


def _trace(game: Game, seed: int) -> list:
    state, rng, out = game.new_game(1, seed), random.Random(seed), []
    while not state.is_over:
        legal = state.legal_moves()
        out.append([m.text for m in legal])
        out.append([(e.rule, e.points) for e in state.apply(rng.choice(legal))])
    return out + [state.scores, state.round.reason]


def test_a_deal_by_round_lays_the_piles_as_the_listing_says():
    # klondike.md section 3: pile p, depth d (0 = bottom) is token 7d - d(d - 1)/2 + (p - 1 - d)
    game = _game("klondike/aisleriot")
    state = game.new_game(1, 0, deal=list(range(52)))
    piles = state.zones["tableau"]
    for p in range(1, 8):
        assert [c.uid for c in piles[p - 1]] == [
            7 * d - d * (d - 1) // 2 + (p - 1 - d) for d in range(p)]
    assert state.down["tableau"] == [0, 1, 2, 3, 4, 5, 6]  # the top of each face up
    assert [c.uid for c in reversed(state.pool)] == list(range(28, 52))  # 28 on top


def test_what_a_seat_may_not_see():
    klondike = _game("klondike").new_game(1, 0)
    hidden = klondike.hidden_from(0)
    assert len(hidden["stock"]) == 24  # the stock lies face down
    assert [len(hidden.get(f"tableau[{i}]", [])) for i in range(7)] == [0, 1, 2, 3, 4, 5, 6]
    assert _game("klondike", ["thoughtful"]).new_game(1, 0).hidden_from(0) == {}
    peaks = _game("tripeaks").new_game(1, 0).hidden_from(0)
    assert len(peaks["board"]) == 18 and len(peaks["stock"]) == 23  # TP-2: 18 face down
    pyramid = _game("pyramid").new_game(1, 0).hidden_from(0)
    assert len(pyramid["stock"]) == 22  # 23 in the stock, its top face up (PY-4)
    rack = _game("triominos").new_game(2, 0)
    assert set(rack.hidden_from(0)) == {"well", "rack[1]"}  # the other's rack, the well
    assert rack.hidden_from(0)["rack[1]"] == rack.hands[1]


def test_every_zone_is_seen_by_name_and_as_a_list():
    state = _game("klondike").new_game(1, 0, deal=list(range(52)))
    ctx = state.context()
    assert [z.count for z in ctx["zones"].tableau] == [1, 2, 3, 4, 5, 6, 7]
    assert ctx["zones"].stock.count == ctx["zones"].pool.count == 24
    assert ctx["zones"].waste.top is None  # an empty zone's top is none
    assert ctx["player"].zones.hand.count == 0


def test_the_top_of_an_empty_zone_fails_as_k520_at_the_if_line(tmp_path):
    text = (HERE / "rulesets" / "long-forms.yaml").read_text()
    path = tmp_path / "empty-top.yaml"
    path.write_text(text.replace("extends: tripeaks/aisleriot", "extends: tripeaks/aisleriot\n"
                                 "setup: {deal: [{to: board}]}"))
    game = _game(str(path))
    with pytest.raises(RuleFailure, match=r"aisleriot.yaml:51: the condition of action `play`"
                       r" failed: `.rank` of none.*\[K520\]"):
        game.new_game(1, 0).legal_moves()


def test_a_par_match_is_six_games_each_dealt_afresh():
    # pyramid.md 6.4: "A match is six games, each with two redeals": six rounds, each a
    # new deal with its passes and `cleared_in` started again, the match's score the sum
    # of the six par scores (each at most 50, at least -52: every card left)
    game = _game("pyramid/par")
    state, rng = game.new_game(1, 3), random.Random(3)
    deals, starts = [state.key()], [state.counters.as_dict()]
    while not state.is_over:
        number = state.round.number
        state.apply(rng.choice(state.legal_moves()))
        if state.round.number != number and not state.is_over:
            deals.append(state.key())
            starts.append(state.counters.as_dict())
    pars = [e.points for e in state.events if e.rule == "par"]
    assert state.round.number == 6 and len(pars) == 6 and len(set(deals)) == 6
    assert starts == [{"passes": 1, "cleared_in": 0}] * 6
    assert state.scores == [sum(pars)] and all(-52 <= p <= 50 for p in pars)
