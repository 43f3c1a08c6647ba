"""`mcts`'s `infer`: the other hand believed from its moves as a greedy player's.
Worked on a Triolet opening (the fact sheet's scoring)."""

from __future__ import annotations

from collections import Counter
from math import comb

import pytest

from engine.players.inference import SLIP, follow, start, unseen
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


def _believed_after_opening():
    before, now = opening()
    return before, now, follow(start(before, 0), before, "place H7=2 H8=7", now, 0)


def test_the_opponents_play_rules_out_what_it_would_have_played():
    before, now, belief = _believed_after_opening()
    assert belief.seat == 1
    # What the other rack kept (one token) after laying 4 and 4, weighed against the
    # ways its unseen pieces make the rack 4, 4, x (as the searcher saw them then)
    # (the ways are counted on what the searcher cannot see now: a constant factor, the
    # ways of its own draws, multiplies every share alike)
    seen = unseen(now, 0) + Counter(["4", "4"])
    def share(x):
        ways = comb(seen["4"], 3) if x == "4" else comb(seen["4"], 2) * seen[x]
        return belief.kept[(x,)] / ways
    greedy = share("3")  # what it kept: its play was the best with it
    # a 0 kept makes no trio (2 + 7 + 0, 4 + 4 + 0 fall short) and no Triolet
    assert share("0") == pytest.approx(greedy)
    # a 7 kept would have made 4 + 4 + 7 a Triolet, 80 or more
    assert share("7") == pytest.approx(SLIP * greedy)
    # a 6 kept: H9=6 completes the row 2 + 7 + 6 (30) and I9=4 under it adds a pair of
    # 10: 40 points
    assert share("6") == pytest.approx(SLIP * greedy)


def test_the_rack_now_is_what_it_kept_and_two_draws():
    _, now, belief = _believed_after_opening()
    hidden = unseen(now, 0)
    # every rack of three holds one kept token; a rack 3, 0, 0 is kept 3 and drew 0, 0
    # or kept 0 and drew 3, 0; with a 7 in it, a 7 drawn (the kept 7 weighs SLIP)
    assert all(len(hand) == 3 for hand in belief.weights)
    kept = belief.kept
    def drew(part, hand):
        bag = hidden - Counter(part)
        rest = Counter(hand) - Counter(part)
        return comb(bag["0"], rest["0"]) * comb(bag["3"], rest["3"])
    expected = (kept[("3",)] * drew(("3",), ("0", "0", "3"))
                + kept[("0",)] * drew(("0",), ("0", "0", "3")))
    assert belief.weights[("0", "0", "3")] == pytest.approx(expected)


def test_the_searchers_own_pieces_leave_the_belief():
    # seed 8: the first player holds the only 15; the other rack cannot
    state = game("triolet/standard").new_game(2, 8)
    assert sorted(state.game.values[p.uid] for p in state.hands[0]) == [0, 2, 15]
    belief = start(state, 0)
    assert belief and not any("15" in hand for hand in belief.weights)
    # every rack of three of the unseen tokens, by the ways they make it: 0, 0, 0
    # from the eight zeros unseen
    assert belief.weights[("0", "0", "0")] == comb(8, 3)


def test_no_belief_where_hands_are_too_many_to_weigh():
    # Tri-Ominos: hands of distinct tiles, far more than `MOST`; three seats: none
    assert start(game("triominos/pressman").new_game(2, 1), 0) is None
    assert start(game("triolet/standard").new_game(3, 1), 0) is None


def test_a_line_the_agent_did_not_play_starts_again():
    before, now = opening()
    fresh = follow(start(before, 0), before, "place H7=7 H8=2", now, 0)
    assert fresh.kept == {} and fresh == start(now, 0)


def test_an_exchange_says_the_rack_could_not_lay():
    # seed 4: the first player lays a lone 13 on the star; the second gives back an 11.
    # Beside a lone 13 only a 0, 1 or 2 can lie (a pair sums to 15 at most), and a
    # greedy player places when it can; of the exchanges it takes the first, which
    # gives back the first name in text order ("10" < "11" < "3")
    state = game("triolet/standard").new_game(2, 4)
    before = state.clone()
    state.apply("place H8=13")
    state.apply("exchange 11")
    belief = follow(start(before, 0), before, "place H8=13", state, 0)
    seen = unseen(state, 0)
    def share(part):  # what it kept of the rack part + 11, against the ways to make it
        ways = 1
        for name, n in Counter(part + ("11",)).items():
            ways *= comb(seen[name], n)
        return belief.kept[part] / ways
    greedy = share(("3", "5"))
    assert share(("5", "7")) == pytest.approx(greedy)
    assert share(("3", "3")) == pytest.approx(greedy)
    assert share(("0", "3")) == pytest.approx(SLIP * greedy)  # it would have laid the 0
    assert share(("10", "3")) == pytest.approx(SLIP * greedy)  # it would have given back the 10
    assert all(len(part) == 2 for part in belief.kept)


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
