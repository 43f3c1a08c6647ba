"""Compiled steps: each action's whole move as one generated function per ruleset.

`flow.apply_move` is generic: it looks the action up, calls its effect, loops over its
`then:` updates and scoring rules evaluating one compiled expression at a time, ends the
turn, loops over the round-end conditions and checks for a stalled round. For each
action, `compile_step` writes all of that out as a single Python function, keeping only
the branches that apply to this action and ruleset, with each expression's own
generated code (`Expression.inline`) written in place (`compiled_moves.py` does the same
for listing the legal moves). A move then costs one call where it cost one per step and
per expression.

What is generated comes only from checked expression nodes and from the kernel's own
fixed text; every name, label and position from the ruleset is passed in as a constant of
the function's namespace, never written into the source. The steps do exactly what the
generic path does, in the same order, with the same failures (`RuleFailure` naming the
rule and its line): tests/kernel/test_compiled.py plays every shipped ruleset both ways.
"""

from __future__ import annotations

import keyword
import re
from operator import attrgetter
from typing import Callable

from engine.expr import runtime
from engine.expr.compiler import UNSET
from engine.expr.runtime import EvaluationError
from engine.kernel import flow
from engine.kernel.moves import RuleFailure, ScoreEvent, moves_of_data
from engine.kernel.generators import move_view
from engine.kernel.views import PlaceMove, make_context, opponents_of, place_value

_NAME = attrgetter("name")
_IDENT = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

#: errors an expression may raise: Python failures inside inlined code, or an
#: EvaluationError from an expression called as a function
_ERRORS = (EvaluationError,) + runtime.FAILURES


class _Writer:
    """Lines of one generated function, and the constants it reads."""

    def __init__(self):
        self.lines: list[str] = []
        self.consts: dict[str, object] = {}
        #: while set: the Python text each context name is read as (see `_locals`)
        self.names: dict[str, str] | None = None
        #: `move.<field>` -> the Python text it is read as in a step, not through `view`
        self.move_attrs: dict[str, str] = {}
        #: a step for a search (`compile_step(search=True)`): no events, no log
        self.search = False
        self.action = None  # the action whose step is written

    def const(self, value: object) -> str:
        name = f"K{len(self.consts)}"
        self.consts[name] = value
        return name

    def expr(self, expression) -> str:
        """Source evaluating `expression` over `v` (or over the locals of `names`):
        inlined, or a call of its function."""
        if self.names is not None:
            return expression.inline(self.names)  # `_locals` made sure it can be
        inline = expression.inline()
        return inline if inline is not None else f"{self.const(expression.evaluate)}(v)"

    def value(self, target: str, expression, convert: str) -> list[str]:
        """Lines setting `target` to `convert(value)` of `expression` (`k_int`, `k_bool`):
        a sum, any or all of a comprehension as a loop (`Expression.loop`), its value
        being of that type already; else an assignment of `expr`."""
        loop = expression.loop(target, self.names)
        if loop is not None:
            return loop
        return [f"{target} = {convert}({self.expr(expression)})"]

    def add(self, indent: int, text: str) -> None:
        self.lines.append("    " * indent + text)

    def guarded(self, indent: int, body: list[str], what: str, pos) -> None:
        """`body` inside a try that turns an expression's failure into a RuleFailure."""
        self.add(indent, "try:")
        for line in body:
            self.add(indent + 1, line)
        self.add(indent, "except k_ERRORS as exc:")
        self.add(indent + 1, f"raise k_failure({self.const(what)}, {self.const(pos)}, exc)"
                 " from exc")

    def build(self, name: str) -> Callable:
        namespace = dict(runtime.NAMESPACE, **self.consts)
        namespace.update(
            k_ERRORS=_ERRORS, k_failure=_failure, k_make_context=make_context,
            k_tuple_new=tuple.__new__, k_new=object.__new__, k_list=list, k_ScoreEvent=ScoreEvent, k_int=int, k_bool=bool, k_any=any,
            k_end_round=flow.end_round, k_choose_winner=flow.choose_winner,
            k_enumerate=enumerate, k_evaluation_error=runtime.explain, _UNSET=UNSET,
            k_opponents=opponents_of, k_wrap=moves_of_data, k_place_value=place_value,
            k_map=map, k_name=_NAME,
            k_EvaluationError=EvaluationError, k_RuleFailure=RuleFailure,
            __builtins__={"getattr": getattr, "setattr": setattr, "len": len},
        )
        source = "\n".join(self.lines) + "\n"
        # the kernel's own text and checked expression nodes only (see the docstring)
        exec(compile(source, f"<compiled {name}>", "exec"), namespace)
        function = namespace[name]
        function.source = source
        return function


