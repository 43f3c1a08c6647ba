"""The `mcts` agent: it never looks at what its seat cannot see, it is deterministic for
a seed and an iteration budget, it keeps its budget, and it follows the objective."""

from __future__ import annotations

import json
import random

import pytest
from typer.testing import CliRunner

from engine.cli import app
from engine.kernel import Game
from engine.players.agents import GreedyAgent, check_agent, make_agent, play_out
from engine.players.determinize import determinize, hidden_places
from engine.players.mcts import MctsAgent, hint_text, mcts_hint, parse_spec
from engine.rules import load_ruleset
from engine.rules.model import compile_model

from tests.players.test_objective import DEAL, golf


def game(ref: str) -> Game:
    return Game(compile_model(load_ruleset(ref))[0])


def started(ref: str, players: int, seed: int, moves: int):
    """A seeded game after `moves` greedy moves."""
    state = game(ref).new_game(players, seed)
    for _ in range(moves):
        state.apply(GreedyAgent().choose(state))
    return state


def permuted(state, seat: int, seed: int):
    """The same position with everything `seat` cannot see dealt again at random:
    the other hands, the pool and face-down board pieces, each keeping its size."""
    other = state.clone()
    places = hidden_places(other, seat)
    pieces = [p for pl in places for p in _pieces(other, pl)]
    random.Random(seed).shuffle(pieces)
    for place in places:
        dealt, pieces = pieces[:place.size], pieces[place.size:]
        if place.kind == "hand":
            other.hands[place.seat] = dealt
        elif place.kind == "pool":
            other.pool = dealt + other.pool[place.size:]  # a top shown is seen
        else:
            for slot, piece in zip(place.slots, dealt):
                other.board.set_hidden(slot, piece)
    other.rng = random.Random(seed)  # the real chance generator differs too
    other._invalidate()
    return other


def _pieces(state, place):
    if place.kind == "hand":
        return list(state.hands[place.seat])
    if place.kind == "pool":
        return list(state.pool[:place.size])
    return [piece for _, piece in state.board.hidden_items()]


@pytest.mark.parametrize("spec", ["60", "24:greedy:halving:depth=4",
                                  "24:greedy:expand=greedy:depth=4:held=1"])
@pytest.mark.parametrize("ref, players, moves", [
    ("triominos/pressman", 2, 3),
    ("triolet/standard", 2, 2),
    ("tripeaks/aisleriot", 1, 4),
    ("dominoes/draw", 2, 3),
    ("pyramid/pysol", 1, 2),  # the stock's top is face up: seen, the rest hidden
])
def test_it_does_not_cheat(ref, players, moves, spec):
    # Two states that differ only in what the seat to move cannot see: the same
    # search, so the same move and the same visit counts, for the same seed.
    state = started(ref, players, 4, moves)
    seat = state.to_move
    other = permuted(state, seat, 99)
    hidden = [(p.kind, p.seat) for p in hidden_places(state, seat)]
    assert any(_pieces(state, p) != _pieces(other, p) for p in hidden_places(state, seat))
    assert other.hands[seat] == state.hands[seat] and hidden
    first = MctsAgent(7, parse_spec(spec)).ranked(state)
    second = MctsAgent(7, parse_spec(spec)).ranked(other)
    assert [(m.text, share) for m, share, _ in first] == [(m.text, s) for m, s, _ in second]
    # Greedy previews its moves in a sample too (test_objective has a deal where reading
    # the real pool would change its move).
    assert GreedyAgent(7).choose(state).text == GreedyAgent(7).choose(other).text


def test_a_determinization_keeps_what_is_seen():
    state = started("triominos/pressman", 2, 4, 3)
    seat = state.to_move
    world = determinize(state, seat, random.Random(1))
    assert world.hands[seat] == state.hands[seat] and world.board.key() == state.board.key()
    assert [len(h) for h in world.hands] == [len(h) for h in state.hands]
    assert len(world.pool) == len(state.pool)
    unseen = sorted(p.uid for p in state.pool + state.hands[1 - seat])
    assert sorted(p.uid for p in world.pool + world.hands[1 - seat]) == unseen


def test_a_pool_whose_top_is_face_up_keeps_its_top():
    # Pyramid (PySol): the stock's top card is face up and may be paired (PY-4), so a
    # sample deals again only the cards beneath it, and a move on the top stays legal.
    state = started("pyramid/pysol", 1, 3, 2)
    hidden = [p for p in hidden_places(state, 0) if p.kind == "pool"]
    assert hidden[0].size == len(state.pool) - 1
    texts = {m.text for m in state.legal_moves()}
    for seed in range(5):
        world = determinize(state, 0, random.Random(seed))
        assert world.pool[-1] is state.pool[-1]
        assert sorted(p.uid for p in world.pool) == sorted(p.uid for p in state.pool)
        assert {m.text for m in world.legal_moves()} == texts
    state = started("pyramid/pysol", 1, 3, 0)
    play_out(state, [make_agent("mcts:20:random", 1)])  # a whole deal, every move legal
    assert state.is_over


