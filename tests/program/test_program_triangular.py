"""Tri-Ominos compiled (`engine/program/triangular.py`): what the shared rule of
test_program.py (every covered ruleset and overlay played both ways) does not show by
itself: the codes of placements, a program's state made from the interpreter's, a
written program, and the source's pointers back to the YAML."""

from __future__ import annotations

import random

from typer.testing import CliRunner

from engine.cli import app
from engine.program import compile_program
from tests.kernel.traces import plays_as_the_program
from tests.program.test_program import _game

runner = CliRunner()


def test_a_placement_has_one_code_whatever_the_position():
    # The code is the cell id << 10 | uid * 3 + rotation: the interpreter's moves of a
    # position coded one by one (`Program.codes`, from each placement) are the
    # program's listing, and a move's text is read back from its code alone.
    game = _game("triominos/pressman")
    program = compile_program(game)
    s, state, rng = program.new(2, 4), game.new_game(2, 4), random.Random(4)
    seen: dict[str, int] = {}
    for _ in range(60):
        if program.is_over(s):
            break
        codes = program.legal(s)
        assert program.codes(state.legal_moves()) == codes
        for code, move in zip(codes, state.legal_moves()):
            assert seen.setdefault(move.text, code) == code  # (the same later on)
        code = rng.choice(codes)
        state.apply(program.move_text(s, code))
        program.apply(s, code)
    assert len(seen) > 60


def test_a_program_state_from_the_interpreters_plays_on_the_same():
    # half-way through a random round of club with three-vertex (point contact and a
    # guard on the placements), the program's state made from the interpreter's
    # (`Program.from_state`) lists and scores the same moves to the end of the match
    game = _game("triominos/club", ("three-vertex",))
    program = compile_program(game)
    state, rng = game.new_game(3, 11), random.Random(11)
    for _ in range(25):
        state.apply(rng.choice(state.legal_moves()))
    s = program.from_state(state)
    assert program.legal_texts(s) == [m.text for m in state.legal_moves()]
    while not state.is_over:
        assert program.legal_texts(s) == [m.text for m in state.legal_moves()]
        code = rng.choice(program.legal(s))
        text = program.move_text(s, code)
        program.apply(s, code)  # (first: it shares the generator, and copies it to deal)
        state.apply(text)
        assert program.scores(s) == state.scores
    assert program.is_over(s) and program.winner(s) == state.winner


def test_the_source_points_back_to_the_yaml(monkeypatch):
    monkeypatch.setenv("RULECRAFT_CACHE", "off")
    result = runner.invoke(app, ["compile", "rulesets/triominos/pressman.yaml"])
    assert result.exit_code == 0, result.output
    for line in ("# action `place` (place), rulesets/triominos/pressman.yaml:41",
                 "# action `draw` (draw), rulesets/triominos/pressman.yaml:45",
                 "# scoring rule `hexagon` (rulesets/triominos/pressman.yaml:68)",
                 "# round end `blocked` (rulesets/triominos/pressman.yaml:106)",
                 "# the hands, the first dealt first (rulesets/triominos/pressman.yaml:32)",
                 "# the opener (rulesets/triominos/pressman.yaml:35)"):
        assert line in result.stdout, line


def test_a_written_program_imports_and_plays_as_the_compiled_one(tmp_path, monkeypatch):
    monkeypatch.setenv("RULECRAFT_CACHE", "off")
    out = tmp_path / "triominos_program.py"
    result = runner.invoke(app, ["compile", "triominos/goliath", "-o", str(out)])
    assert result.exit_code == 0, result.output
    plays_as_the_program(out, compile_program(_game("triominos/goliath")), 2, 3)


def test_the_contacts_and_the_cells_direction_read_as_the_interpreter_does(tmp_path):
    # no shipped ruleset reads `move.contacts` or `move.cell_up`: a placement's record
    # of what each corner touches, and which way its cell points, in a guard (read
    # from the listed placement) and in scoring rules (from the applied one)
    from tests.program.test_program import _engine_trace, _program_trace
    path = tmp_path / "contacts.yaml"
    path.write_text(
        "extends: triominos/pressman\nruleset: {game: triominos, title: t}\n"
        "actions:\n  place:\n    if: move.opening or sum(c.tiles for c in move.contacts) < 4\n"
        "scoring:\n  touching:\n    on: place\n"
        "    points: sum(c.tiles + c.vertex_tiles for c in move.contacts)\n"
        "  pointing_up:\n    on: place\n    if: move.cell_up\n    points: 1\n",
        encoding="utf-8")
    game = _game(str(path))
    program = compile_program(game)
    for seed in range(3):
        assert _program_trace(program, seed, False) == _engine_trace(game, seed, False)


def test_a_searchs_step_plays_as_apply_without_events_or_log():
    # `search_apply` on a `search_fork` (engine/program/search.py) changes the position
    # as `apply` does (hands, board, scores, the next moves), adding no event and no
    # log entry (the fork shares those lists with `s`: only `apply` appends to them)
    program = compile_program(_game("triominos/goliath"))
    s, rng = program.new(3, 5), random.Random(5)
    apply_search, fork = program.module["search_apply"], program.module["search_fork"]
    log = program.fields["log"]
    ahead = fork(s)
    for _ in range(80):
        code = rng.choice(program.legal(s))
        program.apply(s, code)
        made, logged = len(program.events(s)), len(s[log])
        apply_search(ahead, code)
        assert (len(program.events(s)), len(s[log])) == (made, logged)  # (none added)
        assert program.legal(ahead) == program.legal(s) and program.scores(ahead) == program.scores(s)
        assert program.legal_texts(ahead) == program.legal_texts(s)
    assert len(s[log]) == 80 and program.events(s)
