"""The generator: a ruleset's plan (`plan.py`) written out as one Python module.

The module's functions work on one list, the state (its layout is written at the top
of the module), and on the rulesets' constants (`K_*`, `B_*` for the board's), never
on the kernel's objects:

    new(n, seed) -> s          a new match, its first round dealt (the interpreter's shuffle)
    legal(s) -> list[int]      the legal moves as codes, in the interpreter's order
    apply(s, code) -> bool     one legal move; whether the match is over after it
    copy(s) -> s               an independent copy (for search)
    is_over(s), scores(s)
    search_apply(s, code)      `apply` without the move's events or log (a search's step)
    search_fork(s) -> s        a copy for `search_apply` (engine/program/search.py)

Each step does what `engine.kernel.flow` does for the ruleset, in the same order: the
effect, the `then:` updates (all evaluated before any is assigned), the scoring rules
(an event is a tuple `(seat, points, rule index)`), the turn's end, the round-end
conditions in order, the next position's moves, the round's end and the next round.
Expressions are written in place by the checked expression compiler
(`Expression.inline`, `item_condition`) with each context name read as the text
`plan.names_for` gives; one that reads any other name makes the ruleset NotCompiled.
"""

from __future__ import annotations

from engine.expr import types as T
from engine.program import match, rounds, turn
from engine.program.fold import fit_name, slot_name, tables
from engine.program.plan import (
    PIECE_NAMES,
    NotCompiled,
    Plan,
    names_for,
)
from engine.program.source import Source, comment, where, written_fields
from engine.program.template import Code, Lines, fragment


def _inline(plan: Plan, expr, names: dict, pos) -> str:
    """The Python text of `expr` with `names`; NotCompiled if it reads another name."""
    text = expr.inline(names, keep=True)
    if text is None:
        raise NotCompiled(_unread(expr, names, pos))
    # (`len(players)` is the number of seats: no seat records made to count them)
    return text.replace("_len(k_seats(s))", f"s[{plan.fields['n']}]")


def at(plan: Plan, default, *path):
    """Where the value at `path` of the resolved ruleset is written (an overlay's line
    when an overlay set it), else `default`."""
    try:
        return plan.model.ruleset.where(*path) or default
    except (KeyError, TypeError, AttributeError):
        return default


def _int(plan: Plan, expr, names: dict, pos) -> str:
    """The text of an int-valued `expr`: a folded literal as it is, an int-typed one as
    it is (its value is an int already), any other converted as the kernel does."""
    if expr.is_constant:
        return repr(int(expr.evaluate({})))
    text = _inline(plan, expr, names, pos)
    return text if expr.type == T.INT else f"k_int({text})"


def loop_lines(plan: Plan, expr, names: dict, target: str) -> list[str] | None:
    """Lines setting `target` to the value of `expr` when it is a `sum`, `any` or `all`
    over a comprehension, as a loop (no generator: `Expression.loop`); else None."""
    lines = expr.loop(target, names)
    if lines is None:
        return None
    seats = f"s[{plan.fields['n']}]"  # (as `_inline` writes the number of seats)
    return [line.replace("_len(k_seats(s))", seats) for line in lines]


def _points(plan: Plan, expr, names: dict, pos) -> list[str]:
    """Lines setting `p` to the int value of `expr` (a sum over a comprehension as a
    loop, `loop_lines`; any other as `p = ...`, `_int`)."""
    lines = loop_lines(plan, expr, names, "p") if expr.type == T.INT else None
    return lines if lines is not None else [f"p = {_int(plan, expr, names, pos)}"]


def _unread(expr, names: dict, pos) -> str:
    known = {key.split(".")[0] for key in names}
    missing = sorted(n for n in expr.names_used if n not in known) or sorted(expr.names_used)
    name = missing[0] if missing else "a definition"
    return (f"the expression `{comment(expr.source)}` ({where(pos)}) reads `{name}`"
            " (or a field of it) that compiled programs do not read yet")


def _bind(src: Source, plan: Plan, indent: int) -> None:
    """The locals every expression text may read (`plan.names_for`)."""
    f = plan.fields
    for name in ("scores", "counters", "pool", "pile", "events", "hands"):
        src.local(indent, f"{name} = s[{f[name]}]")