def _failure(what: str, pos, exc: Exception) -> RuleFailure:
    return RuleFailure(what, pos, runtime.explain(exc))


#: context names read straight from the state: (local, source with `{seat}`, the
#: seat whose context it is: the mover in a step, the player to move in a generator)
_STATE_NAMES = {
    "players": ("x_players", "state.player_views"),
    "pool": ("x_pool", 'state.base_values["pool"]'),
    "pile": ("x_pile", 'state.base_values["pile"]'),
    "board": ("x_board", "state.board"),
    "round": ("x_round", "state.round"),
    "turn": ("x_turn", "state.turn"),
    "counters": ("x_counters", "state.counters"),
    "clock": ("x_clock", "state.clock"),
    "player": ("x_player", "state.player_views[{seat}]"),
    "mover": ("x_player", "state.player_views[{seat}]"),
    "opponents": ("x_opponents", "k_opponents(state, {seat})"),
}
#: attributes of context names read straight from the state, as their views compute
#: them (`engine.kernel.views`), without the view's property call
_STATE_ATTRS = {
    "players.count": "state.n",  # (a view per seat: `state.player_views` has n items)
    "pool.count": "_len(state.pool)",
    "pile.count": "_len(state.pile)",
    "player.hand_count": "_len(state.hands[{seat}])",
    "mover.hand_count": "_len(state.hands[{seat}])",
    "player.score": "state.scores[{seat}]",
    "mover.score": "state.scores[{seat}]",
}
#: ... and those of the move being made (`view`, the action's move record)
_MOVE_NAMES = {
    "move": ("view", "view"),
    **{name: ("x_piece", "view.pieces[0] if view is not None and view.pieces else None")
       for name in ("tile", "card", "token", "piece")},
}


def _locals(w: _Writer, game, exprs: list, indent: int, seat: str = "mover",
            with_move: bool = False, items: tuple = (), cans: dict | None = None) -> bool:
    """Read the context names of `exprs` from locals (no context made), if every one
    of them can be written so: writes the locals' lines, sets `w.names` and returns
    True; else False, and the caller makes a context `v`. The values are those the
    context of `seat` would give: the same objects (a `can_<action>` is the cached
    moves). `items`: names a caller's loop binds to each item (read as `_p`); `cans`:
    `can_<action>` -> a local holding that action's moves, listed already."""
    live = [e for e in exprs if e is not None and not e.is_constant]
    used = set().union(*(e.names_used for e in live)) if live else set()
    known = dict(_STATE_NAMES, **(_MOVE_NAMES if with_move else {}))
    for name, action in game.can_actions.items():
        if name in used and cans and name in cans:  # (listed for a position not over)
            # (`not not`: the list's truth as a bool, as `bool()` gives it, without a call)
            known[name] = (f"(not not {cans[name]})", None)
        elif name in used:  # what the context's `__missing__` gives, the moves cached
            moves = f"state.moves_of({w.const(action)})"
            known[name] = (f"(not state.is_over and not not {moves})", None)
    names = {name: local for name, (local, _) in known.items()}
    names.update((key, text.format(seat=seat)) for key, text in _STATE_ATTRS.items())
    if with_move:
        names.update(w.move_attrs)
    test = dict(names, **{name: "_p" for name in items})
    texts = [e.inline(test) for e in live]
    if None in texts:
        return False
    # only the locals the texts read (`pool.count` is read as `_len(state.pool)`, never
    # through `x_pool`): an unread one would be looked up on every call for nothing
    read = set(_WORD.findall(" ".join(texts)))
    written = set()
    for name, (local, source) in known.items():
        if (name in used and source is not None and local in read and local not in written
                and local != source):
            w.add(indent, f"{local} = {source.format(seat=seat)}")
            written.add(local)
    w.names = names
    return True


def _assign(w: _Writer, counter: str, value: str) -> str:
    """`counters.<name> = value`; a name that is not a plain identifier (the schema
    should not let one through) is passed as a constant, never written as source."""
    if _IDENT.fullmatch(counter) and not keyword.iskeyword(counter):
        return f"counters.{counter} = {value}"
    return f"setattr(counters, {w.const(counter)}, {value})"


