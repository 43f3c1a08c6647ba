"""Zones and the `move` action compiled (`engine/program/zones.py`): what the shared rule
of test_program.py (every covered ruleset and overlay played both ways) does not show
by itself: a program's state made from the interpreter's (`Program.from_state`) for a
fixed deal, the rules fact sheets' worked examples (shared/rules/klondike.md 8.1 and
8.2, pyramid.md 3), and the moves' codes found from the interpreter's moves."""

from __future__ import annotations

import random

import pytest
from typer.testing import CliRunner

from engine.cli import app
from engine.players.agents import GreedyAgent
from engine.program import compile_program, why_not
from tests.kernel.traces import plays_as_the_program
from tests.players.test_mcts_program import rows
from tests.program.test_program import _engine_trace, _game, _program_trace

# shared/rules/klondike.md 8.1: ShootMe's first test deal, in canonical order; its
# first 31 cards as the fact sheet gives them, the other 21 in suit order (their order
# does not matter to the example)
_GIVEN = ("4d 4c 4s Qs 2h 7h Jc Ad Qh 8c Ts 9h 3c 5d 5c Qc 9s 7s 6c 9c 8h Td 4h 7c Kd Ks "
          "Jh Js Kc 2d Th").split()
_REST = [r + s for s in "cdhs" for r in "A23456789TJQK" if r + s not in _GIVEN]
SHOOTME = " ".join(_GIVEN + _REST)


@pytest.fixture(autouse=True)
def _no_disk_cache(monkeypatch):
    monkeypatch.setenv("RULECRAFT_CACHE", "off")


def _zone_names(program, s, key: str) -> list[list[str]]:
    zones = program.plan.zones
    first, count = zones.first[key], zones.count(key)
    return [[p.name for p in pieces] for pieces in s[program.fields["zones"]][first:first + count]]


def test_the_shootme_deal_lists_the_fact_sheets_three_moves():
    # klondike.md 8.1: the piles as dealt (bottom to top), the stock's top `Kc`, and at
    # the start only `Ad` to its foundation (diamonds: foundations[1]), `5d` onto `6c`
    # (pile 4: tableau[3]) and a deal
    game = _game("klondike/aisleriot")
    program = compile_program(game)
    s = program.from_state(game.new_game(1, 0, deal=SHOOTME))
    assert _zone_names(program, s, "tableau") == [
        ["4d"], ["4c", "Ad"], ["4s", "Qh", "5d"], ["Qs", "8c", "5c", "6c"],
        ["2h", "Ts", "Qc", "9c", "4h"], ["7h", "9h", "9s", "8h", "7c", "Ks"],
        ["Jc", "3c", "7s", "Td", "Kd", "Jh", "Js"]]
    down = s[program.fields["down"]][2:9]
    assert down == [0, 1, 2, 3, 4, 5, 6]  # the top of each pile face up (klondike.md 2)
    assert s[program.fields["pool"]][-1].name == "Kc" and len(s[program.fields["pool"]]) == 24
    assert program.legal_texts(s) == ["to_foundation Ad foundations[1]", "build 5d tableau[3]",
                                      "deal"]


def test_a_card_turned_up_scores_five_under_windows_scoring():
    # klondike.md 8.2: an Ace from a pile's top to a foundation, the face-down card
    # below turning up: +10 and +5; the card turned (`4c`) is then face up
    game = _game("klondike/windows")
    program = compile_program(game)
    s = program.from_state(game.new_game(1, 0, deal=SHOOTME))
    code = program.legal(s)[program.legal_texts(s).index("to_foundation Ad foundations[1]")]
    before = len(program.events(s))
    program.apply(s, code)
    assert [(e.rule, e.points) for e in program.events(s)[before:]] == [
        ("onto_foundation", 10), ("turned_by_foundation", 5)]
    assert program.scores(s) == [15]
    assert s[program.fields["down"]][3] == 0 and _zone_names(program, s, "tableau")[1] == ["4c"]
    # (the tops 4d 4c 5d 6c 4h Ks Js: 4c black on the red 5d, 5d red on the black 6c;
    # no Ace on top, no empty pile for Ks, no Ace back onto a black 2; the deal)
    assert program.legal_texts(s) == ["build 4c tableau[2]", "build 5d tableau[3]", "deal"]


