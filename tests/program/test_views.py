"""Views of a program's state (`engine.program.views`) answer as the interpreter's `State`.

Every shipped ruleset alone and every overlay on its game's default is played on the
interpreter and on its program side by side (the same seed; the move picked on the
interpreter, the same applied on the program by its place in the listing, whose texts
must match), and at every ply every attribute of the view is compared with the
state's: the match's numbers, the round's and turn's counters, the pieces the last
move turned face up, the position's key (`State.key`), the counters, hands, pool, pile and zones (pieces by uid, face-down counts, what each seat
may not see), the board (its key, its position's text, its drawing as text, its
fields), the score events, the legal moves' texts, the clock, the random generator and
every expression of the ruleset that reads no move, evaluated in a context of each
seat; at the end the history. Pictures: `render_svg` of a view is the state's.
"""

from __future__ import annotations

import random
from functools import lru_cache

import pytest

from engine.expr import EvaluationError
from engine.kernel import Game
from engine.kernel.state import State
from engine.kernel.zones import face_down, render_zones
from engine.program import compile_program
from engine.program.views import NotKept, ProgramView
from engine.render import render_svg
from engine.rules import load_ruleset
from engine.rules.model import compile_model
from tests.kernel.test_properties import shipped

#: most plies compared per game of a ruleset alone, and of an overlay (a klondike game
#: plays to its turn limit, 250)
PLIES, OVERLAY_PLIES = 120, 30
#: every how many plies everything is compared (`same`'s `full`)
FULL = 4
#: board kinds drawn as text at every ply (the faces of a tableau are in no key)
BUILT = ("tableau",)
ROUND = ("number", "turns", "reason", "winner", "placed_any", "turns_without_place",
         "passes_in_row", "unable_in_row")
TURN = ("draws", "placed", "actions", "could_place", "extra")
_MOVE_NAMES = {"move", "tile", "card", "token", "piece"}


@lru_cache(maxsize=None)
def _game(ref: str, overlays: tuple = ()) -> Game:
    model, diagnostics = compile_model(load_ruleset(ref, overlays))
    assert model is not None, "\n".join(map(str, diagnostics))
    return Game(model)


def _uids(pieces) -> list[int]:
    return [p.uid for p in pieces]


def _expressions(model) -> list:
    """Every expression of the ruleset that reads no move: action guards, round-end
    conditions, the match's end, the winners' keys, rules scored at a round's start or
    end, the definitions."""
    exprs = [a.guard for a in model.actions] + [c.cond for c in model.round_end]
    exprs += [model.match_end] + [k for c in model.round_end for k in c.winner.keys]
    exprs += list(model.match_winner.keys)
    exprs += [e for r in model.scoring if r.on in ("round_start", "round_end")
              for e in (r.guard, r.points)]
    return [e for e in exprs if e is not None and not e.names_used & _MOVE_NAMES]


def _value(expr, context):
    try:
        return expr.evaluate(context)
    except EvaluationError as exc:
        return type(exc)


def _same_board(view, state, full: bool) -> None:
    topology = state.game.model.topology
    board, theirs = view.board, state.board
    assert board.key() == theirs.key()
    assert board.dump_position() == theirs.dump_position()
    if full or topology.kind in BUILT:
        assert topology.render_text(board) == topology.render_text(theirs)
    assert _uids(board.pieces_on_board()) == _uids(theirs.pieces_on_board())
    assert board.count == theirs.count
    assert [(k, p.uid) for k, p in board.hidden_items()] == \
        [(k, p.uid) for k, p in theirs.hidden_items()]
    for name in topology.board_fields:
        mine, other = getattr(board, name), getattr(theirs, name)
        if isinstance(mine, list) and mine and hasattr(mine[0], "uid"):
            mine, other = _uids(mine), _uids(other)
        assert mine == other, name


def _same_zones(view, state, full: bool) -> None:
    assert _uids(view.pool) == _uids(state.pool) and _uids(view.pile) == _uids(state.pile)
    assert [_uids(h) for h in view.hands] == [_uids(h) for h in state.hands]
    assert {k: [_uids(z) for z in rows] for k, rows in view.zones.items()} == \
        {k: [_uids(z) for z in rows] for k, rows in state.zones.items()}
    assert view.down == state.down and view.zones_key() == state.zones_key()
    for key, zone in state.game.model.zones.zones.items():
        size = state.n if key == "hand" else len(state.zones[key]) if key in state.zones else 1
        assert [face_down(view, key, i) for i in range(size)] == \
            [face_down(state, key, i) for i in range(size)], key
    for seat in [None, *range(state.n)] if full else [state.to_move]:
        assert {k: _uids(v) for k, v in view.hidden_from(seat).items()} == \
            {k: _uids(v) for k, v in state.hidden_from(seat).items()}
    if full:
        assert render_zones(view, 0) == render_zones(state, 0)


