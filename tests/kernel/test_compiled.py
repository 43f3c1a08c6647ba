"""The compiled steps (`engine.kernel.compiled`) play exactly as the generic kernel.

Every shipped ruleset and overlay is played both ways, with random and with greedy
agents: the legal moves at each position, every score event (rule, points, file and
line), the history written to records and the final result must be the same. Failures
inside a compiled step name the same rule and line as the generic path's.
"""

from __future__ import annotations

import random

import pytest

from engine import paths
from engine.kernel import Game, RuleFailure
from engine.rules import load_ruleset
from engine.rules.model import compile_model
from tests.kernel.helpers import game as kernel_game
from tests.kernel.test_properties import shipped
from tests.kernel.traces import seeded_trace


def _games(ref: str, overlays: tuple[str, ...]) -> tuple[Game, Game]:
    model, diagnostics = compile_model(load_ruleset(ref, overlays))
    assert model is not None, "\n".join(map(str, diagnostics))
    return Game(model), Game(model, compiled=False)


def _trace(game: Game, seed: int, greedy: bool) -> list:
    """What a seeded game shows (`traces.seeded_trace`), two players where allowed."""
    players = None if game.model.players_max == 1 else 2
    return seeded_trace(game, seed, greedy, players, limit=3000)


@pytest.mark.parametrize("ref,overlays", shipped(), ids=lambda x: "+".join(x) if isinstance(x, tuple) else x)
def test_compiled_steps_play_as_the_generic_kernel(ref, overlays):
    compiled, generic = _games(ref, overlays)
    for seed in range(3):
        assert _trace(compiled, seed, False) == _trace(generic, seed, False), f"seed {seed}"
    assert _trace(compiled, 7, True) == _trace(generic, 7, True)


@pytest.mark.parametrize("name", ["line", "stack", "refill"])
def test_the_kernel_test_games_play_the_same_both_ways(name):
    for seed in range(4):
        compiled, generic = kernel_game(name), kernel_game(name, compiled=False)
        assert _trace(compiled, seed, False) == _trace(generic, seed, False), f"seed {seed}"


FAILURES = [
    # a `then:` update, a scoring rule, a round-end condition, each dividing by zero
    ({"  draw:\n    kind: draw\n": "  draw:\n    kind: draw\n    then: {n: 1 // (turn.draws - 1)}\n",
      "define:": "counters: {n: 0}\ndefine:"},
     r"line.yaml:\d+: action `draw` \(its `then` or `extra_turn`\) failed: division by zero"),
    ({"draw_cost: {on: draw, points: -1}": "draw_cost: {on: draw, points: 1 // (turn.draws - 1)}"},
     r"line.yaml:\d+: scoring rule `draw_cost` failed: division by zero"),
    # ... the same in a sum of a comprehension (written as a loop in a compiled step)
    ({"draw_cost: {on: draw, points: -1}":
      "draw_cost: {on: draw, points: 'sum(1 // (turn.draws - 1) for p in players)'}"},
     r"line.yaml:\d+: scoring rule `draw_cost` failed: division by zero"),
    ({"if: not can_place and pool.count > 0": "if: 1 // (round.turns - round.turns) == 0"},
     r"line.yaml:\d+: the condition of action `draw` failed: division by zero"),
    ({"went_out: {if: player.hand_count == 0, winner: mover}":
      "went_out: {if: 1 // (round.turns - round.turns) == 0, winner: mover}"},
     r"line.yaml:\d+: round-end condition `went_out` failed: division by zero"),
]


@pytest.mark.parametrize("replace,message", FAILURES)
def test_a_failing_expression_names_its_rule_the_same_way(replace, message):
    for compiled in (True, False):
        g = kernel_game("line", replace, compiled=compiled)
        with pytest.raises(RuleFailure, match=message):
            for seed in range(20):
                state, rng = g.new_game(2, seed), random.Random(seed)
                while not state.is_over:
                    state.apply(rng.choice(state.legal_moves()))


#: every name a step or a guard may read from the state directly, in one scoring rule,
#: one round-end condition and one guard of the refill game
EVERY_NAME = {
    "value: {on: place, points: move.value}":
        "value: {on: place, points: move.value}\n"
        "  names:\n    on: place\n    if: can_pass or tile.value >= 0\n"
        "    points: >-\n      sum(p.hand_value for p in opponents) - mover.hand_count"
        " + len(players) + turn.actions + round.number + pool.count\n",
    "nobody_can_place: {if: round.unable_in_row >= len(players)}":
        "nobody_can_place: {if: round.unable_in_row >= len(players)"
        " or (not can_place and all(p.hand_count > 3 for p in opponents))}",
    "pass: {kind: pass, if: pool.count <= 3}":
        "pass: {kind: pass, if: pool.count <= 3 and player.score >= 0}",
}


def test_names_read_from_locals_give_what_the_context_gives():
    compiled = kernel_game("refill", EVERY_NAME)
    sources = [compiled.steps["place"].source, compiled.generators["pass"].source]
    assert not any("k_make_context" in s or "_decision_context" in s for s in sources)
    assert "x_opponents" in sources[0] and "x_piece" in sources[0]
    for seed in range(6):
        generic = kernel_game("refill", EVERY_NAME, compiled=False)
        assert _trace(compiled, seed, False) == _trace(generic, seed, False), f"seed {seed}"