def test_the_pyramid_deal_leaves_23_in_the_stock_and_one_on_the_waste():
    # pyramid.md 3 (PY-3): PySolFC's Pyramid deals 28 cards to the pyramid, token 28 to
    # the waste, 23 to the stock; Aisleriot's Thirteen none to the waste, 24 in the stock
    for ref, waste, stock in (("pyramid/pysol", 1, 23), ("pyramid/aisleriot", 0, 24)):
        program = compile_program(_game(ref))
        s = program.new(None, 3)
        f = program.fields
        assert (s[f["count"]], len(s[f["pile"]]), len(s[f["pool"]])) == (28, waste, stock)
        assert s[f["zones"]][0] is s[f["pool"]] and s[f["zones"]][1] is s[f["pile"]]


@pytest.mark.parametrize("ref,overlays", [
    ("klondike/aisleriot", ()), ("klondike/windows", ()), ("klondike/pysol-draw3", ()),
    ("pyramid/pysol", ("overlap",)), ("pyramid/aisleriot", ()), ("pyramid/msc", ()),
])
def test_a_program_state_from_the_interpreters_plays_on_the_same(ref, overlays):
    # half-way through a random game, the program's state made from the interpreter's
    # lists the same moves, finds the codes of the interpreter's moves, and scores the
    # same to the end (copies of it too: a copy's moves leave the original alone)
    game = _game(ref, overlays)
    program = compile_program(game)
    for seed in range(3):
        state, rng = game.new_game(None, seed), random.Random(seed)
        for _ in range(12):
            if not state.is_over:
                state.apply(rng.choice(state.legal_moves()))
        if state.is_over:
            continue
        s = program.from_state(state)
        while not state.is_over:
            moves = state.legal_moves()
            assert program.legal_texts(s) == [m.text for m in moves]
            assert program.codes(moves) == program.legal(s)
            trial = program.copy(s)
            for code in program.legal(trial)[:1]:
                program.apply(trial, code)
            code = rng.choice(program.legal(s))
            text = program.move_text(s, code)
            program.apply(s, code)
            state.apply(text)
            assert program.scores(s) == state.scores
        assert program.is_over(s) and program.winner(s) == state.winner


def test_the_clock_the_front_end_sets_scores_as_in_the_interpreter():
    # Windows timed (klondike.md 6.3, KL-12): 2 off every 10 seconds, never below 0, and
    # on a win 700,000 / seconds; the clock set before each move (5 s a move, as
    # `simulate --seconds-per-move 5`), the same events, scores and record either way
    game = _game("klondike/windows", ("timed",))
    program = compile_program(game)
    for seed in range(3):
        s, state, rng = program.new(None, seed), game.new_game(None, seed), random.Random(seed)
        while not program.is_over(s):
            seconds = (len(state.log) + 1) * 5
            program.set_clock(s, seconds)
            state.set_clock(seconds)
            assert program.legal_texts(s) == [m.text for m in state.legal_moves()]
            code = rng.choice(program.legal(s))
            state.apply(program.move_text(s, code))
            program.apply(s, code)
        assert state.is_over and program.scores(s) == state.scores
        assert [e.as_dict() for e in program.events(s)] == [e.as_dict() for e in state.events]
        assert program.events(s)[-1].rule == "time_penalty"  # (250 moves: 1,250 s)
        assert program.to_state(s).history == state.history


def test_a_listing_that_reads_the_clock_is_not_compiled(tmp_path):
    path = tmp_path / "rush.yaml"
    path.write_text("extends: klondike/aisleriot\nruleset: {game: klondike, title: t}\n"
                    "actions:\n  deal:\n    if: pool.count > 0 and clock.seconds < 600\n",
                    encoding="utf-8")
    assert why_not(_game(str(path))) == "a move listing that reads `clock` (set between moves)"


def test_a_zone_each_player_has_is_not_compiled(tmp_path):
    path = tmp_path / "hands.yaml"
    path.write_text("extends: klondike/aisleriot\nruleset: {game: klondike, title: t}\n"
                    "zones:\n  reserve: {owner: player}\n", encoding="utf-8")
    assert why_not(_game(str(path))) == "zone `reserve`, one for each player"


