"""The generated module's entry points: `new`, `apply` (every action's step in one
function), `copy` and the small readers; and `module_source`, the whole module.
(`generate.py` writes the round's functions and the move listing they share.)"""

from __future__ import annotations

import re

from engine.expr import types as T

from engine.program.generate import (
    _bind,
    _hole,
    _end_round,
    _inline,
    _int,
    _listing_lines,
    _scoring_lines,
    _start_round,
    _winner,
    at,
    loop_lines,
    winner_functions,
)
from engine.program import match, turn
from engine.program.plan import NotCompiled, Plan, names_for, reasons
from engine.program.search import fork_lines, own_lists, shares_board
from engine.program.source import Source, comment, where
from engine.program.template import Code, Lines, fragment, hole


def _header(src: Source, plan: Plan, title: str) -> None:
    ruleset = plan.model.ruleset
    src.add(0, '"""A Rulecraft program, generated: do not edit (see engine/program/)."""')
    src.note(0, f"ruleset: {title}")
    src.note(0, f"hash: {ruleset.hash}")
    for path in ruleset.files:
        src.note(0, f"from: {path}")
    src.note(0, "")
    src.note(0, "The state s is one list:")
    for name, i in plan.fields.items():
        src.note(0, f"  s[{i}] {name}")
    src.note(0, "A move is an int code; each action's codes, in the order written:")
    for action, base in plan.actions:
        kind = action.kind
        span = f"{base}+slot" if kind in plan.board.move_kinds else str(base)
        if kind == "move":
            span = f"{base}+c*{plan.zones.count(action.move.target)}+t"
        src.note(0, f"  {span}: `{action.name}` ({kind}), {where(action.pos)}")
    src.note(0, "A score event is (seat, points, rule), rule an index of K_rules.")
    src.add(0, "")


def _new(src: Source, plan: Plan) -> None:
    f = plan.fields
    src.add(0, "def new(n, seed):")
    src.add(1, "\"\"\"A new match of `n` players, its first round dealt (`Game.new_game`).\"\"\"")
    src.block(1, fragment(match.new_state, dict(
        F=match.layout(f), SIZE=len(f), RANDOM="k_Random", COUNTERS="K_counters0")))
    src.block(1, plan.board.empty_lines(f))
    src.add(1, "_start_round(s, 1)")
    _bind(src, plan, 1)
    _listing_lines(src, plan, 1)
    src.block(1, fragment(match.first_moves, dict(
        F=match.layout(f), NO_MOVES=len(plan.model.round_end), END_ROUND="_end_round")))
    src.add(0, "")


def _effect_lines(src: Source, plan: Plan, indent: int, action, base: int, search=False,
                  lean=False):
    """The effect of a move of `action` (`flow.EFFECTS`, `search`: a search's step or a
    preview, `lean`: a search's, `kept_counters`); (the piece's text, the `move.<field>`
    texts) its rules read."""
    f, kind = plan.fields, action.kind
    kept = _layout(plan, lean)
    if kind == "deal":
        src.block(indent, fragment(turn.deal, {}))
    elif kind == "draw":
        src.block(indent, fragment(turn.draw, dict(F=kept, HELD=plan.held)))
    elif kind == "place":
        src.add(indent, f"first = not s[{f['placed_any']}]  # (`move.opening`)")
        src.block(indent, plan.board.place_lines(f, f"m - {base}" if base else "m", "piece"))
        return "piece", plan.board.move_names("pl", applied=True)
    elif kind == "exchange":
        src.block(indent, fragment(turn.exchange, dict(
            F=kept, BASE=base, HELD=plan.held, COPY_RNG="k_copy_rng", EXCHANGE="k_exchange",
            BITS="k_bits")))
    elif kind == "pass":  # (nothing moves: the block may hold no other line)
        src.add(indent, "pass")
    elif kind == "move":
        src.block(indent, plan.zones.effect_lines(f, action, base))
        return "mp[0]", plan.zones.applied_names(action)
    elif kind == "play":
        src.add(indent, f"slot = m - {base}" if base else "slot = m")
        shared = search and shares_board(plan)  # (the card left in place: search.py)
        src.block(indent, plan.board.remove_lines(f, "slot", "piece", shared))
        src.add(indent, "pile.append(piece)")
        return "piece", plan.board.move_names("slot")
    return None, None


