"""`mcts`'s `infer`: the other hand sampled among those with which the opponent's last
play was a best-scoring one. Worked on a Triolet opening (the fact sheet's scoring)."""

from __future__ import annotations

from engine.players.inference import infer
from engine.players.mcts import MctsAgent, parse_spec

from tests.players.test_mcts import game, permuted

SPEC = "24:greedy:halving:w=0.5:plies=2:infer"


def opening():
    """Seed 3: the first player lays H7=2 H8=7; the second, holding 3, 4 and 4, lays
    F8=4 G8=4 down column 8 onto the 7: a trio 4 + 4 + 7 = 15, 30 points, keeping one
    token (the 3)."""
    state = game("triolet/standard").new_game(2, 3)
    before = state.clone()
    state.apply("place H7=2 H8=7")
    assert sorted(state.game.values[p.uid] for p in state.hands[1]) == [3, 4, 4]
    state.apply("place F8=4 G8=4")
    return before, state


def test_the_opponents_play_rules_out_what_it_would_have_played():
    before, now = opening()
    found = infer(before, "place H7=2 H8=7", now, 0)
    assert found.seat == 1 and found.k == 1
    allowed = {values[0] for values in found.allowed}
    assert 3 in allowed  # what it kept: its play was the best with it
    # a 7 kept would have made 4 + 4 + 7 a Triolet, 80 or more
    assert 7 not in allowed
    # a 6 kept: H9=6 completes the row 2 + 7 + 6 (30) and I9=4 under it adds a pair of
    # 10: 40 points
    assert 6 not in allowed
    # a 0 kept makes no trio (2 + 7 + 0, 4 + 4 + 0 fall short) and no Triolet
    assert 0 in allowed


def test_nothing_is_inferred_from_a_line_the_agent_did_not_play():
    # the log since the remembered position must start with the agent's own move
    before, now = opening()
    assert infer(before, "place H7=7 H8=2", now, 0) is None


def test_nothing_is_inferred_on_the_first_move_or_after_an_exchange():
    state = game("triolet/standard").new_game(2, 4)  # 13, 8, 10: nothing to pair
    agent = MctsAgent(1, parse_spec(SPEC))
    agent.observe(state)
    assert agent.inference is None
    before = state.clone()
    state.apply("place H8=13")
    exchange = next(m for m in state.legal_moves() if m.text.startswith("exchange"))
    state.apply(exchange)  # (no token is seen leave the other rack)
    assert infer(before, "place H8=13", state, 0) is None


def _searched_after(agent, before, now):
    agent.before = (before, "place H7=2 H8=7")
    agent.observe(now)
    return [(m.text, share, mean) for m, share, mean in agent.ranked(now)]


def test_infer_does_not_cheat():
    # the same public history, with the other hand and the bag dealt otherwise (in the
    # position the agent remembers and in the one it plays): the same search
    before, now = opening()
    one, two = MctsAgent(7, parse_spec(SPEC)), MctsAgent(7, parse_spec(SPEC))
    first = _searched_after(one, before, now)
    second = _searched_after(two, permuted(before, 0, 5), permuted(now, 0, 99))
    assert one.inference is not None and one.inference == two.inference
    assert [r[:2] for r in first] == [r[:2] for r in second]


def test_infer_searches_on_the_program_as_on_the_interpreter():
    before, now = opening()
    agent = MctsAgent(7, parse_spec(SPEC))
    compiled = _searched_after(agent, before, now)
    interpreted = _searched_after(MctsAgent(7, parse_spec(SPEC + ":interpreter")),
                                  before, now)
    assert agent.inference is not None and compiled == interpreted