# -- receivers and winners -------------------------------------------------------------
def _receivers(plan: Plan, to: str) -> str:
    """The seats a scoring rule pays, as Python text (`flow.receivers`)."""
    f = plan.fields
    if to == "mover":
        return "(mover,)"
    if to == "each":
        return f"range(s[{f['n']}])"
    won = f"s[{f['round_winner']}]"
    if to == "winner":
        return f"(() if {won} is None else ({won},))"
    return f"(() if {won} is None else [x for x in range(s[{f['n']}]) if x != {won}])"


def _winner(plan: Plan, spec, mover: str) -> str:
    """The winner a spec chooses, as Python text (`flow.choose_winner`; by keys, a
    call of its function, `winner_functions`)."""
    f = plan.fields
    if spec.keys:
        j = next(j for j, other in enumerate(plan.winner_specs) if other is spec)
        return f"_winner_{j}(s, {mover})"
    lowest = "True" if plan.model.objective == "lowest" else "False"
    if spec.mode == "mover":
        return mover
    if spec.mode == "default":
        return f"(s[{f['last_winner']}] if s[{f['n']}] == 1 else k_best(scores, {lowest}))"
    if spec.mode in ("highest", "lowest"):
        return f"k_best(scores, {'True' if spec.mode == 'lowest' else 'False'})"
    return "None"


def _scoring_lines(src: Source, plan: Plan, indent: int, trigger: str,
                   names_of, events: bool = True) -> None:
    """The scoring rules on `trigger`, in order, each paying its receivers (`seat`):
    `names_of(seat)` gives the context names. `events=False`: the points only, no
    event (a search's step)."""
    for i, rule in enumerate(plan.model.scoring):
        if rule.on != trigger:
            continue
        points_at = at(plan, rule.pos, "scoring", rule.name, "points")
        overlaid = points_at is not None and rule.pos is not None and points_at.path != rule.pos.path
        also = f"; points: {where(points_at)}" if overlaid else ""
        src.note(indent, f"scoring rule `{rule.name}` ({where(rule.pos)}{also})")
        who = "mover" if rule.to == "mover" else "seat"  # (one seat: no loop)
        names = names_of(who)
        if rule.guard is not None and slot_name(i) in tables(plan):
            guard = f"{slot_name(i)}[slot]"  # (`if:` by the slot: fold.py)
        elif rule.guard is not None:
            guard_at = at(plan, rule.pos, "scoring", rule.name, "if")
            guard = _inline(plan, rule.guard, names, guard_at)
        pay = fragment(turn.pay, dict(
            WHO=who, GUARD=True if rule.guard is None else Code(guard),
            POINTS=Lines(_points(plan, rule.points, names, points_at)), RULE=i, EVENTS=events))
        site = plan.site(("rule", i))
        if rule.to == "mover":
            src.guarded(indent, pay, site)
        else:
            src.fragment(indent, turn.pay_each, dict(
                RECEIVERS=Code(_receivers(plan, rule.to)),
                PAY=_hole(lambda sub: sub.guarded(0, pay, site))))


# -- listing the legal moves --------------------------------------------------------------
def _listing_lines(src: Source, plan: Plan, indent: int) -> dict[str, str]:
    """Lines setting `out` to the legal move codes of the player to move (`seat`), in
    the interpreter's order, and `h<i>` to whether action i has one; returns the
    `can_<action>` texts."""
    f = plan.fields
    src.local(indent, f"seat = s[{f['to_move']}]")
    if plan.actions[0][0].kind != "place":  # (a placement listing starts `out` itself)
        src.add(indent, "out = []")
    cans: dict[str, str] = {}
    for i, (action, base) in enumerate(plan.actions):
        src.note(indent, f"the moves of action `{action.name}` ({where(action.pos)})")
        names = names_for(plan, "seat", "seat", cans=cans)
        if action.kind in ("deal", "draw", "pass"):  # (one move at most: `h<i>` set there)
            src.add(indent, f"h{i} = False")
            _simple_listing(src, plan, indent, action, base, names, f"h{i}")
            cans[f"can_{action.name}"] = f"h{i}"
            continue
        if i:
            src.local(indent, f"a{i} = len(out)")
        if action.kind == "exchange":
            _exchange_listing(src, plan, indent, (i, action, base), names)
        elif action.kind == "place":
            _place_listing(src, plan, indent, (i, action, base), names)
        elif action.kind == "move":
            _move_listing(src, plan, indent, action, base, names)
        else:
            _board_listing(src, plan, indent, action, base, names)
        src.local(indent, f"h{i} = len(out) > a{i}" if i else f"h{i} = not not out")
        cans[f"can_{action.name}"] = f"h{i}"
    return cans