def _after_lines(w: _Writer, game, action, indent: int) -> None:
    """Lines setting `extra`: the action's `then:` updates, its scoring rules paying the
    mover, and its `extra_turn`, reading the names from locals (`_locals`) or, when
    one cannot be read so, from a new context `v` for the mover."""
    exprs = [e for _, e in action.then] + [action.extra_turn]
    exprs += [e for rule in action.scoring for e in (rule.guard, rule.points)]
    if any(e is not None and not e.is_constant for e in exprs) and not _locals(
            w, game, exprs, indent, with_move=True):
        # (a context is made only when some expression reads a name that cannot be read
        # from a local; a draw costing a fixed number of points reads none)
        w.add(indent, "v = k_make_context(state, mover)")
        w.add(indent, "if view is not None:")
        w.add(indent + 1, 'v["move"] = view')
        if action.move_aliases:
            w.add(indent + 1, "pieces = view.pieces")
            w.add(indent + 1, "if pieces:")
            w.add(indent + 2, " = ".join(f'v["{n}"]' for n in action.move_aliases)
                  + " = pieces[0]")
    what = f"action `{action.name}` (its `then` or `extra_turn`)"
    if action.then:
        w.add(indent, "counters = state.counters")
        body = [f"n{i} = k_int({w.expr(e)})" for i, (_, e) in enumerate(action.then)]
        w.guarded(indent, body, what, action.pos)
        for i, (name, _) in enumerate(action.then):
            w.add(indent, _assign(w, name, f"n{i}"))
    _scoring_lines(w, action, indent)
    if action.extra_turn is None:
        w.add(indent, "extra = False")
    else:
        w.guarded(indent, w.value("extra", action.extra_turn, "k_bool"), what, action.pos)
    w.names = None


def _scoring_lines(w: _Writer, action, indent: int) -> None:
    """The action's scoring rules, in order, each paying the mover and recording its
    event (rule, position, label)."""
    if action.scoring:
        w.add(indent, "scores = state.scores")
    for rule in action.scoring:
        body = []
        pad = ""
        if rule.guard is not None:
            body.append(f"if {w.expr(rule.guard)}:")
            pad = "    "
        fixed = int(rule.points.evaluate({})) if rule.points.is_constant else None
        points = "p" if not fixed else str(fixed)  # (an int a checked literal folded to)
        # `make_event`, without the call
        event = (f"k_tuple_new(k_ScoreEvent, (mover, {points}, {w.const(rule.name)}, "
                 f"{w.const(rule.pos)}, {w.const(rule.label)}))")
        record = [] if w.search else [f"events.append({event})"]
        if fixed:  # a nonzero constant: no conversion, no test
            body += [f"{pad}scores[mover] += {points}"] + [pad + r for r in record]
        else:
            body += [pad + line for line in w.value("p", rule.points, "k_int")]
            body += [f"{pad}if p:", f"{pad}    scores[mover] += p"]
            body += [f"{pad}    {r}" for r in record]
        w.guarded(indent, body, f"scoring rule `{rule.name}`", rule.pos)


def _effect_lines(w: _Writer, action, indent: int) -> None:
    """The action's effect (`flow.EFFECTS`), written in place for the simple kinds."""
    kind = action.kind
    if kind == "draw":
        w.add(indent, "state.hands[mover].append(state.pool.pop())")
        w.add(indent, "turn.draws += 1")
    elif kind == "deal":
        w.add(indent, "state.pile.append(state.pool.pop())")
    elif kind == "play":
        w.add(indent, "state.pile.append(state.board.remove(move.data[0]))")
    elif kind == "place" and action.effect is flow.EFFECTS["place"]:  # `flow._place`
        w.add(indent, "placement = move.data")
        w.add(indent, "hand = state.hands[mover]")
        w.add(indent, "placed = placement.pieces")
        # `flow.take` of each piece, without the call: found by identity
        w.add(indent, "for piece in placed:")
        w.add(indent + 1, "for i, held in k_enumerate(hand):")
        w.add(indent + 2, "if held is piece:")
        w.add(indent + 3, "del hand[i]")
        w.add(indent + 3, "break")
        w.add(indent + 1, "else:")
        w.add(indent + 2, "hand.remove(piece)")
        w.add(indent, "state.board.apply_placement(placement)")
        w.add(indent, "turn.placed += len(placed)")
        w.add(indent, "state.round.placed_any = True")
    elif kind != "pass":
        w.add(indent, f"{w.const(action.effect)}(state, {w.const(action)}, move)")


_INVALIDATE = ("state._legal = state._listed = state._by_text = state._ctx = None",
               "state._by_action = {}")


