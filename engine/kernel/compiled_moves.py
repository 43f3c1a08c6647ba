"""Compiled move listing: the generated functions that list the legal moves.

`compile_simple_moves` writes out the guard of a draw, pass, deal or exchange action,
`compile_play_moves` a play action's guard over the candidate pieces,
`compile_move_moves` a `move` action's `accepts:` and `if:` over its candidates,
`compile_piece_key` the key that shares a play move between positions, and `compile_legal` the whole
`legal_moves()` of a ruleset: the actions in the order written, each action's moves
taken from the position's cache or listed and cached. Written with `compiled._Writer`,
under the same rule as the steps (`compiled.py`): the source holds only checked
expression nodes and the kernel's fixed text, every ruleset value is a constant of the
namespace.
"""

from __future__ import annotations

from typing import Callable

from engine.kernel.compiled import _Writer, _locals
from engine.kernel.general_move import MoveData, move_moves
from engine.kernel.generators import GENERATORS, exchange_options, play_move
from engine.kernel.moves import Move


def _context_lines(w: _Writer, indent: int) -> None:
    """`v`: the decision context of the position (made once per position, shared)."""
    w.add(indent, "v = state._ctx")
    w.add(indent, "if v is None:")
    w.add(indent + 1, "v = state._decision_context()")


def _guard_lines(w: _Writer, indent: int, condition: str) -> None:
    """`ok = condition`; a failure becomes the EvaluationError that `State.moves_of`
    reports with the action's name."""
    w.add(indent, "try:")
    w.add(indent + 1, f"ok = {condition}")
    w.add(indent, "except k_ERRORS as exc:")
    w.add(indent + 1, "raise k_evaluation_error(exc) from exc")


_SIMPLE = ("draw", "pass", "deal", "exchange")

#: how the generated check of a `move` action reads the names of its conditions
_CANDIDATE_NAMES = {"move": "probe", "move.pieces": "moving", "move.count": "count",
                    "zone": "view",
                    **{name: "piece" for name in ("tile", "card", "token", "piece")}}


def compile_move_moves(game, action) -> Callable | None:
    """`generate(state, action) -> moves` for a `move` action: `general_move.move_moves`
    with its loop over candidates and destinations (`check_candidates`) generated, the
    destination's `accepts:` and the action's `if:` written in place, each context name
    they read a local (`_CANDIDATE_NAMES`) or the context's entry; None for other kinds,
    or when a condition cannot be written in place."""
    if action.kind != "move":
        return None
    accepts = game.model.zones.zones[action.move.target].accepts
    conditions = [e for e in (accepts, action.guard) if e is not None]
    names = {n: _CANDIDATE_NAMES.get(n, f"v[{n!r}]")
             for e in conditions for n in e.names_used}
    if "move" in names:
        names.update({n: t for n, t in _CANDIDATE_NAMES.items() if n.startswith("move.")})
    texts = [e.inline(names) for e in conditions]
    if None in texts:
        return None
    w = _Writer()
    _check_lines(w, action, texts)
    check = w.build("check")

    def generate(state, action):
        return move_moves(state, action, check)
    generate.source = check.source
    return generate


def _check_lines(w: _Writer, action, texts: list[str]) -> None:
    """`check(...)`: `general_move.check_candidates` with the conditions `texts` (Python
    over the locals of `_CANDIDATE_NAMES` and `v`) written in place."""
    w.add(0, "def check(v, probe, takes, views, target, action, make_text):")
    w.add(1, f"key, name, out = {w.const(action.move.target)}, {w.const(action.name)}, []")
    w.add(1, "for origins, pieces in takes:")
    w.add(2, "probe.set(origins, pieces, key, 0)")
    w.add(2, "piece, moving, count = pieces[0], probe.pieces, probe.count")
    w.add(2, "for view in views:")
    w.add(3, "index = view.index")
    w.add(3, "if (key, index) in origins:")
    w.add(4, "continue")
    w.add(3, "probe.target_index = index")
    if texts:
        w.add(3, "try:")
        w.add(4, "ok = " + " and ".join(f"({t})" for t in texts))
        w.add(3, "except k_ERRORS as exc:")
        w.add(4, "raise k_evaluation_error(exc) from exc")
        w.add(3, "if not ok:")
        w.add(4, "continue")
    w.add(3, f"out.append({w.const(Move)}(name, None, "
             f"{w.const(MoveData)}(origins, pieces, key, index, make_text)))")
    w.add(1, "return out")


def compile_simple_moves(game, action) -> Callable | None:
    """`generate(state, action) -> moves` for a draw, pass, deal or exchange action with
    a guard: what `state._simple_moves` (or `_exchange_moves`) does, the guard written
    in place; None for other kinds."""
    if action.kind not in _SIMPLE or action.guard is None:
        return None
    w = _Writer()
    w.add(0, "def generate(state, action):")
    _simple_lines(w, game, action, 1, "found")
    w.add(1, "return found")
    return w.build("generate")