def _simple_listing(src: Source, plan: Plan, indent: int, action, base: int, names,
                    has: str) -> None:
    """A deal, draw or pass: its one move when its guard holds (`_simple_moves`: no deal
    or draw from an empty pool); the local `has` set True when it is listed."""
    if action.kind != "pass":
        src.add(indent, "if pool:")
        indent += 1
    if action.guard is not None:
        condition = _inline(plan, action.guard, names, action.guard_pos)
        src.guarded(indent, [f"ok = {condition}"], plan.site(("guard", action.name)))
        src.add(indent, "if ok:")
        indent += 1
    src.add(indent, f"out.append({base})")
    src.add(indent, f"{has} = True")


def _exchange_listing(src: Source, plan: Plan, indent: int, listed, names) -> None:
    """An exchange's moves (`generators._exchange_moves`): none with an empty pool or
    its guard failing, else every exchange of the hand, kept in the state's
    `exchanges` (a code is base + the index there)."""
    f = plan.fields
    i, action, base = listed
    src.add(indent, "if pool:")
    ok = "True"
    if action.guard is not None:
        condition = _inline(plan, action.guard, names, action.guard_pos)
        src.guarded(indent + 1, [f"ok = {condition}"], plan.site(("guard", action.name)))
        ok = "ok"
    src.add(indent + 1, f"if {ok}:")
    src.add(indent + 2, "xhand = hands[seat]")
    src.add(indent + 2, f"xs = s[{f['exchanges']}] = k_exchanges_of({written_key(plan, i)})")
    src.add(indent + 2, f"out += range({base}, {base} + len(xs))")


def written_key(plan: Plan, i: int) -> str:
    """The text of the key `exchanges_of` reads for the hand `xhand`: `K_most[i]` and the
    hand's names, written out for the largest hand dealt."""
    return written_fields("xhand", "name", plan.model.largest_hand(),
                          f"(K_most[{i}], *map(k_name, xhand))", head=f"K_most[{i}]")


def _place_listing(src: Source, plan: Plan, indent: int, listed, names) -> None:
    """A place action's placements (`generators._place_moves`) as codes, those its
    guard allows: written out as code by the board, or the board's placement objects
    filtered by the guard and coded."""
    board = plan.board
    i, action, base = listed
    target = "out" if i == 0 else "got"
    src.block(indent, board.listing_lines(plan.fields, action, i, "seat"))
    if board.direct(action):
        src.block(indent, board.codes_lines(plan.fields, i, target, base))
    else:
        src.add(indent, board.objects_line(i))
        if action.guard is not None:
            # (written in place for each placement: its `move` varies with it, which
            # `item_condition`, for a condition on the piece alone, does not know)
            move = board.move_names("pl", applied=False)
            pieces = {alias: "_p" for alias in PIECE_NAMES}
            condition = _inline(plan, action.guard, {**names, **move, **pieces}, action.guard_pos)
            src.add(indent, "kept = []")
            src.add(indent, "for pl in pls:")
            src.add(indent + 1, "_p = pl.pieces[0]")
            src.guarded(indent + 1, [f"ok = {condition}"], plan.site(("guard", action.name)))
            src.add(indent + 1, "if ok:")
            src.add(indent + 2, "kept.append(B_code(pl))")
            src.add(indent, "pls = kept")
        else:
            src.add(indent, "pls = [B_code(pl) for pl in pls]")
        plus = f" + {base}" if base else ""
        src.add(indent, f"{target} = pls" if not plus else f"{target} = [x{plus} for x in pls]")
    if target != "out":
        src.add(indent, "out += got")


def _move_listing(src: Source, plan: Plan, indent: int, action, base: int, names) -> None:
    """A `move` action's moves (`general_move.move_moves`): the zones' part walks the
    candidates, the destination's `accepts:` and the action's `if:` written in place."""
    zones = plan.zones
    names = {**names, **zones.candidate_names(action)}
    names.update((alias, "mp[0]") for alias in PIECE_NAMES)
    accepts = plan.model.zones.zones[action.move.target].accepts
    key = action.move.target
    conditions = []
    if accepts is not None:
        pos = at(plan, action.pos, "zones", key, "accepts")
        conditions.append(_inline(plan, accepts, names, pos))
    if action.guard is not None:
        conditions.append(_inline(plan, action.guard, names, action.guard_pos))
    src.block(indent, zones.listing_lines(plan.fields, action, base, conditions,
                                          plan.site(("guard", action.name))))