def test_a_written_klondike_program_imports_and_plays_as_the_compiled_one(tmp_path):
    out = tmp_path / "klondike_program.py"
    result = CliRunner().invoke(app, ["compile", "klondike/windows", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "# action `build` (move), rulesets/klondike/aisleriot.yaml:" in out.read_text()
    plays_as_the_program(out, compile_program(_game("klondike/windows")), 1, 3)


@pytest.mark.parametrize("ref", ["pyramid/pysol", "klondike/windows"])
def test_a_search_fork_steps_as_a_copy_and_leaves_the_position_alone(ref):
    # search support (engine/program/search.py): every zone list a step changes is the
    # fork's own; the lists a round's end appends to (`ended`, events) stay shared
    program = compile_program(_game(ref))
    shared = {program.fields[name] for name in ("ended", "events", "chances")}
    for seed in range(2):
        s, rng = program.new(None, seed), random.Random(seed)
        while not program.is_over(s):
            for code in program.legal(s):
                copied = program.copy(s)
                program.apply(copied, code)
                seen = [repr(x) for i, x in enumerate(s) if i not in shared]
                fork = program.search_fork(s)
                program.search_apply(fork, code)
                assert [repr(x) for i, x in enumerate(s) if i not in shared] == seen
                assert program.legal(fork) == program.legal(copied)
                assert program.scores(fork) == program.scores(copied)
            program.apply(s, rng.choice(program.legal(s)))


@pytest.mark.parametrize("base,rule", [
    ("klondike/aisleriot", "  where:\n    on: to_foundation\n    points: >-\n"
     "      if move.source == \"waste\" then 100 else move.source_index + 10 * move.target_index\n"
     "    label: where from\n"),
    ("pyramid/pysol", "  where:\n    on: pair\n    points: >-\n"
     "      if move.source == \"board\" then move.source_index * move.count\n"
     "      else 50 + len(move.slots)\n    label: where from\n"),
])
def test_where_a_move_comes_from_reads_as_the_interpreter(tmp_path, base, rule):
    # `move.source`, `source_index`, `target_index`, `count` and `slots` (docs/api.md)
    game_name = base.split("/")[0]
    path = tmp_path / "where.yaml"
    path.write_text(f"extends: {base}\nruleset: {{game: {game_name}, title: t}}\n"
                    f"scoring:\n{rule}", encoding="utf-8")
    game = _game(str(path))
    program = compile_program(game)
    for seed in range(3):
        assert _program_trace(program, seed, False) == _engine_trace(game, seed, False)


@pytest.mark.parametrize("ref, overlays, spec", [
    ("pyramid/aisleriot", (), "16:greedy:halving:win"),  # the stock, face-down pyramid cards
    ("klondike/aisleriot", (), "12:greedy:halving:win"),  # the stock, face-down pile cards
    ("klondike/aisleriot", ("thoughtful",), "12:greedy:halving:win"),  # the stock alone
])
def test_mcts_searches_a_zones_program_as_the_interpreter(ref, overlays, spec):
    # engine/players/program_playout.py plays its samples out on the program: a sample
    # that deals the stock again (a new pool list, `thoughtful`) plays as the interpreter's
    state = _game(ref, overlays).new_game(1, 3)
    for _ in range(4):
        state.apply(GreedyAgent().choose(state))
    compiled, agent = rows(state, spec)
    interpreted, _ = rows(state, spec + ":interpreter")
    assert agent.config.compiled and agent.iterations > 0 and compiled == interpreted


@pytest.mark.parametrize("ref", ["klondike/aisleriot", "pyramid/pysol"])
def test_a_state_whose_pool_and_pile_lists_are_replaced_plays_on(ref):
    # what a search's sample does (program_playout: `s[pool] = dealt`): the zones read
    # the state's own pool and pile lists, whichever they are now
    game = _game(ref)
    program = compile_program(game)
    f = program.fields
    for seed in range(4):
        s, state, rng = program.new(None, seed), game.new_game(None, seed), random.Random(seed)
        while not program.is_over(s):
            s[f["pool"]], s[f["pile"]] = list(s[f["pool"]]), list(s[f["pile"]])
            fork = program.search_fork(s)
            assert program.legal_texts(s) == [m.text for m in state.legal_moves()]
            code = rng.choice(program.legal(s))
            program.search_apply(fork, code)
            state.apply(program.move_text(s, code))
            program.apply(s, code)
            assert program.legal(fork) == program.legal(s)
        assert program.scores(s) == state.scores