def _settle_lines(w: _Writer, game, indent: int) -> None:
    """`flow.settle`: a player to move with no legal move at all ends the round."""
    if game.legal is None:
        w.add(indent, "if not state.is_over and not state.previewing and not state.legal_moves():")
        w.add(indent + 1, 'k_end_round(state, "stalled", None, mover)')
        return
    # `state.legal_moves()` for a position not over, without the call: kept as it does
    w.add(indent, "if not state.is_over and not state.previewing:")
    w.add(indent + 1, f"listed = state._legal = {w.const(game.legal)}(state)")
    w.add(indent + 1, "if not listed:")
    w.add(indent + 2, 'k_end_round(state, "stalled", None, mover)')


def _end_turn_lines(w: _Writer, game, action, indent: int) -> None:
    """`flow.end_turn`: close the turn, pass it on, check the round-end conditions."""
    model = game.model
    w.add(indent, "r = state.round")
    w.add(indent, "r.turns += 1")
    w.add(indent, "state.turns_total += 1")
    w.add(indent, "r.turns_without_place = 0 if turn.placed else r.turns_without_place + 1")
    w.add(indent, "r.passes_in_row = r.passes_in_row + 1" if action.kind == "pass"
          else "r.passes_in_row = 0")
    w.add(indent, "r.unable_in_row = 0 if turn.could_place else r.unable_in_row + 1")
    if model.refill:  # `flow.refill`, without the call (the hand sizes are fixed)
        sizes = w.const({n: model.hand_size_for(n) for n in model.hand_size})
        w.add(indent, f"size = {sizes}.get(state.n, 0)")
        w.add(indent, "rhand = state.hands[mover]")
        w.add(indent, "if len(rhand) < size:")
        w.add(indent + 1, "rpool = state.pool")
        w.add(indent + 1, "while len(rhand) < size and rpool:")
        w.add(indent + 2, "rhand.append(rpool.pop())")
    # `turn.reset()`, without the call (tests/kernel/test_compiled.py checks the fields)
    w.add(indent, "turn.draws = turn.placed = turn.actions = 0")
    w.add(indent, "turn.could_place = True")
    w.add(indent, "turn.extra = False")
    w.add(indent, "state.to_move = mover if extra else (mover + 1) % state.n")
    for line in _INVALIDATE:
        w.add(indent, line)
    if not _locals(w, game, [c.cond for c in model.round_end], indent):
        w.add(indent, "v = state._decision_context() if state.to_move == mover"
              " else k_make_context(state, mover)")
    w.add(indent, "ended = -1")
    for i, cond in enumerate(model.round_end):
        if i:
            w.add(indent, "if ended < 0:")
        pad = indent + (1 if i else 0)
        w.guarded(pad, [f"if {w.expr(cond.cond)}:", f"    ended = {i}"],
                  f"round-end condition `{cond.name}`", cond.pos)
    w.names = None
    names = w.const(tuple(c.name for c in model.round_end))
    winners = w.const(tuple(c.winner for c in model.round_end))
    w.add(indent, "if ended >= 0:")
    w.add(indent + 1, f"k_end_round(state, {names}[ended], "
          f"k_choose_winner(state, {winners}[ended], mover), mover)")
    w.add(indent, f"elif r.turns >= {int(model.max_turns_per_round)}:")
    w.add(indent + 1, 'k_end_round(state, "turn_limit", None, mover)')
    w.add(indent, "else:")
    _settle_lines(w, game, indent + 1)


def _reads_state_only(action) -> bool:
    """Whether what runs after the action's effect (its `then:`, `extra_turn` and scoring
    rules, all paying the mover) reads only names the state holds (no `can_<action>`,
    no definition but one written out of those names, such as a constant), so none of
    the position's caches of moves or context."""
    if action.scoring and not action.scoring_mover_only:
        return False
    exprs = [e for _, e in action.then] + [action.extra_turn]
    exprs += [e for rule in action.scoring for e in (rule.guard, rule.points)]
    known = set(_STATE_NAMES) | set(_MOVE_NAMES)
    texts = {name: f"x_{name}" for name in known}
    return all(e is None or getattr(e, "names_used", None) is not None and (
        e.names_used <= known or e.inline(texts) is not None) for e in exprs)