def _same_contexts(view, state, exprs, full: bool) -> None:
    for seat in range(state.n) if full else [state.to_move]:
        mine, theirs = view.context(seat), state.context(seat)
        for expr in exprs:
            assert _value(expr, mine) == _value(expr, theirs), expr.source


def same(view: ProgramView, state: State, exprs=(), full: bool = True) -> None:
    """Every attribute of the view is the state's (`full`: also the board's and the
    zones' drawings as text, what every seat may not see and the expressions in every
    seat's context; else the board kept as the kind's own object is compared by its key
    and its position's text, and only the mover's hidden pieces and context)."""
    for name in ("n", "seed", "scores", "to_move", "mover", "is_over", "winner",
                 "last_round_winner", "turns_total", "opening_pieces", "turned"):
        assert getattr(view, name) == getattr(state, name), name
    for look, theirs, names in ((view.round, state.round, ROUND), (view.turn, state.turn, TURN)):
        assert {k: getattr(look, k) for k in names} == {k: getattr(theirs, k) for k in names}
    assert view.key() == state.key() and view.key(False) == state.key(False)
    assert view.counters.as_dict() == state.counters.as_dict()
    assert [e.as_dict() for e in view.events] == [e.as_dict() for e in state.events]
    assert view.legal_texts() == [m.text for m in state.legal_moves()]
    assert [view.can(a.name) for a in state.game.actions] == \
        [state.can(a.name) for a in state.game.actions]
    assert (view.clock.seconds, view.clock.marks) == (state.clock.seconds, state.clock.marks)
    assert view.rng.getstate() == state.rng.getstate()
    _same_zones(view, state, full)
    _same_board(view, state, full)
    _same_contexts(view, state, exprs, full)


def play_both(ref: str, overlays: tuple, seed: int, plies: int = PLIES, each=None):
    """A seeded random game on the interpreter and the program side by side; `each(view,
    state, ply)` at every ply (and at the end). Returns the view, the state, `s`."""
    game = _game(ref, overlays)
    program = compile_program(game)
    state, s, rng = game.new_game(None, seed), program.new(None, seed), random.Random(seed)
    view = program.view(s)  # (one view as the match goes on: it follows `s`)
    clock = game.model.reads_clock
    for ply in range(plies):
        each(view, state, ply)
        if state.is_over:
            break
        if clock and ply % 7 == 3:  # (the front end's seconds, now and then)
            state.set_clock(ply * 5)
            program.set_clock(s, ply * 5)
        legal = state.legal_moves()
        i = rng.randrange(len(legal))
        state.apply(legal[i])
        program.apply(s, program.legal(s)[i])
    each(view, state, plies)
    return view, state, s


@pytest.mark.parametrize("ref,overlays", shipped(),
                         ids=lambda x: "+".join(x) if isinstance(x, tuple) else x)
def test_a_view_answers_as_the_state_at_every_ply(ref, overlays):
    exprs = _expressions(_game(ref, overlays).model)

    def each(view, state, ply):
        same(view, state, exprs, full=ply % FULL == 0 or state.is_over)
        if ply % 50 == 17:  # (a view made afresh: the replay from the start)
            same(ProgramView(view.program, view.s), state, exprs)

    plies = OVERLAY_PLIES if overlays else PLIES
    view, state, s = play_both(ref, overlays, seed=1, plies=plies, each=each)
    assert view.history == state.history
    assert view.setup_chances == state.setup_chances


@pytest.mark.parametrize("ref", ["tripeaks/aisleriot", "triominos/pressman", "triolet/standard",
                                 "dominoes/draw", "pyramid/aisleriot", "klondike/aisleriot"])
def test_a_view_is_drawn_as_the_state(ref):
    def each(view, state, ply):
        if ply in (0, 12):  # (the first position as seat 0 sees it, a later one all face up)
            seat = 0 if ply == 0 else None
            assert render_svg(view, seat=seat) == render_svg(state, seat=seat), (ply, seat)
    play_both(ref, (), seed=2, plies=13, each=each)