def test_it_is_deterministic_for_a_seed_and_keeps_its_budget():
    state = started("triominos/pressman", 2, 2, 2)
    a, b = MctsAgent(3, parse_spec("40")), MctsAgent(3, parse_spec("40"))
    assert [(m.text, s) for m, s, _ in a.ranked(state)] == [(m.text, s) for m, s, _ in b.ranked(state)]
    assert a.iterations == 40
    timed = make_agent("mcts:0.05s", 1)
    timed.choose(state)
    assert timed.iterations >= 1 and timed.config.seconds == 0.05


def test_halving_shares_its_samples_and_keeps_its_budget():
    # 40 play-outs over the best ceil(2 * sqrt(40)) = 13 moves or fewer: halved each
    # phase, the survivors played out in every phase's samples, so the move chosen has
    # the most play-outs; the same seed, the same counts.
    state = started("triominos/pressman", 2, 2, 2)
    while len(state.legal_moves()) < 3:
        state.apply(GreedyAgent().choose(state))
    agent = MctsAgent(3, parse_spec("40:greedy:halving:depth=2"))
    rows = agent.ranked(state)
    assert 0 < agent.iterations <= 40
    assert rows[0][1] >= max(share for _, share, _ in rows[1:])
    again = MctsAgent(3, parse_spec("40:greedy:halving:depth=2")).ranked(state)
    assert [(m.text, s) for m, s, _ in rows] == [(m.text, s) for m, s, _ in again]


def test_it_follows_a_lowest_objective():
    # The Golf deal of test_objective after two deals (waste 3d): the only unseen card
    # is the last of the stock, Ad, so each sample is the real deal. 4d, 3c, 4c, deal
    # leaves 1 card; read `highest`, the most is 4 (deal at once).
    for objective, left in (("lowest", 1), ("highest", 4)):
        state = golf(objective).new_game(1, 0, deal=DEAL)
        state.apply("deal")
        state.apply("deal")
        assert play_out(state, [make_agent("mcts:200", 0)]).scores == [left]


def test_the_hint_of_a_multi_player_game():
    state = started("triominos/pressman", 2, 5, 2)
    rows = mcts_hint(state, "50", seed=1)
    assert 1 <= len(rows) <= 3 and rows[0][1] >= rows[-1][1]
    assert sum(share for _, share, _ in rows) <= 1.0 + 1e-9
    assert rows[0][0] in state.legal_moves()
    text = hint_text(state, "20", seed=1)  # what `hint` at the play prompt prints
    assert text.startswith("  the search (mcts:20) plays: ") and "% of visits" in text


@pytest.mark.parametrize("spec, words", [
    ("mcts:0", "not a budget"), ("mcts:fast", "not a budget"), ("mcts:horizon=week", "horizon"),
    ("mcts:expand=all", "expand is one of"), ("mcts:held=-1", "not a budget"),
    ("greedy:3", "no parameters"), ("nobody", "unknown agent"),
])
def test_bad_specs_say_why(spec, words):
    assert words in check_agent(spec)


def test_specs():
    config = parse_spec("0.5s:greedy:win:c=1.2")
    assert (config.seconds, config.iterations, config.playout, config.objective,
            config.exploration) == (0.5, None, "greedy", "win", 1.2)
    config = parse_spec("100:halving:expand=greedy:held=0.5:depth=4")
    assert (config.halving, config.expand, config.held, config.depth) == (True, "greedy", 0.5, 4)
    assert parse_spec("800").iterations == 800 and check_agent("mcts:800:greedy") is None


def test_the_agents_command_lists_them():
    runner = CliRunner()
    result = runner.invoke(app, ["agents"])
    assert result.exit_code == 0 and "mcts" in result.stdout and "playout" in result.stdout
    rows = json.loads(runner.invoke(app, ["agents", "--json"]).stdout)
    assert [r["name"] for r in rows] == ["random", "greedy", "mcts"]
    assert {p["name"] for p in rows[2]["parameters"]} >= {"budget", "playout", "objective"}


def test_simulate_takes_an_mcts_spec():
    result = CliRunner().invoke(app, ["simulate", "triolet", "--games", "1", "--agents",
                                      "mcts:5,greedy", "--json"])
    assert result.exit_code == 0, result.output
    bad = CliRunner().invoke(app, ["simulate", "triolet", "--agents", "mcts:zero"])
    assert bad.exit_code == 2