def _action_lines(src: Source, plan: Plan, indent: int, action, base: int,
                  search: bool = False, preview: bool = False) -> None:
    """One action's effect, `then:` updates and scoring rules (`flow.apply_move`);
    `search`: no score event and no log entry (`search_apply`); `preview`: nor the
    next moves listed (`preview_apply`)."""
    f, lean = plan.fields, search and not preview
    src.note(indent, f"action `{action.name}` ({action.kind}), {where(action.pos)}")
    piece, move = _effect_lines(src, plan, indent, action, base, search, lean)
    if kept_counters(plan, lean)["t_actions"]:
        src.add(indent, f"s[{f['t_actions']}] += 1")
    names = names_for(plan, "mover", "mover", piece=piece, move=move)
    _then_lines(src, plan, indent, action, names, search)
    _scoring_lines(src, plan, indent, action.name,
                   lambda seat: names_for(plan, seat, "mover", piece=piece, move=move),
                   not search)
    if action.extra_turn is not None:
        text = _inline(plan, action.extra_turn, names,
                       at(plan, action.pos, "actions", action.name, "extra_turn"))
        src.note(indent, "extra_turn: the mover plays again")
        lines = (loop_lines(plan, action.extra_turn, names, "extra")  # (exactly a bool)
                 if action.extra_turn.type == T.BOOL else None)
        src.guarded(indent, lines or [f"extra = k_bool({text})"],
                    plan.site(("then", action.name)))
    if not action.ends_turn:  # (a draw: the mover goes on; `flow.settle`)
        src.note(indent, "the turn goes on: the mover's next moves (`flow.settle`)")
        if not search:
            src.add(indent, f"s[{f['log']}].append(m)")
        if preview:  # (`flow.settle` skips a preview)
            src.add(indent, "return None")
            return
        _settle_lines(src, plan, indent)
        src.add(indent, f"return s[{f['legal']}]")


def _then_lines(src: Source, plan: Plan, indent: int, action, names: dict,
                search: bool) -> None:
    """An action's `then:` updates, every value worked out before any is set
    (`search`: not those of counters nothing reads, `_unread_counters`)."""
    then = action.then
    if search:  # (a counter nothing reads: a search that only looks ahead skips it)
        unread = _unread_counters(plan)
        then = [(name, expr) for name, expr in then if name not in unread]
    if not then:
        return
    order = list(plan.model.counters)
    body = []
    for i, (name, expr) in enumerate(then):
        if name not in order:
            raise NotCompiled(f"`then:` of `{action.name}` sets `{name}`, not a counter")
        pos = at(plan, action.pos, "actions", action.name, "then", name)
        body.append(f"n{i} = {_int(plan, expr, names, pos)}")
    src.note(indent, "then: (every value worked out before any is set)")
    src.guarded(indent, body, plan.site(("then", action.name)))
    for i, (name, _) in enumerate(then):
        src.add(indent, f"counters[{order.index(name)}] = n{i}")


def _settle_lines(src: Source, plan: Plan, indent: int, listed: bool = False) -> None:
    """The next position's moves (`out`, unless `listed` already) kept, and a round in
    which the player to move has none ended (`turn.settle`)."""
    src.fragment(indent, turn.settle, dict(
        F=_layout(plan), NO_MOVES=len(plan.model.round_end), END_ROUND="_end_round",
        LISTING=Lines() if listed else _hole(lambda sub: _listing_lines(sub, plan, 0))))


def _unread_counters(plan: Plan) -> set[str]:
    """The counters that no text of the ruleset mentions but their own `then:` updates:
    nothing a program lists, scores or ends a round by depends on them."""
    data = plan.model.ruleset.data
    actions = [spec for spec in (data.get("actions") or {}).values() if isinstance(spec, dict)]
    rest = repr(({k: v for k, v in data.items() if k != "actions"},
                 [{k: v for k, v in spec.items() if k != "then"} for spec in actions]))
    unread = set()
    for name in plan.model.counters:
        pattern = re.compile(rf"\bcounters\.{re.escape(name)}\b")
        updates = [v for spec in actions for c, v in (spec.get("then") or {}).items() if c != name]
        if not pattern.search(rest) and not pattern.search(repr(updates)):
            unread.add(name)
    return unread