def _simple_lines(w: _Writer, game, action, indent: int, target: str,
                  cans: dict | None = None, what: str | None = None) -> None:
    """Lines setting `target` to the moves of a draw, pass, deal or exchange action with a
    guard: none with an empty pool (but to pass), else its one move (an exchange: every
    exchange of the rack) if the guard holds. A failing guard raises the EvaluationError
    `State.moves_of` names the action in, or with `what`, that RuleFailure itself."""
    pad = indent
    if action.kind != "pass":  # as `_simple_moves` and `_exchange_moves` begin
        w.add(indent, "if not state.pool:")
        w.add(indent + 1, f"{target} = []")
        w.add(indent, "else:")
        pad = indent + 1
    if not _locals(w, game, [action.guard], pad, seat="state.to_move", cans=cans):
        _context_lines(w, pad)
    if what is None:
        _guard_lines(w, pad, w.expr(action.guard))
    else:
        w.guarded(pad, [f"ok = {w.expr(action.guard)}"], what, action.guard_pos or action.pos)
    w.names = None
    if action.kind == "exchange":
        # `exchange_options`: the rack's moves found by its names in hand order, in place;
        # listed by the call when not known yet
        w.add(pad, "if ok:")
        w.add(pad + 1, f"{target} = {w.const(game.exchange_cache)}.get(({w.const(action.name)}, "
              "*k_map(k_name, state.hands[state.to_move])))")
        w.add(pad + 1, f"if {target} is None:")
        w.add(pad + 2, f"{target} = {w.const(exchange_options)}(state, {w.const(action)})")
        w.add(pad, "else:")
        w.add(pad + 1, f"{target} = []")
    else:
        w.add(pad, f"{target} = [{w.const(action.only_move)}] if ok else []")


def compile_play_moves(game, action) -> Callable | None:
    """`generate(state, action) -> moves` for a play action whose guard reads only the
    piece (and names shared by every candidate): what `state._play_moves` does with its
    guard filter, the condition written into the loop over the exposed pieces."""
    if action.kind != "play" or action.guard is None or action.guard_filter is None:
        return None
    w = _Writer()
    w.add(0, "def generate(state, action):")
    if _locals(w, game, [action.guard], 1, seat="state.to_move", items=action.guard_pieces):
        found = action.guard.item_condition(action.guard_pieces, w.names)
        w.names = None
    else:
        found = action.guard.item_condition(action.guard_pieces)
        _context_lines(w, 1)
    if found is None:
        return None
    condition, invariants = found
    w.add(1, "cache = action.play_moves")
    for name in invariants:
        w.add(1, f"{name} = _UNSET")
    w.add(1, "out = []")
    w.add(1, "for _k, _p in state.board.exposed_items():")
    _guard_lines(w, 2, condition)
    w.add(2, "if ok:")
    w.add(3, f"move = cache.get(_k * {int(action.key_width)} + _p.uid)")
    make = w.const(play_move)
    w.add(3, f"out.append(move if move is not None else {make}(action, state, _k, _p))")
    w.add(1, "return out")
    return w.build("generate")


_PIECE_TEXT = {name: "_p" for name in ("tile", "card", "token", "piece")}


def compile_piece_key(exprs) -> Callable | None:
    """`key(piece)`: the tuple of the int values of `exprs` for one piece, as the generic
    path works them out in a context holding only the piece (the opening rank), written
    as one function; None if an expression reads any other name."""
    parts = [expr.inline(_PIECE_TEXT) for expr in exprs]
    if not parts or any(part is None for part in parts):
        return None
    w = _Writer()
    w.add(0, "def key(_p):")
    w.add(1, "try:")
    w.add(2, "return (" + "".join(f"k_int({part}), " for part in parts) + ")")
    w.add(1, "except k_ERRORS as exc:")
    w.add(2, "raise k_evaluation_error(exc) from exc")
    return w.build("key")


def compile_legal(game) -> Callable | None:
    """`legal(state) -> moves`: what `State.legal_moves` does for a position not over,
    written out per action: each action's moves taken from the position's cache, or
    listed and cached. A place action without a guard lists the board's placements in
    place, and a draw, pass, deal or exchange guard is written in place, reading the
    `can_<action>` of actions listed before it from their locals. None when a guard may
    lead back to its own action (`Game.can_cycle`): `State.moves_of` marks actions then."""
    if game.can_cycle:
        return None
    w = _Writer()
    w.add(0, "def legal(state):")
    w.add(1, "known = state._by_action")
    listed: dict[str, str] = {}  # `can_<action>` -> the local holding its moves
    for i, action in enumerate(game.actions):
        local, name = f"m{i}", w.const(action.name)
        w.add(1, f"{local} = known.get({name})")
        w.add(1, f"if {local} is None:")
        _listing_lines(w, game, action, local, listed)
        w.add(2, f"known[{name}] = {local}")
        listed[f"can_{action.name}"] = local
    # (a new list, joined in one go: each action's list stays as the cache holds it)
    w.add(1, "return [" + "".join(f"*{local}, " for local in listed.values()) + "]")
    return w.build("legal")


def _listing_lines(w: _Writer, game, action, local: str, listed: dict) -> None:
    """Lines setting `local` to the moves of `action` (see `compile_legal`)."""
    generator = game.generators[action.name]
    if action.kind == "place" and action.guard is None and generator is GENERATORS["place"]:
        w.add(2, "hand = state.hands[state.to_move]")
        w.add(2, "first = not state.round.placed_any")
        w.add(2, "if first and state.opening_pieces is not None:")
        w.add(3, "hand = [p for p in hand if p.uid in state.opening_pieces]")
        w.add(2, f"{local} = k_wrap({w.const(action.name)}, state.board.iter_placements("
                 f"hand, first, {w.const(action.rules)}))")
        return
    what = f"the condition of action `{action.name}`"
    if action.kind in _SIMPLE and action.guard is not None:
        _simple_lines(w, game, action, 2, local, listed, what)
        return
    # anything else: its generator, failing as `State.moves_of` says it
    w.add(2, "try:")
    w.add(3, f"{local} = {w.const(generator)}(state, {w.const(action)})")
    w.add(2, "except k_EvaluationError as exc:")
    where = action.guard_pos or action.pos
    w.add(3, f"raise k_RuleFailure({w.const(what)}, {w.const(where)}, exc) from exc")
