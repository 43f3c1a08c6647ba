"""Compiled programs (`engine.program`) play exactly as the interpreter.

The rule of tests/kernel/test_compiled.py, for the programs: every shipped ruleset and
overlay the compiler covers is played both ways, with random and with greedy choices
(greedy through the program's `copy`): each position's legal moves (as texts, in the
same order), every score event (rule, points, file and line), the record's history
rebuilt from the program's game, the scores, the winner and the rounds must be the
same; every shipped one is covered, and one that is not says why.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from engine.kernel import Game, RuleFailure
from engine.program import NotCompiled, compile_program, program_for, why_not
from engine.program.build import cache_key, program_source
from engine.program.source import comment
from engine.rules import load_ruleset
from engine.rules.model import compile_model
from tests.kernel.test_properties import shipped
from tests.kernel.traces import seeded_trace


@pytest.fixture(autouse=True)
def _no_disk_cache(monkeypatch):
    monkeypatch.setenv("RULECRAFT_CACHE", "off")


def _game(ref, overlays=()) -> Game:
    model, diagnostics = compile_model(load_ruleset(ref, overlays))
    assert model is not None, "\n".join(map(str, diagnostics))
    return Game(model)


def _engine_trace(game: Game, seed: int, greedy: bool) -> list:
    return seeded_trace(game, seed, greedy)


def _program_trace(program, seed: int, greedy: bool) -> list:
    s, rng, trace = program.new(None, seed), random.Random(seed), []
    events = program.fields["events"]
    while not program.is_over(s):
        legal = program.legal(s)
        trace.append(program.legal_texts(s))
        if greedy:  # (each move tried on a copy: the copy must not touch `s`)
            gains, seat = [], program.to_move(s)
            for code in legal:
                trial = program.copy(s)
                program.apply(trial, code)
                gains.append(program.scores(trial)[seat])
            code = legal[gains.index(max(gains))]
        else:
            code = rng.choice(legal)
        before = len(s[events])
        program.apply(s, code)
        trace.append([e.as_dict() for e in program.events(s)[before:]])
    state = program.to_state(s)
    trace.append((state.history, list(program.scores(s)), program.winner(s),
                  program.round_number(s), [e.as_dict() for e in program.events(s)]))
    return trace


#: the families the compiler covers: Tri Peaks (the `tableau` board) and Tri-Ominos (the
#: `triangular` board: hands, draws that leave the turn open, passes, the opening rule,
#: winners by keys, several rounds to a match) and Triolet (the `square` board: refills,
#: extra turns, exchanges, jokers) and dominoes (the `chain` board: an
#: opening rule that reads the seat, definitions read more than once), Pyramid (zones
#: beside a tableau, `move` actions picking pairs) and Klondike (board kind `none`:
#: rows of zones, runs, packs turned over, cards turned up, the clock of `timed`)
COMPILED = [(ref, overlays) for ref, overlays in shipped()
            if ref.startswith(("tripeaks", "triominos", "dominoes", "pyramid", "klondike",
                               "triolet"))]
#: Golf (the solver's test ruleset): a tableau of columns, points on `round_end`,
#: the lowest score best
GOLF = str(Path(__file__).resolve().parents[1] / "players" / "rulesets" / "golf52.yaml")


@pytest.mark.parametrize("ref,overlays", COMPILED + [(GOLF, ())], ids=lambda x: "+".join(x) if isinstance(x, tuple) else x)
def test_a_program_plays_as_the_interpreter(ref, overlays):
    game = _game(ref, overlays)
    program = compile_program(game)
    for seed in range(12):
        assert _program_trace(program, seed, False) == _engine_trace(game, seed, False), seed
    assert _program_trace(program, 7, True) == _engine_trace(game, 7, True)


def test_progressive_rounds_deal_again_with_the_interpreters_shuffles():
    # a cleared tableau deals again (rules: shared/rules/tripeaks.md 4): find a seed
    # whose greedy game clears at least once, and compare the recorded chances
    game = _game("tripeaks/aisleriot", ("progressive-rounds",))
    program = compile_program(game)
    for seed in range(60):
        s = program.new(None, seed)
        while not program.is_over(s):
            legal = program.legal(s)
            gains = []
            for code in legal:
                trial = program.copy(s)
                program.apply(trial, code)
                gains.append(program.scores(trial)[0])
            program.apply(s, legal[gains.index(max(gains))])
        if program.round_number(s) > 1:
            break
    else:
        pytest.fail("no greedy game of 60 cleared a tableau")
    state = program.to_state(s)
    chances = program.chances(s)
    assert chances[0] == (-1, state.setup_chances[0])
    for at, uids in chances[1:]:  # each later shuffle on the move that cleared
        assert state.history[at]["chances"] == [uids]
    assert state.round.number == program.round_number(s) and state.scores == program.scores(s)


def test_every_shipped_ruleset_and_overlay_is_compiled():
    assert [c for c in shipped() if c not in COMPILED] == []


def test_a_ruleset_not_covered_says_why_it_is_not_compiled(tmp_path):
    # (a first play anywhere on the square board: `first_play: cover_start` taken out)
    path = tmp_path / "anywhere.yaml"
    path.write_text("extends: triolet/standard\nruleset: {game: triolet, title: t}\n"
                    "actions:\n  place:\n    $delete: [first_play]\n", encoding="utf-8")
    game = _game(str(path), ("jokers",))
    reason = why_not(game)
    assert reason == "a first play that need not cover a start cell"
    assert program_for(game) is None
    with pytest.raises(NotCompiled, match=re.escape(reason)):
        compile_program(game)


def test_a_reason_names_the_expression_and_its_line(tmp_path):
    path = tmp_path / "turns.yaml"
    path.write_text("extends: tripeaks/aisleriot\nruleset: {game: tripeaks, title: t}\n"
                    "scoring:\n  card:\n    points: board.face_down + 1\n", encoding="utf-8")
    reason = why_not(_game(str(path)))
    assert "`board.face_down + 1`" in reason and "turns.yaml:5" in reason and "`board`" in reason


def test_a_failing_expression_names_its_rule_as_the_interpreter_does(tmp_path):
    path = tmp_path / "zero.yaml"
    path.write_text("extends: tripeaks/aisleriot\nruleset: {game: tripeaks, title: t}\n"
                    "scoring:\n  card:\n    points: 1 // (counters.run - counters.run)\n",
                    encoding="utf-8")
    game = _game(str(path))
    program = compile_program(game)
    # (both name the rule where it is first written, as the interpreter does)
    message = r"aisleriot.yaml:64: scoring rule `card` failed: division by zero"
    for seed in range(5):  # the first play divides by zero, in both
        s, state = program.new(None, seed), game.new_game(None, seed)
        plays = [code for code in program.legal(s) if code < 28]
        if plays:
            break
    with pytest.raises(RuleFailure, match=message):
        program.apply(s, plays[0])
    with pytest.raises(RuleFailure, match=message):
        state.apply(state.legal_moves()[0])


def test_a_copy_is_independent():
    program = compile_program(_game("tripeaks/aisleriot"))
    s = program.new(None, 3)
    before = program.legal_texts(s), list(program.scores(s)), program.copy(s)
    trial = program.copy(s)
    while program.legal(trial):
        program.apply(trial, program.legal(trial)[0])
    assert (program.legal_texts(s), list(program.scores(s))) == before[:2]
    assert program.events(trial) and not program.events(s)
    ahead = program.search_copy(s)  # (starts with no history, plays on the same way)
    program.apply(ahead, program.legal(ahead)[0])
    program.apply(trial := program.copy(s), program.legal(s)[0])
    assert program.scores(ahead) == program.scores(trial) and program.legal(ahead) == program.legal(trial)
    assert program.legal_texts(s) == before[0]


def test_the_source_points_back_to_the_yaml_and_holds_no_ruleset_text_as_code():
    game = _game("tripeaks/aisleriot")
    source = compile_program(game).source
    for line in ("# action `play` (play), rulesets/tripeaks/aisleriot.yaml:50",
                 "# scoring rule `deal_cost` (rulesets/tripeaks/aisleriot.yaml:73)",
                 "# round end `stuck` (rulesets/tripeaks/aisleriot.yaml:83)"):
        assert line in source
    code = [ln for ln in source.splitlines() if not ln.lstrip().startswith("#")]
    for rule in game.model.scoring:  # labels are constants (`K_rules`), never source
        assert not any(rule.label in ln for ln in code)
    assert "\n" not in comment("a\nimport os") and "import os" in comment("a\nimport os")


def test_the_source_is_kept_by_the_rulesets_hash(tmp_path, monkeypatch):
    from engine.program import build
    monkeypatch.setenv("RULECRAFT_CACHE", str(tmp_path))
    build._SOURCES.clear()  # (what earlier tests kept in memory)
    game = _game("tripeaks/msc")
    source = program_source(game)
    kept = tmp_path / "programs" / f"{cache_key(game)}.py"
    assert kept.read_text(encoding="utf-8") == source
    other = _game("tripeaks/msc", ("no-wrap",))
    assert cache_key(other) != cache_key(game)
    # a second Game of the same ruleset reads the kept source, not a new one
    kept.write_text(source.replace('"""A Rulecraft', '"""(kept) A Rulecraft'), encoding="utf-8")
    build._SOURCES.clear()
    assert program_source(_game("tripeaks/msc")).startswith('"""(kept)')
    build._SOURCES.clear()