def kept_counters(plan: Plan, search: bool = False) -> dict[str, bool]:
    """Which of the round's and turn's counters the program keeps up to date: every
    one that can change between two moves (what a view of `s` reads, `State.key()`
    among it: `passes_in_row` stays 0 without a pass action, `turn.draws` and
    `turn.actions` 0 when every action ends the turn), but in a search's step
    (`search`) only those some expression may read (`Plan.mentions`) and those they are
    worked out from. (`turn.placed` is kept always: a placement counts it, `flow._place`;
    `turn.could_place` is worked out only when a rule reads `round.unable_in_row`, as
    the interpreter's: else it stays true and `unable_in_row` 0.)"""
    unable = plan.model.tracks_unable
    if not search:  # (but a counter that cannot change between moves keeps its start)
        actions = plan.model.actions
        open_turn = any(not a.ends_turn for a in actions)  # (else 0 between moves)
        return {"without_place": True, "t_placed": True,
                "passes": any(a.kind == "pass" for a in actions)  # (else always 0)
                or plan.mentions(r"passes_in_row"),
                "unable": unable, "t_could": unable,  # (else 0, and true)
                "t_draws": open_turn or plan.mentions(r"\bdraws\b"),
                "t_actions": unable or open_turn or plan.mentions(r"turn\W+actions")}
    return {"without_place": plan.mentions(r"turns_without_place"),
            "passes": plan.mentions(r"passes_in_row"),
            "unable": unable, "t_could": unable,
            "t_draws": plan.mentions(r"\bdraws\b"),
            "t_placed": True,
            "t_actions": unable or plan.mentions(r"turn\W+actions")}


def _could_place(src: Source, plan: Plan) -> None:
    """`turn.could_place` on a turn's first action (`turn.could_place`)."""
    spans = [(base, base + plan.board.width(a.kind)) for a, base in plan.actions
             if a.kind == "place"]
    if not plan.model.tracks_unable or not spans:
        return
    first_end = spans.pop(0)[1] if spans[0][0] == 0 else None  # (listed first)
    test = " or ".join(f"{lo} <= c < {hi}" for lo, hi in spans) or "False"
    src.fragment(1, turn.could_place, dict(
        F=_layout(plan), FIRST_END=first_end, OTHERS=bool(spans), TEST=Code(test),
        HAS="k_has", BOOL="k_bool"))


def _layout(plan: Plan, search: bool = False) -> dict:
    """`F` for the turn's templates: the counters the program (`search`: a search's
    step) does not keep are None."""
    kept = kept_counters(plan, search)
    return match.layout(plan.fields, absent=[k for k, keep in kept.items() if not keep])


def _end_turn_lines(src: Source, plan: Plan, search: bool = False, lean: bool = False) -> None:
    """`flow.end_turn` up to the round-end conditions (`turn.end_turn`, its template):
    the round's counters, a fresh turn, the next player (`search`: not the match's turn
    count, no log entry; `lean`: a search's step, `kept_counters`)."""
    src.note(1, "the turn's end (`flow.end_turn`, engine/program/turn.py)")
    src.block(1, fragment(turn.end_turn, dict(
        F=_layout(plan, lean), SEARCH=search,
        PASS_CODES=tuple(base for a, base in plan.actions if a.kind == "pass"),
        EXTRA_TURNS=any(a.extra_turn is not None for a, _ in plan.actions),
        REFILL=bool(plan.model.refill), HELD=plan.held, HAND_SIZES="K_hand", BITS="k_bits")))


_DOCS = {"apply": "Apply the legal move `m`; the next position's legal moves (none: over).",
         "search_apply": "`apply` for a search: no score events for the move, no log.",
         "preview_apply": "`search_apply` for a preview: the next moves not listed."}


def _apply(src: Source, plan: Plan, search: bool = False, preview: bool = False) -> None:
    """`apply`; with `search`, `search_apply`: the same step without the action's score
    events, the log and the match's turn count (a search that only looks ahead); with
    `preview` too, `preview_apply`: nor the next position's moves listed, nor a stalled
    round ended (`State.preview`: what one move scores, on a copy never played on)."""
    f, model = plan.fields, plan.model
    lean = search and not preview  # (a search's step: `kept_counters`)
    search = search or preview
    name = "preview_apply" if preview else "search_apply" if search else "apply"
    src.add(0, f"def {name}(s, m):")
    src.add(1, f'"""{_DOCS[name]}"""')
    _bind(src, plan, 1)
    src.add(1, f"mover = s[{f['to_move']}]")
    if any(a.extra_turn is not None for a, _ in plan.actions):
        src.add(1, "extra = False")
    _could_place(src, plan)
    for i, (action, base) in enumerate(plan.actions):
        last = i == len(plan.actions) - 1
        if last:
            src.add(1, "else:" if i else "if True:")
        else:
            end = plan.actions[i + 1][1]
            src.add(1, f"{'elif' if i else 'if'} m < {end}:")
        _action_lines(src, plan, 2, action, base, search, preview)
    _end_turn_lines(src, plan, search, lean)
    early = any(name.startswith("can_") for c in model.round_end for name in c.cond.names_used)
    cans = _listing_lines(src, plan, 1) if early else None
    _conditions(src, plan, cans, preview)
    src.add(0, "")