def test_the_opening_rank_is_compiled_when_it_reads_the_piece_alone(tmp_path):
    model, _ = compile_model(load_ruleset("triominos/pressman"))
    game = Game(model)
    assert game.opening_key is not None and Game(model, compiled=False).opening_key is None
    # The fact sheet's rank: a triple first, then the highest total, then the highest
    # corner, then the middle one: 4-4-4 is (triple, 12, 4, 4); 1-5-5 is (no, 11, 5, 5)
    # and beats 0-5-5 (no, 10, 5, 5) on the total.
    by_name = {p.name: p for p in game.pieces}
    assert game.opening_key(by_name["4-4-4"]) == (1, 12, 4, 4)
    assert game.opening_key(by_name["1-5-5"]) == (0, 11, 5, 5)
    assert game.opening_key(by_name["1-5-5"]) > game.opening_key(by_name["0-5-5"])
    # worked out once per piece, by uid
    assert game.opening_ranks == [game.opening_key(p) for p in game.pieces]
    assert game.opening_ranks[by_name["4-4-4"].uid] == (1, 12, 4, 4)
    # ... and the opener may open with 0-0-0 instead (`may_also_open_with`)
    assert game.opening_also(by_name["0-0-0"]) == (1,)
    assert game.opening_also(by_name["4-4-4"]) == game.opening_also(by_name["0-0-1"]) == (0,)
    # a rank that reads more than the piece is evaluated in a context per seat, as before
    text = (paths.rulesets_dir() / "triominos" / "pressman.yaml").read_text(encoding="utf-8")
    assert 'rank: ["tile.distinct == 1"' in text
    path = tmp_path / "ranked.yaml"
    path.write_text(text.replace('rank: ["tile.distinct == 1"', 'rank: ["player.score", "tile.distinct == 1"'),
                    encoding="utf-8")
    model, diagnostics = compile_model(load_ruleset(str(path)))
    assert model is not None, diagnostics
    assert Game(model).opening_key is None
    for seed in range(10):  # every score is 0 at the first deal: the same opener and piece
        first, other = Game(model).new_game(2, seed), game.new_game(2, seed)
        assert (first.to_move, first.opening_pieces) == (other.to_move, other.opening_pieces)


def test_a_compiled_step_resets_every_field_of_the_turn():
    # the step writes `turn.reset()` out in place: a field added to TurnInfo and not to
    # the step would carry over from one turn to the next
    from engine.kernel.views import TurnInfo

    model, _ = compile_model(load_ruleset("triominos/pressman"))
    state = Game(model).new_game(2, 3)
    fresh = TurnInfo()
    for slot in TurnInfo.__slots__:
        setattr(state.turn, slot, 7)  # stale values
    state.apply(state.legal_moves()[0])  # the opening placement ends the turn
    assert {s: getattr(state.turn, s) for s in TurnInfo.__slots__} == {
        s: getattr(fresh, s) for s in TurnInfo.__slots__}


def test_a_racks_exchanges_are_the_same_moves_in_any_order_of_the_hand():
    compiled, generic = _games("triolet/standard", ())
    for game in (compiled, generic):
        state = game.new_game(2, 3)
        texts = [m.text for m in state.moves_of(game.action_by_name["exchange"])]
        # a rack of three pieces: 3 single, 3 pairs and the triple, by the sorted names
        names = sorted(p.name for p in state.hands[state.to_move])
        assert len(texts) == 7 and texts[-1] == "exchange " + " ".join(names)
        for order in ([2, 0, 1], [1, 2, 0]):
            state = game.new_game(2, 3)
            hand = state.hands[state.to_move]
            hand[:] = [hand[i] for i in order]
            state._invalidate()
            assert [m.text for m in state.legal_moves() if m.action == "exchange"] == texts


def _klondike(tmp_path, old: str, new: str) -> tuple[Game, Game]:
    text = (paths.rulesets_dir() / "klondike" / "aisleriot.yaml").read_text()
    assert old in text
    path = tmp_path / "aisleriot.yaml"
    path.write_text(text.replace(old, new))
    model, diagnostics = compile_model(load_ruleset(str(path)))
    assert model is not None, "\n".join(map(str, diagnostics))
    return Game(model), Game(model, compiled=False)


def test_a_move_actions_accepts_is_written_into_its_generated_check(tmp_path):
    compiled, generic = _games("klondike/aisleriot", ())
    source = compiled.generators["build"].source
    # the tableau's `accepts:` in place, `move` and `zone` read as the loop's locals
    assert "moving[0].rank == 13" in source and "view.count == 0" in source
    assert "v['move']" not in source and "v['zone']" not in source
    for seed in range(2):
        assert _trace(compiled, seed, False) == _trace(generic, seed, False), f"seed {seed}"


def test_a_failing_accepts_names_its_action_the_same_way_compiled_or_not(tmp_path):
    # the foundations' `accepts:` divides by zero for the first candidate it sees
    games = _klondike(tmp_path, "move.count == 1 and card.suit",
                      "1 // (move.count - move.count) == 0 and card.suit")
    for game in games:
        with pytest.raises(RuleFailure, match="action `to_foundation`.*division by zero"):
            game.new_game(None, 0).legal_moves()