@pytest.mark.parametrize("ref", ["tripeaks/aisleriot", "triolet/standard", "dominoes/draw"])
def test_a_view_serves_the_terminal_and_the_adapters(ref):
    np = pytest.importorskip("numpy")
    from engine.interop.views import observation
    from engine.kernel.zones import pool_top_shown

    def each(view, state, ply):
        if ply % 5 == 0:
            topology = state.game.model.topology
            assert topology.render_runs(view.board, None, True, 80) == \
                topology.render_runs(state.board, None, True, 80)
            assert pool_top_shown(view) == pool_top_shown(state)
            for seat in range(state.n):
                assert np.array_equal(observation(view, seat), observation(state, seat))
    play_both(ref, (), seed=3, plies=30, each=each)


@pytest.mark.parametrize("ref", ["tripeaks/aisleriot", "klondike/aisleriot"])
def test_the_counters_no_text_reads_are_kept(ref):
    # (no text of these reads `turn.draws`, `round.passes_in_row`, `turns_without_place`
    # or `turn.actions`: a view answers them, `turn.extra` and `turned` as the state)
    game = _game(ref)
    program = compile_program(game)
    s, state, rng = program.new(None, 6), game.new_game(None, 6), random.Random(6)
    view = program.view(s)
    for _ in range(10):
        i = rng.randrange(len(state.legal_moves()))
        state.apply(state.legal_moves()[i])
        program.apply(s, program.legal(s)[i])
    for name in ("turns_without_place", "passes_in_row", "unable_in_row"):
        assert getattr(view.round, name) == getattr(state.round, name), name
    for name in ("draws", "actions", "could_place", "extra"):
        assert getattr(view.turn, name) == getattr(state.turn, name), name
    assert view.turned == state.turned and view.key() == state.key()
    with pytest.raises(AttributeError):
        view.round.no_such_field


@pytest.mark.parametrize("ref", ["tripeaks/aisleriot", "triolet/standard", "klondike/aisleriot",
                                 "triominos/pressman", "dominoes/draw"])
def test_a_view_of_a_state_made_from_the_interpreters(ref):
    # (`Program.from_state`: no log to replay; the board from what the program keeps)
    game = _game(ref)
    program = compile_program(game)
    state, rng = game.new_game(None, 4), random.Random(4)
    for _ in range(12):
        legal = state.legal_moves()
        state.apply(legal[rng.randrange(len(legal))])
    view = program.view(program.from_state(state))
    assert view.replay() is None
    with pytest.raises(NotKept):
        view.history
    topology = game.model.topology
    board, theirs = view.board, state.board
    assert board.dump_position() == theirs.dump_position()
    assert topology.render_text(board) == topology.render_text(theirs)
    assert [p.name for p in board.pieces_on_board()] == [p.name for p in theirs.pieces_on_board()]
    _same_zones(view, state, True)
    assert view.legal_texts() == [m.text for m in state.legal_moves()]
    if topology.kind == "tableau":  # (the deal: the cards left, as a position loaded)
        assert board.key() == (tuple(c.uid if c else -1 for c in theirs.cards), theirs.mask)
    else:
        assert board.key() == theirs.key()


@pytest.mark.parametrize("ref", ["tripeaks/aisleriot", "triolet/standard", "pyramid/aisleriot"])
def test_a_view_follows_a_searchs_steps(ref):
    # (a search's state keeps no log: the view sees its steps by the turns, the round,
    # the pool and the match's end; a tableau's taken cards stay in `cards`)
    program = compile_program(_game(ref))
    s, rng = program.new(None, 5), random.Random(5)
    ahead = program.search_copy(s)
    view, seen = program.view(ahead), {program.view(ahead).board.dump_position()}
    for _ in range(15):
        if program.is_over(s):
            break
        code = rng.choice(program.legal(s))
        view.board  # (read before the step: kept for this position)
        program.apply(s, code)
        program.search_apply(ahead, code)
        assert view.board.dump_position() == program.view(s).board.dump_position()
        assert view.legal_texts() == program.legal_texts(s)
        assert [len(h) for h in view.hands] == [len(h) for h in program.view(s).hands]
        seen.add(view.board.dump_position())
    assert len(seen) > 3