def _conditions(src: Source, plan: Plan, cans: dict | None, preview: bool) -> None:
    """The round-end conditions in order (`turn.round_end_test`), then the round's end
    by the first that holds (`turn.ending`), the turn limit, or the game going on
    (`turn.turn_limit`; for a preview, nothing more)."""
    model = plan.model
    names = names_for(plan, "mover", "mover", cans=cans or {})
    src.add(1, "ended = -1")
    for i, cond in enumerate(model.round_end):
        src.note(1, f"round end `{cond.name}` ({where(cond.pos)})")
        text = _inline(plan, cond.cond, names, at(plan, cond.pos, "round", "end", cond.name, "if"))
        src.fragment(1, turn.round_end_test, dict(
            FIRST=not i, COND=Code(text), INDEX=i, SITE=plan.site(("end", i)),
            ERRORS="k_ERRORS", FAILURE="k_failure"))
    rest = hole(turn.turn_limit, dict(
        F=_layout(plan), MOST=int(model.max_turns_per_round), INDEX=len(model.round_end) + 1,
        END_ROUND="_end_round", SETTLE=Lines() if preview else _hole(
            lambda sub: _settle_lines(sub, plan, 0, listed=cans is not None))))
    for i, cond in reversed(list(enumerate(model.round_end))):
        rest = hole(turn.ending, dict(
            INDEX=i, WINNER=Code(_winner(plan, cond.winner, "mover")), END_ROUND="_end_round",
            REST=rest))
    src.block(1, rest)
    if not preview:  # (whichever way the turn ended: the next position's moves)
        src.add(1, f"return s[{plan.fields['legal']}]")


def _copy_and_readers(src: Source, plan: Plan) -> None:
    f = match.layout(plan.fields)
    src.add(0, "def copy(s):")
    src.add(1, "\"\"\"An independent copy of the state (pieces are shared: immutable).\"\"\"")
    src.block(1, fragment(match.copy_state, dict(F=f, HANDS=plan.hands, HELD=plan.held)))
    src.block(1, plan.board.copy_lines(plan.fields))
    if plan.zones is not None:
        src.block(1, plan.zones.copy_lines(plan.fields))
    src.add(1, "return c")
    src.add(0, "")
    src.add(0, "def search_copy(s):")
    src.add(1, "\"\"\"A copy for a search that only looks ahead (`State.search_clone`): its")
    src.add(1, "events, log and shuffles start empty (copying them costs as the match is long).\"\"\"")
    src.add(1, "c = s[:]")
    src.block(1, own_lists(plan))
    src.block(1, fragment(match.search_records, dict(F=f)))
    src.add(1, "return c")
    src.add(0, "")
    for name, field in (("legal", "legal"), ("is_over", "over"), ("scores", "scores")):
        src.add(0, f"def {name}(s):")
        src.add(1, f"return s[{f[field]}]")
        src.add(0, "")


def module_source(plan: Plan, title: str) -> str:
    """The whole module for `plan`; NotCompiled if some part cannot be written."""
    src = Source()
    _header(src, plan, title)
    if hasattr(plan.board, "source"):  # (a board kind with functions of its own)
        src.note(0, f"the `{plan.board.kind}` board's functions (engine/program/{plan.board.kind}.py)")
        src.block(0, plan.board.source().splitlines())
    winner_functions(src, plan)
    _start_round(src, plan)
    _end_round(src, plan)
    _new(src, plan)
    _apply(src, plan)
    _copy_and_readers(src, plan)
    _apply(src, plan, search=True)
    _apply(src, plan, preview=True)
    fork_lines(src, plan)
    return src.text()


__all__ = ["comment", "module_source", "reasons"]