def _board_listing(src: Source, plan: Plan, indent: int, action, base: int, names) -> None:
    head, tail = plan.board.candidates(plan.fields, "k", "_p")
    code = f"k + {base}" if base else "k"
    if action.guard is None:
        src.block(indent, head)
        src.add(indent + 1, f"out.append({code})")
        src.block(indent + 1, tail)
        return
    found = action.guard.item_condition(PIECE_NAMES, names)
    if found is None:
        raise NotCompiled(_unread(action.guard, names, action.guard_pos))
    index = next(i for i, (a, _) in enumerate(plan.actions) if a is action)
    if fit_name(index) in tables(plan):  # (the guard looked up by the pair: fold.py)
        src.note(indent, f"the guard by the pile's top and the piece ({fit_name(index)})")
        src.add(indent, "if pile:")
        src.add(indent + 1, f"fit = {fit_name(index)}[pile[-1].uid]")
        src.block(indent + 1, head)
        src.add(indent + 2, "if fit[_p.uid]:")
        src.add(indent + 3, f"out.append({code})")
        src.block(indent + 2, tail)
        src.add(indent, "else:")
        indent += 1
    condition, invariants = found
    for name in invariants:  # (parts shared by every candidate, computed once)
        src.local(indent, f"{name} = _UNSET")
    src.block(indent, head)
    src.guarded(indent + 1, [f"ok = {condition}"], plan.site(("guard", action.name)))
    src.add(indent + 1, "if ok:")
    src.add(indent + 2, f"out.append({code})")
    src.block(indent + 1, tail)


# -- the functions of the module -----------------------------------------------------------
def _start_round(src: Source, plan: Plan) -> None:
    """`_start_round(s, number)`: `flow.start_round` (a fresh shuffle, the hands, the
    deal, the opener, the `round_start` scoring rules)."""
    f, model = plan.fields, plan.model
    src.add(0, "def _start_round(s, number):")
    src.block(1, fragment(match.round_reset, dict(
        F=match.layout(f), COUNTERS="K_counters0", COPY_RNG="k_copy_rng", SHUFFLE="k_shuffle",
        PIECES="K_pieces")))
    _hand_lines(src, plan)
    _deal_lines(src, plan)
    src.add(1, f"s[{f['to_move']}] = (number - 1) % s[{f['n']}]")
    if model.opening is not None:
        src.note(1, f"the opener ({where(at(plan, None, 'setup', 'opening'))})")
        _opener_lines(src, plan, 1)
    if any(rule.on == "round_start" for rule in model.scoring):
        _bind(src, plan, 1)
        src.add(1, f"mover = s[{f['to_move']}]")
        _scoring_lines(src, plan, 1, "round_start",
                       lambda seat: names_for(plan, seat, "mover"))
    src.add(0, "")


def _opener_lines(src: Source, plan: Plan, indent: int) -> None:
    """The opening rule (`rounds.opener`): each piece's rank written out for the seat
    holding it when the rank or the alternative reads the seat (`player.won_last_round`),
    else read from the ranks worked out once by uid (`Game.opening_ranks`)."""
    opening = plan.model.opening
    if plan.seated_opening:
        names = names_for(plan, "seat", "seat", piece="_p")
        keys = [f"k_int({_inline(plan, k, names, None)})" for k in opening.rank]
        key = f"({', '.join(keys)},)"
        also = _inline(plan, opening.also, names, None) if opening.also is not None else "False"
        _bind(src, plan, indent)
    else:
        key, also = "K_ranks[_p.uid]", "_p.uid in K_also"
    src.fragment(indent, rounds.opener, dict(
        F=match.layout(plan.fields), KEY=Code(key), HAS_ALSO=opening.also is not None,
        ALSO=Code(also), SITE=plan.site(("opening",)), ERRORS="k_ERRORS",
        FAILURE="k_failure", FROZENSET="k_frozenset"))


