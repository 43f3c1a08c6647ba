"""Triolet with jokers (`triolet --with jokers`) compiled: the program plays exactly as
the interpreter, and scores the joker rules of shared/rules/triolet.md (TR-5 to TR-8)
as worked out by hand here.

Whole games are played both ways move by move, with two to four players: random
choices (a joker is soon laid), choices that keep the jokers on the rack as long as a
play without one is listed (many positions with a joker in hand, two at times), and
greedy ones (through the program's `copy`). Positions are set up as scenarios
(`engine.kernel.scenario`, the public way to write a position) and taken into the
program by `Program.from_state`.
"""

from __future__ import annotations

import random

import pytest

from engine.kernel.scenario import load_scenario, outcome
from engine.program import compile_program
from tests.kernel.traces import seeded_trace
from tests.program.test_program import _game, _program_trace


@pytest.fixture(autouse=True)
def _no_disk_cache(monkeypatch):
    monkeypatch.setenv("RULECRAFT_CACHE", "off")


BASES = ["triolet/standard", "triolet/seed-text"]


def _pick(texts: list[str], rng: random.Random, keep: bool) -> int:
    """A random move's index; `keep`: one without a joker when there is one."""
    plain = [i for i, text in enumerate(texts) if "=J" not in text] if keep else []
    return rng.choice(plain or range(len(texts)))


def _both_ways(game, program, players: int, seed: int, keep: bool) -> tuple[int, int]:
    """One game played on the interpreter and on the program at once, the same move at
    each position: the same legal moves in the same order, the same events, and at the
    end the same scores, winner and record. (positions, those with a joker play)"""
    state, s, rng = game.new_game(players, seed), program.new(players, seed), random.Random(seed)
    events, positions, with_joker = program.fields["events"], 0, 0
    while not state.is_over:
        texts = [m.text for m in state.legal_moves()]
        assert program.legal_texts(s) == texts, (players, seed, state.turns_total)
        positions += 1
        with_joker += any("=J" in text for text in texts)
        i = _pick(texts, rng, keep)
        before = len(s[events])
        program.apply(s, program.legal(s)[i])
        theirs = [e.as_dict() for e in state.apply(texts[i])]
        assert [e.as_dict() for e in program.events(s)[before:]] == theirs, (seed, texts[i])
    assert program.is_over(s)
    assert (list(program.scores(s)), program.winner(s)) == (list(state.scores), state.winner)
    assert program.to_state(s).history == state.history
    return positions, with_joker


