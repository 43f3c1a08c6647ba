"""The solver's one search on compiled programs' positions (engine/players/solver_program.py)
gives exactly its answers on the interpreter's states: the same reachability, fewest steps and line, best score and
line, positions, exhaustiveness and budget stops, on positions of seeded deals of every
Tri Peaks ruleset and overlay and of Golf; and the hand-checked answers hold."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine.kernel import Game
from engine.players.solver import Relevance, default_goal, solve
from engine.players.solver_positions import StatePositions
from engine.players.solver_program import ProgramPositions, program_key, searcher
from engine.players.solver_search import Solver
from engine.program import compile_program
from engine.rules import load_ruleset
from engine.rules.model import compile_model
from tests.kernel.test_properties import shipped
from tests.players.test_objective import DEAL as GOLF_DEAL
from tests.players.test_solver import ONE_RUN

HERE = Path(__file__).resolve().parent
GOLF = str(HERE / "rulesets" / "golf.yaml")
GOLF52 = str(HERE / "rulesets" / "golf52.yaml")
TRIPEAKS = [c for c in shipped() if c[0].startswith("tripeaks")]


def _game(ref: str, overlays: tuple = ()) -> Game:
    model, problems = compile_model(load_ruleset(ref, overlays))
    assert model is not None, problems
    return Game(model)


def _positions(game: Game, seeds: range, moves: tuple[int, int]):
    """Positions of seeded deals after a seeded number of random moves (so that an
    exhaustive search stays small enough for a test)."""
    rng = random.Random(11)
    for seed in seeds:
        state = game.new_game(1, seed)
        for _ in range(rng.randrange(*moves)):
            if state.is_over:
                break
            state.apply(rng.choice(state.legal_moves()))
        yield seed, state


def _both(state, **budget) -> tuple[dict, dict]:
    answers = []
    for compiled in (False, True):
        found = solve(state, compiled=compiled, **budget).as_dict()
        found.pop("seconds")
        answers.append(found)
    return answers[0], answers[1]


QUESTIONS = [{}, {"best": False}, {"max_nodes": 400}, {"best": False, "max_nodes": 60}]


@pytest.mark.parametrize("ref,overlays", TRIPEAKS + [(GOLF52, ())],
                         ids=lambda x: "+".join(x) if isinstance(x, tuple) else Path(x).stem)
def test_the_program_search_answers_as_the_interpreter(ref, overlays):
    game = _game(ref, overlays)
    assert compile_program(game) is not None
    for seed, state in _positions(game, range(3), (18, 26)):
        for question in QUESTIONS:
            interpreted, compiled = _both(state, **question)
            assert compiled == interpreted, (seed, question)


def test_the_program_search_is_the_one_taken_when_there_is_a_program():
    # Every shipped solitaire compiles: `solve` searches its program (Pyramid's pairs
    # and Klondike's moves too, with their `safe:` and `defer:`); compiled=False the
    # interpreter's.
    for ref in ("tripeaks/aisleriot", GOLF, "pyramid/aisleriot", "klondike/aisleriot"):
        state = _game(ref).new_game(1, 0)
        rel = Relevance.of(state.game.model.ruleset.data)
        chosen = searcher(state, default_goal(state.game.model.ruleset.data), rel, None,
                          None, 1)
        assert type(chosen) is Solver and isinstance(chosen.positions, ProgramPositions), ref
        plain = searcher(state, "cleared", rel, None, None, 1, compiled=False)
        assert type(plain) is Solver and isinstance(plain.positions, StatePositions)


ZONED = [c for c in shipped() if c[0].startswith(("pyramid", "klondike"))]
#: budgets that keep the interpreter's side of the comparison short on these deals
ZONED_QUESTIONS = [{"max_nodes": 400}, {"best": False, "max_nodes": 60},
                   {"best": False, "max_nodes": 1000}]


@pytest.mark.parametrize("ref,overlays", ZONED,
                         ids=lambda x: "+".join(x) if isinstance(x, tuple) else x)
def test_pyramid_and_klondike_programs_answer_as_the_interpreter(ref, overlays):
    # The key holds what the interpreter's does (the pile's size, the pool, the zones'
    # cards and face-down counts) and `safe:`/`defer:` read the same moves: every
    # field equal, the positions counted too, on positions of two seeded deals.
    game = _game(ref, overlays)
    moves = (60, 90) if ref.startswith("klondike") else (18, 26)
    for seed, state in _positions(game, range(2), moves):
        for question in ZONED_QUESTIONS:
            interpreted, compiled = _both(state, **question)
            assert compiled == interpreted, (seed, question)


def test_klondike_safe_and_defer_are_read_on_the_program():
    # klondike/aisleriot: `safe:` holds for an Ace or a Two going up (rules/klondike.md
    # 4.1: nothing can build on them), `defer:` always for a card back off a
    # foundation. The program's conditions agree with the interpreter's on every
    # move of positions along a seeded random game.
    from engine.players.solver_program_safe import conditions
    from engine.players.solver_safe import defer_filter, safe_picker
    game = _game("klondike/aisleriot")
    program = compile_program(game)
    safe, defer = conditions(program, "safe"), conditions(program, "defer")
    pick, kept = safe_picker(game), defer_filter(game)
    rng, state, seen = random.Random(4), game.new_game(1, 2), set()
    for _ in range(120):
        if state.is_over:
            break
        s, moves = program.from_state(state), state.legal_moves()
        codes = program.legal(s)
        assert len(codes) == len(moves)
        first = pick(state, moves)
        assert next((c for c in codes if safe(s, c)), None) == (
            None if first is None else codes[moves.index(first)])
        left = kept(state, moves)
        assert [c for c in codes if not defer(s, c)] == [codes[moves.index(m)] for m in left]
        seen.update(m.action for m in moves if m not in left)
        state.apply(rng.choice(moves))
    assert "from_foundation" in seen or "build" in seen


def test_golf_lowest_is_solved_on_the_program():
    # tests/players/test_objective.py works this deal by hand: one card left at best.
    state = _game(GOLF).new_game(1, 0, deal=GOLF_DEAL)
    found = solve(state, compiled=True)
    assert found.exhaustive and not found.reachable and found.best_score == 1
    assert found.best_line == ["deal", "deal", "play 4d", "play 3c", "play 4c", "deal"]


def test_one_unbroken_run_is_found_on_the_program():
    # The fact sheet (rules/tripeaks.md 6, "Maximum for `tripeaks/aisleriot`: 466"):
    # this deal lets all 28 cards go in one run with no deal, so it clears in 28 steps.
    state = _game("tripeaks/aisleriot").new_game(1, 0, deal=ONE_RUN)
    found = solve(state, best=False, compiled=True)
    assert found.reachable and len(found.line) == 28
    assert "deal" not in found.line


def test_the_key_tells_apart_what_the_question_sees():
    game = _game("tripeaks/aisleriot")
    program = compile_program(game)
    s = program.new(1, 3)
    plain = program_key(program, (), (), False)
    with_run = program_key(program, (), ("run",), False)
    with_all = program_key(program, ("turns",), ("run", "peaks"), True)
    assert program_key(program, ("passes_in_row",), (), False) is None  # not held
    assert isinstance(plain(s), int) and isinstance(with_run(s), int)
    other = program.search_fork(s)
    other[program.fields["counters"]][0] = 5  # the run counter only
    assert plain(other) == plain(s) and with_run(other) != with_run(s)
    assert with_all(other) != with_all(s)
    program.search_apply(other, program.legal(other)[-1])  # a move: another position
    assert plain(other) != plain(s)


def test_a_fork_is_independent_of_its_position():
    program = compile_program(_game("tripeaks/aisleriot"))
    s = program.new(1, 5)
    before = program.search_copy(s)
    for code in list(program.legal(s)):
        child = program.search_fork(s)
        program.search_apply(child, code)
        fields = program.fields
        for name in ("scores", "counters", "pool", "pile", "cards", "cover", "exposed",
                     "mask", "count", "legal", "turns"):
            assert s[fields[name]] == before[fields[name]], name
    assert program.events(s) == []  # a search's step adds no event