def compile_step(game, action, search: bool = False) -> Callable:
    """`step(state, move) -> score events`: everything `flow.apply_move` does for a move
    of `action`, in one function (the generic `flow._after_effect` is called when the
    action's rules pay someone other than the mover). With `search`, the step of a
    search that undoes its moves (`State.search_save`) and reads only the scores: the
    same changes of the position, but no score events, no log, and it returns None."""
    w = _Writer()
    w.search = search
    w.action = action
    w.add(0, "def step(state, move):")
    w.add(1, "turn = state.turn")
    if game.tracks_unable:
        w.add(1, "if turn.actions == 0:")
        if len(game.place_actions) == 1:  # (no generator expression for one action)
            place = w.const(game.place_actions[0])
            if game.can_cycle:
                w.add(2, f"turn.could_place = not not state.moves_of({place})")
            else:  # listed already, as a rule: taken from the position's cache, no call
                name = w.const(game.place_actions[0].name)
                w.add(2, f"placeable = state._by_action.get({name})")
                w.add(2, "if placeable is None:")
                w.add(3, f"placeable = state.moves_of({place})")
                w.add(2, "turn.could_place = not not placeable")
        else:
            places = w.const(game.place_actions)
            w.add(2, f"turn.could_place = k_any(state.moves_of(a) for a in {places})")
    w.add(1, "mover = state.to_move")
    inline_view = game.place_view.__init__ is PlaceMove.__init__
    view_at = None  # where the lines making `view` go, if anything reads it
    if action.reads_move and action.kind == "place" and inline_view:
        # the move record made only if read at all (`_insert_view`): the fields it
        # reads from the placement are read from there
        w.add(1, "vplace = move.data")
        w.move_attrs = {f"move.{name}": f"vplace.{name}" for name in game.place_view.forwarded}
        w.move_attrs["move.count"] = "_len(vplace.pieces)"
        w.move_attrs["move.value"] = "k_place_value(vplace.pieces)"
        view_at = len(w.lines)
    elif action.reads_move and action.kind == "play":
        # `move.slot` read from the board before the card leaves (as `move_view` does);
        # the move record made only if something else of it is read (`_insert_view`)
        w.add(1, "vslot = state.board.slot_record(move.data[0])")
        w.move_attrs = {"move.slot": "vslot"}
        view_at = len(w.lines)
    elif action.reads_move and action.kind == "place":  # `move_view`, without the call
        w.add(1, f"view = {w.const(game.place_view)}(move.data, not state.round.placed_any)")
    elif action.reads_move:
        w.add(1, f"view = {w.const(move_view)}(state, {w.const(action)}, move)")
    else:
        w.add(1, "view = None")
    if not search:
        w.add(1, "events = state.events")
        w.add(1, "start = len(events)")
    _effect_lines(w, action, 1)
    w.add(1, "turn.actions += 1")
    if not (action.ends_turn and _reads_state_only(action)):
        # (else nothing reads the position's caches before the turn's end resets them)
        for line in _INVALIDATE:
            w.add(1, line)
    if action.scoring and not action.scoring_mover_only:
        after = w.const(flow._after_effect)  # rules paying others: the generic loop
        w.add(1, f"extra = {after}(state, {w.const(action)}, view, mover)")
    elif action.then or action.scoring or action.extra_turn is not None:
        _after_lines(w, game, action, 1)
    else:
        w.add(1, "extra = False")
    if action.ends_turn:
        _end_turn_lines(w, game, action, 1)
    else:
        _settle_lines(w, game, 1)
    if search:  # (the chance outcomes stay pending: `search_restore` puts them back)
        w.add(1, "return None")
    else:  # (`flow.log_move`, without the call)
        w.add(1, "chances = state.pending_chances")
        w.add(1, "if chances:")
        w.add(2, "state.pending_chances = []")
        w.add(1, "else:")
        w.add(2, "chances = ()")
        w.add(1, "state.log.append((move, chances, state.scores[:]))")
        w.add(1, "return events[start:]")
    if view_at is not None:
        _insert_view(w, game, view_at)
    return w.build("step")


def _insert_view(w: _Writer, game, at: int) -> None:
    """`view = PlaceMove(vplace, opening)` (`move_view`, its `__init__` written in place)
    at line `at` of a step, if a later line reads `view`; for a play, `move_view`."""
    if "vslot" in w.move_attrs.values():
        if any("view" in _WORD.findall(line) for line in w.lines[at:]):
            w.lines.insert(at, f"    view = {w.const(move_view)}(state, {w.const(w.action)}, move)")
        return
    if any("view" in _WORD.findall(line) for line in w.lines[at:]):
        w.lines[at:at] = ["    " + line for line in (
            f"view = k_new({w.const(game.place_view)})", "view.placement = vplace",
            "view.opening = not state.round.placed_any",
            "view.pieces = vpieces = k_list(vplace.pieces)", "view.count = len(vpieces)")]