@pytest.mark.parametrize("ref", BASES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_whole_games_with_jokers_play_as_the_interpreter(ref, players):
    game = _game(ref, ("jokers",))
    program = compile_program(game)
    positions = with_joker = 0
    for seed in range(6):
        for keep in (False, True):
            found = _both_ways(game, program, players, seed, keep)
            positions, with_joker = positions + found[0], with_joker + found[1]
    assert positions > 500 and with_joker > 100


def test_the_traces_of_random_and_greedy_games_are_the_interpreters():
    """The comparison of tests/program/test_program.py: seeded random games, and a
    greedy one whose every move is tried on a copy."""
    game = _game("triolet/standard", ("jokers",))
    program = compile_program(game)
    for seed in range(8):
        assert _program_trace(program, seed, False) == seeded_trace(game, seed, False), seed
    for seed in (7, 8):
        assert _program_trace(program, seed, True) == seeded_trace(game, seed, True), seed


def test_a_first_hand_with_a_joker_is_listed_and_laid_as_the_interpreter():
    """Seeds whose first rack holds a joker: the first play's listing (a joker on the
    star or beside it) is the general way's."""
    game = _game("triolet/standard", ("jokers",))
    program = compile_program(game)
    found = 0
    for seed in range(300):
        state = game.new_game(2, seed)
        if not any(p.attrs["joker"] for p in state.hands[state.to_move]):
            continue
        found += 1
        texts = program.legal_texts(program.new(2, seed))
        assert texts == [m.text for m in state.legal_moves()], seed
        assert "place H8=J15" in texts and "place H8=J0" in texts
        _both_ways(game, program, 2, seed, True)
        if found == 4:
            break
    assert found == 4


def test_a_program_state_from_a_position_with_jokers_plays_on_as_the_interpreter():
    """`Program.from_state` of matches under way, jokers on the board and on racks."""
    game = _game("triolet/standard", ("jokers",))
    program = compile_program(game)
    checked = 0
    for seed in range(10):
        state, rng = game.new_game(None, seed), random.Random(seed)
        while not state.is_over and not state.board.jokers:  # (a joker laid)
            texts = [m.text for m in state.legal_moves()]
            state.apply(texts[_pick(texts, rng, False)])
        if state.is_over:
            continue
        checked += 1
        s = program.from_state(state)
        while not state.is_over:
            texts = [m.text for m in state.legal_moves()]
            assert program.legal_texts(s) == texts
            i = _pick(texts, rng, True)
            program.apply(s, program.legal(s)[i])
            state.apply(texts[i])
        assert program.is_over(s) and list(program.scores(s)) == list(state.scores)
    assert checked >= 5


# -- the joker rules, worked out by hand ----------------------------------------------------
# Cells are written as on the board: a row letter A-O (y 0-14), a column 1-15 (x + 1).
# Rows I and J (y 8, 9) hold no special cell; H4 (x 3, y 7) is a x2 cell.


def _scenario(tmp_path, board: str, hands: list[list[str]]):
    path = tmp_path / "position.yaml"
    path.write_text(f"ruleset: triolet/standard\nwith: [jokers]\nplayers: 2\n"
                    f"board: {board}\nhands: {hands!r}\nto_move: 0\n", encoding="utf-8")
    return load_scenario(path).state


def _scores_both_ways(state, move: str) -> dict[str, int]:
    """The mover's points by rule for `move`, the same on the interpreter and on the
    program started from the same position (its legal moves the interpreter's)."""
    program = compile_program(state.game)
    s = program.from_state(state)
    texts = program.legal_texts(s)
    assert texts == [m.text for m in state.legal_moves()]
    mine: dict[str, int] = {}
    before = len(program.events(s))
    program.apply(s, program.legal(s)[texts.index(move)])
    for event in program.events(s)[before:]:
        if event.player == state.to_move:
            mine[event.rule] = mine.get(event.rule, 0) + event.points
    assert outcome(state, move).breakdown == mine
    return mine


def _legal_both_ways(state) -> list[str]:
    program = compile_program(state.game)
    texts = [m.text for m in state.legal_moves()]
    assert program.legal_texts(program.from_state(state)) == texts
    return texts


def test_a_pair_of_a_joker_and_a_7_scores_7(tmp_path):
    # TR-6: I3 holds a 7; a joker beside it declared 8 makes a pair summing to 15, legal,
    # but the joker's face is 0: the pair scores 7. Declared 9 the pair would sum to 16.
    state = _scenario(tmp_path, "I3=7", [["J", "1", "1"], ["2", "2", "2"]])
    texts = _legal_both_ways(state)
    assert [t for t in texts if t.startswith("place I4=J") and t.count("=") == 1] == [
        f"place I4=J{x}" for x in range(9)]
    assert _scores_both_ways(state, "place I4=J8") == {"lines": 7}
    assert _scores_both_ways(state, "place I4=J0") == {"lines": 7}


def test_a_7_laid_beside_a_joker_scores_its_own_face(tmp_path):
    # TR-5, TR-6: the joker on I3 stands for 5; a 7 beside it sums to 12, scoring 7.
    state = _scenario(tmp_path, "I3=J5", [["7", "10", "11"], ["2", "2", "2"]])
    assert _scores_both_ways(state, "place I4=7") == {"lines": 7}
    assert _scores_both_ways(state, "place I4=10") == {"lines": 10}
    assert "place I4=11" not in _legal_both_ways(state)  # 5 + 11 = 16


def test_a_trio_with_a_joker_scores_30_and_no_triolet_bonus(tmp_path):
    # TR-7, the fact sheet's example B: I3 holds a 5; 4, 9, 2 laid down column 4 from I4
    # make a trio (30) and the pair 5 + 4 (9), and all three laid at once a Triolet
    # (+50): 89. With the 2 a joker: 30 + 9 and no +50, 39. With the 4 a joker (its face
    # 0 in the pair with the 5): 30 + 5, 35.
    plain = _scenario(tmp_path, "I3=5", [["4", "9", "2"], ["1", "1", "1"]])
    assert _scores_both_ways(plain, "place I4=4 J4=9 K4=2") == {"lines": 39, "triolet": 50}
    joker = _scenario(tmp_path, "I3=5", [["4", "9", "J"], ["1", "1", "1"]])
    assert _scores_both_ways(joker, "place I4=4 J4=9 K4=J2") == {"lines": 39}
    first = _scenario(tmp_path, "I3=5", [["J", "9", "2"], ["1", "1", "1"]])
    assert _scores_both_ways(first, "place I4=J4 J4=9 K4=2") == {"lines": 35}


def test_a_joker_on_a_x2_cell_doubles_nothing_in_a_pair_and_30_in_a_trio(tmp_path):
    # TR-8 (engine choice, derived): H4 is a x2 cell. Beside H3's 6, a joker declared 9
    # makes a pair worth 6 and the x2 adds 1 x 0. After H2=6 H3=2 a joker declared 7
    # completes a trio (30) and, in a trio, the x2 adds 1 x 30: 60.
    pair = _scenario(tmp_path, "H3=6", [["J", "1", "1"], ["1", "1", "1"]])
    assert _scores_both_ways(pair, "place H4=J9") == {"lines": 6}
    trio = _scenario(tmp_path, "H2=6 H3=2", [["J", "1", "1"], ["1", "1", "1"]])
    assert _scores_both_ways(trio, "place H4=J7") == {"lines": 30, "multiplier": 30}


def test_a_joker_keeps_its_declared_value_for_later_plays(tmp_path):
    # TR-5: the first player lays a joker declared 5 beside I3's 7 (a pair: 7 points).
    # Then for the second player's plays it is a 5: I5 completes the row 7, 5 to 15 with
    # a 3 only (an 8 would make 20, though it fits were the joker its face 0), a trio
    # worth 30; J4 below the joker takes a 3 (a pair worth 3: the joker's face is 0) but
    # not an 11 (5 + 11 = 16).
    state = _scenario(tmp_path, "I3=7", [["J", "1", "1"], ["3", "8", "11"]])
    program = compile_program(state.game)
    s = program.from_state(state)
    texts = program.legal_texts(s)
    code = program.legal(s)[texts.index("place I4=J5")]
    before = len(program.events(s))
    program.apply(s, code)
    assert [(e.rule, e.points) for e in program.events(s)[before:]] == [("lines", 7)]
    assert [(e.rule, e.points) for e in state.apply("place I4=J5")] == [("lines", 7)]
    assert program.to_move(s) == state.to_move == 1
    texts = [m.text for m in state.legal_moves()]
    assert program.legal_texts(s) == texts
    assert "place I5=3" in texts and "place I5=8" not in texts
    assert "place J4=3" in texts and "place J4=11" not in texts
    for move, points in (("place I5=3", {"lines": 30}), ("place J4=3", {"lines": 3})):
        trial = program.copy(s)
        before = len(program.events(trial))
        program.apply(trial, program.legal(trial)[texts.index(move)])
        assert {e.rule: e.points for e in program.events(trial)[before:]} == points
        assert outcome(state, move).breakdown == points