def _hand_lines(src: Source, plan: Plan) -> None:
    """The hands from the shuffled `order`, the first dealt first (`rounds.deal_hands`);
    `h`: how many pieces they took."""
    if plan.hands:
        src.note(1, f"the hands, the first dealt first ({where(at(plan, None, 'setup', 'hand_size'))})")
    src.fragment(1, rounds.deal_hands, dict(
        F=match.layout(plan.fields), HANDS=plan.hands, HELD=plan.held, SIZES="K_hand",
        BITS="k_bits"))


def _deal_lines(src: Source, plan: Plan) -> None:
    """`setup.deal` from the shuffled `order` past the hands' `h` pieces."""
    f, board, at = plan.fields, plan.board, 0
    piles, dealt_board, zones, step = [], False, plan.zones, 0
    if zones is not None:
        src.note(1, "every zone emptied, then dealt as `setup.deal` says")
        src.block(1, zones.start_lines(f))
    for to, count in plan.model.deal:
        if to not in ("board", "pile"):
            src.note(1, f"the deal to `{to}`")
            lines, used = zones.deal_lines(step, at)
            src.block(1, lines)
            at, step = at + used, step + 1
        elif to == "board":
            if count is not None and count != board.size or dealt_board or not board.size:
                raise NotCompiled("a board dealt other than once, one card a slot")
            src.note(1, "the board, one piece a slot")
            src.block(1, board.deal_lines(f, f"order[h + {at}:h + {at + board.size}]"))
            at, dealt_board = at + board.size, True
        else:
            piles.append(f"order[h + {at}:h + {at + int(count)}]")
            at += int(count)
    if not dealt_board:
        src.block(1, board.empty_lines(f))
    src.add(1, f"s[{f['pile']}] = {' + '.join(piles) if piles else '[]'}")
    src.add(1, f"pool = s[{f['pool']}] = order[h + {at}:]")
    src.add(1, "pool.reverse()  # (the next drawn is the last)")
    if zones is not None:
        src.block(1, zones.alias_lines(f))


def winner_functions(src: Source, plan: Plan) -> None:
    """`_winner_<j>(s, mv)` for each winner spec chosen by keys (`rounds.winner_by_keys`):
    each seat's keys in a context of that seat (the mover `mv`, or the seat itself)."""
    for j, spec in enumerate(plan.winner_specs):
        if not spec.keys:
            continue
        site = plan.site(("winner", j))
        names = names_for(plan, "x", "mover")
        keys = [_int(plan, key, names, plan.sites[site].pos) for key in spec.keys]
        src.add(0, f"def _winner_{j}(s, mv):")
        src.fragment(1, rounds.winner_by_keys, dict(
            F=match.layout(plan.fields), BIND=_hole(lambda sub: _bind(sub, plan, 0)),
            KEYS=Code(f"({', '.join(keys)},)"), LOWEST=spec.mode == "lowest", SITE=site,
            PICK="k_pick", ERRORS="k_ERRORS", FAILURE="k_failure"))
        src.add(0, "")


def _end_round(src: Source, plan: Plan) -> None:
    """`_end_round(s, reason, winner, mover)`: `flow.end_round` (`rounds.end_round`,
    its template: the round's scoring, the match's end, or the next round)."""
    model = plan.model
    ended = model.match_end is not None
    match_end = _inline(plan, model.match_end, names_for(plan, "seat", "mover"),
                        at(plan, None, "match", "end_if")) if ended else "False"
    src.add(0, "def _end_round(s, reason, winner, mover):")
    src.fragment(1, rounds.end_round, dict(
        F=match.layout(plan.fields), BIND=_hole(lambda sub: _bind(sub, plan, 0)),
        SCORING=_hole(lambda sub: _scoring_lines(
            sub, plan, 0, "round_end", lambda seat: names_for(plan, seat, "mover"))),
        HAS_MATCH_END=ended, MAX_ROUNDS=int(model.max_rounds), MATCH_END=Code(match_end),
        MATCH_SITE=plan.site(("match",)) if ended else None,
        MATCH_WINNER=Code(_winner(plan, model.match_winner, "winner")),
        LISTING=_hole(lambda sub: _listing_lines(sub, plan, 0)),
        NO_MOVES=len(model.round_end), REASONS="K_reasons", START_ROUND="_start_round",
        BOOL="k_bool", ERRORS="k_ERRORS", FAILURE="k_failure"))
    src.add(0, "")


def _hole(write) -> Lines:
    """The lines `write(source)` writes at indent 0, as a template's hole."""
    sub = Source()
    write(sub)
    return sub.hole()
